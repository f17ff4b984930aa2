/* station.h (station) - the bench station (`diskscope station`): slots that
 * test each drive as it is plugged in, each in its own worker, and tell
 * what happens as one JSON line per event (the man page lists them). */
#ifndef DS_STATION_H
#define DS_STATION_H
#include <stdbool.h>
#include <stddef.h>
#include "util/util.h"

struct inventory_opts;

#define STATION_SCHEMA "diskscope-station/1"

struct station_opts {
	const char *profile;		/* the profile's name, NULL: quick-check */
	const char *profiles_file;	/* --profiles FILE, NULL: the lookup (station/profile.h) */
	const char *slots_file;		/* --slots FILE, NULL: one slot per drive's port as seen */
	const char *events;		/* --events FILE, NULL or "-": stdout */
	const char *out_dir;		/* --out DIR: results by serial, NULL: ./station */
	double io_timeout_s;		/* --io-timeout: hung after this without progress (30) */
	unsigned max_per_ctrl;		/* --max-per-controller N: concurrent jobs, 0 no limit */
	double stagger_s;		/* --stagger: at least this between two starts (spin-up) */
	double quit_s;			/* quitting waits at most this for the jobs (5) */
	double pull_grace_s;		/* ENODEV: this long for the device to go before "dropped" (2) */
	const struct inventory_opts *inv;	/* how to scan (NULL: the defaults) */
	/* The bench history's peers (run/plan-build.h plan_env.history_rates). */
	int (*history_rates)(const char *model, const struct strlist *skip, double *rates, size_t max,
			     size_t *n);
	int (*stop_requested)(void);	/* non-zero: quit (a signal came) */
};

void station_opts_default(struct station_opts *o);
/* Run until stop_requested.  0, or -errno with one line in err (a bad
 * slots.ini or profile, no uevents). */
int station_run(const struct station_opts *o, char *err, size_t errlen);
/* The profiles the lookup finds, one line each (name, description, origin). */
int station_list_profiles(const char *profiles_file, FILE *f, char *err, size_t errlen);
#endif
