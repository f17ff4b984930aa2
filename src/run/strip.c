/* strip.c - block time by position (strip.h). */
#include <math.h>
#include <string.h>
#include "run/strip.h"

void
strip_reset(struct strip *s)
{
	memset(s, 0, sizeof(*s));
}

int
strip_bucket(double pos)
{
	if (!(pos > 0))		/* NAN too */
		return 0;
	int k = (int)(pos * STRIP_N);
	return k < STRIP_N ? k : STRIP_N - 1;
}

void
strip_add(struct strip *s, float pos, uint64_t bytes, uint64_t dur_ns)
{
	if (!isfinite(pos) || (!bytes && !dur_ns))
		return;
	pos = pos < 0 ? 0 : pos > 1 ? 1 : pos;
	double a = s->have_last && s->last_pos <= pos ? s->last_pos : pos, b = pos;
	s->last_pos = pos;
	s->have_last = true;
	int k0 = strip_bucket(a), k1 = strip_bucket(b);
	if (k0 == k1 || b - a <= 0) {
		s->ns[k1] += dur_ns;
		s->bytes[k1] += bytes;
		return;
	}
	/* Spread in proportion to the span of [a, b] in each bucket; the
	 * remainders go to the last bucket so nothing is lost to rounding. */
	uint64_t ns_left = dur_ns, by_left = bytes;
	for (int k = k0; k < k1; k++) {
		double lo = fmax(a, (double)k / STRIP_N), hi = fmin(b, (double)(k + 1) / STRIP_N);
		double f = hi > lo ? (hi - lo) / (b - a) : 0;
		uint64_t dn = (uint64_t)((double)dur_ns * f), db = (uint64_t)((double)bytes * f);
		dn = dn < ns_left ? dn : ns_left;
		db = db < by_left ? db : by_left;
		s->ns[k] += dn;
		s->bytes[k] += db;
		ns_left -= dn;
		by_left -= db;
	}
	s->ns[k1] += ns_left;
	s->bytes[k1] += by_left;
}

double
strip_ms_per_mb(const struct strip *s, int k)
{
	if (k < 0 || k >= STRIP_N)
		return NAN;
	if (!s->bytes[k])	/* time there and nothing read: a stall, the slowest */
		return s->ns[k] ? INFINITY : NAN;
	return (double)s->ns[k] / 1e6 / ((double)s->bytes[k] / 1e6);
}
