/* pattern.c - the write-verify pattern (pattern.h). */
#include <string.h>
#include "run/pattern.h"

/* splitmix64 steps: every word of a sector differs from its neighbours' and
 * from the same word of every other sector. */
static inline uint64_t
mix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void
sector(uint64_t *w, uint64_t lba, uint64_t seed)
{
	uint64_t x = lba * 0xd1b54a32d192ed03ull ^ seed;
	w[0] = lba;
	w[1] = seed;
	for (unsigned k = 2; k < PATTERN_SECTOR / 8; k++)
		w[k] = mix(&x);
}

void
pattern_fill(void *buf, size_t len, uint64_t off, uint64_t seed)
{
	for (size_t o = 0; o + PATTERN_SECTOR <= len; o += PATTERN_SECTOR)
		sector((uint64_t *)((char *)buf + o), (off + o) / PATTERN_SECTOR, seed);
}

uint64_t
pattern_check(const void *buf, size_t len, uint64_t off, uint64_t seed,
	      uint64_t *first_bad, uint64_t *last_bad)
{
	uint64_t want[PATTERN_SECTOR / 8], bad = 0;
	for (size_t o = 0; o + PATTERN_SECTOR <= len; o += PATTERN_SECTOR) {
		sector(want, (off + o) / PATTERN_SECTOR, seed);
		if (!memcmp(want, (const char *)buf + o, PATTERN_SECTOR))
			continue;
		if (!bad++ && first_bad)
			*first_bad = off + o;
		if (last_bad)
			*last_bad = off + o;
	}
	return bad;
}
