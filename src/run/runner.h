/* runner.h - a plan (test + targets + parameters, made of steps) and the
 * thread that runs it: one worker per active target per step, a 10 Hz
 * sampler feeding the snapshot, and the final run_result. */
#ifndef DS_RUNNER_H
#define DS_RUNNER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "io/target.h"
#include "run/offsets.h"
#include "run/result.h"
#include "run/snapshot.h"
#include "run/worker.h"

struct bench_test;

#define PLAN_MAX_TARGETS 64

struct plan_step {
	unsigned n;			/* active targets */
	unsigned idx[PLAN_MAX_TARGETS];	/* indexes into plan.targets */
	double seconds;			/* measured time, 0 = by size / one pass */
	double ramp_s;
};

struct target_ident {			/* from the inventory, "" when unknown */
	char drive_id[128], model[64], serial[64];
};

struct plan {
	const struct bench_test *test;
	struct strlist user_targets;	/* as the user named them (ctrl:0, /tmp/x) */
	struct strlist targets;		/* what is opened: /dev/sdb, /tmp/x, sim:M */
	struct target_ident ident[PLAN_MAX_TARGETS];	/* per target, same order */
	struct run_params params;
	enum offset_pattern pat;
	enum data_mode data;
	bool region_lba;		/* region given in LBAs (logical sectors) */
	uint64_t region_lba_start, region_lba_end;	/* end 0 = end of target */
	bool engine_explicit;		/* --engine given: no fallback */
	double io_timeout_s;		/* --io-timeout, 0 = the default (30 s) */
	struct target_opts topts;
	struct plan_step *steps;
	size_t n_steps;
	struct plan_step *solo;		/* saturate: solo passes for the ideal line */
	size_t n_solo;
	/* controller facts (saturate) */
	double ceiling_mbps;		/* 0 unknown */
	char ceiling_text[64];
	bool link_downgraded;
	char link_text[160];		/* e.g. "x1 (card supports x8)" */
	char ctrl_name[160];
	char shared_note[160];		/* e.g. "the loop devices share one backing disk" */
	struct strlist notes;		/* one line each, shown and saved */
	/* which options the user set explicitly (so builders keep them) */
	bool set_bs, set_qd, set_time, set_pattern, set_rw, set_ramp;
};

void plan_init(struct plan *p, const struct bench_test *t);
void plan_free(struct plan *p);
/* Append a step over targets [0, n) (or the listed ones). 0 / -ENOMEM. */
int plan_add_step(struct plan *p, const unsigned *idx, unsigned n, double seconds, double ramp_s);
int plan_add_solo(struct plan *p, unsigned idx, double seconds, double ramp_s);

/* The region of a target in bytes, [*s, *e), the start aligned down to the
 * target's offset alignment; an LBA past the end never wraps. */
void plan_region(const struct plan *p, const struct target *t, uint64_t *s, uint64_t *e);
/* Block size, region and stride against one target: 0 or -EINVAL + reason. */
int plan_check_target(const struct plan *p, const struct target *t, char *err, size_t errlen);

struct runner;

/* Open every target (the guard decides on writes).  On failure: -errno,
 * one line in err, *bad_target = the index that failed. */
int runner_create(const struct plan *p, struct runner **out, int *bad_target,
		  char *err, size_t errlen);
int runner_start(struct runner *r);
void runner_stop(struct runner *r);		/* cooperative: within one completion */
/* Wait up to timeout_ms (negative: forever); true when the run is over. */
bool runner_wait(struct runner *r, int timeout_ms);
/* The live state for the UI and the progress line; free with snapshot_free. */
int runner_snapshot(struct runner *r, struct run_snapshot *out);
/* The final result (after runner_wait returned true); caller frees with
 * run_result_free.  Verdicts come from the test's verdict function. */
int runner_result(struct runner *r, struct run_result *out);
void runner_destroy(struct runner *r);
#endif
