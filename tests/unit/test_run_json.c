/* test_run_json.c - saved runs: what run_json writes, run_json_from_object
 * reads back; malformed documents (wrong types where arrays belong) are
 * refused with a reason, never an abort. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include "report/run.h"

static void
fill(struct run_result *r)
{
	memset(r, 0, sizeof *r);
	snprintf(r->test, sizeof r->test, "seqread");
	strlist_add(&r->targets, "sim:WD40EZRX");
	r->params.bs = 1 << 20;
	r->params.qd = 8;
	r->params.seconds = 1;
	r->params.region_end = 1;
	r->n_steps = 1;
	r->steps = calloc(1, sizeof *r->steps);
	struct step_result *s = &r->steps[0];
	s->index = 1;
	strlist_add(&s->active, "sim:WD40EZRX");
	s->n_res = 1;
	s->res = calloc(1, sizeof *s->res);
	struct target_result *t = &s->res[0];
	snprintf(t->target, sizeof t->target, "sim:WD40EZRX");
	t->mbps = 150;
	t->iops = 143;
	t->seconds = 1;
	t->lat.known = true;
	t->lat.p50 = 55000;
	t->series.interval_ms = 100;
	t->series.n = 3;
	t->series.mbps = calloc(3, sizeof(float));
	t->series.iops = calloc(3, sizeof(float));
	t->series.p99_us = calloc(3, sizeof(float));
	for (int i = 0; i < 3; i++) {
		t->series.mbps[i] = 150;
		t->series.iops[i] = 143;
		t->series.p99_us[i] = 56000;
	}
	s->aggregate_mbps = known_dbl_of(150);
}

static void
test_round_trip(void **state)
{
	(void)state;
	struct run_result r, back;
	char err[256] = "";
	fill(&r);
	struct json_object *o = run_json(&r);
	assert_non_null(o);
	memset(&back, 0, sizeof back);
	assert_int_equal(run_json_from_object(o, &back, err, sizeof err), 0);
	assert_string_equal(back.test, "seqread");
	assert_int_equal(back.n_steps, 1);
	assert_int_equal(back.steps[0].n_res, 1);
	assert_int_equal(back.steps[0].res[0].series.n, 3);
	assert_true(fabs(back.steps[0].res[0].mbps - 150) < 1e-6);
	run_result_free(&back);
	json_object_put(o);
	run_result_free(&r);
}

/* Replace one array of the first result with an object: refused, no abort. */
static void
mangle(const char *section, const char *key)
{
	struct run_result r, back;
	char err[256] = "";
	fill(&r);
	struct json_object *o = run_json(&r), *steps, *res, *sec;
	assert_true(json_object_object_get_ex(o, "steps", &steps));
	assert_true(json_object_object_get_ex(json_object_array_get_idx(steps, 0), "results", &res));
	struct json_object *t0 = json_object_array_get_idx(res, 0);
	if (json_object_object_get_ex(t0, section, &sec))
		json_object_object_add(sec, key, json_object_new_object());
	else {
		sec = json_object_new_object();
		json_object_object_add(sec, "upper_us", json_object_new_array());
		json_object_array_add(json_object_object_get(sec, "upper_us"), json_object_new_double(1));
		json_object_object_add(sec, key, json_object_new_object());
		json_object_object_add(t0, section, sec);
	}
	memset(&back, 0, sizeof back);
	int rc = run_json_from_object(o, &back, err, sizeof err);
	if (rc == 0)	/* accepted only by ignoring the bad part */
		assert_int_equal(back.steps[0].res[0].series.n, strcmp(section, "series") ? 3 : 0);
	run_result_free(&back);
	json_object_put(o);
	run_result_free(&r);
}

static void
test_wrong_types(void **state)
{
	(void)state;
	mangle("series", "iops");
	mangle("series", "p99_us");
	mangle("series", "mbps");
	mangle("hist", "count");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_wrong_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
