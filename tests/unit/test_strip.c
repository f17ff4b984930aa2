/* test_strip.c - the bench board's block time by position (run/strip.h):
 * intervals spread over the buckets they crossed, sums kept exact, unknown
 * buckets unknown (never 0), a stall the slowest, and fixed memory however
 * long the run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include "run/strip.h"

static uint64_t
sum_ns(const struct strip *s)
{
	uint64_t t = 0;
	for (int k = 0; k < STRIP_N; k++)
		t += s->ns[k];
	return t;
}

static uint64_t
sum_bytes(const struct strip *s)
{
	uint64_t t = 0;
	for (int k = 0; k < STRIP_N; k++)
		t += s->bytes[k];
	return t;
}

/* A sequential pass at 100 MB/s in 100 ms intervals: every bucket reads 10
 * ms per MB, and nothing is lost to the spreading. */
static void
test_even_pass(void **state)
{
	struct strip s;
	strip_reset(&s);
	for (int i = 1; i <= 1000; i++)
		strip_add(&s, (float)i / 1000, 10000000, 100000000);
	assert_int_equal(sum_ns(&s), 1000ull * 100000000);
	assert_int_equal(sum_bytes(&s), 1000ull * 10000000);
	for (int k = 0; k < STRIP_N; k++)
		assert_float_equal(strip_ms_per_mb(&s, k), 10.0, 0.3);
}

/* Untouched buckets are unknown; an interval crossing a bucket border
 * splits by the span in each. */
static void
test_split_and_unknown(void **state)
{
	struct strip s;
	strip_reset(&s);
	assert_true(isnan(strip_ms_per_mb(&s, 0)));
	assert_true(isnan(strip_ms_per_mb(&s, -1)));
	assert_true(isnan(strip_ms_per_mb(&s, STRIP_N)));
	/* first interval: no previous end, so it lands in its own bucket */
	strip_add(&s, 0.5f / STRIP_N, 1000000, 4000000);
	assert_int_equal(s.bytes[0], 1000000);
	assert_float_equal(strip_ms_per_mb(&s, 0), 4.0, 1e-9);
	/* from the middle of bucket 0 to the middle of bucket 2: 1/4, 1/2, 1/4 */
	strip_add(&s, 2.5f / STRIP_N, 4000000, 8000000);
	assert_int_equal(s.bytes[1], 2000000);
	assert_int_equal(s.ns[1], 4000000);
	assert_int_equal(s.bytes[0] + s.bytes[2], 1000000 + 2000000);
	assert_int_equal(sum_ns(&s), 12000000);
	assert_true(isnan(strip_ms_per_mb(&s, 3)));
	assert_true(isnan(strip_ms_per_mb(&s, STRIP_N - 1)));
}

/* A slow band shows in its bucket only; time with no bytes is a stall
 * (the slowest), never 0 or unknown. */
static void
test_slow_band_and_stall(void **state)
{
	struct strip s;
	strip_reset(&s);
	int slow = STRIP_N / 2;
	for (int i = 1; i <= 640; i++) {
		int k = (i - 1) * STRIP_N / 640;
		strip_add(&s, (float)i / 640, 10000000, k == slow ? 500000000u : 100000000u);
	}
	assert_float_equal(strip_ms_per_mb(&s, slow), 50.0, 2.0);
	assert_float_equal(strip_ms_per_mb(&s, slow - 2), 10.0, 0.5);
	assert_float_equal(strip_ms_per_mb(&s, slow + 2), 10.0, 0.5);
	struct strip t;
	strip_reset(&t);
	strip_add(&t, 0.9f, 0, 3000000000u);
	assert_true(isinf(strip_ms_per_mb(&t, strip_bucket(0.9))));
}

/* Backwards (a wrap, a random jump): the interval lands where it ended;
 * positions outside 0..1 clamp; a non-number is ignored. */
static void
test_backwards_and_bad_pos(void **state)
{
	struct strip s;
	strip_reset(&s);
	strip_add(&s, 0.99f, 1000000, 1000000);
	strip_add(&s, 0.01f, 1000000, 1000000);
	assert_int_equal(s.bytes[0], 1000000);
	assert_int_equal(s.bytes[STRIP_N - 1], 1000000);
	for (int k = 1; k < STRIP_N - 1; k++)
		assert_int_equal(s.bytes[k], 0);
	strip_add(&s, 1.5f, 1000000, 1000000);
	strip_add(&s, -0.5f, 1000000, 1000000);
	strip_add(&s, NAN, 1000000, 1000000);
	assert_int_equal(sum_bytes(&s), 4000000);
	assert_int_equal(strip_bucket(0), 0);
	assert_int_equal(strip_bucket(1), STRIP_N - 1);
	assert_int_equal(strip_bucket(NAN), 0);
}

/* A day at 10 Hz, sweeping over and over: the strip stays its size and
 * its sums stay exact (no overflow, no drift). */
static void
test_day_long(void **state)
{
	struct strip s;
	strip_reset(&s);
	const uint64_t n = 24ull * 3600 * 10;
	for (uint64_t i = 0; i < n; i++)
		strip_add(&s, (float)((i % 6000) + 1) / 6000, 15000000, 100000000);
	assert_int_equal(sum_ns(&s), n * 100000000);
	assert_int_equal(sum_bytes(&s), n * 15000000);
	for (int k = 0; k < STRIP_N; k++)
		assert_float_equal(strip_ms_per_mb(&s, k), 100.0 / 15, 0.5);
	assert_true(sizeof(struct strip) < 1100);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_even_pass),
		cmocka_unit_test(test_split_and_unknown),
		cmocka_unit_test(test_slow_band_and_stall),
		cmocka_unit_test(test_backwards_and_bad_pos),
		cmocka_unit_test(test_day_long),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
