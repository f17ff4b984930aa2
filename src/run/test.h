/* test.h - what a bench test declares to the framework (DESIGN.md "The test
 * framework"): its typed parameters, a planner, optional hooks and the
 * panels it feeds.  The tests themselves live in src/bench/, one file each,
 * listed in one registry table; the runner only knows this interface. */
#ifndef DS_TEST_H
#define DS_TEST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "run/result.h"
#include "run/worker.h"

struct plan;
struct target;

/* ---- typed parameters ---- */

enum bench_param_kind { BP_SIZE, BP_COUNT, BP_DURATION, BP_PERCENT, BP_CHOICE };

/* Which run_params field a parameter sets; BIND_NONE keeps it private to
 * the test (the planner reads it with plan_param_num / plan_param_str). */
enum bench_bind { BIND_NONE, BIND_BS, BIND_QD, BIND_SECONDS, BIND_RAMP, BIND_PATTERN,
		  BIND_RW, BIND_DATA };

struct bench_alias {		/* a word standing for a number ("read" = 100 %) or a choice (its index) */
	const char *word;
	double v;
};

struct bench_param {
	const char *name;		/* --name on the command line, the picker's label */
	enum bench_param_kind kind;
	enum bench_bind bind;
	const char *arg;		/* metavar in --help: SIZE, N, DURATION, PCT, a|b|c */
	const char *help;		/* one line */
	const char *bad;		/* the reason in "--name VALUE: <bad>" */
	double min, max;		/* range (size in bytes, duration in seconds) */
	double min_nonzero;		/* 0, or at least this (a --time shorter than a sample) */
	double multiple;		/* size: a multiple of this, 0 any */
	const char *const *choices;	/* BP_CHOICE: NULL-terminated */
	const struct bench_alias *aliases;	/* optional, {NULL} terminated */
	double def;			/* BIND_NONE: the default (choice: index) */
	const char *writes_when;	/* BP_CHOICE: the test writes when this choice is
					   set (plan_writes): the guard, the picker's dialog */
};

/* A value of a parameter (numbers in bytes / seconds / percent; a choice as
 * its text). */
struct bench_value {
	bool set;			/* given by the user (else the default) */
	double num;
	char str[24];
};

#define BENCH_MAX_PARAMS 32	/* triage has 27 (the SCSI rules, --self-test): room for more */

/* Panels a test feeds (bit mask). */
enum {
	PANEL_THROUGHPUT = 1u << 0,
	PANEL_LATENCY = 1u << 1,
	PANEL_SATURATION = 1u << 2,	/* steps over drive counts: aggregate vs ideal */
	PANEL_POSITION = 1u << 3,	/* positional: rate by position on the drive */
	PANEL_STALLS = 1u << 4,		/* throughput: mark stretches of >= 500 ms with no I/O */
	PANEL_TABLE = 1u << 5,		/* the test's table so far (live_table), filled step by step */
	PANEL_BOARD = 1u << 6,		/* the bench board: one row per drive, its verdict (a
					   TR_VERDICTS table in the result) */
};

/* What the hooks see: the runner's plan (steps may be appended), the result
 * so far, the test's own state and the per-target state of on_io. */
struct bench_ctx {
	struct plan *plan;
	struct run_result *res;
	void *state;			/* state_size bytes, zeroed, run-wide */
	void *io_state;			/* io_state_size bytes per target, zeroed */
	size_t n_targets;
	int knee_drives;		/* a mark for the saturation panel, 0 none */
	struct target *targets;		/* the opened targets (plan order), n_targets; for
					   target-level work between steps (target_trim) */
	struct runner *runner;		/* the run (bench_stopping, bench_show_progress) */
};

struct plan_step;

struct bench_test {
	const char *name;
	const char *summary;
	bool writes;			/* needs the guard and a confirmation */
	bool by_port;			/* needs the inventory: steps follow the controller's ports */
	bool command;			/* also `diskscope NAME ...`: headless in a script, the
					 * dashboard in a terminal */
	unsigned panels;		/* PANEL_* */
	unsigned flags;			/* TEST_* (run/result.h): what its results are, for the
					   consumers that must not know its name */
	struct run_params defaults;	/* base values; the bound parameters start here */
	const struct bench_param *const *params;	/* NULL-terminated */
	/* Steps, each with its own run_params and label (targets and options
	 * are set).  0 / -errno + one line in err. */
	int (*plan)(struct plan *p, char *err, size_t errlen);
	/* Optional: once, the targets open, before the first step and any
	 * I/O: facts read without writing.  0, or -errno + one line in err
	 * (-EPERM on a writing test: refused, exit 3). */
	int (*before)(struct bench_ctx *c, char *err, size_t errlen);
	/* Optional: every completion, in the worker thread; cheap, per-target
	 * state only (io_state_size bytes each, zeroed by the framework). */
	worker_io_hook on_io;
	size_t io_state_size;
	size_t state_size;		/* run-wide state for on_step / finish */
	/* Optional: after each step (solo passes too; sr is where its results
	 * are); may append steps (plan_add_step) and fill sr->ideal_mbps. */
	void (*on_step)(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr);
	/* Optional: about ten times a second while a step runs, from the
	 * sampler thread (never a worker's): slow checks between completions
	 * (SMART temperature).  step_s: the step's wall time so far.  It may
	 * ask a target to stop through that target's io_state, which its
	 * on_io acts on (io_done.stop). */
	void (*on_tick)(struct bench_ctx *c, const struct plan_step *st, double step_s);
	/* Optional: tables and verdicts at the end (default: error verdicts). */
	int (*finish)(struct bench_ctx *c, struct run_result *r);
	/* Optional: a step of the test's own work with no I/O (plan_step.own:
	 * commands to the drives, a self-test), on the runner's thread until
	 * done or bench_stopping; sr->res[k] is st->idx[k]'s (its name set).
	 * 0 / -errno (the step could not run). */
	int (*run_step)(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr);
	/* Optional (PANEL_TABLE): after each step, the test's table so far
	 * into out (an empty result; the first table is shown live). */
	int (*live_table)(struct bench_ctx *c, struct run_result *out);
};

/* ---- parameter API (CLI, --help, the picker) ---- */

/* The test's parameter called name, or NULL; *idx gets its index. */
const struct bench_param *bench_param_find(const struct bench_test *t, const char *name, size_t *idx);
size_t bench_param_count(const struct bench_test *t);
/* Text -> value, checked against kind and range.  0 / -EINVAL with
 * "--name TEXT: reason" in err. */
int bench_param_parse(const struct bench_param *bp, const char *text, struct bench_value *v,
		      char *err, size_t errlen);
/* Value -> text as a user types it ("4k", "1M", "10s", "70%", "seq"). */
void bench_param_format(const struct bench_param *bp, const struct bench_value *v, char *buf, size_t n);
/* The default value of a parameter for this test. */
void bench_param_default(const struct bench_test *t, const struct bench_param *bp, struct bench_value *v);
/* One line per parameter for --help and the man page. */
void bench_params_usage(const struct bench_test *t, FILE *f);

/* Parsers shared with other commands: "4k", "1M", "512", "2GiB" (powers of
 * 1024) and "10", "500ms", "2m". 0 / -EINVAL / -ERANGE. */
int parse_size(const char *s, uint64_t *out);
int parse_seconds(const char *s, double *out);

/* For a test's own step (run_step): the run is being stopped (Ctrl-C, the
 * dashboard's stop, a signal). */
bool bench_stopping(const struct bench_ctx *c);
/* Show target ti's progress in its own step: frac 0..1 (not finite:
 * unknown), what it is doing ("short self-test"; the board and the
 * progress line show it). */
void bench_show_progress(struct bench_ctx *c, size_t ti, struct known_dbl frac, const char *what);

/* The error verdicts every test gets (one per target with I/O errors). */
void bench_verdict_errors(const struct plan *p, struct run_result *r);
/* Run a test's finish (or the error verdicts) outside a runner: for tests
 * of verdicts on fabricated results. */
int bench_finish(const struct plan *p, struct run_result *r);
#endif
