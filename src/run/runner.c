/* runner.c - runs a plan: steps in order, workers per step, the sampler
 * (10 Hz on the runner thread), the test's hooks and the result.  Every
 * step carries its own parameters; the runner knows no test by name. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "run/measure.h"
#include "run/runner.h"
#include "run/runner-int.h"
#include "util/util.h"

/* ---- plan ---- */

void
snapshot_free(struct run_snapshot *s)
{
	if (!s)
		return;
	free(s->t);
	s->t = NULL;
	s->n_targets = 0;
	if (s->table) {
		result_table_free(s->table);
		free(s->table);
		s->table = NULL;
	}
}

/* ---- the runner (its state: runner-int.h; one step: step.c) ---- */

static int
copy_list(struct strlist *dst, const struct strlist *src)
{
	for (size_t i = 0; i < src->n; i++)
		if (strlist_add(dst, src->v[i]))
			return -ENOMEM;
	return 0;
}

int
runner_create(const struct plan *p, struct runner **out, int *bad_target, char *err, size_t errlen)
{
	*out = NULL;
	if (bad_target)
		*bad_target = -1;
	struct runner *r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->plan = *p;
	memset(&r->plan.user_targets, 0, sizeof(struct strlist));
	memset(&r->plan.targets, 0, sizeof(struct strlist));
	memset(&r->plan.notes, 0, sizeof(struct strlist));
	r->plan.steps = calloc(p->n_steps ? p->n_steps : 1, sizeof(*p->steps));
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	int rc = -ENOMEM;
	if (!r->plan.steps || copy_list(&r->plan.user_targets, &p->user_targets) ||
	    copy_list(&r->plan.targets, &p->targets) || copy_list(&r->plan.notes, &p->notes))
		goto fail;
	if (p->n_steps)
		memcpy(r->plan.steps, p->steps, p->n_steps * sizeof(*p->steps));
	const struct bench_test *bt = p->test;
	size_t nt = p->targets.n ? p->targets.n : 1;
	r->state = calloc(1, bt && bt->state_size ? bt->state_size : 1);
	r->io_state = calloc(nt, bt && bt->io_state_size ? bt->io_state_size : 1);
	if (!r->state || !r->io_state)
		goto fail;
	r->ctx = (struct bench_ctx){ .plan = &r->plan, .res = &r->res, .state = r->state,
				     .io_state = r->io_state, .n_targets = p->targets.n };

	/* Default engine: io_uring, except at queue depth 1, where a ring has
	 * nothing to overlap and drivers without nowait support (zram, some
	 * loop setups) push every uring I/O through a kernel worker thread:
	 * measured on zram, 4K QD1, 25k IOPS with uring against 467k with
	 * pread.  --engine still chooses. */
	const char *en = p->params.engine[0] ? p->params.engine
			 : p->params.qd == 1 ? "psync" : "uring";
	r->ops_default = engine_find(en);
	if (!r->ops_default) {
		snprintf(err, errlen, "unknown engine '%s' (uring, psync, sim)", en);
		rc = -EINVAL;
		goto fail;
	}
	if (!p->engine_explicit) {
		r->ops_fallback = engine_find("psync");
		/* A ring that opens but cannot submit (a seccomp filter on
		 * io_uring_enter only) fails late; the probe submits one NOP. */
		int pr = !strcmp(r->ops_default->name, "uring") ? engine_uring_probe() : 0;
		if (pr && r->ops_fallback) {
			char msg[160];
			snprintf(msg, sizeof(msg), "io_uring unavailable (%s): using psync", strerror(-pr));
			strlist_add(&r->plan.notes, msg);
			r->ops_default = r->ops_fallback;
		}
	}
	r->ops_sim = engine_find("sim");

	r->n_t = p->targets.n;
	r->t = calloc(r->n_t ? r->n_t : 1, sizeof(*r->t));
	r->live = calloc(r->n_t ? r->n_t : 1, sizeof(*r->live));
	if (!r->t || !r->live)
		goto fail;
	r->ctx.targets = r->t;
	r->ctx.runner = r;
	for (size_t i = 0; i < r->n_t; i++)
		r->t[i].fd = -1;
	struct target_opts topts = p->topts;
	topts.sim_seed = p->params.seed;	/* --seed drives the sim drives' noise too */
	topts.defer_fill = true;	/* filled by runner_main, off the caller's thread */
	for (size_t i = 0; i < r->n_t; i++) {
		char e[256] = "";
		rc = target_open(&r->t[i], p->targets.v[i], &topts, e, sizeof(e));
		if (rc) {
			snprintf(err, errlen, "%s", e[0] ? e : strerror(-rc));
			if (bad_target)
				*bad_target = (int)i;
			r->n_t = i;	/* close only what opened */
			goto fail;
		}
		rc = plan_check_target(p, &r->t[i], err, errlen);
		if (!rc)
			rc = plan_check_format(p, &r->t[i], err, errlen);
		/* every step's own parameters too, before any I/O */
		for (size_t k = 0; !rc && k < p->n_steps; k++) {
			struct plan *ps = malloc(sizeof(*ps));
			if (!ps) {
				rc = -ENOMEM;
				break;
			}
			plan_for_step(p, &p->steps[k], ps);
			rc = plan_check_target(ps, &r->t[i], err, errlen);
			free(ps);
		}
		if (rc) {
			if (bad_target)
				*bad_target = (int)i;
			r->n_t = i + 1;
			goto fail;
		}
		if (r->t[i].notice[0] && !strlist_has(&r->plan.notes, r->t[i].notice))
			strlist_add(&r->plan.notes, r->t[i].notice);
		struct snap_target *s = &r->live[i].snap;
		strtrimcpy(s->name, sizeof(s->name), r->t[i].name);
		s->controller = r->t[i].facts.controller.known ? (int)r->t[i].facts.controller.v : -1;
		s->p50_us = s->p99_us = (struct known_dbl){ 0 };
	}
	if (bt && bt->before && (rc = bt->before(&r->ctx, err, errlen)) != 0)
		goto fail;
	*out = r;
	return 0;
fail:
	runner_destroy(r);
	return rc;
}

static void
publish_step(struct runner *r, size_t pos, const struct step_result *sr)
{
	pthread_mutex_lock(&r->mu);
	r->snap.n_steps_done = pos + 1;
	if (pos < SNAP_STEPS) {
		r->snap.steps[pos].aggregate_mbps = sr->aggregate_mbps;
		r->snap.steps[pos].ideal_mbps = sr->ideal_mbps;
		r->snap.steps[pos].done = true;
	}
	if (!r->snap.knee_drives)
		r->snap.knee_drives = r->ctx.knee_drives;
	pthread_mutex_unlock(&r->mu);
}

/* Grow the result arrays when a test appended steps. */
static int
result_room(struct runner *r)
{
	size_t want = r->plan.n_steps ? r->plan.n_steps : 1;
	struct step_result *ns = realloc(r->res.steps, want * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	if (want > r->n_res_cap)
		memset(ns + r->n_res_cap, 0, (want - r->n_res_cap) * sizeof(*ns));
	r->res.steps = ns;
	struct target_result *so = realloc(r->res.solo, want * sizeof(*so));
	if (!so)
		return -ENOMEM;
	if (want > r->n_res_cap)
		memset(so + r->n_res_cap, 0, (want - r->n_res_cap) * sizeof(*so));
	r->res.solo = so;
	r->n_res_cap = want > r->n_res_cap ? want : r->n_res_cap;
	return 0;
}

/* The idle time a step asks for before it runs: sim drives on a virtual
 * clock idle on that clock (no wall time passes); anything else waits in
 * short slices so a stop is honoured at once. */
static void
idle_before(struct runner *r, const struct plan_step *st)
{
	if (!(st->pause_s > 0))
		return;
	bool wall = false;
	for (unsigned k = 0; k < st->n; k++) {
		struct target *t = &r->t[st->idx[k]];
		if (t->kind == TGT_SIM && !(t->sim_speed > 0))
			sim_target_idle(t, st->pause_s);
		else
			wall = true;
	}
	if (!wall)
		return;
	char m[96];
	snprintf(m, sizeof(m), "idle %gs before %s", st->pause_s, st->label[0] ? st->label : "the next step");
	pthread_mutex_lock(&r->mu);
	strtrimcpy(r->snap.message, sizeof(r->snap.message), m);
	pthread_mutex_unlock(&r->mu);
	uint64_t end = now_ns() + (uint64_t)(st->pause_s * 1e9);
	for (uint64_t now = now_ns(); !atomic_load(&r->stop) && now < end; now = now_ns()) {
		uint64_t left = end - now;
		struct timespec ts = { 0, (long)(left < 100000000ull ? left : 100000000ull) };
		nanosleep(&ts, NULL);
	}
	pthread_mutex_lock(&r->mu);	/* the idle notice is over (the state is left as it is) */
	r->snap.message[0] = 0;
	pthread_mutex_unlock(&r->mu);
}

/* The test's table so far, for the live panel (PANEL_TABLE). */
static void
live_table(struct runner *r)
{
	const struct bench_test *bt = r->plan.test;
	if (!bt || !bt->live_table)
		return;
	struct run_result tmp = { 0 };
	struct result_table copy = { 0 };
	if (!bt->live_table(&r->ctx, &tmp) && tmp.n_tables && !result_table_copy(&copy, &tmp.tables[0])) {
		pthread_mutex_lock(&r->mu);
		result_table_free(&r->live_tbl);
		r->live_tbl = copy;
		pthread_mutex_unlock(&r->mu);
	}
	run_result_free(&tmp);
}

struct prep_ctx {
	struct runner *r;
	const char *name;
};

static int
prep_progress(void *arg, double frac)
{
	struct prep_ctx *c = arg;
	char m[160];
	snprintf(m, sizeof(m), "%s: preparing scratch file %.0f %%", c->name, frac * 100);
	runner_set_state(c->r, RUN_STARTING, m);
	return atomic_load(&c->r->stop);
}

/* Slow preparation (filling a scratch file for a read test) as a phase of
 * the run, on this thread, with its progress in the snapshot. */
static int
runner_prepare(struct runner *r)
{
	for (size_t i = 0; i < r->n_t; i++) {
		if (!r->t[i].fill_pending)
			continue;
		struct prep_ctx c = { r, r->t[i].name };
		char err[256] = "";
		int rc = target_prepare(&r->t[i], prep_progress, &c, err, sizeof(err));
		if (rc) {
			if (rc != -EINTR)
				runner_note(r, err);
			return rc;
		}
	}
	return 0;
}

static void *
runner_main(void *arg)
{
	struct runner *r = arg;
	struct plan *p = &r->plan;
	const struct bench_test *bt = p->test;
	bool prep_failed = runner_prepare(r) != 0;
	if (prep_failed)
		atomic_store(&r->stop, true);	/* nothing runs; the note says why */
	runner_set_state(r, RUN_RUNNING, NULL);
	live_table(r);	/* the empty grid before the first step */
	size_t pos = 0;		/* measured steps so far */
	for (size_t i = 0; i < p->n_steps && !atomic_load(&r->stop); i++) {
		if (result_room(r)) {
			runner_note(r, "out of memory");
			r->res.failed = true;
			break;
		}
		struct plan_step st = p->steps[i];	/* a hook may move the array */
		idle_before(r, &st);
		if (atomic_load(&r->stop))
			break;
		pthread_mutex_lock(&r->mu);
		strtrimcpy(r->snap.cur_label, sizeof(r->snap.cur_label), st.label);
		pthread_mutex_unlock(&r->mu);
		struct step_result *sr, solo_sr;
		if (st.solo) {
			memset(&solo_sr, 0, sizeof(solo_sr));
			sr = &solo_sr;
			sr->res = &r->res.solo[r->res.n_solo];
			memset(sr->res, 0, sizeof(*sr->res));
		} else {
			sr = &r->res.steps[pos];
			sr->index = (unsigned)pos + 1;
			sr->res = calloc(st.n, sizeof(*sr->res));
			if (!sr->res) {
				runner_note(r, "out of memory");
				r->res.failed = true;
				break;
			}
			snprintf(sr->label, sizeof(sr->label), "%s", st.label);
			sr->bs = st.rp.bs;
			sr->qd = st.rp.qd;
			sr->rw_mix = st.rp.rw_mix;
			snprintf(sr->pattern, sizeof(sr->pattern), "%s", st.rp.pattern);
			for (unsigned k = 0; k < st.n; k++)
				strlist_add(&sr->active, r->t[st.idx[k]].name);
		}
		sr->n_res = st.n;
		if (!st.solo) {
			pthread_mutex_lock(&r->mu);
			r->snap.step = (unsigned)pos + 1;
			if (pos < SNAP_STEPS) {
				r->snap.steps[pos].index = (unsigned)pos + 1;
				r->snap.steps[pos].n_active = st.n;
				r->snap.steps[pos].ideal_mbps = st.ref_mbps;
				strtrimcpy(r->snap.step_label[pos], sizeof(r->snap.step_label[pos]), st.label);
				r->snap.step_maps[pos] = st.maps;
			}
			pthread_mutex_unlock(&r->mu);
		} else {
			runner_set_state(r, RUN_RUNNING, NULL);
		}
		int rc = step_run(r, &st, st.solo ? SNAP_STEPS : pos, sr);
		if (st.solo)
			r->res.n_solo++;
		else
			r->res.n_steps = ++pos;
		if (rc && !atomic_load(&r->stop)) {
			/* the step could not run: say so, and judge nothing from it */
			char m[192];
			if (st.solo)
				snprintf(m, sizeof(m), "a solo pass could not run: %s", strerror(-rc));
			else
				snprintf(m, sizeof(m), "step %u could not run: %s", sr->index, strerror(-rc));
			runner_note(r, m);
			sr->failed = true;
			KNOWN_CLEAR(sr->aggregate_mbps);
			r->res.failed = true;
		}
		if (bt && bt->on_step && !sr->failed) {
			size_t before = p->n_steps;
			bt->on_step(&r->ctx, &st, sr);
			if (p->n_steps != before) {	/* steps added: the progress counts them */
				unsigned n = 0;
				double left = 0;
				for (size_t k = 0; k < p->n_steps; k++) {
					n += !p->steps[k].solo;
					if (k >= before)
						left += step_planned(&p->steps[k]);
				}
				pthread_mutex_lock(&r->mu);
				r->snap.n_steps = n;
				if (r->planned_s > 0)
					r->planned_s += left;
				pthread_mutex_unlock(&r->mu);
			}
		}
		r->done_planned_s += step_planned(&st);
		if (!st.solo) {
			live_table(r);
			publish_step(r, pos - 1, sr);
		}
		if (sr->failed) {
			atomic_store(&r->stop, true);
			break;
		}
	}
	r->res.seconds = (double)(now_ns() - r->t_start) / 1e9;
	r->res.interrupted = r->stop_reason != 0;
	/* a run with a failed step still has a result to show (it says so) */
	runner_set_state(r, r->res.interrupted ? RUN_STOPPED : prep_failed ? RUN_FAILED : RUN_DONE, NULL);
	pthread_mutex_lock(&r->mu);
	atomic_store(&r->over, true);
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

int
runner_start(struct runner *r)
{
	const struct plan *p = &r->plan;
	struct run_result *res = &r->res;
	if (p->test)
		strtrimcpy(res->test, sizeof(res->test), p->test->name);
	res->test_flags = p->test ? p->test->flags : 0;
	copy_list(&res->targets, p->user_targets.n ? &p->user_targets : &p->targets);
	res->params = p->params;
	res->params.engine[0] = 0;	/* filled with the engine actually used */
	res->started = time(NULL);
	res->ceiling_mbps = p->ceiling_mbps;
	strtrimcpy(res->ceiling_text, sizeof(res->ceiling_text), p->ceiling_text);
	copy_list(&res->notes, &p->notes);
	/* identity: the run, the host, each target's drive as the inventory saw it */
	result_new_id(res->run_id, sizeof(res->run_id));
	if (gethostname(res->host, sizeof(res->host) - 1))
		res->host[0] = 0;
	strtrimcpy(res->version, sizeof(res->version), DS_VERSION);
	res->ident = calloc(r->n_t ? r->n_t : 1, sizeof(*res->ident));
	if (res->ident) {
		res->n_ident = r->n_t;
		for (size_t i = 0; i < r->n_t; i++) {
			res->ident[i] = p->ident[i];
			/* a device or sim drive the inventory did not list still
			 * has a size (a scratch file's is not the drive's) */
			if (!res->ident[i].capacity.known && r->t[i].kind != TGT_FILE && r->t[i].size)
				res->ident[i].capacity = (struct known_u64){ true, r->t[i].size };
			strlist_add(&res->ident_targets, r->t[i].name);
		}
	}
	struct run_snapshot *S = &r->snap;
	strtrimcpy(S->test, sizeof(S->test), res->test);
	S->state = RUN_STARTING;
	S->panels = p->test ? p->test->panels : 0;
	S->interval_ms = 100;
	S->n_steps = 0;
	S->ceiling_mbps = p->ceiling_mbps;
	KNOWN_CLEAR(S->eta_s);
	S->lat_p50_us = S->lat_p99_us = S->lat_p999_us = (struct known_dbl){ 0 };
	r->planned_s = 0;
	bool timed = true;
	for (size_t i = 0; i < p->n_steps; i++) {
		r->planned_s += step_planned(&p->steps[i]);
		timed &= p->steps[i].seconds > 0 && p->steps[i].rp.size == 0;
		S->n_steps += !p->steps[i].solo;
	}
	if (!timed)
		r->planned_s = 0;
	r->t_start = now_ns();
	int rc = pthread_create(&r->th, NULL, runner_main, r);
	if (rc)
		return -rc;
	r->started = true;
	r->launched = true;
	return 0;
}

void
runner_stop(struct runner *r)
{
	r->stop_reason = 1;
	atomic_store(&r->stop, true);
	runner_set_state(r, RUN_STOPPING, NULL);
}

bool
runner_wait(struct runner *r, int timeout_ms)
{
	if (!r->started)
		return true;
	pthread_mutex_lock(&r->mu);
	if (timeout_ms < 0) {
		while (!atomic_load(&r->over))
			pthread_cond_wait(&r->cv, &r->mu);
	} else if (!atomic_load(&r->over)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += timeout_ms / 1000;
		ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&r->cv, &r->mu, &ts);
	}
	bool over = atomic_load(&r->over);
	pthread_mutex_unlock(&r->mu);
	if (over && r->started) {
		pthread_join(r->th, NULL);
		r->started = false;
	}
	return over;
}

int
runner_snapshot(struct runner *r, struct run_snapshot *out)
{
	pthread_mutex_lock(&r->mu);
	*out = r->snap;
	out->t = calloc(r->n_t ? r->n_t : 1, sizeof(*out->t));
	if (!out->t) {
		pthread_mutex_unlock(&r->mu);
		out->n_targets = 0;
		return -ENOMEM;
	}
	out->n_targets = r->n_t;
	for (size_t i = 0; i < r->n_t; i++)
		out->t[i] = r->live[i].snap;
	out->table = NULL;
	if (r->live_tbl.n_cols) {
		out->table = calloc(1, sizeof(*out->table));
		if (out->table && result_table_copy(out->table, &r->live_tbl)) {
			free(out->table);
			out->table = NULL;
		}
	}
	pthread_mutex_unlock(&r->mu);
	return 0;
}

int
runner_result(struct runner *r, struct run_result *out)
{
	if (!runner_wait(r, 0))
		return -EBUSY;
	r->result_taken = true;
	*out = r->res;
	memset(&r->res, 0, sizeof(r->res));
	r->ctx.res = out;
	const struct bench_test *t = r->plan.test;
	int rc = 0;
	if (t && t->finish)
		rc = t->finish(&r->ctx, out);
	else
		bench_verdict_errors(&r->plan, out);
	r->ctx.res = &r->res;
	return rc;
}

void
runner_destroy(struct runner *r)
{
	if (!r)
		return;
	if (r->started) {
		runner_stop(r);
		runner_wait(r, -1);
	}
	/* a run dropped unread still gets its test's finish: a test cleans up
	 * there (filemix removes the files it created) */
	if (r->launched && !r->result_taken) {
		struct run_result tmp;
		memset(&tmp, 0, sizeof(tmp));
		if (runner_result(r, &tmp) != -EBUSY)
			run_result_free(&tmp);
	}
	for (size_t i = 0; i < r->n_t; i++)
		target_close(&r->t[i]);
	free(r->t);
	free(r->live);
	free(r->state);
	free(r->io_state);
	run_result_free(&r->res);
	result_table_free(&r->live_tbl);
	plan_free(&r->plan);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	free(r);
}
