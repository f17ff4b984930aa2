/* test_known.c - the one known-value type: its on-screen text (known_fmt_*)
 * and its JSON (doc_known_*: null when unknown, the number when known, also
 * when the number is 0), and a result cell that holds one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "report/doc.h"
#include "run/result.h"
#include "util/known.h"

static void
fmt_text(void **st)
{
	(void)st;
	char b[32];
	struct known_u64 u = { 0 };
	struct known_dbl d = { 0 };

	assert_string_equal(known_fmt_u64(&u, "%llu B", NULL, b, sizeof b), "unknown");
	assert_string_equal(known_fmt_u64(&u, "%llu B", "?", b, sizeof b), "?");
	assert_string_equal(known_fmt_u64(NULL, "%llu", "-", b, sizeof b), "-");
	KNOWN_SET(u, 0);	/* known 0 is a value, not unknown */
	assert_string_equal(known_fmt_u64(&u, "%llu B", "?", b, sizeof b), "0 B");
	u = known_u64_of(4096);
	assert_string_equal(known_fmt_u64(&u, "%llu B", "?", b, sizeof b), "4096 B");

	assert_string_equal(known_fmt_dbl(&d, "%.0f MB/s", NULL, b, sizeof b), "unknown");
	assert_string_equal(known_fmt_dbl(&d, "%.0f MB/s", "rate unknown", b, sizeof b), "rate unknown");
	d = known_dbl_of(0);
	assert_string_equal(known_fmt_dbl(&d, "%.0f MB/s", "?", b, sizeof b), "0 MB/s");
	d = known_dbl_of(149.94);
	assert_string_equal(known_fmt_dbl(&d, "%.1f MB/s", "?", b, sizeof b), "149.9 MB/s");
	/* a small buffer is cut, never overrun */
	char s[4];
	assert_string_equal(known_fmt_dbl(&d, "%.1f MB/s", "?", s, sizeof s), "149");
	KNOWN_CLEAR(d);
	assert_false(d.known);
	assert_string_equal(known_fmt_dbl(&d, "%.1f", "?", b, sizeof b), "?");
}

/* JSON text of one value (or "null"); o is released. */
static const char *
js(struct json_object *o, char *b, size_t n)
{
	snprintf(b, n, "%s", o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN) : "null");
	json_object_put(o);
	return b;
}

static void
json_null(void **st)
{
	(void)st;
	char b[64];
	struct known_u64 u = { 0 };
	struct known_i64 i = { 0 };
	struct known_dbl d = { 0 };
	struct known_bool t = { 0 };

	assert_string_equal(js(doc_known_u64(&u), b, sizeof b), "null");
	assert_string_equal(js(doc_known_i64(&i), b, sizeof b), "null");
	assert_string_equal(js(doc_known_dbl(&d), b, sizeof b), "null");
	assert_string_equal(js(doc_known_bool(&t), b, sizeof b), "null");
	assert_string_equal(js(doc_known_dbl_prec(&d, 2), b, sizeof b), "null");

	u = known_u64_of(0);	/* 0 known stays 0 */
	i = known_i64_of(-3);
	d = known_dbl_of(0);
	t = known_bool_of(false);
	assert_string_equal(js(doc_known_u64(&u), b, sizeof b), "0");
	assert_string_equal(js(doc_known_i64(&i), b, sizeof b), "-3");
	assert_string_equal(js(doc_known_dbl_prec(&d, 1), b, sizeof b), "0");
	assert_string_equal(js(doc_known_bool(&t), b, sizeof b), "false");

	d = known_dbl_of(150.20);
	assert_string_equal(js(doc_known_dbl_prec(&d, 2), b, sizeof b), "150.2");
	d = known_dbl_of(4000);
	assert_string_equal(js(doc_known_dbl_prec(&d, 0), b, sizeof b), "4000");
	d = known_dbl_of(-0.001);
	assert_string_equal(js(doc_known_dbl_prec(&d, 1), b, sizeof b), "0");
	/* a known value that is no number is written as unknown, never as NaN */
	d = known_dbl_of(NAN);
	assert_string_equal(js(doc_known_dbl_prec(&d, 1), b, sizeof b), "null");
}

static void
cells(void **st)
{
	(void)st;
	static const struct result_col cols[] = {
		{ "n", "n", COL_INT, "", 0 }, { "r", "r", COL_DBL, "MB/s", 1 }, { "s", "s", COL_STR, "", 0 },
	};
	struct run_result r;
	memset(&r, 0, sizeof r);
	struct result_table *t = result_table_add(&r, "x", "x", cols, 3);
	assert_non_null(t);
	assert_int_equal(table_add_row(t), 0);
	char b[32];
	for (size_t c = 0; c < 3; c++) {	/* a new row is unknown throughout */
		assert_false(cell_known(table_cell(t, 0, c)));
		table_cell_text(t, 0, c, b, sizeof b);
		assert_string_equal(b, "-");
	}
	table_set_int(t, 0, 0, 0);
	table_set_known_dbl(t, 0, 1, (struct known_dbl){ 0 });
	assert_true(cell_known(table_cell(t, 0, 0)));	/* 0 is a value */
	assert_false(cell_known(table_cell(t, 0, 1)));
	table_set_dbl(t, 0, 1, INFINITY);		/* no number: unknown */
	assert_false(cell_known(table_cell(t, 0, 1)));
	table_set_known_dbl(t, 0, 1, known_dbl_of(0));
	table_cell_text(t, 0, 1, b, sizeof b);
	assert_string_equal(b, "0.0");
	assert_int_equal(table_set_str(t, 0, 2, "x"), 0);
	assert_true(cell_known(table_cell(t, 0, 2)));
	run_result_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fmt_text),
		cmocka_unit_test(json_null),
		cmocka_unit_test(cells),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
