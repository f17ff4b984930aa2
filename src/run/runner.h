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
#include "run/test.h"
#include "run/worker.h"

struct bench_test;

#define PLAN_MAX_TARGETS 64

struct plan_step {
	unsigned n;			/* active targets */
	unsigned idx[PLAN_MAX_TARGETS];	/* indexes into plan.targets */
	double seconds;			/* measured time, 0 = by size / one pass */
	double ramp_s;
	struct run_params rp;		/* this step's own parameters (bs, qd, region, mix...) */
	char label[48];			/* what the step is, e.g. "4 drives", "4k at +512" */
	bool solo;			/* a reference pass (results in run_result.solo) */
	bool maps;			/* a scan that maps the surface by position (the surface
					   panel draws it live) */
	double ref_mbps;		/* a reference line the test expects (ideal), 0 none */
	double pause_s;			/* idle before this step (sim drives idle on their clock) */
	unsigned max_consec_errors;	/* failed I/Os in a row that end a worker, 0 = default (256) */
	bool own;			/* the test's own work, no I/O (its run_step hook: a
					   drive self-test) */
	struct io_next first[PLAN_MAX_TARGETS];	/* a steered step: each target's first I/O
					   (by target index; the test's hook then says where
					   each next one goes, io_done.next) */
};


struct plan {
	const struct bench_test *test;
	struct strlist user_targets;	/* as the user named them (ctrl:0, /tmp/x) */
	struct strlist targets;		/* what is opened: /dev/sdb, /tmp/x, sim:M */
	struct target_ident ident[PLAN_MAX_TARGETS];	/* per target, same order */
	struct run_params params;
	struct bench_value pv[BENCH_MAX_PARAMS];	/* the test's parameters, table order */
	enum offset_pattern pat;
	enum data_mode data;
	bool region_lba;		/* region given in LBAs (logical sectors) */
	uint64_t region_lba_start, region_lba_end;	/* end 0 = end of target */
	bool engine_explicit;		/* --engine given: no fallback */
	double io_timeout_s;		/* --io-timeout, 0 = the default (30 s) */
	struct target_opts topts;
	struct plan_step *steps;	/* in run order; solo passes flagged */
	size_t n_steps;
	/* controller facts (for tests over a controller) */
	struct known_dbl ceiling_mbps;
	char ceiling_text[64];
	bool link_downgraded;
	char link_text[160];		/* e.g. "x1 (card supports x8)" */
	char ctrl_name[160];
	char shared_note[160];		/* e.g. "the loop devices share one backing disk" */
	struct strlist notes;		/* one line each, shown and saved */
	/* which options the user set explicitly (so builders keep them) */
	bool set_bs, set_qd, set_time, set_pattern, set_rw, set_ramp;
	/* The bench history's read rates of other drives of a model (drives
	 * whose serial is in skip left out), for tests that compare peers;
	 * set by the command line and the dashboard, NULL: no history.
	 * 0 / -errno. */
	int (*history_rates)(const char *model, const struct strlist *skip, double *rates, size_t max,
			     size_t *n);
};

void plan_init(struct plan *p, const struct bench_test *t);
void plan_free(struct plan *p);
/* Append a step over targets [0, n) (or the listed ones) with the plan's
 * parameters but this time and ramp.  0 / -E2BIG / -ENOMEM. */
int plan_add_step(struct plan *p, const unsigned *idx, unsigned n, double seconds, double ramp_s);
/* A reference pass of one target (its results go to run_result.solo). */
int plan_add_solo(struct plan *p, unsigned idx, double seconds, double ramp_s);
/* Append a step with its own parameters and label; *out (optional) gets it
 * (valid until the next append).  0 / -E2BIG / -ENOMEM. */
int plan_add_step_params(struct plan *p, const unsigned *idx, unsigned n,
			 const struct run_params *rp, const char *label, struct plan_step **out);
/* The plan as one step sees it: its parameters, region, pattern and data. */
void plan_for_step(const struct plan *p, const struct plan_step *st, struct plan *out);
/* Set one of the test's parameters from text ("--bs 4k" -> "bs", "4k").
 * 0, -ENOENT (the test has no such parameter), -EINVAL + err. */
int plan_set_param(struct plan *p, const char *name, const char *text, char *err, size_t errlen);
/* The plan writes: the test always does, its --rw mix does, or one of its
 * parameters is at its writes_when choice (triage --write-verify on).  The
 * command line and the picker ask this one function. */
bool plan_writes(const struct plan *p);
/* A writing plan on a drive formatted to 520/528-byte blocks: -EPERM with
 * the guard's kind of sentence (format-check.c); else 0. */
int plan_check_format(const struct plan *p, const struct target *t, char *err, size_t errlen);
/* Set a parameter from a value (the picker's form); 0 / -ENOENT / -EINVAL. */
int plan_set_value(struct plan *p, const char *name, const struct bench_value *v);
/* A parameter's value (the user's or the default): unknown / "" when the
 * test has no such parameter.  plan_param_num is its number for a test
 * asking one of its own parameters (0 for no such one). */
struct known_dbl plan_param_known(const struct plan *p, const char *name);
double plan_param_num(const struct plan *p, const char *name);
const char *plan_param_str(const struct plan *p, const char *name);

/* The region of a target in bytes, [*s, *e), the start aligned down to the
 * target's offset alignment; an LBA past the end never wraps. */
void plan_region(const struct plan *p, const struct target *t, uint64_t *s, uint64_t *e);
/* Resolve targets: sdb -> /dev/sdb, ctrl:N -> its drives (ordered by port)
 * and the link ceiling; a test by port orders drives by port.  inv: how to
 * scan (NULL: the defaults).  0 or -errno + err. */
struct inventory_opts;
struct inventory;
int plan_resolve_targets(struct plan *p, const struct inventory_opts *inv, char *err, size_t errlen);
/* The same against a given inventory (the one the user chose from; every
 * name is looked up there, identities come from it); NULL: scanned with
 * opts when a name needs it.  run/plan-build.h's plan_make calls this. */
int plan_resolve_targets_in(struct plan *p, struct inventory *given, const struct inventory_opts *opts,
			    char *err, size_t errlen);
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
