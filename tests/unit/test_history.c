/* test_history.c - the history store, on a temporary SQLite file, or with
 * DISKSCOPE_TEST_PG set (tests/sys/history-pg.sh: a conninfo such as
 * "host=/tmp/x port=5432 user=postgres") on the throwaway PostgreSQL
 * server's databases ds_v0, ds_v1, ds_v2, ds_rec, ds_spool and ds_q: the same
 * tests.  A new database (schema version 0) and a version-1 one are
 * migrated to the latest schema (a version-2 one gets each old run's test
 * flags from the registry; a new one needs none), a saved result is recorded into the tables
 * that map it (once, however often it is given) with its document and its
 * drive's facts, a spooled run is imported and its file removed, and the
 * queries other parts use answer from what was recorded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "bench/bench.h"
#include "history/db.h"
#include "history/history.h"
#include "history/internal.h"
#include "report/run.h"

#define FIXTURE "tests/fixtures/history/seqread-sdb.json"
#define FIXTURE_TEST "seqread"	/* the fixture's test */

static char dir[] = "/tmp/ds-history-XXXXXX";
static char dbpath[1024];
static const char *pg;	/* $DISKSCOPE_TEST_PG: the PostgreSQL run */

/* The database called name: a file in dir, or a database on the server. */
static const char *
where(const char *name)
{
	if (pg)
		snprintf(dbpath, sizeof dbpath, "%s dbname=ds_%s", pg, name);
	else
		snprintf(dbpath, sizeof dbpath, "%s/%s.db", dir, name);
	return dbpath;
}

static long long
count(struct hdb *db, const char *sql)
{
	struct hst st;
	int64_t n = -1;

	hst_init(&st, db, sql);
	assert_int_equal(hst_run(&st, &n), 0);
	return n;
}

static void
exec_ok(struct hdb *db, const char *sql)
{
	char err[256] = "";
	assert_int_equal(hdb_exec(db, sql, err, sizeof err), 0);
}

static void
load(struct run_result *r)
{
	char err[256] = "";
	memset(r, 0, sizeof *r);
	assert_int_equal(run_json_load(FIXTURE, r, err, sizeof err), 0);
}

static void
test_migrate_from_zero(void **state)
{
	struct hdb *db;
	char err[256] = "";

	/* a database at version 0: a meta table that says so, nothing else */
	assert_int_equal(hdb_open(where("v0"), &db, err, sizeof err), 0);
	exec_ok(db, "CREATE TABLE meta(schema_version INTEGER NOT NULL); INSERT INTO meta VALUES(0)");
	assert_int_equal(history_schema_version(db), 0);
	hdb_close(db);
	assert_int_equal(history_open(where("v0"), &db, err, sizeof err), 0);
	assert_int_equal(history_schema_version(db), HISTORY_SCHEMA);
	assert_int_equal(count(db, "SELECT count(*) FROM meta"), 1);
	/* every table of both migrations is there (and empty) */
	assert_int_equal(count(db, "SELECT (SELECT count(*) FROM bench) + (SELECT count(*) FROM drive)"
			 " + (SELECT count(*) FROM step_result) + (SELECT count(*) FROM verdict)"
			 " + (SELECT count(*) FROM result_table) + (SELECT count(doc) FROM run)"
			 " + (SELECT count(facts) FROM run_target)"), 0);
	hdb_close(db);
	/* opening again changes nothing */
	assert_int_equal(history_open(where("v0"), &db, err, sizeof err), 0);
	assert_int_equal(history_schema_version(db), HISTORY_SCHEMA);
	history_close(db);
}

/* A version-1 database with a run in it: migration 2 adds the document and
 * facts columns, the old run stays and says it kept no document. */
static void
test_migrate_from_one(void **state)
{
	struct hdb *db;
	struct run_result r;
	struct json_object *j = NULL;
	char err[256] = "";

	assert_int_equal(history_open(where("v1"), &db, err, sizeof err), 0);
	load(&r);
	assert_int_equal(history_store(db, &r, err, sizeof err), 0);
	run_result_free(&r);
	/* back to schema 1 as it was */
	exec_ok(db, "DROP TABLE drive_health; DROP INDEX run_by_started; ALTER TABLE run DROP COLUMN doc;"
		"ALTER TABLE run_target DROP COLUMN facts; ALTER TABLE run DROP COLUMN flags;"
		"UPDATE meta SET schema_version = 1");
	assert_int_equal(history_schema_version(db), 1);
	history_close(db);
	assert_int_equal(history_open(where("v1"), &db, err, sizeof err), 0);
	assert_int_equal(history_schema_version(db), HISTORY_SCHEMA);
	assert_int_equal(count(db, "SELECT count(*) FROM run WHERE doc IS NULL"), 1);
	assert_int_equal(count(db, "SELECT count(*) FROM run WHERE flags IS NOT NULL"), 1);
	history_close(db);
	setenv("DISKSCOPE_HISTORY_DB", where("v1"), 1);
	assert_int_equal(history_run_json("0123456789abcdef0123456789abcdef", &j, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "schema 1"));
	assert_null(j);
}

/* A version-2 database (runs with no flags): migration 3 fills each run's
 * flags from the registry, the one map from a test's name to them, and the
 * queries filter on them.  Without the registry it refuses, and the
 * database stays at version 2. */
static void
test_migrate_from_two(void **state)
{
	struct hdb *db;
	struct run_result r;
	char err[256] = "";
	char q[128];

	assert_int_equal(history_open(where("v2"), &db, err, sizeof err), 0);
	load(&r);	/* the fixture: a reference read (its document has no flags) */
	assert_int_equal(r.test_flags, 0);
	assert_int_equal(history_store(db, &r, err, sizeof err), 0);
	run_result_free(&r);
	exec_ok(db, "DROP TABLE drive_health; ALTER TABLE run DROP COLUMN flags; UPDATE meta SET schema_version = 2");
	history_close(db);
	history_use_registry(NULL);
	int rc = history_open(where("v2"), &db, err, sizeof err);
	struct hdb *fresh = NULL;
	char err_new[256] = "";
	int rc_new = pg ? 0 : history_open(where("v2-new"), &fresh, err_new, sizeof err_new);
	if (fresh)
		history_close(fresh);
	history_use_registry(bench_flags_of);
	assert_int_equal(rc_new, 0);	/* a new database has no old runs to fill */
	assert_int_equal(rc, -EIO);
	assert_non_null(strstr(err, "registry"));
	assert_int_equal(hdb_open(where("v2"), &db, err, sizeof err), 0);
	assert_int_equal(history_schema_version(db), 2);
	hdb_close(db);
	assert_int_equal(history_open(where("v2"), &db, err, sizeof err), 0);
	assert_int_equal(history_schema_version(db), HISTORY_SCHEMA);
	snprintf(q, sizeof q, "SELECT count(*) FROM run WHERE flags = %u", bench_flags_of(FIXTURE_TEST));
	assert_int_equal(count(db, q), 1);
	assert_true(bench_flags_of(FIXTURE_TEST) & TEST_REF_READ);
	history_close(db);
	/* the model's reference rates find it by its flags */
	double rates[4];
	size_t n = 0;
	setenv("DISKSCOPE_HISTORY_DB", where("v2"), 1);
	assert_int_equal(history_model_rates("WDC WD40EZRX-00SPEB0", NULL, NULL, rates, 4, &n, err, sizeof err), 0);
	assert_int_equal(n, 1);
	assert_true(rates[0] > 149 && rates[0] < 151);
	unsetenv("DISKSCOPE_HISTORY_DB");
}

static void
test_new_file_and_dirs(void **state)
{
	struct hdb *db;
	char err[256] = "", p[600];

	if (pg)
		skip();	/* files only */
	/* the default place: made on first use under $XDG_DATA_HOME */
	snprintf(p, sizeof p, "%s/xdg", dir);
	setenv("XDG_DATA_HOME", p, 1);
	unsetenv("DISKSCOPE_HISTORY_DB");
	assert_int_equal(history_open_default(&db, err, sizeof err), 0);
	assert_int_equal(history_schema_version(db), HISTORY_SCHEMA);
	history_close(db);
	snprintf(p, sizeof p, "%s/xdg/diskscope/history.db", dir);
	assert_int_equal(access(p, F_OK), 0);
	/* a HOME that does not exist is not made, even as root */
	unsetenv("XDG_DATA_HOME");
	snprintf(p, sizeof p, "%s/nonexistent", dir);
	setenv("HOME", p, 1);
	assert_int_not_equal(history_open_default(&db, err, sizeof err), 0);
	assert_int_not_equal(access(p, F_OK), 0);
	snprintf(p, sizeof p, "%s/xdg", dir);
	setenv("XDG_DATA_HOME", p, 1);
}

static void
test_not_regular(void **state)
{
	struct hdb *db = NULL;
	char err[256] = "";

	if (pg)
		skip();	/* files only */
	/* never a device (SQLite would write into one that reads as zeros) */
	assert_int_equal(history_open("/dev/null", &db, err, sizeof err), -EINVAL);
	assert_null(db);
	assert_non_null(strstr(err, "not a regular file"));
	assert_int_equal(history_open(dir, &db, err, sizeof err), -EINVAL);
}

/* A database with no file behind it would take the spool and vanish: every
 * such value is refused after opening, and by the --db check before it. */
static void
test_no_file_behind(void **state)
{
	static const char *const mem[] = { ":memory:", "file::memory:", "file:x.db?mode=memory",
					   "file:x.db?mode=memory&cache=shared", "file:/h.db?vfs=memdb",
					   "sqlite::memory:" };
	struct hdb *db = NULL;
	char err[256] = "", path[600];

	if (pg)
		skip();	/* files only */
	for (size_t i = 0; i < sizeof mem / sizeof mem[0]; i++) {
		err[0] = 0;
		assert_int_equal(history_open(mem[i], &db, err, sizeof err), -EINVAL);
		assert_null(db);
		if (!strstr(err, "in memory or a temporary one") || strchr(err, '\n'))
			fail_msg("%s: %s", mem[i], err);
		const char *rest = mem[i];
		hdb_backend(mem[i], &rest);
		assert_int_equal(hdb_sqlite_check(rest, err, sizeof err), -EINVAL);
	}
	/* a file, new or not, URI or not: allowed, and nothing made by the check */
	snprintf(path, sizeof path, "file:%s/uri.db", dir);
	assert_int_equal(hdb_sqlite_check(path, err, sizeof err), 0);
	assert_int_not_equal(access(path + 5, F_OK), 0);
	assert_int_equal(history_open(path, &db, err, sizeof err), 0);
	history_close(db);
	assert_int_equal(access(path + 5, F_OK), 0);
	assert_int_equal(hdb_sqlite_check(path, err, sizeof err), 0);
}

static void
test_record_fixture(void **state)
{
	struct hdb *db;
	struct run_result r;
	char err[256] = "";

	assert_int_equal(history_open(where("rec"), &db, err, sizeof err), 0);
	load(&r);
	assert_int_equal(history_store(db, &r, err, sizeof err), 0);
	assert_int_equal(history_store(db, &r, err, sizeof err), 0);	/* the same run once */
	run_result_free(&r);
	assert_int_equal(count(db, "SELECT count(*) FROM run"), 1);
	assert_int_equal(count(db, "SELECT count(*) FROM bench WHERE host = 'bench-a'"), 1);
	assert_int_equal(count(db, "SELECT count(*) FROM drive WHERE serial = 'WD-WCC4E1234567'"
			 " AND wwn = '0x50014ee2b1234567' AND firmware = '80.00A80' AND capacity = 4000787030016"), 1);
	/* the drive by its identity, never the kernel name */
	assert_int_equal(count(db, "SELECT count(*) FROM drive WHERE key LIKE '%sdb%'"), 0);
	assert_int_equal(count(db, "SELECT count(*) FROM run_target WHERE target = 'sdb'"
			 " AND controller = '0000:00:1f.2' AND port = 'ata3'"), 1);
	assert_int_equal(count(db, "SELECT count(*) FROM step_result WHERE target = 'sdb'"
			 " AND mbps > 149 AND mbps < 151 AND lat_p99 > 0 AND errors = 0"), 1);
	assert_int_equal(count(db, "SELECT count(*) FROM verdict WHERE kind = 'errors' AND level = 'pass'"
			 " AND evidence = '[\"0 errors in 286 reads\"]'"), 1);
	assert_int_equal(count(db, pg ? "SELECT count(*) FROM run WHERE test = 'seqread' AND"
			       " (params::json->>'qd')::int = 8 AND interrupted = 0" :
			       "SELECT count(*) FROM run WHERE test = 'seqread' AND"
			       " json_extract(params, '$.qd') = 8 AND interrupted = 0"), 1);
	/* migration 3: the run's flags, its test's in the registry (the
	 * loaded document has none) */
	assert_int_equal(count(db, "SELECT count(*) FROM run WHERE flags = 1"), TEST_REF_READ == 1);
	/* migration 2: the whole document and the drive's facts */
	assert_int_equal(count(db, "SELECT count(*) FROM run WHERE doc LIKE '%\"identity\"%'"
			 " AND doc LIKE '%\"steps\"%' AND doc LIKE '%\"verdicts\"%'"), 1);
	assert_int_equal(count(db, "SELECT count(*) FROM run_target WHERE facts LIKE '%\"serial\":\"WD-WCC4E1234567\"%'"
			 " AND facts LIKE '%\"firmware\":\"80.00A80\"%' AND facts LIKE '%\"capacity_bytes\":4000787030016%'"), 1);
	/* a table row of the drive (triage's temperature) lands in its facts */
	static const struct result_col cols[] = {
		{ "target", "Drive", COL_STR, "", 0 }, { "temp_c", "Temp", COL_DBL, "C", 0 },
	};
	load(&r);
	strcpy(r.run_id, "0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a");
	struct result_table *t = result_table_add(&r, "triage", "Triage", cols, 2);
	assert_non_null(t);
	assert_int_equal(table_add_row(t), 0);
	assert_int_equal(table_set_str(t, 0, 0, "sdb"), 0);
	table_set_dbl(t, 0, 1, 41);
	assert_int_equal(history_store(db, &r, err, sizeof err), 0);
	run_result_free(&r);
	assert_int_equal(count(db, "SELECT count(*) FROM run_target t JOIN run r ON r.id = t.run"
			 " WHERE r.run_id = '0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a'"
			 " AND t.facts LIKE '%\"tables\":{\"triage\":{\"target\":\"sdb\",\"temp_c\":41%'"), 1);
	/* a second run of the same drive lands on the same drive row */
	load(&r);
	strcpy(r.run_id, "fedcba9876543210fedcba9876543210");
	assert_int_equal(history_store(db, &r, err, sizeof err), 0);
	run_result_free(&r);
	assert_int_equal(count(db, "SELECT count(*) FROM drive"), 1);
	assert_int_equal(count(db, "SELECT count(DISTINCT run) FROM run_target"), 3);
	history_close(db);
}

/* PostgreSQL answers COMMIT of a transaction that failed with "ROLLBACK",
 * a success status: that is a failure here (nothing was stored, so a
 * spooled run must stay).  SQLite keeps a transaction open past a failed
 * statement: its COMMIT commits. */
static void
test_commit_rolled_back(void **state)
{
	struct hdb *db;
	char err[256] = "";

	assert_int_equal(history_open(where("spool"), &db, err, sizeof err), 0);
	exec_ok(db, "BEGIN");
	assert_int_not_equal(hdb_exec(db, "INSERT INTO run(nosuch) VALUES(1)", err, sizeof err), 0);
	err[0] = 0;
	if (pg) {
		assert_int_equal(hdb_exec(db, "COMMIT", err, sizeof err), -EIO);
		assert_non_null(strstr(err, "rolled back"));
	} else {
		assert_int_equal(hdb_exec(db, "COMMIT", err, sizeof err), 0);
	}
	history_close(db);
}

static void
test_import_spool(void **state)
{
	struct hdb *db;
	char err[256] = "", sp[512], cmd[1200];

	snprintf(sp, sizeof sp, "%s/spool", dir);
	snprintf(cmd, sizeof cmd, "mkdir -p %s && cp %s %s/0123456789abcdef0123456789abcdef.json", sp, FIXTURE, sp);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(history_open(where("spool"), &db, err, sizeof err), 0);
	assert_int_equal(history_import_spool(db, sp), 1);
	assert_int_equal(count(db, "SELECT count(*) FROM run"), 1);
	snprintf(cmd, sizeof cmd, "%s/0123456789abcdef0123456789abcdef.json", sp);
	assert_int_not_equal(access(cmd, F_OK), 0);
	assert_int_equal(history_import_spool(db, sp), 0);
	history_close(db);
}

/* Three drives of one model at 100, 150 and 200 MB/s, the middle one twice. */
static void
test_queries(void **state)
{
	static const char *const serial[] = { "S-A", "S-B", "S-C", "S-B" };
	static const double rate[] = { 100, 150, 200, 140 };
	struct hdb *db;
	struct run_result r;
	char err[256] = "";

	assert_int_equal(history_open(where("q"), &db, err, sizeof err), 0);
	for (int i = 0; i < 4; i++) {
		load(&r);
		snprintf(r.run_id, sizeof r.run_id, "aaaa0000bbbb0000cccc0000dddd000%c", (char)('0' + i));
		snprintf(r.ident[0].serial, sizeof r.ident[0].serial, "%s", serial[i]);
		r.started += i * 60;
		r.steps[0].res[0].mbps = rate[i];
		assert_int_equal(history_store(db, &r, err, sizeof err), 0);
		run_result_free(&r);
	}
	history_close(db);
	setenv("DISKSCOPE_HISTORY_DB", where("q"), 1);

	struct json_object *j, *o;
	assert_int_equal(history_run_json("aaaa0000bbbb0000cccc0000dddd0002", &j, err, sizeof err), 0);
	assert_true(json_object_object_get_ex(j, "identity", &o));
	assert_true(json_object_object_get_ex(j, "steps", &o));
	json_object_put(j);
	assert_int_equal(history_run_json("aaaa0000", &j, err, sizeof err), -EINVAL);	/* four start so */
	assert_int_equal(history_run_json("0000000000000000", &j, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "no such run"));

	load(&r);
	char day[16];
	strftime(day, sizeof day, "%Y-%m-%d", localtime(&r.started));
	run_result_free(&r);
	struct strlist ids = { 0 };
	assert_int_equal(history_runs_on(day, &ids, err, sizeof err), 0);
	assert_int_equal(ids.n, 4);
	assert_string_equal(ids.v[0], "aaaa0000bbbb0000cccc0000dddd0000");	/* oldest first */
	assert_string_equal(ids.v[3], "aaaa0000bbbb0000cccc0000dddd0003");
	strlist_free(&ids);
	assert_int_equal(history_runs_on("1999-01-01", &ids, err, sizeof err), 0);
	assert_int_equal(ids.n, 0);
	assert_int_equal(history_runs_on("yesterday", &ids, err, sizeof err), -EINVAL);

	struct history_drive_summary s;
	assert_int_equal(history_drive_summary("S-B", &s, err, sizeof err), 0);
	assert_string_equal(s.model, "WDC WD40EZRX-00SPEB0");
	assert_int_equal(s.n_runs, 2);
	assert_string_equal(s.runs[0].run_id, "aaaa0000bbbb0000cccc0000dddd0003");	/* newest first */
	assert_true(s.runs[0].mbps.known && fabs(s.runs[0].mbps.v - 140) < 0.01);
	assert_int_equal(s.runs[0].level, VL_PASS);
	assert_int_equal(s.peers, 2);
	assert_true(s.percentile.known && fabs(s.percentile.v - 50) < 0.01);	/* 140 between 100 and 200 */
	assert_int_equal(history_drive_summary("S-A", &s, err, sizeof err), 0);
	assert_true(s.percentile.known && fabs(s.percentile.v - 0) < 0.01);
	assert_int_equal(history_drive_summary("NOPE", &s, err, sizeof err), -ENOENT);

	double rates[8];
	size_t n;
	assert_int_equal(history_model_rates("WDC WD40EZRX-00SPEB0", NULL, NULL, rates, 8, &n, err, sizeof err), 0);
	assert_int_equal(n, 3);
	assert_true(fabs(rates[0] - 100) < 0.01 && fabs(rates[1] - 150) < 0.01 && fabs(rates[2] - 200) < 0.01);
	assert_int_equal(history_model_rates("WDC WD40EZRX-00SPEB0", "randread", NULL, rates, 8, &n, err, sizeof err), 0);
	assert_int_equal(n, 0);
	unsetenv("DISKSCOPE_HISTORY_DB");
}

/* The config file's [history] section; --db and the variable come first. */
static void
test_config(void **state)
{
	char p[600], buf[1024];
	FILE *f;

	snprintf(p, sizeof p, "%s/config.ini", dir);
	assert_non_null(f = fopen(p, "w"));
	fprintf(f, "[other]\ndb = no\n[history]\ndb = postgresql://shop/history\nbench = bench-7\n");
	fclose(f);
	setenv("DISKSCOPE_CONFIG", p, 1);
	unsetenv("DISKSCOPE_HISTORY_DB");
	history_config_reset();
	assert_int_equal(history_db_path(buf, sizeof buf), 0);
	assert_string_equal(buf, "postgresql://shop/history");
	assert_string_equal(history_bench_name("host-1"), "bench-7");
	setenv("DISKSCOPE_HISTORY_DB", "/tmp/env.db", 1);
	assert_int_equal(history_db_path(buf, sizeof buf), 0);
	assert_string_equal(buf, "/tmp/env.db");
	char *argv[] = { "diskscope", "--db", "sqlite:/tmp/arg.db", "list", NULL };
	assert_int_equal(history_take_args(4, argv), 2);
	assert_int_equal(history_db_path(buf, sizeof buf), 0);
	assert_string_equal(buf, "sqlite:/tmp/arg.db");
	/* which backend a value names */
	const char *rest;
	assert_ptr_equal(hdb_backend("host=/run/postgresql dbname=h", &rest), &hdb_pg_ops);
	assert_ptr_equal(hdb_backend("postgres://db1/h", &rest), &hdb_pg_ops);
	assert_ptr_equal(hdb_backend("sqlite:/tmp/a.db", &rest), &hdb_sqlite_ops);
	assert_string_equal(rest, "/tmp/a.db");
	assert_ptr_equal(hdb_backend("/tmp/a=b.db", &rest), &hdb_sqlite_ops);
	char *bad[] = { "diskscope", "--db", "postgresql://h/db?nosuchoption=1", NULL };
	assert_int_equal(history_take_args(3, bad), -1);
	unsetenv("DISKSCOPE_HISTORY_DB");
	setenv("DISKSCOPE_CONFIG", "/nonexistent", 1);
	history_config_reset();
	assert_string_equal(history_bench_name("host-1"), "host-1");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_migrate_from_zero),
		cmocka_unit_test(test_migrate_from_one),
		cmocka_unit_test(test_migrate_from_two),
		cmocka_unit_test(test_new_file_and_dirs),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_no_file_behind),
		cmocka_unit_test(test_record_fixture),
		cmocka_unit_test(test_commit_rolled_back),
		cmocka_unit_test(test_import_spool),
		cmocka_unit_test(test_queries),
		cmocka_unit_test(test_config),
	};
	char cmd[600];

	pg = getenv("DISKSCOPE_TEST_PG");
	if (pg && !*pg)
		pg = NULL;
	if (!mkdtemp(dir))
		return 1;
	setenv("DISKSCOPE_CONFIG", "/nonexistent", 1);	/* no bench's own config */
	snprintf(cmd, sizeof cmd, "%s/xdg", dir);
	setenv("XDG_DATA_HOME", cmd, 1);	/* the spool: ours */
	history_use_registry(bench_flags_of);	/* as main.c does */
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd)) {}
	return rc;
}
