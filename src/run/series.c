/* series.c - the sample ring; see series.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "run/series.h"

int
series_init(struct series *r, size_t cap)
{
	if (cap == 0)
		cap = 1;
	r->s = calloc(cap, sizeof(*r->s));
	if (!r->s)
		return -ENOMEM;
	r->cap = cap;
	atomic_store_explicit(&r->total, 0, memory_order_relaxed);
	return 0;
}

void
series_free(struct series *r)
{
	free(r->s);
	r->s = NULL;
	r->cap = 0;
}

void
series_push(struct series *r, const struct series_sample *x)
{
	uint64_t t = atomic_load_explicit(&r->total, memory_order_relaxed);
	r->s[t % r->cap] = *x;
	atomic_store_explicit(&r->total, t + 1, memory_order_release);
}

uint64_t
series_total(const struct series *r)
{
	return atomic_load_explicit(&r->total, memory_order_acquire);
}

size_t
series_copy(const struct series *r, uint64_t from, size_t n,
	    struct series_sample *out, uint64_t *first)
{
	uint64_t total = series_total(r);
	uint64_t end = from + n;
	if (end > total)
		end = total;
	/* Only the newest cap samples are still there. */
	uint64_t oldest = total > r->cap ? total - r->cap : 0;
	if (from < oldest)
		from = oldest;
	if (first)
		*first = from;
	if (from >= end)
		return 0;
	size_t k = 0;
	for (uint64_t i = from; i < end; i++)
		out[k++] = r->s[i % r->cap];
	/* The writer may have lapped us while we copied: drop what it overwrote
	 * (it may be writing number `now` into the slot of now - cap). */
	uint64_t now = atomic_load_explicit(&r->total, memory_order_acquire) + 1;
	uint64_t safe = now > r->cap ? now - r->cap : 0;
	if (safe > from) {
		uint64_t drop = safe - from;
		if (drop >= k)
			return 0;
		memmove(out, out + drop, (k - drop) * sizeof(*out));
		k -= drop;
		if (first)
			*first = from + drop;
	}
	return k;
}

static double
secs(const struct series_sample *x)
{
	return x->dur_ns ? (double)x->dur_ns / 1e9 : 0;
}

double
series_mbps(const struct series_sample *x)
{
	double s = secs(x);
	return s > 0 ? (double)(x->rbytes + x->wbytes) / s / 1e6 : 0;
}

double
series_read_mbps(const struct series_sample *x)
{
	double s = secs(x);
	return s > 0 ? (double)x->rbytes / s / 1e6 : 0;
}

double
series_write_mbps(const struct series_sample *x)
{
	double s = secs(x);
	return s > 0 ? (double)x->wbytes / s / 1e6 : 0;
}

double
series_iops(const struct series_sample *x)
{
	double s = secs(x);
	return s > 0 ? (double)x->ios / s : 0;
}
