/* options.h (cli) - what `diskscope run` adds to the run option table
 * (bench/plan-options.h): its usage text, the output formats argv may name,
 * and the outputs of a test started from the command line in the dashboard. */
#ifndef DS_CLI_OPTIONS_H
#define DS_CLI_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "bench/bench.h"
#include "bench/plan-options.h"
#include "run/runner.h"

/* The report's writers as plan_parse_args's output formats (--json, --csv,
 * --text): the index in run_outputs.path, or -1. */
int cli_output_find(const char *name, const char **arg);

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
#endif
