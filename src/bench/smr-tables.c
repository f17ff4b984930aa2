/* smr-tables.c - the smr test's tables: per target the figures behind its
 * verdict, and every stall with when it came and what was written before. */
#include <math.h>
#include "bench/smr-int.h"
#include "util/util.h"

#define STALL_ROWS 100		/* rows of the stalls table per target */

void
smr_add_tables(struct run_result *r, const struct smr_fig *fig, const struct smr_io *const *io,
	       const char *const *call, size_t n, const struct step_result *sr, uint64_t thr)
{
	static const struct result_col sc[] = {
		{ "target", "target", COL_STR, "", 0 },
		{ "iops_before", "IOPS before", COL_DBL, "", 0 },
		{ "mbps_before", "rate before", COL_DBL, "MB/s", 1 },
		{ "secs_before", "until stall", COL_DBL, "s", 2 },
		{ "cache_mb", "cache ~", COL_DBL, "MB", 0 },
		{ "stalls", "stalls", COL_INT, "", 0 },
		{ "stall_s", "stall", COL_DBL, "s", 2 },
		{ "stall_max_s", "longest", COL_DBL, "s", 2 },
		{ "period_s", "every", COL_DBL, "s", 1 },
		{ "p999_ms", "p99.9", COL_DBL, "ms", 1 },
		{ "max_ms", "max", COL_DBL, "ms", 1 },
		{ "verdict", "verdict", COL_STR, "", 0 },
		{ "cache_at_start", "cache at start", COL_STR, "", 0 },
		{ "idle_min", "idle before re-test", COL_DBL, "min", 0 },
	};
	struct result_table *t = result_table_add(r, "smr", "Random writes: stalls and the media cache",
						  sc, ARRAY_SIZE(sc));
	for (size_t k = 0; t && k < n; k++) {
		const struct smr_fig *f = &fig[k];
		const struct target_result *tr = &sr->res[k];
		if (table_add_row(t))
			break;
		size_t row = t->n_rows - 1;
		table_set_str(t, row, 0, tr->target);
		/* before a stall at once, no rate was measured */
		table_set_known_dbl(t, row, 1, KNOWN_DBL_IF(f->first && f->before_s > 0, f->before_iops));
		table_set_known_dbl(t, row, 2, KNOWN_DBL_IF(f->first && f->before_s > 0, f->before_mbps));
		table_set_known_dbl(t, row, 3, KNOWN_DBL_IF(f->first, f->before_s));
		table_set_known_dbl(t, row, 4, KNOWN_DBL_IF(f->first && !f->full_start, f->cache_mb));
		table_set_int(t, row, 5, (int64_t)f->n);
		table_set_known_dbl(t, row, 6, KNOWN_DBL_IF(f->n, f->len_med));
		table_set_known_dbl(t, row, 7, KNOWN_DBL_IF(f->n, f->len_max));
		table_set_known_dbl(t, row, 8, f->period);
		table_set_known_dbl(t, row, 9, KNOWN_DBL_IF(tr->lat.known, tr->lat.p999 / 1e3));
		table_set_known_dbl(t, row, 10, KNOWN_DBL_IF(tr->lat.known, tr->lat.max / 1e3));
		table_set_str(t, row, 11, call[k]);
		/* null when no stall came: the cache held everything written */
		if (f->first)
			table_set_str(t, row, 12, f->full_start ? "not empty" : "empty");
		table_set_known_dbl(t, row, 13, f->idle_min);
	}
	static const struct result_col gc[] = {
		{ "target", "target", COL_STR, "", 0 },
		{ "stall", "stall", COL_INT, "", 0 },
		{ "at_s", "at", COL_DBL, "s", 2 },
		{ "length_s", "length", COL_DBL, "s", 2 },
		{ "since_prev_s", "since last", COL_DBL, "s", 2 },
		{ "written_mb", "written before", COL_DBL, "MB", 0 },
	};
	t = NULL;
	for (size_t k = 0; k < n; k++) {
		const struct smr_gap *prev = NULL;
		size_t rows = 0;
		for (size_t i = 0; i <= io[k]->n_gaps && rows < STALL_ROWS; i++) {
			const struct smr_gap *g = i < io[k]->n_gaps ? &io[k]->gap[i]
						  : fig[k].open_end ? &fig[k].tail : NULL;
			if (!g || g->len_ns < thr)
				continue;
			if (!t && !(t = result_table_add(r, "stalls", "Stalls: no completion for the stall time",
							 gc, ARRAY_SIZE(gc))))
				return;
			if (table_add_row(t))
				return;
			size_t row = t->n_rows - 1;
			table_set_str(t, row, 0, sr->res[k].target);
			table_set_int(t, row, 1, (int64_t)++rows);
			table_set_dbl(t, row, 2, g->start_ns / 1e9);
			table_set_dbl(t, row, 3, g->len_ns / 1e9);
			table_set_known_dbl(t, row, 4, KNOWN_DBL_IF(prev, (g->start_ns - prev->start_ns) / 1e9));
			table_set_dbl(t, row, 5, g->bytes_before / 1e6);
			prev = g;
		}
	}
}
