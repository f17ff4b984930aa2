/* offsets.c - offset generators; see offsets.h. */
#include <errno.h>
#include <string.h>
#include "run/offsets.h"

static uint64_t
mix64(uint64_t x)
{
	/* splitmix64 finaliser: derives the per-pass keys from the seed */
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void
rand_rekey(struct offset_gen *g)
{
	uint64_t k = mix64(g->seed ^ mix64(g->pass + 1));
	g->k1 = (k | 1) & g->mask;		/* odd multiplier: a bijection mod 2^bits */
	g->k2 = mix64(k) & g->mask;
}

/* A bijection on [0, 2^bits): each step (xor-shift, add, odd multiply, all
 * mod 2^bits) is invertible, so the composition is a permutation. */
static uint64_t
permute(const struct offset_gen *g, uint64_t x)
{
	unsigned h = g->bits / 2 + 1;
	for (int r = 0; r < 3; r++) {
		x = (x ^ (x >> h)) & g->mask;
		x = (x + g->k2) & g->mask;
		x = (x * g->k1) & g->mask;
	}
	return x;
}

int
offsets_init(struct offset_gen *g, enum offset_pattern pat, uint64_t start, uint64_t end,
	     uint32_t bs, uint64_t first, uint64_t step, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	if (bs == 0)
		return -EINVAL;
	g->pat = pat;
	g->bs = bs;
	g->seed = seed;
	if (pat == OFS_STRIDE) {
		if (step == 0 || first < start || first + bs > end)
			return -EINVAL;
		g->start = start;
		g->end = end;
		g->first = first;
		g->step = step;
		g->nblocks = (end - bs - first) / step + 1;
		return 0;
	}
	/* The start is used as given (an alignment probe needs 512-byte
	 * offsets): blocks are start + k*bs, as many as fit before end. */
	if (end <= start || end - start < bs)
		return -EINVAL;
	g->start = start;
	g->nblocks = (end - start) / bs;
	g->end = start + g->nblocks * bs;
	if (pat == OFS_RAND) {
		g->bits = 1;
		while (g->bits < 64 && ((uint64_t)1 << g->bits) < g->nblocks)
			g->bits++;
		g->mask = g->bits >= 64 ? ~0ull : ((uint64_t)1 << g->bits) - 1;
		rand_rekey(g);
	}
	return 0;
}

uint64_t
offsets_next(struct offset_gen *g, bool *wrapped)
{
	bool w = false;
	if (g->i >= g->nblocks) {
		g->i = 0;
		g->pass++;
		w = true;
		if (g->pat == OFS_RAND)
			rand_rekey(g);
	}
	if (wrapped)
		*wrapped = w;
	uint64_t i = g->i++;
	switch (g->pat) {
	case OFS_SEQ:
		return g->start + i * g->bs;
	case OFS_STRIDE:
		return g->first + i * g->step;
	case OFS_RAND: {
		/* cycle-walk: the domain is < 2x nblocks, so ~2 rounds on average */
		uint64_t x = permute(g, i);
		while (x >= g->nblocks)
			x = permute(g, x);
		return g->start + x * g->bs;
	}
	}
	return g->start;
}

void
offsets_seek(struct offset_gen *g, uint64_t off)
{
	uint64_t base = g->pat == OFS_STRIDE ? g->first : g->start;
	uint64_t unit = g->pat == OFS_STRIDE ? g->step : g->bs;
	if (g->pat == OFS_RAND || !unit)
		return;
	uint64_t i = off <= base ? 0 : (off - base + unit - 1) / unit;
	g->i = i < g->nblocks ? i : g->nblocks;
}

int
offsets_parse_pattern(const char *s, enum offset_pattern *out)
{
	if (!strcmp(s, "seq") || !strcmp(s, "sequential"))
		*out = OFS_SEQ;
	else if (!strcmp(s, "rand") || !strcmp(s, "random"))
		*out = OFS_RAND;
	else if (!strcmp(s, "stride") || !strcmp(s, "strided"))
		*out = OFS_STRIDE;
	else
		return -EINVAL;
	return 0;
}

const char *
offsets_pattern_name(enum offset_pattern p)
{
	switch (p) {
	case OFS_SEQ: return "seq";
	case OFS_RAND: return "rand";
	case OFS_STRIDE: return "stride";
	}
	return "?";
}
