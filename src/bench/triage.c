/* triage.c - bench triage (read-only): every drive at once, one verdict per
 * drive.  Steps: a solo read sample of each drive, one at a time (its rate
 * alone), then one read pass over all drives together (quick: --samples
 * blocks evenly spaced, the default; full: every block), its rate shared.
 * The shared pass keeps each block's time and failed reads; the surface
 * test's rules (surface.h) turn them into slow ranges and unreadable
 * extents.  Peers are drives of the same model (without one, the same
 * size); a drive under --slow-below % of its peers' median, alone or
 * together, is named slow.  Verdicts: FAIL on unreadable blocks or a read
 * stalled past --stall, WARN on a slow range or a slow rate against peers.
 * Fail rules stop one drive's job while the others go on (the worker's
 * io_done.stop): --max-bad failed blocks, a read past --stall; a drive alone
 * under --fail-below % of its peers is not read further.  --write-verify on
 * (guarded, triage-verify.c) then writes a pattern and reads it back. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "run/estimate.h"
#include "bench/triage-int.h"

#define TRI_PTS_CAP (1u << 16)	/* curve points kept per drive; halved (merged) past that */
#define TRI_SLOW_MS_PER_MB 5.0	/* a slow range costs this much more per MB than its trend */
#define TRI_ERR_LIMIT (1u << 20)	/* failed blocks in a row before a worker gives up */

static const char *const modes[] = { "quick", "full", NULL };
static const struct bench_param bp_mode = {
	.name = "mode", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "quick|full",
	.help = "quick: --samples blocks evenly spaced; full: every block",
	.bad = "one of quick, full", .choices = modes, .def = 0,
};
static const struct bench_param bp_samples = {
	.name = "samples", .kind = BP_COUNT, .bind = BIND_NONE, .arg = "N",
	.help = "quick mode: positions read per drive, 16 .. 100000", .bad = "a count 16 .. 100000",
	.min = 16, .max = 100000, .def = 1000,
};
static const struct bench_param bp_solo = {
	.name = "solo-time", .kind = BP_DURATION, .bind = BIND_NONE, .arg = "DURATION",
	.help = "solo read sample per drive, one drive at a time", .bad = "a duration 1s .. 10m",
	.min = 1, .max = 600, .def = 3,
};
static const struct bench_param bp_stall = {
	.name = "stall", .kind = BP_DURATION, .bind = BIND_NONE, .arg = "DURATION",
	.help = "fail and stop a drive when one read takes longer", .bad = "a duration 100ms .. 10m",
	.min = 0.1, .max = 600, .def = 10,
};
static const struct bench_param bp_slow = {
	.name = "slow-below", .kind = BP_PERCENT, .bind = BIND_NONE, .arg = "PCT",
	.help = "warn when a drive reads below this % of its peers' median", .bad = "a percentage 1 .. 100",
	.min = 1, .max = 100, .def = 92,
};
static const struct bench_param bp_fast = {
	.name = "fast-above", .kind = BP_PERCENT, .bind = BIND_NONE, .arg = "PCT",
	.help = "note a drive above this % of its peers' median", .bad = "a percentage 100 .. 1000",
	.min = 100, .max = 1000, .def = 107,
};

static const struct bench_param bp_temp = {
	.name = "max-temp", .kind = BP_COUNT, .bind = BIND_NONE, .arg = "C",
	.help = "fail a drive warmer than this (degrees C, SMART); already warmer before: not read", .bad = "a temperature 20 .. 100",
	.min = 20, .max = 100, .def = 55,
};

static const struct bench_param bp_tempevery = {
	.name = "temp-every", .kind = BP_DURATION, .bind = BIND_NONE, .arg = "DURATION",
	.help = "read each drive's SMART temperature this often while reading (wall clock); "
		"one over --max-temp stops", .bad = "a duration 100ms .. 1h",
	.min = 0.1, .max = 3600, .def = 60,
};

static const struct bench_param bp_maxbad = {
	.name = "max-bad", .kind = BP_COUNT, .bind = BIND_NONE, .arg = "N",
	.help = "stop a drive after N bad blocks (unreadable, failed writes, mismatches); 0 never",
	.bad = "a count 0 .. 1000000000", .min = 0, .max = 1e9, .def = 64,
};
static const struct bench_param bp_failbelow = {
	.name = "fail-below", .kind = BP_PERCENT, .bind = BIND_NONE, .arg = "PCT",
	.help = "fail a drive below this % of its peers' median (alone: not read further); 0 off",
	.bad = "a percentage 0 .. 100", .min = 0, .max = 100, .def = 0,
};
static const char *const sect_rules[] = { "fail", "warn", "off", NULL };
static const struct bench_param bp_newsect = {
	.name = "new-sectors", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "fail|warn|off",
	.help = "SMART 5 or 197 grew during the test: fail, warn or off", .bad = "one of fail, warn, off",
	.choices = sect_rules, .def = 0,
};
static const char *const onoff[] = { "off", "on", NULL };
static const struct bench_param bp_wv = {
	.name = "write-verify", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "off|on",
	.help = "on: then write a pattern and read it back (destroys data; --destroy-data=DEV each)",
	.bad = "one of off, on", .choices = onoff, .def = 0, .writes_when = "on",
};
static const struct bench_param bp_from = {
	.name = "from", .kind = BP_COUNT, .bind = BIND_NONE, .arg = "LBA",
	.help = "write-verify from this LBA on (resume an interrupted run)", .bad = "an LBA 0 .. 2^53",
	.min = 0, .max = 9007199254740992.0, .def = 0,
};

static int
triage_plan(struct plan *p, char *err, size_t errlen)
{
	if (!p->targets.n) {
		snprintf(err, errlen, "triage: no target given");
		return -EINVAL;
	}
	if (p->targets.n > PLAN_MAX_TARGETS) {
		snprintf(err, errlen, "triage: too many targets (%zu, at most %d)", p->targets.n, PLAN_MAX_TARGETS);
		return -E2BIG;
	}
	int rcw = triage_wv_plan(p, err, errlen);
	if (rcw)
		return rcw;
	struct run_params rp = p->params;
	rp.seconds = plan_param_num(p, "solo-time");
	rp.size = 0;
	rp.ramp_s = 0;
	rp.rw_mix = 100;
	snprintf(rp.pattern, sizeof(rp.pattern), "seq");
	/* one block of each drive: after it, the SMART snapshot before */
	struct run_params one = rp;
	one.seconds = 0;
	one.size = one.bs;
	int rc0 = plan_add_step_params(p, NULL, (unsigned)p->targets.n, &one, "SMART before", NULL);
	if (rc0)
		return rc0;
	p->topts.write = plan_writes(p);	/* write-verify on: every target through the guard */
	return 0;	/* the solo samples follow the SMART snapshot (add_solos) */
}

/* One solo sample per drive not too warm already (--max-temp: a drive
 * that hot is not read at all). */
static void
add_solos(struct bench_ctx *c)
{
	struct plan *p = c->plan;
	struct tri_state *S = c->state;
	double max_temp = plan_param_num(p, "max-temp");
	struct run_params rp = p->params;
	rp.seconds = plan_param_num(p, "solo-time");
	rp.size = 0;
	rp.ramp_s = 0;
	rp.rw_mix = 100;
	snprintf(rp.pattern, sizeof(rp.pattern), "seq");
	S->n_solo = 0;
	for (unsigned i = 0; i < c->n_targets; i++) {
		const struct tri_snap *b = &S->before[i];
		struct tri_tgt *T = &S->t[i];
		if (b->smart && b->temp_known && b->temp_c > max_temp) {
			T->out = T->out_warm = true;
			snprintf(T->out_why, sizeof(T->out_why), "too warm before any read: %.0f C (--max-temp %.0f C)",
				 b->temp_c, max_temp);
			continue;
		}
		const char *nm = strrchr(p->targets.v[i], '/');
		char lab[48];
		snprintf(lab, sizeof(lab), "solo %s", nm ? nm + 1 : p->targets.v[i]);
		struct plan_step *st;
		if (plan_add_step_params(p, &i, 1, &rp, lab, &st))
			return;
		st->max_consec_errors = TRI_ERR_LIMIT;
		S->kind[S->n_kind++] = TK_SOLO;
		S->n_solo++;
	}
}

/* ---- per I/O ---- */

static int
pt_cmp(const void *a, const void *b)
{
	const struct surface_point *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Sort, then merge neighbours two by two: half the points, twice as long. */
static void
pts_halve(struct tri_io *s)
{
	qsort(s->pt, s->n_pt, sizeof(*s->pt), pt_cmp);
	size_t n = 0;
	for (size_t i = 0; i < s->n_pt; i += 2) {
		struct surface_point v = s->pt[i];
		if (i + 1 < s->n_pt) {
			const struct surface_point *w = &s->pt[i + 1];
			v.len = w->off + w->len - v.off;
			v.bytes += w->bytes;
			v.lat_ns += w->lat_ns;
		}
		s->pt[n++] = v;
	}
	s->n_pt = n;
}

void
triage_ext_add(struct surface_extent *x, size_t *n, size_t *lost, uint64_t a, uint64_t b)
{
	for (size_t i = 0; i < *n; i++)
		if (a <= x[i].end && b >= x[i].start) {
			x[i].start = a < x[i].start ? a : x[i].start;
			x[i].end = b > x[i].end ? b : x[i].end;
			return;
		}
	if (*n < TRI_MAX_EXT)
		x[(*n)++] = (struct surface_extent){ a, b, false, false };
	else
		(*lost)++;
}

/* A fail rule ends this drive's job: the worker stops (io_done.stop), the
 * reason stays for the verdict, later steps leave the drive out. */
void
triage_rule(struct tri_io *s, const struct io_done *d, const char *fmt, ...)
{
	if (s->ruled)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->rule, sizeof(s->rule), fmt, ap);
	va_end(ap);
	s->ruled = true;
	if (d->stop)
		snprintf(d->stop, WORKER_STOP_LEN, "%s", s->rule);
}

static void
triage_on_io(void *state, const struct io_done *d)
{
	struct tri_io *s = state;
	unsigned lbs = s->lbs ? s->lbs : 512;
	if (triage_pin_io(s, d))	/* the pin step's probes */
		return;
	if (atomic_load_explicit(&s->temp_stop, memory_order_acquire))
		triage_rule(s, d, "%s, stopped at LBA %llu (%.3f GB)", s->temp_why,
			    (unsigned long long)(d->offset / lbs), (double)d->offset / 1e9);
	if (!d->write && d->lat_ns > s->max_lat_ns) {
		s->max_lat_ns = d->lat_ns;
		s->max_lat_off = d->offset;
	}
	if (s->stall_ns && d->lat_ns > s->stall_ns)
		triage_rule(s, d, "stall: a %s took %.1f s at LBA %llu (%.3f GB) (--stall %.1f s)",
			    d->write ? "write" : "read", (double)d->lat_ns / 1e9,
			    (unsigned long long)(d->offset / lbs), (double)d->offset / 1e9,
			    (double)s->stall_ns / 1e9);
	bool wv = triage_wv_io(s, d);
	if (d->res && !d->write) {
		s->n_err++;
		bool again = false;
		for (size_t i = 0; i < s->n_ext && !again; i++)
			again = d->offset >= s->ext[i].start && d->offset + d->len <= s->ext[i].end;
		s->n_unread += !again;
		triage_ext_add(s->ext, &s->n_ext, &s->ext_lost, d->offset, d->offset + d->len);
	}
	uint64_t bad = s->n_unread + s->n_werr + s->mis_blocks;
	if (s->max_bad && bad >= s->max_bad && (d->res || wv))
		triage_rule(s, d, "bad blocks: %llu (%llu unreadable, %llu failed writes, %llu mismatched), "
			    "the last at LBA %llu (%.3f GB) (--max-bad %llu)", (unsigned long long)bad,
			    (unsigned long long)s->n_unread, (unsigned long long)s->n_werr,
			    (unsigned long long)s->mis_blocks, (unsigned long long)(d->offset / lbs),
			    (double)d->offset / 1e9, (unsigned long long)s->max_bad);
	if (s->phase == TP_CONFIRM) {
		/* one pass is one run of rising offsets; the first read of a
		 * pass pays a seek back and is left out */
		if (d->offset <= s->cf_last || !s->cf_n) {
			if (s->cf_lat_ns) {
				double r = (double)s->cf_bytes / ((double)s->cf_lat_ns / 1e9) / 1e6;
				s->cf_best = r > s->cf_best ? r : s->cf_best;
			}
			s->cf_bytes = s->cf_lat_ns = 0;
			s->cf_n++;
		} else if (!d->res) {
			s->cf_bytes += d->len;
			s->cf_lat_ns += d->lat_ns;
		}
		s->cf_last = d->offset;
		return;
	}
	triage_pin_skip(s, d);	/* the full pass jumps over an unreadable zone */
	if (d->res || s->phase != TP_SHARED || s->oom)
		return;
	if (!s->pt) {
		s->pt = malloc(TRI_PTS_CAP * sizeof(*s->pt));
		if (!s->pt) {
			s->oom = true;
			return;
		}
	}
	if (s->n_pt == TRI_PTS_CAP)
		pts_halve(s);
	s->pt[s->n_pt++] = (struct surface_point){ d->offset, d->len, d->len, d->lat_ns };
}

/* Before any I/O: each drive's rule figures, the write-verify spans. */
static int
triage_before(struct bench_ctx *c, char *err, size_t errlen)
{
	const struct plan *p = c->plan;
	for (size_t t = 0; t < c->n_targets; t++) {
		struct tri_io *io = tri_io_of(c, (unsigned)t);
		io->lbs = c->targets[t].logical ? c->targets[t].logical : 512;
		io->max_bad = (uint64_t)plan_param_num(p, "max-bad");
		io->stall_ns = (uint64_t)(plan_param_num(p, "stall") * 1e9);
		io->sim = c->targets[t].kind == TGT_SIM;
	}
	triage_pin_before(c);
	return triage_wv_before(c, err, errlen);
}

/* ---- after each step ---- */

/* The shared pass: every drive at once, one pass (quick: --samples blocks
 * spread over each drive's own capacity, so every drive reads the same number
 * of blocks, a large one over all of it). */
static void
add_shared(struct bench_ctx *c)
{
	struct plan *p = c->plan;
	struct tri_state *S = c->state;
	struct run_params rp = p->params;
	rp.seconds = 0;
	rp.ramp_s = 0;
	rp.size = 0;
	rp.rw_mix = 100;
	snprintf(rp.pattern, sizeof(rp.pattern), "seq");
	if (!strcmp(plan_param_str(p, "mode"), "quick")) {
		/* --samples blocks over each drive's own capacity (or --region):
		 * the framework derives each target's stride */
		snprintf(rp.pattern, sizeof(rp.pattern), "stride");
		rp.stride = 0;
		rp.spread = (uint64_t)plan_param_num(p, "samples");
	}
	unsigned idx[PLAN_MAX_TARGETS], n = 0;
	for (unsigned t = 0; t < c->n_targets; t++)
		if (!S->t[t].out)
			idx[n++] = t;
	S->shared_added = true;
	struct plan_step *st;
	if (!n || plan_add_step_params(p, idx, n, &rp, strcmp(rp.pattern, "seq") ? "quick read, all drives"
				       : "full read, all drives", &st))
		return;
	st->max_consec_errors = TRI_ERR_LIMIT;
	S->kind[S->n_kind++] = TK_SHARED;
}

static double peer_pct(const struct bench_ctx *c, size_t t, bool shared, size_t *n_peers, size_t *n_hist);

/* A drive whose rule ended its job, or (alone) under --fail-below % of its
 * peers, is left out of the later steps. */
static void
mark_out(struct bench_ctx *c, bool solos_done)
{
	struct tri_state *S = c->state;
	double fb = plan_param_num(c->plan, "fail-below");
	for (size_t t = 0; t < c->n_targets; t++) {
		struct tri_tgt *T = &S->t[t];
		struct tri_io *io = tri_io_of(c, (unsigned)t);
		if (T->out)
			continue;
		if (io->ruled) {
			T->out = true;
			snprintf(T->out_why, sizeof(T->out_why), "%s", io->rule);
			continue;
		}
		size_t np, nh;
		double pct = solos_done ? peer_pct(c, t, false, &np, &nh) : NAN;
		if (fb > 0 && isfinite(pct) && pct < fb) {
			T->out = T->out_slow = true;
			snprintf(T->out_why, sizeof(T->out_why), "slow: alone %.0f %% of its peers' median "
				 "(%.1f MB/s) (--fail-below %.0f %%)", pct, T->solo, fb);
		}
	}
}

/* One re-read step of drive t over [a, b) (bytes). */
static int
add_confirm(struct bench_ctx *c, unsigned t, uint64_t a, uint64_t b, int arg, const char *label)
{
	struct tri_state *S = c->state;
	struct plan *p = c->plan;
	unsigned lbs = tri_io_of(c, t)->lbs ? tri_io_of(c, t)->lbs : 512;
	if (S->n_kind >= TRI_MAX_STEPS - 1)
		return -E2BIG;
	struct run_params rp = p->params;
	rp.seconds = rp.ramp_s = 0;
	rp.size = 0;
	rp.qd = 1;
	rp.rw_mix = 100;
	rp.stride = 0;
	rp.spread = 0;
	snprintf(rp.pattern, sizeof(rp.pattern), "seq");
	rp.region_lba = true;
	rp.region_lba_start = a / lbs;
	rp.region_lba_end = (b + lbs - 1) / lbs;
	struct plan_step *st;
	int rc = plan_add_step_params(p, &t, 1, &rp, label, &st);
	if (rc)
		return rc;
	st->max_consec_errors = TRI_ERR_LIMIT;
	S->cf_arg[S->n_kind] = (short)arg;
	S->kind[S->n_kind++] = TK_CONFIRM;
	return 0;
}

/* After the shared pass: each drive's first slow ranges re-read, in turn
 * with as many blocks beside them. */
static void
add_confirms(struct bench_ctx *c)
{
	struct tri_state *S = c->state;
	for (unsigned t = 0; t < c->n_targets; t++) {
		struct tri_tgt *T = &S->t[t];
		struct tri_io *io = tri_io_of(c, t);
		uint32_t bs = c->plan->params.bs ? c->plan->params.bs : 1u << 20;
		uint64_t size = c->targets[t].size;
		if (T->out)
			continue;
		for (size_t i = 0; i < T->n_slow && i < TRI_CF_RANGES; i++) {
			struct surface_slow *w = &T->slow[i];
			uint64_t len = w->end - w->start;
			if (len > (uint64_t)TRI_CF_BLOCKS * bs)
				len = (uint64_t)TRI_CF_BLOCKS * bs;
			uint64_t beside = w->start >= len ? w->start - len : w->end + len <= size ? w->end : UINT64_MAX;
			char lab[48];
			snprintf(lab, sizeof(lab), "confirm slow at %.1f GB", (double)w->start / 1e9);
			int rc = 0;
			for (int k = 0; k < TRI_CF_PASSES && !rc; k++) {
				rc = add_confirm(c, t, w->start, w->start + len, (int)(2 * i), lab);
				if (!rc && beside != UINT64_MAX)
					rc = add_confirm(c, t, beside, beside + len, (int)(2 * i + 1), "beside it");
			}
			if (rc)
				return;	/* out of steps: the rest stay as the pass found them */
			T->n_cf = i + 1;
		}
		(void)io;
	}
}

/* While a step reads: every --temp-every, each active drive's SMART
 * temperature; one over --max-temp is asked to stop (its on_io ends its
 * job at the next completion, the others go on).  Not in the first step
 * (the SMART-before snapshot is being taken then). */
static void
triage_on_tick(struct bench_ctx *c, const struct plan_step *st, double step_s)
{
	struct tri_state *S = c->state;
	double every = plan_param_num(c->plan, "temp-every");
	if (S->tick_step != st) {
		S->tick_step = st;
		S->next_tick_s = every;
	}
	if (!S->done || step_s < S->next_tick_s)
		return;
	S->next_tick_s = step_s + every;
	double max_temp = plan_param_num(c->plan, "max-temp");
	triage_snapshot(c->plan, c->targets, c->n_targets, true, S->tick);
	for (unsigned k = 0; k < st->n; k++) {
		unsigned t = st->idx[k];
		const struct tri_snap *s = &S->tick[t];
		if (t >= c->n_targets || !s->smart || !s->temp_known)
			continue;
		struct tri_tgt *T = &S->t[t];
		if (!(s->temp_c <= T->temp_peak))
			T->temp_peak = s->temp_c;
		struct tri_io *io = tri_io_of(c, t);
		if (s->temp_c > max_temp && !atomic_load_explicit(&io->temp_stop, memory_order_relaxed)) {
			snprintf(io->temp_why, sizeof(io->temp_why), "too warm while reading: %.0f C after %.1f s "
				 "of %s (--max-temp %.0f C)", s->temp_c, step_s, st->label[0] ? st->label : "a step",
				 max_temp);
			atomic_store_explicit(&io->temp_stop, true, memory_order_release);
		}
	}
}

static void
triage_on_step(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr)
{
	struct tri_state *S = c->state;
	size_t i = S->done++;
	int kind = i < S->n_kind ? S->kind[i] : TK_SHARED;
	if (i == 0) {
		S->kind[0] = TK_BEFORE;
		S->n_kind = 1;
		for (size_t t = 0; t < PLAN_MAX_TARGETS; t++)
			S->t[t].solo = S->t[t].shared = S->t[t].solo_pct = S->t[t].shared_pct =
				S->t[t].temp_peak = NAN;
		triage_snapshot(c->plan, c->targets, c->n_targets, false, S->before);
		add_solos(c);
		if (S->n_solo)
			return;
		kind = TK_BEFORE;	/* every drive too warm: no read at all */
	}
	for (unsigned k = 0; k < st->n && k < sr->n_res; k++) {
		unsigned t = st->idx[k];
		const struct target_result *tr = &sr->res[k];
		double mbps = tr->ios ? tr->mbps : NAN;
		if (kind == TK_SOLO) {
			S->t[t].solo = mbps;
			continue;
		}
		if (kind == TK_CONFIRM) {
			struct tri_io *io = tri_io_of(c, t);
			int arg = S->cf_arg[i];
			if (io->cf_lat_ns) {	/* the last pass */
				double r = (double)io->cf_bytes / ((double)io->cf_lat_ns / 1e9) / 1e6;
				io->cf_best = r > io->cf_best ? r : io->cf_best;
			}
			if (arg >= 0 && (size_t)arg / 2 < S->t[t].n_slow && io->cf_best > 0) {
				struct surface_slow *w = &S->t[t].slow[arg / 2];
				double *dst = arg % 2 ? &w->control_mbps : &w->confirm_mbps;
				if (!(*dst >= io->cf_best))
					*dst = io->cf_best;
			}
			continue;
		}
		if (kind != TK_SHARED)
			continue;
		struct tri_tgt *T = &S->t[t];
		struct tri_io *io = tri_io_of(c, t);
		T->shared = mbps;
		T->scanned = true;
		T->stopped = tr->stopped_early;
		snprintf(T->note, sizeof(T->note), "%s", tr->note);
		if (io->n_pt) {
			qsort(io->pt, io->n_pt, sizeof(*io->pt), pt_cmp);
			T->slow_found = surface_find_slow(io->pt, io->n_pt, T->slow, TRI_MAX_SLOW);
			T->n_slow = T->slow_found < TRI_MAX_SLOW ? T->slow_found : TRI_MAX_SLOW;
			/* one pass and no confirming re-reads (the surface scan has
			 * them): a range must cost TRI_SLOW_MS_PER_MB more than its
			 * trend, so a busy machine's hiccup on a RAM-fast device is
			 * not a slow band */
			size_t kept = 0;
			for (size_t w = 0; w < T->n_slow; w++)
				if (1e3 / T->slow[w].mbps - 1e3 / T->slow[w].trend_mbps >= TRI_SLOW_MS_PER_MB)
					T->slow[kept++] = T->slow[w];
			T->slow_found -= T->n_slow - kept;
			T->n_slow = kept;
			for (size_t w = 0; w < T->n_slow; w++)
				T->slow[w].confirm_mbps = T->slow[w].control_mbps = NAN;
		}
		io->n_ext = surface_merge(io->ext, io->n_ext);
		free(io->pt);
		io->pt = NULL;
	}
	if (kind == TK_WRITE || kind == TK_VERIFY)
		triage_wv_step_done(c, kind);
	if (kind == TK_SHARED)
		triage_pin_add(c);	/* first: the confirms re-read slow ranges after it */
	if (kind == TK_SHARED)
		add_confirms(c);
	if (kind == TK_PIN)
		triage_pin_done(c, st);
	if (S->done < S->n_kind && S->kind[S->done] == TK_PIN && S->done < c->plan->n_steps)
		triage_pin_phase(c, &c->plan->steps[S->done]);
	/* what the next step measures: a re-read, for its one drive */
	if (S->done < S->n_kind && S->kind[S->done] == TK_CONFIRM && S->done < c->plan->n_steps) {
		const struct plan_step *nx = &c->plan->steps[S->done];
		for (unsigned k = 0; k < nx->n; k++) {
			struct tri_io *io = tri_io_of(c, nx->idx[k]);
			io->phase = TP_CONFIRM;
			io->cf_bytes = io->cf_lat_ns = io->cf_last = 0;
			io->cf_n = 0;
			io->cf_best = 0;
		}
	}
	mark_out(c, S->done == S->n_solo + 1 && !S->shared_added);
	if (S->done == S->n_solo + 1 && !S->shared_added) {
		add_shared(c);
		for (size_t t = 0; t < c->n_targets; t++)
			tri_io_of(c, (unsigned)t)->phase = TP_SHARED;
		if (S->n_kind > S->done)
			return;
	}
	if (S->done == S->n_kind && S->wv && S->n_kind < TRI_MAX_STEPS)
		triage_wv_next(c);
}

/* ---- peers, verdicts, the table ---- */

static bool
peers(const struct bench_ctx *c, size_t a, size_t b)
{
	const struct target_ident *x = &c->plan->ident[a], *y = &c->plan->ident[b];
	if (x->model[0] || y->model[0])
		return !strcmp(x->model, y->model);
	return c->targets[a].size == c->targets[b].size;
}

/* The bench history's rates of t's model, once: the drives on the bench
 * now (by serial) are left out, they are compared live. */
static void
hist_fetch(const struct bench_ctx *c, size_t t)
{
	struct tri_state *S = c->state;
	struct tri_tgt *T = &S->t[t];
	if (T->hist_asked)
		return;
	T->hist_asked = true;
	const char *model = c->plan->ident[t].model;
	if (!c->plan->history_rates || !model[0])
		return;
	struct strlist skip = { 0 };
	for (size_t j = 0; j < c->n_targets; j++)
		if (c->plan->ident[j].serial[0])
			strlist_add(&skip, c->plan->ident[j].serial);
	if (c->plan->history_rates(model, &skip, T->hist, TRI_HIST_MAX, &T->n_hist))
		T->n_hist = 0;	/* no history: the bench's own peers only */
	strlist_free(&skip);
}

/* Rate of t against the median of its peer group's rates, itself included
 * (left out, two bad drives of five would pull the healthy ones' median
 * down and make them look fast).  Alone, the bench history's drives of its
 * model count too.  *n_peers: the others on the bench, *n_hist: from the
 * history. */
static double
peer_pct(const struct bench_ctx *c, size_t t, bool shared, size_t *n_peers, size_t *n_hist)
{
	const struct tri_state *S = c->state;
	double v[PLAN_MAX_TARGETS + TRI_HIST_MAX];
	size_t n = 0;
	for (size_t j = 0; j < c->n_targets; j++) {
		double r = shared ? S->t[j].shared : S->t[j].solo;
		/* a rule cut its read short: no rate to compare (a drive left out
		 * for its slow solo rate keeps that rate) */
		if (S->t[j].out && (shared || !S->t[j].out_slow))
			continue;
		if (peers(c, t, j) && isfinite(r) && r > 0)
			v[n++] = r;
	}
	*n_peers = n ? n - 1 : 0;
	*n_hist = 0;
	if (!shared && c->plan->ident[t].model[0]) {
		hist_fetch(c, t);
		for (size_t k = 0; k < S->t[t].n_hist; k++)
			if (isfinite(S->t[t].hist[k]) && S->t[t].hist[k] > 0) {
				v[n++] = S->t[t].hist[k];
				(*n_hist)++;
			}
	}
	double me = S->t[t].out && (shared || !S->t[t].out_slow) ? NAN : shared ? S->t[t].shared : S->t[t].solo;
	if (n < 2 || !isfinite(me) || me <= 0)
		return NAN;
	return 100.0 * me / dbl_median(v, n);
}

static const char *
short_name(const struct bench_ctx *c, size_t t)
{
	return c->targets[t].name[0] ? c->targets[t].name : c->plan->targets.v[t];
}

int
triage_add_reason(char *buf, size_t n, const char *fmt, ...)
{
	size_t o = strlen(buf);
	if (o && o + 2 < n) {
		memcpy(buf + o, "; ", 3);
		o += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	if (o < n)
		vsnprintf(buf + o, n - o, fmt, ap);
	va_end(ap);
	return 0;
}

static void
raise_to(enum verdict_level *lv, enum verdict_level to)
{
	if (*lv < to)
		*lv = to;
}

/* SMART before and after, and the inventory's checks: evidence, reasons and
 * the rules (too warm: fail; new reallocated or pending sectors: fail; any
 * other predictor that grew, a link below capability: warn). */
static void
smart_judge(struct tri_state *S, size_t t, double max_temp, const char *ns_rule, enum verdict_level *lv,
	    char *why, size_t wn, struct strlist *ev)
{
	const struct tri_snap *b = &S->before[t], *a = &S->after[t];
	const struct tri_snap *any = a->taken ? a : b;
	for (size_t k = 0; k < any->checks.n; k++)
		strlist_addf(ev, "inventory: %s", any->checks.v[k]);
	if (any->link_low) {
		raise_to(lv, VL_WARN);
		triage_add_reason(why, wn, "link below capability");
	}
	if (!b->smart || !a->smart) {
		const char *r = !b->smart ? b->reason : a->reason;
		strlist_addf(ev, "SMART: not available (%s): no SMART rule applied", r[0] ? r : "not read");
		return;
	}
	double temp = a->temp_known ? a->temp_c : b->temp_known ? b->temp_c : NAN;
	if (isfinite(temp)) {
		strlist_addf(ev, "temperature: %.0f C (limit %.0f C)", temp, max_temp);
		if (isfinite(S->t[t].temp_peak))
			strlist_addf(ev, "temperature while reading: up to %.0f C", S->t[t].temp_peak);
		if (temp > max_temp) {
			raise_to(lv, VL_FAIL);
			triage_add_reason(why, wn, "too warm: %.0f C (limit %.0f C)", temp, max_temp);
		}
	} else {
		strlist_add(ev, "temperature: not reported");
	}
	char line[256];
	size_t o = (size_t)snprintf(line, sizeof(line), "SMART before -> after (raw):");
	bool grew = false;
	for (size_t k = 0; k < TRI_SMART_N && o < sizeof(line); k++) {
		const struct known_u64 *x = &b->attr[k], *y = &a->attr[k];
		if (!x->known || !y->known)
			continue;
		o += (size_t)snprintf(line + o, sizeof(line) - o, " %u: %llu->%llu", triage_smart_ids[k],
				      (unsigned long long)x->v, (unsigned long long)y->v);
		if (y->v <= x->v)
			continue;
		grew = true;
		bool sectors = triage_smart_ids[k] == 5 || triage_smart_ids[k] == 197;
		/* new reallocated or pending sectors: --new-sectors fail|warn|off
		 * (off: in the evidence only) */
		if (sectors && !strcmp(ns_rule, "off"))
			continue;
		raise_to(lv, sectors && !strcmp(ns_rule, "fail") ? VL_FAIL : VL_WARN);
		triage_add_reason(why, wn, "SMART %u grew by %llu during the test%s%s", triage_smart_ids[k],
				  (unsigned long long)(y->v - x->v),
				  triage_smart_ids[k] == 5 ? " (reallocated sectors)" :
				  triage_smart_ids[k] == 197 ? " (pending sectors)" : "",
				  sectors ? " (--new-sectors)" : "");
	}
	strlist_add(ev, line);
	if (!grew)
		strlist_add(ev, "SMART delta: none of 5, 187, 188, 196, 197, 198, 199 grew");
	for (size_t k = 0; k < TRI_SMART_N; k++) {
		uint8_t id = triage_smart_ids[k];
		if ((id == 5 || id == 197 || id == 198) && a->attr[k].known && a->attr[k].v) {
			raise_to(lv, VL_WARN);
			triage_add_reason(why, wn, "SMART %u is %llu (%s)", id, (unsigned long long)a->attr[k].v,
				   id == 5 ? "reallocated sectors" : id == 197 ? "pending sectors" :
				   "offline uncorrectable");
		}
	}
	if (a->overall[0])
		strlist_addf(ev, "SMART overall: %s", a->overall);
}

enum { C_TGT, C_CTRL, C_PORT, C_MODEL, C_SERIAL, C_SOLO, C_SHARED, C_SOLO_PCT, C_SHARED_PCT,
       C_EXT, C_SLOW, C_MAXMS, C_TEMP, C_REALLOC, C_PENDING, C_VERDICT, C_REASONS, C_RESUME, N_COLS };

static const struct result_col cols[N_COLS] = {
	{ "target", "Drive", COL_STR, "", 0 },
	{ "controller", "Controller", COL_STR, "", 0 },
	{ "port", "Port", COL_STR, "", 0 },
	{ "model", "Model", COL_STR, "", 0 },
	{ "serial", "Serial", COL_STR, "", 0 },
	{ "solo_mbps", "Solo", COL_DBL, "MB/s", 1 },
	{ "shared_mbps", "Shared", COL_DBL, "MB/s", 1 },
	{ "solo_peer_pct", "Solo/peers", COL_DBL, "%", 0 },
	{ "shared_peer_pct", "Shared/peers", COL_DBL, "%", 0 },
	{ "extents", "Unreadable", COL_INT, "", 0 },
	{ "slow_ranges", "Slow ranges", COL_INT, "", 0 },
	{ "max_read_ms", "Slowest read", COL_DBL, "ms", 0 },
	{ "temp_c", "Temp", COL_DBL, "C", 0 },
	/* SMART 5 and 197 after the run: the bench history's trend over re-tests */
	{ "reallocated", "Realloc", COL_INT, "", 0 },
	{ "pending", "Pending", COL_INT, "", 0 },
	{ "verdict", "Verdict", COL_STR, "", 0 },
	{ "reasons", "Reasons", COL_STR, "", 0 },
	{ "resume_from", "Resume LBA", COL_INT, "", 0 },	/* with --write-verify on only */
};

static const char *const level_word[] = { "INFO", "PASS", "WARN", "FAIL" };

static int
triage_finish(struct bench_ctx *c, struct run_result *r)
{
	struct tri_state *S = c->state;
	const struct plan *p = c->plan;
	double slow_below = plan_param_num(p, "slow-below");
	double fast_above = plan_param_num(p, "fast-above");
	double stall_s = plan_param_num(p, "stall");
	double max_temp = plan_param_num(p, "max-temp");
	double fail_below = plan_param_num(p, "fail-below");
	if (!S->done)	/* stopped before the first step ended: nothing measured */
		for (size_t t = 0; t < PLAN_MAX_TARGETS; t++)
			S->t[t].solo = S->t[t].shared = NAN;
	triage_snapshot(p, c->targets, c->n_targets, true, S->after);
	struct result_table *tb = result_table_add(r, "triage", "Bench triage: one row per drive", cols,
							S->wv ? N_COLS : N_COLS - 1);
	if (!tb)
		return -ENOMEM;
	size_t cnt[4] = { 0 };
	char first_fail[200] = "";
	for (size_t t = 0; t < c->n_targets; t++) {
		struct tri_tgt *T = &S->t[t];
		struct tri_io *io = tri_io_of(c, (unsigned)t);
		const struct target_ident *id = &p->ident[t];
		unsigned lbs = c->targets[t].logical ? c->targets[t].logical : 512;
		size_t np_solo, np_shared, nh_solo, nh_shared;
		T->solo_pct = peer_pct(c, t, false, &np_solo, &nh_solo);
		T->shared_pct = peer_pct(c, t, true, &np_shared, &nh_shared);
		T->n_peers = (np_solo > np_shared ? np_solo : np_shared) + nh_solo;
		enum verdict_level lv = VL_PASS;
		char why[512] = "";
		struct strlist ev = { 0 };
		char line[200];
		if (io->n_ext) {
			lv = VL_FAIL;
			const struct surface_extent *x = &io->ext[0];
			triage_add_reason(why, sizeof(why), "unreadable at LBA %llu-%llu (%.3f GB)%s",
				   (unsigned long long)(x->start / lbs), (unsigned long long)((x->end - 1) / lbs),
				   (double)x->start / 1e9,
				   io->n_ext > 1 ? " and more" : "");
			if (!first_fail[0])
				snprintf(first_fail, sizeof(first_fail), "%s unreadable at LBA %llu-%llu",
					 short_name(c, t), (unsigned long long)(x->start / lbs),
					 (unsigned long long)((x->end - 1) / lbs));
			for (size_t e = 0; e < io->n_ext; e++) {
				triage_pin_line(io, e, lbs, line, sizeof(line));
				strlist_add(&ev, line);
			}
			if (triage_pin_summary(io, line, sizeof(line)))
				strlist_add(&ev, line);
			if (io->ext_lost) {
				snprintf(line, sizeof(line), "%llu more failed blocks not listed",
					 (unsigned long long)io->ext_lost);
				strlist_add(&ev, line);
			}
		}
		/* the rule that ended its job, early in the line: the verdict's text is short */
		if (T->out) {
			lv = VL_FAIL;
			triage_add_reason(why, sizeof(why), T->out_warm ? "not read: %s" : "stopped: %s", T->out_why);
			if (!first_fail[0])
				snprintf(first_fail, sizeof(first_fail), "%s stopped: %.120s", short_name(c, t),
					 T->out_why);
		}
		if (io->max_lat_ns && (double)io->max_lat_ns / 1e9 > stall_s) {
			lv = VL_FAIL;
			triage_add_reason(why, sizeof(why), "a read stalled %.1f s at LBA %llu (%.3f GB) (limit %.1f s)",
					  (double)io->max_lat_ns / 1e9, (unsigned long long)(io->max_lat_off / lbs),
					  (double)io->max_lat_off / 1e9, stall_s);
			if (!first_fail[0])
				snprintf(first_fail, sizeof(first_fail), "%s stalled %.1f s", short_name(c, t),
					 (double)io->max_lat_ns / 1e9);
		}
		/* re-read ranges count only when the re-read stays slow against
		 * the blocks beside it; the rest are said, not judged */
		size_t kept = 0, n_cf = T->n_cf;
		for (size_t k = 0; k < T->n_slow; k++) {
			struct surface_slow *w = &T->slow[k];
			double ref = isfinite(w->control_mbps) ? w->control_mbps : w->trend_mbps;
			if (k < n_cf && !(isfinite(w->confirm_mbps) && w->confirm_mbps < TRI_CF_FRACTION * ref)) {
				snprintf(line, sizeof(line), "not slow on re-reading: LBA %llu-%llu read %.1f MB/s in the "
					 "pass, %.1f re-read against %.1f beside it",
					 (unsigned long long)(w->start / lbs), (unsigned long long)((w->end - 1) / lbs),
					 w->mbps, w->confirm_mbps, ref);
				strlist_add(&ev, line);
				T->slow_found--;
				continue;
			}
			T->slow[kept++] = *w;
		}
		T->n_slow = kept;
		for (size_t k = 0; k < T->n_slow; k++) {
			const struct surface_slow *w = &T->slow[k];
			if (!k)
				triage_add_reason(why, sizeof(why), "slow range LBA %llu-%llu (%.3f-%.3f GB) at %.1f MB/s "
					   "against %.1f around it%s",
					   (unsigned long long)(w->start / lbs), (unsigned long long)((w->end - 1) / lbs),
					   (double)w->start / 1e9, (double)w->end / 1e9, w->mbps, w->trend_mbps,
					   T->slow_found > 1 ? " and more" : "");
			int o = snprintf(line, sizeof(line), "slow range: LBA %llu-%llu, %.1f MB/s against %.1f",
					 (unsigned long long)(w->start / lbs), (unsigned long long)((w->end - 1) / lbs),
					 w->mbps, w->trend_mbps);
			if (isfinite(w->confirm_mbps) && o > 0 && (size_t)o < sizeof(line))
				snprintf(line + o, sizeof(line) - (size_t)o, "; re-read %.1f against %.1f beside it",
					 w->confirm_mbps, isfinite(w->control_mbps) ? w->control_mbps : w->trend_mbps);
			else if (o > 0 && (size_t)o < sizeof(line))
				snprintf(line + o, sizeof(line) - (size_t)o, "; not re-read");
			strlist_add(&ev, line);
		}
		if (T->n_slow && lv < VL_WARN)
			lv = VL_WARN;
		const char *which[2] = { "alone", "together" };
		double pct[2] = { T->solo_pct, T->shared_pct };
		double mine[2] = { T->solo, T->shared };
		for (int k = 0; k < 2; k++) {
			if (!isfinite(pct[k]))
				continue;
			if (!k && nh_solo)
				snprintf(line, sizeof(line), "%s: %.1f MB/s, %.0f %% of its peers' median (%zu on the "
					 "bench, %zu from the bench history)", which[k], mine[k], pct[k], np_solo, nh_solo);
			else
				snprintf(line, sizeof(line), "%s: %.1f MB/s, %.0f %% of its peers' median", which[k],
					 mine[k], pct[k]);
			strlist_add(&ev, line);
			if (fail_below > 0 && pct[k] < fail_below) {
				lv = VL_FAIL;
				if (!k && T->out_slow)
					continue;	/* said by its "stopped" reason */
				triage_add_reason(why, sizeof(why), "SLOW %s: %.0f %% of its peers (%.1f MB/s) "
						  "(--fail-below %.0f %%)", which[k], pct[k], mine[k], fail_below);
			} else if (pct[k] < slow_below) {
				if (lv < VL_WARN)
					lv = VL_WARN;
				triage_add_reason(why, sizeof(why), "SLOW %s: %.0f %% of its peers (%.1f MB/s)", which[k],
					   pct[k], mine[k]);
			} else if (pct[k] > fast_above) {
				triage_add_reason(why, sizeof(why), "FAST %s: %.0f %% of its peers", which[k], pct[k]);
			}
		}
		if (!T->n_peers)
			strlist_add(&ev, "no peers (no other drive of this model or size): no peer comparison");
		smart_judge(S, t, max_temp, plan_param_str(p, "new-sectors"), &lv, why, sizeof(why), &ev);
		triage_selftest_judge(&S->before[t], &S->after[t], lbs, &lv, why, sizeof(why), &ev);
		int64_t resume = triage_wv_judge(c, t, r->interrupted, &lv, why, sizeof(why), &ev, first_fail,
						 sizeof(first_fail));
		if (io->oom)
			strlist_add(&ev, "out of memory: the slow-range search saw part of the curve");
		if (T->stopped && !T->out) {	/* a rule's stop is said once, by the rule */
			lv = VL_FAIL;
			triage_add_reason(why, sizeof(why), "its read stopped early%s%s", T->note[0] ? ": " : "", T->note);
		}
		if ((!T->scanned && !T->out) || r->interrupted) {
			raise_to(&lv, VL_WARN);
			triage_add_reason(why, sizeof(why), !r->interrupted ? "the read test did not run" : T->scanned
					  ? "the run was stopped before the end" : "the run was stopped: the read test did not finish");
		}
		cnt[lv]++;
		struct verdict *v = result_verdict(r, lv, "triage", "%s: %s%s%s", short_name(c, t), level_word[lv],
						   why[0] ? ": " : "", why);
		for (size_t e = 0; v && e < ev.n; e++)
			verdict_evidence(v, "%s", ev.v[e]);
		strlist_free(&ev);
		if (table_add_row(tb))
			return -ENOMEM;
		size_t row = tb->n_rows - 1;
		table_set_str(tb, row, C_TGT, short_name(c, t));
		if (id->controller[0])
			table_set_str(tb, row, C_CTRL, id->controller);
		if (id->port[0])
			table_set_str(tb, row, C_PORT, id->port);
		if (id->model[0])
			table_set_str(tb, row, C_MODEL, id->model);
		if (id->serial[0])
			table_set_str(tb, row, C_SERIAL, id->serial);
		table_set_dbl(tb, row, C_SOLO, T->solo);
		table_set_dbl(tb, row, C_SHARED, T->shared);
		table_set_dbl(tb, row, C_SOLO_PCT, T->solo_pct);
		table_set_dbl(tb, row, C_SHARED_PCT, T->shared_pct);
		if (T->scanned) {
			table_set_int(tb, row, C_EXT, (int64_t)(io->n_ext + io->ext_lost));
			table_set_int(tb, row, C_SLOW, (int64_t)T->slow_found);
		}
		table_set_dbl(tb, row, C_MAXMS, io->max_lat_ns ? (double)io->max_lat_ns / 1e6 : NAN);
		const struct tri_snap *sn = S->after[t].temp_known ? &S->after[t] : &S->before[t];
		table_set_dbl(tb, row, C_TEMP, sn->temp_known ? sn->temp_c : NAN);
		const struct tri_snap *sa = S->after[t].smart ? &S->after[t] : &S->before[t];
		if (sa->smart && sa->attr[0].known)	/* triage_smart_ids[0] = 5 */
			table_set_int(tb, row, C_REALLOC, (int64_t)sa->attr[0].v);
		if (sa->smart && sa->attr[4].known)	/* [4] = 197 */
			table_set_int(tb, row, C_PENDING, (int64_t)sa->attr[4].v);
		table_set_str(tb, row, C_VERDICT, level_word[lv]);
		table_set_str(tb, row, C_REASONS, why[0] ? why : "-");
		if (S->wv && resume >= 0)
			table_set_int(tb, row, C_RESUME, resume);
	}
	result_verdict(r, VL_INFO, "summary", "%zu drives: %zu pass, %zu warn, %zu fail%s%s%s", c->n_targets,
		       cnt[VL_PASS], cnt[VL_WARN], cnt[VL_FAIL], first_fail[0] ? ": " : "", first_fail,
		       r->interrupted ? " (stopped before the end)" : "");
	bench_verdict_errors(p, r);
	estimate_finish(r);	/* the array these drives would make, from their solo rates */
	for (size_t t = 0; t < c->n_targets; t++) {
		triage_snap_free(&S->before[t]);
		triage_snap_free(&S->after[t]);
		triage_snap_free(&S->tick[t]);
		free(tri_io_of(c, (unsigned)t)->pt);	/* a run stopped in the shared pass */
		tri_io_of(c, (unsigned)t)->pt = NULL;
		triage_pin_free(tri_io_of(c, (unsigned)t));
	}
	return 0;
}

const struct bench_test bench_triage = {
	.name = "triage",
	.summary = "bench triage: every drive solo then together, peers compared, one verdict each "
		   "(read-only unless --write-verify on)",
	.writes = false,
	.command = true,
	.panels = PANEL_THROUGHPUT | PANEL_LATENCY | PANEL_BOARD,
	.defaults = {
		.bs = 1 << 20, .qd = 1, .seconds = 0, .ramp_s = 0,
		.region_start = 0, .region_end = 1,
		.pattern = "seq", .data = "random", .rw_mix = 100,
	},
	.params = (const struct bench_param *const[]){ &bp_bs, &bp_qd, &bp_mode, &bp_samples, &bp_solo,
						       &bp_stall, &bp_slow, &bp_fast, &bp_temp, &bp_maxbad,
						       &bp_failbelow, &bp_newsect, &bp_tempevery, &bp_wv, &bp_from,
						       &bp_pin_budget, NULL },
	.plan = triage_plan,
	.before = triage_before,
	.on_io = triage_on_io,
	.io_state_size = sizeof(struct tri_io),
	.state_size = sizeof(struct tri_state),
	.on_step = triage_on_step,
	.on_tick = triage_on_tick,
	.finish = triage_finish,
};
