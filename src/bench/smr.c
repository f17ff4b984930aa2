/* smr.c - is this drive drive-managed SMR?  First what the inventory already
 * knows without writing (zoned bits, TRIM on rotating media, listed model
 * families: inventory/smr.c), then the measurement: sustained random writes
 * over a wide span with every gap between completions kept.  A DM-SMR drive
 * takes random writes into a media cache far faster than a head could place
 * them, until the cache is full; then it stops answering for seconds at a
 * time while it rewrites whole bands.  The stalls, their period and the bytes
 * written before the first one (the cache size) are the evidence.
 *
 * A stall is a time of at least --stall (default 500 ms) in which no I/O
 * completed; from the gaps between consecutive completions (the step's start
 * counts as one), so queue depth does not matter. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "bench/smr-int.h"
#include "inventory/inventory.h"
#include "inventory/smr.h"

#define GAP_MIN_NS 100000000ull	/* gaps kept: the shortest --stall allowed */
#define ROTATING_MAX_IOPS 400	/* random writes a 5400-7200 rpm head can place, with NCQ */
#define PRIOR_LINES 8
#define HOLE (10ull << 20)	/* the seed's "delete every other 10 MB" */
#define FILL_BS (1u << 20)
#define REWRITE_SLOW 0.5	/* rewrite below this share of the fresh rate: not a CMR drive */
/* A first stall before this much was written: no media cache is that small
 * (hundreds of MB to tens of GB), so it was not empty at the start. */
#define FULL_START_BYTES (64ull << 20)
#define CACHE_ASSUMED 32e9	/* the idle advice's media cache: the large end of DM-SMR drives */

struct smr_prior {
	bool done;
	bool host_managed;		/* the kernel reports host-managed zones */
	enum smr_verdict verdict;
	int rotating;			/* 1 yes, 0 no (solid state), -1 unknown */
	unsigned rpm;			/* 0 unknown */
	char media[48];			/* "loop device", "scratch file", "" a drive */
	char line[PRIOR_LINES][160];	/* the assessment's evidence */
	size_t n_line;
	bool trim_asked;
	int trim_rc;			/* target_trim's answer */
	uint64_t trim_len;
	/* the long phase: fill, TRIM every other hole, rewrite the holes */
	uint64_t long_start, long_len;	/* bytes; 0 no long phase */
	struct known_dbl fresh_mbps, rewrite_mbps;	/* unknown until measured */
	int holes_rc;			/* TRIM of the holes: 0 done, -errno */
	unsigned holes;
};

struct smr_state {
	struct smr_prior prior[PLAN_MAX_TARGETS];
};

static void
smr_on_io(void *state, const struct io_done *d)
{
	struct smr_io *s = state;
	if (!d->measured || s->frozen)
		return;
	if (d->t_ns > s->last_t) {
		uint64_t gap = d->t_ns - s->last_t;
		if (gap >= GAP_MIN_NS) {
			if (s->n_gaps < MAX_GAPS)
				s->gap[s->n_gaps++] = (struct smr_gap){ s->last_t, gap, s->bytes, s->ios };
			else
				s->gaps_lost++;
		}
		s->last_t = d->t_ns;
	}
	if (d->res == 0 && d->write) {
		s->bytes += d->len;
		s->ios++;
	}
}

static int
smr_plan(struct plan *p, char *err, size_t errlen)
{
	p->params.ramp_s = 0;	/* the fresh cache is part of the measurement */
	p->params.rw_mix = 0;
	snprintf(p->params.pattern, sizeof(p->params.pattern), "rand");
	p->pat = OFS_RAND;
	int rc = bench_plan_single(p, err, errlen);
	if (!rc)
		snprintf(p->steps[p->n_steps - 1].label, sizeof(p->steps[0].label), "random writes");
	return rc;
}

/* ---- what is known without writing ---- */

static void
prior_from_drive(struct smr_prior *P, const struct drive *d)
{
	const struct ata_identify *id = d->ata.state == ATA_OK ? &d->ata.id : NULL;
	P->verdict = d->smr.verdict;
	P->host_managed = !strcmp(d->zoned, "host-managed");
	for (size_t i = 0; i < d->smr.evidence.n && P->n_line < PRIOR_LINES; i++)
		snprintf(P->line[P->n_line++], sizeof(P->line[0]), "%s", d->smr.evidence.v[i]);
	if (d->transport == TR_LOOP || d->transport == TR_ZRAM) {
		snprintf(P->media, sizeof(P->media), "%s", d->transport == TR_LOOP ? "loop device"
			 : "zram device");
		P->rotating = -1;
		return;
	}
	if (d->transport == TR_VIRTIO)
		snprintf(P->media, sizeof(P->media), "virtio disk");
	if (id && id->rotation_rpm.known)
		P->rpm = (unsigned)id->rotation_rpm.v;
	else if (d->rotation_rpm.known)
		P->rpm = (unsigned)d->rotation_rpm.v;
	P->rotating = id && id->rotation_rpm.known ? id->rotation_rpm.v > 0
		      : d->rotation_rpm.known ? d->rotation_rpm.v > 0
		      : d->rotational.known && d->transport != TR_VIRTIO ? d->rotational.v != 0 : -1;
}

/* The inventory's SMR assessment of target t (read-only facts). */
static void
prior_read(struct smr_prior *P, const struct target *t)
{
	struct inventory inv = { 0 };
	P->done = true;
	P->rotating = -1;
	P->verdict = SMR_UNKNOWN;
	if (t->kind == TGT_FILE) {
		snprintf(P->media, sizeof(P->media), "scratch file");
		return;
	}
	/* the drive as its source shows it: the inventory's scan, a sim
	 * drive's model */
	const struct dev_source *src = t->facts.source;
	struct drive *d = NULL;
	int rc = src && src->drive ? src->drive(&t->facts, t->path, &inv, &d) : -ENOENT;
	if (!rc && d)
		prior_from_drive(P, d);
	else if (rc == -ENOENT && !t->facts.simulated)
		snprintf(P->line[P->n_line++], sizeof(P->line[0]), "%.100s is not in the inventory",
			 t->path);
	inventory_free(&inv);
}

/* Before any write: the inventory's facts of every target; a host-managed
 * zoned drive rejects writes off its zones' write pointers, so random
 * writes are refused there rather than counted as errors. */
static int
smr_before(struct bench_ctx *c, char *err, size_t errlen)
{
	struct smr_state *S = c->state;
	for (size_t i = 0; i < c->n_targets && i < PLAN_MAX_TARGETS; i++) {
		struct smr_prior *P = &S->prior[i];
		prior_read(P, &c->targets[i]);
		KNOWN_CLEAR(P->fresh_mbps);
		KNOWN_CLEAR(P->rewrite_mbps);
		if (P->host_managed) {
			snprintf(err, errlen, "smr: %.80s has host-managed zones: it accepts only sequential "
				 "writes at each zone's write pointer, so the random writes of this test "
				 "are refused (it is SMR by its own report)", c->targets[i].name);
			return -EPERM;
		}
	}
	return 0;
}

/* The long phase of target i, as steps of its own (its sizes are known
 * only now that it is open): a sequential fill of the span, then a strided
 * rewrite of every other 10 MB, TRIMmed in between where the device can. */
static int
long_steps(struct bench_ctx *c, unsigned i, struct smr_prior *P)
{
	struct target *t = &c->targets[i];
	uint64_t s, e;
	plan_region(c->plan, t, &s, &e);
	uint64_t want = (uint64_t)plan_param_num(c->plan, "long");
	uint64_t len = want < e - s ? want : e - s;
	len -= len % (2 * HOLE);
	uint32_t lb = t->logical ? t->logical : 512;
	if (!len || s % lb)
		return 0;
	P->long_start = s;
	P->long_len = len;
	struct run_params rp = c->plan->params;
	rp.seconds = 0;		/* one pass */
	rp.ramp_s = 0;
	rp.size = 0;
	rp.region_lba = true;
	rp.region_lba_start = s / lb;
	rp.region_lba_end = (s + len) / lb;
	rp.bs = FILL_BS;
	rp.qd = c->plan->params.qd < 8 ? c->plan->params.qd : 8;
	snprintf(rp.pattern, sizeof(rp.pattern), "seq");
	char label[48];
	snprintf(label, sizeof(label), "fill %.40s", t->name);
	int rc = plan_add_step_params(c->plan, &i, 1, &rp, label, NULL);
	if (rc)
		return rc;
	rp.bs = (uint32_t)HOLE;
	rp.qd = 1;
	rp.region_lba_start = (s + HOLE) / lb;
	rp.stride = 2 * HOLE;
	snprintf(rp.pattern, sizeof(rp.pattern), "stride");
	snprintf(label, sizeof(label), "rewrite %.38s", t->name);
	return plan_add_step_params(c->plan, &i, 1, &rp, label, NULL);
}

static void
trim_span(struct bench_ctx *c, unsigned i, struct smr_prior *P)
{
	struct target *t = &c->targets[i];
	if (strcmp(plan_param_str(c->plan, "trim"), "yes") || t->kind == TGT_FILE)
		return;	/* a scratch file is removed anyway */
	uint64_t s, e;
	plan_region(c->plan, t, &s, &e);
	P->trim_asked = true;
	P->trim_len = e - s;
	P->trim_rc = target_trim(t, s, e - s);
}

static void
smr_on_step(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr)
{
	struct smr_state *S = c->state;
	if (!c->targets)
		return;
	bool fill = !strncmp(st->label, "fill ", 5), rewrite = !strncmp(st->label, "rewrite ", 8);
	if (fill || rewrite) {
		unsigned i = st->idx[0];
		struct smr_prior *P = &S->prior[i];
		struct known_dbl mbps = KNOWN_DBL_IF(sr->n_res && sr->res[0].ios && !sr->res[0].err.count,
						     sr->res[0].mbps);
		if (fill) {
			P->fresh_mbps = mbps;
			/* "delete every other 10 MB": TRIM the holes the rewrite fills */
			P->holes_rc = 0;
			for (uint64_t o = P->long_start + HOLE; o < P->long_start + P->long_len && !P->holes_rc;
			     o += 2 * HOLE, P->holes++)
				P->holes_rc = target_trim(&c->targets[i], o, HOLE);
		} else {
			P->rewrite_mbps = mbps;
			trim_span(c, i, P);
		}
		return;
	}
	/* the random writes */
	bool want_long = plan_param_num(c->plan, "long") > 0;
	for (unsigned k = 0; k < st->n; k++) {
		unsigned i = st->idx[k];
		struct smr_prior *P = &S->prior[i];
		((struct smr_io *)((char *)c->io_state + i * sizeof(struct smr_io)))->frozen = true;
		if (!P->done)
			prior_read(P, &c->targets[i]);
		KNOWN_CLEAR(P->fresh_mbps);
		KNOWN_CLEAR(P->rewrite_mbps);
		if (want_long && long_steps(c, i, P) == 0 && P->long_len)
			continue;	/* the TRIM of the span after the rewrite */
		trim_span(c, i, P);
	}
}

/* ---- the measurement, judged ---- */

static void
figures(const struct smr_io *s, const struct target_result *tr, uint64_t thr, struct smr_fig *f)
{
	memset(f, 0, sizeof(*f));	/* period, clean_mbps, idle_min unknown */
	f->secs = tr->seconds;
	f->iops = tr->iops;
	f->mbps = tr->mbps;
	double *len = malloc((s->n_gaps + 1) * sizeof(double));
	double *per = malloc((s->n_gaps + 1) * sizeof(double));
	if (!len || !per) {
		free(len);
		free(per);
		return;
	}
	const struct smr_gap *prev = NULL;
	size_t np = 0, nl = 0;
	/* no completion from the last one to the end of the measured time:
	 * a stall under way (its I/Os complete in the drain, unmeasured) */
	double end_ns = tr->seconds * 1e9;
	f->open_end = s->ios && end_ns - (double)s->last_t >= (double)thr;
	if (f->open_end)
		f->tail = (struct smr_gap){ s->last_t, (uint64_t)(end_ns - (double)s->last_t), s->bytes, s->ios };
	for (size_t i = 0; i <= s->n_gaps; i++) {
		const struct smr_gap *g = i < s->n_gaps ? &s->gap[i] : f->open_end ? &f->tail : NULL;
		if (!g || g->len_ns < thr)
			continue;
		if (!f->first)
			f->first = g;
		if (prev)
			per[np++] = (double)(g->start_ns - prev->start_ns) / 1e9;
		f->n++;
		f->stalled_s += (double)g->len_ns / 1e9;
		if (g != &f->tail || !nl)	/* an open stall's length is only a lower bound */
			len[nl++] = (double)g->len_ns / 1e9;
		prev = g;
	}
	if (nl) {
		f->len_med = dbl_median(len, nl);
		f->len_min = len[0];
		f->len_max = len[nl - 1];
	}
	if (np) {
		f->period = known_dbl_of(dbl_median(per, np));
		size_t ok = 0;
		for (size_t i = 0; i < np; i++)
			ok += fabs(per[i] - f->period.v) <= f->period.v / 2;
		f->regular = ok * 10 >= np * 6;
	}
	if (f->first) {
		f->before_s = (double)f->first->start_ns / 1e9;
		f->cache_mb = (double)f->first->bytes_before / 1e6;
		if (f->before_s > 0) {
			f->before_iops = (double)f->first->ios_before / f->before_s;
			f->before_mbps = f->cache_mb / f->before_s;
		}
		double after = tr->seconds - f->before_s;
		if (after > 0)
			f->between_iops = (double)(s->ios - f->first->ios_before) / after;
		/* a full cache takes what its cleaning frees: the bytes written
		 * from the first stall on over the time stalled is that rate */
		f->full_start = f->first->bytes_before < FULL_START_BYTES;
		uint64_t later = s->bytes - f->first->bytes_before;
		f->clean_mbps = KNOWN_DBL_IF(f->full_start && f->stalled_s > 0 && later, later / 1e6 / f->stalled_s);
	}
	free(len);
	free(per);
}

/* How long a drive whose cache was full at the start should idle before a
 * re-test: a cache of up to CACHE_ASSUMED (or the span, when smaller)
 * drained at the measured cleaning rate, else at the run's write rate. */
static void
idle_advice(struct smr_fig *f, double span, double mbps)
{
	f->idle_rate = f->clean_mbps.known && f->clean_mbps.v > 0 ? f->clean_mbps.v : mbps;
	f->idle_cache = span > 0 && span < CACHE_ASSUMED ? span : CACHE_ASSUMED;
	f->idle_min = KNOWN_DBL_IF(f->full_start && f->idle_rate > 0, ceil(f->idle_cache / (f->idle_rate * 1e6) / 60));
}

/* Seconds as a technician reads them: 63.2, 0.42 */
static const char *
secs(char *buf, size_t n, double s)
{
	snprintf(buf, n, s < 10 ? "%.2f" : "%.1f", s);
	return buf;
}

/* 1234567 -> "1,234,567" */
static const char *
grp(char *buf, size_t n, double v)
{
	char tmp[32];
	snprintf(tmp, sizeof(tmp), "%.0f", v);
	size_t l = strlen(tmp), o = 0;
	size_t lead = tmp[0] == '-';
	for (size_t i = 0; i < l && o + 2 < n; i++) {
		buf[o++] = tmp[i];
		size_t left = l - i - 1;
		if (i >= lead && left && left % 3 == 0)
			buf[o++] = ',';
	}
	buf[o] = 0;
	return buf;
}

static void
size_text(char *buf, size_t n, uint32_t bs)
{
	if (bs % 1024 == 0)
		snprintf(buf, n, "%uK", bs / 1024);
	else
		snprintf(buf, n, "%u B", bs);
}

enum smr_call { CALL_CMR, CALL_LIKELY, CALL_CONFIRMED, CALL_UNKNOWN, CALL_NA };

static const char *const call_name[] = { "CMR", "DM-SMR likely", "DM-SMR confirmed", "unknown",
					  "SMR does not apply" };

/* The long phase ran and rewriting the holes was much slower than the fill. */
static bool
slow_rewrite(const struct smr_prior *P)
{
	return P->long_len && P->fresh_mbps.known && P->fresh_mbps.v > 0 && P->rewrite_mbps.known &&
	       P->rewrite_mbps.v >= 0 && P->rewrite_mbps.v < REWRITE_SLOW * P->fresh_mbps.v;
}

static enum smr_call
judge(const struct smr_prior *P, const struct smr_fig *f, enum verdict_level *lv)
{
	bool listed = P->verdict == SMR_LIKELY || P->verdict == SMR_ZONED;
	bool fast = f->before_iops > ROTATING_MAX_IOPS;
	*lv = VL_INFO;
	if (P->rotating == 0)
		return CALL_NA;
	if (f->n) {
		/* faster than a head, then stall after stall: only a cache in
		 * front of the media does that (one stall may be anything) */
		*lv = VL_WARN;
		if (f->n >= 2 && ((P->rotating == 1 && fast) || (listed && f->regular)))
			return CALL_CONFIRMED;
		return CALL_LIKELY;
	}
	if (listed || slow_rewrite(P)) {
		*lv = VL_WARN;
		return CALL_LIKELY;
	}
	if (P->media[0] && P->rotating != 1)
		return CALL_UNKNOWN;	/* no stalls, but nothing to say of the media */
	if (f->iops > ROTATING_MAX_IOPS) {
		if (P->rotating == 1) {
			*lv = VL_WARN;
			return CALL_LIKELY;	/* more than a head can place: a cache not yet full */
		}
		return CALL_UNKNOWN;
	}
	if (P->rotating == 1 || P->verdict == SMR_UNLIKELY) {
		*lv = VL_PASS;
		return CALL_CMR;
	}
	return CALL_UNKNOWN;
}

/* The measurement in one sentence: the rate until the first stall, the
 * stalls, and the media cache (or that it was not empty at the start). */
static void
what_text(char *what, size_t n, const struct smr_fig *f, const struct target_result *tr, const char *bs)
{
	char a[32], b[32], c[32], s1[16], s2[16], s3[16], cache[112];
	if (f->full_start && f->idle_min.known)
		snprintf(cache, sizeof(cache), "the media cache was not empty at the start: idle the drive "
			 "~%.0f min, then re-test to measure it", f->idle_min.v);
	else if (f->full_start)
		snprintf(cache, sizeof(cache), "the media cache was not empty at the start: idle the drive, "
			 "then re-test to measure it");
	else
		snprintf(cache, sizeof(cache), "media cache ~%s MB", grp(b, sizeof(b), f->cache_mb));
	char head[96];	/* what came before the first stall */
	if (f->full_start)
		snprintf(head, sizeof(head), "%s random writes stalled after %s MB:", bs, grp(a, sizeof(a), f->cache_mb));
	else
		snprintf(head, sizeof(head), "%s random writes at %s IOPS for %s s, then", bs,
			 grp(a, sizeof(a), f->before_iops), secs(s1, sizeof(s1), f->before_s));
	if (f->n >= 2)
		snprintf(what, n, "%s a %s s stall every %s s; %s", head, secs(s2, sizeof(s2), f->len_med),
			 secs(s3, sizeof(s3), f->period.v), cache);	/* 2 stalls or more: known */
	else if (f->n == 1)
		snprintf(what, n, "%s a stall of %s%s s%s; %s", head, f->open_end ? "at least " : "",
			 secs(s2, sizeof(s2), f->len_med), f->open_end ? " (under way at the end)" : "", cache);
	else
		snprintf(what, n, "no stalls in %s s of %s random writes (%s IOPS, %s MB written)",
			 f->secs >= 10 ? grp(c, sizeof(c), f->secs) : secs(s1, sizeof(s1), f->secs), bs, grp(a, sizeof(a), f->iops), grp(b, sizeof(b), tr->bytes / 1e6));
}

/* What the bytes before the first stall say of the media cache. */
static void
cache_evidence(struct verdict *v, const struct smr_fig *f)
{
	char a[32], b[32];
	if (f->first && f->full_start) {
		verdict_evidence(v, "%s MB written before the first stall, under %llu MB: the media cache was "
				 "not empty at the start (a write run just before filled it); its size is not "
				 "measured", grp(a, sizeof(a), f->cache_mb), FULL_START_BYTES >> 20);
		if (f->idle_min.known)
			verdict_evidence(v, "idle ~%.0f min (no writes) before re-testing: a media cache of up to "
					 "%.1f GB (assumed) cleaned at %.1f MB/s (%s)", f->idle_min.v,
					 f->idle_cache / 1e9, f->idle_rate, f->clean_mbps.known && f->clean_mbps.v > 0
					 ? "written per second stalled, from the first stall on"
					 : "this run's write rate");
	} else if (f->first) {
		verdict_evidence(v, "%s MB written before the first stall (the media-cache estimate), "
				 "%s IOPS = %.1f MB/s", grp(a, sizeof(a), f->cache_mb),
				 grp(b, sizeof(b), f->before_iops), f->before_mbps);
	}
}

static void
verdict_one(struct run_result *r, const struct plan *p, const struct target *t,
	    const struct smr_prior *P, const struct smr_fig *f, const struct target_result *tr,
	    double thr_s)
{
	char c[32], bs[16], s1[16], s3[16];
	size_text(bs, sizeof(bs), p->params.bs);
	enum verdict_level lv;
	enum smr_call call = judge(P, f, &lv);
	char what[280];
	what_text(what, sizeof(what), f, tr, bs);
	struct verdict *v;
	const char *name = tr->target;
	switch (call) {
	case CALL_CONFIRMED:
		v = result_verdict(r, lv, "smr", "%s: DM-SMR confirmed, keep it out of a ZFS/RAID pool: %s",
				   name, what);
		break;
	case CALL_LIKELY:
		if (f->n == 0 && slow_rewrite(P))
			v = result_verdict(r, lv, "smr", "%s: DM-SMR likely, keep it out of a ZFS/RAID pool: "
					   "%s, but rewriting 10 MB holes ran at %.0f MB/s against %.0f MB/s "
					   "fresh", name, what, P->rewrite_mbps.v, P->fresh_mbps.v);
		else if (f->n == 0 && (P->verdict == SMR_LIKELY || P->verdict == SMR_ZONED))
			v = result_verdict(r, lv, "smr", "%s: DM-SMR likely, keep it out of a ZFS/RAID pool: "
					   "listed, not measured (%s; the media cache was not filled, run "
					   "longer)", name, what);
		else if (f->n == 0)
			v = result_verdict(r, lv, "smr", "%s: DM-SMR likely: %s, more than a rotating drive "
					   "can place (the media cache was not filled, run longer)", name, what);
		else
			v = result_verdict(r, lv, "smr", "%s: DM-SMR likely, keep it out of a ZFS/RAID pool: "
					   "%s%s%s", name, what, P->media[0] ? "; a " : "", P->media);
		break;
	case CALL_CMR:
		v = result_verdict(r, lv, "smr", "%s: CMR: %s, what a rotating drive does", name, what);
		break;
	case CALL_NA:
		v = result_verdict(r, lv, "smr", "%s: %s; not rotating: SMR does not apply", name, what);
		break;
	default:
		v = result_verdict(r, lv, "smr", "%s: unknown: %s%s%s: DM-SMR neither shown nor ruled out",
				   name, what, P->media[0] ? "; a " : "",
				   P->media[0] ? P->media : "; the media is not known");
		break;
	}
	if (!v)
		return;
	if (r->interrupted)
		verdict_evidence(v, "interrupted: what was measured in %s s", secs(s1, sizeof(s1), f->secs));
	for (size_t i = 0; i < P->n_line; i++)
		verdict_evidence(v, "inventory, SMR %s: %s", smr_verdict_name(P->verdict), P->line[i]);
	if (P->rpm)
		verdict_evidence(v, "%u rpm: a head places at most ~%d random writes/s", P->rpm,
				 ROTATING_MAX_IOPS);
	if (f->n)
		verdict_evidence(v, "%zu stall%s (no completion for >= %.0f ms): %.2f-%.2f s, median %.2f s; "
				 "%.1f s of %.1f s stalled", f->n, f->n == 1 ? "" : "s", thr_s * 1e3,
				 f->len_min, f->len_max, f->len_med, f->stalled_s, f->secs);
	if (f->n >= 2)
		verdict_evidence(v, "stalls every %s s (median between starts)%s", secs(s3, sizeof(s3), f->period.v),
				 f->regular ? ", regular" : ", irregular");
	cache_evidence(v, f);
	if (f->first && f->n >= 2)
		verdict_evidence(v, "from the first stall on: %s IOPS, stalls included",
				 grp(c, sizeof(c), f->between_iops));
	if (tr->lat.known)
		verdict_evidence(v, "latency p99 %.1f ms, p99.9 %.1f ms, max %.1f ms", tr->lat.p99 / 1e3,
				 tr->lat.p999 / 1e3, tr->lat.max / 1e3);
	uint64_t s = 0, e = 0;
	if (t) {
		plan_region(p, t, &s, &e);
		uint32_t lb = t->logical ? t->logical : 512;
		verdict_evidence(v, "span: LBA %llu-%llu (%.1f-%.1f GB), random %s writes at qd %u",
				 (unsigned long long)(s / lb), (unsigned long long)(e / lb - 1), s / 1e9,
				 e / 1e9, bs, p->params.qd);
	}
	if (P->long_len && t && !(P->fresh_mbps.known && P->rewrite_mbps.known)) {
		verdict_evidence(v, "long phase: %s", r->interrupted ? "interrupted before it was measured"
				 : "not measured (a step failed or moved no data)");
	} else if (P->long_len && t) {
		uint32_t lb = t->logical ? t->logical : 512;
		char holes[96];
		if (!P->holes_rc)
			snprintf(holes, sizeof(holes), "every other 10 MB trimmed (%u holes)", P->holes);
		else
			snprintf(holes, sizeof(holes), "holes not trimmed (%s): rewritten as written",
				 P->holes_rc == -EOPNOTSUPP ? "no TRIM" : strerror(-P->holes_rc));
		verdict_evidence(v, "long phase over LBA %llu-%llu (%.1f GB): sequential fill at %.1f MB/s; "
				 "%s; rewriting them at %.1f MB/s = %.2fx the fresh rate",
				 (unsigned long long)(P->long_start / lb),
				 (unsigned long long)((P->long_start + P->long_len) / lb - 1), P->long_len / 1e9,
				 P->fresh_mbps.v, holes, P->rewrite_mbps.v, P->rewrite_mbps.v / P->fresh_mbps.v);
	}
	if (P->trim_asked) {
		if (!P->trim_rc)
			verdict_evidence(v, "TRIM of the tested span (%.1f GB): done", P->trim_len / 1e9);
		else
			verdict_evidence(v, "TRIM of the tested span: %s", P->trim_rc == -EOPNOTSUPP
					 ? "the device does not support it" : strerror(-P->trim_rc));
	} else if (t && t->kind != TGT_FILE) {
		verdict_evidence(v, "the span was not trimmed (--trim yes frees it where the device "
				 "supports TRIM)");
	}
}

static int
smr_finish(struct bench_ctx *c, struct run_result *r)
{
	const struct plan *p = c->plan;
	struct smr_state *S = c->state;
	struct known_dbl thr_k = plan_param_known(p, "stall");
	double thr_s = thr_k.known && isfinite(thr_k.v) ? thr_k.v : 0.5;
	uint64_t thr = (uint64_t)(thr_s * 1e9);
	const struct step_result *sr = r->n_steps ? &r->steps[0] : NULL;
	if (!sr || sr->failed || !sr->n_res) {
		result_verdict(r, VL_INFO, "smr", "unknown: the random writes did not run, nothing measured");
		bench_verdict_errors(p, r);
		return 0;
	}
	size_t n = sr->n_res;
	const struct plan_step *st = &p->steps[0];
	struct smr_fig *fig = calloc(n, sizeof(*fig));
	const struct smr_io **io = calloc(n, sizeof(*io));
	const char **call = calloc(n, sizeof(*call));
	if (!fig || !io || !call) {
		free(fig);
		free(io);
		free((void *)call);
		return -ENOMEM;
	}
	for (size_t k = 0; k < n && k < st->n; k++) {
		unsigned i = st->idx[k];
		const struct target *t = c->targets ? &c->targets[i] : NULL;
		struct smr_prior *P = &S->prior[i];
		if (!P->done && t) {
			prior_read(P, t);	/* the step ended before on_step ran */
		} else if (!P->done) {
			P->rotating = -1;	/* no target to ask (a result judged afterwards) */
			KNOWN_CLEAR(P->fresh_mbps);
			KNOWN_CLEAR(P->rewrite_mbps);
		}
		io[k] = (const struct smr_io *)((const char *)c->io_state + i * sizeof(struct smr_io));
		const struct target_result *tr = &sr->res[k];
		figures(io[k], tr, thr, &fig[k]);
		uint64_t s0 = 0, s1 = 0;
		if (t)
			plan_region(p, t, &s0, &s1);
		idle_advice(&fig[k], (double)(s1 - s0), tr->mbps);
		enum verdict_level lv;
		call[k] = call_name[judge(P, &fig[k], &lv)];
		if (!tr->ios) {
			result_verdict(r, VL_INFO, "smr", "%s: unknown: no write completed, nothing measured",
				       tr->target);
			continue;
		}
		verdict_one(r, p, t, P, &fig[k], tr, thr / 1e9);
		if (io[k]->gaps_lost)
			strlist_addf(&r->notes, "%s: more than %d pauses of 100 ms+: the later ones are "
				     "counted in the latency figures only", tr->target, MAX_GAPS);
	}
	smr_add_tables(r, fig, io, call, n < st->n ? n : st->n, sr, thr);
	free(fig);
	free(io);
	free((void *)call);
	bench_verdict_errors(p, r);
	return 0;
}

static const struct bench_param bp_smr_bs = {
	.name = "bs", .kind = BP_SIZE, .bind = BIND_BS, .arg = "SIZE",
	.help = "write size, 4k .. 64k", .bad = "write size must be 4k .. 64k in multiples of 4k",
	.min = 4096, .max = 65536, .multiple = 4096,
};

static const struct bench_param bp_stall = {
	.name = "stall", .kind = BP_DURATION, .bind = BIND_NONE, .arg = "DURATION",
	.help = "a stall: no completion for this long",
	.bad = "a duration of 100ms .. 60s (e.g. 500ms, 1s)",
	.min = 0.1, .max = 60, .def = 0.5,
};

static const struct bench_param bp_long = {
	.name = "long", .kind = BP_SIZE, .bind = BIND_NONE, .arg = "SIZE",
	.help = "then fill SIZE, TRIM every other 10 MB, rewrite those (0: off)",
	.bad = "a size (0, 8G, 500M)", .min = 0, .max = 1e18, .def = 0,
};

static const char *const yes_no[] = { "no", "yes", NULL };
static const struct bench_param bp_trim = {
	.name = "trim", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "no|yes",
	.help = "TRIM the tested span afterwards where the device supports it",
	.bad = "yes or no", .choices = yes_no, .def = 0,
};

const struct bench_test bench_smr = {
	.name = "smr",
	.summary = "drive-managed SMR probe: random writes, media-cache stalls",
	.writes = true,
	.defaults = {
		.bs = 65536, .qd = 32, .seconds = 120, .ramp_s = 0,
		.region_start = 0, .region_end = 1,
		.pattern = "rand", .data = "random", .rw_mix = 0,
	},
	.panels = PANEL_THROUGHPUT | PANEL_LATENCY | PANEL_STALLS,
	.flags = TEST_SMR_PROBE,
	.params = (const struct bench_param *const[]){ &bp_smr_bs, &bp_qd, &bp_time, &bp_stall,
						      &bp_long, &bp_trim, &bp_data, NULL },
	.plan = smr_plan,
	.before = smr_before,
	.on_io = smr_on_io,
	.io_state_size = sizeof(struct smr_io),
	.state_size = sizeof(struct smr_state),
	.on_step = smr_on_step,
	.finish = smr_finish,
};
