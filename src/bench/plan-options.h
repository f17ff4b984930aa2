/* plan-options.h (bench) - the run options of `diskscope run TEST
 * TARGET... [options]` as one table, for the command line and the
 * dashboard alike (its command line, its picker's typed fields and words). */
#ifndef DS_PLAN_OPTIONS_H
#define DS_PLAN_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "run/plan-build.h"
#include "run/runner.h"
#include "run/test.h"

#define PLAN_OUTPUTS_MAX 8

/* What the options say beyond the plan. */
struct run_outputs {
	const char *path[PLAN_OUTPUTS_MAX];	/* per output format (its index): FILE, "-" or NULL */
	bool help;				/* --help seen */
};

/* The output formats argv may name (--NAME FILE|-): NAME's index in
 * run_outputs.path and its metavar, or -1.  The report's writers
 * (cli/options.h: cli_output_find); the core knows none (report sits above
 * it), NULL: argv names no output. */
typedef int (*plan_output_find_fn)(const char *name, const char **arg);

/* Parse TEST TARGET... [options] (argv[0] = TEST) into a fresh plan (the
 * test's defaults, then the options; targets as given, unresolved).
 * 0, or -EINVAL with one line naming the bad option/value in err. */
int plan_parse_args(struct plan *p, int argc, char **argv, plan_output_find_fn outputs,
		    struct run_outputs *out, char *err, size_t errlen);
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

/* The run options' lines of --help ("  --size SIZE   ..."). */
void plan_options_usage(FILE *f);
/* parse_size and parse_seconds: run/test.h */
#endif
