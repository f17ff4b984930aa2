/* test_worker.c - the worker's measuring rules against a scripted engine on a
 * virtual clock (nothing here waits in real time): a time limit and a stop
 * honoured while I/Os are outstanding, an I/O outstanding past the I/O
 * timeout reported with its offset, completions after the time limit counted
 * in the latency, ramp-up errors kept apart, the start time taken after the
 * write buffer is stamped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run/worker.h"

#define MS 1000000ull
#define S 1000000000ull

/* ---- a scripted engine: every I/O is served in parallel and takes
 * lat_fn(its submit time) on a virtual clock; getevents honours wait_ns ---- */

static uint64_t vnow;
static struct io_u *pend[WORKER_MAX_QD];
static unsigned npend;
static uint64_t (*lat_fn)(uint64_t start);
static int (*res_fn)(uint64_t start, const struct io_u *u);
static bool done_at_commit;

static int s_init(struct engine *e, void **b, unsigned n, size_t l) { npend = 0; return 0; }
static int
s_queue(struct engine *e, struct io_u *u)
{
	if (npend >= e->qd)
		return -EBUSY;
	pend[npend++] = u;
	u->done_ns = done_at_commit ? 0 : u->start_ns + lat_fn(u->start_ns);
	u->result = res_fn ? res_fn(u->start_ns, u) : (int)u->len;
	return 0;
}
static uint64_t s_clock(struct engine *e);
static int
s_commit(struct engine *e)
{
	if (done_at_commit) {
		uint64_t c = s_clock(e);
		for (unsigned i = 0; i < npend; i++)
			if (!pend[i]->done_ns)
				pend[i]->done_ns = c;
	}
	return (int)npend;
}
static int
s_getevents(struct engine *e, unsigned min, unsigned max, struct io_u **done)
{
	for (;;) {
		unsigned k = 0;
		uint64_t next = UINT64_MAX;
		for (unsigned i = 0; i < npend && k < max;) {
			if (pend[i]->done_ns <= vnow) {
				done[k++] = pend[i];
				pend[i] = pend[--npend];
			} else {
				if (pend[i]->done_ns < next)
					next = pend[i]->done_ns;
				i++;
			}
		}
		if (k >= min || next == UINT64_MAX)
			return (int)k;
		if (e->wait_ns && next > vnow + e->wait_ns) {
			vnow += e->wait_ns;	/* a bounded wait that ended empty */
			return (int)k;
		}
		vnow = next;
		if (k)
			return (int)k;
	}
}
static void s_cleanup(struct engine *e) { }
static uint64_t s_clock(struct engine *e) { return vnow; }

static const struct engine_ops stub_ops = {
	.name = "stub", .init = s_init, .queue = s_queue, .commit = s_commit,
	.getevents = s_getevents, .cleanup = s_cleanup, .clock_ns = s_clock,
};

static struct target tgt = { .name = "stub", .fd = -1, .size = 1ull << 30, .logical = 512 };

static struct worker *
run(struct worker_params *p, bool stop_now)
{
	static atomic_bool stop;
	struct worker *w = calloc(1, sizeof(*w));
	assert_non_null(w);
	p->ops = &stub_ops;
	p->t = &tgt;
	p->region_end = tgt.size;
	if (!p->bs)
		p->bs = 4096;
	if (!p->data)
		p->data = DATA_ZEROS;
	atomic_store(&stop, stop_now);
	assert_int_equal(worker_setup(w, p, NULL, &stop), 0);
	assert_int_equal(worker_start(w), 0);
	worker_join(w);
	return w;
}

static void
finish(struct worker *w)
{
	worker_cleanup(w);
	free(w);
	lat_fn = NULL;
	res_fn = NULL;
	done_at_commit = false;
}

static uint64_t lat_40s(uint64_t s) { return s >= 2 * S ? 40 * S : 10 * MS; }

/* A read outstanding past the I/O timeout (30 s by default) ends the worker
 * at the timeout, with ETIMEDOUT at that read's offset; before, the worker
 * waited for it (40 s) and recorded nothing. */
static unsigned hook_timeouts;
static uint64_t hook_off;
static void
hook(void *st, const struct io_done *d)
{
	if (d->res == -ETIMEDOUT) {
		hook_timeouts++;
		hook_off = d->offset;
	}
}

static void
test_io_timeout(void **state)
{
	vnow = 1000 * S;
	lat_fn = lat_40s;
	hook_timeouts = 0;
	struct worker_params p = { .qd = 4, .rw_mix = 100, .time_ns = 10 * S, .pat = OFS_SEQ, .on_io = hook };
	uint64_t t0 = vnow;
	struct worker *w = run(&p, false);
	assert_int_equal(w->rc, -ETIMEDOUT);
	assert_true(vnow - t0 <= 2 * S + 30 * S + 500 * MS);
	assert_true(w->err.count >= 1);
	assert_int_equal(w->err.by_errno[0].err, ETIMEDOUT);
	assert_true(w->err.have_offsets);
	assert_non_null(strstr(w->msg, "outstanding for 30 s"));
	char off[32];
	snprintf(off, sizeof off, "byte %llu", (unsigned long long)w->err.first_offset);
	assert_non_null(strstr(w->msg, off));
	assert_int_equal(hook_timeouts, 1);	/* a test's per-I/O hook hears of it */
	assert_int_equal(hook_off, w->err.first_offset);
	/* the stall lies inside the window: it still ends at the limit */
	assert_true(fabs(w->seconds - 10.0) < 1e-9);
	finish(w);
}

/* The option: --io-timeout 5 ends it at 5 s. */
static void
test_io_timeout_option(void **state)
{
	vnow = 1000 * S;
	lat_fn = lat_40s;
	struct worker_params p = { .qd = 4, .rw_mix = 100, .time_ns = 10 * S, .io_timeout_ns = 5 * S };
	uint64_t t0 = vnow;
	struct worker *w = run(&p, false);
	assert_int_equal(w->rc, -ETIMEDOUT);
	assert_true(vnow - t0 <= 2 * S + 5 * S + 500 * MS);
	assert_non_null(strstr(w->msg, "outstanding for 5 s"));
	finish(w);
}

static uint64_t lat_1000s(uint64_t s) { return 1000 * S; }

/* A stop while every I/O hangs returns within the I/O timeout, not when the
 * device answers. */
static void
test_stop_bounded(void **state)
{
	vnow = 1000 * S;
	lat_fn = lat_1000s;
	struct worker_params p = { .qd = 8, .rw_mix = 100, .time_ns = 60 * S, .io_timeout_ns = 3 * S };
	uint64_t t0 = vnow;
	struct worker *w = run(&p, true);
	assert_true(vnow - t0 <= 3 * S + 500 * MS);
	assert_int_equal(w->rc, -ETIMEDOUT);
	finish(w);
}

/* --time 1 on a device whose reads take 4 s: the worker stops issuing at
 * 1 s and is done when the outstanding reads are (4 s), well within one I/O
 * timeout; those late reads count in the latency. */
static uint64_t lat_4s(uint64_t s) { return 4 * S; }
static void
test_time_limit(void **state)
{
	vnow = 1000 * S;
	lat_fn = lat_4s;
	struct worker_params p = { .qd = 2, .rw_mix = 100, .time_ns = 1 * S };
	uint64_t t0 = vnow;
	struct worker *w = run(&p, false);
	assert_int_equal(w->rc, 0);
	assert_true(vnow - t0 <= 4 * S + 200 * MS);
	assert_true(fabs(w->seconds - 1.0) < 1e-9);
	assert_int_equal(atomic_load(&w->pub.ios), 0);	/* nothing completed in the window */
	assert_int_equal(w->hist.n, 2);			/* ... but the stall is visible */
	assert_true(w->hist.max >= 4 * S);
	finish(w);
}

/* A stall at the end of a step: the reads issued in the last 200 ms take
 * 2 s and complete after the limit; their latency is counted. */
static uint64_t lat_tailstall(uint64_t s) { return s >= 1000 * S + 800 * MS ? 2 * S : 5 * MS; }
static void
test_drain_counted(void **state)
{
	vnow = 1000 * S;
	lat_fn = lat_tailstall;
	struct worker_params p = { .qd = 4, .rw_mix = 100, .time_ns = 1 * S };
	struct worker *w = run(&p, false);
	assert_int_equal(w->rc, 0);
	struct target_result r;
	assert_int_equal(worker_result(w, &r), 0);
	assert_true(r.lat.known);
	assert_true(r.lat.max >= 2e6);		/* µs */
	assert_true(w->hist.n > r.ios);		/* the late ones: latency only */
	free(r.series.mbps); free(r.series.iops); free(r.series.p99_us); free(r.series.pos);
	free(r.hist.upper_us); free(r.hist.count);
	finish(w);
}

/* Errors during the ramp are kept apart from the measured ones. */
static uint64_t lat_10ms(uint64_t s) { return 10 * MS; }
static int res_ramp_eio(uint64_t s, const struct io_u *u) { return s < 1000 * S + 400 * MS ? -EIO : (int)u->len; }
static void
test_ramp_errors(void **state)
{
	vnow = 1000 * S;
	lat_fn = lat_10ms;
	res_fn = res_ramp_eio;
	struct worker_params p = { .qd = 1, .rw_mix = 100, .time_ns = 1 * S, .ramp_ns = 500 * MS };
	struct worker *w = run(&p, false);
	assert_int_equal(w->rc, 0);
	assert_int_equal(w->err.count, 0);
	assert_true(w->err_ramp.count >= 30);
	struct target_result r;
	assert_int_equal(worker_result(w, &r), 0);
	assert_int_equal(r.err.count, 0);
	assert_int_equal(r.ramp_err.count, w->err_ramp.count);
	free(r.series.mbps); free(r.series.iops); free(r.series.p99_us); free(r.series.pos);
	free(r.hist.upper_us); free(r.hist.count);
	finish(w);
}

/* The clock of this engine moves 1 ms for every buffer stamped since it was
 * last read, and an I/O completes at its commit: the latency shows stamping
 * time that fell between the start timestamp and the submit. */
static uint64_t saved_seq[WORKER_MAX_QD];
static void **stamp_bufs;
static unsigned stamp_n;
static int
c_init(struct engine *e, void **b, unsigned n, size_t l)
{
	stamp_bufs = b;
	stamp_n = n;
	for (unsigned i = 0; i < n; i++)
		saved_seq[i] = ((uint64_t *)b[i])[1];
	npend = 0;
	return 0;
}
static uint64_t
c_clock(struct engine *e)
{
	for (unsigned i = 0; i < stamp_n; i++) {
		uint64_t s = ((uint64_t *)stamp_bufs[i])[1];
		if (s != saved_seq[i]) {
			saved_seq[i] = s;
			vnow += MS;
		}
	}
	return vnow;
}
static int
c_commit(struct engine *e)
{
	uint64_t c = c_clock(e);
	for (unsigned i = 0; i < npend; i++)
		if (!pend[i]->done_ns)
			pend[i]->done_ns = c;
	return (int)npend;
}
static int c_queue(struct engine *e, struct io_u *u)
{
	if (npend >= e->qd)
		return -EBUSY;
	u->done_ns = 0;
	u->result = (int)u->len;
	pend[npend++] = u;
	return 0;
}
static const struct engine_ops stamp_ops = {
	.name = "stub", .init = c_init, .queue = c_queue, .commit = c_commit,
	.getevents = s_getevents, .cleanup = s_cleanup, .clock_ns = c_clock,
};

static void
test_stamp_before_start(void **state)
{
	vnow = 1000 * S;
	struct worker_params p = { .ops = &stamp_ops, .t = &tgt, .bs = 4096, .qd = 4, .rw_mix = 0,
				   .region_end = tgt.size, .size = 4096 * 64, .data = DATA_RANDOM };
	static atomic_bool stop;
	struct worker *w = calloc(1, sizeof(*w));
	assert_int_equal(worker_setup(w, &p, NULL, &stop), 0);
	assert_int_equal(worker_start(w), 0);
	worker_join(w);
	assert_int_equal(w->rc, 0);
	assert_true(w->hist.n >= 64);
	assert_true(w->hist.max < MS);	/* no stamping inside any latency */
	worker_cleanup(w);
	free(w);
}

/* ---- a blocking engine (psync at qd 1): commit() hangs in "the kernel"
 * (a pipe read) until the test lets it go ---- */
static int hang[2];
static atomic_bool b_left;
static int b_init(struct engine *e, void **b, unsigned n, size_t l) { e->blocking = true; npend = 0; return 0; }
static int
b_commit(struct engine *e)
{
	char c;
	if (read(hang[0], &c, 1) != 1)
		return -EIO;
	for (unsigned i = 0; i < npend; i++)
		pend[i]->result = (int)pend[i]->len;
	return (int)npend;
}
static int
b_getevents(struct engine *e, unsigned min, unsigned max, struct io_u **done)
{
	unsigned k = npend < max ? npend : max;
	for (unsigned i = 0; i < k; i++)
		done[i] = pend[i];
	npend = 0;
	return (int)k;
}
static void b_cleanup(struct engine *e) { atomic_store(&b_left, true); }
static int b_queue(struct engine *e, struct io_u *u) { pend[npend++] = u; return 0; }
static const struct engine_ops block_ops = {
	.name = "stub", .init = b_init, .queue = b_queue, .commit = b_commit,
	.getevents = b_getevents, .cleanup = b_cleanup,
};

/* The runner's watch gives up on a worker whose thread is stuck in one
 * blocking read past the I/O timeout: the timeout is recorded with the
 * read's offset, the thread is detached, its memory is kept, and when the
 * read finally returns the thread touches nothing and leaves. */
static void
test_watch_blocking(void **state)
{
	assert_int_equal(pipe(hang), 0);
	static atomic_bool stop;
	struct worker *w = calloc(1, sizeof(*w));
	struct worker_params p = { .ops = &block_ops, .t = &tgt, .bs = 4096, .qd = 1, .rw_mix = 100,
				   .region_start = 8192, .region_end = tgt.size, .time_ns = 60 * S,
				   .io_timeout_ns = 200 * MS, .data = DATA_ZEROS };
	atomic_store(&b_left, false);
	assert_int_equal(worker_setup(w, &p, NULL, &stop), 0);
	assert_int_equal(worker_start(w), 0);
	bool gave_up = false;
	for (int i = 0; i < 1000 && !gave_up; i++) {	/* up to 10 s: not a timing assertion */
		usleep(10000);
		gave_up = worker_watch(w);
	}
	assert_true(gave_up);
	worker_join(w);		/* detaches */
	assert_int_equal(w->rc, -ETIMEDOUT);
	assert_int_equal(w->err.first_offset, 8192);
	assert_non_null(strstr(w->msg, "I/O at byte 8192 outstanding"));
	assert_false(worker_cleanup(w));	/* the struct must be kept */
	assert_int_equal(write(hang[1], "x", 1), 1);	/* the read returns */
	for (int i = 0; i < 500 && !atomic_load(&b_left); i++)
		usleep(10000);
	assert_true(atomic_load(&b_left));	/* it closed its engine and left */
	assert_int_equal(w->err.count, 1);	/* ... without touching the result */
	close(hang[0]);
	close(hang[1]);
	/* The runner leaks w and its buffers (the thread may still be in the
	 * kernel); here it has left, so free them for the leak checker. */
	usleep(100000);
	free(w->mem);
	free(w->bufs);
	free(w->u);
	free(w->done);
	free(w->free_slots);
	free(w);
}

/* --size with a ramp: the ramp's I/Os do not use up the size. */
static void
test_size_after_ramp(void **state)
{
	vnow = 1000 * S;
	lat_fn = lat_10ms;
	struct worker_params p = { .qd = 1, .rw_mix = 100, .size = 8 * 4096, .ramp_ns = 100 * MS };
	struct worker *w = run(&p, false);
	assert_int_equal(w->rc, 0);
	/* 8 issued after the ramp, plus the one issued in it that completed
	 * just after */
	assert_in_range(atomic_load(&w->pub.ios), 8, 9);
	finish(w);
}

/* A fail rule of the test (io_done.stop): on the 10th completion the hook
 * ends its own worker with a reason.  The worker issues no more I/O, counts
 * that completion and none of the three still in flight, ends failed (not
 * an engine error, rc 0) with the reason after the target's name, and stops
 * the clock there, long before its 10 s. */
static unsigned rule_seen;
static void
rule_hook(void *st, const struct io_done *d)
{
	if (++rule_seen == 10)
		snprintf(d->stop, WORKER_STOP_LEN, "too many bad blocks (--max-bad 10)");
}

static void
test_rule_stop(void **state)
{
	vnow = 1000 * S;
	lat_fn = lat_10ms;
	rule_seen = 0;
	struct worker_params p = { .qd = 4, .rw_mix = 100, .time_ns = 10 * S, .pat = OFS_SEQ,
				   .on_io = rule_hook };
	struct worker *w = run(&p, false);
	assert_int_equal(w->rc, 0);
	assert_true(w->failed);
	assert_string_equal(w->msg, "stub: too many bad blocks (--max-bad 10)");
	assert_int_equal(atomic_load(&w->pub.ios), 10);
	assert_int_equal(atomic_load(&w->pub.rbytes), 10 * 4096);
	assert_true(rule_seen <= 10 + 3);	/* the ones in flight drained, nothing new */
	assert_true(w->seconds < 0.1);
	struct target_result r;
	assert_int_equal(worker_result(w, &r), 0);
	assert_non_null(strstr(r.note, "--max-bad 10"));
	free(r.series.mbps); free(r.series.iops); free(r.series.p99_us); free(r.series.pos);
	free(r.hist.upper_us); free(r.hist.count);
	finish(w);
}

/* Without a rule the same run goes its full 10 s. */
static void
no_rule_hook(void *st, const struct io_done *d)
{
	rule_seen++;
}

static void
test_no_rule_runs_on(void **state)
{
	vnow = 1000 * S;
	lat_fn = lat_10ms;
	rule_seen = 0;
	struct worker_params p = { .qd = 4, .rw_mix = 100, .time_ns = 10 * S, .pat = OFS_SEQ,
				   .on_io = no_rule_hook };
	struct worker *w = run(&p, false);
	assert_false(w->failed);
	assert_true(fabs(w->seconds - 10.0) < 1e-9);
	assert_true(rule_seen >= 3900);
	finish(w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_io_timeout),
		cmocka_unit_test(test_io_timeout_option),
		cmocka_unit_test(test_stop_bounded),
		cmocka_unit_test(test_time_limit),
		cmocka_unit_test(test_drain_counted),
		cmocka_unit_test(test_ramp_errors),
		cmocka_unit_test(test_stamp_before_start),
		cmocka_unit_test(test_watch_blocking),
		cmocka_unit_test(test_size_after_ramp),
		cmocka_unit_test(test_rule_stop),
		cmocka_unit_test(test_no_rule_runs_on),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
