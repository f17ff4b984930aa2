/* test_sim_parse.c - bad model, controller and rig files: each gets one
 * "file:line: message" naming the line at fault, and nothing half-parsed is
 * registered or run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "sim/model.h"
#include "test_sim_harness.h"

#define DIR "tests/fixtures/sim/"

struct bad {
	const char *file;
	int line;
	const char *says;
};

static const struct bad bads[] = {
	{ "bad-unknown-key.drive", 10, "unknown key 'rpn' in [drive]" },
	{ "bad-unknown-section.drive", 20, "unknown section [turbo]" },
	{ "bad-missing-capacity.drive", 16, "missing required key 'capacity' in [drive]" },
	{ "bad-rpm-range.drive", 9, "rpm: 100 is out of range" },
	{ "bad-not-number.drive", 13, "access_ms: 'fast' is not a number" },
	{ "bad-inner-above-outer.drive", 12, "inner rate 200 MB/s above outer rate 100 MB/s" },
	{ "bad-cache-larger.drive", 20, "media cache larger than the disk" },
	{ "bad-cache-used.drive", 24, "cache_used_mib: more than the media cache holds" },
	{ "bad-smr-missing.drive", 22, "missing required key 'clean_mbps' in [smr]" },
	{ "bad-duplicate.drive", 8, "duplicate key 'logical' (first on line 7)" },
	{ "bad-unreadable-past-end.drive", 20, "unreadable: range ends past the last LBA" },
	{ "bad-syntax.drive", 10, "not '[section]' or 'key = value'" },
	{ "bad-physical.drive", 8, "physical: 256 is out of range" },
	{ "bad-ssd-rpm.drive", 9, "rpm set on an ssd" },
	{ "bad-curve-order.drive", 12, "rate: positions must increase" },
	{ "bad-long-line.drive", 3, "line longer than" },
	{ "bad-trim-props.drive", 18, "TRIM properties set without trim = yes" },
	{ "bad-link-status.hba", 12, "above the capability" },
	{ "bad-link-syntax.hba", 11, "cap: 'fast' is not" },
	{ "bad-scaling.hba", 16, "scaling: 5 values for 4 ports" },
	{ "bad-vendor.hba", 3, "vendor_id: 'xyz' is not a 16-bit hex number" },
	{ "bad-unknown-drive.rig", 6, "drive: no drive model 'NOSUCHDRIVE'" },
	{ "bad-too-many.rig", 9, "drive: 88SE9215 has only 4 ports" },
	{ "bad-no-hba.rig", 6, "[controller] without 'hba'" },
	{ "bad-unknown-hba.rig", 4, "hba: no controller model 'NOSUCH'" },
};

static void
test_bad_files(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
		const struct bad *b = &bads[i];
		char file[200], err[512], want[256];
		snprintf(file, sizeof file, DIR "%s", b->file);
		int r = sim_check_file(file, err, sizeof err);
		printf("%s\n", err);
		assert_int_equal(r, -EINVAL);
		snprintf(want, sizeof want, "%s:%d: ", file, b->line);
		if (strncmp(err, want, strlen(want)) != 0 || !strstr(err, b->says))
			fail_msg("%s: got \"%s\", want \"%s%s\"", b->file, err, want, b->says);
		assert_null(strchr(err, '\n'));	/* one line */
	}
}

/* A bad model is not registered: nothing runs on a half-parsed model. */
static void
test_bad_not_registered(void **state)
{
	(void)state;
	char err[512];
	struct target t;
	assert_int_equal(sim_model_add_file(DIR "bad-inner-above-outer.drive", err, sizeof err),
			 -EINVAL);
	assert_null(sim_find_drive_model("bad-inner-above-outer"));
	memset(&t, 0, sizeof t);
	assert_int_not_equal(sim_target_open(&t, "sim:bad-inner-above-outer", NULL, err, sizeof err), 0);
	assert_non_null(strstr(err, "no simulated drive or model"));
	/* --sim-model stops at the first bad file */
	const char *files[] = { DIR "good.drive", DIR "bad-cache-larger.drive" };
	assert_int_equal(sim_load_models(files, 2, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "bad-cache-larger.drive:20:"));
}

static void
test_good_files(void **state)
{
	(void)state;
	char err[512];
	assert_int_equal(sim_check_file(DIR "good.drive", err, sizeof err), 0);
	assert_int_equal(sim_check_file(DIR "good.hba", err, sizeof err), 0);
	assert_int_equal(sim_check_file(DIR "one-9230.rig", err, sizeof err), 0);
	assert_int_equal(sim_check_file("src/sim/models/seed-bench.rig", err, sizeof err), 0);
	assert_int_equal(sim_check_file(DIR "missing.drive", err, sizeof err), -ENOENT);
	assert_int_equal(sim_check_file(DIR "../sim", err, sizeof err) < 0, 1);
	/* a user model works like a built-in one */
	assert_int_equal(sim_model_add_file(DIR "good.drive", err, sizeof err), 0);
	struct target t;
	struct engine e;
	struct h_stats st;
	assert_int_equal(h_open(&t, "sim:good"), 0);
	assert_int_equal(t.size, 1000204886016ull);
	assert_int_equal(t.physical, 4096);
	assert_int_equal(h_init(&e, &t, 4), 0);
	assert_int_equal(h_seq(&e, 0, 256u << 20, 1u << 20, false, &st), 0);
	assert_true(h_near(h_mbps(&st), 200, 5));
	e.ops->cleanup(&e);
	sim_target_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_bad_not_registered),
		cmocka_unit_test(test_good_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
