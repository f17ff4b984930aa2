/* store.c - the history database: path, schema migrations, one transaction
 * per recorded run, and the spool for runs the database could not take. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>
#include "history/history.h"
#include "report/doc.h"
#include "report/run.h"

static const char *opt_db;	/* --db */
static bool opt_off;		/* --no-history */

/* Migrations as data: entry N-1 takes the schema from version N-1 to N. */
static const char *const migrations[] = {
	/* 1: the first schema */
	"CREATE TABLE bench(id INTEGER PRIMARY KEY, host TEXT UNIQUE NOT NULL);"
	"CREATE TABLE run(id INTEGER PRIMARY KEY, run_id TEXT UNIQUE NOT NULL,"
	" bench INTEGER REFERENCES bench(id), started INTEGER, seconds REAL, version TEXT,"
	" test TEXT NOT NULL, params TEXT, interrupted INTEGER NOT NULL, failed INTEGER NOT NULL);"
	"CREATE TABLE drive(id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, model TEXT,"
	" serial TEXT, wwn TEXT, firmware TEXT, capacity INTEGER);"
	"CREATE TABLE run_target(run INTEGER NOT NULL REFERENCES run(id), drive INTEGER REFERENCES drive(id),"
	" target TEXT NOT NULL, controller TEXT, port TEXT, PRIMARY KEY(run, target));"
	"CREATE TABLE step_result(run INTEGER NOT NULL REFERENCES run(id), step INTEGER NOT NULL,"
	" label TEXT, target TEXT NOT NULL, mbps REAL, iops REAL, lat_p50 REAL, lat_p90 REAL,"
	" lat_p99 REAL, lat_p999 REAL, lat_max REAL, errors INTEGER NOT NULL);"
	"CREATE TABLE verdict(run INTEGER NOT NULL REFERENCES run(id), kind TEXT, level TEXT,"
	" text TEXT, evidence TEXT);"
	"CREATE TABLE result_table(run INTEGER NOT NULL REFERENCES run(id), name TEXT, title TEXT,"
	" row INTEGER, data TEXT);"
	"CREATE INDEX step_by_run ON step_result(run, target);"
	"CREATE INDEX target_by_drive ON run_target(drive);",
};

int
history_take_args(int argc, char **argv)
{
	int o = 1;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		if (!strcmp(a, "--")) {
			while (i < argc)
				argv[o++] = argv[i++];
			break;
		}
		if (!strcmp(a, "--no-history")) {
			opt_off = true;
			continue;
		}
		if (!strncmp(a, "--db=", 5))
			v = a + 5;
		else if (!strcmp(a, "--db")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "diskscope: --db needs a value (FILE or sqlite:FILE)\n");
				return -1;
			}
			v = argv[++i];
		} else {
			argv[o++] = argv[i];
			continue;
		}
		if (!strncmp(v, "postgresql://", 13) || !strncmp(v, "postgres://", 11)) {
			fprintf(stderr, "diskscope: --db %s: PostgreSQL is not supported yet (use a file or sqlite:FILE)\n", v);
			return -1;
		}
		if (!strncmp(v, "sqlite:", 7))
			v += 7;
		if (!*v || strstr(v, "://")) {
			fprintf(stderr, "diskscope: --db '%s': not a file path or sqlite:FILE\n", v);
			return -1;
		}
		opt_db = v;
	}
	argv[o] = NULL;
	return o;
}

/* $XDG_DATA_HOME/diskscope, else ~/.local/share/diskscope.  A HOME that
 * does not exist (HOME=/nonexistent) gives -ENOENT: nothing is created
 * there, even as root. */
static int
data_dir(char *buf, size_t n)
{
	const char *x = getenv("XDG_DATA_HOME"), *h = getenv("HOME");
	struct stat sb;
	int k;

	if (x && x[0] == '/')
		k = snprintf(buf, n, "%s/diskscope", x);
	else if (h && h[0] == '/' && !stat(h, &sb) && S_ISDIR(sb.st_mode))
		k = snprintf(buf, n, "%s/.local/share/diskscope", h);
	else
		return -ENOENT;
	return k < 0 || (size_t)k >= n ? -ENAMETOOLONG : 0;
}

int
history_db_path(char *buf, size_t n)
{
	const char *e = opt_db ? opt_db : getenv("DISKSCOPE_HISTORY_DB");
	int rc;

	if (e && *e) {
		if (strlen(e) >= n)
			return -ENAMETOOLONG;
		strcpy(buf, e);
		return 0;
	}
	if ((rc = data_dir(buf, n)))
		return rc;
	if (strlen(buf) + sizeof "/history.db" > n)
		return -ENAMETOOLONG;
	strcat(buf, "/history.db");
	return 0;
}

int
history_spool_dir(char *buf, size_t n)
{
	int rc = data_dir(buf, n);

	if (rc)
		return rc;
	if (strlen(buf) + sizeof "/spool" > n)
		return -ENAMETOOLONG;
	strcat(buf, "/spool");
	return 0;
}

/* mkdir -p of the directories above path's last component. */
static int
mkdir_parents(const char *path)
{
	char d[4096];

	if (strlen(path) >= sizeof d)
		return -ENAMETOOLONG;
	strcpy(d, path);
	for (char *p = d + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(d, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

static int
exec_sql(sqlite3 *db, const char *sql, char *err, size_t n)
{
	char *m = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &m) == SQLITE_OK)
		return 0;
	snprintf(err, n, "%s", m ? m : sqlite3_errmsg(db));
	sqlite3_free(m);
	return -EIO;
}

int
history_schema_version(sqlite3 *db)
{
	sqlite3_stmt *st;
	int v = 0;

	if (sqlite3_prepare_v2(db, "SELECT schema_version FROM meta", -1, &st, NULL) != SQLITE_OK)
		return 0;	/* no meta table: version 0 */
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Each step in its own IMMEDIATE transaction, so two first opens at once
 * migrate once (the second sees the version the first wrote). */
static int
migrate(sqlite3 *db, char *err, size_t n)
{
	const int latest = (int)(sizeof migrations / sizeof migrations[0]);

	for (;;) {
		if (exec_sql(db, "BEGIN IMMEDIATE", err, n))
			return -EIO;
		int v = history_schema_version(db);
		if (v >= latest) {
			exec_sql(db, "COMMIT", err, n);
			if (v > latest) {
				snprintf(err, n, "schema version %d is newer than this diskscope (%d)", v, latest);
				return -EPROTO;
			}
			return 0;
		}
		char set[96];
		snprintf(set, sizeof set, "UPDATE meta SET schema_version = %d", v + 1);
		if ((v == 0 && exec_sql(db, "CREATE TABLE IF NOT EXISTS meta(schema_version INTEGER NOT NULL);"
				"INSERT INTO meta SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM meta)", err, n)) ||
		    exec_sql(db, migrations[v], err, n) || exec_sql(db, set, err, n) ||
		    exec_sql(db, "COMMIT", err, n)) {
			sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
			return -EIO;
		}
	}
}

int
history_open(const char *path, sqlite3 **out, char *err, size_t n)
{
	sqlite3 *db = NULL;
	int rc;

	*out = NULL;
	/* SQLite would write into a block device whose first bytes are zeros:
	 * the database is a regular file or a new name, nothing else */
	struct stat sb;
	if (!stat(path, &sb) && !S_ISREG(sb.st_mode)) {
		snprintf(err, n, "%s: not a regular file", path);
		return -EINVAL;
	}
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		snprintf(err, n, "%s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return -EIO;
	}
	sqlite3_busy_timeout(db, 30000);	/* another diskscope recording at the same time */
	char why[256] = "";
	if ((rc = migrate(db, why, sizeof why))) {
		snprintf(err, n, "%s: %s", path, why);
		sqlite3_close(db);
		return rc;
	}
	*out = db;
	return 0;
}

/* Bind helpers: "" and unknown become NULL. */
static void
bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s && *s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static int
run_stmt(sqlite3 *db, sqlite3_stmt *st, sqlite3_int64 *id)
{
	int rc = sqlite3_step(st);

	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return -EIO;
	if (id)
		*id = sqlite3_last_insert_rowid(db);
	return 0;
}

static int
prep(sqlite3 *db, const char *sql, sqlite3_stmt **st)
{
	return sqlite3_prepare_v2(db, sql, -1, st, NULL) == SQLITE_OK ? 0 : -EIO;
}

static int
lookup_id(sqlite3 *db, const char *sql, const char *key, sqlite3_int64 *id)
{
	sqlite3_stmt *st;
	int rc = -ENOENT;

	if (prep(db, sql, &st))
		return -EIO;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/* The drive's model as recorded: the inventory's, else the step result's,
 * else a sim:MODEL target's model name (sim drives carry no identity). */
static const char *
drive_model(const struct run_result *r, size_t i)
{
	const char *t = r->ident_targets.v[i];

	if (r->ident[i].model[0])
		return r->ident[i].model;
	for (size_t s = 0; s < r->n_steps; s++)
		for (size_t k = 0; k < r->steps[s].n_res; k++)
			if (!strcmp(r->steps[s].res[k].target, t) && r->steps[s].res[k].model[0])
				return r->steps[s].res[k].model;
	return !strncmp(t, "sim:", 4) ? t + 4 : "";
}

/* One drive row: unique by serial, else WWN, else model+capacity+target. */
static int
store_drive(sqlite3 *db, const struct run_result *r, size_t i, sqlite3_int64 *id)
{
	const struct target_ident *d = &r->ident[i];
	const char *model = drive_model(r, i);
	char key[384];
	sqlite3_stmt *st;

	if (d->serial[0])
		snprintf(key, sizeof key, "serial:%s|%s", model, d->serial);
	else if (d->wwn[0])
		snprintf(key, sizeof key, "wwn:%s", d->wwn);
	else
		snprintf(key, sizeof key, "model:%s|%llu|%s", model,
			 d->capacity.known ? (unsigned long long)d->capacity.v : 0ULL, r->ident_targets.v[i]);
	if (prep(db, "INSERT INTO drive(key, model, serial, wwn, firmware, capacity) VALUES(?,?,?,?,?,?)"
		 " ON CONFLICT(key) DO UPDATE SET firmware = coalesce(excluded.firmware, firmware)", &st))
		return -EIO;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	bind_text(st, 2, model);
	bind_text(st, 3, d->serial);
	bind_text(st, 4, d->wwn);
	bind_text(st, 5, d->firmware);
	if (d->capacity.known)
		sqlite3_bind_int64(st, 6, (sqlite3_int64)d->capacity.v);
	if (run_stmt(db, st, NULL))
		return -EIO;
	return lookup_id(db, "SELECT id FROM drive WHERE key = ?", key, id);
}

static int
store_steps(sqlite3 *db, sqlite3_int64 run, const struct run_result *r)
{
	for (size_t s = 0; s < r->n_steps; s++)
		for (size_t k = 0; k < r->steps[s].n_res; k++) {
			const struct target_result *t = &r->steps[s].res[k];
			sqlite3_stmt *st;
			if (prep(db, "INSERT INTO step_result VALUES(?,?,?,?,?,?,?,?,?,?,?,?)", &st))
				return -EIO;
			sqlite3_bind_int64(st, 1, run);
			sqlite3_bind_int(st, 2, (int)r->steps[s].index);
			bind_text(st, 3, r->steps[s].label);
			bind_text(st, 4, t->target);
			if (t->bytes || t->ios) {	/* nothing moved: rate unknown */
				sqlite3_bind_double(st, 5, t->mbps);
				sqlite3_bind_double(st, 6, t->iops);
			}
			if (t->lat.known) {
				sqlite3_bind_double(st, 7, t->lat.p50);
				sqlite3_bind_double(st, 8, t->lat.p90);
				sqlite3_bind_double(st, 9, t->lat.p99);
				sqlite3_bind_double(st, 10, t->lat.p999);
				sqlite3_bind_double(st, 11, t->lat.max);
			}
			sqlite3_bind_int64(st, 12, (sqlite3_int64)t->err.count);
			if (run_stmt(db, st, NULL))
				return -EIO;
		}
	return 0;
}

static int
store_verdicts(sqlite3 *db, sqlite3_int64 run, const struct run_result *r)
{
	for (size_t i = 0; i < r->n_verdicts; i++) {
		const struct verdict *v = &r->verdicts[i];
		struct json_object *ev = json_object_new_array();
		sqlite3_stmt *st;
		for (size_t k = 0; ev && k < v->evidence.n; k++)
			json_object_array_add(ev, json_object_new_string(v->evidence.v[k]));
		if (!ev || prep(db, "INSERT INTO verdict VALUES(?,?,?,?,?)", &st)) {
			json_object_put(ev);
			return -EIO;
		}
		sqlite3_bind_int64(st, 1, run);
		bind_text(st, 2, v->kind);
		bind_text(st, 3, verdict_level_name(v->level));
		bind_text(st, 4, v->text);
		bind_text(st, 5, json_object_to_json_string_ext(ev, JSON_C_TO_STRING_PLAIN));
		int rc = run_stmt(db, st, NULL);
		json_object_put(ev);
		if (rc)
			return rc;
	}
	return 0;
}

/* Params and table rows as the JSON writer renders them (one mapping). */
static int
store_json_parts(sqlite3 *db, sqlite3_int64 run, struct json_object *j)
{
	struct json_object *tabs, *rows, *o;
	sqlite3_stmt *st;

	if (json_object_object_get_ex(j, "params", &o)) {
		if (prep(db, "UPDATE run SET params = ? WHERE id = ?", &st))
			return -EIO;
		bind_text(st, 1, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		sqlite3_bind_int64(st, 2, run);
		if (run_stmt(db, st, NULL))
			return -EIO;
	}
	if (!json_object_object_get_ex(j, "tables", &tabs) || !json_object_is_type(tabs, json_type_array))
		return 0;
	for (size_t t = 0; t < json_object_array_length(tabs); t++) {
		struct json_object *tab = json_object_array_get_idx(tabs, t), *name = NULL, *title = NULL;
		json_object_object_get_ex(tab, "name", &name);
		json_object_object_get_ex(tab, "title", &title);
		if (!json_object_object_get_ex(tab, "rows", &rows) || !json_object_is_type(rows, json_type_array))
			continue;
		for (size_t k = 0; k < json_object_array_length(rows); k++) {
			if (prep(db, "INSERT INTO result_table VALUES(?,?,?,?,?)", &st))
				return -EIO;
			sqlite3_bind_int64(st, 1, run);
			bind_text(st, 2, name ? json_object_get_string(name) : NULL);
			bind_text(st, 3, title ? json_object_get_string(title) : NULL);
			sqlite3_bind_int(st, 4, (int)k);
			bind_text(st, 5, json_object_to_json_string_ext(json_object_array_get_idx(rows, k),
								       JSON_C_TO_STRING_PLAIN));
			if (run_stmt(db, st, NULL))
				return -EIO;
		}
	}
	return 0;
}

static int
store_body(sqlite3 *db, const struct run_result *r, sqlite3_int64 *run)
{
	sqlite3_int64 bench = 0, drive;
	sqlite3_stmt *st;
	int rc;

	if (prep(db, "INSERT OR IGNORE INTO bench(host) VALUES(?)", &st))
		return -EIO;
	sqlite3_bind_text(st, 1, r->host[0] ? r->host : "unknown", -1, SQLITE_TRANSIENT);
	if (run_stmt(db, st, NULL) ||
	    lookup_id(db, "SELECT id FROM bench WHERE host = ?", r->host[0] ? r->host : "unknown", &bench))
		return -EIO;
	if (prep(db, "INSERT INTO run(run_id, bench, started, seconds, version, test, interrupted, failed)"
		 " VALUES(?,?,?,?,?,?,?,?)", &st))
		return -EIO;
	sqlite3_bind_text(st, 1, r->run_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, bench);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)r->started);
	sqlite3_bind_double(st, 4, r->seconds);
	bind_text(st, 5, r->version);
	bind_text(st, 6, r->test);
	sqlite3_bind_int(st, 7, r->interrupted);
	sqlite3_bind_int(st, 8, r->failed);
	if (run_stmt(db, st, run))
		return -EIO;
	for (size_t i = 0; i < r->n_ident && i < r->ident_targets.n; i++) {
		if ((rc = store_drive(db, r, i, &drive)))
			return rc;
		if (prep(db, "INSERT OR IGNORE INTO run_target VALUES(?,?,?,?,?)", &st))
			return -EIO;
		sqlite3_bind_int64(st, 1, *run);
		sqlite3_bind_int64(st, 2, drive);
		bind_text(st, 3, r->ident_targets.v[i]);
		bind_text(st, 4, r->ident[i].controller);
		bind_text(st, 5, r->ident[i].port);
		if (run_stmt(db, st, NULL))
			return -EIO;
	}
	if ((rc = store_steps(db, *run, r)) || (rc = store_verdicts(db, *run, r)))
		return rc;
	struct json_object *j = run_json(r);
	if (!j)
		return -ENOMEM;
	rc = store_json_parts(db, *run, j);
	json_object_put(j);
	return rc;
}

int
history_store(sqlite3 *db, const struct run_result *r, char *err, size_t n)
{
	sqlite3_int64 run, old;
	int rc;

	if (!r->run_id[0]) {
		snprintf(err, n, "the result has no run id");
		return -EINVAL;
	}
	if (exec_sql(db, "BEGIN IMMEDIATE", err, n))
		return -EIO;
	if (!lookup_id(db, "SELECT id FROM run WHERE run_id = ?", r->run_id, &old)) {
		exec_sql(db, "COMMIT", err, n);	/* recorded before (an imported spool) */
		return 0;
	}
	if ((rc = store_body(db, r, &run)) || (rc = exec_sql(db, "COMMIT", err, n))) {
		if (!err[0])
			snprintf(err, n, "%s", sqlite3_errmsg(db));
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return 0;
}

int
history_import_spool(sqlite3 *db, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char path[4096], err[256] = "";
		struct run_result r;
		if (l < 6 || strcmp(e->d_name + l - 5, ".json") || e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		memset(&r, 0, sizeof r);
		if (run_json_load(path, &r, err, sizeof err) < 0)
			continue;	/* not ours to delete: left for a person to look at */
		if (!history_store(db, &r, err, sizeof err) && !unlink(path))
			n++;
		run_result_free(&r);
	}
	closedir(d);
	return n;
}

static void
spool(const struct run_result *r, const char *why, bool quiet)
{
	char dir[4096], path[4200];
	int rc = history_spool_dir(dir, sizeof dir);

	if (!rc) {
		snprintf(path, sizeof path, "%s/%s.json", dir, r->run_id[0] ? r->run_id : "unknown");
		if (!(rc = mkdir_parents(path)) && mkdir(dir, 0755) && errno != EEXIST)
			rc = -errno;
		if (!rc)
			rc = run_json_write(r, path);	/* doc_write: the safe writer */
	}
	if (quiet)
		return;
	if (rc)
		fprintf(stderr, "diskscope: history: %s; the run is not recorded (spool: %s)\n", why, strerror(-rc));
	else
		fprintf(stderr, "diskscope: history: %s; run kept in %s, imported on the next open\n", why, path);
}

static int
open_default(sqlite3 **db, char *err, size_t n, bool quiet)
{
	char path[4096], dir[4096];
	int rc = history_db_path(path, sizeof path);

	if (rc) {
		snprintf(err, n, "no history path: %s (set XDG_DATA_HOME or --db)", strerror(-rc));
		return rc;
	}
	/* the default place is made on first use; a --db FILE's directory must exist */
	if (!opt_db && !getenv("DISKSCOPE_HISTORY_DB") && (rc = mkdir_parents(path))) {
		snprintf(err, n, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if ((rc = history_open(path, db, err, n)))
		return rc;
	if (!history_spool_dir(dir, sizeof dir) && (rc = history_import_spool(*db, dir)) > 0 && !quiet)
		fprintf(stderr, "diskscope: history: imported %d spooled run%s from %s\n", rc, rc == 1 ? "" : "s", dir);
	return 0;
}

/* Open the history, importing any spool first (one notice). */
int
history_open_default(sqlite3 **db, char *err, size_t n)
{
	return open_default(db, err, n, false);
}

void
history_record(const struct run_result *r, const struct history_opts *opts)
{
	bool quiet = opts && opts->quiet;
	sqlite3 *db;
	char err[512] = "";

	if (opt_off)
		return;
	if (open_default(&db, err, sizeof err, quiet)) {
		spool(r, err, quiet);
		return;
	}
	if (history_store(db, r, err, sizeof err))
		spool(r, err[0] ? err : "could not write", quiet);
	sqlite3_close(db);
}
