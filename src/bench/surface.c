/* surface.c - the surface scan (read-only).  One sequential pass over the
 * region at qd 1 in fixed blocks (1 MiB by default: WHDD's 256 sectors are
 * 128 KiB, but 1 MiB keeps pace with dd bs=1M and still maps a 2 TB drive in
 * 2 million blocks), each block's time kept.  Quick mode reads N blocks at
 * evenly spaced positions instead.  Then, per target, steps appended by
 * on_step so each is measured and visible: the access time (100 random 4 KiB
 * reads, mean latency), the burst rate (one small block read 32 times: the
 * drive answers from its buffer; the cold first read left out), the failed
 * block ranges pinned in one steered step (pin.h: edges by bisection, the
 * inside sampled, within --pin-budget; the scan itself skips ahead over a
 * large unreadable zone and leaves the gap to that step), and
 * every slow range re-read five times, and as many blocks beside it, to
 * confirm it is not noise of a busy machine (the fastest pass must still be
 * slow against the fastest beside it). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/surface-int.h"

const double surface_bucket_ms[5] = { 3, 10, 50, 150, 500 };
const char *const surface_bucket_name[7] = { "<3 ms", "<10 ms", "<50 ms", "<150 ms", "<500 ms", ">=500 ms", "error" };

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

static void scan_count(struct surf_io *s, const struct io_done *d);

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
		uint64_t ga, gb;
		fail_add(s, &s->scan_fail, d->offset, d->offset + d->len, false);
		if (pin_skip_io(&s->skip, d, &ga, &gb))
			fail_add(s, &s->scan_fail, ga, gb, false);	/* unread: pinning samples it */
	}
	scan_count(s, d);
}

/* A block of the scan (or of pinning's return pass) in the curve. */
static void
scan_count(struct surf_io *s, const struct io_done *d)
{
	if (d->res) {
		s->bucket[N_BUCKETS - 1]++;
		for (size_t i = 0; i < ARRAY_SIZE(s->errs); i++)
			if (s->errs[i].err == -d->res || !s->errs[i].err) {
				s->errs[i].err = -d->res;
				s->errs[i].n++;
				break;
			}
		return;
	}
	s->skip.consec = 0;
	s->skip.jump = 0;
	double ms = (double)d->lat_ns / 1e6;
	size_t b = 0;
	while (b < ARRAY_SIZE(surface_bucket_ms) && ms >= surface_bucket_ms[b])
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

/* The next access-time read: a random block of the region, moved past an
 * unreadable extent it falls in (pin_outside). */
static uint64_t
access_next(struct surf_io *s)
{
	uint64_t n = s->acc_bs && s->acc_hi > s->acc_lo ? (s->acc_hi - s->acc_lo) / s->acc_bs : 0;
	if (!n)
		return s->acc_lo;
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return pin_outside(&s->pin, s->acc_lo + s->rng % n * s->acc_bs, s->acc_lo, s->acc_hi, s->acc_bs);
}

static void
surface_on_io(void *state, const struct io_done *d)
{
	struct surf_io *s = state;
	switch (s->phase) {
	case PH_SCAN:
		scan_io(s, d);
		break;
	case PH_PIN:
		if (pin_on_io(&s->pin, d))
			scan_count(s, d);	/* the return pass: blocks the scan jumped over */
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
		/* a failing drive: the random reads go around the unreadable
		 * extents, a burst from an unreadable start ends at once */
		if (d->next && s->phase == PH_ACCESS)
			*d->next = (struct io_next){ access_next(s), 0, true };
		else if (d->next && d->res)
			*d->next = (struct io_next){ IO_NEXT_END, 0, true };
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
		if (!rc) {
			st->max_consec_errors = SCAN_ERR_LIMIT;
			st->maps = true;
		}
		return rc;
	}
	/* quick: one block first, to learn where the region lies (its size
	 * is only known once the target is open); on_step then plans the
	 * stride over it */
	snprintf(rp.pattern, sizeof(rp.pattern), "seq");
	rp.size = rp.bs;
	return plan_add_step_params(p, NULL, (unsigned)p->targets.n, &rp, "locate", NULL);
}

/* Before any I/O: the skip-ahead's largest jump, 1 % of each capacity. */
static int
surface_before(struct bench_ctx *c, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	for (size_t t = 0; t < c->n_targets; t++)
		pin_skip_init(&io_of(c, (unsigned)t)->skip, c->targets[t].size);
	return 0;
}

/* ---- after each step ---- */

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
	st->maps = phase == PH_SCAN;
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

/* The failed ranges pinned: one steered step at qd 1 over the scanned
 * region, reads of up to one block where pin_on_io says (pin.h). */
static void
add_pin(struct bench_ctx *c, unsigned t, const struct surf_tgt *T, struct surf_io *io)
{
	struct io_next first;
	if (!T->n_ext || pin_init(&io->pin, T->ext, T->n_ext, io->bs, T->lbs, plan_param_num(c->plan, "pin-budget"),
				  &io->skip))
		return;
	io->pin.r_end = T->re;
	if (!pin_first(&io->pin, &first))
		return;
	char lab[48];
	snprintf(lab, sizeof(lab), "pin %zu unreadable range%s", T->n_ext, T->n_ext > 1 ? "s" : "");
	if (add_step(c, t, T, T->rs, T->re, io->bs, "seq", 0, PH_PIN, 0, lab))
		return;
	struct plan_step *st = &c->plan->steps[c->plan->n_steps - 1];
	st->first[t] = first;
}

static bool
over_ext(const struct surf_tgt *T, uint64_t a, uint64_t b)
{
	for (size_t i = 0; i < T->n_ext; i++)
		if (a < T->ext[i].end && b > T->ext[i].start)
			return true;
	return false;
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
	KNOWN_CLEAR(T->access_ms);
	KNOWN_CLEAR(T->burst_mbps);
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
	for (size_t i = 0; i < T->n_ext; i++)	/* a jump's gap may reach past the region */
		T->ext[i].end = T->ext[i].end > T->re ? T->re : T->ext[i].end;

	char lab[48];
	io->acc_lo = T->rs;
	io->acc_hi = T->re;
	io->acc_bs = T->lbs > 4096 ? T->lbs : 4096;
	io->rng = 0x9e3779b97f4a7c15ull ^ c->plan->params.seed ^ t;
	size_t acc_step = c->plan->n_steps;
	add_step(c, t, T, T->rs, T->re, io->acc_bs, "rand", (uint64_t)ACCESS_READS * io->acc_bs, PH_ACCESS, 0,
		 "access time");
	uint32_t bb = io->bs < 65536 ? io->bs : 65536;
	add_step(c, t, T, T->rs, T->rs + bb, bb, "seq", (uint64_t)BURST_READS * bb, PH_BURST, 0, "burst");
	add_pin(c, t, T, io);
	if (acc_step < c->plan->n_steps && T->n_ext)	/* its first read outside the extents too */
		c->plan->steps[acc_step].first[t] = (struct io_next){ access_next(io), 0, true };
	for (size_t i = 0; i < T->n_slow; i++) {
		struct surface_slow *w = &T->slow[i];
		uint64_t e = w->end - w->start > (uint64_t)CONFIRM_MAX_BLOCKS * io->bs ?
			w->start + (uint64_t)CONFIRM_MAX_BLOCKS * io->bs : w->end;
		/* quick mode: re-read the first sampled blocks of the range, not the gaps */
		if (T->quick)
			e = w->start + 4ull * io->bs < T->re ? w->start + 4ull * io->bs : T->re;
		/* the control: as many blocks just before it (or after), read the
		 * same way now, so a slow machine or a qd other than 1 in the scan
		 * cannot make the range look slow.  One pass each in turn: a busy
		 * spell of a shared machine then slows both, not only the range
		 * (five range passes, then five beside, confirmed a range that was
		 * never slow). */
		uint64_t len = e - w->start, a = UINT64_MAX;
		/* not over an unreadable extent: its failed reads would cost a
		 * drive's retries and tell nothing of the rate */
		if (w->start - T->rs >= len && !over_ext(T, w->start - len, w->start))
			a = w->start - len;
		else if (T->re - w->end >= len && !over_ext(T, w->end, w->end + len))
			a = w->end;
		for (int k = 0; k < CONFIRM_PASSES; k++) {
			snprintf(lab, sizeof(lab), "confirm slow at %.1f GB", (double)w->start / 1e9);
			add_step(c, t, T, w->start, e, io->bs, "seq", len, PH_CONFIRM, (int)(2 * i), lab);
			if (a == UINT64_MAX)
				continue;
			snprintf(lab, sizeof(lab), "beside slow at %.1f GB", (double)a / 1e9);
			add_step(c, t, T, a, a + len, io->bs, "seq", len, PH_CONFIRM, (int)(2 * i + 1), lab);
		}
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
	pin_skip_free(&io->skip);
	memset(io, 0, sizeof(*io));	/* the block read here is not a sample; no skip-ahead
					   (the quick scan's samples are its bound) */
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
			T->access_ms = KNOWN_DBL_IF(io->ph_n, (double)io->ph_lat_ns / (double)io->ph_n / 1e6);
		else if (ph == PH_BURST)
			T->burst_mbps = KNOWN_DBL_IF(io->ph_lat_ns, rate(io->ph_bytes, io->ph_lat_ns));
		else if (ph == PH_CONFIRM && S->arg[i] >= 0 && (size_t)S->arg[i] / 2 < T->n_slow) {
			pass_end(io);
			struct surface_slow *w = &T->slow[S->arg[i] / 2];
			struct known_dbl *dst = S->arg[i] % 2 ? &w->control_mbps : &w->confirm_mbps;
			if (io->ph_best > 0 && !(dst->known && dst->v >= io->ph_best))	/* the fastest pass */
				*dst = known_dbl_of(io->ph_best);
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

const struct bench_test bench_surface = {
	.name = "surface",
	.summary = "surface scan: rate by position, block times, unreadable and slow ranges (read-only)",
	.writes = false,
	.panels = PANEL_LATENCY | PANEL_POSITION,	/* the position panel replaces the time plot */
	.flags = TEST_REF_READ | TEST_MAPS_SURFACE,
	.defaults = {
		.bs = 1 << 20, .qd = 1, .seconds = 0, .ramp_s = 0,
		.region_start = 0, .region_end = 1,
		.pattern = "seq", .data = "random", .rw_mix = 100,
	},
	.params = (const struct bench_param *const[]){ &bp_bs, &bp_qd, &bp_mode, &bp_samples, &bp_pin_budget,
						       NULL },
	.plan = surface_plan,
	.before = surface_before,
	.on_io = surface_on_io,
	.io_state_size = sizeof(struct surf_io),
	.state_size = sizeof(struct surf_state),
	.on_step = surface_on_step,
	.finish = surface_finish,
};
