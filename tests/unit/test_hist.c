/* test_hist.c - the latency histogram: bucket bounds, percentile accuracy
 * against exact percentiles of random data, merge, Welford. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "run/hist.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The exact p-th percentile with the same rank rule (ceil(p/100*n), 1-based). */
static double
exact(const uint64_t *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	return (double)sorted[rank - 1];
}

static void
test_buckets_cover(void **state)
{
	/* every value maps to a bucket whose bounds contain it, and the bucket
	 * is at most 1/64 of its value wide (=> midpoint error <= 0.8 %) */
	for (int i = 0; i < 200000; i++) {
		uint64_t v = 100 + rnd() % 60000000000ull;	/* 100 ns .. 60 s */
		unsigned idx = hist_index(v);
		assert_true(idx < HIST_BUCKETS);
		assert_true(hist_bucket_lo(idx) <= v);
		assert_true(hist_bucket_hi(idx) >= v);
		double w = (double)(hist_bucket_hi(idx) - hist_bucket_lo(idx) + 1);
		assert_true(w / (double)v <= 1.0 / 64 + 1e-12);
	}
	/* buckets are contiguous and increasing */
	for (unsigned i = 1; i < HIST_BUCKETS; i++)
		assert_int_equal(hist_bucket_lo(i), hist_bucket_hi(i - 1) + 1);
	/* 60 s still has its own bucket (not the overflow one) */
	assert_true(hist_index(60000000000ull) < HIST_BUCKETS - 1);
}

static void
check_accuracy(uint64_t (*gen)(void))
{
	enum { N = 200000 };
	uint64_t *v = malloc(N * sizeof(*v));
	struct hist *h = malloc(sizeof(*h));
	assert_non_null(v);
	assert_non_null(h);
	hist_init(h);
	double sum = 0;
	for (size_t i = 0; i < N; i++) {
		v[i] = gen();
		hist_add(h, v[i]);
		sum += (double)v[i];
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	const double ps[] = { 1, 10, 50, 90, 99, 99.9, 99.99 };
	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		double e = exact(v, N, ps[k]), got = hist_percentile(h, ps[k]);
		assert_true(fabs(got - e) / e <= 0.01);
	}
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[N - 1]);
	double mean = sum / N, var = 0;
	for (size_t i = 0; i < N; i++)
		var += ((double)v[i] - mean) * ((double)v[i] - mean);
	assert_true(fabs(hist_mean(h) - mean) / mean < 1e-9);
	assert_true(fabs(hist_stddev(h) - sqrt(var / N)) / sqrt(var / N) < 1e-6);
	free(v);
	free(h);
}

static uint64_t
gen_uniform(void)
{
	return 100 + rnd() % 10000000;	/* 100 ns .. 10 ms */
}

static uint64_t
gen_lognormal(void)
{
	/* heavy tail: exp of a sum of uniforms, 1 us .. ~seconds */
	double s = 0;
	for (int i = 0; i < 4; i++)
		s += (double)(rnd() % 1000000) / 1e6;
	return (uint64_t)(1000.0 * exp(s * 3.5));
}

static void
test_accuracy_uniform(void **state)
{
	check_accuracy(gen_uniform);
}

static void
test_accuracy_tail(void **state)
{
	check_accuracy(gen_lognormal);
}

static void
test_merge(void **state)
{
	struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *all = malloc(sizeof(*all));
	hist_init(a);
	hist_init(b);
	hist_init(all);
	for (int i = 0; i < 50000; i++) {
		uint64_t x = gen_uniform(), y = gen_lognormal();
		hist_add(a, x);
		hist_add(b, y);
		hist_add(all, x);
		hist_add(all, y);
	}
	hist_merge(a, b);
	assert_int_equal(a->n, all->n);
	assert_memory_equal(a->count, all->count, sizeof(a->count));
	assert_int_equal(a->min, all->min);
	assert_int_equal(a->max, all->max);
	assert_true(fabs(a->mean - all->mean) / all->mean < 1e-9);
	assert_true(fabs(hist_stddev(a) - hist_stddev(all)) / hist_stddev(all) < 1e-6);
	assert_true(hist_percentile(a, 99) == hist_percentile(all, 99));
	/* merging into an empty one copies */
	struct hist *e = malloc(sizeof(*e));
	hist_init(e);
	hist_merge(e, b);
	assert_int_equal(e->n, b->n);
	assert_true(e->mean == b->mean);
	free(a);
	free(b);
	free(all);
	free(e);
}

static void
test_empty_and_fold(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	hist_init(h);
	assert_true(isnan(hist_percentile(h, 50)));
	assert_true(isnan(hist_mean(h)));
	/* fold: 100 us lands in (2^16, 2^17] ns -> k = 10; 1 ms -> (2^19, 2^20] -> k = 13 */
	hist_add(h, 100000);
	hist_add(h, 1000000);
	hist_add(h, 1);		/* below the first snap bucket: clamps to 0 */
	uint64_t snap[SNAP_HIST] = { 0 };
	hist_fold_snap(h->count, snap);
	assert_int_equal(snap[10], 1);
	assert_int_equal(snap[13], 1);
	assert_int_equal(snap[0], 1);
	free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_cover),
		cmocka_unit_test(test_accuracy_uniform),
		cmocka_unit_test(test_accuracy_tail),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_empty_and_fold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
