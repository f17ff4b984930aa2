/* selftest-run.c - drive self-tests across drives (selftest-run.h): one
 * loop over every drive's source, on one clock: virtual when every drive is
 * a sim drive on its virtual clock (a headless run ends at once and repeats
 * exactly), else the wall clock in short waits so a stop is honoured. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench/selftest-run.h"
#include "inventory/inventory.h"
#include "io/target.h"

static double
wall_now(struct st_run *o)
{
	return o->wall ? o->wall(o->arg) : (double)now_ns() / 1e9;
}

static void
wait_s(struct st_run *o, double s)
{
	if (o->wait) {
		o->wait(o->arg, s);
		return;
	}
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	nanosleep(&ts, NULL);
}

static bool
stopping(struct st_run *o)
{
	return o->stopping && o->stopping(o->arg);
}

int
st_run_setup(struct st_run *o, const struct plan *p, const struct target *t, size_t n)
{
	struct inventory_opts io;
	inventory_opts_default(&io);
	o->n = n > PLAN_MAX_TARGETS ? PLAN_MAX_TARGETS : n;
	for (size_t i = 0; i < o->n; i++) {
		o->dr[i].t = &t[i];
		o->dr[i].speed = t[i].kind == TGT_SIM ? t[i].sim_speed : 1;
		o->dr[i].lbs = t[i].logical;
		if (t[i].facts.source && t[i].facts.source->scan_opts)
			t[i].facts.source->scan_opts(&t[i].facts, &io);
	}
	o->inv = calloc(1, sizeof(*o->inv));
	if (!o->inv)
		return -ENOMEM;
	int rc = inventory_scan(o->inv, &io);
	for (size_t i = 0; !rc && i < o->n; i++) {
		struct drive *d = inventory_match_drive(o->inv, p->targets.v[i]);
		if (!d && t[i].path[0])
			d = inventory_find_drive(o->inv, t[i].path);
		o->dr[i].d = d;
	}
	return rc;
}

void
st_run_free(struct st_run *o)
{
	if (o->inv) {
		inventory_free(o->inv);
		free(o->inv);
		o->inv = NULL;
	}
}

static void
show(struct st_run *o, size_t i)
{
	if (o->progress)
		o->progress(o->arg, i, &o->dr[i]);
}

/* Start one drive's self-test: running, or over with why not. */
static void
start_one(struct st_run *o, size_t i)
{
	struct st_drive *d = &o->dr[i];
	const struct dev_source *src = d->t->facts.source;
	memset(&d->s, 0, sizeof(d->s));
	d->s.kind = o->kind;
	if (!src || !src->selftest_start || !src->selftest_poll) {
		d->s.st.state = STS_UNSUPPORTED;
		snprintf(d->s.st.text, sizeof d->s.st.text, "%s",
			 d->t->facts.kind == DEV_FILE ? "a scratch file has no self-test"
						      : "no self-test for this kind of device");
		return;
	}
	int rc = src->selftest_start(&d->t->facts, d->d, &d->s);
	if (rc) {
		d->s.st.state = rc == -EOPNOTSUPP ? STS_UNSUPPORTED : STS_ERROR;
		if (!d->s.st.text[0])
			snprintf(d->s.st.text, sizeof d->s.st.text, "could not start: %s", strerror(-rc));
		return;
	}
	d->s.st.state = STS_RUNNING;
	d->bound_s = selftest_bound_s(o->kind, d->s.st.estimate_s, o->timeout_s);
}

static void
poll_one(struct st_run *o, size_t i)
{
	struct st_drive *d = &o->dr[i];
	const struct dev_source *src = d->t->facts.source;
	struct selftest_status keep = d->s.st;
	int rc = src->selftest_poll(&d->t->facts, d->d, &d->s);
	d->ran_s = d->s.now_s;
	if (rc) {
		/* one failed poll is not the test's end: the next one may answer;
		 * ST_POLL_ERRORS in a row are (the test is aborted) */
		char why[160];
		snprintf(why, sizeof why, "%s", d->s.st.text);
		d->s.st = keep;
		snprintf(d->s.st.text, sizeof d->s.st.text, "%s", why);
		if (++d->poll_errors >= ST_POLL_ERRORS) {
			if (src->selftest_abort)
				src->selftest_abort(&d->t->facts, d->d, &d->s);
			d->s.st.state = STS_ERROR;
			snprintf(d->s.st.text, sizeof d->s.st.text, "its progress could not be read (%.120s)", why);
		}
		return;
	}
	d->poll_errors = 0;
	/* a drive that reports no estimate of its own still counts down the
	 * bound; one that reports a percent gets time left from its rate */
	if (d->s.st.state == STS_RUNNING && !d->s.st.left_s.known && d->s.st.percent.known &&
	    d->s.st.percent.v > 0 && d->s.now_s > 0)
		KNOWN_SET(d->s.st.left_s, d->s.now_s * (100 - d->s.st.percent.v) / d->s.st.percent.v);
}

static void
abort_one(struct st_run *o, size_t i, enum selftest_state as)
{
	struct st_drive *d = &o->dr[i];
	const struct dev_source *src = d->t->facts.source;
	if (src->selftest_abort)
		src->selftest_abort(&d->t->facts, d->d, &d->s);
	/* the log's word on it where it has one ("aborted by the host") */
	src->selftest_poll(&d->t->facts, d->d, &d->s);
	d->ran_s = d->s.now_s;
	d->s.st.state = as;
	if (as == STS_TIMEOUT) {
		char t[96];
		snprintf(t, sizeof t, "%s", d->s.st.text);
		snprintf(d->s.st.text, sizeof d->s.st.text, "still running after %.0f s: aborted (%s)", d->bound_s, t);
	}
}

/* The next virtual moment: a hundredth of the shortest estimate (at least
 * a second), so each drive's percent is seen. */
static double
virtual_step(const struct st_run *o)
{
	double step = 60;
	for (size_t i = 0; i < o->n; i++) {
		const struct selftest_status *st = &o->dr[i].s.st;
		if (st->state == STS_RUNNING && st->estimate_s.known && st->estimate_s.v / 100 < step)
			step = st->estimate_s.v / 100;
	}
	return step < 1 ? 1 : step;
}

int
st_run_all(struct st_run *o)
{
	bool wall = false, paced = false;
	for (size_t i = 0; i < o->n; i++) {
		start_one(o, i);
		show(o, i);
		wall |= o->dr[i].speed > 0;
		paced |= o->dr[i].t->kind == TGT_SIM && o->dr[i].speed > 0;
	}
	double poll = o->poll_s > 0 ? o->poll_s : paced ? 0.2 : 5;
	double t0 = wall_now(o), vclock = 0;
	for (;;) {
		size_t running = 0;
		for (size_t i = 0; i < o->n; i++)
			running += o->dr[i].s.st.state == STS_RUNNING;
		if (!running)
			break;
		if (stopping(o)) {
			for (size_t i = 0; i < o->n; i++)
				if (o->dr[i].s.st.state == STS_RUNNING) {
					abort_one(o, i, STS_ABORTED);
					show(o, i);
				}
			break;
		}
		if (wall) {	/* in short waits: a stop is seen within 0.1 s */
			double until = wall_now(o) + poll;
			for (double now = wall_now(o); now < until && !stopping(o); now = wall_now(o))
				wait_s(o, until - now < 0.1 ? until - now : 0.1);
			if (stopping(o))
				continue;
		} else {
			vclock += virtual_step(o);
		}
		double el = wall ? wall_now(o) - t0 : vclock;
		for (size_t i = 0; i < o->n; i++) {
			struct st_drive *d = &o->dr[i];
			if (d->s.st.state != STS_RUNNING)
				continue;
			d->s.now_s = wall && d->speed > 0 ? el * d->speed : el;
			poll_one(o, i);
			if (d->s.st.state == STS_RUNNING && d->s.now_s >= d->bound_s)
				abort_one(o, i, STS_TIMEOUT);
			show(o, i);
		}
	}
	return 0;
}

enum verdict_level
st_drive_verdict(const struct st_drive *d, enum selftest_kind kind, char *why, size_t n)
{
	const struct selftest_status *st = &d->s.st;
	const char *k = selftest_kind_name(kind);
	switch (st->state) {
	case STS_PASSED:
		snprintf(why, n, "%s self-test passed", k);
		return VL_PASS;
	case STS_FAILED:
		if (st->lba.known && d->lbs)
			snprintf(why, n, "%s self-test failed at LBA %llu (%.3f GB): %s", k,
				 (unsigned long long)st->lba.v, (double)st->lba.v * d->lbs / 1e9, st->text);
		else if (st->lba.known)
			snprintf(why, n, "%s self-test failed at LBA %llu: %s", k, (unsigned long long)st->lba.v,
				 st->text);
		else
			snprintf(why, n, "%s self-test failed: %s", k, st->text);
		return VL_FAIL;
	case STS_UNSUPPORTED:
		snprintf(why, n, "no %s self-test: %s", k, st->text);
		return VL_INFO;
	case STS_ABORTED:
		snprintf(why, n, "%s self-test aborted: %s", k, st->text);
		return VL_INFO;
	default:
		snprintf(why, n, "%s self-test %s: %s", k, selftest_state_name(st->state), st->text);
		return VL_WARN;
	}
}

void
st_drive_activity(const struct st_drive *d, enum selftest_kind kind, char *buf, size_t n)
{
	const struct selftest_status *st = &d->s.st;
	if (st->state == STS_RUNNING && st->percent.known)
		snprintf(buf, n, "%s self-test %.0f%%", selftest_kind_name(kind), st->percent.v);
	else
		snprintf(buf, n, "%s self-test: %s", selftest_kind_name(kind), selftest_state_name(st->state));
}
