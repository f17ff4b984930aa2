/* ui.h - the dashboard's entry point.  main.c hands it the inventory and a
 * backend (start/stop/snapshot/result of runs); ui/ never calls the runner
 * directly, so it can be driven by a fake backend in tests. */
#ifndef DS_UI_H
#define DS_UI_H
#include <stdbool.h>
#include <stddef.h>
#include "inventory/inventory.h"
#include "run/result.h"
#include "run/snapshot.h"

struct ui_test_info {		/* one row of the test picker */
	const char *name;	/* the registry name */
	const char *summary;	/* one line */
	bool writes;		/* destroys data on the target */
	struct run_params defaults;	/* the test's own: the picker's form starts here */
};

struct ui_backend {
	void *ctx;
	const struct ui_test_info *tests;
	size_t n_tests;
	/* Start a run; 0 or -errno with a one-line reason in err.  confirmed:
	 * the drives whose names the user typed to allow writing them, as the
	 * inventory showed them (the guard compares each with what it opens);
	 * none (NULL, 0): the command line's --destroy-data stand.  Called with
	 * ui_opts.start_targets, it starts the command line's own plan, every
	 * option included.  words: the picker's form as "NAME=VALUE ..." (its
	 * changed fields, then the typed test options), parsed with the run
	 * option table (plan_from_words); NULL or "" none. */
	int (*start)(void *ctx, const char *test, const char *const *targets, size_t n_targets,
		     const char *words, const struct drive *const *confirmed, size_t n_confirmed,
		     char *err, size_t errlen);
	void (*stop)(void *ctx);				/* cooperative */
	int (*snapshot)(void *ctx, struct run_snapshot *s);	/* fill s (caller frees) */
	/* The finished run's result (NULL while none); owned by the backend. */
	const struct run_result *(*result)(void *ctx);
	/* Fold facts that arrived since (ATA/SMART answers) into inv, on the UI
	 * thread; returns how many drives changed.  NULL: the inventory is final. */
	size_t (*poll_inventory)(void *ctx, struct inventory *inv);
	/* The drive's bench history as text lines for the details panel (its
	 * last runs, its rate among the drives of its model); returns how many
	 * lines, 0 none.  NULL: no history in this build.  Called when the
	 * selected drive changes and after a run, not every frame. */
	size_t (*drive_history)(void *ctx, const struct drive *d, char (*out)[128], size_t max);
	/* Export the last result: 0 or -errno, path written in out. */
	int (*export_result)(void *ctx, const char *fmt, char *out, size_t outlen);
};

struct ui_opts {
	const char *theme;	/* NAME or FILE, NULL default */
	const char *glyphs;	/* NULL = auto */
	long frames;		/* exit after N frames, 0 = never */
	const char *start_test;	/* start this test at once */
	const char *const *start_targets;
	size_t n_start_targets;
	const struct run_params *start_params;
	const struct run_result *show[2];	/* `show`: saved runs */
	size_t n_show;
};

/* Run the dashboard until the user quits.  Returns 130/143 when a signal
 * ended it or the user stopped a running test to quit, else 0 (main.c then
 * takes the last run's code). */
int ui_main(struct inventory *inv, const struct ui_backend *be, const struct ui_opts *o);
#endif
