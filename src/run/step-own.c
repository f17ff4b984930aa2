/* step-own.c - a step of the test's own work with no I/O (plan_step.own):
 * commands to the drives that take minutes (a self-test), run by the test's
 * run_step hook on the runner's thread, its progress per target in the
 * snapshot like a pass's position. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "run/runner-int.h"
#include "util/util.h"

bool
bench_stopping(const struct bench_ctx *c)
{
	return c->runner && atomic_load(&c->runner->stop);
}

void
bench_show_progress(struct bench_ctx *c, size_t ti, struct known_dbl frac, const char *what)
{
	struct runner *r = c->runner;
	if (!r || ti >= r->n_t)
		return;
	pthread_mutex_lock(&r->mu);
	struct snap_target *s = &r->live[ti].snap;
	s->phase = frac.known ? SNAP_PH_MEASURE : SNAP_PH_STARTING;
	s->pos = frac.known ? fmin(fmax(frac.v, 0.0), 1.0) : 0;	/* clamped into the scan */
	strtrimcpy(s->activity, sizeof s->activity, what ? what : "");
	pthread_mutex_unlock(&r->mu);
}

int
step_own(struct runner *r, const struct plan_step *st, struct step_result *sr)
{
	const struct bench_test *bt = r->plan.test;
	if (!bt || !bt->run_step)
		return -ENOSYS;
	pthread_mutex_lock(&r->mu);
	for (unsigned k = 0; k < st->n; k++) {
		struct snap_target *s = &r->live[st->idx[k]].snap;
		s->active = true;
		s->ended = SNAP_END_NONE;
		s->phase = SNAP_PH_STARTING;
		s->pos = 0;
		s->size = r->t[st->idx[k]].size;
		s->why[0] = 0;
		strip_reset(&s->strip);
	}
	pthread_mutex_unlock(&r->mu);
	for (unsigned k = 0; k < st->n; k++)
		strtrimcpy(sr->res[k].target, sizeof sr->res[k].target, r->t[st->idx[k]].name);
	sr->own = true;
	uint64_t t0 = now_ns();
	int rc = bt->run_step(&r->ctx, st, sr);
	sr->seconds = (double)(now_ns() - t0) / 1e9;
	KNOWN_CLEAR(sr->aggregate_mbps);
	pthread_mutex_lock(&r->mu);
	for (unsigned k = 0; k < st->n; k++) {
		struct snap_target *s = &r->live[st->idx[k]].snap;
		s->active = false;
		s->ended = atomic_load(&r->stop) ? SNAP_END_STOPPED : SNAP_END_DONE;
		const struct target *t = &r->t[st->idx[k]];
		if (t->kind == TGT_SIM && !(t->sim_speed > 0))
			r->snap.virtual_time = r->res.virtual_time = true;
	}
	pthread_mutex_unlock(&r->mu);
	return rc;
}
