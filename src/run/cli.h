/* cli.h (run) - `diskscope run TEST TARGET... [options]`, and the option
 * parser the dashboard reuses to start straight into a test. */
#ifndef DS_RUN_CLI_H
#define DS_RUN_CLI_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "../cli.h"	/* src/cli.h: exit codes, global options */
#include "run/runner.h"

/* What the options say beyond the plan. */
struct run_outputs {
	const char *path[8];	/* per writer (report/writer.h, WRITER_MAX): FILE, "-" or NULL */
	const char *json;	/* --json FILE|- (also in path[]) */
	const char *csv;	/* --csv FILE|- (also in path[]) */
	bool help;		/* --help seen */
};

/* argv[0] is "run" (the command word) or the test name itself; then TEST
 * TARGET... [options].  Returns an exit code (enum ds_exit): 0, 1 problems
 * found, 2 usage, 3 refused by the guard, 130/143 interrupted. */
int run_cli(int argc, char **argv, const struct global_opts *g);

/* Parse TEST TARGET... [options] (argv[0] = TEST) into a fresh plan (the
 * test's defaults, then the options; targets as given, unresolved).
 * 0, or -EINVAL with one line naming the bad option/value in err. */
int plan_parse_args(struct plan *p, int argc, char **argv, struct run_outputs *out,
		    char *err, size_t errlen);
/* Resolve targets: sdb -> /dev/sdb, ctrl:N -> its drives (ordered by port)
 * and the link ceiling; a test by port orders drives by port.  0 or -errno + err. */
int plan_resolve_targets(struct plan *p, const struct global_opts *g, char *err, size_t errlen);
/* Steps for the plan (the test's builder).  0 or -errno + err. */
int plan_build(struct plan *p, char *err, size_t errlen);

/* Set one option of the table (name without "--") as the command line
 * would, with its checks and its one-line message: the dashboard's typed
 * parameter fields go through here.  0 or -EINVAL + err. */
int plan_set_option(struct plan *p, const char *name, const char *value, char *err, size_t errlen);

void run_cli_usage(FILE *f);
/* Errors, a failed link check, a target that measured nothing: exit 1. */
bool run_has_problems(const struct run_result *r);
/* parse_size and parse_seconds: run/test.h */
#endif
