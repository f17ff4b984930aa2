/* measure.h - the runner's own measuring around the workers (measure.c). */
#ifndef DS_MEASURE_H
#define DS_MEASURE_H
#include "run/runner.h"
#include "run/worker.h"

/* The framework's own per-I/O view of a target (wraps the test's hook):
 * errors during ramp-up are kept apart from the measured ones. */
struct io_acc {
	uint64_t ramp_ns;
	struct err_summary ramp, meas;
	worker_io_hook hook;		/* the test's, or NULL */
	void *state;
};

/* The per-I/O hook the runner installs in every worker (state: io_acc). */
void acc_on_io(void *state, const struct io_done *d);
/* Fill sr->aggregate_mbps, window_s and each result's stopped_early, after
 * the workers of the step were joined (w: the step's workers, their series;
 * have_w false when not all of them ran). */
void step_aggregate(struct step_result *sr, const struct plan_step *st, struct worker *w, bool have_w);
#endif
