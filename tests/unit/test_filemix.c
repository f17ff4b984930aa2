/* test_filemix.c - filemix's plan: the seed's sizes scaled to the budget
 * keeping their proportions (64 MiB: 10GB-class 49 MiB ... 1MB-class at the
 * 64 KiB floor), half of each class read back, the fill / holes sizes, a
 * probe step first, every step one whole file; a budget below 16 MiB and a
 * target that is not a directory refused with one line.  Nothing is written:
 * the plan only reads the free space of a directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/bench.h"
#include "bench/plan-options.h"
#include "run/runner.h"

static char dir[] = "/tmp/ds-test-filemix-XXXXXX";

static int
plan_for(struct plan *p, const char *target, uint64_t size, const char *data, char *err, size_t n)
{
	plan_init(p, bench_find("filemix"));
	assert_non_null(p->test);
	strlist_add(&p->user_targets, target);
	strlist_add(&p->targets, target);
	p->params.size = size;
	if (data)
		assert_int_equal(plan_set_param(p, "data", data, err, n), 0);
	return plan_build(p, err, n);
}

static unsigned
count(const struct plan *p, const char *prefix, uint64_t *size)
{
	unsigned n = 0;
	for (size_t i = 0; i < p->n_steps; i++)
		if (!strncmp(p->steps[i].label, prefix, strlen(prefix))) {
			n++;
			*size = p->steps[i].rp.size;
		}
	return n;
}

static void
scaled_64m(void **st)
{
	(void)st;
	struct plan p;
	char err[256] = "";
	if (plan_for(&p, dir, 64u << 20, NULL, err, sizeof(err))) {
		plan_free(&p);
		skip();	/* less than 1 GiB + 64 MiB free here */
	}
	static const struct {
		const char *prefix;
		unsigned n;
		uint64_t size;
	} rows[] = {
		{ "write t1 10GB ", 1, 49u << 20 }, { "write t1 1GB ", 2, 4u << 20 },
		{ "write t1 100MB ", 5, 7u << 16 }, { "write t1 1MB ", 20, 64u << 10 },
		{ "read t1 10GB ", 1, 49u << 20 }, { "read t1 1GB ", 1, 4u << 20 },
		{ "read t1 100MB ", 3, 7u << 16 }, { "read t1 1MB ", 10, 64u << 10 },
		{ "write t2 10MB ", 16, 4u << 20 }, { "write t2 1GB ", 2, 16u << 20 },
		{ "read t2 1GB ", 1, 16u << 20 },
	};
	assert_string_equal(p.steps[0].label, "probe");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t sz = 0;
		assert_int_equal(count(&p, rows[i].prefix, &sz), rows[i].n);
		assert_int_equal(sz, rows[i].size);
	}
	for (size_t i = 1; i < p.n_steps; i++) {	/* one whole file each, sequential, qd 1 */
		assert_int_equal(p.steps[i].rp.qd, 1);
		assert_true(p.steps[i].rp.size % p.steps[i].rp.bs == 0);
		assert_string_equal(p.steps[i].rp.pattern, "seq");
	}
	/* the fill and the holes stay within the budget */
	uint64_t s10 = 0, s1g = 0;
	unsigned n10 = count(&p, "write t2 10MB ", &s10), n1g = count(&p, "write t2 1GB ", &s1g);
	assert_true(n10 * s10 <= 64u << 20);
	assert_true(n1g * s1g <= (n10 / 2) * s10);
	plan_free(&p);
}

static void
data_both(void **st)
{
	(void)st;
	struct plan p;
	char err[256] = "";
	if (plan_for(&p, dir, 64u << 20, "both", err, sizeof(err))) {
		plan_free(&p);
		skip();
	}
	uint64_t sz;
	assert_int_equal(count(&p, "write t3 ", &sz), 28);
	for (size_t i = 0; i < p.n_steps; i++)
		if (!strncmp(p.steps[i].label, "write t3 ", 9))
			assert_string_equal(p.steps[i].rp.data, "zeros");
		else if (!strncmp(p.steps[i].label, "write t1 ", 9))
			assert_string_equal(p.steps[i].rp.data, "random");
	plan_free(&p);
}

static void
refusals(void **st)
{
	(void)st;
	struct plan p;
	char err[256] = "";
	assert_int_not_equal(plan_for(&p, dir, 8u << 20, NULL, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "at least 16 MiB"));
	plan_free(&p);
	err[0] = 0;
	assert_int_not_equal(plan_for(&p, "sim:WD20EFRX", 64u << 20, NULL, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "not a directory"));
	assert_null(strchr(err, '\n'));
	plan_free(&p);
}

static int
setup(void **st)
{
	(void)st;
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **st)
{
	(void)st;
	return rmdir(dir);	/* empty: the plan wrote nothing */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scaled_64m),
		cmocka_unit_test(data_both),
		cmocka_unit_test(refusals),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
