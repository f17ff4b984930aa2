/* align.c - the alignment probe (phybs's method, FIELD-NOTES.md): for every
 * size from the logical sector up to 8x the suspected physical sector, one
 * row per offset 0..size in logical-sector steps; each row is a strided pass
 * (I/O k at offset + k * 4 * size, QD1) for a time (a fast device then
 * averages thousands of I/Os per row, not a few milliseconds of noise) or a
 * fixed count.
 * The verdict is the physical sector size the device behaves as: the
 * smallest P (and phase) for which rows whose size and offset are multiples
 * of P run clearly faster than the others of their size; then what the
 * device reports, and where its partitions start.  Writes by default (a
 * read-modify-write shows only on writes); --rw read never writes. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "util/util.h"

#define ALIGN_MAX_ROWS 1024
#define ALIGN_MAX_SIZE (1u << 20)
#define ALIGN_MAX_PARTS 16
#define FACTOR 1.4		/* at size P the aligned row at least this much faster */
#define RAMP_S 0.02		/* per row, excluded */
#define FAST_A 0.75		/* share of aligned rows that must be fast */
#define SLOW_U 0.8		/* share of unaligned rows that must not be (noise aside) */

static const char *const rw_choices[] = { "write", "read", NULL };
static const struct bench_param ap_rw = {
	.name = "rw", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "write|read",
	.help = "write (finds read-modify-write; guarded) or read (never writes)",
	.bad = "write or read", .choices = rw_choices, .def = 0,
};
static const struct bench_param ap_count = {
	.name = "count", .kind = BP_COUNT, .bind = BIND_NONE, .arg = "N",
	.help = "I/Os per row, at most (0: as many as --row-time allows)",
	.bad = "a count 0 .. 100000000", .min = 0, .max = 1e8, .def = 0,
};
static const struct bench_param ap_row_time = {
	.name = "row-time", .kind = BP_DURATION, .bind = BIND_NONE, .arg = "DURATION",
	.help = "time per row (0: no limit, --count decides)",
	.bad = "a duration (1, 250ms; 0 = no limit)", .min = 0, .max = 3600, .def = 0.25,
};
static const struct bench_param ap_max = {
	.name = "max", .kind = BP_SIZE, .bind = BIND_NONE, .arg = "SIZE",
	.help = "largest size tried (0: 8x the suspected physical sector)",
	.bad = "0 or a size up to 1M in multiples of 512", .min = 0, .max = ALIGN_MAX_SIZE,
	.multiple = 512, .def = 0,
};

/* ---- what a target reports ---- */

struct part {
	unsigned num;
	uint64_t start;			/* 512-byte units, as sysfs says */
	bool aoff_known;
	int64_t aoff;
};

struct facts {
	uint32_t logical;		/* 0 unknown */
	uint32_t physical;		/* 0 unknown */
	bool aoff_known;
	int64_t aoff;			/* alignment offset, bytes (-1: the kernel says misaligned) */
	const char *source;		/* "IDENTIFY", "sysfs", "" */
	bool file;			/* a scratch file: the filesystem places its blocks */
	bool is_part;
	struct part parts[ALIGN_MAX_PARTS];
	size_t n_parts;
};

static bool
sys_u64(const char *dir, const char *name, uint64_t *v)
{
	char p[600];
	return !pathf(p, sizeof(p), "%s/%s", dir, name) && !read_u64(p, v);
}

static bool
sys_s64(const char *dir, const char *name, int64_t *v)
{
	char p[600], b[32];
	if (pathf(p, sizeof(p), "%s/%s", dir, name) || read_text(p, b, sizeof(b)))
		return false;
	char *e;
	*v = strtoll(b, &e, 10);
	return e != b;
}

static int
part_cmp(const void *a, const void *b)
{
	const struct part *x = a, *y = b;
	return (x->num > y->num) - (x->num < y->num);
}

/* Where the partitions of a whole disk start (sysdir: its sysfs directory). */
static void
facts_parts(const char *sysdir, struct facts *f)
{
	uint64_t v;
	DIR *d = opendir(sysdir);
	struct dirent *e;
	while (d && (e = readdir(d)) && f->n_parts < ALIGN_MAX_PARTS) {
		char sub[PATH_MAX + 300];
		struct part *p = &f->parts[f->n_parts];
		if (e->d_name[0] == '.' || pathf(sub, sizeof(sub), "%s/%s", sysdir, e->d_name))
			continue;
		if (!sys_u64(sub, "partition", &v) || !sys_u64(sub, "start", &p->start))
			continue;
		p->num = (unsigned)v;
		p->aoff_known = sys_s64(sub, "alignment_offset", &p->aoff);
		f->n_parts++;
	}
	if (d)
		closedir(d);
	qsort(f->parts, f->n_parts, sizeof(*f->parts), part_cmp);
}

/* What the target reports, from its device facts: sysfs for a block
 * device (IDENTIFY's sector sizes when the inventory has them), the model's
 * IDENTIFY for a sim drive, little for a scratch file.  The opened target's
 * facts when the run has them, else read by name. */
static void
facts_read(const struct bench_ctx *c, size_t ti, const struct target_ident *id, struct facts *f)
{
	struct dev_facts own;
	const struct dev_facts *df = &own;
	char err[256];
	memset(f, 0, sizeof(*f));
	f->source = "";
	if (c->targets && ti < c->n_targets)
		df = &c->targets[ti].facts;
	else if (target_facts(c->plan->targets.v[ti], NULL, &own, err, sizeof(err)))
		own.kind = DEV_FILE;	/* not a device we can name: nothing reported */
	if (df->kind == DEV_FILE) {
		f->file = true;
		return;
	}
	f->logical = df->logical.known ? (uint32_t)df->logical.v : 0;
	f->physical = df->physical.known ? (uint32_t)df->physical.v : 0;
	f->aoff_known = df->alignment_offset.known;
	f->aoff = df->alignment_offset.v;
	if (df->simulated) {
		f->source = df->sector_source;
		return;
	}
	f->is_part = df->kind == DEV_PARTITION;
	if (df->sysdir[0]) {
		f->source = "sysfs";
		if (!f->is_part)
			facts_parts(df->sysdir, f);
	}
	if (id && id->logical.known && id->physical.known && !strcmp(id->sector_source, "identify")) {
		f->logical = (uint32_t)id->logical.v;
		f->physical = (uint32_t)id->physical.v;
		f->source = "IDENTIFY";
	}
}

/* ---- the plan ---- */

static int
align_plan(struct plan *p, char *err, size_t errlen)
{
	if (!p->targets.n) {
		snprintf(err, errlen, "align: no target given");
		return -EINVAL;
	}
	if (p->targets.n > PLAN_MAX_TARGETS) {
		snprintf(err, errlen, "align: too many targets (%zu, at most %d)", p->targets.n, PLAN_MAX_TARGETS);
		return -E2BIG;
	}
	bool reads = !strcmp(plan_param_str(p, "rw"), "read");
	uint64_t count = (uint64_t)plan_param_num(p, "count");
	double row_s = plan_param_num(p, "row-time");
	uint32_t maxsz = (uint32_t)plan_param_num(p, "max");
	if (!count && row_s <= 0) {
		snprintf(err, errlen, "align: --count 0 needs a --row-time above 0 (a row must end)");
		return -EINVAL;
	}
	/* The read variant opens read-only: no guard, no confirmation. */
	p->topts.write = !reads;
	p->params.rw_mix = reads ? 100 : 0;
	/* Sector sizes decide the rows (a 4096-byte logical device has no 512-byte
	 * offsets): a short read-only look at every target. */
	uint32_t step = 0, lbs = 0, suspect = 4096;
	uint64_t min_size = UINT64_MAX;
	for (size_t i = 0; i < p->targets.n; i++) {
		struct target t;
		struct target_opts o = { .write = false, .defer_fill = true, .file_size = 1u << 20,
					.sim_seed = p->params.seed };
		char e[256] = "";
		int rc = target_open(&t, p->targets.v[i], &o, e, sizeof(e));
		if (rc) {
			snprintf(err, errlen, "%s", e[0] ? e : strerror(-rc));
			return rc;
		}
		uint32_t a = t.offset_align > t.logical ? t.offset_align : t.logical;
		if (lbs && t.logical != lbs) {
			snprintf(err, errlen, "align: the targets have different logical sectors (%u and %u bytes): "
				 "test them one at a time", lbs, t.logical);
			target_close(&t);
			return -EINVAL;
		}
		lbs = t.logical;
		step = a > step ? a : step;
		if (t.physical > suspect && t.kind != TGT_FILE)
			suspect = t.physical;
		if (t.kind != TGT_FILE && t.size < min_size)
			min_size = t.size;
		target_close(&t);
	}
	if (step > suspect)
		suspect = step;
	if (!maxsz)
		maxsz = 8 * suspect > ALIGN_MAX_SIZE ? ALIGN_MAX_SIZE : 8 * suspect;
	if (maxsz < step) {
		snprintf(err, errlen, "align: --max %u is below the %u-byte logical sector", maxsz, step);
		return -EINVAL;
	}
	/* where the rows start: --region in LBAs as given; a percentage of the
	 * smallest target, down to a MiB */
	uint64_t base = 0, end = 0;
	if (p->region_lba) {
		base = p->region_lba_start;
		end = p->region_lba_end;
	} else if (min_size != UINT64_MAX) {
		uint64_t s = (uint64_t)(p->params.region_start * (double)min_size) >> 20 << 20;
		uint64_t e = (uint64_t)(p->params.region_end * (double)min_size) >> 20 << 20;
		base = s / lbs;
		end = p->params.region_end < 1 && e > s ? e / lbs : 0;
	}
	if ((base * lbs) % step) {
		snprintf(err, errlen, "align: --region starts at LBA %llu, not on a %u-byte boundary the device can take",
			 (unsigned long long)base, step);
		return -EINVAL;
	}
	size_t rows = 0;
	for (uint64_t sz = step; sz <= maxsz; sz *= 2)
		rows += sz / step;
	if (rows > ALIGN_MAX_ROWS) {
		snprintf(err, errlen, "align: %zu rows (sizes %u .. %u in %u-byte offsets): lower --max", rows,
			 step, maxsz, step);
		return -E2BIG;
	}
	for (uint64_t sz = step; sz <= maxsz; sz *= 2)
		for (uint64_t off = 0; off < sz; off += step) {
			struct run_params rp = p->params;
			char label[48];
			rp.bs = (uint32_t)sz;
			rp.qd = 1;
			/* a short warm-up: the seek back from the last row is not the row's */
			rp.ramp_s = row_s > 0 && row_s < 4 * RAMP_S ? row_s / 4 : RAMP_S;
			rp.seconds = row_s;
			rp.size = count * sz;
			snprintf(rp.pattern, sizeof(rp.pattern), "stride");
			rp.stride = 4 * sz;		/* phybs: three blocks between two I/Os */
			rp.rw_mix = reads ? 100 : 0;
			rp.region_lba = true;
			rp.region_lba_start = base + off / lbs;
			rp.region_lba_end = end;
			snprintf(label, sizeof(label), "%llu at +%llu", (unsigned long long)sz,
				 (unsigned long long)off);
			int rc = plan_add_step_params(p, NULL, (unsigned)p->targets.n, &rp, label, NULL);
			if (rc)
				return rc;
		}
	/* the result's parameters say what a row was */
	p->params.bs = step;
	p->params.qd = 1;
	p->params.seconds = row_s;
	p->params.size = count * step;
	p->params.stride = 4 * step;
	snprintf(p->params.pattern, sizeof(p->params.pattern), "stride");
	return 0;
}

/* ---- the verdict ---- */

struct row {
	uint32_t size;
	uint64_t off, abs;		/* from the first row; from the start of the target */
	struct known_dbl tps;		/* unknown: not measured */
};

struct fit {
	uint32_t P, phase;
	struct known_dbl ratio;		/* at size P: the aligned row over the unaligned median */
	double fast_a, slow_u;		/* over every size >= P: shares that fit */
	size_t n_a;
};

static bool
on_grid(uint64_t abs, uint32_t P, uint32_t phase)
{
	return (abs + P - phase % P) % P == 0;
}

static bool
aligned(const struct row *r, uint32_t P, uint32_t phase)
{
	return r->size % P == 0 && on_grid(r->abs, P, phase);
}

/* The rows of one size: tps normalised by the median of those not aligned
 * to (P, phase); *noise the threshold a row must pass to count as fast
 * (5 %, or three times the spread of the unaligned rows when they scatter). */
static size_t
size_norm(const struct row *rw, size_t n, uint32_t S, uint32_t P, uint32_t phase, double *v,
	  bool *al, double *noise)
{
	size_t k = 0, nu = 0;
	for (size_t i = 0; i < n; i++)
		if (rw[i].size == S && rw[i].tps.known && !aligned(&rw[i], P, phase))
			v[nu++] = rw[i].tps.v;
	double base = dbl_median(v, nu);
	if (!(base > 0))
		return 0;
	for (size_t i = 0; i < nu; i++)
		v[i] = fabs(v[i] / base - 1);
	double mad = dbl_median(v, nu);
	*noise = fmax(0.05, 3 * mad);
	for (size_t i = 0; i < n; i++)
		if (rw[i].size == S && rw[i].tps.known) {
			al[k] = aligned(&rw[i], P, phase);
			v[k++] = rw[i].tps.v / base;
		}
	return k;
}

/* Does "physical sector P at phase" explain the rows?  At size P the
 * aligned row must be FACTOR faster than the others; from P to 4P most
 * aligned rows must stand out of the noise and, at every size, almost no
 * unaligned one; above 4P (where a read-modify-write costs relatively
 * little) aligned rows must at least not be slower; and rows aligned to P/2
 * only must be slow, or P/2 (or no sector at all) explains them as well. */
static bool
fit_try(const struct row *rw, size_t n, uint32_t P, uint32_t phase, struct fit *f)
{
	double *v = malloc(n * sizeof(*v)), *ua = malloc(n * sizeof(*ua));
	bool *al = malloc(n * sizeof(*al));
	size_t na = 0, fa = 0, nu = 0, su = 0, nh = 0, fh = 0;
	bool slower = false;
	*f = (struct fit){ .P = P, .phase = phase };
	bool ok = v && al && ua;
	for (uint32_t S = P; ok; S *= 2) {
		double noise;
		size_t any = 0, nsa = 0;
		for (size_t i = 0; i < n; i++)
			any += rw[i].size == S;
		if (!any)
			break;
		size_t k = size_norm(rw, n, S, P, phase, v, al, &noise);
		size_t j = 0;
		for (size_t i = 0; i < n && j < k; i++) {
			if (rw[i].size != S || !rw[i].tps.known)
				continue;
			bool fast = v[j] >= 1 + noise;
			if (al[j]) {
				ua[nsa++] = v[j];
				if (S <= 4 * P) {
					na++;
					fa += fast;
				}
				if (S == P)
					f->ratio = known_dbl_of(v[j]);
			} else {
				nu++;
				su += !fast;
				if (on_grid(rw[i].abs, P / 2, phase)) {
					nh++;
					fh += fast;
				}
			}
			j++;
		}
		if (S > 4 * P && nsa && dbl_median(ua, nsa) < 1)
			slower = true;
	}
	free(v);
	free(ua);
	free(al);
	if (!ok || na < 4 || !nu || slower)
		return false;
	f->n_a = na;
	f->fast_a = (double)fa / (double)na;
	f->slow_u = (double)su / (double)nu;
	return f->ratio.known && f->ratio.v >= FACTOR && f->fast_a >= FAST_A && f->slow_u >= SLOW_U && (!nh || 2 * fh < nh);
}

/* The smallest P that explains the rows, its best phase; false: none.
 * P goes up to a quarter of the largest size, so that sizes P, 2P and 4P
 * give at least 7 aligned rows to judge it by. */
static bool
fit_find(const struct row *rw, size_t n, uint32_t L, uint32_t maxsz, struct fit *best)
{
	for (uint32_t P = 2 * L; P <= maxsz / 4; P *= 2) {
		bool found = false;
		for (uint32_t ph = 0; ph < P; ph += L) {
			struct fit f;
			if (fit_try(rw, n, P, ph, &f) && (!found || f.ratio.v > best->ratio.v)) {
				*best = f;
				found = true;
			}
		}
		if (found)
			return true;
	}
	return false;
}

static void
mean_tps(const struct row *rw, size_t n, bool (*pick)(const struct row *, const void *), const void *arg,
	 struct known_dbl *mean, double *lo, double *hi)
{
	double s = 0;
	size_t k = 0;
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < n; i++)
		if (rw[i].tps.known && pick(&rw[i], arg)) {
			s += rw[i].tps.v;
			k++;
			*lo = fmin(*lo, rw[i].tps.v);
			*hi = fmax(*hi, rw[i].tps.v);
		}
	*mean = KNOWN_DBL_IF(k, s / (double)k);
}

struct pick_arg {
	const struct fit *f;
	uint32_t size;
	int want;			/* 1 aligned, 0 unaligned, -1 smaller than P */
};

static bool
pick(const struct row *r, const void *arg)
{
	const struct pick_arg *a = arg;
	if (a->want < 0)
		return r->size < a->f->P;
	return r->size == a->size && aligned(r, a->f->P, a->f->phase) == (a->want == 1);
}

static void
size_text(char *b, size_t n, uint64_t v)
{
	if (v >= 1024 && v % 1024 == 0)
		snprintf(b, n, "%llu KiB", (unsigned long long)(v >> 10));
	else
		snprintf(b, n, "%llu bytes", (unsigned long long)v);
}

static void
range_text(char *b, size_t n, double mean, double lo, double hi)
{
	if (hi - lo < 0.5)
		snprintf(b, n, "%.0f tps", mean);
	else
		snprintf(b, n, "%.0f tps (%.0f-%.0f)", mean, lo, hi);
}

/* Each partition's start against the sector size the device uses. */
static void
partitions_verdict(struct run_result *r, const char *name, const struct facts *f, uint32_t P,
		   uint32_t phase, const char *why)
{
	uint32_t lb = f->logical ? f->logical : 512;
	for (size_t i = 0; i < f->n_parts; i++) {
		const struct part *p = &f->parts[i];
		uint64_t byte = p->start * 512;
		bool ok = (byte + P - phase % P) % P == 0;
		struct verdict *v = result_verdict(r, ok ? VL_PASS : VL_WARN, "partition",
			"%s: partition %u starts at LBA %llu: %s for %u-byte sectors%s", name, p->num,
			(unsigned long long)(byte / lb), ok ? "aligned" : "misaligned", P,
			ok ? "" : " (every write to it straddles two physical sectors: re-create it on a 1 MiB boundary)");
		if (v) {
			verdict_evidence(v, "starts at byte %llu (%.3f GB); %s", (unsigned long long)byte,
					 (double)byte / 1e9, why);
			if (p->aoff_known)
				verdict_evidence(v, "the kernel's alignment_offset for it: %lld", (long long)p->aoff);
		}
	}
}

static void
target_verdict(struct run_result *r, const char *name, const struct facts *fp, const struct row *rw,
	       size_t n, uint32_t L, uint32_t maxsz, bool reads)
{
	const struct facts f = *fp;
	char rep[160] = "", lg[24], ph[24];
	if (f.logical)
		snprintf(lg, sizeof(lg), "%u", f.logical);
	else
		snprintf(lg, sizeof(lg), "?");
	if (f.physical)
		snprintf(ph, sizeof(ph), "%u", f.physical);
	else
		snprintf(ph, sizeof(ph), "?");
	if (!f.file)
		snprintf(rep, sizeof(rep), "reports %s logical / %s physical%s%s%s", lg, ph,
			 f.source[0] ? " (" : "", f.source, f.source[0] ? ")" : "");
	size_t measured = 0;
	for (size_t i = 0; i < n; i++)
		measured += rw[i].tps.known;
	struct fit ft;
	const char *op = reads ? "reads" : "writes";
	if (measured < 3) {
		struct verdict *v = result_verdict(r, VL_INFO, "align", "%s: too few rows measured (%zu) to judge alignment",
						   name, measured);
		if (v && rep[0])
			verdict_evidence(v, "%s", rep);
		return;
	}
	if (!fit_find(rw, n, L, maxsz, &ft)) {
		char up[24], lim[64] = "";
		uint32_t want = f.physical > 4096 ? f.physical : 4096;
		bool short_sizes = maxsz / 4 < want;
		size_text(up, sizeof(up), maxsz);
		if (short_sizes)
			snprintf(lim, sizeof(lim), " for physical sectors up to %u bytes", maxsz / 4);
		struct verdict *v = result_verdict(r, VL_INFO, "align",
			"%s: no alignment penalty measured%s (%s of %u bytes .. %s at every %u-byte offset)",
			name, lim, op, L, up, L);
		if (!v)
			return;
		if (rep[0])
			verdict_evidence(v, "%s", rep);
		if (reads)
			verdict_evidence(v, "reads need no read-modify-write: --rw write (guarded) is the test that finds one");
		if (f.physical > L && !reads && !short_sizes)
			verdict_evidence(v, "it reports %u-byte physical sectors, yet unaligned writes cost nothing measurable",
					 f.physical);
		if (L > 512)
			verdict_evidence(v, "its %u-byte logical sector is the smallest I/O it takes: smaller sizes cannot be tried", L);
		if (short_sizes)
			verdict_evidence(v, "sizes up to %u bytes judge physical sectors up to %u bytes only: --max %uk (or more) tests %u",
					 maxsz, maxsz / 4, 4 * want / 1024, want);
		if (f.physical > f.logical && f.logical)
			partitions_verdict(r, name, &f, f.physical, f.aoff_known && f.aoff > 0 ? (uint32_t)f.aoff : 0,
					   "judged by the physical sector it reports");
		return;
	}
	/* the evidence: aligned against unaligned at size P, and below P */
	/* a fit has aligned and unaligned rows at P: am and um are known */
	struct known_dbl am, um, sm;
	double alo, ahi, ulo, uhi, slo, shi;
	struct pick_arg pa = { &ft, ft.P, 1 }, pu = { &ft, ft.P, 0 }, ps = { &ft, 0, -1 };
	mean_tps(rw, n, pick, &pa, &am, &alo, &ahi);
	mean_tps(rw, n, pick, &pu, &um, &ulo, &uhi);
	mean_tps(rw, n, pick, &ps, &sm, &slo, &shi);
	bool hides = f.physical && f.physical < ft.P;
	bool rep_ok = f.physical == ft.P;
	char Pt[24];
	size_text(Pt, sizeof(Pt), ft.P);
	enum verdict_level lv = hides ? VL_WARN : VL_INFO;
	struct verdict *v;
	if (hides && f.logical == f.physical)
		v = result_verdict(r, lv, "align", "%s: drive hides its %s sectors: behaves as %u-byte physical sectors but %s",
				   name, Pt, ft.P, rep);
	else if (hides)
		v = result_verdict(r, lv, "align", "%s: behaves as %u-byte physical sectors, larger than it %s",
				   name, ft.P, rep);
	else
		v = result_verdict(r, lv, "align", "%s: behaves as %u-byte physical sectors (AF)%s%s", name, ft.P,
				   rep[0] ? ", as it " : "", rep_ok ? rep : rep[0] ? "does not say" : "");
	if (!v)
		return;
	char ar[48], ur[48], sr[48];
	range_text(ar, sizeof(ar), am.v, alo, ahi);
	range_text(ur, sizeof(ur), um.v, ulo, uhi);
	range_text(sr, sizeof(sr), sm.v, slo, shi);
	verdict_evidence(v, "%u-byte %s at %s-aligned offsets: %s; at the other offsets: %s, %.1fx slower",
			 ft.P, op, Pt, ar, ur, am.v / um.v);
	if (sm.known)
		verdict_evidence(v, "%s of %u .. %u bytes, at every offset: %s", op, L, ft.P / 2, sr);
	verdict_evidence(v, "sizes %u .. %u bytes: %.0f %% of the %zu aligned rows fast; every size: %.0f %% of the others slow",
			 ft.P, 4 * ft.P < maxsz ? 4 * ft.P : maxsz, 100 * ft.fast_a, ft.n_a, 100 * ft.slow_u);
	if (!f.file && rep[0] && !rep_ok && !hides)
		verdict_evidence(v, "%s", rep);
	if (ft.phase) {
		verdict_evidence(v, "fast only where offset mod %u = %u: the first whole physical sector starts at byte %u (LBA %u)",
				 ft.P, ft.phase, ft.phase, f.logical ? ft.phase / f.logical : ft.phase / 512);
		if (f.aoff_known)
			verdict_evidence(v, "it reports an alignment offset of %lld bytes", (long long)f.aoff);
	} else if (f.aoff_known && f.aoff != 0) {
		verdict_evidence(v, "it reports an alignment offset of %lld bytes, but offset 0 is the fast one", (long long)f.aoff);
	}
	if (f.is_part)
		verdict_evidence(v, "a partition: offsets count from its start, so a shifted phase means the partition is misaligned");
	partitions_verdict(r, name, &f, ft.P, ft.phase, "judged by the sector size measured");
}

static int
align_finish(struct bench_ctx *c, struct run_result *r)
{
	const struct plan *p = c->plan;
	bool reads = p->params.rw_mix >= 100;
	size_t n = r->n_steps < p->n_steps ? r->n_steps : p->n_steps;
	size_t nt = p->targets.n;
	struct row *rw = calloc(n ? n : 1, sizeof(*rw));
	if (!rw)
		return -ENOMEM;
	/* the table, as phybs prints it (a target column when there are several) */
	struct result_col cols[] = {
		{ "target", "target", COL_STR, "", 0 },
		{ "count", "count", COL_INT, "", 0 },
		{ "size", "size", COL_INT, "", 0 },
		{ "offset", "offset", COL_INT, "", 0 },
		{ "step", "step", COL_INT, "", 0 },
		{ "msec", "msec", COL_DBL, "", 0 },
		{ "tps", "tps", COL_DBL, "", 0 },
		{ "kbps", "kBps", COL_DBL, "", 0 },
	};
	size_t c0 = nt > 1 ? 0 : 1;
	struct result_table *t = result_table_add(r, "align", reads ? "phybs rows: reads by size and offset"
						  : "phybs rows: writes by size and offset",
						  cols + c0, ARRAY_SIZE(cols) - c0);
	uint32_t L = n ? p->steps[0].rp.bs : 0, maxsz = 0;
	for (size_t ti = 0; ti < nt; ti++) {
		struct facts f;
		facts_read(c, ti, &p->ident[ti], &f);
		uint64_t unit = f.logical ? f.logical : L;	/* what an LBA of the region counts */
		uint32_t prev = 0;
		uint64_t k = 0;
		for (size_t i = 0; i < n; i++) {
			const struct plan_step *st = &p->steps[i];
			const struct step_result *sr = &r->steps[i];
			/* rows come in planner order: offsets 0, L, 2L ... per size */
			if (st->rp.bs != prev)
				k = 0;
			prev = st->rp.bs;
			struct row *x = &rw[i];
			x->size = st->rp.bs;
			x->off = k++ * L;
			x->abs = st->rp.region_lba_start * unit;
			KNOWN_CLEAR(x->tps);
			maxsz = x->size > maxsz ? x->size : maxsz;
			const struct target_result *tr = NULL;
			for (size_t j = 0; j < sr->n_res && j < st->n; j++)
				if (st->idx[j] == ti)
					tr = &sr->res[j];
			if (tr && !sr->failed && tr->seconds > 0 && tr->ios && !tr->err.count)
				KNOWN_SET(x->tps, (double)tr->ios / tr->seconds);
			if (!t || table_add_row(t))
				continue;
			size_t row = t->n_rows - 1, cc = 0;
			if (nt > 1)
				table_set_str(t, row, cc++, tr ? tr->target : p->targets.v[ti]);
			if (tr && tr->seconds > 0)
				table_set_int(t, row, cc, (int64_t)tr->ios);
			table_set_int(t, row, cc + 1, x->size);
			table_set_int(t, row, cc + 2, (int64_t)x->off);
			table_set_int(t, row, cc + 3, (int64_t)st->rp.stride);
			table_set_known_dbl(t, row, cc + 4, KNOWN_DBL_IF(tr && tr->seconds > 0, tr->seconds * 1e3));
			table_set_known_dbl(t, row, cc + 5, x->tps);
			table_set_known_dbl(t, row, cc + 6, KNOWN_DBL_IF(tr && tr->seconds > 0,
										      (double)tr->bytes / 1024 / tr->seconds));
		}
		const char *name = ti < r->ident_targets.n ? r->ident_targets.v[ti] : p->targets.v[ti];
		if (n)
			target_verdict(r, name, &f, rw, n, L, maxsz, reads);
	}
	free(rw);
	bench_verdict_errors(p, r);
	return 0;
}

const struct bench_test bench_align = {
	.name = "align",
	.summary = "alignment probe (phybs): the physical sector size the drive behaves as",
	.writes = true,
	.panels = PANEL_THROUGHPUT | PANEL_LATENCY,
	.defaults = {
		.bs = 4096, .qd = 1, .seconds = 0.25, .ramp_s = 0,
		.region_start = 0, .region_end = 1,
		.pattern = "stride", .data = "random", .rw_mix = 0,
	},
	.params = (const struct bench_param *const[]){ &ap_rw, &ap_count, &ap_row_time, &ap_max, &bp_data, NULL },
	.plan = align_plan,
	.finish = align_finish,
};
