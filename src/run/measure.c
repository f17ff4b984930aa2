/* measure.c - what the runner measures around the workers: the rate by
 * position (a per-I/O hook wrapping the test's own), and a step's
 * aggregate over the common window of its targets. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/measure.h"

/* Every completion: the rate by position, then the test's own hook (the
 * worker itself sorts errors into ramp-up and measured). */
void
acc_on_io(void *state, const struct io_done *d)
{
	struct io_acc *a = state;
	if (!d->res && a->pos && d->measured && d->offset >= a->region_start && d->offset < a->region_end) {
		uint64_t b = (d->offset - a->region_start) * POS_BUCKETS / (a->region_end - a->region_start);
		struct pos_bucket *x = &a->pos[b < POS_BUCKETS ? b : POS_BUCKETS - 1];
		if (!x->n++) {
			x->t_first = d->t_ns;
			x->first_len = d->len;
		}
		x->t_last = d->t_ns;
		x->bytes += d->len;
		if (d->lat_ns > x->max_lat_ns)
			x->max_lat_ns = d->lat_ns;
	}
	if (a->hook)
		a->hook(a->state, d);
}

int
acc_save_position(const struct io_acc *a, struct saved_pos *o)
{
	memset(o, 0, sizeof(*o));
	if (!a->pos)
		return 0;
	o->mbps = malloc(POS_BUCKETS * sizeof(float));
	o->max_lat_us = malloc(POS_BUCKETS * sizeof(float));
	if (!o->mbps || !o->max_lat_us) {
		free(o->mbps);
		free(o->max_lat_us);
		o->mbps = o->max_lat_us = NULL;
		return -ENOMEM;
	}
	o->n = POS_BUCKETS;
	o->start = a->region_start;
	o->end = a->region_end;
	for (size_t i = 0; i < POS_BUCKETS; i++) {
		const struct pos_bucket *x = &a->pos[i];
		/* the bytes after the first completion, over the time to the last:
		 * a bucket read once, front to back (NAN: too few to tell) */
		o->mbps[i] = x->n > 1 && x->t_last > x->t_first ?
			(float)((double)(x->bytes - x->first_len) / ((double)(x->t_last - x->t_first) / 1e9) / 1e6) : NAN;
		o->max_lat_us[i] = x->n ? (float)((double)x->max_lat_ns / 1e3) : NAN;
	}
	return 0;
}

/* The aggregate of a step.  When the targets measured for about the same
 * time, the sum of their rates; when one stopped early (errors, a stall) or
 * finished its pass first, the bytes all of them moved in the common window
 * (the shortest measured time) over that window: a target that ran alone
 * for a while does not inflate it.  The early ones are marked. */
void
step_aggregate(struct step_result *sr, const struct plan_step *st, struct worker *w, bool have_w)
{
	double tmin = INFINITY, tmax = 0;
	bool measured = false;
	for (size_t k = 0; k < sr->n_res; k++) {
		double t = sr->res[k].seconds;
		if (t <= 0)
			continue;
		measured = true;
		tmin = t < tmin ? t : tmin;
		tmax = t > tmax ? t : tmax;
	}
	KNOWN_CLEAR(sr->aggregate_mbps);
	sr->window_s = 0;
	if (!measured)	/* nothing measured (interrupted, failed): unknown, not 0 */
		return;
	double tol = tmax * 0.02 > 0.2 ? tmax * 0.02 : 0.2;	/* two intervals or 2 % */
	bool spread = tmax - tmin > tol;
	for (size_t k = 0; k < sr->n_res; k++) {
		struct target_result *t = &sr->res[k];
		bool early = t->seconds <= 0 || (spread && t->seconds < tmax - tol);
		/* stopped by errors, or short of a timed step while the others ran
		 * (a one-pass step may legitimately finish first) */
		t->stopped_early = sr->n_res > 1 && early && (t->note[0] || st->seconds > 0);
	}
	if (!spread || !have_w) {
		double sum = 0;
		for (size_t k = 0; k < sr->n_res; k++)
			sum += sr->res[k].mbps;
		KNOWN_SET(sr->aggregate_mbps, sum);
		return;
	}
	double bytes = 0;
	uint64_t tw = (uint64_t)(tmin * 1e9);
	for (size_t k = 0; k < sr->n_res; k++) {
		if (sr->res[k].seconds <= 0)
			continue;
		uint64_t after = series_bytes_after(&w[k].series, tw);
		bytes += (double)(sr->res[k].bytes > after ? sr->res[k].bytes - after : 0);
	}
	sr->window_s = tmin;
	KNOWN_SET(sr->aggregate_mbps, bytes / tmin / 1e6);
}

