/* step.c - one step of a run: its workers started together, the sampler
 * that feeds the live snapshot, and the step's results.  The runner around
 * it: runner.c. */
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

static double
rusage_s(int usr)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	struct timeval tv = usr ? ru.ru_utime : ru.ru_stime;
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* rp->spread blocks evenly over this target's own region [s, e): a drive
 * beside a smaller one is sampled over all of itself.  The step is a whole
 * number of blocks and of the target's alignment; a region too small for
 * that many spaced blocks is read whole, one pass. */
static void
spread_for(const struct target *t, const struct run_params *rp, uint64_t s, uint64_t e,
	   struct worker_params *wp)
{
	uint64_t al = t->offset_align ? t->offset_align : (t->logical ? t->logical : 512);
	uint64_t g = rp->bs % al == 0 ? rp->bs : al % rp->bs == 0 ? al : (uint64_t)rp->bs * al;
	uint64_t step = e > s ? (e - s) / rp->spread / g * g : 0;
	if (step > rp->bs) {
		wp->stride_step = step;
		wp->size = rp->spread * rp->bs;
		wp->one_pass = false;
	} else {
		wp->pat = OFS_SEQ;
		wp->size = 0;
		wp->one_pass = true;
	}
}

/* Worker parameters for target i in a step: the step's own parameters. */
static void
params_for(struct runner *r, size_t i, const struct plan_step *st, struct worker_params *wp)
{
	const struct plan *p = &r->plan;
	const struct run_params *rp = &st->rp;
	struct target *t = &r->t[i];
	memset(wp, 0, sizeof(*wp));
	wp->t = t;
	if (t->kind == TGT_SIM && r->ops_sim && !p->engine_explicit)
		wp->ops = r->ops_sim;
	else {
		wp->ops = r->ops_default;
		wp->fallback = r->ops_fallback;
	}
	struct plan *ps = malloc(sizeof(*ps));
	if (ps)
		plan_for_step(p, st, ps);
	wp->bs = rp->bs;
	wp->qd = rp->qd;
	wp->rw_mix = rp->rw_mix;
	wp->pat = ps ? ps->pat : p->pat;
	wp->data = ps ? ps->data : p->data;
	wp->seed = rp->seed + i;	/* each target its own sequence, all from --seed */
	uint64_t s = 0, e = 0;
	plan_region(ps ? ps : p, t, &s, &e);
	free(ps);
	wp->region_start = s;
	wp->region_end = e;
	wp->stride_step = rp->stride ? rp->stride : rp->bs;
	wp->stride_first = s;
	wp->size = rp->size;
	wp->time_ns = (uint64_t)(st->seconds * 1e9);
	wp->ramp_ns = (uint64_t)(st->ramp_s * 1e9);
	wp->one_pass = st->seconds <= 0 && rp->size == 0;
	if (wp->pat == OFS_STRIDE && rp->spread)
		spread_for(t, rp, s, e, wp);
	wp->io_timeout_ns = (uint64_t)(p->io_timeout_s * 1e9);
	wp->max_consec_errors = st->max_consec_errors;
	wp->first = i < PLAN_MAX_TARGETS ? st->first[i] : (struct io_next){ 0 };
}

/* A worker ended while its step runs on (stopped after errors, gave up on
 * a hung I/O, could not start, a fail rule of the test, or its pass is over): say so and zero its
 * rate.  w->msg was written before the release store of WS_DONE. */
static void
mark_ended(struct snap_target *s, const struct worker *w)
{
	const char *m = w->msg;
	size_t nl = strlen(s->name);
	if (nl && !strncmp(m, s->name, nl) && m[nl] == ':')
		m += nl + 1 + (m[nl + 1] == ' ');
	s->ended = w->rc || w->abandoned || w->failed ? SNAP_END_FAILED : m[0] ? SNAP_END_STOPPED : SNAP_END_DONE;
	strtrimcpy(s->why, sizeof(s->why), m);
	s->mbps = s->read_mbps = s->write_mbps = s->iops = 0;
	s->p50_us = s->p99_us = (struct known_dbl){ 0 };
}

/* The worker's new series samples into its snapshot: the strip, the
 * rate history, the latest interval's rates (r->mu held). */
static void
series_take(struct runner *r, struct tgt_live *L, struct worker *w)
{
	struct series_sample buf[256];
	struct snap_target *s = &L->snap;
	for (;;) {
		uint64_t first;
		size_t k = series_copy(&w->series, L->seen, ARRAY_SIZE(buf), buf, &first);
		if (!k)
			break;
		if (first > L->seen)	/* overwritten before we came: lost */
			s->lost += first - L->seen;
		s->samples += k;
		L->seen = first + k;
		for (size_t j = 0; j < k; j++) {
			strip_add(&s->strip, buf[j].pos, buf[j].rbytes + buf[j].wbytes, buf[j].dur_ns);
			if (s->n == SNAP_SAMPLES) {
				memmove(s->read_hist, s->read_hist + 1, (SNAP_SAMPLES - 1) * sizeof(float));
				memmove(s->write_hist, s->write_hist + 1, (SNAP_SAMPLES - 1) * sizeof(float));
				s->n--;
			}
			s->read_hist[s->n] = (float)series_read_mbps(&buf[j]);
			s->write_hist[s->n] = (float)series_write_mbps(&buf[j]);
			s->n++;
		}
		s->ring_end = r->tick_base + L->seen;
		if (s->ring_end > r->snap.sample_now)
			r->snap.sample_now = s->ring_end;
		const struct series_sample *x = &buf[k - 1];
		s->read_mbps = series_read_mbps(x);
		s->write_mbps = series_write_mbps(x);
		s->mbps = s->read_mbps + s->write_mbps;
		s->iops = series_iops(x);
		s->p50_us = (struct known_dbl){ isfinite(x->p50_us), x->p50_us };	/* a sample: NAN no I/O */
		s->p99_us = (struct known_dbl){ isfinite(x->p99_us), x->p99_us };
	}
}

/* Percentiles from the folded buckets, log-interpolated inside a bucket. */
static void
snap_percentiles(struct run_snapshot *S, const uint64_t hist[SNAP_HIST])
{
	uint64_t n = 0;
	for (int k = 0; k < SNAP_HIST; k++)
		n += hist[k];
	struct known_dbl *dst[3] = { &S->lat_p50_us, &S->lat_p99_us, &S->lat_p999_us };
	const double pct[3] = { 50, 99, 99.9 };
	for (int q = 0; q < 3; q++) {
		*dst[q] = (struct known_dbl){ 0 };
		if (!n)
			continue;
		double rank = pct[q] / 100 * (double)n, cum = 0;
		for (int k = 0; k < SNAP_HIST; k++) {
			if (cum + (double)hist[k] >= rank && hist[k]) {
				double f = (rank - cum) / (double)hist[k];
				*dst[q] = known_dbl_of(ldexp(1.0, k + 6) * pow(2.0, f) / 1e3);
				break;
			}
			cum += (double)hist[k];
		}
	}
}

/* Consume new series samples of every active worker into the snapshot. */
static void
sample(struct runner *r, size_t step_pos, bool final)
{
	pthread_mutex_lock(&r->mu);
	double tot_mbps = 0, tot_iops = 0, agg = 0;
	uint64_t errs = 0, hist[SNAP_HIST];
	memcpy(hist, r->base_hist, sizeof(hist));
	for (size_t i = 0; i < r->n_t; i++) {
		struct tgt_live *L = &r->live[i];
		struct snap_target *s = &L->snap;
		errs += s->errors;
		struct worker *w = L->w;
		if (!w)
			continue;
		uint64_t seen0 = L->seen, wall = now_ns();
		series_take(r, L, w);
		/* The step is over: a short last interval folds into the one
		 * before, as in the saved series (series_save_whole), so the
		 * graph does not end on a spike the result does not have. */
		struct series_sample tail;
		if (final && s->n >= 2 && L->seen == series_total(&w->series) &&
		    series_fold_tail(&w->series, w->p.interval_ms, &tail)) {
			s->n--;
			s->read_hist[s->n - 1] = (float)series_read_mbps(&tail);
			s->write_hist[s->n - 1] = (float)series_write_mbps(&tail);
		}
		/* A drive that stopped completing I/O produces no intervals (they
		 * close on completions): after three intervals of silence show 0,
		 * not the last rate.  Virtual clocks run ahead of wall time. */
		if (L->seen != seen0 || !L->last_new_ns)
			L->last_new_ns = wall;
		else if (!w->virtual_clock && wall - L->last_new_ns > 3ull * w->p.interval_ms * 1000000ull &&
			 atomic_load_explicit(&w->pub.state, memory_order_relaxed) == WS_MEASURE) {
			s->mbps = s->read_mbps = s->write_mbps = s->iops = 0;
			s->p50_us = s->p99_us = (struct known_dbl){ 0 };
		}
		int wst = atomic_load_explicit(&w->pub.state, memory_order_acquire);
		if (wst == WS_DONE && !final)
			mark_ended(s, w);
		if (wst == WS_RAMP)
			s->phase = SNAP_PH_RAMP;
		else if (wst == WS_MEASURE && L->seen)
			s->phase = SNAP_PH_MEASURE;
		else if (wst == WS_MEASURE || wst == WS_DRAIN || wst == WS_DONE)
			s->phase = L->seen ? SNAP_PH_MEASURE : SNAP_PH_STARTING;
		uint64_t rb = atomic_load_explicit(&w->pub.rbytes, memory_order_relaxed);
		uint64_t wb = atomic_load_explicit(&w->pub.wbytes, memory_order_relaxed);
		uint64_t el = atomic_load_explicit(&w->pub.elapsed_ns, memory_order_relaxed);
		s->bytes = rb + wb;
		errs -= s->errors;
		s->errors = atomic_load_explicit(&w->pub.errors, memory_order_relaxed);
		errs += s->errors;
		s->size = r->t[i].size;
		s->pos = r->t[i].size ? (double)atomic_load_explicit(&w->pub.pos, memory_order_relaxed) /
			(double)r->t[i].size : 0;
		if (el)
			agg += (double)(rb + wb) / ((double)el / 1e9) / 1e6;
		tot_mbps += s->mbps;
		tot_iops += s->iops;
		for (int k = 0; k < SNAP_HIST; k++)
			hist[k] += atomic_load_explicit(&w->pub.snap_hist[k], memory_order_relaxed);
	}
	struct run_snapshot *S = &r->snap;
	S->total_mbps = known_dbl_of(tot_mbps);
	S->total_iops = tot_iops;
	S->total_errors = errs;
	memcpy(S->lat_hist, hist, sizeof(hist));
	if (step_pos < SNAP_STEPS) {
		KNOWN_SET(S->steps[step_pos].aggregate_mbps, agg);
		S->steps[step_pos].done = final;
	}
	snap_percentiles(S, hist);
	/* progress */
	double el = (double)(now_ns() - r->t_start) / 1e9;
	S->elapsed_s = el;
	pthread_mutex_unlock(&r->mu);
}

void
runner_set_state(struct runner *r, enum run_state st, const char *msg)
{
	pthread_mutex_lock(&r->mu);
	r->snap.state = st;
	if (msg)
		strtrimcpy(r->snap.message, sizeof(r->snap.message), msg);
	pthread_mutex_unlock(&r->mu);
}

void
runner_note(struct runner *r, const char *msg)
{
	pthread_mutex_lock(&r->mu);
	if (!strlist_has(&r->res.notes, msg))
		strlist_add(&r->res.notes, msg);
	strtrimcpy(r->snap.message, sizeof(r->snap.message), msg);
	pthread_mutex_unlock(&r->mu);
}

double
step_planned(const struct plan_step *st)
{
	return st->seconds > 0 ? st->seconds + st->ramp_s + st->pause_s : 0;
}

/* Each worker of the step set up (its parameters, the per-I/O hook, the
 * position curve); *set_up counts them.  0 or the first -errno. */
static int
step_setup(struct runner *r, const struct plan_step *st, struct worker *w, struct io_acc *acc,
	   struct start_gate *gate, unsigned *set_up)
{
	const struct bench_test *bt = r->plan.test;
	int rc = 0;
	const char *nh = getenv("DISKSCOPE_BENCH_NO_IO_HOOKS");
	bool no_hooks = nh && !strcmp(nh, "1");
	const char *fh = getenv("DISKSCOPE_BENCH_IO_HOOK");
	bool all_hooks = fh && !strcmp(fh, "1");
	for (unsigned k = 0; k < st->n; k++) {
		struct worker_params wp;
		params_for(r, st->idx[k], st, &wp);
		if (bt && bt->on_io) {
			acc[k].hook = bt->on_io;
			acc[k].state = (char *)r->io_state + st->idx[k] * bt->io_state_size;
		}
		/* a positional test over a sequential pass: rate by position */
		if (bt && (bt->panels & PANEL_POSITION) && wp.pat == OFS_SEQ && wp.region_end > wp.region_start) {
			acc[k].pos = calloc(POS_BUCKETS, sizeof(*acc[k].pos));
			acc[k].region_start = wp.region_start;
			acc[k].region_end = wp.region_end;
		}
		/* A per-I/O hook only where something uses it (the test's own, the
		 * position curve): the worker's loop without one costs nothing per
		 * I/O for hooks.  For the benchmark of what a hook costs
		 * (tests/bench/hooks-cost.sh): DISKSCOPE_BENCH_IO_HOOK=1 installs it
		 * everywhere, DISKSCOPE_BENCH_NO_IO_HOOKS=1 nowhere (the position
		 * curve and the test's own hook are then missing). */
		if (!no_hooks && (all_hooks || acc[k].hook || acc[k].pos)) {
			wp.on_io = acc_on_io;
			wp.on_io_state = &acc[k];
		}
		rc = worker_setup(&w[k], &wp, gate, &r->stop);
		if (rc) {
			runner_note(r, w[k].msg[0] ? w[k].msg : strerror(-rc));
			break;
		}
		(*set_up)++;
	}
	return rc;
}

/* Wall seconds per planned second: 1/N when every target is a sim drive
 * at --sim-speed N (the slowest sets it), 1 when any runs in real time. */
static double
eta_wall_scale(const struct runner *r)
{
	double speed = 0;
	for (size_t i = 0; i < r->n_t; i++) {
		const struct target *t = &r->t[i];
		if (t->kind != TGT_SIM || !(t->sim_speed > 0))
			return 1;
		if (!(speed > 0) || t->sim_speed < speed)
			speed = t->sim_speed;
	}
	return speed > 0 ? 1 / speed : 1;
}

/* The sampler: 10 Hz until every worker is done (woken at once when the
 * last one finishes); the test's tick, the ETA from planned durations. */
static void
step_watch(struct runner *r, const struct plan_step *st, size_t step_pos, struct worker *w,
	   struct start_gate *gate, uint64_t t0)
{
	for (;;) {
		for (unsigned k = 0; k < st->n; k++)
			worker_watch(&w[k]);	/* an I/O stuck past the timeout */
		if (gate_wait_done(gate, st->n, 100))
			break;
		sample(r, step_pos, false);
		if (r->plan.test && r->plan.test->on_tick)
			r->plan.test->on_tick(&r->ctx, st, (double)(now_ns() - t0) / 1e9);
		/* ETA from planned durations: planned on the drives' clock, so
		 * sim drives at --sim-speed N take 1/N of it in wall time */
		pthread_mutex_lock(&r->mu);
		double wall = eta_wall_scale(r);
		double el_step = (double)(now_ns() - t0) / 1e9;
		if (el_step > step_planned(st) * wall)
			el_step = step_planned(st) * wall;
		if (r->planned_s > 0) {
			double left = (r->planned_s - r->done_planned_s) * wall - el_step;
			KNOWN_SET(r->snap.eta_s, left > 0 ? left : 0);
		}
		pthread_mutex_unlock(&r->mu);
	}
}

/* The set-up workers shown live, started together, watched until done and
 * joined; *started counts them.  0, or -EAGAIN when not all started. */
static int
step_go(struct runner *r, const struct plan_step *st, size_t step_pos, struct worker *w,
	struct start_gate *gate, uint64_t t0, unsigned *started)
{
	int rc = 0;
	pthread_mutex_lock(&r->mu);
	r->tick_base = r->snap.sample_now;	/* the rings line up across steps */
	for (unsigned k = 0; k < st->n; k++) {
		struct tgt_live *L = &r->live[st->idx[k]];
		L->w = &w[k];
		L->seen = 0;
		L->last_new_ns = 0;
		L->snap.active = true;
		L->snap.ended = SNAP_END_NONE;
		L->snap.why[0] = 0;
		strip_reset(&L->snap.strip);	/* the board shows this step's pass */
		L->snap.phase = st->ramp_s > 0 ? SNAP_PH_RAMP : SNAP_PH_STARTING;
	}
	pthread_mutex_unlock(&r->mu);
	for (unsigned k = 0; k < st->n; k++) {
		if (worker_start(&w[k]))
			break;
		(*started)++;
	}
	gate_wait_all(gate, *started);
	if (*started < st->n) {
		/* Could not start them all: the started ones stop at once. */
		rc = -EAGAIN;
		runner_note(r, "could not start a worker thread");
		atomic_store(&r->stop, true);
		gate_open(gate);
	} else {
		gate_open(gate);
		step_watch(r, st, step_pos, w, gate, t0);
	}
	for (unsigned k = 0; k < st->n; k++)
		worker_join(&w[k]);
	sample(r, step_pos, true);
	return rc;
}

/* The workers' results into res[] (ran: the step started; a worker past
 * started never ran), their notes, the drive identity.  rc, or the first
 * -errno of a result. */
static int
step_collect(struct runner *r, const struct plan_step *st, struct worker *w, struct io_acc *acc,
	     struct target_result *res, unsigned started, int rc)
{
	pthread_mutex_lock(&r->mu);
	for (unsigned k = 0; k < st->n; k++) {
		struct tgt_live *L = &r->live[st->idx[k]];
		L->w = NULL;
		L->snap.active = false;
		L->snap.mbps = L->snap.read_mbps = L->snap.write_mbps = L->snap.iops = 0;
		for (int b = 0; b < SNAP_HIST; b++)
			r->base_hist[b] += atomic_load(&w[k].pub.snap_hist[b]);
		if (w[k].virtual_clock)
			r->snap.virtual_time = r->res.virtual_time = true;
	}
	pthread_mutex_unlock(&r->mu);
	bool ran = !rc;
	for (unsigned k = 0; k < st->n; k++) {
		if (w[k].notice[0])
			runner_note(r, w[k].notice);
		if (w[k].msg[0])
			runner_note(r, w[k].msg);
		if (!ran && k >= started) {
			/* never ran: its name, and why */
			strtrimcpy(res[k].target, sizeof(res[k].target), r->t[st->idx[k]].name);
			strtrimcpy(res[k].note, sizeof(res[k].note), w[k].msg[0] ? w[k].msg : "did not start");
		} else {
			int e = worker_result(&w[k], &res[k]);
			if (e && !rc)
				rc = e;
			/* a worker that could not run (engine, submit, reap) fails the step */
			if (w[k].rc && !rc)
				rc = w[k].rc;
			if (acc_save_position(&acc[k], &res[k].by_pos) && !rc)
				rc = -ENOMEM;
			/* the whole run, downsampled, not only what the ring still holds */
			if (!e && w[k].series.n_whole) {
				free(res[k].series.mbps);
				free(res[k].series.iops);
				free(res[k].series.p99_us);
				free(res[k].series.pos);
				if (series_save_whole(&w[k].series, w[k].p.interval_ms, &res[k].series) && !rc)
					rc = -ENOMEM;
			}
		}
		const struct target_ident *id = &r->plan.ident[st->idx[k]];
		strtrimcpy(res[k].drive_id, sizeof(res[k].drive_id), id->drive_id);
		strtrimcpy(res[k].model, sizeof(res[k].model), id->model);
		strtrimcpy(res[k].serial, sizeof(res[k].serial), id->serial);
		if (w[k].engine_used && !r->res.params.engine[0])
			strtrimcpy(r->res.params.engine, sizeof(r->res.params.engine), w[k].engine_used);
	}
	return rc;
}

/* Run one step; results into sr->res[] (n = st->n).  0, or -errno when the
 * step could not run (a worker that did not set up, start or run). */
int
step_run(struct runner *r, const struct plan_step *st, size_t step_pos, struct step_result *sr)
{
	if (st->own)
		return step_own(r, st, sr);
	struct worker *w = calloc(st->n, sizeof(*w));
	struct io_acc *acc = calloc(st->n, sizeof(*acc));
	if (!w || !acc) {
		free(w);
		free(acc);
		return -ENOMEM;
	}
	struct start_gate gate;
	gate_init(&gate);
	double u0 = rusage_s(1), s0 = rusage_s(0);
	uint64_t t0 = now_ns();
	unsigned started = 0, set_up = 0;
	bool keep = false;
	int rc = step_setup(r, st, w, acc, &gate, &set_up);
	if (!rc)
		rc = step_go(r, st, step_pos, w, &gate, t0, &started);
	sr->cpu_usr_s = rusage_s(1) - u0;
	sr->cpu_sys_s = rusage_s(0) - s0;
	sr->seconds = (double)(now_ns() - t0) / 1e9;
	rc = step_collect(r, st, w, acc, sr->res, started, rc);
	step_aggregate(sr, st, w, set_up == st->n && started == st->n);
	for (unsigned k = 0; k < st->n; k++)
		keep |= !worker_cleanup(&w[k]);
	gate_destroy(&gate);
	if (!keep) {	/* else a thread stuck in the kernel still uses them */
		for (unsigned k = 0; k < st->n; k++)
			free(acc[k].pos);
		free(w);
		free(acc);
	}
	return rc;
}
