/* quick.c - the familiar grid as CrystalDiskMark and KDiskMark run it:
 * SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1 (or another preset), each
 * read and write, N loops with an idle interval between measurements.  Every
 * cell x loop is one step with its own parameters; the grid keeps the best
 * loop (CrystalDiskMark) and the average (KDiskMark's Default profile).  The
 * read column runs first, then the write column, as CrystalDiskMark fills
 * its window.  Reads must reach data, not unwritten extents: the scratch
 * file is written in full before the first read, and on a device the grid
 * covers its first --file-size bytes, written once by a prepare pass (what
 * CrystalDiskMark's test file is).  A grid is a measurement, not a
 * judgement: its verdict is info; I/O errors fail. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "util/util.h"

struct cell {
	const char *name;	/* as CrystalDiskMark labels its row */
	uint32_t bs;
	unsigned qd;
	bool seq;
};

#define CELLS_MAX 4

struct preset {
	const char *name;
	struct cell c[CELLS_MAX];
	size_t n;
	const char *note;	/* what differs from the tool's own preset, NULL none */
};

/* CrystalDiskMark's NVMe preset runs RND4K at Q32T16; the framework runs one
 * worker per target, so that row runs as Q32T1 and says so. */
static const struct preset presets[] = {
	{ "default", { { "SEQ1M Q8T1", 1 << 20, 8, true }, { "SEQ1M Q1T1", 1 << 20, 1, true },
		       { "RND4K Q32T1", 4096, 32, false }, { "RND4K Q1T1", 4096, 1, false } }, 4, NULL },
	{ "nvme", { { "SEQ1M Q8T1", 1 << 20, 8, true }, { "SEQ128K Q32T1", 128 << 10, 32, true },
		    { "RND4K Q32T1", 4096, 32, false }, { "RND4K Q1T1", 4096, 1, false } }, 4,
	  "nvme preset: CrystalDiskMark's RND4K Q32T16 runs here as RND4K Q32T1 (one worker per target)" },
	{ "peak", { { "SEQ1M Q8T1", 1 << 20, 8, true }, { "RND4K Q32T1", 4096, 32, false } }, 2, NULL },
	{ "real", { { "SEQ1M Q1T1", 1 << 20, 1, true }, { "RND4K Q1T1", 4096, 1, false } }, 2, NULL },
};

static const char *const preset_names[] = { "default", "nvme", "peak", "real", NULL };

static const struct bench_param bp_preset = {
	.name = "preset", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "default|nvme|peak|real",
	.help = "which grid: CrystalDiskMark's default, NVMe, Peak or Real World rows",
	.bad = "one of default, nvme, peak, real", .choices = preset_names, .def = 0,
};

static const struct bench_param bp_loops = {
	.name = "loops", .kind = BP_COUNT, .bind = BIND_NONE, .arg = "N",
	.help = "measurements per cell (best and average are kept)",
	.bad = "loops must be 1..9", .min = 1, .max = 9, .def = 3,
};

static const struct bench_param bp_interval = {
	.name = "interval", .kind = BP_DURATION, .bind = BIND_NONE, .arg = "DURATION",
	.help = "idle time between measurements (lets write caches drain)",
	.bad = "a duration from 0 to 10m (0, 5, 500ms)", .min = 0, .max = 600, .def = 5,
};

static const struct preset *
preset_of(const struct plan *p)
{
	const char *s = plan_param_str(p, "preset");
	for (size_t i = 0; i < ARRAY_SIZE(presets); i++)
		if (!strcmp(presets[i].name, s))
			return &presets[i];
	return &presets[0];
}

/* Step k of target t: which cell, direction and loop.  Order: per target,
 * the read column (each cell's loops in a row), then the write column. */
struct step_pos {
	size_t target, cell, loop;
	bool write;
};

static struct step_pos
pos_of(size_t k, size_t n_cells, size_t loops)
{
	size_t per_target = 2 * n_cells * loops;
	struct step_pos s = { .target = k / per_target };
	size_t j = k % per_target;
	s.write = j >= n_cells * loops;
	j %= n_cells * loops;
	s.cell = j / loops;
	s.loop = j % loops;
	return s;
}

/* The device facts of a target by name (the plan's targets are not open
 * yet); false when it names nothing. */
static bool
facts_of(const char *target, struct dev_facts *f)
{
	char err[256];
	return !target_facts(target, NULL, f, err, sizeof(err));
}

/* Logical sector size of a block device or a sim drive (512 when it does
 * not say), 0 for a directory. */
static uint32_t
logical_of(const char *target)
{
	struct dev_facts f;
	if (!facts_of(target, &f) || (!f.simulated && !dev_facts_is_block(&f)))
		return 0;
	return f.logical.known && f.logical.v ? (uint32_t)f.logical.v : 512;
}

static bool
is_block(const char *target)
{
	struct dev_facts f;
	return facts_of(target, &f) && dev_facts_is_block(&f);
}

/* A block device's size in bytes; 0 unknown (or not a device). */
static uint64_t
size_of(const char *target)
{
	struct dev_facts f;
	if (!facts_of(target, &f) || !dev_facts_is_block(&f) || !f.capacity.known)
		return 0;
	return f.capacity.v;
}

/* The span a grid covers on a device: its first --file-size bytes (what
 * CrystalDiskMark's test file is on a file system), unless --region says. */
static bool
span_of(const struct plan *p, size_t tg, struct run_params *rp)
{
	uint32_t lb = logical_of(p->targets.v[tg]);
	if (!lb || p->region_lba || p->params.region_start > 0 || p->params.region_end < 1)
		return false;
	uint64_t span = p->topts.file_size ? p->topts.file_size : TARGET_DEFAULT_FILE_SIZE;
	uint64_t size = size_of(p->targets.v[tg]);
	if (size && size < span)
		span = size;
	rp->region_lba = true;
	rp->region_lba_start = 0;
	rp->region_lba_end = span / lb;
	return true;
}

static int
quick_plan(struct plan *p, char *err, size_t errlen)
{
	if (!p->targets.n) {
		snprintf(err, errlen, "quick: no target given (a directory, or a device with --destroy-data)");
		return -EINVAL;
	}
	const struct preset *ps = preset_of(p);
	size_t loops = (size_t)plan_param_num(p, "loops");
	double interval = plan_param_num(p, "interval");
	/* reads must reach written data: fill the scratch file first */
	p->topts.fill = true;
	if (ps->note)
		strlist_add(&p->notes, ps->note);
	size_t n = p->targets.n * 2 * ps->n * loops;
	for (size_t k = 0; k < n; k++) {
		struct step_pos sp = pos_of(k, ps->n, loops);
		const struct cell *c = &ps->c[sp.cell];
		struct run_params rp = p->params;
		bool span = span_of(p, sp.target, &rp);
		unsigned idx = (unsigned)sp.target;
		struct plan_step *st;
		int rc;
		if (span && is_block(p->targets.v[sp.target]) && k % (2 * ps->n * loops) == 0) {
			/* a device: write the span once before the reads, as
			 * CrystalDiskMark writes its test file, so reads reach data */
			struct run_params w = rp;
			w.bs = 1 << 20;
			w.qd = 8;
			w.rw_mix = 0;
			w.seconds = w.ramp_s = 0;	/* one pass over the span */
			snprintf(w.pattern, sizeof(w.pattern), "seq");
			if ((rc = plan_add_step_params(p, &idx, 1, &w, "prepare: write the span", &st)))
				return rc;
			st->solo = true;
		}
		rp.bs = c->bs;
		rp.qd = c->qd;
		snprintf(rp.pattern, sizeof(rp.pattern), "%s", c->seq ? "seq" : "rand");
		rp.rw_mix = sp.write ? 0 : 100;
		rp.seed = p->params.seed + 7919 * k;	/* each loop its own offsets, all from --seed */
		char label[96];	/* the step keeps its first 47 characters */
		if (p->targets.n > 1) {
			const char *tn = p->targets.v[sp.target], *sl = strrchr(tn, '/');
			snprintf(label, sizeof(label), "%s %s #%zu %.24s", c->name, sp.write ? "write" : "read",
				 sp.loop + 1, sl && sl[1] ? sl + 1 : tn);
		} else {
			snprintf(label, sizeof(label), "%s %s #%zu", c->name, sp.write ? "write" : "read",
				 sp.loop + 1);
		}
		if ((rc = plan_add_step_params(p, &idx, 1, &rp, label, &st)))
			return rc;
		st->pause_s = k && interval > 0 ? interval : 0;
	}
	return 0;
}

/* ---- the device behind a target ---- */

struct device_facts {
	char kind[16];		/* scratch file, block device, sim drive */
	char fs[64];		/* file system ("" for a device) */
	char mount[512];
	char device[80];	/* /dev/NAME behind it, "" none */
	char model[300];
};

/* What the result says of the device: from the target's facts. */
static void
device_facts(const char *target, struct device_facts *d)
{
	struct dev_facts f;
	memset(d, 0, sizeof(*d));
	if (!facts_of(target, &f))
		return;
	if (f.simulated) {
		snprintf(d->kind, sizeof(d->kind), "sim drive");
		snprintf(d->model, sizeof(d->model), "%.100s", f.name);
		return;
	}
	snprintf(d->model, sizeof(d->model), "%s", f.model);
	if (f.kind != DEV_FILE) {
		snprintf(d->kind, sizeof(d->kind), "block device");
		strtrimcpy(d->device, sizeof(d->device), target);
		return;
	}
	snprintf(d->kind, sizeof(d->kind), "scratch file");
	snprintf(d->mount, sizeof(d->mount), "%s", f.mount);
	snprintf(d->fs, sizeof(d->fs), "%s", f.fs);
	if (f.disk[0])
		snprintf(d->device, sizeof(d->device), "/dev/%.64s", f.disk);
}

/* "scratch file on ext4 at /mnt/x, /dev/loop3 (loop on /var/img)" */
static void
device_text(const char *target, const struct device_facts *d, char *b, size_t n)
{
	if (!strcmp(d->kind, "scratch file"))
		snprintf(b, n, "%s: scratch file on %s at %s, %s%s%s%s", target, d->fs[0] ? d->fs : "?",
			 d->mount[0] ? d->mount : "?",
			 d->device[0] ? d->device : "no block device behind it",
			 d->model[0] ? " (" : "", d->model, d->model[0] ? ")" : "");
	else if (d->kind[0])
		snprintf(b, n, "%s: %s%s%s%s", target, d->kind, d->model[0] ? " (" : "", d->model,
			 d->model[0] ? ")" : "");
	else
		snprintf(b, n, "%s: device unknown", target);
}

/* ---- the grid ---- */

struct cell_stats {
	size_t n;		/* loops measured */
	double best_mbps, sum_mbps, best_iops, best_lat_us;
};

static void
stats_add(struct cell_stats *s, const struct target_result *t)
{
	if (!(t->seconds > 0) || !isfinite(t->mbps))
		return;
	if (!s->n || t->mbps > s->best_mbps)
		s->best_mbps = t->mbps;
	if (!s->n || t->iops > s->best_iops)
		s->best_iops = t->iops;
	/* CrystalDiskMark keeps the lowest latency */
	if (t->lat.known && (!(s->best_lat_us > 0) || t->lat.mean < s->best_lat_us))
		s->best_lat_us = t->lat.mean;
	s->sum_mbps += t->mbps;
	s->n++;
}

/* Read/write stats of one target's cells from the steps so far. */
static void
grid_stats(const struct plan *p, const struct run_result *r, size_t target,
	   struct cell_stats st[CELLS_MAX][2])
{
	const struct preset *ps = preset_of(p);
	size_t loops = (size_t)plan_param_num(p, "loops");
	memset(st, 0, sizeof(struct cell_stats) * CELLS_MAX * 2);
	for (size_t k = 0; k < r->n_steps; k++) {
		struct step_pos sp = pos_of(k, ps->n, loops);
		const struct step_result *s = &r->steps[k];
		if (sp.target != target || s->failed || s->n_res < 1)
			continue;
		stats_add(&st[sp.cell][sp.write], &s->res[0]);
	}
}

static struct known_dbl
known(const struct cell_stats *s, double v)
{
	return KNOWN_DBL_IF(s->n, v);
}

/* The grid table: one row per target x cell. */
static int
grid_table(const struct plan *p, const struct run_result *r, struct run_result *out)
{
	static const struct result_col cols[] = {
		{ "target", "target", COL_STR, "", 0 },
		{ "test", "test", COL_STR, "", 0 },
		{ "read_best_mbps", "read best", COL_DBL, "MB/s", 1 },
		{ "read_avg_mbps", "read avg", COL_DBL, "MB/s", 1 },
		{ "write_best_mbps", "write best", COL_DBL, "MB/s", 1 },
		{ "write_avg_mbps", "write avg", COL_DBL, "MB/s", 1 },
		{ "read_iops", "read IOPS", COL_DBL, "", 0 },
		{ "write_iops", "write IOPS", COL_DBL, "", 0 },
		{ "read_lat_us", "read lat", COL_DBL, "us", 1 },
		{ "write_lat_us", "write lat", COL_DBL, "us", 1 },
		{ "loops", "loops", COL_INT, "", 0 },
	};
	const struct preset *ps = preset_of(p);
	bool many = p->targets.n > 1;
	/* one target: no target column (the verdict and the device table name it) */
	const struct result_col *cv = many ? cols : cols + 1;
	size_t nc = many ? ARRAY_SIZE(cols) : ARRAY_SIZE(cols) - 1, o = many ? 1 : 0;
	char title[80];
	snprintf(title, sizeof(title), "%s grid, MB/s = 10^6 B/s (best and average of the loops)",
		 ps->name);
	struct result_table *t = result_table_add(out, "grid", title, cv, nc);
	if (!t)
		return -ENOMEM;
	for (size_t tg = 0; tg < p->targets.n; tg++) {
		struct cell_stats st[CELLS_MAX][2];
		grid_stats(p, r, tg, st);
		for (size_t c = 0; c < ps->n; c++) {
			const struct cell_stats *rd = &st[c][0], *wr = &st[c][1];
			if (table_add_row(t))
				return -ENOMEM;
			size_t row = t->n_rows - 1;
			if (many && table_set_str(t, row, 0, p->targets.v[tg]))
				return -ENOMEM;
			if (table_set_str(t, row, o, ps->c[c].name))
				return -ENOMEM;
			table_set_known_dbl(t, row, o + 1, known(rd, rd->best_mbps));
			table_set_known_dbl(t, row, o + 2, known(rd, rd->sum_mbps / (double)rd->n));
			table_set_known_dbl(t, row, o + 3, known(wr, wr->best_mbps));
			table_set_known_dbl(t, row, o + 4, known(wr, wr->sum_mbps / (double)wr->n));
			table_set_known_dbl(t, row, o + 5, known(rd, rd->best_iops));
			table_set_known_dbl(t, row, o + 6, known(wr, wr->best_iops));
			/* latency as CrystalDiskMark shows it: the queue-depth-1 rows */
			bool q1 = ps->c[c].qd == 1;
			table_set_known_dbl(t, row, o + 7, KNOWN_DBL_IF(q1 && rd->best_lat_us > 0, rd->best_lat_us));
			table_set_known_dbl(t, row, o + 8, KNOWN_DBL_IF(q1 && wr->best_lat_us > 0, wr->best_lat_us));
			table_set_int(t, row, o + 9, (int64_t)(rd->n > wr->n ? rd->n : wr->n));
		}
	}
	return 0;
}

static int
quick_live_table(struct bench_ctx *c, struct run_result *out)
{
	return grid_table(c->plan, c->res, out);
}

static void
rate_text(char *b, size_t n, const struct cell_stats *s, bool iops)
{
	if (!s->n)
		snprintf(b, n, "not measured");
	else if (iops)
		snprintf(b, n, "%.1f MB/s (%.0f IOPS)", s->best_mbps, s->best_iops);
	else
		snprintf(b, n, "%.1f MB/s", s->best_mbps);
}

static int
quick_finish(struct bench_ctx *c, struct run_result *r)
{
	const struct plan *p = c->plan;
	const struct preset *ps = preset_of(p);
	size_t loops = (size_t)plan_param_num(p, "loops");
	double secs = p->params.seconds;
	for (size_t tg = 0; tg < p->targets.n; tg++) {
		struct cell_stats st[CELLS_MAX][2];
		struct device_facts d;
		char dev[1400], a[64], b[64];
		grid_stats(p, r, tg, st);
		device_facts(p->targets.v[tg], &d);
		device_text(p->targets.v[tg], &d, dev, sizeof(dev));
		size_t measured = 0;
		for (size_t k = 0; k < ps->n; k++)
			measured += st[k][0].n + st[k][1].n;
		struct verdict *v;
		if (!measured) {
			v = result_verdict(r, VL_INFO, "quick", "%s: no cell of the grid was measured%s",
					   p->targets.v[tg], r->interrupted ? " (interrupted)" : "");
		} else {
			rate_text(a, sizeof(a), &st[0][0], !ps->c[0].seq);
			rate_text(b, sizeof(b), &st[0][1], !ps->c[0].seq);
			v = result_verdict(r, VL_INFO, "quick", "%s: %s read %s, write %s (best of %zu loop%s of %gs)%s",
					   p->targets.v[tg], ps->c[0].name, a, b, loops, loops == 1 ? "" : "s",
					   secs, r->interrupted ? "; interrupted, the grid is partial" : "");
		}
		if (!v)
			return -ENOMEM;
		verdict_evidence(v, "%s", dev);
		verdict_evidence(v, "preset %s, %zu loop%s of %gs per cell, %gs idle between, %s data", ps->name,
				 loops, loops == 1 ? "" : "s", secs, plan_param_num(p, "interval"), p->params.data);
		for (size_t k = 0; k < ps->n && measured; k++) {
			rate_text(a, sizeof(a), &st[k][0], !ps->c[k].seq);
			rate_text(b, sizeof(b), &st[k][1], !ps->c[k].seq);
			verdict_evidence(v, "%s: read %s, write %s", ps->c[k].name, a, b);
		}
		if (!strcmp(d.fs, "tmpfs") || !strcmp(d.fs, "ramfs") || !strncmp(d.model, "compressed RAM", 14))
			verdict_evidence(v, "RAM-backed: these figures measure memory, not a drive");
		struct run_params rp = p->params;
		if (span_of(p, tg, &rp)) {
			uint64_t lb = logical_of(p->targets.v[tg]);
			verdict_evidence(v, "span: LBA 0-%llu (%.0f MB) from the start of the device%s",
					 (unsigned long long)(rp.region_lba_end - 1),
					 (double)rp.region_lba_end * (double)lb / 1e6,
					 is_block(p->targets.v[tg]) ? ", written in full before the reads" : "");
		}
	}
	int rc = grid_table(p, r, r);
	/* the devices, for scripts: which file system and disk each grid measured */
	static const struct result_col dcols[] = {
		{ "target", "target", COL_STR, "", 0 }, { "kind", "kind", COL_STR, "", 0 },
		{ "filesystem", "file system", COL_STR, "", 0 }, { "mount", "mount", COL_STR, "", 0 },
		{ "device", "device", COL_STR, "", 0 }, { "model", "model", COL_STR, "", 0 },
	};
	struct result_table *t = rc ? NULL : result_table_add(r, "device", "What was measured", dcols,
							      ARRAY_SIZE(dcols));
	for (size_t tg = 0; t && tg < p->targets.n; tg++) {
		struct device_facts d;
		device_facts(p->targets.v[tg], &d);
		if (table_add_row(t))
			return -ENOMEM;
		const char *f[6] = { p->targets.v[tg], d.kind, d.fs, d.mount, d.device, d.model };
		for (size_t k = 0; k < 6; k++)
			if (f[k][0] && table_set_str(t, tg, k, f[k]))
				return -ENOMEM;
	}
	bench_verdict_errors(p, r);
	return rc;
}

const struct bench_test bench_quick = {
	.name = "quick",
	.summary = "the familiar grid: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1, read and write",
	.writes = true,
	.panels = PANEL_THROUGHPUT | PANEL_LATENCY | PANEL_TABLE,
	.flags = TEST_SAMPLED,
	.defaults = {
		.bs = 1 << 20, .qd = 8, .seconds = 5, .ramp_s = 0,
		.region_start = 0, .region_end = 1,
		.pattern = "seq", .data = "random", .rw_mix = 100,
	},
	.params = (const struct bench_param *const[]){ &bp_preset, &bp_loops, &bp_time, &bp_interval,
						       &bp_ramp, &bp_data, NULL },
	.plan = quick_plan,
	.finish = quick_finish,
	.live_table = quick_live_table,
};
