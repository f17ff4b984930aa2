/* surface-report.c - the surface scan's tables and verdicts (surface.c
 * measures): extents as the sector re-reads pinned them, slow ranges that
 * held on their re-reads, the curve as a 1 % block map. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/surface-int.h"
#include "run/estimate.h"

/* ---- the end: tables and verdicts ---- */

#define CONFIRM_FRACTION 0.7	/* a re-read must stay below this share of the one beside it */

/* The extents as pinning left them (pin.h); not pinned (no pin step ran,
 * or it was stopped first): as the scan found them, at block resolution. */
static size_t
final_extents(const struct surf_tgt *T, const struct surf_io *io, struct pin_out *out, size_t max)
{
	if (io->pin.reads)
		return pin_results(&io->pin, out, max);
	size_t n = 0;
	for (size_t i = 0; i < T->n_ext && n < max; i++)
		out[n++] = (struct pin_out){ .start = T->ext[i].start, .end = T->ext[i].end, .res = io->bs };
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
	double ref = w->control_mbps.known ? w->control_mbps.v : w->trend_mbps;
	return w->confirm_mbps.known && surface_is_slow(w->confirm_mbps.v, ref, CONFIRM_FRACTION);
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

/* One target's report, as the parts below read it. */
struct surf_rep {
	struct run_result *r;
	const char *name;
	const struct surf_tgt *T;
	const struct surf_io *io;
	uint64_t span;		/* the region's bytes (1 when empty) */
	uint64_t nblk;		/* blocks the scan timed, in all buckets */
};

/* The slowest, fastest and mean rate of the map's cells. */
struct surf_rates {
	double mn, mx, avg;
};

/* The curve as MAP_CELLS cells over the region; the scan's bytes and time. */
static void
surf_fill_cells(const struct surf_rep *R, struct cell *cell, uint64_t *bytes, uint64_t *us)
{
	const struct surf_tgt *T = R->T;
	const struct surf_io *io = R->io;
	uint64_t span = R->span, tb_bytes = 0, tb_us = 0;
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
	*bytes = tb_bytes;
	*us = tb_us;
}

static struct surf_rates
surf_rates_of(const struct cell *cell, uint64_t tb_bytes, uint64_t tb_us)
{
	double mn = INFINITY, mx = 0, avg = rate(tb_bytes, tb_us * 1000);
	for (size_t k = 0; k < MAP_CELLS; k++) {
		double v = rate(cell[k].bytes, cell[k].lat_us * 1000);
		if (isfinite(v)) {
			mn = v < mn ? v : mn;
			mx = v > mx ? v : mx;
		}
	}
	return (struct surf_rates){ mn, mx, avg };
}

/* The "surface" table's row: the scan in one line. */
static void
surf_add_summary(struct result_table *x, const struct surf_rep *R, uint64_t tb_bytes, struct surf_rates q)
{
	const struct surf_tgt *T = R->T;
	double mn = q.mn, mx = q.mx, avg = q.avg;
	if (x && !table_add_row(x)) {
		size_t row = x->n_rows - 1;
		table_set_str(x, row, 0, R->name);
		table_set_str(x, row, 1, T->quick ? RESULT_MODE_SAMPLED : "full");
		table_set_int(x, row, 2, (int64_t)tb_bytes);
		table_set_known_dbl(x, row, 3, KNOWN_DBL_IF(isfinite(mn), mn));
		table_set_dbl(x, row, 4, avg);
		table_set_known_dbl(x, row, 5, KNOWN_DBL_IF(mx > 0, mx));
		table_set_known_dbl(x, row, 6, T->access_ms);
		table_set_known_dbl(x, row, 7, T->burst_mbps);
	}
}

/* The "blocks" table: blocks by read time. */
static void
surf_add_buckets(struct result_table *x, const struct surf_rep *R)
{
	const struct surf_io *io = R->io;
	uint64_t nblk = R->nblk;
	for (size_t b = 0; x && b < N_BUCKETS && !table_add_row(x); b++) {
		size_t row = x->n_rows - 1;
		table_set_str(x, row, 0, R->name);
		table_set_str(x, row, 1, surface_bucket_name[b]);
		table_set_int(x, row, 2, (int64_t)io->bucket[b]);
		table_set_known_dbl(x, row, 3, KNOWN_DBL_IF(nblk, 100.0 * (double)io->bucket[b] / (double)nblk));
	}
}

/* The "map" table: a row a cell, its rate, slowest block and failures. */
static void
surf_add_map(struct result_table *x, const struct surf_rep *R, const struct cell *cell)
{
	const struct surf_tgt *T = R->T;
	for (size_t k = 0; x && k < MAP_CELLS && !table_add_row(x); k++) {
		size_t row = x->n_rows - 1;
		uint64_t off = T->rs + R->span * k / MAP_CELLS;
		table_set_str(x, row, 0, R->name);
		table_set_dbl(x, row, 1, 100.0 * (double)k / MAP_CELLS);
		table_set_int(x, row, 2, (int64_t)(off / T->lbs));
		table_set_dbl(x, row, 3, (double)off / 1e9);
		table_set_dbl(x, row, 4, rate(cell[k].bytes, cell[k].lat_us * 1000));
		table_set_known_dbl(x, row, 5, KNOWN_DBL_IF(cell[k].bytes, (double)cell[k].max_us / 1e3));
		table_set_int(x, row, 6, (int64_t)cell[k].failed);
		size_t w = 0;
		while (w < ARRAY_SIZE(surface_bucket_ms) && (double)cell[k].max_us / 1e3 >= surface_bucket_ms[w])
			w++;
		table_set_str(x, row, 7, cell[k].failed ? "error" : cell[k].bytes ? surface_bucket_name[w] : "-");
	}
}

/* The "extents" table: a row an unreadable (or recovered) extent. */
static void
surf_add_extents(struct result_table *x, const struct surf_rep *R, const struct pin_out *ext, size_t ne)
{
	const struct surf_tgt *T = R->T;
	char res[32];
	for (size_t i = 0; x && i < ne && !table_add_row(x); i++) {
		size_t row = x->n_rows - 1;
		table_set_str(x, row, 0, R->name);
		table_set_int(x, row, 1, (int64_t)(ext[i].start / T->lbs));
		table_set_int(x, row, 2, (int64_t)((ext[i].end + T->lbs - 1) / T->lbs - 1));
		table_set_int(x, row, 3, (int64_t)((ext[i].end - ext[i].start + T->lbs - 1) / T->lbs));
		table_set_dbl(x, row, 4, (double)ext[i].start / 1e9);
		snprintf(res, sizeof(res), "%llu sectors", (unsigned long long)(ext[i].res / T->lbs));
		table_set_str(x, row, 5, ext[i].recovered ? "read on re-read" : ext[i].exact ? "sector"
				 : !ext[i].pinned ? "block" : res);
	}
}

/* The extents that were (recovered) or were not read on a re-read, as
 * "LBA a-b (x GB), ..." in txt (n bytes of it). */
static void
surf_list_extents(char *txt, size_t n, const struct surf_tgt *T, const struct pin_out *ext, size_t ne,
		  bool recovered, size_t total)
{
	char item[96];
	size_t shown = 0;
	txt[0] = 0;
	for (size_t i = 0; i < ne; i++)
		if (ext[i].recovered == recovered) {
			range_text(item, sizeof(item), T, ext[i].start, ext[i].end);
			list_add(txt, n, &shown, total, item);
		}
}

/* FAIL: the extents no re-read could read, with how each was pinned. */
static void
surf_judge_unreadable(const struct surf_rep *R, const struct pin_out *ext, size_t ne, size_t n_bad)
{
	const struct surf_tgt *T = R->T;
	const struct surf_io *io = R->io;
	char txt[320];
	surf_list_extents(txt, sizeof(txt) - 40, T, ext, ne, false, n_bad);
	struct verdict *v = result_verdict(R->r, VL_FAIL, "surface", "%s: unreadable at %s", R->name, txt);
	for (size_t i = 0; v && i < ne; i++)
		if (!ext[i].recovered) {
			char line[256];
			pin_describe(&io->pin, &ext[i], T->lbs, line, sizeof(line));
			verdict_evidence(v, "%s", line);
		}
	if (v && io->pin.reads) {
		char line[256];
		pin_summary(&io->pin, line, sizeof(line));
		verdict_evidence(v, "%s", line);
	}
	if (v && io->skip.n_gap)
		verdict_evidence(v, "skip-ahead: %zu jumps over %.3f GB of unreadable blocks after %d failed in a "
				 "row (the gaps sampled when pinning)", io->skip.n_gap,
				 (double)io->skip.skipped / 1e9, PIN_SKIP_AFTER);
	if (v && T->ext_found > T->n_ext)
		verdict_evidence(v, "%zu more failed ranges not listed", T->ext_found - T->n_ext);
	if (v) {
		char by[96] = "";
		for (size_t i = 0, o = 0; i < ARRAY_SIZE(io->errs) && io->errs[i].err && o < sizeof(by); i++) {
			char eb[16];
			o += (size_t)snprintf(by + o, sizeof(by) - o, "%s%s %llu", i ? ", " : "",
					      errno_name(io->errs[i].err, eb, sizeof eb), (unsigned long long)io->errs[i].n);
		}
		verdict_evidence(v, "%llu of %llu blocks failed in the scan (%s)",
				 (unsigned long long)io->bucket[N_BUCKETS - 1], (unsigned long long)R->nblk, by);
	}
}

/* The unreadable extents: their table, a FAIL for those that stayed
 * unreadable, a WARN for those a re-read read. */
static void
surf_judge_extents(struct result_table *x, const struct surf_rep *R, size_t *n_bad_out, size_t *n_rec_out)
{
	const struct surf_tgt *T = R->T;
	struct pin_out *ext = calloc(PIN_MAX_RUNS + MAX_EXT + 1, sizeof(*ext));
	size_t ne = ext ? final_extents(T, R->io, ext, PIN_MAX_RUNS + MAX_EXT) : 0, n_bad = 0, n_rec = 0;
	surf_add_extents(x, R, ext, ne);
	for (size_t i = 0; i < ne; i++)
		ext[i].recovered ? n_rec++ : n_bad++;
	if (n_bad)
		surf_judge_unreadable(R, ext, ne, n_bad);
	if (n_rec) {
		char txt[320];
		surf_list_extents(txt, sizeof(txt) - 60, T, ext, ne, true, n_rec);
		result_verdict(R->r, VL_WARN, "surface", "%s: read errors that did not repeat on a re-read at %s",
			       R->name, txt);
	}
	free(ext);
	*n_bad_out = n_bad;
	*n_rec_out = n_rec;
}

/* The "slow" table and a WARN for the slow ranges that held on their
 * re-reads; how many did. */
static size_t
surf_judge_slow(struct result_table *x, const struct surf_rep *R)
{
	const struct surf_tgt *T = R->T;
	char txt[320], item[96];
	size_t n_slow = 0, shown = 0;
	for (size_t i = 0; i < T->n_slow; i++) {
		const struct surface_slow *w = &T->slow[i];
		n_slow += slow_confirmed(w);
		if (!x || table_add_row(x))
			continue;
		size_t row = x->n_rows - 1;
		table_set_str(x, row, 0, R->name);
		table_set_int(x, row, 1, (int64_t)(w->start / T->lbs));
		table_set_int(x, row, 2, (int64_t)((w->end + T->lbs - 1) / T->lbs - 1));
		table_set_dbl(x, row, 3, (double)w->start / 1e9);
		table_set_dbl(x, row, 4, w->mbps);
		table_set_dbl(x, row, 5, w->trend_mbps);
		table_set_known_dbl(x, row, 6, w->confirm_mbps);
		table_set_known_dbl(x, row, 7, w->control_mbps);
		table_set_str(x, row, 8, slow_confirmed(w) ? "slow" : w->confirm_mbps.known ?
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
		struct verdict *v = result_verdict(R->r, VL_WARN, "surface", "%s: slow range%s: %s", R->name,
						   n_slow > 1 ? "s" : "", txt);
		if (v)
			verdict_evidence(v, "slow: under %.0f %% of the median rate around it over at least %d segments, "
					 "and the fastest of %d re-reads under %.0f %% of the fastest of %d beside it; "
					 "each at least %.0f ms per MB slower", 100 * SURFACE_SLOW_FRACTION,
					 SURFACE_SLOW_MIN_POINTS, CONFIRM_PASSES, 100 * CONFIRM_FRACTION, CONFIRM_PASSES,
					 SURFACE_SLOW_MIN_MS_PER_MB);
	}
	return n_slow;
}

/* PASS (INFO when interrupted): nothing unreadable, nothing slow. */
static void
surf_judge_healthy(const struct surf_rep *R, struct surf_rates q)
{
	const struct surf_tgt *T = R->T;
	const struct surf_io *io = R->io;
	struct run_result *r = R->r;
	double mn = q.mn, mx = q.mx, avg = q.avg;
	uint64_t nblk = R->nblk;
	char txt[320];
	if (T->quick)
		snprintf(txt, sizeof(txt), "quick scan of %llu positions: none unreadable, no slow range among them "
			 "(%.0f-%.0f MB/s, avg %.0f)", (unsigned long long)nblk, mn, mx, avg);
	else
		snprintf(txt, sizeof(txt), "healthy: every block read, no slow range measured "
			 "(%.0f-%.0f MB/s, avg %.0f)", mn, mx, avg);
	struct verdict *v = result_verdict(r, r->interrupted ? VL_INFO : VL_PASS, "surface", "%s: %s%s",
					   R->name, txt, r->interrupted ? " so far (interrupted)" : "");
	char am[32], bm[32];
	if (v)
		verdict_evidence(v, "%llu blocks of %u bytes, %llu over 150 ms; access %s ms, burst %s MB/s",
				 (unsigned long long)nblk, io->bs, (unsigned long long)(io->bucket[4] + io->bucket[5]),
				 known_fmt_dbl(&T->access_ms, "%.3g", "?", am, sizeof(am)),
				 known_fmt_dbl(&T->burst_mbps, "%.0f", "?", bm, sizeof(bm)));
}

/* A note saying where an interrupted scan stopped. */
static void
surf_note_interrupted(const struct surf_rep *R)
{
	const struct surf_tgt *T = R->T;
	const struct surf_io *io = R->io;
	char m[160];
	if (io->max_end >= T->re)
		snprintf(m, sizeof(m), "%s: interrupted after the scan, during its follow-up reads", R->name);
	else
		snprintf(m, sizeof(m), "%s: the scan was interrupted at %.0f %% of the region", R->name,
			 100.0 * (double)(io->max_end - T->rs) / (double)R->span);
	strlist_add(&R->r->notes, m);
}

/* Target t's rows in the five tables (tb: surface, blocks, extents, slow,
 * map; NULL when not added) and its verdicts. */
static void
target_result(struct bench_ctx *c, struct run_result *r, unsigned t, struct result_table **tb)
{
	struct surf_state *S = c->state;
	struct surf_tgt *T = &S->t[t];
	struct surf_io *io = io_of(c, t);
	const char *name = c->plan->targets.v[t];
	if (!T->scanned || !io->any) {
		result_verdict(r, VL_INFO, "surface", "%s: no block was read: nothing to judge", name);
		return;
	}
	struct surf_rep R = { .r = r, .name = name, .T = T, .io = io,
			      .span = T->re > T->rs ? T->re - T->rs : 1 };
	for (size_t b = 0; b < N_BUCKETS; b++)
		R.nblk += io->bucket[b];
	struct cell cell[MAP_CELLS] = { 0 };
	uint64_t tb_bytes, tb_us;
	surf_fill_cells(&R, cell, &tb_bytes, &tb_us);
	struct surf_rates q = surf_rates_of(cell, tb_bytes, tb_us);
	surf_add_summary(tb[0], &R, tb_bytes, q);
	surf_add_buckets(tb[1], &R);
	surf_add_map(tb[4], &R, cell);
	size_t n_bad, n_rec;
	surf_judge_extents(tb[2], &R, &n_bad, &n_rec);
	size_t n_slow = surf_judge_slow(tb[3], &R);
	if (!n_bad && !n_slow && !n_rec)
		surf_judge_healthy(&R, q);
	if (r->interrupted && T->re > T->rs)
		surf_note_interrupted(&R);
}

int
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
		pin_skip_free(&io->skip);
		pin_free(&io->pin);
		memset(io, 0, sizeof(*io));
	}
	estimate_finish(r);	/* the array these drives would make (no I/O) */
	return 0;
}

