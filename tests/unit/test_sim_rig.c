/* test_sim_rig.c - drives sharing a sim controller: the 88SE9485 reproduces
 * the seed saturation curve, the 88SE9230 scales without a knee, the x1
 * 88SE9215 is held at its link; and the virtual clock is deterministic and
 * far faster than real time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <time.h>
#include "test_sim_harness.h"
#include "util/util.h"

#define MiB (1ull << 20)
#define TOL 5.0

/* Step n of a saturate run: n drives streaming at once, 10 s each of 1 MiB
 * sequential reads at QD 8; every engine is initialised before any I/O (the
 * runner's barrier).  Aggregate MB/s. */
static double
step(const char *const *specs, size_t n)
{
	struct target t[16];
	struct engine e[16];
	for (size_t i = 0; i < n; i++)
		assert_int_equal(h_open(&t[i], specs[i]), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(h_init(&e[i], &t[i], 8), 0);
	/* On a virtual clock the workers of a step need not overlap in real
	 * time: each runs and cleans up before the next one starts, the
	 * hardest order for the controller to count its drives in. */
	double total = 0;
	for (size_t i = 0; i < n; i++) {
		struct h_stats st;
		/* 10 s at up to 250 MB/s: 2500 MiB; time what was read */
		assert_int_equal(h_seq(&e[i], 0, 2500 * MiB, (uint32_t)MiB, false, &st), 0);
		total += h_mbps(&st);
		e[i].ops->cleanup(&e[i]);
		sim_target_close(&t[i]);
	}
	return total;
}

static const char *const rig_drives[] = {
	"sim:sim0", "sim:sim1", "sim:sim2", "sim:sim3", "sim:sim4", "sim:sim5", "sim:sim6",
	"sim:sim7",
};

static void
test_9485_seed_curve(void **state)
{
	(void)state;
	char err[512];
	assert_int_equal(sim_use_rig(NULL, err, sizeof err), 0);
	/* DESIGN.md: "Marvell 88SE9485 (x8, 5 GT/s): 150, 273, 430, 544, 573, 593, 623, 640" */
	static const double fig[] = { 150, 273, 430, 544, 573, 593, 623, 640 };
	double agg[8];
	for (size_t n = 1; n <= 8; n++) {
		agg[n - 1] = step(rig_drives, n);
		printf("88SE9485 %zu drives: %6.1f MB/s (figure %g)\n", n, agg[n - 1], fig[n - 1]);
		assert_true(h_near(agg[n - 1], fig[n - 1], TOL));
	}
	/* the knee: the fourth drive still adds most of a drive, the fifth little */
	assert_true(agg[3] - agg[2] > 0.5 * agg[0]);
	assert_true(agg[4] - agg[3] < 0.25 * agg[0]);
	/* a drive alone on the controller again: full speed, nothing left over */
	assert_true(h_near(step(rig_drives, 1), 150, TOL));
}

static void
test_9230_no_knee(void **state)
{
	(void)state;
	char err[512];
	int r = sim_use_rig("tests/fixtures/sim/one-9230.rig", err, sizeof err);
	if (r)
		fprintf(stderr, "%s\n", err);
	assert_int_equal(r, 0);
	double one = step(rig_drives, 1);
	for (size_t n = 1; n <= 4; n++) {
		double a = step(rig_drives, n);
		printf("88SE9230 %zu drives: %6.1f MB/s (linear %g)\n", n, a, n * one);
		/* "no saturation": within 5 % of n x one drive */
		assert_true(a >= n * one * (1 - TOL / 100));
	}
	assert_int_equal(sim_use_rig(NULL, err, sizeof err), 0);
}

static void
test_9215_link_limited(void **state)
{
	(void)state;
	char err[512];
	assert_int_equal(sim_use_rig(NULL, err, sizeof err), 0);
	/* seed-bench.rig: sim16..sim19 sit on the x1 88SE9215 */
	static const char *const d[] = { "sim:sim16", "sim:sim17", "sim:sim18", "sim:sim19" };
	double alone = 0;
	for (size_t i = 0; i < 4; i++)
		alone += step(d + i, 1);
	double all = step(d, 4);
	printf("88SE9215 4 drives: %.1f MB/s; alone they add up to %.1f; x1 5 GT/s = 500\n", all,
	       alone);
	assert_true(alone > 500 * 1.1);		/* they ask for more than the link */
	assert_true(all <= 500 * 1.001);	/* and get the link, no more */
	assert_true(all >= 500 * (1 - TOL / 100));
}

/* Same seed, same drive, same workload: the same bytes of results. */
struct rec {
	uint64_t done_ns;
	int result;
};

static uint64_t
mixed_off(void *ctx, uint64_t i)
{
	uint64_t *s = ctx;
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	(void)i;
	return ((*s >> 24) % (1ull << 20)) * 65536;	/* first 64 GiB */
}

static void
record(const char *spec, uint64_t seed, struct rec *out, size_t n)
{
	struct target t;
	struct engine e;
	h_opts.sim_seed = seed;
	assert_int_equal(h_open(&t, spec), 0);
	assert_int_equal(h_init(&e, &t, 4), 0);
	uint64_t s = 7;
	struct io_u u[4] = { 0 }, *done[4];
	size_t got = 0, sub = 0;
	unsigned inflight = 0;
	while (got < n) {
		while (sub < n && inflight < 4) {
			struct io_u *x = &u[sub % 4];
			/* slot reuse is safe: completions come back in order */
			x->offset = mixed_off(&s, sub);
			x->len = 65536;
			x->write = sub % 3 == 0;
			assert_int_equal(e.ops->queue(&e, x), 0);
			sub++;
			inflight++;
		}
		e.ops->commit(&e);
		int k = e.ops->getevents(&e, 1, 4, done);
		assert_true(k > 0);
		for (int i = 0; i < k; i++) {
			out[got].done_ns = done[i]->done_ns;
			out[got].result = done[i]->result;
			got++;
			inflight--;
		}
	}
	e.ops->cleanup(&e);
	sim_target_close(&t);
	h_opts.sim_seed = SIM_DEFAULT_SEED;
}

static void
test_determinism(void **state)
{
	(void)state;
	enum { N = 4000 };
	static struct rec a[N], b[N], c[N];
	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	memset(c, 0, sizeof c);
	record("sim:WD20EZAZ", 1234, a, N);
	record("sim:WD20EZAZ", 1234, b, N);
	record("sim:WD20EZAZ", 99, c, N);
	assert_memory_equal(a, b, sizeof a);
	/* the seed matters (rate noise): another seed, other timings */
	assert_memory_not_equal(a, c, sizeof a);
}

/* A 10-minute sequential test in virtual time must take far less than 0.6 s
 * of CPU (1000x).  CPU time, not wall time, and the bound is loose: it
 * typically runs ~100x faster than the bound. */
static void
test_virtual_speed(void **state)
{
	(void)state;
	struct target t;
	struct engine e;
	assert_int_equal(h_open(&t, "sim:WD40EZRX"), 0);
	assert_int_equal(h_init(&e, &t, 8), 0);
	struct timespec c0, c1;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	uint64_t v0 = e.ops->clock_ns(&e);
	struct h_stats st;
	double virt = 0;
	uint64_t off = 0;
	while (virt < 600) {
		assert_int_equal(h_seq(&e, off, 1024 * MiB, (uint32_t)MiB, false, &st), 0);
		off += 1024 * MiB;
		virt = (double)(e.ops->clock_ns(&e) - v0) / 1e9;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
	printf("10-minute sequential test: %.0f virtual s in %.4f CPU s (%.0fx)\n", virt, cpu,
	       virt / (cpu > 0 ? cpu : 1e-9));
	assert_true(cpu * 1000 < virt);
	e.ops->cleanup(&e);
	sim_target_close(&t);
}

/* Real-time clock (the dashboard): completions wait for the real clock x
 * speed.  Only a lower bound is asserted (sleeping guarantees it); the
 * virtual result must match the virtual clock's. */
static void
test_real_clock(void **state)
{
	(void)state;
	struct target t;
	struct engine e;
	struct h_stats st, vst;
	assert_int_equal(h_open(&t, "sim:WD40EZRX"), 0);
	assert_int_equal(h_init(&e, &t, 4), 0);
	assert_int_equal(h_seq(&e, 0, 150 * MiB, (uint32_t)MiB, false, &vst), 0);
	e.ops->cleanup(&e);
	sim_target_close(&t);

	h_opts.sim_speed = 20;	/* 20x real time */
	assert_int_equal(h_open(&t, "sim:WD40EZRX"), 0);
	assert_int_equal(h_init(&e, &t, 4), 0);
	uint64_t r0 = now_ns();
	assert_int_equal(h_seq(&e, 0, 150 * MiB, (uint32_t)MiB, false, &st), 0);
	double real = (double)(now_ns() - r0) / 1e9;
	e.ops->cleanup(&e);
	sim_target_close(&t);
	h_opts.sim_speed = 0;
	printf("real clock x20: %.3f s of drive time took %.3f s\n", st.seconds, real);
	assert_true(real >= vst.seconds / 20 * 0.99);
	/* the same model: a late wake-up can only leave the drive idle, never
	 * make it faster (no bound on how late: the machine may be busy) */
	assert_true(h_mbps(&st) <= h_mbps(&vst) * 1.001);
	assert_true(h_mbps(&st) > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_9485_seed_curve),
		cmocka_unit_test(test_9230_no_knee),
		cmocka_unit_test(test_9215_link_limited),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_virtual_speed),
		cmocka_unit_test(test_real_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
