/* measure.h - the runner's own measuring around the workers (measure.c). */
#ifndef DS_MEASURE_H
#define DS_MEASURE_H
#include "run/runner.h"
#include "run/worker.h"

/* The framework's own per-I/O view of a target (wraps the test's hook):
 * the rate by position. */
#define POS_BUCKETS 200

struct pos_bucket {
	uint64_t bytes, n;
	uint64_t t_first, t_last;	/* completions, ns from the step's start */
	uint64_t max_lat_ns;
	uint32_t first_len;
};

struct io_acc {
	worker_io_hook hook;		/* the test's, or NULL */
	void *state;
	/* by position across the region (positional tests), NULL when off */
	struct pos_bucket *pos;
	uint64_t region_start, region_end;
};

/* The per-I/O hook the runner installs in every worker (state: io_acc). */
void acc_on_io(void *state, const struct io_done *d);
/* The position buckets as a saved curve (rate and worst latency by
 * position); 0 / -ENOMEM. */
int acc_save_position(const struct io_acc *a, struct saved_pos *out);
/* Fill sr->aggregate_mbps, window_s and each result's stopped_early, after
 * the workers of the step were joined (w: the step's workers, their series;
 * have_w false when not all of them ran). */
void step_aggregate(struct step_result *sr, const struct plan_step *st, struct worker *w, bool have_w);
#endif
