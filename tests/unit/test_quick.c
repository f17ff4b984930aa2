/* test_quick.c - the quick grid's arithmetic on fabricated results: the
 * steps map to cells in plan order (read column, then write column, loops in
 * a row), best is the highest MB/s and IOPS and the lowest mean latency,
 * average is the mean of the loops, latency only on the Q1 rows, a cell not
 * measured is unknown (never 0), and I/O errors fail while the grid's own
 * verdict stays info. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "bench/plan-options.h"
#include "run/runner.h"

/* A plan for quick on one sim drive with `loops` loops (no I/O is done). */
static void
quick_plan_for(struct plan *p, const char *loops)
{
	char err[256] = "";
	plan_init(p, bench_find("quick"));
	assert_non_null(p->test);
	strlist_add(&p->user_targets, "sim:SSD860EVO");
	strlist_add(&p->targets, "sim:SSD860EVO");
	assert_int_equal(plan_set_param(p, "loops", loops, err, sizeof(err)), 0);
	assert_int_equal(plan_set_param(p, "interval", "2", err, sizeof(err)), 0);
	assert_int_equal(plan_build(p, err, sizeof(err)), 0);
}

/* The first n steps of the plan as measured, step k at mbps[k]. */
static void
fake(const struct plan *p, struct run_result *r, const double *mbps, size_t n)
{
	memset(r, 0, sizeof(*r));
	r->steps = calloc(n, sizeof(*r->steps));
	r->n_steps = n;
	for (size_t k = 0; k < n; k++) {
		struct step_result *s = &r->steps[k];
		s->index = (unsigned)k + 1;
		snprintf(s->label, sizeof(s->label), "%s", p->steps[k].label);
		s->res = calloc(1, sizeof(*s->res));
		s->n_res = 1;
		struct target_result *t = &s->res[0];
		snprintf(t->target, sizeof(t->target), "sim:SSD860EVO");
		t->mbps = mbps[k];
		t->iops = mbps[k] * 1e6 / p->steps[k].rp.bs;
		t->seconds = 1;
		t->lat.known = true;
		t->lat.mean = 1e6 / t->iops * p->steps[k].rp.qd;
		s->aggregate_mbps = known_dbl_of(mbps[k]);
	}
}

static double
cell(const struct result_table *t, size_t row, const char *col)
{
	for (size_t c = 0; c < t->n_cols; c++)
		if (!strcmp(t->cols[c].name, col)) {
			const struct result_cell *x = &t->cells[row * t->n_cols + c];
			return t->cols[c].type == COL_INT ? (x->i.known ? (double)x->i.v : NAN) :
							    x->d.known ? x->d.v : NAN;
		}
	fail_msg("no column %s", col);
	return NAN;
}

static const struct result_table *
table(const struct run_result *r, const char *name)
{
	for (size_t i = 0; i < r->n_tables; i++)
		if (!strcmp(r->tables[i].name, name))
			return &r->tables[i];
	fail_msg("no table %s", name);
	return NULL;
}

static void
test_plan_order(void **state)
{
	(void)state;
	struct plan p;
	quick_plan_for(&p, "3");
	assert_int_equal(p.n_steps, 24);
	assert_string_equal(p.steps[0].label, "SEQ1M Q8T1 read #1");
	assert_string_equal(p.steps[2].label, "SEQ1M Q8T1 read #3");
	assert_string_equal(p.steps[3].label, "SEQ1M Q1T1 read #1");
	assert_string_equal(p.steps[11].label, "RND4K Q1T1 read #3");
	assert_string_equal(p.steps[12].label, "SEQ1M Q8T1 write #1");
	assert_int_equal(p.steps[9].rp.bs, 4096);
	assert_int_equal(p.steps[9].rp.qd, 1);
	assert_string_equal(p.steps[9].rp.pattern, "rand");
	assert_int_equal(p.steps[9].rp.rw_mix, 100);
	assert_int_equal(p.steps[12].rp.rw_mix, 0);
	/* the interval before every measurement but the first */
	assert_true(p.steps[0].pause_s == 0);
	assert_true(p.steps[1].pause_s == 2);
	assert_true(p.steps[23].pause_s == 2);
	/* a scratch file must hold data before the reads */
	assert_true(p.topts.fill);
	plan_free(&p);
}

static void
test_best_and_average(void **state)
{
	(void)state;
	struct plan p;
	quick_plan_for(&p, "3");
	double m[24];
	for (size_t k = 0; k < 24; k++)
		m[k] = 100 + (double)k;
	/* SEQ1M Q8T1 read loops: 300, 100, 200 -> best 300, average 200 */
	m[0] = 300, m[1] = 100, m[2] = 200;
	struct run_result r;
	fake(&p, &r, m, 24);
	assert_int_equal(bench_finish(&p, &r), 0);
	const struct result_table *g = table(&r, "grid");
	assert_int_equal(g->n_rows, 4);
	assert_true(cell(g, 0, "read_best_mbps") == 300);
	assert_true(cell(g, 0, "read_avg_mbps") == 200);
	assert_true(fabs(cell(g, 0, "read_iops") - 300e6 / 1048576) < 1e-6);	/* 1 MiB blocks */
	/* write of RND4K Q1T1: steps 21..23 at 121, 122, 123 */
	assert_true(cell(g, 3, "write_best_mbps") == 123);
	assert_true(cell(g, 3, "write_avg_mbps") == 122);
	assert_true(fabs(cell(g, 3, "write_iops") - 123e6 / 4096) < 1e-6);
	/* latency: the lowest mean of the loops, on the Q1 rows only */
	assert_true(fabs(cell(g, 3, "write_lat_us") - 4096 / 123.0) < 1e-9);
	assert_true(isnan(cell(g, 0, "read_lat_us")));
	assert_true(isnan(cell(g, 2, "read_lat_us")));
	assert_true(cell(g, 1, "loops") == 3);
	/* the verdict: info, the SEQ1M Q8T1 row in its sentence */
	assert_int_equal(r.n_verdicts, 1);
	assert_string_equal(r.verdicts[0].kind, "quick");
	assert_int_equal(r.verdicts[0].level, VL_INFO);
	assert_non_null(strstr(r.verdicts[0].text, "SEQ1M Q8T1 read 300.0 MB/s"));
	run_result_free(&r);
	plan_free(&p);
}

static void
test_partial_and_errors(void **state)
{
	(void)state;
	struct plan p;
	quick_plan_for(&p, "1");
	/* interrupted after 3 of 8 steps: the rest is unknown, not 0 */
	const double m[] = { 500, 450, 200 };
	struct run_result r;
	fake(&p, &r, m, 3);
	r.interrupted = true;
	r.steps[1].res[0].err.count = 2;
	r.steps[1].res[0].err.by_errno[0] = (struct errno_count){ 5, 2 };
	r.steps[1].res[0].err.n_errno = 1;
	assert_int_equal(bench_finish(&p, &r), 0);
	const struct result_table *g = table(&r, "grid");
	assert_true(cell(g, 0, "read_best_mbps") == 500);
	assert_true(isnan(cell(g, 0, "write_best_mbps")));
	assert_true(isnan(cell(g, 3, "read_best_mbps")));
	assert_true(isnan(cell(g, 3, "read_iops")));
	assert_true(cell(g, 3, "loops") == 0);
	bool info = false, fail = false;
	for (size_t i = 0; i < r.n_verdicts; i++) {
		info |= !strcmp(r.verdicts[i].kind, "quick") && r.verdicts[i].level == VL_INFO &&
			strstr(r.verdicts[i].text, "write not measured") && strstr(r.verdicts[i].text, "interrupted");
		fail |= !strcmp(r.verdicts[i].kind, "errors") && r.verdicts[i].level == VL_FAIL;
	}
	assert_true(info);
	assert_true(fail);
	run_result_free(&r);
	plan_free(&p);
}

static void
test_presets(void **state)
{
	(void)state;
	struct plan p;
	char err[256] = "";
	plan_init(&p, bench_find("quick"));
	strlist_add(&p.targets, "sim:SSD860EVO");
	assert_int_equal(plan_set_param(&p, "preset", "nvme", err, sizeof(err)), 0);
	assert_int_equal(plan_set_param(&p, "loops", "1", err, sizeof(err)), 0);
	assert_int_equal(plan_build(&p, err, sizeof(err)), 0);
	assert_int_equal(p.n_steps, 8);
	assert_string_equal(p.steps[1].label, "SEQ128K Q32T1 read #1");
	assert_int_equal(p.steps[1].rp.bs, 128 << 10);
	assert_int_equal(p.steps[1].rp.qd, 32);
	/* Q32T16 is not run: labelled as what runs, and a note says so */
	assert_string_equal(p.steps[2].label, "RND4K Q32T1 read #1");
	assert_true(strlist_has(&p.notes,
		"nvme preset: CrystalDiskMark's RND4K Q32T16 runs here as RND4K Q32T1 (one worker per target)"));
	plan_free(&p);
	plan_init(&p, bench_find("quick"));
	assert_int_equal(plan_set_param(&p, "preset", "fast", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--preset fast: one of default, nvme, peak, real");
	assert_int_equal(plan_set_param(&p, "loops", "10", err, sizeof(err)), -EINVAL);
	plan_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_order),
		cmocka_unit_test(test_best_and_average),
		cmocka_unit_test(test_partial_and_errors),
		cmocka_unit_test(test_presets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
