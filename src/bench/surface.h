/* surface.h - the surface scan's findings as functions another test can
 * reuse (a triage test: sample, then call these on what it measured):
 * slow ranges from a rate-by-position curve, unreadable extents from failed
 * reads.  Pure functions, no I/O (surface-find.c). */
#ifndef DS_SURFACE_H
#define DS_SURFACE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/known.h"

/* One measured point of the curve: bytes read at [off, off+len) taking
 * lat_ns of device time (sum of the reads' latencies at queue depth 1). */
struct surface_point {
	uint64_t off, len;
	uint64_t bytes;
	uint64_t lat_ns;
};

/* A range well below its neighbours' trend. */
struct surface_slow {
	uint64_t start, end;		/* bytes [start, end) */
	double mbps;			/* its rate */
	double trend_mbps;		/* its neighbours' (median) */
	struct known_dbl confirm_mbps;	/* on a re-read; unknown: not re-read */
	struct known_dbl control_mbps;	/* as many blocks beside it re-read the same way */
};

#define SURFACE_SLOW_FRACTION 0.6	/* slower than 60 % of the trend ... */
#define SURFACE_SLOW_MIN_POINTS 3	/* ... over at least 3 consecutive segments ... */
#define SURFACE_SLOW_MIN_MS_PER_MB 1.0	/* ... each MB taking 1 ms longer at least (a RAM
					   device's stalls of a busy machine are shorter) */

/* Whether rate r is slow against trend t (MB/s): under the fraction and at
 * least SURFACE_SLOW_MIN_MS_PER_MB longer per MB. */
bool surface_is_slow(double r, double t, double fraction);

/* Slow ranges in pts (sorted by offset, n of them): at most max into out,
 * the count found (may exceed max).  The rule: the points are grouped in
 * segments (at most 65536); the trend at a segment is the median of the
 * 51 bin medians around it (256 bins over the curve); a segment slower than
 * SURFACE_SLOW_FRACTION of its trend is slow; slow segments with at most one
 * normal segment between them join; a range needs SURFACE_SLOW_MIN_POINTS
 * segments, and both its mean rate and the median rate of its points
 * slow against its trend (surface_is_slow). */
size_t surface_find_slow(const struct surface_point *pts, size_t n, struct surface_slow *out, size_t max);

/* An unreadable extent, in bytes [start, end). */
struct surface_extent {
	uint64_t start, end;
	bool exact;			/* pinned sector by sector (else at block resolution) */
	bool recovered;			/* failed in the scan, read on the re-read */
};

/* Merge failed ranges [start, end) (any order) into extents: touching or
 * overlapping ranges join, others stay apart.  In place; the new count. */
size_t surface_merge(struct surface_extent *x, size_t n);
#endif
