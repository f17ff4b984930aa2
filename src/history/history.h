/* history.h - the bench history: every finished run recorded (issue 14) in
 * an embedded SQLite file by default, or a shop's PostgreSQL server, and
 * `diskscope history` to query it. */
#ifndef DS_HISTORY_H
#define DS_HISTORY_H
#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include <json-c/json.h>
#include "run/result.h"
#include "util/util.h"

#define HISTORY_SCHEMA 4	/* latest schema version (migrations in store.c) */

struct hdb;	/* an open history database, either backend (history/db.h) */

/* Take --db FILE|sqlite:FILE|postgresql://URL|conninfo and --no-history out
 * of argv (anywhere before a "--"), for every command.  Returns the new argc,
 * or -1 after one line on stderr (a bad URL, a missing value). */
int history_take_args(int argc, char **argv);

/* Where the history is: --db, else $DISKSCOPE_HISTORY_DB, else the config
 * file's [history] db, else $XDG_DATA_HOME/diskscope/history.db
 * (~/.local/share/...).  A file path or a PostgreSQL URL/conninfo.
 * 0 or -ENAMETOOLONG/-ENOENT. */
int history_db_path(char *buf, size_t n);
/* The spool directory for runs the database could not take. */
int history_spool_dir(char *buf, size_t n);
/* The bench's name in the history: the config's [history] bench, else host. */
const char *history_bench_name(const char *host);

/* The test registry's flags of a test called name (TEST_*, run/result.h),
 * 0 an unknown test: what the history files each run under.  Given once
 * by the program (main.c: the registry) before any history is opened; a
 * run recorded before schema 3, and a loaded document, get their test's
 * flags from it. */
typedef unsigned (*history_flags_fn)(const char *test);
void history_use_registry(history_flags_fn flags_of);

/* Open a file or a server and migrate the schema to HISTORY_SCHEMA.
 * 0 or -errno with err set (-ECONNREFUSED: the server is unreachable). */
int history_open(const char *where, struct hdb **out, char *err, size_t n);
void history_close(struct hdb *db);
int history_schema_version(struct hdb *db);	/* meta.schema_version; 0 none, <0 error */
/* Record one run in one transaction (a run id seen before is left as is).
 * 0 or -errno with err set. */
int history_store(struct hdb *db, const struct run_result *r, char *err, size_t n);
/* Import spooled runs (and remove them); returns how many, or -errno. */
int history_import_spool(struct hdb *db, const char *dir);
/* Open the configured database and import the spool (one notice). */
int history_open_default(struct hdb **db, char *err, size_t n);

struct history_opts {
	bool quiet;	/* no notice on stderr (the dashboard: curses owns the terminal) */
};
/* The hook after a run's result is final: record it unless --no-history;
 * on any failure spool the JSON and print one notice.  Never fails the run.
 * opts may be NULL. */
void history_record(const struct run_result *r, const struct history_opts *opts);

/* Queries of the configured database (each opens it, imports the spool
 * quietly and closes it).  All return 0 or -errno with one line in err. */

/* The stored "run" object (report/run.h run_json()) of a run id, or of a
 * unique prefix of one (8+ hex digits, as `history` prints them).  -ENOENT:
 * no such run, or one recorded before schema 2 kept no document. */
int history_run_json(const char *run_id, struct json_object **out, char *err, size_t n);
/* Run ids of the runs started on DATE (YYYY-MM-DD, local time), oldest
 * first, added to ids (the caller frees it).  -EINVAL: not a date. */
int history_runs_on(const char *date, struct strlist *ids, char *err, size_t n);

#define HISTORY_SUMMARY_RUNS 5
struct history_run_brief {
	char run_id[40];
	time_t started;
	char date[20];		/* "YYYY-MM-DD HH:MM", local time */
	char test[32];
	unsigned flags;		/* the test's TEST_* as recorded */
	struct known_dbl mbps;	/* the drive's mean over the run's steps */
	int level;		/* the run's worst verdict (enum verdict_level); -1 none */
};
struct history_drive_summary {
	char target[64], model[64], serial[64], wwn[64];
	struct history_run_brief runs[HISTORY_SUMMARY_RUNS];	/* newest first */
	size_t n_runs;
	struct known_dbl mbps;		/* latest good reference read rate (TEST_REF_READ) */
	struct known_dbl percentile;	/* among the other drives of its model (ties half); unknown: no peers */
	int peers;		/* how many other drives of its model have a rate */
};
/* A drive (serial, WWN or recorded target name, as `history DRIVE`): its
 * last runs, its model, its percentile among the others of its model.
 * -ENOENT: no run of that drive recorded. */
int history_drive_summary(const char *key, struct history_drive_summary *out, char *err, size_t n);
/* The best read rate (MB/s, mean over a run's steps) each recorded drive of
 * MODEL reached in a finished TEST run (NULL: a reference read, TEST_REF_READ), at most
 * max of them into rates (by drive row, oldest first), *n how many.  The
 * drives of a run in progress are not recorded yet; drives whose serial is
 * in skip_serials (NULL none) are left out: the drives on the bench now. */
int history_model_rates(const char *model, const char *test, const struct strlist *skip_serials,
			double *rates, size_t max, size_t *n, char *err, size_t en);

/* The drive's own verdict in a run: its row ({column: value}) of the
 * verdict table in its recorded facts (run_target.facts), when the run's
 * test judges drives (flags has TEST_JUDGES); else, or no such row, NULL.
 * The row belongs to facts (NULL allowed). */
struct json_object *history_verdict_row(struct json_object *facts, unsigned flags);

/* --no-history was given: nothing recorded, nothing read. */
bool history_off(void);
#endif
