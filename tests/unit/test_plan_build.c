/* test_plan_build.c - one plan whatever starts the run (run/plan-build.c):
 * a demo drive named as a user types it (sim12), as the picker names it
 * (its path sim:sim12) or by serial is the same target with the same
 * identity from the inventory; argv (`run triage ... --bs 64k --seed 7`)
 * and the picker's words ("bs=64k seed=7") give the same plan, steps and
 * all; the history's peers and the sim pacing come from the environment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include "bench/bench.h"
#include "cli/options.h"
#include "inventory/inventory.h"
#include "run/plan-build.h"
#include "sim/sim.h"

static struct inventory inv;

static int
setup(void **state)
{
	char err[512];
	(void)state;
	return sim_inventory_add(&inv, NULL, NULL, 0, err, sizeof err);
}

static int
teardown(void **state)
{
	(void)state;
	inventory_free(&inv);
	return 0;
}

static int
fake_history(const char *model, const struct strlist *skip, double *rates, size_t max, size_t *n)
{
	(void)model, (void)skip, (void)rates, (void)max;
	*n = 0;
	return 0;
}

static void
make_words(struct plan *p, const char *const *targets, size_t n, const char *words)
{
	char err[512] = "";
	struct plan_env env = { .inv = &inv, .history_rates = fake_history, .sim_speed_set = true };
	if (plan_from_words(p, bench_find("triage"), targets, n, words, err, sizeof err) ||
	    plan_make(p, &env, err, sizeof err))
		fail_msg("plan: %s", err);
}

static void
make_argv(struct plan *p, int argc, const char **argv)
{
	char err[512] = "";
	struct run_outputs out;
	struct plan_env env = { .inv = &inv, .history_rates = fake_history, .sim_speed_set = true };
	if (plan_parse_args(p, argc, (char **)argv, cli_output_find, &out, err, sizeof err) || plan_make(p, &env, err, sizeof err))
		fail_msg("plan: %s", err);
}

/* Every name of a drive: one target, one identity, all from the inventory. */
static void
test_names(void **state)
{
	(void)state;
	const struct drive *d = inventory_find_drive(&inv, "sim12");
	assert_non_null(d);
	const char *byname[] = { "sim12", "sim18" }, *bypath[] = { "sim:sim12", "sim:sim18" };
	const char *byserial[] = { d->serial, "sim:sim18" };
	const char *const *ways[] = { byname, bypath, byserial };
	struct plan p[3];
	for (int w = 0; w < 3; w++)
		make_words(&p[w], ways[w], 2, "");
	for (int w = 0; w < 3; w++) {
		assert_int_equal(p[w].targets.n, 2);
		for (size_t t = 0; t < 2; t++) {
			const struct target_ident *a = &p[0].ident[t], *b = &p[w].ident[t];
			assert_string_equal(p[w].targets.v[t], p[0].targets.v[t]);
			assert_true(a->model[0] && a->serial[0] && a->controller[0] && a->port[0]);
			assert_string_equal(a->model, b->model);
			assert_string_equal(a->serial, b->serial);
			assert_string_equal(a->controller, b->controller);
			assert_string_equal(a->port, b->port);
			assert_true(b->capacity.known);
		}
		assert_ptr_equal(p[w].history_rates, fake_history);
		assert_true(p[w].topts.sim_speed == 0);
	}
	assert_string_equal(p[0].targets.v[0], "sim:sim12");
	assert_string_equal(p[0].ident[0].serial, d->serial);
	assert_string_equal(p[0].ident[0].model, d->model);
	for (int w = 0; w < 3; w++)
		plan_free(&p[w]);
}

/* argv and the picker's words: the same plan. */
static void
test_argv_and_words(void **state)
{
	(void)state;
	const char *argv[] = { "triage", "sim12", "sim:sim13", "--bs", "64k", "--seed", "7", "--mode", "full" };
	const char *const targets[] = { "sim12", "sim:sim13" };
	struct plan a, b;
	make_argv(&a, (int)(sizeof argv / sizeof argv[0]), argv);
	make_words(&b, targets, 2, "bs=64k seed=7 mode=full");
	assert_int_equal(a.params.bs, 65536);
	assert_int_equal(b.params.bs, 65536);
	assert_true(a.params.seed == 7 && b.params.seed == 7);
	assert_true(a.set_bs && b.set_bs);
	assert_int_equal(a.set_qd, b.set_qd);
	assert_int_equal(a.set_time, b.set_time);
	assert_true(!memcmp(&a.params, &b.params, sizeof a.params));
	assert_string_equal(plan_param_str(&a, "mode"), "full");
	assert_string_equal(plan_param_str(&b, "mode"), "full");
	assert_int_equal(a.n_steps, b.n_steps);
	for (size_t i = 0; i < a.n_steps; i++)
		assert_string_equal(a.steps[i].label, b.steps[i].label);
	assert_int_equal(a.targets.n, b.targets.n);
	for (size_t i = 0; i < a.targets.n; i++) {
		assert_string_equal(a.targets.v[i], b.targets.v[i]);
		assert_string_equal(a.ident[i].serial, b.ident[i].serial);
	}
	assert_int_equal(a.topts.write, b.topts.write);
	plan_free(&a);
	plan_free(&b);
}

/* Words the option table refuses: the same line run prints. */
static void
test_words_refused(void **state)
{
	(void)state;
	struct plan p;
	char err[256] = "";
	const char *const targets[] = { "sim12" };
	assert_int_equal(plan_from_words(&p, bench_find("triage"), targets, 1, "time=20", err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "--time"));
	plan_free(&p);
	assert_int_equal(plan_from_words(&p, bench_find("triage"), targets, 0, "", err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "name at least one target"));
	plan_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_argv_and_words),
		cmocka_unit_test(test_words_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
