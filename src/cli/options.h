/* options.h (cli) - the run options of `diskscope run TEST TARGET...
 * [options]`, a table the dashboard reuses to start straight into a test
 * and for its typed parameter fields. */
#ifndef DS_CLI_OPTIONS_H
#define DS_CLI_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "bench/bench.h"
#include "run/plan-build.h"
#include "run/runner.h"

/* What the options say beyond the plan. */
struct run_outputs {
	const char *path[8];	/* per writer (report/writer.h, WRITER_MAX): FILE, "-" or NULL */
	const char *json;	/* --json FILE|- (also in path[]) */
	const char *csv;	/* --csv FILE|- (also in path[]) */
	bool help;		/* --help seen */
};

/* Parse TEST TARGET... [options] (argv[0] = TEST) into a fresh plan (the
 * test's defaults, then the options; targets as given, unresolved).
 * 0, or -EINVAL with one line naming the bad option/value in err. */
int plan_parse_args(struct plan *p, int argc, char **argv, struct run_outputs *out,
		    char *err, size_t errlen);
/* The picker's start: TEST on targets with "NAME=VALUE ..." words (the
 * form's changed fields and the typed test options) into a fresh plan,
 * through the same table and the same final checks as argv.  Then, like
 * argv's plan, run/plan-build.h's plan_make.  0 or -errno + err. */
int plan_from_words(struct plan *p, const struct bench_test *t, const char *const *targets, size_t n,
		    const char *words, char *err, size_t errlen);

/* Set one option of the table (name without "--") as the command line
 * would, with its checks and its one-line message: the dashboard's typed
 * parameter fields go through here.  0 or -EINVAL + err. */
int plan_set_option(struct plan *p, const char *name, const char *value, char *err, size_t errlen);
/* "NAME=VALUE ..." (spaces or commas between, "--" before a name allowed):
 * each through plan_set_option; the picker's "test options" field.  0 or
 * -EINVAL + err naming the word. */
int plan_set_options(struct plan *p, const char *text, char *err, size_t errlen);

/* The output options when a test opens the dashboard (dash-outputs.c).
 * Check before it starts: "-" (curses owns stdout) and what `run` refuses;
 * 0 or -EINVAL + one line.  Write the finished run's result to each: 0 or
 * the first -errno + one line.  A run that could not start: its JSON. */
int dash_outputs_check(const struct run_outputs *o, char *err, size_t errlen);
bool dash_outputs_any(const struct run_outputs *o);
int dash_outputs_write(const struct run_result *r, const struct run_outputs *o, char *err, size_t errlen);
void dash_outputs_failed(const struct plan *p, const struct run_outputs *o, const char *why, bool refused);

/* --help: with a test, its summary and its own parameters first. */
void options_usage(FILE *f, const struct bench_test *t);
/* parse_size and parse_seconds: run/test.h */
#endif
