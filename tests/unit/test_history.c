/* test_history.c - the history store on a temporary SQLite file: a new file
 * (schema version 0) is migrated to the latest schema, a saved result is
 * recorded into the tables that map it (once, however often it is given),
 * and a spooled run is imported and its file removed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "history/history.h"
#include "report/run.h"

#define FIXTURE "tests/fixtures/history/seqread-sdb.json"

static char dir[] = "/tmp/ds-history-XXXXXX";
static char dbpath[512];

static long long
count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long n = -1;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
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
	sqlite3 *db;
	char err[256] = "";

	/* a database at version 0: a meta table that says so, nothing else */
	snprintf(dbpath, sizeof dbpath, "%s/v0.db", dir);
	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE meta(schema_version INTEGER NOT NULL);"
				      "INSERT INTO meta VALUES(0)", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(history_schema_version(db), 0);
	sqlite3_close(db);
	assert_int_equal(history_open(dbpath, &db, err, sizeof err), 0);
	assert_int_equal(history_schema_version(db), HISTORY_SCHEMA);
	assert_int_equal(count(db, "SELECT count(*) FROM meta"), 1);
	assert_int_equal(count(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN"
			 " ('bench','run','drive','run_target','step_result','verdict','result_table')"), 7);
	sqlite3_close(db);
	/* opening again changes nothing */
	assert_int_equal(history_open(dbpath, &db, err, sizeof err), 0);
	assert_int_equal(history_schema_version(db), HISTORY_SCHEMA);
	sqlite3_close(db);
}

static void
test_new_file_and_dirs(void **state)
{
	sqlite3 *db;
	char err[256] = "";

	/* the default place: made on first use under $XDG_DATA_HOME */
	snprintf(dbpath, sizeof dbpath, "%s/xdg", dir);
	setenv("XDG_DATA_HOME", dbpath, 1);
	unsetenv("DISKSCOPE_HISTORY_DB");
	assert_int_equal(history_open_default(&db, err, sizeof err), 0);
	assert_int_equal(history_schema_version(db), HISTORY_SCHEMA);
	sqlite3_close(db);
	snprintf(dbpath, sizeof dbpath, "%s/xdg/diskscope/history.db", dir);
	assert_int_equal(access(dbpath, F_OK), 0);
	/* a HOME that does not exist is not made, even as root */
	unsetenv("XDG_DATA_HOME");
	snprintf(dbpath, sizeof dbpath, "%s/nonexistent", dir);
	setenv("HOME", dbpath, 1);
	assert_int_not_equal(history_open_default(&db, err, sizeof err), 0);
	assert_int_not_equal(access(dbpath, F_OK), 0);
}

static void
test_not_regular(void **state)
{
	sqlite3 *db;
	char err[256] = "";

	/* never a device (SQLite would write into one that reads as zeros) */
	assert_int_equal(history_open("/dev/null", &db, err, sizeof err), -EINVAL);
	assert_null(db);
	assert_non_null(strstr(err, "not a regular file"));
	assert_int_equal(history_open(dir, &db, err, sizeof err), -EINVAL);
}

static void
test_record_fixture(void **state)
{
	sqlite3 *db;
	struct run_result r;
	char err[256] = "";

	snprintf(dbpath, sizeof dbpath, "%s/rec.db", dir);
	assert_int_equal(history_open(dbpath, &db, err, sizeof err), 0);
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
	assert_int_equal(count(db, "SELECT count(*) FROM run WHERE test = 'seqread' AND"
			 " json_extract(params, '$.qd') = 8 AND interrupted = 0"), 1);
	/* a second run of the same drive lands on the same drive row */
	load(&r);
	strcpy(r.run_id, "fedcba9876543210fedcba9876543210");
	assert_int_equal(history_store(db, &r, err, sizeof err), 0);
	run_result_free(&r);
	assert_int_equal(count(db, "SELECT count(*) FROM drive"), 1);
	assert_int_equal(count(db, "SELECT count(DISTINCT run) FROM run_target"), 2);
	sqlite3_close(db);
}

static void
test_import_spool(void **state)
{
	sqlite3 *db;
	char err[256] = "", sp[512], cmd[1200];

	snprintf(sp, sizeof sp, "%s/spool", dir);
	snprintf(cmd, sizeof cmd, "mkdir -p %s && cp %s %s/0123456789abcdef0123456789abcdef.json", sp, FIXTURE, sp);
	assert_int_equal(system(cmd), 0);
	snprintf(dbpath, sizeof dbpath, "%s/spool.db", dir);
	assert_int_equal(history_open(dbpath, &db, err, sizeof err), 0);
	assert_int_equal(history_import_spool(db, sp), 1);
	assert_int_equal(count(db, "SELECT count(*) FROM run"), 1);
	snprintf(cmd, sizeof cmd, "%s/0123456789abcdef0123456789abcdef.json", sp);
	assert_int_not_equal(access(cmd, F_OK), 0);
	assert_int_equal(history_import_spool(db, sp), 0);
	sqlite3_close(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_migrate_from_zero),
		cmocka_unit_test(test_new_file_and_dirs),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_record_fixture),
		cmocka_unit_test(test_import_spool),
	};
	char cmd[600];

	if (!mkdtemp(dir))
		return 1;
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd)) {}
	return rc;
}
