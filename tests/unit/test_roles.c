/* test_roles.c - a test is known to its consumers by its flags and its
 * tables' roles, never its name.  A new test that judges drives, defined
 * here alone (in no registry line, no consumer edited), runs on a scratch
 * file and its result shows where a judging test's must: on the board's
 * lookup (the TR_VERDICTS table and its columns, as ui/panel-board.c finds
 * them), in the history (the run filed under TEST_JUDGES, the drive's
 * verdict row found by history_verdict_row, as `diskscope history` shows
 * it; not among the reference reads) and in the HTML report's verdict
 * listing (the drive's verdict and the summary that is not a drive's). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/bench.h"
#include "history/db.h"
#include "history/history.h"
#include "report/html.h"
#include "run/plan-build.h"
#include "run/runner.h"

static char dir[] = "/tmp/ds-roles-XXXXXX";

/* ---- the new test: all of it ---- */

static const struct result_col grade_cols[] = {
	{ "target", "Drive", COL_STR, "", 0 },
	{ "verdict", "Grade", COL_STR, "", 0 },
	{ "reasons", "Why", COL_STR, "", 0 },
};

static int
grade_finish(struct bench_ctx *c, struct run_result *r)
{
	struct result_table *t = result_table_add(r, "grades", "Grades: one row per drive", grade_cols,
						  ARRAY_SIZE(grade_cols));
	if (!t)
		return -ENOMEM;
	t->role = TR_VERDICTS;	/* as its columns say too */
	for (size_t i = 0; i < c->plan->targets.n; i++) {
		/* the drive as the result's identity names it (a scratch file: "scratch") */
		const char *name = i < r->ident_targets.n ? r->ident_targets.v[i] : c->plan->targets.v[i];
		if (table_add_row(t) || table_set_str(t, t->n_rows - 1, 0, name) ||
		    table_set_str(t, t->n_rows - 1, 1, "WARN") || table_set_str(t, t->n_rows - 1, 2, "graded low"))
			return -ENOMEM;
		if (!result_verdict(r, VL_WARN, "grade", "%s: WARN: graded low", name))
			return -ENOMEM;
	}
	struct verdict *v = result_verdict(r, VL_INFO, "grades", "%zu drives graded", c->plan->targets.n);
	if (!v)
		return -ENOMEM;
	v->tally = true;
	bench_verdict_errors(c->plan, r);
	return 0;
}

static const struct bench_test bench_grade = {
	.name = "grade-roles",
	.summary = "a test that judges drives, known by its flags alone",
	.panels = PANEL_THROUGHPUT | PANEL_BOARD,
	.flags = TEST_JUDGES,
	.defaults = { .bs = 64 << 10, .qd = 1, .size = 1 << 20 },
	.plan = bench_plan_single,
	.finish = grade_finish,
};

/* ---- its run, as the dashboard or `run` makes one ---- */

static void
run_grade(struct run_result *res)
{
	struct plan p;
	struct runner *r;
	char err[512] = "";

	plan_init(&p, &bench_grade);
	p.topts.file_size = 4 << 20;
	assert_int_equal(strlist_add(&p.user_targets, dir), 0);
	if (plan_resolve_targets(&p, NULL, err, sizeof err))
		fail_msg("resolve: %s", err);
	if (plan_build(&p, err, sizeof err))
		fail_msg("build: %s", err);
	if (runner_create(&p, &r, NULL, err, sizeof err))
		fail_msg("create: %s", err);
	assert_int_equal(runner_start(r), 0);
	runner_wait(r, -1);
	assert_int_equal(runner_result(r, res), 0);
	runner_destroy(r);
	plan_free(&p);
	assert_int_equal(res->n_steps, 1);
	assert_true(res->steps[0].res[0].ios > 0);
}

/* The drive's row on the board: the verdict table, its target and verdict. */
static void
test_board_lookup(void **state)
{
	struct run_result res = { 0 };

	run_grade(&res);
	assert_int_equal(res.test_flags, TEST_JUDGES);
	const struct result_table *t = result_table_next(&res, TR_VERDICTS, NULL);
	assert_non_null(t);
	assert_string_equal(t->name, "grades");
	assert_null(result_table_next(&res, TR_VERDICTS, t));
	assert_int_equal(table_col(t, CR_TARGET), 0);
	assert_int_equal(table_col(t, CR_VERDICT), 1);
	assert_int_equal(table_col(t, CR_REASONS), 2);
	assert_int_equal(table_col(t, CR_TEMP_C), -1);
	const struct result_cell *v = table_role_cell(t, 0, CR_VERDICT);
	assert_non_null(v);
	assert_string_equal(v->s, "WARN");
	/* a table with the same columns but no role set: its columns give it */
	struct run_result other = { 0 };
	assert_non_null(result_table_add(&other, "x", "", grade_cols, ARRAY_SIZE(grade_cols)));
	assert_int_equal(other.tables[0].role, TR_VERDICTS);
	assert_null(result_table_next(&other, TR_SURFACE_MAP, NULL));
	run_result_free(&other);
	run_result_free(&res);
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

/* The history files it under TEST_JUDGES (its own flags: the registry does
 * not know it) and finds the drive's verdict in its facts. */
static void
test_history_filter(void **state)
{
	struct run_result res = { 0 };
	struct hdb *db;
	char err[256] = "", path[600], sql[256];

	run_grade(&res);
	snprintf(path, sizeof path, "%s/history.db", dir);
	assert_int_equal(history_open(path, &db, err, sizeof err), 0);
	assert_int_equal(history_store(db, &res, err, sizeof err), 0);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM run WHERE (flags & %u) <> 0", (unsigned)TEST_JUDGES);
	assert_int_equal(count(db, sql), 1);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM run WHERE (flags & %u) <> 0", (unsigned)TEST_REF_READ);
	assert_int_equal(count(db, sql), 0);
	struct hst st;
	hst_init(&st, db, "SELECT t.facts, r.flags FROM run_target t JOIN run r ON r.id = t.run");
	assert_int_equal(hst_step(&st), 1);
	struct json_object *facts = json_tokener_parse(hst_str(&st, 0)), *o;
	unsigned flags = (unsigned)hst_i64(&st, 1);
	hst_end(&st);
	struct json_object *row = history_verdict_row(facts, flags);
	if (!row)
		fail_msg("no verdict row in %s", json_object_to_json_string(facts));
	assert_non_null(row);
	assert_true(json_object_object_get_ex(row, "verdict", &o));
	assert_string_equal(json_object_get_string(o), "WARN");
	/* the same facts of a test that does not judge drives: no verdict */
	assert_null(history_verdict_row(facts, flags & ~(unsigned)TEST_JUDGES));
	json_object_put(facts);
	history_close(db);
	run_result_free(&res);
}

/* The report lists its verdicts and gives the drive its own. */
static void
test_report_verdicts(void **state)
{
	struct run_result res = { 0 };
	char *buf = NULL;
	size_t n = 0;

	run_grade(&res);
	const struct run_result *runs[] = { &res };
	FILE *f = open_memstream(&buf, &n);
	assert_non_null(f);
	html_report_print(f, runs, 1);
	fclose(f);
	char want[300];
	assert_int_equal(res.ident_targets.n, 1);
	snprintf(want, sizeof want, "%s: WARN: graded low", res.ident_targets.v[0]);
	assert_non_null(strstr(buf, want));
	assert_non_null(strstr(buf, "1 drives graded"));
	assert_non_null(strstr(buf, "grade-roles"));
	snprintf(want, sizeof want, "<h3><span class=\"lvl l-warn\">WARN</span> %s", res.ident_targets.v[0]);
	assert_non_null(strstr(buf, want));	/* the drive's section: its own verdict */
	free(buf);
	/* the count over the drives alone left: listed, but no drive's verdict */
	size_t k = res.n_verdicts;
	while (k-- && !res.verdicts[k].tally)
		;
	assert_true(k < res.n_verdicts);
	struct verdict tally = res.verdicts[k];
	for (size_t i = 0; i < res.n_verdicts; i++)
		if (i != k)
			strlist_free(&res.verdicts[i].evidence);
	res.verdicts[0] = tally;
	res.n_verdicts = 1;
	f = open_memstream(&buf, &n);
	assert_non_null(f);
	html_report_print(f, runs, 1);
	fclose(f);
	assert_non_null(strstr(buf, "1 drives graded"));
	snprintf(want, sizeof want, "<h3><span class=\"lvl l-none\">");
	assert_non_null(strstr(buf, want));
	free(buf);
	run_result_free(&res);
}

/* A test with more parameters than a plan holds would lose the ones past
 * BENCH_MAX_PARAMS (plan_set_value says -E2BIG, a default is read): every
 * registered test must fit, so adding a parameter to triage fails here. */
static void
test_params_fit(void **state)
{
	(void)state;
	for (size_t t = 0; t < bench_count; t++) {
		size_t n = 0;
		for (const struct bench_param *const *bp = bench_table[t]->params; bp && *bp; bp++)
			n++;
		if (n > BENCH_MAX_PARAMS)
			fail_msg("%s has %zu parameters, BENCH_MAX_PARAMS is %d", bench_table[t]->name, n,
				 BENCH_MAX_PARAMS);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_board_lookup),
		cmocka_unit_test(test_history_filter),
		cmocka_unit_test(test_report_verdicts),
		cmocka_unit_test(test_params_fit),
	};
	char cmd[600];

	if (!mkdtemp(dir))
		return 1;
	history_use_registry(bench_flags_of);	/* as main.c does */
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd)) {}
	return rc;
}
