/* store.c - the history database: schema migrations (one text for both
 * backends), one transaction per recorded run, and the spool for runs the
 * database could not take. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>
#include "history/db.h"
#include "history/history.h"
#include "history/internal.h"
#include "report/doc.h"
#include "report/run.h"

/* Migrations as data: entry N-1 takes the schema from version N-1 to N.
 * @ID, @INT and @REAL are the types whose names differ (dialect_sql). */
static const char *const migrations[] = {
	/* 1: the first schema */
	"CREATE TABLE bench(id @ID, host TEXT UNIQUE NOT NULL);"
	"CREATE TABLE run(id @ID, run_id TEXT UNIQUE NOT NULL,"
	" bench @INT REFERENCES bench(id), started @INT, seconds @REAL, version TEXT,"
	" test TEXT NOT NULL, params TEXT, interrupted INTEGER NOT NULL, failed INTEGER NOT NULL);"
	"CREATE TABLE drive(id @ID, key TEXT UNIQUE NOT NULL, model TEXT,"
	" serial TEXT, wwn TEXT, firmware TEXT, capacity @INT);"
	"CREATE TABLE run_target(run @INT NOT NULL REFERENCES run(id), drive @INT REFERENCES drive(id),"
	" target TEXT NOT NULL, controller TEXT, port TEXT, PRIMARY KEY(run, target));"
	"CREATE TABLE step_result(run @INT NOT NULL REFERENCES run(id), step INTEGER NOT NULL,"
	" label TEXT, target TEXT NOT NULL, mbps @REAL, iops @REAL, lat_p50 @REAL, lat_p90 @REAL,"
	" lat_p99 @REAL, lat_p999 @REAL, lat_max @REAL, errors @INT NOT NULL);"
	"CREATE TABLE verdict(run @INT NOT NULL REFERENCES run(id), kind TEXT, level TEXT,"
	" text TEXT, evidence TEXT);"
	"CREATE TABLE result_table(run @INT NOT NULL REFERENCES run(id), name TEXT, title TEXT,"
	" row INTEGER, data TEXT);"
	"CREATE INDEX step_by_run ON step_result(run, target);"
	"CREATE INDEX target_by_drive ON run_target(drive);",
	/* 2: the whole run document (a report is rebuilt from it), and each
	 * target's inventory facts (identity, SMART and other table rows of
	 * that target) as JSON; runs by start time (history_runs_on) */
	"ALTER TABLE run ADD COLUMN doc TEXT;"
	"ALTER TABLE run_target ADD COLUMN facts TEXT;"
	"CREATE INDEX run_by_started ON run(started);",
	/* 3: what each run's test is (TEST_*), so queries filter on it and
	 * never on a test's name; old runs get their test's flags from the
	 * registry (fill_flags) */
	"ALTER TABLE run ADD COLUMN flags @INT;",
	/* 4: each drive's health as the run last read it (its "health" result
	 * table row): the class ("nvme", "ata", ... NULL unknown) and the
	 * class's figures as a JSON object, null where unknown */
	"CREATE TABLE drive_health(run @INT NOT NULL REFERENCES run(id), target TEXT NOT NULL,"
	" drive @INT REFERENCES drive(id), class TEXT, health TEXT, PRIMARY KEY(run, target));"
	"CREATE INDEX health_by_drive ON drive_health(drive);",
};

#define N_MIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))

static history_flags_fn registry_flags;

void
history_use_registry(history_flags_fn flags_of)
{
	registry_flags = flags_of;
}

/* The flags a run is filed under: its own, else its test's in the registry. */
static unsigned
run_flags(const struct run_result *r)
{
	return r->test_flags ? r->test_flags : registry_flags ? registry_flags(r->test) : 0;
}

/* Migration 3's data: each recorded test's flags from the registry, the
 * one place a test's name maps to them (a test no longer known: 0). */
static int
fill_flags(struct hdb *db, char *err, size_t n)
{
	struct strlist tests = { 0 };
	struct hst st;
	int rc;

	hst_init(&st, db, "SELECT DISTINCT test FROM run WHERE flags IS NULL");
	while ((rc = hst_step(&st)) > 0)
		if (strlist_add(&tests, hst_str(&st, 0))) {
			rc = -ENOMEM;
			break;
		}
	hst_end(&st);
	if (rc >= 0 && tests.n && !registry_flags) {	/* a new database needs none */
		strlist_free(&tests);
		snprintf(err, n, "schema 3 needs the test registry (history_use_registry) for the runs before it");
		return -EINVAL;
	}
	for (size_t i = 0; rc >= 0 && i < tests.n; i++) {
		hst_init(&st, db, "UPDATE run SET flags = ? WHERE test = ? AND flags IS NULL");
		hst_int(&st, 1, registry_flags(tests.v[i]));
		hst_text(&st, 2, tests.v[i]);
		rc = hst_run(&st, NULL);
	}
	strlist_free(&tests);
	if (rc < 0)
		snprintf(err, n, "filling the runs' flags: %s", rc == -ENOMEM ? "out of memory" : db->ops->errmsg(db));
	return rc < 0 ? rc : 0;
}

/* Code a migration runs after its SQL, by the version it makes. */
static int (*const migration_data[N_MIGRATIONS + 1])(struct hdb *, char *, size_t) = {
	[3] = fill_flags,
};

/* The migration text for a dialect: SQLite's types are its own schema 1. */
static char *
dialect_sql(const struct hdb *db, const char *sql)
{
	static const char *const tok[][3] = {
		{ "@ID", "INTEGER PRIMARY KEY", "BIGSERIAL PRIMARY KEY" },
		{ "@INT", "INTEGER", "BIGINT" },
		{ "@REAL", "REAL", "DOUBLE PRECISION" },
	};
	int d = db->ops->dialect == HDB_PG ? 2 : 1;
	char *o = malloc(strlen(sql) * 4 + 1), *w = o;

	if (!o)
		return NULL;
	while (*sql) {
		size_t t;
		for (t = 0; t < 3; t++)
			if (!strncmp(sql, tok[t][0], strlen(tok[t][0])))
				break;
		if (t == 3) {
			*w++ = *sql++;
			continue;
		}
		w = stpcpy(w, tok[t][d]);
		sql += strlen(tok[t][0]);
	}
	*w = 0;
	return o;
}

static int
count_of(struct hdb *db, const char *sql, int64_t *v)
{
	struct hst st;

	hst_init(&st, db, sql);
	return hst_run(&st, v);
}

int
history_schema_version(struct hdb *db)
{
	int64_t have = 0, v = 0;

	if (count_of(db, db->ops->has_meta_sql, &have))
		return -EIO;
	if (!have)
		return 0;	/* no meta table: version 0 */
	int rc = count_of(db, "SELECT schema_version FROM meta", &v);
	return rc == -ENOENT ? 0 : rc ? rc : (int)v;
}

static void
rollback(struct hdb *db)
{
	char e[64];
	hdb_exec(db, "ROLLBACK", e, sizeof e);
}

/* Each step in its own transaction that locks other migrators out, so two
 * first opens at once migrate once (the second sees the version the first
 * wrote). */
static int
migrate(struct hdb *db, char *err, size_t n)
{
	for (;;) {
		if (db->ops->begin(db, true, err, n))
			return -EIO;
		int v = history_schema_version(db);
		if (v < 0 || v >= N_MIGRATIONS) {
			if (v < 0)
				snprintf(err, n, "%s", db->ops->errmsg(db));
			rollback(db);
			if (v > N_MIGRATIONS) {
				snprintf(err, n, "schema version %d is newer than this diskscope (%d)", v, N_MIGRATIONS);
				return -EPROTO;
			}
			return v < 0 ? -EIO : 0;
		}
		char set[96], *sql = dialect_sql(db, migrations[v]);
		snprintf(set, sizeof set, "UPDATE meta SET schema_version = %d", v + 1);
		if (!sql || (v == 0 && hdb_exec(db, "CREATE TABLE IF NOT EXISTS meta(schema_version INTEGER NOT NULL);"
				"INSERT INTO meta SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM meta)", err, n)) ||
		    hdb_exec(db, sql, err, n) || (migration_data[v + 1] && migration_data[v + 1](db, err, n)) ||
		    hdb_exec(db, set, err, n) || hdb_exec(db, "COMMIT", err, n)) {
			free(sql);
			rollback(db);
			return -EIO;
		}
		free(sql);
	}
}

int
history_open(const char *where, struct hdb **out, char *err, size_t n)
{
	struct hdb *db;
	char why[256] = "";
	int rc;

	if ((rc = hdb_open(where, &db, err, n)))
		return rc;
	if ((rc = migrate(db, why, sizeof why))) {
		snprintf(err, n, "%s: %s", db->where, why);
		hdb_close(db);
		return rc;
	}
	*out = db;
	return 0;
}

void
history_close(struct hdb *db)
{
	hdb_close(db);
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
	const char *model;
	return dev_spec_simulated(t, &model) ? model : "";
}

/* One drive row: unique by serial, else WWN, else model+capacity+target.
 * ON CONFLICT ... RETURNING: two benches adding one drive at once both
 * get its id. */
static int
store_drive(struct hdb *db, const struct run_result *r, size_t i, int64_t *id)
{
	const struct target_ident *d = &r->ident[i];
	const char *model = drive_model(r, i);
	char key[384];
	struct hst st;

	if (d->serial[0])
		snprintf(key, sizeof key, "serial:%s|%s", model, d->serial);
	else if (d->wwn[0])
		snprintf(key, sizeof key, "wwn:%s", d->wwn);
	else
		snprintf(key, sizeof key, "model:%s|%llu|%s", model,
			 d->capacity.known ? (unsigned long long)d->capacity.v : 0ULL, r->ident_targets.v[i]);
	hst_init(&st, db, "INSERT INTO drive(key, model, serial, wwn, firmware, capacity) VALUES(?,?,?,?,?,?)"
		 " ON CONFLICT(key) DO UPDATE SET firmware = coalesce(excluded.firmware, drive.firmware) RETURNING id");
	hst_text(&st, 1, key);
	hst_text(&st, 2, model);
	hst_text(&st, 3, d->serial);
	hst_text(&st, 4, d->wwn);
	hst_text(&st, 5, d->firmware);
	if (d->capacity.known)
		hst_int(&st, 6, (int64_t)d->capacity.v);
	return hst_run(&st, id);
}

static int
store_steps(struct hdb *db, int64_t run, const struct run_result *r)
{
	for (size_t s = 0; s < r->n_steps; s++)
		for (size_t k = 0; k < r->steps[s].n_res; k++) {
			const struct target_result *t = &r->steps[s].res[k];
			struct hst st;
			int rc;
			hst_init(&st, db, "INSERT INTO step_result(run, step, label, target, mbps, iops, lat_p50,"
				 " lat_p90, lat_p99, lat_p999, lat_max, errors) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)");
			hst_int(&st, 1, run);
			hst_int(&st, 2, (int)r->steps[s].index);
			hst_text(&st, 3, r->steps[s].label);
			hst_text(&st, 4, t->target);
			if (t->bytes || t->ios) {	/* nothing moved: rate unknown */
				hst_real(&st, 5, t->mbps);
				hst_real(&st, 6, t->iops);
			}
			if (t->lat.known) {
				hst_real(&st, 7, t->lat.p50);
				hst_real(&st, 8, t->lat.p90);
				hst_real(&st, 9, t->lat.p99);
				hst_real(&st, 10, t->lat.p999);
				hst_real(&st, 11, t->lat.max);
			}
			hst_int(&st, 12, (int64_t)t->err.count);
			if ((rc = hst_run(&st, NULL)))
				return rc;
		}
	return 0;
}

static int
store_verdicts(struct hdb *db, int64_t run, const struct run_result *r)
{
	for (size_t i = 0; i < r->n_verdicts; i++) {
		const struct verdict *v = &r->verdicts[i];
		struct json_object *ev = json_object_new_array();
		struct hst st;
		for (size_t k = 0; ev && k < v->evidence.n; k++)
			json_object_array_add(ev, json_object_new_string(v->evidence.v[k]));
		if (!ev)
			return -ENOMEM;
		hst_init(&st, db, "INSERT INTO verdict(run, kind, level, text, evidence) VALUES(?,?,?,?,?)");
		hst_int(&st, 1, run);
		hst_text(&st, 2, v->kind);
		hst_text(&st, 3, verdict_level_name(v->level));
		hst_text(&st, 4, v->text);
		hst_text(&st, 5, json_object_to_json_string_ext(ev, JSON_C_TO_STRING_PLAIN));
		int rc = hst_run(&st, NULL);
		json_object_put(ev);
		if (rc)
			return rc;
	}
	return 0;
}

static const char *
jstr(struct json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
}

/* Params, table rows and the whole document as the JSON writer renders
 * them (one mapping). */
static int
store_json_parts(struct hdb *db, int64_t run, struct json_object *j)
{
	struct json_object *tabs, *rows, *o;
	struct hst st;
	int rc;

	hst_init(&st, db, "UPDATE run SET params = ?, doc = ? WHERE id = ?");
	if (json_object_object_get_ex(j, "params", &o))
		hst_text(&st, 1, jstr(o));
	hst_text(&st, 2, jstr(j));
	hst_int(&st, 3, run);
	if ((rc = hst_run(&st, NULL)))
		return rc;
	if (!json_object_object_get_ex(j, "tables", &tabs) || !json_object_is_type(tabs, json_type_array))
		return 0;
	for (size_t t = 0; t < json_object_array_length(tabs); t++) {
		struct json_object *tab = json_object_array_get_idx(tabs, t), *name = NULL, *title = NULL;
		json_object_object_get_ex(tab, "name", &name);
		json_object_object_get_ex(tab, "title", &title);
		if (!json_object_object_get_ex(tab, "rows", &rows) || !json_object_is_type(rows, json_type_array))
			continue;
		for (size_t k = 0; k < json_object_array_length(rows); k++) {
			hst_init(&st, db, "INSERT INTO result_table(run, name, title, row, data) VALUES(?,?,?,?,?)");
			hst_int(&st, 1, run);
			hst_text(&st, 2, name ? json_object_get_string(name) : NULL);
			hst_text(&st, 3, title ? json_object_get_string(title) : NULL);
			hst_int(&st, 4, (int)k);
			hst_text(&st, 5, jstr(json_object_array_get_idx(rows, k)));
			if ((rc = hst_run(&st, NULL)))
				return rc;
		}
	}
	return 0;
}

/* A result table's column (an object with a name, or a bare name) is NAME. */
static bool
col_is(struct json_object *c, const char *name)
{
	struct json_object *n = c;

	if (json_object_is_type(c, json_type_object) && !json_object_object_get_ex(c, "name", &n))
		return false;
	return json_object_is_type(n, json_type_string) && !strcmp(json_object_get_string(n), name);
}

/* A target's facts: its identity block (model, serial, firmware, capacity,
 * sectors, controller, port) and, under "tables", each result table's row
 * for that target (triage's temperature and SMART-derived columns, ...). */
static struct json_object *
target_facts(struct json_object *j, const char *target)
{
	struct json_object *f = NULL, *id, *ts, *tabs, *o, *out = json_object_new_object();

	if (!out)
		return NULL;
	if (json_object_object_get_ex(j, "identity", &id) && json_object_object_get_ex(id, "targets", &ts))
		for (size_t i = 0; i < json_object_array_length(ts); i++) {
			struct json_object *t = json_object_array_get_idx(ts, i);
			if (!json_object_object_get_ex(t, "target", &o) || strcmp(json_object_get_string(o), target))
				continue;
			json_object_object_foreach(t, k, v)
				json_object_object_add(out, k, json_object_get(v));
		}
	if (json_object_object_get_ex(j, "tables", &tabs))
		for (size_t t = 0; t < json_object_array_length(tabs); t++) {
			struct json_object *tab = json_object_array_get_idx(tabs, t), *name, *cols, *rows;
			if (!json_object_object_get_ex(tab, "name", &name) || !json_object_object_get_ex(tab, "columns", &cols) ||
			    !json_object_object_get_ex(tab, "rows", &rows))
				continue;
			struct json_object *row = NULL;
			size_t tc = SIZE_MAX, nc = json_object_array_length(cols);
			for (size_t c = 0; c < nc; c++)
				if (col_is(json_object_array_get_idx(cols, c), col_role_key(CR_TARGET)))
					tc = c;
			for (size_t k = 0; tc != SIZE_MAX && !row && k < json_object_array_length(rows); k++) {
				o = json_object_array_get_idx(json_object_array_get_idx(rows, k), tc);
				if (json_object_is_type(o, json_type_string) && !strcmp(json_object_get_string(o), target))
					row = json_object_array_get_idx(rows, k);
			}
			if (!row || (!f && !(f = json_object_new_object())))
				continue;
			/* the row as {column: value}, readable without the columns */
			struct json_object *m = json_object_new_object();
			for (size_t c = 0; m && c < nc && c < json_object_array_length(row); c++) {
				struct json_object *cn = json_object_array_get_idx(cols, c), *nm = cn;
				if (json_object_is_type(cn, json_type_object))
					json_object_object_get_ex(cn, "name", &nm);
				json_object_object_add(m, json_object_get_string(nm),
						       json_object_get(json_object_array_get_idx(row, c)));
			}
			json_object_object_add(f, json_object_get_string(name), m);
		}
	if (f)
		json_object_object_add(out, "tables", f);
	return out;
}

/* The target's row of the run's "health" table (in its facts), if any:
 * one drive_health row, class-tagged. */
static int
store_health(struct hdb *db, int64_t run, int64_t drive, const char *target, struct json_object *facts)
{
	struct json_object *tabs, *h, *cls;
	struct hst st;
	if (!json_object_object_get_ex(facts, "tables", &tabs) || !json_object_object_get_ex(tabs, "health", &h))
		return 0;
	hst_init(&st, db, "INSERT INTO drive_health(run, target, drive, class, health) VALUES(?,?,?,?,?)"
		 " ON CONFLICT DO NOTHING");
	hst_int(&st, 1, run);
	hst_text(&st, 2, target);
	hst_int(&st, 3, drive);
	if (json_object_object_get_ex(h, "class", &cls) && json_object_is_type(cls, json_type_string))
		hst_text(&st, 4, json_object_get_string(cls));
	hst_text(&st, 5, jstr(h));
	return hst_run(&st, NULL);
}

static int
store_body(struct hdb *db, const struct run_result *r, struct json_object *j, int64_t *run)
{
	int64_t bench = 0, drive;
	struct hst st;
	int rc;

	hst_init(&st, db, "INSERT INTO bench(host) VALUES(?) ON CONFLICT(host) DO NOTHING");
	hst_text(&st, 1, history_bench_name(r->host));
	if ((rc = hst_run(&st, NULL)))
		return rc;
	hst_init(&st, db, "SELECT id FROM bench WHERE host = ?");
	hst_text(&st, 1, history_bench_name(r->host));
	if ((rc = hst_run(&st, &bench)))
		return rc;
	hst_init(&st, db, "INSERT INTO run(run_id, bench, started, seconds, version, test, interrupted, failed,"
		 " flags) VALUES(?,?,?,?,?,?,?,?,?) RETURNING id");
	hst_text(&st, 1, r->run_id);
	hst_int(&st, 2, bench);
	hst_int(&st, 3, (int64_t)r->started);
	hst_real(&st, 4, r->seconds);
	hst_text(&st, 5, r->version);
	hst_text(&st, 6, r->test);
	hst_int(&st, 7, r->interrupted);
	hst_int(&st, 8, r->failed);
	hst_int(&st, 9, run_flags(r));
	if ((rc = hst_run(&st, run)))
		return rc;
	for (size_t i = 0; i < r->n_ident && i < r->ident_targets.n; i++) {
		struct json_object *f = target_facts(j, r->ident_targets.v[i]);
		if (!f)
			return -ENOMEM;
		if ((rc = store_drive(db, r, i, &drive))) {
			json_object_put(f);
			return rc;
		}
		hst_init(&st, db, "INSERT INTO run_target(run, drive, target, controller, port, facts)"
			 " VALUES(?,?,?,?,?,?) ON CONFLICT DO NOTHING");
		hst_int(&st, 1, *run);
		hst_int(&st, 2, drive);
		hst_text(&st, 3, r->ident_targets.v[i]);
		hst_text(&st, 4, r->ident[i].controller);
		hst_text(&st, 5, r->ident[i].port);
		hst_text(&st, 6, jstr(f));
		rc = hst_run(&st, NULL);
		if (!rc)
			rc = store_health(db, *run, drive, r->ident_targets.v[i], f);
		json_object_put(f);
		if (rc)
			return rc;
	}
	if ((rc = store_steps(db, *run, r)) || (rc = store_verdicts(db, *run, r)))
		return rc;
	return store_json_parts(db, *run, j);
}

/* One attempt: 0 stored (or there before), 1 worth another try, -errno. */
static int
store_once(struct hdb *db, const struct run_result *r, struct json_object *j, char *err, size_t n)
{
	int64_t run, old;
	struct hst st;
	int rc;

	if (db->ops->begin(db, false, err, n))
		return -EIO;
	hst_init(&st, db, "SELECT id FROM run WHERE run_id = ?");
	hst_text(&st, 1, r->run_id);
	rc = hst_run(&st, &old);
	if (!rc) {
		hdb_exec(db, "COMMIT", err, n);	/* recorded before (an imported spool) */
		return 0;
	}
	if ((rc == -ENOENT && !(rc = store_body(db, r, j, &run))) && !(rc = hdb_exec(db, "COMMIT", err, n)))
		return 0;
	if (!err[0])
		snprintf(err, n, "%s", db->ops->errmsg(db));
	bool again = db->ops->retryable(db);
	rollback(db);
	return again ? 1 : rc < 0 ? rc : -EIO;
}

int
history_store(struct hdb *db, const struct run_result *r, char *err, size_t n)
{
	int rc = -EIO;

	if (!r->run_id[0]) {
		snprintf(err, n, "the result has no run id");
		return -EINVAL;
	}
	struct json_object *j = run_json(r);
	if (!j)
		return -ENOMEM;
	/* PostgreSQL: another bench's transaction may have made the same drive
	 * or run row first; the next attempt sees it */
	for (int attempt = 0; attempt < 5; attempt++) {
		err[0] = 0;
		if ((rc = store_once(db, r, j, err, n)) <= 0)
			break;
	}
	json_object_put(j);
	return rc > 0 ? -EAGAIN : rc;
}

int
history_import_spool(struct hdb *db, const char *dir)
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

int
history_open_quiet(struct hdb **db, char *err, size_t n, bool quiet)
{
	char path[4096], dir[4096];
	const char *rest;
	int rc = history_db_path(path, sizeof path);

	if (rc) {
		snprintf(err, n, "no history path: %s (set XDG_DATA_HOME or --db)", strerror(-rc));
		return rc;
	}
	/* the default place is made on first use; a --db FILE's directory must exist */
	if (history_db_is_default() && hdb_backend(path, &rest) == &hdb_sqlite_ops && (rc = mkdir_parents(path))) {
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
history_open_default(struct hdb **db, char *err, size_t n)
{
	return history_open_quiet(db, err, n, false);
}

void
history_record(const struct run_result *r, const struct history_opts *opts)
{
	bool quiet = opts && opts->quiet;
	struct hdb *db;
	char err[512] = "";

	if (history_off())
		return;
	if (history_open_quiet(&db, err, sizeof err, quiet)) {
		spool(r, err, quiet);
		return;
	}
	if (history_store(db, r, err, sizeof err))
		spool(r, err[0] ? err : "could not write", quiet);
	hdb_close(db);
}
