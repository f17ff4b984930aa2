/* test_surface.c - the surface scan's findings on made-up curves: a slow
 * band is found at its blocks, a falling HDD curve, one-block stalls and a
 * dip of a RAM device (fractions of a ms per MB) are not slow ranges, and failed ranges merge only where they touch. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include "bench/surface.h"

#define MIB (1ull << 20)

/* n blocks of 1 MiB read at rate(i) MB/s. */
static struct surface_point *
curve(size_t n, double (*rate)(size_t i, size_t n))
{
	struct surface_point *p = calloc(n, sizeof(*p));
	assert_non_null(p);
	for (size_t i = 0; i < n; i++)
		p[i] = (struct surface_point){ i * MIB, MIB, MIB, (uint64_t)(MIB / rate(i, n) * 1e3) };
	return p;
}

static double hdd(size_t i, size_t n) { return 150 - 80.0 * (double)i / (double)n; }
static double band(size_t i, size_t n) { return i >= 1000 && i < 1040 ? hdd(i, n) * 0.4 : hdd(i, n); }
/* a RAM device: a band at 40 % is 0.3 ms per MB, the machine's noise */
static double ram(size_t i, size_t n) { (void)n; return i >= 1000 && i < 1040 ? 2000 : 5000; }
/* every 97th block stalls (a busy machine), pairs of them now and then */
static double noisy(size_t i, size_t n) { return i % 97 == 0 || i % 389 == 1 ? 5 : 3000 + (double)(i * 7919 % 1000); }

static void
test_band_found(void **state)
{
	(void)state;
	struct surface_point *p = curve(4000, band);
	struct surface_slow s[4];
	size_t n = surface_find_slow(p, 4000, s, 4);
	assert_int_equal(n, 1);
	assert_int_equal(s[0].start, 1000 * MIB);
	assert_int_equal(s[0].end, 1040 * MIB);
	assert_true(s[0].mbps < 0.5 * s[0].trend_mbps);
	assert_false(s[0].confirm_mbps.known);
	free(p);
}

static void
test_no_false_ranges(void **state)
{
	(void)state;
	struct surface_slow s[4];
	struct surface_point *p = curve(4000, hdd);
	assert_int_equal(surface_find_slow(p, 4000, s, 4), 0);
	free(p);
	p = curve(4000, ram);
	assert_int_equal(surface_find_slow(p, 4000, s, 4), 0);
	free(p);
	p = curve(4000, noisy);
	assert_int_equal(surface_find_slow(p, 4000, s, 4), 0);
	free(p);
	assert_int_equal(surface_find_slow(NULL, 0, s, 4), 0);
}

static void
test_merge(void **state)
{
	(void)state;
	struct surface_extent x[] = {
		{ 4096, 5120, true, false }, { 0, 512, true, false }, { 512, 1024, true, false },
		{ 5000, 6000, true, false }, { 2048, 2560, true, false },
	};
	size_t n = surface_merge(x, 5);
	assert_int_equal(n, 3);
	assert_int_equal(x[0].start, 0);
	assert_int_equal(x[0].end, 1024);
	assert_int_equal(x[1].start, 2048);
	assert_int_equal(x[1].end, 2560);
	assert_int_equal(x[2].start, 4096);
	assert_int_equal(x[2].end, 6000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_band_found),
		cmocka_unit_test(test_no_false_ranges),
		cmocka_unit_test(test_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
