/* runner-int.h - the runner's state, shared by runner.c (the run) and
 * step.c (one step).  Not for other folders. */
#ifndef DS_RUNNER_INT_H
#define DS_RUNNER_INT_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "run/runner.h"
#include "run/worker.h"

struct tgt_live {			/* the sampler's view of one target */
	uint64_t seen;			/* series samples consumed */
	uint64_t last_new_ns;		/* wall time a sample last arrived */
	struct worker *w;		/* its worker in the current step, or NULL */
	struct snap_target snap;
};


struct runner {
	struct plan plan;		/* a copy (lists duplicated) */
	struct target *t;
	size_t n_t;
	const struct engine_ops *ops_default, *ops_fallback, *ops_sim;
	pthread_t th;
	bool started;
	bool launched;		/* runner_start ran its thread (started goes false once joined) */
	bool result_taken;	/* runner_result ran the test's finish */
	atomic_bool stop;
	atomic_bool over;
	atomic_int stop_reason;		/* set by whoever stops, read by the runner thread */
	pthread_mutex_t mu;		/* guards snap, live[].snap, result */
	pthread_cond_t cv;
	struct run_snapshot snap;
	struct tgt_live *live;
	uint64_t base_hist[SNAP_HIST];	/* finished steps */
	uint64_t tick_base;		/* run-wide sample tick at which this step began */
	struct run_result res;
	uint64_t t_start;
	double planned_s, done_planned_s;
	size_t n_res_cap;		/* room in res.steps / res.solo */
	struct bench_ctx ctx;		/* what the test's hooks see */
	void *state, *io_state;		/* the test's, zeroed */
	struct result_table live_tbl;	/* the test's table so far (live_table), under mu */
};

/* Under mu: the state shown, and a note for the result and the message line. */
void runner_set_state(struct runner *r, enum run_state st, const char *msg);
void runner_note(struct runner *r, const char *msg);
/* A step's planned seconds (ramp and pause included), 0 when by size. */
double step_planned(const struct plan_step *st);
/* Run one step; results into sr->res[] (n = st->n).  0, or -errno when the
 * step could not run (a worker that did not set up, start or run). */
int step_run(struct runner *r, const struct plan_step *st, size_t step_pos, struct step_result *sr);
/* A step of the test's own work (plan_step.own; step-own.c). */
int step_own(struct runner *r, const struct plan_step *st, struct step_result *sr);
#endif
