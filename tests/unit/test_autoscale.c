/* test_autoscale.c - the 1-2-5 axis maximum: grows at once, shrinks one step
 * at a time after the data stayed well below for `hold` updates, never
 * flickers at a boundary, never cuts the data off. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include "autoscale.h"

static bool
on_ladder(double m)
{
	double p = pow(10, floor(log10(m) + 1e-9));
	double mant = m / p;

	return fabs(mant - 1) < 1e-9 || fabs(mant - 2) < 1e-9 || fabs(mant - 5) < 1e-9;
}

static void
test_nice(void **state)
{
	static const double in[] = { 0, -3, 1, 1.01, 2, 3, 5, 7, 10, 150, 640, 999.9, 1000, 2001, 0.3 };
	static const double want[] = { 1, 1, 1, 2, 2, 5, 5, 10, 10, 200, 1000, 1000, 1000, 5000, 0.5 };

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		assert_float_equal(autoscale_nice(in[i]), want[i], want[i] * 1e-9);
	/* Over a wide range: on the ladder, above the value, never 2.5x above. */
	for (double v = 0.01; v < 1e7; v *= 1.037) {
		double m = autoscale_nice(v);

		assert_true(on_ladder(m));
		assert_true(m >= v * (1 - 1e-12));
		assert_true(m <= v * 2.5 + 1e-9);
	}
}

static void
test_grows_at_once(void **state)
{
	struct autoscale a;

	autoscale_init(&a, 1, 5);
	assert_float_equal(autoscale_update(&a, 150), 200, 1e-9);
	assert_float_equal(autoscale_update(&a, 600), 1000, 1e-9);
	assert_float_equal(autoscale_update(&a, 1200), 2000, 1e-9);
}

static void
test_shrinks_with_hysteresis(void **state)
{
	struct autoscale a;

	autoscale_init(&a, 1, 5);
	autoscale_update(&a, 900);			/* 1000 */
	for (int i = 0; i < 4; i++)
		assert_float_equal(autoscale_update(&a, 100), 1000, 1e-9);
	assert_float_equal(autoscale_update(&a, 100), 500, 1e-9);	/* one step only */
	for (int i = 0; i < 4; i++)
		assert_float_equal(autoscale_update(&a, 100), 500, 1e-9);
	assert_float_equal(autoscale_update(&a, 100), 200, 1e-9);
	/* 100 is not "well below" the next step (100): it stays at 200. */
	for (int i = 0; i < 50; i++)
		assert_float_equal(autoscale_update(&a, 100), 200, 1e-9);
}

static void
test_no_flicker(void **state)
{
	struct autoscale a;

	autoscale_init(&a, 1, 3);
	autoscale_update(&a, 180);			/* 200 */
	/* Data hovering around the 100 boundary never changes the axis. */
	for (int i = 0; i < 100; i++)
		assert_float_equal(autoscale_update(&a, i % 2 ? 95 : 105), 200, 1e-9);
	/* A spike interrupts a pending shrink. */
	autoscale_init(&a, 1, 3);
	autoscale_update(&a, 900);
	autoscale_update(&a, 10);
	autoscale_update(&a, 10);
	autoscale_update(&a, 950);
	autoscale_update(&a, 10);
	assert_float_equal(autoscale_update(&a, 10), 1000, 1e-9);
	assert_float_equal(autoscale_update(&a, 10), 500, 1e-9);
}

static void
test_never_below_data_or_floor(void **state)
{
	struct autoscale a;
	double v = 3000;

	autoscale_init(&a, 10, 2);
	for (int i = 0; i < 400; i++) {
		v = i < 200 ? v * 0.97 : v * 1.02;
		assert_true(autoscale_update(&a, v) >= v);
		assert_true(a.max >= 10);
	}
	autoscale_init(&a, 10, 1);
	for (int i = 0; i < 20; i++)
		autoscale_update(&a, 0);
	assert_float_equal(a.max, 10, 1e-9);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nice),
		cmocka_unit_test(test_grows_at_once),
		cmocka_unit_test(test_shrinks_with_hysteresis),
		cmocka_unit_test(test_no_flicker),
		cmocka_unit_test(test_never_below_data_or_floor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
