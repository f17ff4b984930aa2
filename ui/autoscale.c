/* autoscale.c - 1-2-5 axis maximum with shrink hysteresis. */
#include <math.h>
#include "autoscale.h"

double
autoscale_nice(double v)
{
	if (!(v > 0) || isinf(v))
		return 1;
	double p = pow(10, floor(log10(v)));
	/* Guard against log10 rounding (e.g. v = 1000 giving p = 100). */
	while (p * 10 <= v)
		p *= 10;
	while (p > v)
		p /= 10;
	static const double steps[] = { 1, 2, 5, 10 };

	for (int i = 0; i < 4; i++)
		if (steps[i] * p >= v * (1 - 1e-12))
			return steps[i] * p;
	return 10 * p;
}

/* The 1-2-5 step just below m (m itself on the ladder). */
static double
ladder_below(double m)
{
	double p = pow(10, floor(log10(m) + 1e-9));
	double mant = m / p;

	if (mant < 1.5)
		return p / 2;	/* 1 -> 0.5 */
	if (mant < 3.5)
		return p;	/* 2 -> 1 */
	return 2 * p;		/* 5 -> 2 */
}

void
autoscale_init(struct autoscale *a, double fl, int hold)
{
	a->max = 0;
	a->floor = fl > 0 ? fl : 1;
	a->hold = hold > 0 ? hold : 1;
	a->below = 0;
}

double
autoscale_update(struct autoscale *a, double v)
{
	double want = autoscale_nice(v > a->floor ? v : a->floor);

	if (want >= a->max) {
		a->max = want;
		a->below = 0;
		return a->max;
	}
	/* Count only updates that sit well inside the next lower step, so a
	 * value hovering at a boundary does not make the axis flicker. */
	double next = ladder_below(a->max);

	if (v >= 0.9 * next || next < want) {
		a->below = 0;
	} else if (++a->below >= a->hold) {
		a->max = next;	/* one step at a time: the axis never jumps away */
		a->below = 0;
	}
	return a->max;
}
