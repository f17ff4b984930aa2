/* hist.c - log-linear latency histogram; see hist.h. */
#include <math.h>
#include <string.h>
#include "run/hist.h"

void
hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

unsigned
hist_index(uint64_t ns)
{
	if (ns < HIST_VALS)
		return (unsigned)ns;
	unsigned msb = 63 - (unsigned)__builtin_clzll(ns);
	unsigned shift = msb - HIST_BITS;	/* bits below the mantissa */
	unsigned idx = (shift + 1) * HIST_VALS + (unsigned)((ns >> shift) - HIST_VALS);
	return idx < HIST_BUCKETS ? idx : HIST_BUCKETS - 1;
}

uint64_t
hist_bucket_lo(unsigned idx)
{
	if (idx < HIST_VALS)
		return idx;
	unsigned shift = idx / HIST_VALS - 1;
	return (uint64_t)(HIST_VALS + idx % HIST_VALS) << shift;
}

uint64_t
hist_bucket_hi(unsigned idx)
{
	if (idx < HIST_VALS)
		return idx;
	unsigned shift = idx / HIST_VALS - 1;
	return hist_bucket_lo(idx) + ((uint64_t)1 << shift) - 1;
}

void
hist_add(struct hist *h, uint64_t ns)
{
	h->count[hist_index(ns)]++;
	if (h->n == 0 || ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->n++;
	double d = (double)ns - h->mean;
	h->mean += d / (double)h->n;
	h->m2 += d * ((double)ns - h->mean);
}

void
hist_merge(struct hist *h, const struct hist *o)
{
	if (o->n == 0)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		h->count[i] += o->count[i];
	if (h->n == 0) {
		h->min = o->min;
		h->max = o->max;
		h->mean = o->mean;
		h->m2 = o->m2;
		h->n = o->n;
		return;
	}
	if (o->min < h->min)
		h->min = o->min;
	if (o->max > h->max)
		h->max = o->max;
	/* Chan et al.: combine two (n, mean, M2) exactly. */
	double na = (double)h->n, nb = (double)o->n, n = na + nb;
	double d = o->mean - h->mean;
	h->mean += d * nb / n;
	h->m2 += o->m2 + d * d * na * nb / n;
	h->n += o->n;
}

double
hist_counts_percentile(const uint64_t *count, uint64_t n, double p)
{
	if (n == 0)
		return NAN;
	/* The rank of the p-th percentile, 1-based, as fio computes it. */
	uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	uint64_t cum = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		cum += count[i];
		if (cum >= rank)
			return ((double)hist_bucket_lo(i) + (double)hist_bucket_hi(i)) / 2.0;
	}
	return (double)hist_bucket_hi(HIST_BUCKETS - 1);
}

double
hist_percentile(const struct hist *h, double p)
{
	double v = hist_counts_percentile(h->count, h->n, p);
	if (isnan(v))
		return v;
	if (v < (double)h->min)
		v = (double)h->min;
	if (v > (double)h->max)
		v = (double)h->max;
	return v;
}

double
hist_mean(const struct hist *h)
{
	return h->n ? h->mean : NAN;
}

double
hist_stddev(const struct hist *h)
{
	return h->n ? sqrt(h->m2 / (double)h->n) : NAN;
}

void
hist_fold_snap(const uint64_t *count, uint64_t out[SNAP_HIST])
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!count[i])
			continue;
		uint64_t v = hist_bucket_hi(i);
		/* bucket k: (2^(k+6), 2^(k+7)] -> k = ceil(log2 v) - 7 */
		int k = v <= 1 ? 0 : (64 - __builtin_clzll(v - 1)) - 7;
		if (k < 0)
			k = 0;
		if (k >= SNAP_HIST)
			k = SNAP_HIST - 1;
		out[k] += count[i];
	}
}
