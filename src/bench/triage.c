/* triage.c - bench triage (read-only): every drive at once, one verdict per
 * drive.  Steps: a solo read sample of each drive, one at a time (its rate
 * alone), then one read pass over all drives together (quick: --samples
 * blocks evenly spaced, the default; full: every block), its rate shared.
 * The shared pass keeps each block's time and failed reads; the surface
 * test's rules (surface.h) turn them into slow ranges and unreadable
 * extents; each slow range is re-read before it counts (triage-confirm.c).
 * Peers are drives of the same model (without one, the same size); a drive
 * under --slow-below % of the median of its peers without findings, alone
 * or together, is named slow (triage-peers.c).  Verdicts: FAIL on
 * unreadable blocks or a read stalled past --stall, WARN on a slow range
 * or a slow rate against peers.
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
#include "bench/triage-int.h"

#define TRI_PTS_CAP (1u << 16)	/* curve points kept per drive; halved (merged) past that */
#define TRI_SLOW_MS_PER_MB 5.0	/* a slow range costs this much more per MB than its trend */

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
static const struct bench_param bp_nvcrit = {
	.name = "nvme-critical", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "fail|warn|off",
	.help = "an NVMe critical warning bit is set (spare, temperature, reliability, read-only, "
		"volatile backup): fail, warn or off", .bad = "one of fail, warn, off",
	.choices = sect_rules, .def = 0,
};
static const struct bench_param bp_nvspare = {
	.name = "nvme-spare", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "fail|warn|off",
	.help = "NVMe available spare below its threshold: fail, warn or off", .bad = "one of fail, warn, off",
	.choices = sect_rules, .def = 0,
};
static const struct bench_param bp_nvmedia = {
	.name = "nvme-media-errors", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "fail|warn|off",
	.help = "NVMe media errors grew during the test: fail, warn or off (any at all: warn)",
	.bad = "one of fail, warn, off", .choices = sect_rules, .def = 0,
};
static const struct bench_param bp_wear = {
	.name = "max-wear", .kind = BP_PERCENT, .bind = BIND_NONE, .arg = "PCT",
	.help = "warn of an NVMe drive whose percentage used is at least this; 0 off",
	.bad = "a percentage 0 .. 255", .min = 0, .max = 255, .def = 100,
};
static const struct bench_param bp_scdef = {
	.name = "scsi-defects", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "fail|warn|off",
	.help = "a SCSI drive's grown defect list grew during the test: fail, warn or off",
	.bad = "one of fail, warn, off", .choices = sect_rules, .def = 0,
};
static const struct bench_param bp_scmax = {
	.name = "max-grown-defects", .kind = BP_COUNT, .bind = BIND_NONE, .arg = "N",
	.help = "warn of a SCSI drive with more grown defects than this, grown today or not; 0 off",
	.bad = "a count 0 .. 1000000", .min = 0, .max = 1000000, .def = 100,
};
static const struct bench_param bp_scerr = {
	.name = "scsi-errors", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "fail|warn|off",
	.help = "a SCSI drive's uncorrected read/write/verify errors grew during the test: fail, warn or off "
		"(any at all: warn)", .bad = "one of fail, warn, off", .choices = sect_rules, .def = 0,
};
static const struct bench_param bp_scie = {
	.name = "scsi-ie", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "fail|warn|off",
	.help = "a SCSI drive raised an informational exception (failure prediction): fail, warn or off",
	.bad = "one of fail, warn, off", .choices = sect_rules, .def = 0,
};
static const char *const onoff[] = { "off", "on", NULL };
static const struct bench_param bp_hopt = {
	.name = "health-optional", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "off|on",
	.help = "on: a physical drive whose SMART or NVMe health cannot be read is no warning",
	.bad = "one of off, on", .choices = onoff, .def = 0,
};
static const struct bench_param bp_wv = {
	.name = "write-verify", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "off|on",
	.help = "on: then write a pattern and read it back (destroys data; --destroy-data=DEV each)",
	.bad = "one of off, on", .choices = onoff, .def = 0, .writes_when = "on",
};
static const struct bench_param bp_budget = {
	.name = "confirm-budget", .kind = BP_DURATION, .bind = BIND_NONE, .arg = "DURATION",
	.help = "per drive: time for re-reading its slow-range candidates (the rest: unconfirmed, not judged); 0 no limit",
	.bad = "a duration 0 .. 1h", .min = 0, .max = 3600, .def = 60,
};
static const struct bench_param bp_from = {
	.name = "from", .kind = BP_COUNT, .bind = BIND_NONE, .arg = "LBA",
	.help = "write-verify from this LBA on (resume an interrupted run)", .bad = "an LBA 0 .. 2^53",
	.min = 0, .max = 9007199254740992.0, .def = 0,
};

/* A read step's parameters: the run's own, read-only, sequential, one
 * pass (no time, ramp or size of its own). */
struct run_params
triage_read_rp(const struct plan *p)
{
	struct run_params rp = p->params;
	rp.seconds = 0;
	rp.ramp_s = 0;
	rp.size = 0;
	rp.rw_mix = 100;
	snprintf(rp.pattern, sizeof(rp.pattern), "seq");
	return rp;
}

/* A re-read's (triage-confirm.c, triage-pin.c): one block at a time,
 * neither strided nor spread. */
struct run_params
triage_reread_rp(const struct plan *p)
{
	struct run_params rp = triage_read_rp(p);
	rp.qd = 1;
	rp.stride = 0;
	rp.spread = 0;
	return rp;
}

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
	/* one block of each drive: after it, the SMART snapshot before */
	struct run_params one = triage_read_rp(p);
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
	struct run_params rp = triage_read_rp(p);
	rp.seconds = plan_param_num(p, "solo-time");
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
		if (s->phase == TP_SOLO || s->phase == TP_SHARED) {
			/* its time, left out of the rate the peer rule judges (one
			 * that ends past the measured span: clipped at the step's end) */
			int m = s->phase == TP_SHARED;
			uint64_t a = d->t_ns > d->lat_ns ? d->t_ns - d->lat_ns : 0;
			a = a > s->fail_end[m] ? a : s->fail_end[m];
			s->fail_ns[m] += d->t_ns > a ? d->t_ns - a : 0;
			s->fail_end[m] = d->t_ns > s->fail_end[m] ? d->t_ns : s->fail_end[m];
			s->fail_n[m]++;
		}
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
	if (!s->pt) {	/* add_shared could not allocate it: no allocation per I/O */
		s->oom = true;
		return;
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
	struct run_params rp = triage_read_rp(p);
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
	/* each drive's curve, allocated with its step (not on a completion);
	 * a drive without one: on_io says out of memory */
	for (unsigned k = 0; k < n; k++) {
		struct tri_io *io = tri_io_of(c, idx[k]);
		if (!io->pt)
			io->pt = malloc(TRI_PTS_CAP * sizeof(*io->pt));
	}
	st->max_consec_errors = TRI_ERR_LIMIT;
	S->kind[S->n_kind++] = TK_SHARED;
}

/* A drive whose rule ended its job, or (alone) under --fail-below % of its
 * peers, is left out of the later steps (each against the references as
 * they were before this round left any out). */
static void
mark_out(struct bench_ctx *c, bool solos_done)
{
	struct tri_state *S = c->state;
	double fb = plan_param_num(c->plan, "fail-below");
	struct known_dbl pcts[PLAN_MAX_TARGETS];
	for (size_t t = 0; t < c->n_targets; t++) {
		struct tri_ref R;
		pcts[t] = solos_done && fb > 0 && !S->t[t].out ? triage_peer_pct(c, t, 0, &R) : (struct known_dbl){ 0 };
	}
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
		double pct = pcts[t].v;	/* known: its alone rate (net[0]) is too */
		if (fb > 0 && pcts[t].known && pct < fb) {
			T->out = T->out_slow = true;
			snprintf(T->out_why, sizeof(T->out_why), "slow: alone %.0f %% of its peers' median "
				 "(%.1f MB/s) (--fail-below %.0f %%)", pct, T->net[0].v, fb);
		}
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
		if (!T->temp_peak.known || !(s->temp_c <= T->temp_peak.v))
			T->temp_peak = known_dbl_of(s->temp_c);
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
triage_on_step_reads(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr)
{
	struct tri_state *S = c->state;
	size_t i = S->done++;
	int kind = i < S->n_kind ? S->kind[i] : TK_SHARED;
	if (i == 0) {
		S->kind[0] = TK_BEFORE;
		S->n_kind = 1;
		for (size_t t = 0; t < PLAN_MAX_TARGETS; t++)
			S->t[t].solo = S->t[t].shared = S->t[t].solo_pct = S->t[t].shared_pct =
				S->t[t].temp_peak = S->t[t].net[0] = S->t[t].net[1] = (struct known_dbl){ 0 };
		for (unsigned t = 0; t < c->n_targets; t++) {	/* the solo samples' failed reads only */
			struct tri_io *io = tri_io_of(c, t);
			io->fail_n[0] = io->fail_ns[0] = io->fail_end[0] = 0;
		}
		triage_snapshot(c->plan, c->targets, c->n_targets, false, S->before);
		add_solos(c);
		if (S->n_solo)
			return;
		kind = TK_BEFORE;	/* every drive too warm: no read at all */
	}
	for (unsigned k = 0; k < st->n && k < sr->n_res; k++) {
		unsigned t = st->idx[k];
		const struct target_result *tr = &sr->res[k];
		struct known_dbl mbps = KNOWN_DBL_IF(tr->ios, tr->mbps);
		if (kind == TK_SOLO) {
			S->t[t].solo = mbps;
			triage_peer_rate(c, t, 0, tr);
			continue;
		}
		if (kind == TK_CONFIRM) {
			triage_confirm_done(c, i, t, tr);
			continue;
		}
		if (kind != TK_SHARED)
			continue;
		struct tri_tgt *T = &S->t[t];
		struct tri_io *io = tri_io_of(c, t);
		T->shared = mbps;
		triage_peer_rate(c, t, 1, tr);
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
				T->slow[w].confirm_mbps = T->slow[w].control_mbps = (struct known_dbl){ 0 };
		}
		io->n_ext = surface_merge(io->ext, io->n_ext);
		free(io->pt);
		io->pt = NULL;
	}
	if (kind == TK_WRITE || kind == TK_VERIFY)
		triage_wv_step_done(c, kind);
	if (kind == TK_SHARED) {
		triage_pin_add(c);	/* first: the re-reads of slow ranges come after it */
		S->cf_on = true;	/* its slow-range candidates are re-read next */
	}
	if (kind == TK_PIN)
		triage_pin_done(c, st);
	if (S->done < S->n_kind && S->kind[S->done] == TK_PIN && S->done < c->plan->n_steps)
		triage_pin_phase(c, &c->plan->steps[S->done]);
	mark_out(c, S->done == S->n_solo + 1 && !S->shared_added);
	if (S->done == S->n_solo + 1 && !S->shared_added) {
		add_shared(c);
		for (size_t t = 0; t < c->n_targets; t++)
			tri_io_of(c, (unsigned)t)->phase = TP_SHARED;
		if (S->n_kind > S->done)
			return;
	}
	if (S->cf_on && S->done == S->n_kind && triage_confirm_next(c))
		return;
	if (S->done == S->n_kind && S->wv && S->n_kind < TRI_MAX_STEPS)
		triage_wv_next(c);
}

static void
triage_on_step(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr)
{
	struct tri_state *S = c->state;
	if (st->own) {	/* the self-test (--self-test), the last step */
		S->done++;
		return;
	}
	triage_on_step_reads(c, st, sr);
	triage_selftest_add(c);	/* once the reads are done */
}

const struct bench_test bench_triage = {
	.name = "triage",
	.summary = "bench triage: every drive solo then together, peers compared, one verdict each "
		   "(read-only unless --write-verify on)",
	.writes = false,
	.command = true,
	.panels = PANEL_THROUGHPUT | PANEL_LATENCY | PANEL_BOARD,
	.flags = TEST_JUDGES,
	.defaults = {
		.bs = 1 << 20, .qd = 1, .seconds = 0, .ramp_s = 0,
		.region_start = 0, .region_end = 1,
		.pattern = "seq", .data = "random", .rw_mix = 100,
	},
	.params = (const struct bench_param *const[]){ &bp_bs, &bp_qd, &bp_mode, &bp_samples, &bp_solo,
						       &bp_stall, &bp_slow, &bp_fast, &bp_temp, &bp_maxbad,
						       &bp_failbelow, &bp_newsect, &bp_tempevery, &bp_wv, &bp_from,
						       &bp_budget, &bp_pin_budget, &bp_nvcrit, &bp_nvspare, &bp_nvmedia,
						       &bp_wear, &bp_scdef, &bp_scmax, &bp_scerr, &bp_scie,
						       &bp_hopt, &bp_triage_selftest, &bp_selftest_timeout,
						       &triage_bp_provenance, NULL },
	.plan = triage_plan,
	.before = triage_before,
	.on_io = triage_on_io,
	.io_state_size = sizeof(struct tri_io),
	.state_size = sizeof(struct tri_state),
	.on_step = triage_on_step,
	.on_tick = triage_on_tick,
	.run_step = triage_selftest_run,
	.finish = triage_finish,
};
