/* view.h - what `diskscope history` reads, row by row: the drives that match
 * a key or a model, each drive's runs with its own verdict and SMART counts,
 * and its place among its model.  The backend's columns stay behind this
 * struct: the command only prints. */
#ifndef DS_HISTORY_VIEW_H
#define DS_HISTORY_VIEW_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "util/known.h"

struct history_view;	/* an open database and its cursors */

struct history_drive_row {
	int64_t id;
	char model[128], serial[128], wwn[64], firmware[64];	/* "" unknown */
};

struct history_run_row {
	char run_id[40];
	time_t started;
	char test[32];
	char target[160];
	unsigned flags;			/* the test's TEST_* as recorded */
	struct known_dbl mbps;		/* the drive's mean over the run's steps */
	int64_t errors;
	bool interrupted, failed;
	char verdict[8], reason[96];	/* the drive's own verdict, "" none */
	struct known_i64 reallocated, pending;	/* SMART 5 and 197 after the run */
	/* the drive's health as the run last read it (drive_health): its class
	 * ("nvme", "ata", "" none recorded), the figures as text ("critical
	 * warning 0x05, spare 5%, ..."), and as the JSON object recorded */
	char health_class[16];
	char health[400];
	char health_json[1024];
};

/* Open the configured history (the spool imported, one notice) for the
 * drives matching key (serial, WWN, target name) or, key NULL, those of
 * model (NULL: every drive), with their runs since since.  0 or -errno
 * with err set. */
int history_view_open(struct history_view **v, const char *key, const char *model, time_t since,
		      char *err, size_t n);
/* The next drive: 1, 0 at the end, -errno. */
int history_view_drive(struct history_view *v, struct history_drive_row *d);
/* The next run of the drive last returned: 1, 0 at the end, -errno. */
int history_view_run(struct history_view *v, struct history_run_row *r);
/* The drive's rate among the latest rates of the other drives of its model:
 * how many others (-errno), *pct their percentile (unknown with none). */
int history_view_peers(struct history_view *v, const char *model, double rate, struct known_dbl *pct);
void history_view_close(struct history_view *v);
#endif
