/* test_estimate.c - the array estimate reproduces the seed's arithmetic
 * (DESIGN.md "Reference figures"): 150 MB/s disks give a 4-disk RAID5 450,
 * 6-disk RAID6 600, 8-disk RAID6 900, 8-disk RAID0 1200 MB/s, capped by an
 * 88SE9485's measured 640; a 4x2 TB RAID5 rebuilds in 205-242 min on CMR and
 * a RAIDZ1 with an SMR member at its rewrite rate near 528 min.  The input
 * comes from a fabricated saturate result, as a run would give it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/estimate.h"

static void
drives(struct est_input *in, unsigned n, double mbps, uint64_t cap)
{
	memset(in, 0, sizeof(*in));
	in->n = n;
	for (unsigned i = 0; i < n; i++) {
		snprintf(in->d[i].name, sizeof(in->d[i].name), "sd%c", 'a' + i);
		in->d[i].read_mbps = mbps;
		in->d[i].write_mbps = NAN;
		in->d[i].rewrite_mbps = NAN;
		in->d[i].capacity.known = cap > 0;
		in->d[i].capacity.v = cap;
	}
}

static void
seed_rates(void **st)
{
	(void)st;
	static const struct {
		const char *layout;
		unsigned n;
		double cap, read, write;
	} rows[] = {
		{ "raid5", 4, 0, 450, 450 },
		{ "raidz1", 4, 0, 450, 450 },
		{ "raid6", 6, 0, 600, 600 },
		{ "raid6", 8, 0, 900, 900 },
		{ "raidz2", 8, 0, 900, 900 },
		{ "raid0", 8, 0, 1200, 1200 },
		{ "raid0", 8, 640, 640, 640 },		/* 88SE9485 saturated at 640 */
		{ "raid6", 8, 640, 640, 480 },		/* writes carry parity across the bus */
		{ "raid10", 4, 0, 300, 300 },
		{ "raid1", 2, 0, 150, 150 },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct est_input in;
		struct est_row e;
		enum est_layout l;
		drives(&in, 1, 150, 0);
		in.ctrl_cap_mbps = rows[i].cap;
		assert_int_equal(estimate_layout_parse(rows[i].layout, &l), 0);
		assert_int_equal(estimate_layout(&in, l, rows[i].n, &e), 0);
		assert_float_equal(e.read_mbps, rows[i].read, 0.01);
		assert_float_equal(e.write_mbps, rows[i].write, 0.01);
		assert_true(e.read_capped == (rows[i].cap > 0 && rows[i].read < 150.0 * rows[i].n - 1));
		assert_true(isnan(e.rebuild_min));	/* capacity unknown: unknown, never 0 */
	}
}

static void
slowest_paces(void **st)
{
	(void)st;
	struct est_input in;
	struct est_row e;
	drives(&in, 4, 150, 0);
	in.d[2].read_mbps = 100;
	assert_int_equal(estimate_layout(&in, EST_RAID5, 4, &e), 0);
	assert_float_equal(e.read_mbps, 300, 0.01);
}

static void
rebuild_times(void **st)
{
	(void)st;
	struct est_input in;
	struct est_row e;
	/* 4x2 TB CMR at 150 MB/s: seed 205-242 min (LSI 205, Intel H77 216) */
	drives(&in, 4, 150, 2000000000000ULL);
	assert_int_equal(estimate_layout(&in, EST_RAID5, 4, &e), 0);
	assert_true(e.rebuild_min >= 205 && e.rebuild_min <= 242);
	assert_false(e.rebuild_smr);
	/* the same behind an 88SE9485 saturating at 640: still 4 x 150 < 640 */
	in.ctrl_cap_mbps = 640;
	assert_int_equal(estimate_layout(&in, EST_RAID5, 4, &e), 0);
	assert_true(e.rebuild_min >= 205 && e.rebuild_min <= 242);
	/* RAIDZ1 with an ST2000DM008 rewriting at 63 MB/s: seed 528 min */
	in.ctrl_cap_mbps = 0;
	in.d[1].rewrite_mbps = 63;
	assert_int_equal(estimate_layout(&in, EST_RAID5, 4, &e), 0);
	assert_true(e.rebuild_min >= 500 && e.rebuild_min <= 560);
	assert_true(e.rebuild_smr);
	/* RAID0 has no rebuild */
	assert_int_equal(estimate_layout(&in, EST_RAID0, 4, &e), 0);
	assert_true(isnan(e.rebuild_min));
}

static void
bad_layouts(void **st)
{
	(void)st;
	struct est_input in;
	struct est_row e;
	enum est_layout l;
	drives(&in, 1, 150, 0);
	assert_int_not_equal(estimate_layout(&in, EST_RAID6, 3, &e), 0);
	assert_int_not_equal(estimate_layout(&in, EST_RAID10, 3, &e), 0);
	assert_int_not_equal(estimate_layout_parse("raid7", &l), 0);
	in.d[0].read_mbps = NAN;	/* nothing measured: no estimate */
	assert_int_not_equal(estimate_layout(&in, EST_RAID0, 2, &e), 0);
}

/* A saturate result as a run saves it: solo rates, a knee, the aggregate. */
static void
from_result(void **st)
{
	(void)st;
	static const double agg[] = { 150, 273, 430, 544, 573, 593, 623, 640 };
	struct run_result r;
	memset(&r, 0, sizeof(r));
	snprintf(r.test, sizeof(r.test), "saturate");
	r.solo = calloc(8, sizeof(*r.solo));
	r.steps = calloc(8, sizeof(*r.steps));
	r.ident = calloc(8, sizeof(*r.ident));
	assert_non_null(r.solo);
	assert_non_null(r.steps);
	assert_non_null(r.ident);
	for (int i = 0; i < 8; i++) {
		snprintf(r.solo[i].target, sizeof(r.solo[i].target), "sd%c", 'a' + i);
		r.solo[i].mbps = r.solo[i].read_mbps = 150;
		r.steps[i].aggregate_mbps = agg[i];
		r.ident[i].capacity.known = true;
		r.ident[i].capacity.v = 4000000000000ULL;
		char dev[16];
		snprintf(dev, sizeof(dev), "/dev/sd%c", 'a' + i);
		strlist_add(&r.ident_targets, dev);
	}
	r.n_solo = r.n_steps = r.n_ident = 8;
	assert_non_null(result_verdict(&r, VL_WARN, "saturation", "saturated"));
	r.verdicts[0].knee_drives = 4;
	struct est_input in;
	assert_int_equal(estimate_input(&r, NULL, &in), 0);
	assert_int_equal(in.n, 8);
	assert_float_equal(in.ctrl_cap_mbps, 640, 0.01);
	assert_true(in.d[3].capacity.known);
	assert_int_equal(estimate_add_table(&r, &in, -1, 0), 0);
	assert_int_equal(r.n_tables, 1);
	assert_string_equal(r.tables[0].name, "estimate");
	assert_int_equal(r.tables[0].n_rows, 4);
	char buf[32];
	table_cell_text(&r.tables[0], 0, 2, buf, sizeof(buf));	/* raid0 read */
	assert_string_equal(buf, "640");
	assert_true(r.notes.n >= 3);
	run_result_free(&r);
}

/* A surface result: the table's average is the rate, the bytes scanned the
 * capacity when the inventory had none; one drive -> arrays of 4 like it.
 * ST2000DM001 at 157 MB/s over 2 TB: the seed's CMR rebuild, 205-242 min. */
static void
from_surface(void **st)
{
	(void)st;
	static const struct result_col cols[] = {
		{ "target", "target", COL_STR, "", 0 },
		{ "scanned", "scanned", COL_BYTES, "", 0 },
		{ "avg_mbps", "avg", COL_DBL, "MB/s", 1 },
	};
	struct run_result r;
	memset(&r, 0, sizeof(r));
	snprintf(r.test, sizeof(r.test), "surface");
	r.steps = calloc(1, sizeof(*r.steps));
	assert_non_null(r.steps);
	r.steps[0].res = calloc(1, sizeof(*r.steps[0].res));
	assert_non_null(r.steps[0].res);
	r.steps[0].n_res = 1;
	snprintf(r.steps[0].res[0].target, sizeof(r.steps[0].res[0].target), "sim:ST2000DM001");
	r.steps[0].res[0].mbps = r.steps[0].res[0].read_mbps = 87;	/* with its re-reads */
	r.n_steps = 1;
	struct result_table *t = result_table_add(&r, "surface", "Surface scan", cols, 3);
	assert_non_null(t);
	assert_int_equal(table_add_row(t), 0);
	table_set_str(t, 0, 0, "sim:ST2000DM001");
	table_set_int(t, 0, 1, 2000398934016LL);
	table_set_dbl(t, 0, 2, 157);
	struct est_input in;
	struct est_row e;
	assert_int_equal(estimate_input(&r, NULL, &in), 0);
	assert_int_equal(in.n, 1);
	assert_float_equal(in.d[0].read_mbps, 157, 0.01);
	assert_true(in.d[0].capacity.known);
	assert_int_equal(estimate_layout(&in, EST_RAID5, 4, &e), 0);
	assert_true(e.rebuild_min >= 205 && e.rebuild_min <= 242);
	assert_int_equal(estimate_add_table(&r, &in, -1, 0), 0);
	char buf[32];
	table_cell_text(&r.tables[1], 0, 1, buf, sizeof(buf));
	assert_string_equal(buf, "4");
	run_result_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_rates),
		cmocka_unit_test(slowest_paces),
		cmocka_unit_test(rebuild_times),
		cmocka_unit_test(bad_layouts),
		cmocka_unit_test(from_result),
		cmocka_unit_test(from_surface),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
