/* plan-build.h (run) - the one way a plan is made, whoever starts the run:
 * `diskscope run`, the dashboard's command line, the dashboard's picker.
 * Each turns its words into a plan through the one option table
 * (bench/plan-options.c: plan_parse_args for argv, plan_from_words for the
 * picker's fields); plan_make does everything after that, the same way for
 * all, so the same test on the same drives is the same plan. */
#ifndef DS_PLAN_BUILD_H
#define DS_PLAN_BUILD_H
#include <stdbool.h>
#include <stddef.h>
#include "run/runner.h"

struct inventory;
struct inventory_opts;

/* What a plan takes from where it is started. */
struct plan_env {
	/* The inventory the user chose from (the dashboard's): every target
	 * name is looked up there and each drive's identity (model, serial,
	 * controller, port...) comes from it.  NULL: scanned with inv_opts
	 * (NULL: the defaults) when a name needs it. */
	struct inventory *inv;
	const struct inventory_opts *inv_opts;
	/* The bench history's read rates of other drives of a model (peers
	 * for triage); NULL: no history. */
	int (*history_rates)(const char *model, const struct strlist *skip, double *rates, size_t max,
			     size_t *n);
	/* Sim drives' pacing: given, sim_speed (0 the virtual clock, else
	 * real time x this); else the plan's own (the virtual clock). */
	bool sim_speed_set;
	double sim_speed;
};

/* Complete a parsed plan (its test, user_targets and options set): the
 * targets resolved in env's inventory with each drive's identity, the
 * history's peers, the sim pacing, then the test's steps.  0, or -errno
 * with one line in err. */
int plan_make(struct plan *p, const struct plan_env *env, char *err, size_t errlen);
/* The test's steps alone (plan_make's last part; unit tests).  0 / -errno. */
int plan_build(struct plan *p, char *err, size_t errlen);
#endif
