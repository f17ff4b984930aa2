/* hist.h - log-linear latency histogram (fio's scheme): 64 buckets per power
 * of two (6 bits of mantissa), so a bucket's midpoint is within 0.8 % of any
 * value in it; covers 1 ns .. 2^37 ns (137 s), beyond that the last bucket.
 * Plus exact min/max and a Welford mean/variance.  Values in nanoseconds. */
#ifndef DS_HIST_H
#define DS_HIST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "run/snapshot.h"

#define HIST_BITS 6
#define HIST_VALS (1u << HIST_BITS)		/* 64 buckets per power of two */
#define HIST_GROUPS 32				/* msb 6 .. 36, plus the linear group */
#define HIST_BUCKETS (HIST_GROUPS * HIST_VALS)	/* 2048 */

struct hist {
	uint64_t count[HIST_BUCKETS];
	uint64_t n;
	uint64_t min, max;		/* valid when n > 0 */
	double mean, m2;		/* Welford */
};

void hist_init(struct hist *h);
/* The I/O path: one bucket increment, min/max, Welford update. */
void hist_add(struct hist *h, uint64_t ns);
/* Add another histogram into h (counts add; mean/variance combined exactly). */
void hist_merge(struct hist *h, const struct hist *o);
/* Value (ns) at percentile p (0..100): the bucket midpoint clamped to [min, max].
 * Returns NAN when the histogram is empty. */
double hist_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h);		/* NAN when empty */
double hist_stddev(const struct hist *h);	/* population sigma; NAN when empty */

/* Bucket mapping (exposed for tests and folding). */
unsigned hist_index(uint64_t ns);
uint64_t hist_bucket_lo(unsigned idx);	/* smallest value in the bucket */
uint64_t hist_bucket_hi(unsigned idx);	/* largest value in the bucket */

/* Percentile over a bare count array (interval histograms): NAN when empty. */
double hist_counts_percentile(const uint64_t *count, uint64_t n, double p);

/* Fold into the snapshot's power-of-two buckets: bucket k holds
 * (2^(k+6) .. 2^(k+7)] ns; below and above clamp to the ends. Adds to out. */
void hist_fold_snap(const uint64_t *count, uint64_t out[SNAP_HIST]);
#endif
