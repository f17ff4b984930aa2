/* surface.c - the surface scan (read-only).  One sequential pass over the
 * region at qd 1 in fixed blocks (1 MiB by default: WHDD's 256 sectors are
 * 128 KiB, but 1 MiB keeps pace with dd bs=1M and still maps a 2 TB drive in
 * 2 million blocks), each block's time kept.  Quick mode reads N blocks at
 * evenly spaced positions instead.  Then, per target, steps appended by
 * on_step so each is measured and visible: the access time (100 random 4 KiB
 * reads, mean latency), the burst rate (one small block read 32 times: the
 * drive answers from its buffer; the cold first read left out), every failed
 * block range re-read sector by sector to pin its first and last LBA, and
 * every slow range re-read five times, and as many blocks beside it, to
 * confirm it is not noise of a busy machine (the fastest pass must still be
 * slow against the fastest beside it). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "bench/surface.h"

enum { PH_SCAN, PH_ACCESS, PH_BURST, PH_REREAD, PH_CONFIRM, PH_NONE };

#define SLOT_CAP (1u << 21)	/* curve slots kept per target; coarser past that */
#define MAX_STEPS 1024		/* steps the run may have (phase table) */
#define MAX_EXT 256		/* failed block ranges kept per target */
#define MAX_REREAD 64		/* re-read steps per target */
#define REREAD_WHOLE 64		/* a failed range up to this many blocks is re-read whole */
#define MAX_SLOW 16
#define CONFIRM_MAX_BLOCKS 32	/* a slow zone is slow throughout: its start will do */
#define CONFIRM_PASSES 5		/* re-reads of a slow range; its fastest counts */
#define ACCESS_READS 100
#define BURST_READS 32
#define SCAN_ERR_LIMIT (1u << 20)	/* failed blocks in a row before the worker gives up */
#define MAP_CELLS 100

static const double bucket_ms[] = { 3, 10, 50, 150, 500 };
static const char *const bucket_name[] = { "<3 ms", "<10 ms", "<50 ms", "<150 ms", "<500 ms",
					   ">=500 ms", "error" };
#define N_BUCKETS 7

struct slot {
	uint32_t sum_us, max_us, n;	/* time of the good reads, the slowest, how many */
};

struct fail_list {
	struct surface_extent *v;
	size_t n, cap;
};

/* Per target, written by on_io in its worker (read by on_step between steps). */
struct surf_io {
	int phase;
	uint32_t bs;			/* the scan's block size */
	uint64_t unit, lo;		/* bytes per slot; the first slot (offset / unit) */
	struct slot *slot;
	size_t n_slot, cap_slot;
	uint64_t bucket[N_BUCKETS];
	uint64_t min_off, max_end;
	bool any, oom;
	struct fail_list scan_fail, sect_fail;
	uint64_t ph_n, ph_bytes, ph_lat_ns;	/* the current follow-up step */
	uint64_t ph_last_off;		/* a confirm step: where its pass is */
	double ph_best;			/* ... and its fastest pass, MB/s */
};

struct surf_tgt {
	bool scanned, quick;
	uint64_t rs, re;		/* the scanned region, bytes */
	unsigned lbs;			/* logical sector */
	double access_ms, burst_mbps;
	struct surface_slow slow[MAX_SLOW];
	size_t n_slow, slow_found;
	struct surface_extent ext[MAX_EXT];	/* failed block ranges */
	bool whole[MAX_EXT], reread[MAX_EXT];
	size_t n_ext, ext_found;
};

struct surf_state {
	size_t done;			/* steps finished */
	unsigned char phase[MAX_STEPS];
	short arg[MAX_STEPS];
	struct surf_tgt t[PLAN_MAX_TARGETS];
};

/* ---- per I/O ---- */

static void
fail_add(struct surf_io *s, struct fail_list *f, uint64_t a, uint64_t b, bool exact)
{
	if (f->n && a <= f->v[f->n - 1].end && b >= f->v[f->n - 1].start) {
		struct surface_extent *l = &f->v[f->n - 1];	/* sequential: extends the last one */
		l->start = a < l->start ? a : l->start;
		l->end = b > l->end ? b : l->end;
		return;
	}
	if (f->n == f->cap) {
		size_t nc = f->cap ? f->cap * 2 : 64;
		struct surface_extent *nv = realloc(f->v, nc * sizeof(*nv));
		if (!nv) {
			s->oom = true;
			return;
		}
		f->v = nv;
		f->cap = nc;
	}
	f->v[f->n++] = (struct surface_extent){ a, b, exact, false };
}

static void
slot_merge(struct slot *d, const struct slot *v)
{
	d->sum_us = d->sum_us > UINT32_MAX - v->sum_us ? UINT32_MAX : d->sum_us + v->sum_us;
	d->max_us = v->max_us > d->max_us ? v->max_us : d->max_us;
	d->n += v->n;
}

/* Halve the resolution: two slots become one. */
static void
slot_coarsen(struct surf_io *s)
{
	size_t nn = 0;
	for (size_t i = 0; i < s->n_slot; i++) {
		struct slot v = s->slot[i];
		size_t d = (size_t)((s->lo + i) / 2 - s->lo / 2);
		if (d >= nn) {
			s->slot[d] = v;
			nn = d + 1;
		} else {
			slot_merge(&s->slot[d], &v);
		}
	}
	memset(s->slot + nn, 0, (s->n_slot - nn) * sizeof(*s->slot));
	s->lo /= 2;
	s->unit *= 2;
	s->n_slot = nn;
}

/* The slot of byte offset off, growing (or coarsening) the array; NULL on ENOMEM. */
static struct slot *
slot_at(struct surf_io *s, uint64_t off)
{
	for (;;) {
		uint64_t idx = off / s->unit;
		if (!s->n_slot) {
			s->lo = idx;
		}
		uint64_t lo = idx < s->lo ? idx : s->lo;
		uint64_t hi = idx + 1 > s->lo + s->n_slot ? idx + 1 : s->lo + s->n_slot;
		if (hi - lo > SLOT_CAP) {
			slot_coarsen(s);
			continue;
		}
		if (hi - lo > s->cap_slot) {
			size_t nc = s->cap_slot ? s->cap_slot * 2 : 4096;
			while (nc < hi - lo)
				nc *= 2;
			struct slot *nv = realloc(s->slot, nc * sizeof(*nv));
			if (!nv)
				return NULL;
			memset(nv + s->cap_slot, 0, (nc - s->cap_slot) * sizeof(*nv));
			s->slot = nv;
			s->cap_slot = nc;
		}
		if (lo < s->lo) {	/* an earlier block completed later (qd > 1) */
			size_t sh = (size_t)(s->lo - lo);
			memmove(s->slot + sh, s->slot, s->n_slot * sizeof(*s->slot));
			memset(s->slot, 0, sh * sizeof(*s->slot));
			s->lo = lo;
		}
		s->n_slot = (size_t)(hi - lo);
		return &s->slot[idx - s->lo];
	}
}

static void
scan_io(struct surf_io *s, const struct io_done *d)
{
	if (!s->any) {
		s->any = true;
		s->bs = d->len;
		s->unit = d->len;
		s->min_off = d->offset;
	}
	if (d->offset < s->min_off)
		s->min_off = d->offset;
	if (d->offset + d->len > s->max_end)
		s->max_end = d->offset + d->len;
	if (d->res) {
		s->bucket[N_BUCKETS - 1]++;
		fail_add(s, &s->scan_fail, d->offset, d->offset + d->len, false);
		return;
	}
	double ms = (double)d->lat_ns / 1e6;
	size_t b = 0;
	while (b < ARRAY_SIZE(bucket_ms) && ms >= bucket_ms[b])
		b++;
	s->bucket[b]++;
	struct slot *x = slot_at(s, d->offset);
	if (!x) {
		s->oom = true;
		return;
	}
	uint64_t us = (d->lat_ns + 999) / 1000;
	uint32_t u = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
	slot_merge(x, &(struct slot){ u, u, 1 });
}

static void
pass_end(struct surf_io *s)
{
	if (s->ph_lat_ns) {
		double r = (double)s->ph_bytes / ((double)s->ph_lat_ns / 1e9) / 1e6;
		s->ph_best = r > s->ph_best ? r : s->ph_best;
	}
	s->ph_bytes = s->ph_lat_ns = 0;
}

static void
surface_on_io(void *state, const struct io_done *d)
{
	struct surf_io *s = state;
	switch (s->phase) {
	case PH_SCAN:
		scan_io(s, d);
		break;
	case PH_REREAD:
		if (d->res)
			fail_add(s, &s->sect_fail, d->offset, d->offset + d->len, true);
		break;
	case PH_CONFIRM:
		/* passes over the range: the fastest counts (noise is
		 * transient, a slow zone is not); the first read of each pass
		 * pays a seek back and is left out */
		if (d->offset <= s->ph_last_off || !s->ph_n) {
			pass_end(s);
			s->ph_last_off = d->offset;
			s->ph_n++;
			break;
		}
		s->ph_last_off = d->offset;
		if (!d->res) {
			s->ph_bytes += d->len;
			s->ph_lat_ns += d->lat_ns;
		}
		break;
	case PH_ACCESS:
	case PH_BURST:
		/* the first read of a burst or a re-read pays a seek: left out */
		if (d->res || (s->ph_n++ == 0 && s->phase != PH_ACCESS))
			break;
		s->ph_bytes += d->len;
		s->ph_lat_ns += d->lat_ns;
		break;
	}
}

/* ---- plan ---- */

static const char *const modes[] = { "full", "quick", NULL };
static const struct bench_param bp_mode = {
	.name = "mode", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "full|quick",
	.help = "full: every block; quick: --samples blocks evenly spaced",
	.bad = "one of full, quick", .choices = modes, .def = 0,
};
static const struct bench_param bp_samples = {
	.name = "samples", .kind = BP_COUNT, .bind = BIND_NONE, .arg = "N",
	.help = "quick mode: positions read, 16 .. 100000", .bad = "a count 16 .. 100000",
	.min = 16, .max = 100000, .def = 1000,
};

static int
surface_plan(struct plan *p, char *err, size_t errlen)
{
	if (!p->targets.n) {
		snprintf(err, errlen, "surface: no target given");
		return -EINVAL;
	}
	if (p->targets.n > PLAN_MAX_TARGETS) {
		snprintf(err, errlen, "surface: too many targets (%zu, at most %d)", p->targets.n, PLAN_MAX_TARGETS);
		return -E2BIG;
	}
	struct run_params rp = p->params;
	rp.seconds = 0;
	rp.size = 0;
	rp.ramp_s = 0;
	rp.rw_mix = 100;
	if (strcmp(plan_param_str(p, "mode"), "quick")) {
		snprintf(rp.pattern, sizeof(rp.pattern), "seq");
		struct plan_step *st;
		int rc = plan_add_step_params(p, NULL, (unsigned)p->targets.n, &rp, "scan", &st);
		if (!rc)
			st->max_consec_errors = SCAN_ERR_LIMIT;
		return rc;
	}
	/* quick: one block first, to learn where the region lies (its size
	 * is only known once the target is open); on_step then plans the
	 * stride over it */
	snprintf(rp.pattern, sizeof(rp.pattern), "seq");
	rp.size = rp.bs;
	return plan_add_step_params(p, NULL, (unsigned)p->targets.n, &rp, "locate", NULL);
}

/* ---- after each step ---- */

static struct surf_io *
io_of(struct bench_ctx *c, unsigned t)
{
	return (struct surf_io *)c->io_state + t;
}

static double
rate(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / ((double)ns / 1e9) / 1e6 : NAN;
}

/* A step over [a, b) bytes of target t at qd 1 (the scan's qd when a scan). */
static int
add_step_stride(struct bench_ctx *c, unsigned t, const struct surf_tgt *T, uint64_t a, uint64_t b,
		uint32_t bs, const char *pattern, uint64_t size, uint64_t stride, int phase, int arg,
		const char *label)
{
	struct surf_state *S = c->state;
	struct plan *p = c->plan;
	if (p->n_steps >= MAX_STEPS)
		return -E2BIG;
	struct run_params rp = p->params;
	rp.seconds = 0;
	rp.ramp_s = 0;
	rp.size = size;
	rp.bs = bs;
	rp.qd = phase == PH_SCAN ? p->params.qd : 1;
	rp.rw_mix = 100;
	rp.stride = stride;
	snprintf(rp.pattern, sizeof(rp.pattern), "%s", pattern);
	rp.region_lba = true;
	rp.region_lba_start = a / T->lbs;
	rp.region_lba_end = (b + T->lbs - 1) / T->lbs;
	struct plan_step *st;
	int rc = plan_add_step_params(p, &t, 1, &rp, label, &st);
	if (rc)
		return rc;
	st->max_consec_errors = phase == PH_SCAN ? SCAN_ERR_LIMIT : UINT32_MAX;
	S->phase[p->n_steps - 1] = (unsigned char)phase;
	S->arg[p->n_steps - 1] = (short)arg;
	return 0;
}

static int
add_step(struct bench_ctx *c, unsigned t, const struct surf_tgt *T, uint64_t a, uint64_t b,
	 uint32_t bs, const char *pattern, uint64_t size, int phase, int arg, const char *label)
{
	return add_step_stride(c, t, T, a, b, bs, pattern, size, 0, phase, arg, label);
}

/* The scan's points (non-empty slots), sorted; caller frees.  *n gets the count. */
static struct surface_point *
scan_points(const struct surf_io *io, size_t *n)
{
	struct surface_point *pt = malloc((io->n_slot ? io->n_slot : 1) * sizeof(*pt));
	*n = 0;
	for (size_t i = 0; pt && i < io->n_slot; i++) {
		const struct slot *x = &io->slot[i];
		if (x->n)
			pt[(*n)++] = (struct surface_point){ (io->lo + i) * io->unit, io->unit,
							     (uint64_t)x->n * io->bs, (uint64_t)x->sum_us * 1000 };
	}
	return pt;
}

static void
after_scan(struct bench_ctx *c, unsigned t, const struct plan_step *st, const struct target_result *tr)
{
	struct surf_state *S = c->state;
	struct surf_tgt *T = &S->t[t];
	struct surf_io *io = io_of(c, t);
	const struct target_ident *id = &c->plan->ident[t];
	T->scanned = true;
	T->quick = !strcmp(st->rp.pattern, "stride");
	T->lbs = id->logical.known && id->logical.v ? (unsigned)id->logical.v : 512;
	T->access_ms = T->burst_mbps = NAN;
	if (tr->by_pos.n) {
		T->rs = tr->by_pos.start;
		T->re = tr->by_pos.end;
	} else {
		T->rs = io->min_off;
		T->re = T->quick ? io->min_off + st->rp.size / io->bs * st->rp.stride : io->max_end;
	}
	if (!io->any)
		return;
	size_t np;
	struct surface_point *pt = scan_points(io, &np);
	if (pt)
		T->slow_found = surface_find_slow(pt, np, T->slow, MAX_SLOW);
	free(pt);
	T->n_slow = T->slow_found < MAX_SLOW ? T->slow_found : MAX_SLOW;
	T->ext_found = surface_merge(io->scan_fail.v, io->scan_fail.n);
	T->n_ext = T->ext_found < MAX_EXT ? T->ext_found : MAX_EXT;
	memcpy(T->ext, io->scan_fail.v, T->n_ext * sizeof(*T->ext));

	char lab[48];
	add_step(c, t, T, T->rs, T->re, T->lbs > 4096 ? T->lbs : 4096, "rand",
		 (uint64_t)ACCESS_READS * (T->lbs > 4096 ? T->lbs : 4096), PH_ACCESS, 0, "access time");
	uint32_t bb = io->bs < 65536 ? io->bs : 65536;
	add_step(c, t, T, T->rs, T->rs + bb, bb, "seq", (uint64_t)BURST_READS * bb, PH_BURST, 0, "burst");
	size_t nre = 0;
	for (size_t i = 0; i < T->n_ext; i++) {
		struct surface_extent *x = &T->ext[i];
		T->whole[i] = x->end - x->start <= (uint64_t)REREAD_WHOLE * io->bs;
		if (nre + (T->whole[i] ? 1 : 2) > MAX_REREAD)
			break;
		snprintf(lab, sizeof(lab), "re-read LBA %llu", (unsigned long long)(x->start / T->lbs));
		if (T->whole[i]) {
			add_step(c, t, T, x->start, x->end, T->lbs, "seq", 0, PH_REREAD, (int)i, lab);
		} else {	/* its first and last block: the interior stays at block resolution */
			add_step(c, t, T, x->start, x->start + io->bs, T->lbs, "seq", 0, PH_REREAD, (int)i, lab);
			add_step(c, t, T, x->end - io->bs, x->end, T->lbs, "seq", 0, PH_REREAD, (int)i, lab);
		}
		nre += T->whole[i] ? 1 : 2;
		T->reread[i] = true;
	}
	for (size_t i = 0; i < T->n_slow; i++) {
		struct surface_slow *w = &T->slow[i];
		uint64_t e = w->end - w->start > (uint64_t)CONFIRM_MAX_BLOCKS * io->bs ?
			w->start + (uint64_t)CONFIRM_MAX_BLOCKS * io->bs : w->end;
		/* quick mode: re-read the first sampled blocks of the range, not the gaps */
		if (T->quick)
			e = w->start + 4ull * io->bs < T->re ? w->start + 4ull * io->bs : T->re;
		snprintf(lab, sizeof(lab), "confirm slow at %.1f GB", (double)w->start / 1e9);
		add_step(c, t, T, w->start, e, io->bs, "seq", CONFIRM_PASSES * (e - w->start), PH_CONFIRM,
			 (int)(2 * i), lab);
		/* the control: as many blocks just before it (or after), read the
		 * same way now, so a slow machine or a qd other than 1 in the scan
		 * cannot make the range look slow */
		uint64_t len = e - w->start, a = 0;
		if (w->start - T->rs >= len)
			a = w->start - len;
		else if (T->re - w->end >= len)
			a = w->end;
		else
			continue;
		snprintf(lab, sizeof(lab), "beside slow at %.1f GB", (double)a / 1e9);
		add_step(c, t, T, a, a + len, io->bs, "seq", CONFIRM_PASSES * len, PH_CONFIRM, (int)(2 * i + 1), lab);
	}
}

/* Quick mode: the region is known; the stride over it (N blocks). */
static void
locate(struct bench_ctx *c, unsigned t, const struct target_result *tr)
{
	struct surf_state *S = c->state;
	struct surf_tgt *T = &S->t[t];
	struct surf_io *io = io_of(c, t);
	const struct target_ident *id = &c->plan->ident[t];
	uint32_t bs = io->bs;
	free(io->slot);
	free(io->scan_fail.v);
	memset(io, 0, sizeof(*io));	/* the block read here is not a sample */
	T->lbs = id->logical.known && id->logical.v ? (unsigned)id->logical.v : 512;
	if (!tr->by_pos.n || !bs)
		return;
	uint64_t n = (uint64_t)plan_param_num(c->plan, "samples");
	uint64_t step = (tr->by_pos.end - tr->by_pos.start) / n / bs * bs;
	if (step < bs)	/* a region too small for N spaced blocks: all of it */
		add_step_stride(c, t, T, tr->by_pos.start, tr->by_pos.end, bs, "seq", 0, 0, PH_SCAN, 0,
				"quick scan");
	else
		add_step_stride(c, t, T, tr->by_pos.start, tr->by_pos.end, bs, "stride", n * bs, step,
				PH_SCAN, 0, "quick scan");
}

static void
surface_on_step(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr)
{
	struct surf_state *S = c->state;
	size_t i = S->done++;
	int ph = i < MAX_STEPS ? S->phase[i] : PH_NONE;
	for (unsigned k = 0; k < st->n && k < sr->n_res; k++) {
		unsigned t = st->idx[k];
		struct surf_tgt *T = &S->t[t];
		struct surf_io *io = io_of(c, t);
		if (i == 0 && !strcmp(st->label, "locate"))
			locate(c, t, &sr->res[k]);
		else if (ph == PH_SCAN)
			after_scan(c, t, st, &sr->res[k]);
		else if (ph == PH_ACCESS)
			T->access_ms = io->ph_n ? (double)io->ph_lat_ns / (double)io->ph_n / 1e6 : NAN;
		else if (ph == PH_BURST)
			T->burst_mbps = rate(io->ph_bytes, io->ph_lat_ns);
		else if (ph == PH_CONFIRM && S->arg[i] >= 0 && (size_t)S->arg[i] / 2 < T->n_slow) {
			pass_end(io);
			struct surface_slow *w = &T->slow[S->arg[i] / 2];
			*(S->arg[i] % 2 ? &w->control_mbps : &w->confirm_mbps) = io->ph_best > 0 ? io->ph_best : NAN;
		}
	}
	/* what the next step measures, for its targets' hooks */
	if (S->done < c->plan->n_steps && S->done < MAX_STEPS) {
		const struct plan_step *nx = &c->plan->steps[S->done];
		for (unsigned k = 0; k < nx->n; k++) {
			struct surf_io *io = io_of(c, nx->idx[k]);
			io->phase = S->phase[S->done];
			io->ph_n = io->ph_bytes = io->ph_lat_ns = io->ph_last_off = 0;
			io->ph_best = 0;
		}
	}
}

/* ---- the end: tables and verdicts ---- */

#define CONFIRM_FRACTION 0.7	/* a re-read must stay below this share of the one beside it */

/* The extents as the re-reads pinned them: a range re-read whole becomes its
 * failed sectors' runs; a long one, its first to its last failed sector; a
 * range that read on the re-read is "recovered". */
static size_t
final_extents(const struct surf_tgt *T, struct surf_io *io, struct surface_extent *out, size_t max)
{
	size_t ns = surface_merge(io->sect_fail.v, io->sect_fail.n), n = 0;
	io->sect_fail.n = ns;
	for (size_t i = 0; i < T->n_ext && n < max; i++) {
		const struct surface_extent *x = &T->ext[i];
		if (!T->reread[i]) {
			out[n++] = (struct surface_extent){ x->start, x->end, false, false };
			continue;
		}
		size_t before = n;
		uint64_t first = UINT64_MAX, last = 0;
		for (size_t j = 0; j < ns && n < max; j++) {
			const struct surface_extent *y = &io->sect_fail.v[j];
			if (y->end <= x->start || y->start >= x->end)
				continue;
			if (T->whole[i])
				out[n++] = (struct surface_extent){ y->start, y->end, true, false };
			first = y->start < first ? y->start : first;
			last = y->end > last ? y->end : last;
		}
		if (!T->whole[i] && first < last)
			out[n++] = (struct surface_extent){ first, last, false, false };
		if (n == before)
			out[n++] = (struct surface_extent){ x->start, x->end, false, true };
	}
	return n;
}

static const struct result_col surf_cols[] = {
	{ "target", "target", COL_STR, "", 0 },
	{ "mode", "mode", COL_STR, "", 0 },
	{ "scanned", "scanned", COL_BYTES, "", 0 },
	{ "min_mbps", "min", COL_DBL, "MB/s", 1 },
	{ "avg_mbps", "avg", COL_DBL, "MB/s", 1 },
	{ "max_mbps", "max", COL_DBL, "MB/s", 1 },
	{ "access_ms", "access", COL_DBL, "ms", 3 },
	{ "burst_mbps", "burst", COL_DBL, "MB/s", 1 },
};
static const struct result_col bucket_cols[] = {
	{ "target", "target", COL_STR, "", 0 },
	{ "time", "block time", COL_STR, "", 0 },
	{ "blocks", "blocks", COL_INT, "", 0 },
	{ "share_pct", "share", COL_DBL, "%", 3 },
};
static const struct result_col ext_cols[] = {
	{ "target", "target", COL_STR, "", 0 },
	{ "first_lba", "first LBA", COL_LBA, "", 0 },
	{ "last_lba", "last LBA", COL_LBA, "", 0 },
	{ "sectors", "sectors", COL_INT, "", 0 },
	{ "at_gb", "at", COL_DBL, "GB", 1 },
	{ "resolution", "pinned", COL_STR, "", 0 },
};
static const struct result_col slow_cols[] = {
	{ "target", "target", COL_STR, "", 0 },
	{ "first_lba", "first LBA", COL_LBA, "", 0 },
	{ "last_lba", "last LBA", COL_LBA, "", 0 },
	{ "at_gb", "at", COL_DBL, "GB", 1 },
	{ "mbps", "rate", COL_DBL, "MB/s", 1 },
	{ "trend_mbps", "around it", COL_DBL, "MB/s", 1 },
	{ "reread_mbps", "re-read", COL_DBL, "MB/s", 1 },
	{ "beside_mbps", "beside", COL_DBL, "MB/s", 1 },
	{ "status", "status", COL_STR, "", 0 },
};
static const struct result_col map_cols[] = {
	{ "target", "target", COL_STR, "", 0 },
	{ "from_pct", "from", COL_DBL, "%", 0 },
	{ "first_lba", "first LBA", COL_LBA, "", 0 },
	{ "at_gb", "at", COL_DBL, "GB", 1 },
	{ "mbps", "rate", COL_DBL, "MB/s", 1 },
	{ "max_ms", "slowest", COL_DBL, "ms", 1 },
	{ "failed_blocks", "failed", COL_INT, "", 0 },
	{ "worst", "worst", COL_STR, "", 0 },
};

struct cell {
	uint64_t bytes, lat_us, max_us, failed;
};

static bool
slow_confirmed(const struct surface_slow *w)
{
	double ref = isfinite(w->control_mbps) ? w->control_mbps : w->trend_mbps;
	return surface_is_slow(w->confirm_mbps, ref, CONFIRM_FRACTION);
}

static void
range_text(char *b, size_t n, const struct surf_tgt *T, uint64_t s, uint64_t e)
{
	double gb = (double)s / 1e9;	/* three figures at least: 0.021 GB, 2.15 GB, 153.6 GB */
	snprintf(b, n, "LBA %llu-%llu (%.*f GB)", (unsigned long long)(s / T->lbs),
		 (unsigned long long)((e + T->lbs - 1) / T->lbs - 1), gb >= 100 ? 1 : gb >= 1 ? 2 : 3, gb);
}

/* Append "a, b, c" to buf while it fits; "and N more" otherwise. */
static void
list_add(char *buf, size_t n, size_t *shown, size_t total, const char *item)
{
	size_t o = strlen(buf);
	if (o + strlen(item) + 24 < n) {
		snprintf(buf + o, n - o, "%s%s", *shown ? ", " : "", item);
		++*shown;
	} else if (*shown + 1 == total || !strstr(buf, " more")) {
		snprintf(buf + o, n - o, " and %zu more", total - *shown);
		*shown = total;
	}
}

static void
target_result(struct bench_ctx *c, struct run_result *r, unsigned t, struct result_table **tb)
{
	struct surf_state *S = c->state;
	struct surf_tgt *T = &S->t[t];
	struct surf_io *io = io_of(c, t);
	const char *name = c->plan->targets.v[t];
	char txt[320], item[96];
	if (!T->scanned || !io->any) {
		result_verdict(r, VL_INFO, "surface", "%s: no block was read: nothing to judge", name);
		return;
	}
	/* the curve as MAP_CELLS cells over the region */
	struct cell cell[MAP_CELLS] = { 0 };
	uint64_t span = T->re > T->rs ? T->re - T->rs : 1, tb_bytes = 0, tb_us = 0;
	for (size_t i = 0; i < io->n_slot; i++) {
		const struct slot *x = &io->slot[i];
		uint64_t off = (io->lo + i) * io->unit;
		if (!x->n || off < T->rs)
			continue;
		size_t k = (size_t)((off - T->rs) * MAP_CELLS / span);
		struct cell *q = &cell[k < MAP_CELLS ? k : MAP_CELLS - 1];
		q->bytes += (uint64_t)x->n * io->bs;
		q->lat_us += x->sum_us;
		q->max_us = x->max_us > q->max_us ? x->max_us : q->max_us;
		tb_bytes += (uint64_t)x->n * io->bs;
		tb_us += x->sum_us;
	}
	for (size_t i = 0; i < T->n_ext; i++)
		for (uint64_t o = T->ext[i].start; o < T->ext[i].end && o >= T->rs; o += io->bs) {
			size_t k = (size_t)((o - T->rs) * MAP_CELLS / span);
			cell[k < MAP_CELLS ? k : MAP_CELLS - 1].failed++;
		}
	double mn = INFINITY, mx = 0, avg = rate(tb_bytes, tb_us * 1000);
	for (size_t k = 0; k < MAP_CELLS; k++) {
		double v = rate(cell[k].bytes, cell[k].lat_us * 1000);
		if (isfinite(v)) {
			mn = v < mn ? v : mn;
			mx = v > mx ? v : mx;
		}
	}
	struct result_table *x = tb[0];
	if (x && !table_add_row(x)) {
		size_t row = x->n_rows - 1;
		table_set_str(x, row, 0, name);
		table_set_str(x, row, 1, T->quick ? "quick" : "full");
		table_set_int(x, row, 2, (int64_t)tb_bytes);
		table_set_dbl(x, row, 3, isfinite(mn) ? mn : NAN);
		table_set_dbl(x, row, 4, avg);
		table_set_dbl(x, row, 5, mx > 0 ? mx : NAN);
		table_set_dbl(x, row, 6, T->access_ms);
		table_set_dbl(x, row, 7, T->burst_mbps);
	}
	uint64_t nblk = 0;
	for (size_t b = 0; b < N_BUCKETS; b++)
		nblk += io->bucket[b];
	for (size_t b = 0; (x = tb[1]) && b < N_BUCKETS && !table_add_row(x); b++) {
		size_t row = x->n_rows - 1;
		table_set_str(x, row, 0, name);
		table_set_str(x, row, 1, bucket_name[b]);
		table_set_int(x, row, 2, (int64_t)io->bucket[b]);
		table_set_dbl(x, row, 3, nblk ? 100.0 * (double)io->bucket[b] / (double)nblk : NAN);
	}
	for (size_t k = 0; (x = tb[4]) && k < MAP_CELLS && !table_add_row(x); k++) {
		size_t row = x->n_rows - 1;
		uint64_t off = T->rs + span * k / MAP_CELLS;
		table_set_str(x, row, 0, name);
		table_set_dbl(x, row, 1, 100.0 * (double)k / MAP_CELLS);
		table_set_int(x, row, 2, (int64_t)(off / T->lbs));
		table_set_dbl(x, row, 3, (double)off / 1e9);
		table_set_dbl(x, row, 4, rate(cell[k].bytes, cell[k].lat_us * 1000));
		table_set_dbl(x, row, 5, cell[k].bytes ? (double)cell[k].max_us / 1e3 : NAN);
		table_set_int(x, row, 6, (int64_t)cell[k].failed);
		size_t w = 0;
		while (w < ARRAY_SIZE(bucket_ms) && (double)cell[k].max_us / 1e3 >= bucket_ms[w])
			w++;
		table_set_str(x, row, 7, cell[k].failed ? "error" : cell[k].bytes ? bucket_name[w] : "-");
	}

	/* unreadable extents */
	struct surface_extent *ext = calloc(MAX_EXT * 2 + 1, sizeof(*ext));
	size_t ne = ext ? final_extents(T, io, ext, MAX_EXT * 2) : 0, n_bad = 0, n_rec = 0;
	for (size_t i = 0; (x = tb[2]) && i < ne && !table_add_row(x); i++) {
		size_t row = x->n_rows - 1;
		table_set_str(x, row, 0, name);
		table_set_int(x, row, 1, (int64_t)(ext[i].start / T->lbs));
		table_set_int(x, row, 2, (int64_t)((ext[i].end + T->lbs - 1) / T->lbs - 1));
		table_set_int(x, row, 3, (int64_t)((ext[i].end - ext[i].start + T->lbs - 1) / T->lbs));
		table_set_dbl(x, row, 4, (double)ext[i].start / 1e9);
		table_set_str(x, row, 5, ext[i].recovered ? "read on re-read" : ext[i].exact ? "sector"
				 : T->n_ext && ext[i].end - ext[i].start > (uint64_t)io->bs ? "ends only" : "block");
	}
	for (size_t i = 0; i < ne; i++)
		ext[i].recovered ? n_rec++ : n_bad++;
	if (n_bad) {
		txt[0] = 0;
		size_t shown = 0;
		for (size_t i = 0; i < ne; i++) {
			if (ext[i].recovered)
				continue;
			range_text(item, sizeof(item), T, ext[i].start, ext[i].end);
			list_add(txt, sizeof(txt) - 40, &shown, n_bad, item);
		}
		struct verdict *v = result_verdict(r, VL_FAIL, "surface", "%s: unreadable at %s", name, txt);
		for (size_t i = 0; v && i < ne; i++)
			if (!ext[i].recovered) {
				range_text(item, sizeof(item), T, ext[i].start, ext[i].end);
				verdict_evidence(v, "%s: %llu sectors unreadable%s", item,
						 (unsigned long long)((ext[i].end - ext[i].start) / T->lbs),
						 ext[i].exact ? ", pinned sector by sector"
						 : " (block resolution: not re-read sector by sector)");
			}
		if (v && T->ext_found > T->n_ext)
			verdict_evidence(v, "%zu more failed ranges not listed", T->ext_found - T->n_ext);
		if (v)
			verdict_evidence(v, "%llu of %llu blocks failed in the scan",
					 (unsigned long long)io->bucket[N_BUCKETS - 1], (unsigned long long)nblk);
	}
	if (n_rec) {
		txt[0] = 0;
		size_t shown = 0;
		for (size_t i = 0; i < ne; i++)
			if (ext[i].recovered) {
				range_text(item, sizeof(item), T, ext[i].start, ext[i].end);
				list_add(txt, sizeof(txt) - 60, &shown, n_rec, item);
			}
		result_verdict(r, VL_WARN, "surface", "%s: read errors that did not repeat on a re-read at %s",
			       name, txt);
	}
	free(ext);

	/* slow ranges */
	size_t n_slow = 0, shown = 0;
	for (size_t i = 0; i < T->n_slow; i++) {
		const struct surface_slow *w = &T->slow[i];
		n_slow += slow_confirmed(w);
		if (!(x = tb[3]) || table_add_row(x))
			continue;
		size_t row = x->n_rows - 1;
		table_set_str(x, row, 0, name);
		table_set_int(x, row, 1, (int64_t)(w->start / T->lbs));
		table_set_int(x, row, 2, (int64_t)((w->end + T->lbs - 1) / T->lbs - 1));
		table_set_dbl(x, row, 3, (double)w->start / 1e9);
		table_set_dbl(x, row, 4, w->mbps);
		table_set_dbl(x, row, 5, w->trend_mbps);
		table_set_dbl(x, row, 6, w->confirm_mbps);
		table_set_dbl(x, row, 7, w->control_mbps);
		table_set_str(x, row, 8, slow_confirmed(w) ? "slow" : isfinite(w->confirm_mbps) ?
			      "not repeated (noise)" : "not re-read");
	}
	if (n_slow) {
		txt[0] = 0;
		for (size_t i = 0; i < T->n_slow; i++) {
			const struct surface_slow *w = &T->slow[i];
			if (!slow_confirmed(w))
				continue;
			range_text(item, sizeof(item), T, w->start, w->end);
			size_t o = strlen(item);
			snprintf(item + o, sizeof(item) - o, " at %.0f MB/s against %.0f", w->mbps, w->trend_mbps);
			list_add(txt, sizeof(txt) - 40, &shown, n_slow, item);
		}
		struct verdict *v = result_verdict(r, VL_WARN, "surface", "%s: slow range%s: %s", name,
						   n_slow > 1 ? "s" : "", txt);
		if (v)
			verdict_evidence(v, "slow: under %.0f %% of the median rate around it over at least %d segments, "
					 "and the fastest of %d re-reads under %.0f %% of the fastest of %d beside it; "
					 "each at least %.0f ms per MB slower", 100 * SURFACE_SLOW_FRACTION,
					 SURFACE_SLOW_MIN_POINTS, CONFIRM_PASSES, 100 * CONFIRM_FRACTION, CONFIRM_PASSES,
					 SURFACE_SLOW_MIN_MS_PER_MB);
	}
	if (!n_bad && !n_slow && !n_rec) {
		if (T->quick)
			snprintf(txt, sizeof(txt), "quick scan of %llu positions: none unreadable, no slow range among them "
				 "(%.0f-%.0f MB/s, avg %.0f)", (unsigned long long)nblk, mn, mx, avg);
		else
			snprintf(txt, sizeof(txt), "healthy: every block read, no slow range measured "
				 "(%.0f-%.0f MB/s, avg %.0f)", mn, mx, avg);
		struct verdict *v = result_verdict(r, r->interrupted ? VL_INFO : VL_PASS, "surface", "%s: %s%s",
						   name, txt, r->interrupted ? " so far (interrupted)" : "");
		if (v)
			verdict_evidence(v, "%llu blocks of %u bytes, %llu over 150 ms; access %.3g ms, burst %.0f MB/s",
					 (unsigned long long)nblk, io->bs,
					 (unsigned long long)(io->bucket[4] + io->bucket[5]), T->access_ms, T->burst_mbps);
	}
	if (r->interrupted && T->re > T->rs) {
		char m[160];
		snprintf(m, sizeof(m), "%s: the scan was interrupted at %.0f %% of the region", name,
			 100.0 * (double)(io->max_end - T->rs) / (double)span);
		strlist_add(&r->notes, m);
	}
}

static int
surface_finish(struct bench_ctx *c, struct run_result *r)
{
	/* added first, pointed at after: each add may move the array */
	size_t base = r->n_tables, ok = 0;
	ok += !!result_table_add(r, "surface", "Surface scan", surf_cols, ARRAY_SIZE(surf_cols));
	ok += !!result_table_add(r, "blocks", "Blocks by read time", bucket_cols, ARRAY_SIZE(bucket_cols));
	ok += !!result_table_add(r, "extents", "Unreadable extents", ext_cols, ARRAY_SIZE(ext_cols));
	ok += !!result_table_add(r, "slow", "Slow ranges", slow_cols, ARRAY_SIZE(slow_cols));
	ok += !!result_table_add(r, "map", "Block map (rate and slowest block by position)", map_cols,
				 ARRAY_SIZE(map_cols));
	struct result_table *tb[5] = { NULL };
	for (size_t i = 0; ok == 5 && i < 5; i++)
		tb[i] = &r->tables[base + i];
	for (unsigned t = 0; t < c->n_targets && t < PLAN_MAX_TARGETS; t++) {
		target_result(c, r, t, tb);
		struct surf_io *io = io_of(c, t);
		if (io->oom)
			strlist_add(&r->notes, "surface: out of memory keeping block times: the map is partial");
		free(io->slot);
		free(io->scan_fail.v);
		free(io->sect_fail.v);
		memset(io, 0, sizeof(*io));
	}
	return 0;
}

const struct bench_test bench_surface = {
	.name = "surface",
	.summary = "surface scan: rate by position, block times, unreadable and slow ranges (read-only)",
	.writes = false,
	.panels = PANEL_LATENCY | PANEL_POSITION,	/* the position panel replaces the time plot */
	.defaults = {
		.bs = 1 << 20, .qd = 1, .seconds = 0, .ramp_s = 0,
		.region_start = 0, .region_end = 1,
		.pattern = "seq", .data = "random", .rw_mix = 100,
	},
	.params = (const struct bench_param *const[]){ &bp_bs, &bp_qd, &bp_mode, &bp_samples, NULL },
	.plan = surface_plan,
	.on_io = surface_on_io,
	.io_state_size = sizeof(struct surf_io),
	.state_size = sizeof(struct surf_state),
	.on_step = surface_on_step,
	.finish = surface_finish,
};
