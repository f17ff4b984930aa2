/* autoscale.h - a plot maximum on the 1-2-5 ladder that grows at once and
 * shrinks only after the data stayed lower for a while (no flicker). */
#ifndef DS_UI_AUTOSCALE_H
#define DS_UI_AUTOSCALE_H

struct autoscale {
	double max;		/* current axis maximum (0 until the first update) */
	double floor;		/* never below this */
	int hold;		/* updates the data must stay lower before shrinking */
	int below;		/* consecutive updates below */
};

/* Smallest 1, 2 or 5 x 10^k that is >= v (v > 0); 1 for v <= 0. */
double autoscale_nice(double v);
void autoscale_init(struct autoscale *a, double floor, int hold);
/* Feed the largest value now on screen; returns the axis maximum. */
double autoscale_update(struct autoscale *a, double v);
#endif
