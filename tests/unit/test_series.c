/* test_series.c - the sample ring (wrap-around, readers by running number)
 * and the worker's interval boundaries (exact, per interval, not cumulative),
 * driven through a fake engine with a scripted clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "run/series.h"
#include "run/worker.h"

static void
test_ring_wrap(void **state)
{
	struct series r;
	assert_int_equal(series_init(&r, 8), 0);
	for (uint64_t i = 0; i < 20; i++) {
		struct series_sample s = { .end_ns = (i + 1) * 100, .dur_ns = 100, .ios = (uint32_t)i };
		series_push(&r, &s);
	}
	assert_int_equal(series_total(&r), 20);
	struct series_sample out[32];
	uint64_t first;
	/* asking from 0: only the newest 8 survive, oldest first */
	size_t k = series_copy(&r, 0, 32, out, &first);
	assert_int_equal(k, 7);	/* the slot being rewritten next is not trusted */
	assert_int_equal(first, 13);
	for (size_t i = 0; i < k; i++)
		assert_int_equal(out[i].ios, 13 + i);
	/* a reader that keeps up gets everything in order */
	k = series_copy(&r, 18, 32, out, &first);
	assert_int_equal(k, 2);
	assert_int_equal(first, 18);
	assert_int_equal(out[0].ios, 18);
	assert_int_equal(out[1].ios, 19);
	/* nothing new */
	assert_int_equal(series_copy(&r, 20, 32, out, &first), 0);
	series_free(&r);
}

static void
test_rates(void **state)
{
	struct series_sample s = { .dur_ns = 100000000, .ios = 250, .rbytes = 1000000, .wbytes = 500000 };
	assert_true(fabs(series_mbps(&s) - 15.0) < 1e-9);	/* 1.5 MB in 0.1 s */
	assert_true(fabs(series_read_mbps(&s) - 10.0) < 1e-9);
	assert_true(fabs(series_iops(&s) - 2500.0) < 1e-9);
}

/* ---- a fake engine: every I/O takes exactly 1 ms on a virtual clock ---- */

static uint64_t fake_now;
static struct io_u *fake_q[256];
static unsigned fake_nq;

static int f_init(struct engine *e, void **b, unsigned n, size_t l) { fake_nq = 0; return 0; }
static int f_queue(struct engine *e, struct io_u *u) { fake_q[fake_nq++] = u; return 0; }
static int f_commit(struct engine *e) { return (int)fake_nq; }
static int
f_getevents(struct engine *e, unsigned min, unsigned max, struct io_u **done)
{
	/* complete one at a time, 1 ms apart */
	fake_now += 1000000;
	struct io_u *u = fake_q[0];
	memmove(fake_q, fake_q + 1, (--fake_nq) * sizeof(fake_q[0]));
	u->result = (int)u->len;
	u->done_ns = fake_now;
	done[0] = u;
	return 1;
}
static void f_cleanup(struct engine *e) { }
static uint64_t f_clock(struct engine *e) { return fake_now; }

static const struct engine_ops fake_ops = {
	.name = "fake", .init = f_init, .queue = f_queue, .commit = f_commit,
	.getevents = f_getevents, .cleanup = f_cleanup, .clock_ns = f_clock,
};

static void
test_worker_intervals(void **state)
{
	struct target t = { .name = "fake", .fd = -1, .size = 1ull << 30, .logical = 512 };
	struct worker_params p = {
		.ops = &fake_ops, .t = &t, .bs = 4096, .qd = 1, .rw_mix = 100, .pat = OFS_SEQ,
		.region_start = 0, .region_end = t.size, .time_ns = 1050000000ull,	/* 1.05 s */
		.ramp_ns = 200000000ull, .interval_ms = 100, .data = DATA_ZEROS,
	};
	struct worker *w = calloc(1, sizeof(*w));
	atomic_bool stop = false;
	fake_now = 5000000000ull;
	assert_int_equal(worker_setup(w, &p, NULL, &stop), 0);
	assert_int_equal(worker_start(w), 0);
	worker_join(w);
	assert_int_equal(w->rc, 0);
	/* 1.05 s measured: ten full 100 ms intervals and one of 50 ms */
	struct series_sample s[64];
	uint64_t first;
	size_t n = series_copy(&w->series, 0, 64, s, &first);
	assert_int_equal(n, 11);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(s[i].end_ns, i < 10 ? (i + 1) * 100000000ull : 1050000000ull);
		assert_int_equal(s[i].dur_ns, i < 10 ? 100000000u : 50000000u);
	}
	/* per interval, not cumulative: I/Os completing in (start, end] of a
	 * 100 ms interval on a 1 ms cadence: 100 each (the first counts the
	 * completion exactly at the ramp end) */
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++) {
		if (i < 10)
			assert_in_range(s[i].ios, 99, 101);
		total += s[i].ios;
		assert_true(fabs(s[i].p50_us - 1000) < 10);	/* 1 ms each, within a bucket */
	}
	struct target_result r;
	assert_int_equal(worker_result(w, &r), 0);
	assert_int_equal(total, r.ios);
	assert_true(fabs(r.seconds - 1.05) < 1e-9);
	assert_true(fabs(r.iops - (double)r.ios / 1.05) < 1e-6);
	assert_true(r.lat.known);
	assert_true(fabs(r.lat.p99 - 1000) < 10);
	assert_int_equal(r.series.n, 11);
	free(r.series.mbps); free(r.series.iops); free(r.series.p99_us); free(r.series.pos);
	free(r.hist.upper_us); free(r.hist.count);
	worker_cleanup(w);
	free(w);
}

static int f_init_nosys(struct engine *e, void **b, unsigned n, size_t l) { return -ENOSYS; }
static const struct engine_ops nosys_ops = {
	.name = "uring", .init = f_init_nosys, .queue = f_queue, .commit = f_commit,
	.getevents = f_getevents, .cleanup = f_cleanup,
};

/* io_uring unavailable (seccomp, io_uring_disabled): the worker falls back
 * and says so in one line; an explicit engine gets no fallback. */
static void
test_worker_fallback(void **state)
{
	struct target t = { .name = "fake", .fd = -1, .size = 1 << 20, .logical = 512 };
	struct worker_params p = {
		.ops = &nosys_ops, .fallback = &fake_ops, .t = &t, .bs = 4096, .qd = 2,
		.rw_mix = 100, .pat = OFS_SEQ, .region_start = 0, .region_end = t.size,
		.one_pass = true, .data = DATA_ZEROS,
	};
	struct worker *w = calloc(1, sizeof(*w));
	atomic_bool stop = false;
	fake_now = 1;
	assert_int_equal(worker_setup(w, &p, NULL, &stop), 0);
	assert_int_equal(worker_start(w), 0);
	worker_join(w);
	assert_int_equal(w->rc, 0);
	assert_string_equal(w->engine_used, "fake");
	assert_non_null(strstr(w->notice, "uring unavailable"));
	assert_non_null(strstr(w->notice, "using fake"));
	/* one pass over 1 MiB of 4 KiB blocks */
	assert_int_equal(atomic_load(&w->pub.ios), 256);
	worker_cleanup(w);
	p.fallback = NULL;
	assert_int_equal(worker_setup(w, &p, NULL, &stop), 0);
	assert_int_equal(worker_start(w), 0);
	worker_join(w);
	assert_int_equal(w->rc, -ENOSYS);
	assert_non_null(strstr(w->msg, "uring"));
	worker_cleanup(w);
	free(w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_wrap),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_worker_intervals),
		cmocka_unit_test(test_worker_fallback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
