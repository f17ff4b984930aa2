/* job.c (station) - one drive's job, in its own thread so that a drive
 * that hangs holds only its slot: identify it (inventory facts, its
 * history by serial), wait for its turn (the per-controller limit, the
 * staggered starts), run the profile's steps through the runner, and end
 * as finished, pulled, dropped or hung.  Every result is written as the
 * `run --json` document into OUT/SERIAL/ and recorded in the history. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "bench/plan-options.h"
#include "history/history.h"
#include "inventory/inventory.h"
#include "report/writer.h"
#include "run/plan-build.h"
#include "station/station-int.h"

struct jctx {
	struct job *j;
	const struct profile *pr;
	struct inventory inv;
	bool have_inv;
	char key[96];			/* the output folder's name: serial, else ... */
	uint64_t size, logical;
	size_t k;			/* the profile step running */
	/* the last snapshot's figures */
	double pos;			/* 0..1 */
	double frac;			/* the job done so far, 0..1 */
	uint64_t bytes_before;		/* earlier profile steps' bytes */
	uint64_t bytes;			/* this step's so far */
	double last_progress, last_change;
	uint64_t last_bytes;
	unsigned last_run_step;
	size_t last_pstep;
	enum verdict_level worst;
	struct json_object *results, *run_ids;
	char text[320];			/* the finished sentence */
};

static void
job_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static uint64_t
job_lba(const struct jctx *c)
{
	return (uint64_t)(c->pos * (double)c->size) / (c->logical ? c->logical : 512);
}

static int
job_percent(const struct jctx *c)
{
	double f = c->frac < 0 ? 0 : c->frac > 1 ? 1 : c->frac;
	return (int)(f * 100.0);
}

/* Keep [A-Za-z0-9._-]: a serial as a folder name, never a path. */
static void
job_key_set(char *dst, size_t n, const char *src)
{
	size_t o = 0;
	for (; *src && o + 1 < n; src++)
		dst[o++] = (char)((*src >= 'a' && *src <= 'z') || (*src >= 'A' && *src <= 'Z') ||
				  (*src >= '0' && *src <= '9') || *src == '.' || *src == '-' ? *src : '_');
	dst[o] = 0;
	if (!o || dst[0] == '.')
		snprintf(dst, n, "unknown");
}

/* The drive's last recorded run, as "tested 3 days ago: PASS"; NULL none. */
static struct json_object *
job_history(const struct drive *d)
{
	const char *key = d->serial[0] ? d->serial : d->wwn[0] ? d->wwn : NULL;
	struct history_drive_summary sum;
	char err[256];
	if (!key || history_off() || history_drive_summary(key, &sum, err, sizeof(err)) || !sum.n_runs)
		return NULL;
	const struct history_run_brief *b = &sum.runs[0];
	long days = (long)((time(NULL) - b->started) / 86400);
	char text[160], lv[16] = "no verdict";
	if (b->level >= 0) {
		snprintf(lv, sizeof(lv), "%s", verdict_level_name((enum verdict_level)b->level));
		for (char *q = lv; *q; q++)
			*q = (char)(*q >= 'a' && *q <= 'z' ? *q - 32 : *q);
	}
	if (days < 1)
		snprintf(text, sizeof(text), "tested today: %s", lv);
	else
		snprintf(text, sizeof(text), "tested %ld day%s ago: %s", days, days == 1 ? "" : "s", lv);
	struct json_object *h = json_object_new_object();
	json_object_object_add(h, "text", json_object_new_string(text));
	json_object_object_add(h, "last_run", json_object_new_string(b->run_id));
	json_object_object_add(h, "last_date", json_object_new_string(b->date));
	json_object_object_add(h, "days_ago", json_object_new_int64(days));
	json_object_object_add(h, "runs", json_object_new_int64((int64_t)sum.n_runs));
	return h;
}

/* The inventory's facts of the drive and its history: the arrived event. */
static int
job_identify(struct jctx *c)
{
	struct job *j = c->j;
	struct station *st = j->st;
	pthread_mutex_lock(&st->lib_lock);
	int rc = inventory_scan(&c->inv, st->o->inv);
	c->have_inv = !rc;
	struct drive *d = rc ? NULL : inventory_find_drive(&c->inv, j->dev);
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(j->path));
	json_object_object_add(o, "present_at_start", json_object_new_boolean(j->present_at_start));
	if (d) {
		json_object_object_add(o, "model", json_object_new_string(d->model));
		json_object_object_add(o, "serial", json_object_new_string(d->serial));
		json_object_object_add(o, "wwn", json_object_new_string(d->wwn));
		json_object_object_add(o, "transport", json_object_new_string(transport_name(d->transport)));
		if (d->capacity_bytes.known)
			json_object_object_add(o, "size_bytes", json_object_new_int64((int64_t)d->capacity_bytes.v));
		if (d->backing[0])
			json_object_object_add(o, "backing", json_object_new_string(d->backing));
		c->size = d->capacity_bytes.known ? d->capacity_bytes.v : 0;
		c->logical = d->logical.known ? d->logical.v : 512;
		const char *base = strrchr(d->backing, '/');
		char loopkey[300];
		snprintf(loopkey, sizeof(loopkey), "loop-%s", base ? base + 1 : d->backing);
		job_key_set(c->key, sizeof(c->key), d->serial[0] ? d->serial : d->wwn[0] ? d->wwn :
			    d->backing[0] ? loopkey : d->name);
		struct json_object *h = job_history(d);
		json_object_object_add(o, "history", h);
	} else {
		job_key_set(c->key, sizeof(c->key), j->dev);
		json_object_object_add(o, "note", json_object_new_string(rc ? "the inventory could not be read"
							      : "the inventory does not see it"));
	}
	json_object_object_add(o, "key", json_object_new_string(c->key));
	const char *why = NULL;
	bool testable = d && drive_testable(d, &why);
	if (d && !testable) {	/* the root disk, one that cannot be opened */
		snprintf(c->text, sizeof(c->text), "not tested: %s", why ? why : "not testable");
		json_object_object_add(o, "skipped", json_object_new_string(c->text));
	}
	pthread_mutex_unlock(&st->lib_lock);
	station_emit(st, "arrived", j->label, o);
	if (!d)
		snprintf(c->text, sizeof(c->text), "not identified: the inventory does not see it");
	return testable ? 0 : d ? -EPERM : -ENODEV;
}

/* The device is going: removed, empty, or a loop whose detach waits for
 * its last close (loop/autoclear). */
static bool
job_dev_going(const struct job *j)
{
	if (atomic_load(&j->gone))
		return true;
	char p[128], buf[32] = "";
	snprintf(p, sizeof(p), "/sys/block/%s/size", j->dev);
	FILE *f = fopen(p, "r");
	if (!f)
		return true;
	bool empty = !fgets(buf, sizeof(buf), f) || strtoull(buf, NULL, 10) == 0;
	fclose(f);
	if (empty)
		return true;
	snprintf(p, sizeof(p), "/sys/block/%s/loop/autoclear", j->dev);
	if ((f = fopen(p, "r"))) {
		bool ac = fgets(buf, sizeof(buf), f) && buf[0] == '1';
		fclose(f);
		return ac;
	}
	return false;
}

/* Whether the drive failed with errno e; *off (when known) where its
 * first failed I/O of that step was, in bytes. */
static bool
job_saw_errno(const struct run_result *r, int eno, bool *have_off, uint64_t *off)
{
	for (size_t s = 0; s < r->n_steps; s++)
		for (size_t k = 0; k < r->steps[s].n_res; k++) {
			const struct err_summary *er = &r->steps[s].res[k].err;
			for (size_t e = 0; e < er->n_errno; e++)
				if (er->by_errno[e].err == eno) {
					*have_off = er->have_offsets;
					*off = er->first_offset;
					return true;
				}
		}
	return false;
}

/* The drive stopped progressing: its slot is marked hung (once). */
static void
job_hung(struct jctx *c, double seconds)
{
	struct job *j = c->j;
	if (atomic_exchange(&j->hung, true))
		return;
	struct json_object *o = json_object_new_object();
	char text[160];
	snprintf(text, sizeof(text), "hung at LBA %llu: no progress for %.0f s", (unsigned long long)job_lba(c),
		 seconds);
	json_object_object_add(o, "device", json_object_new_string(j->path));
	json_object_object_add(o, "lba", json_object_new_int64((int64_t)job_lba(c)));
	json_object_object_add(o, "percent", json_object_new_int(job_percent(c)));
	json_object_object_add(o, "seconds", station_num(seconds));
	json_object_object_add(o, "text", json_object_new_string(text));
	station_emit(j->st, "hung", j->label, o);
}

/* One snapshot: step, progress (at most once a second), hung. */
static void
job_watch_snapshot(struct jctx *c, struct runner *r, double now)
{
	struct job *j = c->j;
	struct run_snapshot s;
	if (runner_snapshot(r, &s))
		return;
	if (s.n_targets) {
		c->pos = s.t[0].pos;
		c->bytes = s.t[0].bytes;
		if (s.t[0].size)
			c->size = s.t[0].size;
	}
	/* the planned time when the runner knows it, else steps and position;
	 * never backwards (a quick pass samples positions out of order) */
	double run_frac = s.eta_s.known && s.elapsed_s + s.eta_s.v > 0 ? s.elapsed_s / (s.elapsed_s + s.eta_s.v)
			: s.n_steps ? ((s.step ? s.step - 1 : 0) + c->pos) / s.n_steps : c->pos;
	double frac = (c->k + run_frac) / (double)c->pr->n_steps;
	if (frac > c->frac)
		c->frac = frac;
	if (s.step != c->last_run_step || c->k != c->last_pstep) {
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "profile_step", json_object_new_int64((int64_t)c->k + 1));
		json_object_object_add(o, "profile_steps", json_object_new_int64((int64_t)c->pr->n_steps));
		json_object_object_add(o, "test", json_object_new_string(s.test));
		json_object_object_add(o, "run_step", json_object_new_int64(s.step));
		json_object_object_add(o, "run_steps", json_object_new_int64(s.n_steps));
		json_object_object_add(o, "label", json_object_new_string(s.cur_label));
		station_emit(j->st, "step", j->label, o);
		c->last_run_step = s.step;
		c->last_pstep = c->k;
	}
	if (c->bytes != c->last_bytes) {
		c->last_bytes = c->bytes;
		c->last_change = now;
	}
	if (now - c->last_progress >= 1.0) {
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "percent", json_object_new_int(job_percent(c)));
		json_object_object_add(o, "lba", json_object_new_int64((int64_t)job_lba(c)));
		json_object_object_add(o, "bytes", json_object_new_int64((int64_t)(c->bytes_before + c->bytes)));
		json_object_object_add(o, "mbps", station_num(s.n_targets ? s.t[0].mbps : 0));
		json_object_object_add(o, "t_run", station_num(s.elapsed_s));
		station_emit(j->st, "progress", j->label, o);
		c->last_progress = now;
	}
	if (!atomic_load(&j->hung) && s.state == RUN_RUNNING && now - c->last_change >= j->st->o->io_timeout_s) {
		job_hung(c, now - c->last_change);
		runner_stop(r);
	}
	snapshot_free(&s);
}

/* A step's test through the runner, watched.  0 with *res filled, or
 * -errno + err (nothing ran). */
static int
job_run_test(struct jctx *c, const struct profile_step *ps, struct run_result *res, char *err, size_t errlen)
{
	struct job *j = c->j;
	struct station *st = j->st;
	const char *const targets[] = { j->path };
	struct plan p;
	int rc = plan_from_words(&p, ps->test, targets, 1, ps->options, err, errlen);
	if (!rc) {
		p.io_timeout_s = st->o->io_timeout_s;
		pthread_mutex_lock(&st->lib_lock);
		rc = plan_make(&p, &(struct plan_env){ .inv = c->have_inv ? &c->inv : NULL,
						      .inv_opts = st->o->inv,
						      .history_rates = st->o->history_rates },
			       err, errlen);
		pthread_mutex_unlock(&st->lib_lock);
	}
	struct runner *r = NULL;
	int bad = -1;
	if (!rc)
		rc = runner_create(&p, &r, &bad, err, errlen);
	if (!rc && (rc = runner_start(r)))
		snprintf(err, errlen, "cannot start: %s", strerror(-rc));
	if (rc) {
		if (r)
			runner_destroy(r);
		plan_free(&p);
		return rc;
	}
	bool stopped = false;
	c->last_change = station_now();
	c->last_run_step = UINT_MAX;
	while (!runner_wait(r, 200)) {
		if (!stopped && (atomic_load(&j->quit) || atomic_load(&j->gone))) {
			runner_stop(r);
			stopped = true;
		}
		job_watch_snapshot(c, r, station_now());
	}
	runner_result(r, res);
	if (stopped)
		res->interrupted = true;
	runner_destroy(r);	/* the device closed: a deferred loop detach happens now */
	plan_free(&p);
	return 0;
}

static enum verdict_level
job_level(const struct run_result *r)
{
	enum verdict_level lv = VL_PASS;
	for (size_t i = 0; i < r->n_verdicts; i++)
		if (!r->verdicts[i].tally && r->verdicts[i].level > lv)
			lv = r->verdicts[i].level;
	if (r->failed || !r->n_steps)
		lv = VL_FAIL;
	return lv;
}

static void
job_level_text(enum verdict_level lv, char *buf, size_t n)
{
	snprintf(buf, n, "%s", lv == VL_INFO ? "pass" : verdict_level_name(lv));
	for (char *q = buf; *q; q++)
		*q = (char)(*q >= 'a' && *q <= 'z' ? *q - 32 : *q);
}

/* The result into OUT/KEY/ as the run --json document, and the history. */
static void
job_save(struct jctx *c, const struct run_result *res)
{
	struct station *st = c->j->st;
	char dir[PATH_MAX], path[PATH_MAX + 96], stamp[32];
	struct tm tm;
	time_t t = res->started ? res->started : time(NULL);
	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(dir, sizeof(dir), "%s/%s", st->o->out_dir, c->key);
	if (mkdir(st->o->out_dir, 0755) && errno != EEXIST)
		path[0] = 0;
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/%s-%zu-%s.json", dir, stamp, c->k + 1, res->test);
	const struct writer *w = writer_find("json", NULL);
	int rc = w ? w->write(res, path) : -ENOSYS;
	if (rc) {
		struct json_object *o = json_object_new_object();
		char text[PATH_MAX + 192];
		snprintf(text, sizeof(text), "%s: %s", path, strerror(-rc));
		json_object_object_add(o, "text", json_object_new_string(text));
		station_emit(st, "error", c->j->label, o);
	} else {
		json_object_array_add(c->results, json_object_new_string(path));
	}
	json_object_array_add(c->run_ids, json_object_new_string(res->run_id));
	pthread_mutex_lock(&st->lib_lock);
	history_record(res, &(struct history_opts){ .quiet = true });
	pthread_mutex_unlock(&st->lib_lock);
}

/* The end of one drive: pulled, dropped, hung or finished, one event. */
static void
job_end(struct jctx *c, const char *type, const char *text)
{
	struct job *j = c->j;
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(j->path));
	json_object_object_add(o, "key", json_object_new_string(c->key));
	if (strcmp(type, "finished")) {
		json_object_object_add(o, "lba", json_object_new_int64((int64_t)job_lba(c)));
		json_object_object_add(o, "percent", json_object_new_int(job_percent(c)));
	}
	if (strcmp(type, "pulled"))
		json_object_object_add(o, "verdict", json_object_new_string(j->verdict));
	else
		json_object_object_add(o, "early", json_object_new_boolean(true));	/* before a verdict */
	json_object_object_add(o, "text", json_object_new_string(text));
	json_object_object_add(o, "results", json_object_get(c->results));
	json_object_object_add(o, "run_ids", json_object_get(c->run_ids));
	json_object_object_add(o, "recorded", json_object_new_boolean(!history_off()));
	station_emit(j->st, type, j->label, o);
}

/* After a test: did the drive leave (pulled), drop off the bus (ENODEV
 * while it stays), or hang?  Adds that verdict to res.  The type or NULL. */
static const char *
job_fate(struct jctx *c, struct run_result *res, char *text, size_t n)
{
	struct job *j = c->j;
	bool have_off = false;
	uint64_t off = 0;
	bool enodev = job_saw_errno(res, ENODEV, &have_off, &off);
	/* the runner gave up on an I/O outstanding past --io-timeout, maybe
	 * before the watch saw the timeout pass: hung all the same */
	if (!enodev && job_saw_errno(res, ETIMEDOUT, &have_off, &off)) {
		if (have_off && c->size)
			c->pos = (double)off / (double)c->size;
		job_hung(c, j->st->o->io_timeout_s);
	}
	bool going = job_dev_going(j);
	if (have_off && c->size)	/* where it failed, not where the next step began */
		c->pos = (double)off / (double)c->size;
	/* a pulled drive fails with ENODEV a moment before its removal shows */
	for (double t0 = station_now(); enodev && !going && station_now() - t0 < j->st->o->pull_grace_s;) {
		job_sleep_ms(50);
		going = job_dev_going(j);
	}
	unsigned long long lba = (unsigned long long)job_lba(c);
	if (going && (enodev || res->interrupted || atomic_load(&j->gone))) {
		snprintf(text, n, "pulled at LBA %llu after %d %%", lba, job_percent(c));
		res->interrupted = true;
		j->pulled = true;
		return "pulled";
	}
	struct verdict *v = NULL;
	const char *type = NULL;
	if (enodev) {
		snprintf(text, n, "dropped off the bus at LBA %llu", lba);
		v = result_verdict(res, VL_FAIL, "dropped", "%s", text);
		type = "dropped";
	} else if (atomic_load(&j->hung)) {
		snprintf(text, n, "hung at LBA %llu: no progress for %.0f s", lba, j->st->o->io_timeout_s);
		v = result_verdict(res, VL_FAIL, "hung", "%s", text);
		type = "finished";
	}
	if (v)
		v->problem = true;
	return type;
}

static void
job_run_profile(struct jctx *c)
{
	struct job *j = c->j;
	c->worst = VL_PASS;
	c->text[0] = 0;
	for (c->k = 0; c->k < c->pr->n_steps; c->k++) {
		const struct profile_step *ps = &c->pr->steps[c->k];
		if (ps->kind == PSTEP_SELFTEST) {
			/* the hook for the self-test command: this build has none */
			struct json_object *o = json_object_new_object();
			json_object_object_add(o, "profile_step", json_object_new_int64((int64_t)c->k + 1));
			json_object_object_add(o, "selftest", json_object_new_string(ps->selftest));
			json_object_object_add(o, "skipped", json_object_new_string("no self-test in this build"));
			station_emit(j->st, "step", j->label, o);
			continue;
		}
		struct run_result res;
		char err[512] = "", text[320] = "";
		memset(&res, 0, sizeof(res));
		int rc = job_run_test(c, ps, &res, err, sizeof(err));
		if (rc) {
			bool going = job_dev_going(j);
			strtrimcpy(c->text, sizeof(c->text), err);
			j->pulled = going;
			c->worst = VL_FAIL;
			job_level_text(c->worst, j->verdict, sizeof(j->verdict));
			job_end(c, going ? "pulled" : "finished", err);
			return;
		}
		const char *fate = job_fate(c, &res, text, sizeof(text));
		enum verdict_level lv = job_level(&res);
		if (lv > c->worst)
			c->worst = lv;
		c->bytes_before += c->bytes;
		job_save(c, &res);
		if (!c->text[0] || lv == c->worst)
			for (size_t i = 0; i < res.n_verdicts; i++)
				if (!res.verdicts[i].tally && res.verdicts[i].level == lv)
					snprintf(c->text, sizeof(c->text), "%s", res.verdicts[i].text);
		run_result_free(&res);
		job_level_text(c->worst, j->verdict, sizeof(j->verdict));
		if (fate) {
			job_end(c, fate, text);
			return;
		}
		if (atomic_load(&j->quit)) {
			job_end(c, "stopped", "the station quit before the profile ended");
			return;
		}
	}
	job_end(c, "finished", c->text[0] ? c->text : j->verdict);
}

void *
job_main(void *arg)
{
	struct job *j = arg;
	struct jctx c = { .j = j, .pr = j->st->profile };
	c.results = json_object_new_array();
	c.run_ids = json_object_new_array();
	if (job_identify(&c) == 0) {
		atomic_store(&j->wants_start, true);
		while (!atomic_load(&j->may_start) && !atomic_load(&j->quit) && !atomic_load(&j->gone))
			job_sleep_ms(50);
		if (atomic_load(&j->may_start)) {
			struct json_object *o = json_object_new_object();
			json_object_object_add(o, "device", json_object_new_string(j->path));
			json_object_object_add(o, "profile", json_object_new_string(c.pr->name));
			json_object_object_add(o, "steps", json_object_new_int64((int64_t)c.pr->n_steps));
			station_emit(j->st, "started", j->label, o);
			c.last_progress = station_now();
			job_run_profile(&c);
		} else {
			j->pulled = atomic_load(&j->gone);
			job_end(&c, j->pulled ? "pulled" : "stopped", "before its turn came");
		}
	} else {
		job_end(&c, "finished", c.text);
	}
	json_object_put(c.results);
	json_object_put(c.run_ids);
	if (c.have_inv)
		inventory_free(&c.inv);
	atomic_store(&j->done, true);
	return NULL;
}
