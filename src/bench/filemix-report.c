/* filemix-report.c - the filemix test's tables (one row per file, one per
 * class of file) and its verdicts (the mixed sizes, the fill and its
 * holes, random against zeros), from the state filemix.c kept. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench/bench.h"
#include "bench/filemix-int.h"

static const struct result_col file_cols[] = {
	{ "test", "test", COL_INT, "", 0 },
	{ "class", "class", COL_STR, "", 0 },
	{ "n", "#", COL_INT, "", 0 },
	{ "size", "size", COL_BYTES, "", 0 },
	{ "at_s", "at", COL_DBL, "s", 1 },
	{ "write_mbps", "write", COL_DBL, "MB/s", 1 },
	{ "read_mbps", "read", COL_DBL, "MB/s", 1 },
};

int
filemix_files_table(const struct fm_state *S, struct run_result *r)
{
	struct result_table *t = result_table_add(r, "files", "Files: write and read rate of each",
						  file_cols, ARRAY_SIZE(file_cols));
	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < S->n_f; i++) {
		const struct fm_file *f = &S->f[i];
		if (table_add_row(t))
			return -ENOMEM;
		size_t row = t->n_rows - 1;
		table_set_int(t, row, 0, f->test);
		table_set_str(t, row, 1, f->cls);
		table_set_int(t, row, 2, f->n);
		table_set_int(t, row, 3, (int64_t)f->size);
		table_set_dbl(t, row, 4, f->at_s);
		table_set_known_dbl(t, row, 5, f->w_mbps);
		table_set_known_dbl(t, row, 6, f->r_mbps);
	}
	return 0;
}

struct agg {
	double wb, ws, rb, rs;	/* bytes and seconds, measured files only */
	unsigned nw, nr;
};

static void
agg_add(struct agg *a, const struct fm_file *f)
{
	if (f->w_mbps.known && f->w_mbps.v > 0) {
		a->wb += (double)f->size;
		a->ws += (double)f->size / (f->w_mbps.v * 1e6);
		a->nw++;
	}
	if (f->r_mbps.known && f->r_mbps.v > 0) {
		a->rb += (double)f->size;
		a->rs += (double)f->size / (f->r_mbps.v * 1e6);
		a->nr++;
	}
}

static struct known_dbl
agg_w(const struct agg *a)
{
	return KNOWN_DBL_IF(a->ws > 0, a->wb / a->ws / 1e6);
}

static struct known_dbl
agg_r(const struct agg *a)
{
	return KNOWN_DBL_IF(a->rs > 0, a->rb / a->rs / 1e6);
}

int
filemix_class_table(const struct fm_state *S, struct run_result *r)
{
	static const struct result_col cols[] = {
		{ "test", "test", COL_INT, "", 0 },
		{ "class", "class", COL_STR, "", 0 },
		{ "files", "files", COL_INT, "", 0 },
		{ "size", "size each", COL_BYTES, "", 0 },
		{ "write_mbps", "write avg", COL_DBL, "MB/s", 1 },
		{ "read_mbps", "read avg", COL_DBL, "MB/s", 1 },
	};
	struct result_table *t = result_table_add(r, "classes", "Average by size class (bytes / time)",
						  cols, ARRAY_SIZE(cols));
	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < S->n_f; i++) {
		bool seen = false;
		for (size_t k = 0; k < i; k++)
			seen |= S->f[k].test == S->f[i].test && !strcmp(S->f[k].cls, S->f[i].cls);
		if (seen)
			continue;
		struct agg a = { 0 };
		unsigned n = 0;
		for (size_t k = i; k < S->n_f; k++)
			if (S->f[k].test == S->f[i].test && !strcmp(S->f[k].cls, S->f[i].cls)) {
				agg_add(&a, &S->f[k]);
				n++;
			}
		if (table_add_row(t))
			return -ENOMEM;
		size_t row = t->n_rows - 1;
		table_set_int(t, row, 0, S->f[i].test);
		table_set_str(t, row, 1, S->f[i].cls);
		table_set_int(t, row, 2, n);
		table_set_int(t, row, 3, (int64_t)S->f[i].size);
		table_set_known_dbl(t, row, 4, agg_w(&a));
		table_set_known_dbl(t, row, 5, agg_r(&a));
	}
	return 0;
}

/* A rate for a sentence: unknown is said, never printed as nan or 0. */
static const char *
rate(char buf[24], struct known_dbl mbps)
{
	if (mbps.known && isfinite(mbps.v) && mbps.v > 0)
		snprintf(buf, 24, "%.1f MB/s", mbps.v);
	else
		snprintf(buf, 24, "not measured");
	return buf;
}

void
filemix_verdicts(struct bench_ctx *c, struct fm_state *S, struct run_result *r)
{
	struct agg t1 = { 0 }, t3 = { 0 }, fill_first = { 0 }, fill_last = { 0 }, fill = { 0 }, holes = { 0 };
	unsigned n10 = 0;
	for (size_t i = 0; i < S->n_f; i++)
		n10 += S->f[i].test == 2 && !strcmp(S->f[i].cls, "10MB");
	for (size_t i = 0, k = 0; i < S->n_f; i++) {
		const struct fm_file *f = &S->f[i];
		if (f->test == 1)
			agg_add(&t1, f);
		else if (f->test == 3)
			agg_add(&t3, f);
		else if (!strcmp(f->cls, "10MB")) {
			agg_add(&fill, f);
			agg_add(k < (n10 + 3) / 4 ? &fill_first : &fill_last, f);
			k++;
		} else
			agg_add(&holes, f);
	}
	bool in_ram = S->ram || !strcmp(S->fs, "tmpfs") || !strcmp(S->fs, "ramfs");
	const char *cache = S->direct && in_ram ? "O_DIRECT on a RAM file system: memory is the medium, not a drive"
			    : S->direct ? "page cache kept out with O_DIRECT"
			    : in_ram ? "a RAM file system: buffered I/O, memory is the medium"
			    : "no O_DIRECT here: each file fsync'ed (in its write time) and dropped (POSIX_FADV_DONTNEED)";
	char w1[24], r1[24], wf[24], wh[24], wff[24], wfl[24], pr[24];
	struct verdict *v = result_verdict(r, VL_INFO, "filemix",
		"mixed sizes: write %s, read %s (%u files); fill %s, 1GB-class into the holes %s; %s",
		rate(w1, agg_w(&t1)), rate(r1, agg_r(&t1)), t1.nw, rate(wf, agg_w(&fill)), rate(wh, agg_w(&holes)),
		cache);
	if (v) {
		struct known_dbl h = agg_w(&holes), ff = agg_w(&fill_first);
		double share = h.known && ff.known ? 100.0 * h.v / ff.v : 0;
		if (h.known && ff.known && isfinite(share))
			verdict_evidence(v, "test 2: first quarter of the fill %s, the rest %s, into the holes %s "
					 "(%.0f %% of the fill's start)", rate(wff, agg_w(&fill_first)),
					 rate(wfl, agg_w(&fill_last)), rate(wh, agg_w(&holes)), share);
		else
			verdict_evidence(v, "test 2: first quarter of the fill %s, the rest %s, into the holes %s",
					 rate(wff, agg_w(&fill_first)), rate(wfl, agg_w(&fill_last)), rate(wh, agg_w(&holes)));
		verdict_evidence(v, "probe (1 MiB): %s; files in %s", rate(pr, S->probe_mbps), S->dir);
	}
	bool asked = false;	/* --data both: test 3 was planned */
	for (size_t i = 0; i < c->plan->n_steps; i++)
		asked |= !strncmp(c->plan->steps[i].label, "write t3 ", 9);
	if (t3.nw && t3.nw == t1.nw) {	/* both whole: the same mix of sizes */
		double a = agg_w(&t1).v, b = agg_w(&t3).v, d = 100.0 * (b - a) / a;	/* both known: nw > 0 */
		if (fabs(d) >= 25 && S->fs_compresses == 0)
			v = result_verdict(r, VL_INFO, "compression",
				"random vs zeros differ by %+.0f %% (%.1f vs %.1f MB/s): %s does not compress, so the device "
				"below it does (zram, a compressing SSD or controller)", d, a, b, S->fs);
		else if (fabs(d) >= 25)
			v = result_verdict(r, VL_INFO, "compression",
				"random vs zeros differ by %+.0f %% (%.1f vs %.1f MB/s): %s or the storage below it compresses",
				d, a, b, S->fs);
		else
			v = result_verdict(r, VL_INFO, "compression",
				"random vs zeros: no difference measured (%+.0f %%, %.1f vs %.1f MB/s) on %s", d, a, b, S->fs);
		if (v)
			verdict_evidence(v, "write rates of the mixed-size test: random (test 1), then zeros (test 3); "
					 "a difference under 25 %% is not called one");
	} else if (asked) {
		v = result_verdict(r, VL_INFO, "compression",
			"random vs zeros: not measured (the run ended before both mixed-size tests were whole)");
	} else {
		v = result_verdict(r, VL_INFO, "compression",
			"random vs zeros: not compared in this run (--data both compares them)");
	}
}

