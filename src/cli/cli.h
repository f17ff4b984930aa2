/* cli.h - the global options (before the command word), the exit codes,
 * and the commands main.c dispatches to. */
#ifndef DS_CLI_H
#define DS_CLI_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "inventory/inventory.h"

enum ds_exit {
	EXIT_OK_ = 0,		/* success */
	EXIT_PROBLEMS = 1,	/* test ran but found problems/errors; list --strict: facts missing */
	EXIT_USAGE = 2,		/* usage error, bad input file */
	EXIT_REFUSED = 3,	/* refused by the write guard */
	EXIT_OUTPUT = 2,	/* an output (stdout, --json, --csv) could not be written */
	EXIT_SIGINT = 130,
	EXIT_SIGTERM = 143,
};

/* Options that come before the command word, shared by every command. */
struct global_opts {
	bool demo;			/* --demo: add the simulated rig */
	const char *rig;		/* --rig FILE (default built-in seed-bench.rig) */
	const char *sim_models[16];	/* --sim-model FILE (repeatable) */
	size_t n_sim_models;
	double sim_speed;		/* --sim-speed N (TUI real-time sim), default 1 */
	bool sim_speed_set;		/* given: headless runs pace sim drives too */
	const char *theme;		/* --theme NAME|FILE */
	const char *glyphs;		/* --glyphs braille|block|ascii */
	long frames;			/* --frames N (TUI smoke tests), 0 = unlimited */
	struct inventory_opts inv;
	struct blob_arg blobs[32];	/* backing store for inv.blobs */
};

/* globals.c: take the global options out of argv wherever they stand
 * (before `--` only), set in g; the rest is compacted in place.  Returns the
 * new argc, or -1 with one line on stderr. */
int globals_extract(int argc, char **argv, struct global_opts *g);
/* Load the --sim-model files and the --rig (sim:MODEL targets need them
 * without --demo too).  0, or -errno with one line on stderr. */
int globals_load_sim(const struct global_opts *g);
/* --check-model FILE: 0, or -EINVAL with "file:line: message" in err. */
int globals_check_model(const char *file, char *err, size_t errlen);
/* The whole usage text: the commands, then the global options' table. */
void globals_usage(FILE *f);

/* list.c: `diskscope list [--json] [--strict]`: an exit code. */
int cli_list(int argc, char **argv, struct global_opts *g);
/* `diskscope estimate RESULT.json [SMR.json] [--layout L] [--drives N]
 * [--json FILE]`: the estimate recomputed from a saved result.  Exit 0, 2
 * (usage, unreadable file, nothing measured in it). */
int estimate_cli(int argc, char **argv);
int cli_estimate(int argc, char **argv, struct global_opts *g);
/* Read rates of other drives of a model from the bench history (plan.history_rates). */
int cli_history_rates(const char *model, const struct strlist *skip, double *rates, size_t max, size_t *n);
/* history.c: `diskscope history [DRIVE|--model M|--since DATE] [--json]
 * [--csv FILE]`: an exit code. */
int history_cli(int argc, char **argv);
/* report.c: `diskscope report RESULT.json|RUN-ID... [--batch DATE] [-o FILE]`:
 * an HTML page.  Exit 0, 2 (usage, a bad input, the output not written). */
int report_cli(int argc, char **argv, struct global_opts *g);
/* station.c: `diskscope station [PROFILE] --headless [...]`: the bench
 * station (src/station/).  Exit 0 (quit by a signal: 128+sig), 2 usage. */
int station_cli(int argc, char **argv, struct global_opts *g);
/* Scan the inventory as the global options say; 0, or EXIT_USAGE with one
 * line on stderr (inv freed). */
int cli_scan(struct inventory *inv, const struct global_opts *g);

/* run.c: argv[0] is "run" (the command word) or the test name itself; then TEST
 * TARGET... [options].  Returns an exit code (enum ds_exit): 0, 1 problems
 * found, 2 usage, 3 refused by the guard, 130/143 interrupted. */
int run_cli(int argc, char **argv, const struct global_opts *g);
void run_cli_usage(FILE *f);
/* Errors, a failed link check, a target that measured nothing: exit 1. */
struct run_result;
bool run_has_problems(const struct run_result *r);
#endif
