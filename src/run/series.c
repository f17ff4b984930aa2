/* series.c - the sample ring; see series.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "run/result.h"
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
	r->whole = calloc(SERIES_WHOLE_CAP, sizeof(*r->whole));
	if (!r->whole) {
		free(r->s);
		r->s = NULL;
		return -ENOMEM;
	}
	r->n_whole = 0;
	r->span = 1;
	return 0;
}

static void
bucket_merge(struct series_bucket *b, const struct series_bucket *x)
{
	b->end_ns = x->end_ns;
	b->dur_ns += x->dur_ns;
	b->ios += x->ios;
	b->rbytes += x->rbytes;
	b->wbytes += x->wbytes;
	if (isnan(b->p99_us) || x->p99_us > b->p99_us)
		b->p99_us = x->p99_us;
	b->pos = x->pos;
	b->merged += x->merged;
}

static void
whole_push(struct series *r, const struct series_sample *x)
{
	struct series_bucket nb = {
		.end_ns = x->end_ns, .dur_ns = x->dur_ns, .ios = x->ios, .rbytes = x->rbytes,
		.wbytes = x->wbytes, .p99_us = x->p99_us, .pos = x->pos, .merged = 1,
	};
	if (r->n_whole && r->whole[r->n_whole - 1].merged < r->span) {
		bucket_merge(&r->whole[r->n_whole - 1], &nb);
		return;
	}
	if (r->n_whole == SERIES_WHOLE_CAP) {	/* full: pairs merge, the span doubles */
		for (size_t i = 0; i < SERIES_WHOLE_CAP / 2; i++) {
			struct series_bucket b = r->whole[2 * i];
			bucket_merge(&b, &r->whole[2 * i + 1]);
			r->whole[i] = b;
		}
		r->n_whole = SERIES_WHOLE_CAP / 2;
		r->span *= 2;
		if (r->whole[r->n_whole - 1].merged < r->span) {
			bucket_merge(&r->whole[r->n_whole - 1], &nb);
			return;
		}
	}
	r->whole[r->n_whole++] = nb;
}

void
series_free(struct series *r)
{
	free(r->s);
	free(r->whole);
	r->s = NULL;
	r->whole = NULL;
	r->cap = r->n_whole = 0;
}

void
series_push(struct series *r, const struct series_sample *x)
{
	uint64_t t = atomic_load_explicit(&r->total, memory_order_relaxed);
	r->s[t % r->cap] = *x;
	atomic_store_explicit(&r->total, t + 1, memory_order_release);
	if (r->whole)
		whole_push(r, x);
}

uint64_t
series_bytes_after(const struct series *r, uint64_t t_ns)
{
	double after = 0;
	for (size_t i = r->n_whole; i-- > 0;) {
		const struct series_bucket *b = &r->whole[i];
		uint64_t start = b->end_ns > b->dur_ns ? b->end_ns - b->dur_ns : 0;
		double bytes = (double)(b->rbytes + b->wbytes);
		if (start >= t_ns)
			after += bytes;
		else {
			if (b->end_ns > t_ns && b->dur_ns)
				after += bytes * (double)(b->end_ns - t_ns) / (double)b->dur_ns;
			break;
		}
	}
	return (uint64_t)(after + 0.5);
}

int
series_save_whole(const struct series *r, unsigned interval_ms, struct saved_series *s)
{
	size_t n = r->n_whole;
	s->interval_ms = interval_ms * r->span;
	s->n = 0;
	s->mbps = s->iops = s->p99_us = s->pos = NULL;
	if (!n)
		return 0;
	/* A run's last interval is cut short where the step ends: an I/O issued
	 * in the interval before and completed in it counts whole, so a 5 ms
	 * tail reads many times the drive's rate.  Under half an interval it
	 * folds into the one before. */
	struct series_bucket tail = r->whole[n - 1];
	int fold = n > 1 && tail.dur_ns * 2 < (uint64_t)interval_ms * r->span * 1000000ull;
	if (fold) {
		tail = r->whole[n - 2];
		bucket_merge(&tail, &r->whole[n - 1]);
		n--;
	}
	s->mbps = malloc(n * sizeof(float));
	s->iops = malloc(n * sizeof(float));
	s->p99_us = malloc(n * sizeof(float));
	s->pos = malloc(n * sizeof(float));
	if (!s->mbps || !s->iops || !s->p99_us || !s->pos)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct series_bucket *b = i == n - 1 ? &tail : &r->whole[i];
		double sec = b->dur_ns ? (double)b->dur_ns / 1e9 : 0;
		s->mbps[i] = sec > 0 ? (float)((double)(b->rbytes + b->wbytes) / sec / 1e6) : 0;
		s->iops[i] = sec > 0 ? (float)((double)b->ios / sec) : 0;
		s->p99_us[i] = b->p99_us;
		s->pos[i] = b->pos;
	}
	s->n = n;
	return 0;
}

int
series_fold_tail(const struct series *r, unsigned interval_ms, struct series_sample *out)
{
	uint64_t t = series_total(r);
	if (t < 2 || r->cap < 2)
		return 0;
	const struct series_sample *a = &r->s[(t - 2) % r->cap], *b = &r->s[(t - 1) % r->cap];
	if ((uint64_t)b->dur_ns * 2 >= (uint64_t)interval_ms * 1000000ull)
		return 0;
	*out = *b;
	out->dur_ns = a->dur_ns + b->dur_ns;
	out->ios = a->ios + b->ios;
	out->rbytes = a->rbytes + b->rbytes;
	out->wbytes = a->wbytes + b->wbytes;
	if (isnan(out->p99_us) || a->p99_us > out->p99_us)
		out->p99_us = a->p99_us;
	return 1;
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
