/* smr-int.h - the smr test's measurement, shared by smr.c (the probe and
 * its verdict) and smr-tables.c (its tables). */
#ifndef DS_SMR_INT_H
#define DS_SMR_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "run/result.h"

#define MAX_GAPS 2048		/* per target; more are counted, not kept */

struct smr_gap {
	uint64_t start_ns, len_ns;	/* from the step's start */
	uint64_t bytes_before, ios_before;
};

/* on_io's per-target state: every gap of 100 ms or more between completions. */
struct smr_io {
	bool frozen;			/* set by on_step after the random writes: later steps are not kept */
	uint64_t last_t;
	uint64_t bytes, ios;		/* writes completed, measured */
	size_t n_gaps;
	uint64_t gaps_lost;		/* past MAX_GAPS */
	struct smr_gap gap[MAX_GAPS];
};

struct smr_fig {
	size_t n;			/* stalls, the one under way at the end included */
	const struct smr_gap *first;
	struct smr_gap tail;		/* the stall under way at the end (open_end) */
	double secs, iops, mbps;	/* whole measured time */
	double before_s, before_iops, before_mbps, cache_mb;
	double len_min, len_med, len_max, stalled_s;	/* seconds; of the ended stalls */
	struct known_dbl period;	/* median between stall starts; unknown: < 2 stalls */
	bool regular;			/* the periods agree (within half the median) */
	double between_iops;		/* after the first stall, stalls included */
	bool open_end;			/* a stall under way when the time ran out */
	bool full_start;		/* the first stall within the first 64 MB: the cache was not empty */
	struct known_dbl clean_mbps;	/* full_start: written from the first stall on per second stalled */
	struct known_dbl idle_min;	/* full_start: idle time advised before re-testing */
	double idle_cache, idle_rate;	/* its basis: bytes assumed cached, MB/s of cleaning */
};

/* The "smr" table (a row per target) and the "stalls" table (each stall
 * of at least thr ns).  call: each target's call ("DM-SMR confirmed"). */
void smr_add_tables(struct run_result *r, const struct smr_fig *fig, const struct smr_io *const *io,
		    const char *const *call, size_t n, const struct step_result *sr, uint64_t thr);
#endif
