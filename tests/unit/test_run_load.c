/* test_run_load.c - `show` input: a saved result file is checked as it is
 * loaded.  Hostile numbers (negative, huge, NaN, wrong types), bytes after the
 * document, a truncated file, a FIFO and a verdict that contradicts its steps
 * are each refused (or marked) with a reason naming the place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "report/run.h"

static char dir[] = "/tmp/ds-run-load-XXXXXX";
static char path[512];

#define DOC(RESULT, VERDICTS, STEPS_OK) \
	"{\"schema\": 1, \"run\": {\"test\": \"saturate\", \"targets\": [\"a\"], \"steps\": [" \
	STEPS_OK "{\"index\": 1, \"active\": [\"a\"], \"aggregate_mbps\": 150, \"results\": [" RESULT "]}" \
	"], \"verdicts\": [" VERDICTS "]}}\n"
#define GOOD_RES "{\"target\": \"a\", \"mbps\": 150.5, \"iops\": 143, \"bytes\": 1048576, \"seconds\": 1}"
#define KNEE1 "{\"kind\": \"saturation\", \"text\": \"saturates at 1 drive, 150 MB/s\", \"knee_drives\": 1}"

static int
load_text(const char *text, size_t len, struct run_result *r, char *err, size_t n)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	memset(r, 0, sizeof *r);
	err[0] = 0;
	return run_json_load(path, r, err, n);
}

static void
refused(const char *text, const char *why)
{
	struct run_result r;
	char err[512];
	int rc = load_text(text, strlen(text), &r, err, sizeof err);
	if (rc == 0 || !strstr(err, why) || strchr(err, '\n'))
		fail_msg("want refused with \"%s\", got rc %d: \"%s\"", why, rc, err);
}

static void
test_good(void **state)
{
	(void)state;
	struct run_result r;
	char err[512];
	const char *t = DOC(GOOD_RES, KNEE1, "");
	assert_int_equal(load_text(t, strlen(t), &r, err, sizeof err), 0);
	assert_int_equal(r.n_steps, 1);
	assert_int_equal(r.verdicts[0].knee_drives, 1);
	assert_true(r.steps[0].res[0].mbps > 150 && r.steps[0].res[0].mbps < 151);
	run_result_free(&r);
}

static void
test_hostile_numbers(void **state)
{
	(void)state;
	refused(DOC("{\"target\": \"a\", \"mbps\": -5, \"seconds\": 1}", "", ""), "steps[0].results[0].mbps");
	refused(DOC("{\"target\": \"a\", \"mbps\": 1e300, \"seconds\": 1}", "", ""),
		"mbps: 1e300 is out of range: valid JSON, but not a plausible value (want a number 0 .. 1e12)");
	/* valid JSON out of range, not "not valid JSON": 1e308 fits a double,
	 * 1e309 does not; in a field of whole numbers too */
	refused(DOC("{\"target\": \"a\", \"mbps\": 1e308, \"seconds\": 1}", "", ""), "mbps: 1e308 is out of range");
	refused(DOC("{\"target\": \"a\", \"mbps\": 1e309, \"seconds\": 1}", "", ""), "mbps: 1e309 is out of range");
	refused(DOC("{\"target\": \"a\", \"bytes\": 1e308, \"seconds\": 1}", "", ""),
		"bytes: 1e308 is out of range: valid JSON");
	refused(DOC("{\"target\": \"a\", \"bytes\": 1.5, \"seconds\": 1}", "", ""), "bytes: not a whole number");
	refused(DOC("{\"target\": \"a\", \"mbps\": -5, \"seconds\": 1}", "", ""), "mbps: -5 is negative");
	refused(DOC("{\"target\": \"a\", \"mbps\": \"fast\", \"seconds\": 1}", "", ""), "mbps: not a number");
	refused(DOC("{\"target\": \"a\", \"mbps\": NaN, \"seconds\": 1}", "", ""), "mbps: NaN is not a finite number");
	refused("{\"schema\": 1, \"run\": {\"test\": \"x\" \"steps\": []}}", "not valid JSON at byte 34");
	refused(DOC("{\"target\": \"a\", \"bytes\": -1, \"seconds\": 1}", "", ""), "bytes: negative");
	refused(DOC("{\"target\": 7, \"seconds\": 1}", "", ""), "target: not a string");
	refused(DOC("{\"target\": \"a\", \"lat_us\": {\"p99\": -1}}", "", ""), "p99");
	refused(DOC("{\"target\": \"a\", \"series\": {\"mbps\": [1, -2], \"iops\": [1, 1], \"p99_us\": [1, null]}}", "", ""),
		"series.mbps");
	refused(DOC(GOOD_RES, "", "\"nope\", "), "steps[0].step: not an object");
	refused(DOC(GOOD_RES, "{\"kind\": \"saturation\", \"text\": \"x\", \"knee_drives\": -3}", ""),
		"verdicts[0].knee_drives: negative");
}

static void
test_framing(void **state)
{
	(void)state;
	const char *good = DOC(GOOD_RES, KNEE1, "");
	char buf[2048];
	snprintf(buf, sizeof buf, "%s{\"more\": 1}\n", good);
	refused(buf, "trailing data after the JSON document at byte");
	snprintf(buf, sizeof buf, "%sgarbage", good);
	refused(buf, "trailing data");
	/* truncated: the message names the byte, no tokenizer state, no newline */
	struct run_result r;
	char err[512];
	assert_int_not_equal(load_text(good, 40, &r, err, sizeof err), 0);
	assert_non_null(strstr(err, "truncated JSON at byte 40"));
	assert_null(strchr(err, '\n'));
	refused("", "empty file");
	refused("   \n", "empty file");
}

static void
test_verdict_contradicts_steps(void **state)
{
	(void)state;
	struct run_result r;
	char err[512];
	const char *t = "{\"schema\": 1, \"run\": {\"test\": \"saturate\", \"steps\": [], \"verdicts\": ["
			"{\"kind\": \"saturation\", \"text\": \"saturates at 4 drives, 900 MB/s\", \"knee_drives\": 4}]}}";
	assert_int_equal(load_text(t, strlen(t), &r, err, sizeof err), 0);
	assert_int_equal(r.n_verdicts, 1);
	assert_int_equal(r.verdicts[0].knee_drives, 0);
	assert_non_null(strstr(r.verdicts[0].text, "IGNORED, contradicts the 0 saved steps"));
	run_result_free(&r);
	/* the same sentence without a knee number, beside steps of 1 drive */
	const char *u = DOC(GOOD_RES, "{\"kind\": \"saturation\", \"text\": \"saturates at 3 drives\", \"knee_drives\": 0}", "");
	assert_int_equal(load_text(u, strlen(u), &r, err, sizeof err), 0);
	assert_non_null(strstr(r.verdicts[0].text, "IGNORED"));
	run_result_free(&r);
}

/* A refused write run as `run` writes it: the rule and its sentence come
 * back; a "refused" that is not an object, or has no rule, is refused. */
#define REFUSED(X) "{\"schema\": 1, \"run\": {\"test\": \"seqwrite\", \"targets\": [\"/dev/loop3\"], " \
	"\"steps\": [], \"verdicts\": [], \"failed\": true, \"refused\": " X "}}\n"

static void
test_refused(void **state)
{
	(void)state;
	struct run_result r;
	char err[512];
	const char *t = REFUSED("{\"rule\": \"confirmation\", \"evidence\": "
				"\"refused: writing /dev/loop3 needs --destroy-data=/dev/loop3\"}");
	assert_int_equal(load_text(t, strlen(t), &r, err, sizeof err), 0);
	assert_true(r.failed);
	assert_string_equal(r.refused_rule, "confirmation");
	assert_string_equal(r.refused_evidence, "refused: writing /dev/loop3 needs --destroy-data=/dev/loop3");
	run_result_free(&r);
	t = REFUSED("null");
	assert_int_equal(load_text(t, strlen(t), &r, err, sizeof err), 0);
	assert_string_equal(r.refused_rule, "");
	run_result_free(&r);
	refused(REFUSED("5"), "refused: not an object or null");
	refused(REFUSED("{\"evidence\": \"x\"}"), "refused.rule: missing or empty");
	refused(REFUSED("{\"rule\": 3}"), "refused.rule: not a string");
}

static void
test_not_a_file(void **state)
{
	(void)state;
	struct run_result r;
	char err[512], fifo[600];
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* returns at once: nothing will ever write to this FIFO */
	assert_int_not_equal(run_json_load(fifo, &r, err, sizeof err), 0);
	assert_non_null(strstr(err, "not a regular file"));
	unlink(fifo);
	assert_int_not_equal(run_json_load(dir, &r, err, sizeof err), 0);
	assert_non_null(strstr(err, "a directory"));
}

int
main(void)
{
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/r.json", dir);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_hostile_numbers),
		cmocka_unit_test(test_framing),
		cmocka_unit_test(test_verdict_contradicts_steps),
		cmocka_unit_test(test_not_a_file),
		cmocka_unit_test(test_refused),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	rmdir(dir);
	return rc;
}
