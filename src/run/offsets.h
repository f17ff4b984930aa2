/* offsets.h - where the next I/O goes: sequential, random (uniform, every
 * block exactly once per pass, deterministic for a seed) or strided
 * (first + k*step).  Offsets are bytes inside the region [start, end). */
#ifndef DS_OFFSETS_H
#define DS_OFFSETS_H
#include <stdbool.h>
#include <stdint.h>

enum offset_pattern { OFS_SEQ, OFS_RAND, OFS_STRIDE };

struct offset_gen {
	enum offset_pattern pat;
	uint64_t start, end;	/* region, bytes */
	uint32_t bs;
	uint64_t step;		/* stride, bytes (OFS_STRIDE) */
	uint64_t first;		/* first offset (OFS_STRIDE), >= start */
	uint64_t nblocks;	/* I/Os in one pass */
	uint64_t i;		/* next index within the pass */
	uint64_t pass;		/* passes completed */
	/* random: a keyed bijection on [0, 2^bits), cycle-walked into [0, nblocks) */
	unsigned bits;
	uint64_t mask, seed, k1, k2;
};

/* Region [start, end) must hold at least one block.  seq/rand: blocks at
 * start + k*bs, never rounded (the caller aligns start to what the target
 * needs), the tail that holds no whole block unused; stride uses first/step
 * as given.  0 or -EINVAL (no whole block, bs 0, step 0). */
int offsets_init(struct offset_gen *g, enum offset_pattern pat, uint64_t start, uint64_t end,
		 uint32_t bs, uint64_t first, uint64_t step, uint64_t seed);
/* The next offset; sets *wrapped when this call started a new pass. */
uint64_t offsets_next(struct offset_gen *g, bool *wrapped);
/* Move the pass so the next offset is the first block at or after off
 * (seq: start + k*bs; stride: first + k*step); past the end, the pass is
 * over (the next call wraps).  A no-op for rand.  The jump of a skip-ahead
 * over an unreadable zone (io_next). */
void offsets_seek(struct offset_gen *g, uint64_t off);
/* Parse "seq" / "rand" / "stride": 0 or -EINVAL. */
int offsets_parse_pattern(const char *s, enum offset_pattern *out);
const char *offsets_pattern_name(enum offset_pattern p);
#endif
