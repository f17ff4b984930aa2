/* history.h - the bench history: every finished run recorded in an embedded
 * SQLite database (issue 14), and `diskscope history` to query it. */
#ifndef DS_HISTORY_H
#define DS_HISTORY_H
#include <stdbool.h>
#include <stddef.h>
#include <sqlite3.h>
#include "run/result.h"

#define HISTORY_SCHEMA 1	/* latest schema version (migrations in store.c) */

/* Take --db FILE|sqlite:FILE and --no-history out of argv (anywhere before a
 * "--"), for every command.  Returns the new argc, or -1 after one line on
 * stderr (postgresql:// is not supported yet; a missing value). */
int history_take_args(int argc, char **argv);

/* The database path: --db, else $DISKSCOPE_HISTORY_DB, else
 * $XDG_DATA_HOME/diskscope/history.db (~/.local/share/...). 0 or -ENAMETOOLONG/-ENOENT. */
int history_db_path(char *buf, size_t n);
/* The spool directory for runs the database could not take. */
int history_spool_dir(char *buf, size_t n);

/* Open (creating the file, in a directory that exists), set the busy timeout and
 * migrate the schema to HISTORY_SCHEMA.  0 or -errno with err set. */
int history_open(const char *path, sqlite3 **out, char *err, size_t n);
int history_schema_version(sqlite3 *db);	/* meta.schema_version; 0 none */
/* Record one run in one transaction (a run id seen before is left as is).
 * 0 or -errno with err set. */
int history_store(sqlite3 *db, const struct run_result *r, char *err, size_t n);
/* Import spooled runs (and remove them); returns how many, or -errno. */
int history_import_spool(sqlite3 *db, const char *dir);
/* Open the configured database and import the spool (one notice). */
int history_open_default(sqlite3 **db, char *err, size_t n);

struct history_opts {
	bool quiet;	/* no notice on stderr (the dashboard: curses owns the terminal) */
};
/* The hook after a run's result is final: record it unless --no-history;
 * on any failure spool the JSON and print one notice.  Never fails the run.
 * opts may be NULL. */
void history_record(const struct run_result *r, const struct history_opts *opts);

/* `diskscope history [DRIVE|--model M|--since DATE] [--json] [--csv FILE]` */
int history_cli(int argc, char **argv);
#endif
