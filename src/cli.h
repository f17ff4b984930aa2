/* cli.h - what main.c parsed before dispatching, and the exit codes. */
#ifndef DS_CLI_H
#define DS_CLI_H
#include <stdbool.h>
#include <stddef.h>
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
	const char *theme;		/* --theme NAME|FILE */
	const char *glyphs;		/* --glyphs braille|block|ascii */
	long frames;			/* --frames N (TUI smoke tests), 0 = unlimited */
	struct inventory_opts inv;
	struct blob_arg blobs[32];	/* backing store for inv.blobs */
};
#endif
