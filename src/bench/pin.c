/* pin.c - skip-ahead over unreadable zones and extents pinned by bisection
 * within a budget; see pin.h.  A read of [off, off+len) fails when any
 * sector in it is bad, so a range of at most one block is bisected exactly;
 * a longer one (a skipped gap) is bisected a block at a time first. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/pin.h"

const struct bench_param bp_pin_budget = {
	.name = "pin-budget", .kind = BP_DURATION, .bind = BIND_NONE, .arg = "DURATION",
	.help = "time per drive to pin unreadable extents (bisection, sampling); 0 no limit",
	.bad = "a duration 0 .. 7d", .min = 0, .max = 7 * 86400.0, .def = PIN_BUDGET_DEF,
};

/* ---- skip-ahead ---- */

void
pin_skip_init(struct pin_skip *k, uint64_t capacity)
{
	pin_skip_free(k);
	k->cap = capacity / PIN_SKIP_CAP_DIV;
}

void
pin_skip_free(struct pin_skip *k)
{
	free(k->gap);
	memset(k, 0, sizeof(*k));
}

bool
pin_skip_io(struct pin_skip *k, const struct io_done *d, uint64_t *a, uint64_t *b)
{
	if (d->write)
		return false;
	if (!d->res) {
		k->consec = 0;
		k->jump = 0;
		return false;
	}
	if (!k->cap || !d->next || !d->len || ++k->consec < PIN_SKIP_AFTER)
		return false;
	if (k->n_gap == k->cap_gap) {
		size_t nc = k->cap_gap ? k->cap_gap * 2 : 64;
		struct surface_extent *nv = realloc(k->gap, nc * sizeof(*nv));
		if (!nv)
			return false;	/* no room to remember the gap: read on, do not jump */
		k->gap = nv;
		k->cap_gap = nc;
	}
	uint64_t cap = k->cap / d->len * d->len;
	k->jump = k->jump ? 2 * k->jump : (uint64_t)PIN_SKIP_AFTER * d->len;
	if (k->jump > cap)
		k->jump = cap > d->len ? cap : d->len;
	*a = d->offset + d->len;
	*b = *a + k->jump;
	k->gap[k->n_gap++] = (struct surface_extent){ *a, *b, false, false };
	k->skipped += k->jump;
	*d->next = (struct io_next){ *b, 0, true };
	return true;
}

/* ---- pinning ---- */

enum { W_A, W_B, W_S, W_R };

static uint64_t
rdown(uint64_t v, uint64_t u)
{
	return v / u * u;
}

int
pin_init(struct pin *P, const struct surface_extent *x, size_t n, uint32_t bs, uint32_t lbs,
	 double budget_s, const struct pin_skip *k)
{
	memset(P, 0, sizeof(*P));
	P->bs = bs;
	P->lbs = lbs ? lbs : 512;
	P->budget_ns = budget_s > 0 ? (uint64_t)(budget_s * 1e9) : 0;
	P->s_run = SIZE_MAX;
	P->gap = k ? k->gap : NULL;
	P->n_gap = k ? k->n_gap : 0;
	P->run = calloc(PIN_MAX_RUNS, sizeof(*P->run));
	if (!P->run)
		return -ENOMEM;
	for (size_t i = 0; i < n && P->n < PIN_MAX_RUNS; i++) {
		uint64_t s = x[i].start, e = x[i].end, lastfail = e;
		if (e <= s)
			continue;
		/* a skipped gap at its tail: the last failed block is before it */
		for (size_t g = 0; g < P->n_gap; g++)
			if (P->gap[g].start > s && P->gap[g].start < e && P->gap[g].end >= e)
				lastfail = P->gap[g].start;
		struct pin_run *r = &P->run[P->n++];
		r->s0 = s;
		r->e0 = e;
		r->a_lo = s;
		r->a_hi = e - s < bs ? e : s + bs;
		r->b_lo = lastfail - s > bs ? lastfail - bs : s;
		r->b_hi = e;
	}
	return 0;
}

void
pin_free(struct pin *P)
{
	free(P->run);
	P->run = NULL;
	P->n = 0;
}

static bool
a_done(const struct pin *P, const struct pin_run *r)
{
	return r->a_none || (r->a_hi - r->a_lo <= P->lbs && r->a_seen);
}

static bool
b_done(const struct pin *P, const struct pin_run *r)
{
	return r->b_none || (r->b_hi - r->b_lo <= P->lbs && r->b_seen);
}

/* The probe for run r's first bad sector, in [a_lo, a_hi). */
static void
probe_a(struct pin *P, const struct pin_run *r)
{
	uint64_t len = r->a_hi - r->a_lo, lbs = P->lbs;
	if (len <= lbs) {			/* confirm the one sector left */
		P->p_off = r->a_lo;
		P->p_len = (uint32_t)lbs;
	} else if (len <= P->bs) {		/* [a_lo, mid): any bad in it? */
		P->p_off = r->a_lo;
		P->p_len = (uint32_t)rdown(len / 2, lbs);
	} else {				/* a block in the middle of a long range */
		P->p_off = r->a_lo + rdown((len - P->bs) / 2, lbs);
		P->p_len = P->bs;
	}
}

static void
apply_a(struct pin *P, struct pin_run *r, bool bad)
{
	uint64_t len = r->a_hi - r->a_lo;
	if (len <= P->lbs) {
		r->a_seen |= bad;
		r->a_none = !bad;
	} else if (len <= P->bs) {
		if (bad) {
			r->a_hi = P->p_off + P->p_len;
			r->a_seen = true;
		} else {
			r->a_lo = P->p_off + P->p_len;
		}
	} else if (bad) {
		r->a_hi = P->p_off + P->p_len;
		r->a_seen = true;
	} else {
		r->a_lo = P->p_off + P->p_len;	/* one run: good up to here */
	}
}

/* The probe for run r's last bad sector, in [b_lo, b_hi). */
static void
probe_b(struct pin *P, const struct pin_run *r)
{
	uint64_t len = r->b_hi - r->b_lo, lbs = P->lbs;
	if (len <= lbs) {
		P->p_off = r->b_lo;
		P->p_len = (uint32_t)lbs;
	} else if (len <= P->bs) {		/* [mid, b_hi): any bad in it? */
		P->p_off = r->b_lo + rdown(len / 2, lbs);
		P->p_len = (uint32_t)(r->b_hi - P->p_off);
	} else {
		uint64_t m = rdown((len - P->bs) / 2, lbs);
		P->p_off = r->b_lo + (m > lbs ? m : lbs);
		P->p_len = P->bs;
	}
}

static void
apply_b(struct pin *P, struct pin_run *r, bool bad)
{
	uint64_t len = r->b_hi - r->b_lo;
	if (len <= P->lbs) {
		r->b_seen |= bad;
		r->b_none = !bad;
	} else if (bad) {
		r->b_lo = P->p_off;
		r->b_seen = true;
	} else {
		r->b_hi = P->p_off;	/* within a block: proven; across a gap: one run assumed */
	}
}

static int
smp_cmp(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The sectors to sample inside run i (between its exact edges): evenly
 * spread, and the middle of each skipped gap inside it (the return pass). */
static void
plan_samples(struct pin *P, size_t i)
{
	struct pin_run *r = &P->run[i];
	uint64_t lbs = P->lbs, first = r->a_lo, last = r->b_lo;
	P->n_smp = P->i_smp = 0;
	P->s_run = i;
	r->sampled = true;
	if (r->a_none || r->b_none || last <= first + lbs)
		return;
	uint64_t n_int = (last - first) / lbs - 1, k = n_int < PIN_SAMPLES ? n_int : PIN_SAMPLES;
	uint64_t pos[PIN_MAX_SAMPLES];
	size_t n = 0;
	for (uint64_t j = 0; j < k; j++)
		pos[n++] = first + lbs * (1 + (2 * j + 1) * n_int / (2 * k));
	for (size_t g = 0; g < P->n_gap && n < PIN_MAX_SAMPLES; g++) {
		uint64_t m = rdown(P->gap[g].start + (P->gap[g].end - P->gap[g].start) / 2, lbs);
		if (m > first && m < last)
			pos[n++] = m;
	}
	qsort(pos, n, sizeof(*pos), smp_cmp);
	for (size_t j = 0; j < n; j++)
		if (!P->n_smp || P->smp[P->n_smp - 1].off != pos[j])
			P->smp[P->n_smp++].off = pos[j];
}

/* A new run after run at (its first bad in [a_lo, a_hi)), NULL when full. */
static struct pin_run *
run_insert(struct pin *P, size_t at, uint64_t a_lo, uint64_t a_hi)
{
	if (P->n >= PIN_MAX_RUNS)
		return NULL;
	memmove(&P->run[at + 2], &P->run[at + 1], (P->n - at - 1) * sizeof(*P->run));
	P->n++;
	struct pin_run *r = &P->run[at + 1];
	memset(r, 0, sizeof(*r));
	r->a_lo = a_lo;
	r->a_hi = a_hi;
	r->a_seen = true;
	r->sampled = true;	/* one round of samples per extent: bounded */
	r->s0 = a_lo;
	return r;
}

/* The samples of run i read: a sample that read splits the run there; the
 * new edges (between a bad and a good point) are bisected next. */
static void
samples_done(struct pin *P, size_t i)
{
	struct pin_run *r = &P->run[i];
	uint64_t lbs = P->lbs, b_lo = r->b_lo, b_hi = r->b_hi, e0 = r->e0;
	bool b_seen = r->b_seen, prev_bad = true;
	uint64_t prev = r->a_lo;
	size_t cur = i;
	for (size_t j = 0; j < P->n_smp; j++) {
		uint64_t s = P->smp[j].off;
		if (P->smp[j].bad) {
			if (!prev_bad) {
				struct pin_run *nr = run_insert(P, cur, prev + lbs, s + lbs);
				if (!nr)
					break;	/* no room: the rest of the run stays as it is */
				cur++;
			}
			P->run[cur].smp++;
			P->run[cur].smp_bad++;
		} else {
			P->smp_good++;
			if (prev_bad) {	/* its last bad sector is in [prev, s) */
				P->run[cur].b_lo = prev;
				P->run[cur].b_hi = s;
				P->run[cur].b_seen = true;
				P->run[cur].e0 = s;
			}
		}
		prev = s;
		prev_bad = P->smp[j].bad;
	}
	if (!prev_bad) {	/* after the last good sample: the run's own last edge */
		struct pin_run *nr = run_insert(P, cur, prev + lbs, b_lo + lbs);
		if (nr)
			cur++;
	}
	struct pin_run *t = &P->run[cur];
	if (cur != i || !prev_bad) {
		t->b_lo = b_lo;
		t->b_hi = b_hi;
		t->b_seen = b_seen;
		t->e0 = e0;
	}
	P->s_run = SIZE_MAX;
}

/* Last, the return pass: the part of each skipped gap past the extent's
 * pinned end was jumped over unread; read it block by block (readable: fast)
 * so the scan's map covers it. */
static bool
return_pass(struct pin *P)
{
	for (; P->r_gap < P->n_gap; P->r_gap++, P->r_off = 0) {
		const struct surface_extent *g = &P->gap[P->r_gap];
		if (!P->r_off) {
			uint64_t tail = g->start;
			for (size_t i = 0; i < P->n; i++) {
				const struct pin_run *r = &P->run[i];
				if (r->a_lo < g->end && r->b_hi > g->start && r->b_hi > tail)
					tail = r->b_none ? r->e0 : r->b_hi;
			}
			P->r_off = g->start + (tail - g->start + P->bs - 1) / P->bs * P->bs;
		}
		if (P->r_off + P->bs <= g->end && (!P->r_end || P->r_off + P->bs <= P->r_end)) {
			P->what = W_R;
			P->p_off = P->r_off;
			P->p_len = P->bs;
			P->r_off += P->bs;
			return true;
		}
	}
	return false;
}

/* The next probe into P->p_off/p_len; false when nothing is left. */
static bool
pick(struct pin *P)
{
	for (;;) {
		for (size_t i = 0; i < P->n; i++)
			if (!a_done(P, &P->run[i])) {
				P->what = W_A;
				P->cur = i;
				probe_a(P, &P->run[i]);
				return true;
			}
		for (size_t i = 0; i < P->n; i++)
			if (!b_done(P, &P->run[i])) {
				P->what = W_B;
				P->cur = i;
				probe_b(P, &P->run[i]);
				return true;
			}
		if (P->s_run != SIZE_MAX) {
			if (P->i_smp < P->n_smp) {
				P->what = W_S;
				P->p_off = P->smp[P->i_smp].off;
				P->p_len = P->lbs;
				return true;
			}
			samples_done(P, P->s_run);
			continue;	/* new edges first */
		}
		size_t i = 0;
		while (i < P->n && P->run[i].sampled)
			i++;
		if (i == P->n)
			return return_pass(P);
		plan_samples(P, i);
	}
}

bool
pin_first(struct pin *P, struct io_next *first)
{
	if (!P->run || !pick(P)) {
		P->done = true;
		return false;
	}
	P->started = true;
	*first = (struct io_next){ P->p_off, P->p_len, true };
	return true;
}

bool
pin_on_io(struct pin *P, const struct io_done *d)
{
	if (P->done || !P->started)
		return false;
	bool bad = d->res != 0, ret = false;
	P->reads++;
	P->failed += bad;
	P->used_ns = d->t_ns;
	if (d->offset == P->p_off && d->len == P->p_len) {
		if (P->what == W_A)
			apply_a(P, &P->run[P->cur], bad);
		else if (P->what == W_B)
			apply_b(P, &P->run[P->cur], bad);
		else if (P->what == W_S)
			P->smp[P->i_smp++].bad = bad;
		else
			ret = true;
	}
	if (P->budget_ns && d->t_ns >= P->budget_ns) {
		P->out_of_budget = true;
		P->done = true;
	} else if (!pick(P)) {
		P->done = true;
	}
	if (d->next)
		*d->next = P->done ? (struct io_next){ IO_NEXT_END, 0, true }
				   : (struct io_next){ P->p_off, P->p_len, true };
	return ret;
}

uint64_t
pin_outside(const struct pin *P, uint64_t off, uint64_t lo, uint64_t hi, uint32_t len)
{
	for (size_t tries = 0; P->run && tries <= P->n; tries++) {
		size_t i = 0;
		while (i < P->n && !(off < P->run[i].e0 && off + len > P->run[i].s0))
			i++;
		if (i == P->n)
			return off;
		off = lo + (P->run[i].e0 - lo + len - 1) / len * len;
		if (off + len > hi)
			off = lo;
	}
	return off;
}

size_t
pin_results(const struct pin *P, struct pin_out *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < P->n && n < max; i++) {
		const struct pin_run *r = &P->run[i];
		struct pin_out *o = &out[n];
		bool ea = r->a_hi - r->a_lo <= P->lbs && r->a_seen, eb = r->b_hi - r->b_lo <= P->lbs && r->b_seen;
		o->pinned = P->reads > 0;
		o->recovered = r->a_none && r->b_none && !r->smp_bad;
		o->start = o->recovered || r->a_none ? r->s0 : r->a_lo;
		o->end = o->recovered || r->b_none ? r->e0 : r->b_hi;
		if (o->end <= o->start)
			continue;
		o->exact = ea && eb;
		uint64_t ra = r->a_hi - r->a_lo, rb = r->b_hi - r->b_lo;
		o->res = r->a_none || r->b_none ? P->bs : ra > rb ? ra : rb;
		o->smp = r->smp;
		o->smp_bad = r->smp_bad;
		n++;
	}
	return n;
}

void
pin_describe(const struct pin *P, const struct pin_out *o, unsigned lbs, char *buf, size_t n)
{
	unsigned long long a = o->start / lbs, b = (o->end - 1) / lbs;
	int w;
	if (!o->pinned)
		w = snprintf(buf, n, "unreadable: LBA %llu-%llu (%.3f GB), block resolution (not pinned)", a, b,
			     (double)o->start / 1e9);
	else if (o->recovered)
		w = snprintf(buf, n, "LBA %llu-%llu (%.3f GB) failed in the scan, read when pinned", a, b,
			     (double)o->start / 1e9);
	else if (o->exact)
		w = snprintf(buf, n, "unreadable: LBA %llu-%llu (%.3f GB), %llu sectors, edges pinned to the sector "
			     "by bisection", a, b, (double)o->start / 1e9, b - a + 1);
	else
		w = snprintf(buf, n, "unreadable: LBA %llu-%llu (%.3f GB), edges known to within %llu sectors%s", a,
			     b, (double)o->start / 1e9, (unsigned long long)(o->res / lbs),
			     P->out_of_budget ? " (the pin budget ran out)" : "");
	if (o->pinned && !o->recovered && o->smp && w > 0 && (size_t)w < n)
		snprintf(buf + w, n - (size_t)w, "; inside: %u of %u sampled sectors unreadable", o->smp_bad, o->smp);
}

void
pin_summary(const struct pin *P, char *buf, size_t n)
{
	char bud[48];
	if (P->budget_ns)
		snprintf(bud, sizeof(bud), "of a %.0f s budget", (double)P->budget_ns / 1e9);
	else
		snprintf(bud, sizeof(bud), "(no budget)");
	snprintf(buf, n, "pinning: %llu reads (%llu failed) in %.1f s %s%s%s", (unsigned long long)P->reads,
		 (unsigned long long)P->failed, (double)P->used_ns / 1e9, bud,
		 P->out_of_budget ? ", ran out: the extents left are at the resolution reached" : "",
		 P->smp_good ? ", samples inside read: extents split" : "");
}
