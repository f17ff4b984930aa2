/* strip.h - a target's block time by position: a fixed number of position
 * buckets, each the time spent and the bytes read there, so a bucket's
 * value is ms per MB.  Time per byte (not MB/s) because it adds up: merging
 * intervals of different lengths is a plain sum, and one slow stretch
 * raises its bucket instead of being averaged away by fast ones.  Filled
 * by the sampler from the per-interval series; fixed size, so a 24-hour
 * run costs the same memory as a minute. */
#ifndef DS_STRIP_H
#define DS_STRIP_H
#include <stdbool.h>
#include <stdint.h>

#define STRIP_N 64

struct strip {
	uint64_t ns[STRIP_N];		/* time spent in the bucket */
	uint64_t bytes[STRIP_N];	/* bytes moved there */
	float last_pos;			/* where the previous interval ended */
	bool have_last;			/* last_pos is valid (same pass) */
};

void strip_reset(struct strip *s);
/* One interval that ended at pos (0..1) after dur_ns and moved bytes: its
 * time and bytes spread over the buckets between the previous interval's
 * end and pos, in proportion.  The first interval of a pass, or one that
 * went backwards (a wrap, a random jump), lands in pos's bucket alone. */
void strip_add(struct strip *s, float pos, uint64_t bytes, uint64_t dur_ns);
/* Bucket k's block time in ms per MB (10^6 bytes); NAN when the pass has
 * not been there, INFINITY when it spent time there and read nothing. */
double strip_ms_per_mb(const struct strip *s, int k);
/* The bucket of a position 0..1 (clamped). */
int strip_bucket(double pos);
#endif
