/* surface-find.c - what the surface scan concludes from its measurements
 * (surface.h): slow ranges against the curve's own trend, and unreadable
 * extents merged without joining ranges that do not touch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bench/surface.h"
#include "util/util.h"

#define MAX_SEGMENTS 65536
#define BINS 256
#define TREND_HALF 25		/* bins either side in the trend's median (~10 % of the curve) */

struct seg {
	uint64_t start, end, bytes, lat_ns;
	double mbps, trend;
};

static double
rate(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / ((double)ns / 1e9) / 1e6 : NAN;
}

bool
surface_is_slow(double r, double t, double fraction)
{
	return isfinite(r) && isfinite(t) && r > 0 && r < fraction * t &&
	       (1 / r - 1 / t) * 1e3 >= SURFACE_SLOW_MIN_MS_PER_MB;
}

static bool
pt_slow(const struct surface_point *p, double trend)
{
	return p->lat_ns && surface_is_slow(rate(p->bytes, p->lat_ns), trend, SURFACE_SLOW_FRACTION);
}

size_t
surface_find_slow(const struct surface_point *pts, size_t n, struct surface_slow *out, size_t max)
{
	size_t k = (n + MAX_SEGMENTS - 1) / MAX_SEGMENTS, ns = 0, found = 0;
	if (!n)
		return 0;
	struct seg *sg = calloc((n + k - 1) / k, sizeof(*sg));
	double *tmp = malloc((n + BINS) * sizeof(*tmp));
	double bin_med[BINS];
	if (!sg || !tmp)
		goto out;
	for (size_t i = 0; i < n; i += k, ns++) {
		struct seg *s = &sg[ns];
		s->start = pts[i].off;
		for (size_t j = i; j < n && j < i + k; j++) {
			s->end = pts[j].off + pts[j].len;
			s->bytes += pts[j].bytes;
			s->lat_ns += pts[j].lat_ns;
		}
		s->mbps = rate(s->bytes, s->lat_ns);
	}
	/* the trend: robust against the slow ranges themselves (a range
	 * shorter than half the median's window leaves it alone) */
	size_t nb = ns < BINS ? ns : BINS;
	for (size_t b = 0; b < nb; b++) {
		size_t lo = b * ns / nb, hi = (b + 1) * ns / nb, m = 0;
		for (size_t i = lo; i < hi; i++)
			if (isfinite(sg[i].mbps))
				tmp[m++] = sg[i].mbps;
		bin_med[b] = dbl_median(tmp, m);
	}
	for (size_t b = 0; b < nb; b++) {
		size_t m = 0;
		for (size_t j = b > TREND_HALF ? b - TREND_HALF : 0; j < nb && j <= b + TREND_HALF; j++)
			if (isfinite(bin_med[j]))
				tmp[m++] = bin_med[j];
		double tr = dbl_median(tmp, m);
		for (size_t i = b * ns / nb; i < (b + 1) * ns / nb; i++)
			sg[i].trend = tr;
	}
	for (size_t i = 0; i < ns;) {
		bool slow = surface_is_slow(sg[i].mbps, sg[i].trend, SURFACE_SLOW_FRACTION);
		if (!slow) {
			i++;
			continue;
		}
		size_t last = i, cnt = 0;
		for (size_t j = i + 1; j < ns && j <= last + 2; j++)
			if (surface_is_slow(sg[j].mbps, sg[j].trend, SURFACE_SLOW_FRACTION))
				last = j;
		uint64_t bytes = 0, lat = 0;
		double tsum = 0;
		for (size_t j = i; j <= last; j++) {
			bytes += sg[j].bytes;
			lat += sg[j].lat_ns;
			if (surface_is_slow(sg[j].mbps, sg[j].trend, SURFACE_SLOW_FRACTION)) {
				tsum += sg[j].trend;
				cnt++;
			}
		}
		double r = rate(bytes, lat), tr = tsum / (double)cnt;
		if (cnt >= SURFACE_SLOW_MIN_POINTS && surface_is_slow(r, tr, SURFACE_SLOW_FRACTION)) {
			/* the edges to the point (block): a segment is cut by them */
			size_t a = i * k, b = (last + 1) * k < n ? (last + 1) * k : n;
			double ta = sg[i].trend, tb = sg[last].trend;
			while (a > 0 && pt_slow(&pts[a - 1], ta) && pts[a - 1].off + pts[a - 1].len == pts[a].off)
				a--;
			while (a + 1 < b && !pt_slow(&pts[a], ta))
				a++;
			while (b < n && pt_slow(&pts[b], tb) && pts[b - 1].off + pts[b - 1].len == pts[b].off)
				b++;
			while (b - 1 > a && !pt_slow(&pts[b - 1], tb))
				b--;
			bytes = lat = 0;
			size_t m = 0;
			for (size_t j = a; j < b; j++) {
				bytes += pts[j].bytes;
				lat += pts[j].lat_ns;
				if (pts[j].lat_ns)
					tmp[m++] = rate(pts[j].bytes, pts[j].lat_ns);
			}
			/* most of its blocks slow, not a few very slow ones (a
			 * stall of a busy machine makes those) */
			if (!surface_is_slow(dbl_median(tmp, m), tr, SURFACE_SLOW_FRACTION)) {
				i = last + 1;
				continue;
			}
			if (found < max)
				out[found] = (struct surface_slow){ pts[a].off, pts[b - 1].off + pts[b - 1].len,
								    rate(bytes, lat), tr, { 0 }, { 0 } };
			found++;
		}
		i = last + 1;
	}
out:
	free(sg);
	free(tmp);
	return found;
}

static int
cmp_ext(const void *a, const void *b)
{
	const struct surface_extent *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

size_t
surface_merge(struct surface_extent *x, size_t n)
{
	if (!n)
		return 0;
	qsort(x, n, sizeof(*x), cmp_ext);
	size_t o = 0;
	for (size_t i = 1; i < n; i++) {
		if (x[i].start <= x[o].end) {
			if (x[i].end > x[o].end)
				x[o].end = x[i].end;
			x[o].exact &= x[i].exact;
			x[o].recovered &= x[i].recovered;
		} else {
			x[++o] = x[i];
		}
	}
	return o + 1;
}
