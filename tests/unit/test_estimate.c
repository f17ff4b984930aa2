/* test_estimate.c - the array estimate reproduces the seed's arithmetic
 * (DESIGN.md "Reference figures"): 150 MB/s disks give a 4-disk RAID5 450,
 * 6-disk RAID6 600, 8-disk RAID6 900, 8-disk RAID0 1200 MB/s, capped by an
 * 88SE9485's measured 640; a 4x2 TB RAID5 rebuilds in 205-242 min on CMR and
 * a RAIDZ1 with an SMR member at its rewrite rate near 528 min.  The input
 * comes from a fabricated saturate result, as a run would give it. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include "run/estimate.h"

static void
drives(struct est_input *in, unsigned n, double mbps, uint64_t cap)
{
	memset(in, 0, sizeof(*in));
	in->n = n;
	for (unsigned i = 0; i < n; i++) {
		snprintf(in->d[i].name, sizeof(in->d[i].name), "sd%c", 'a' + i);
		in->d[i].read_mbps = known_dbl_of(mbps);
		in->d[i].write_mbps = (struct known_dbl){ 0 };
		in->d[i].rewrite_mbps = (struct known_dbl){ 0 };
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
		in.ctrl_cap_mbps = rows[i].cap > 0 ? known_dbl_of(rows[i].cap) : (struct known_dbl){ 0 };
		assert_int_equal(estimate_layout_parse(rows[i].layout, &l), 0);
		assert_int_equal(estimate_layout(&in, l, rows[i].n, &e), 0);
		assert_true(e.read_mbps.known);
		assert_float_equal(e.read_mbps.v, rows[i].read, 0.01);
		assert_true(e.write_mbps.known);
		assert_float_equal(e.write_mbps.v, rows[i].write, 0.01);
		assert_true(e.read_capped == (rows[i].cap > 0 && rows[i].read < 150.0 * rows[i].n - 1));
		assert_false(e.rebuild_min.known);	/* capacity unknown: unknown, never 0 */
	}
}

static void
slowest_paces(void **st)
{
	(void)st;
	struct est_input in;
	struct est_row e;
	drives(&in, 4, 150, 0);
	in.d[2].read_mbps = known_dbl_of(100);
	assert_int_equal(estimate_layout(&in, EST_RAID5, 4, &e), 0);
	assert_true(e.read_mbps.known);
	assert_float_equal(e.read_mbps.v, 300, 0.01);
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
	assert_true(e.rebuild_min.known && e.rebuild_min.v >= 205 && e.rebuild_min.v <= 242);
	assert_false(e.rebuild_smr);
	/* the same behind an 88SE9485 saturating at 640: still 4 x 150 < 640 */
	in.ctrl_cap_mbps = known_dbl_of(640);
	assert_int_equal(estimate_layout(&in, EST_RAID5, 4, &e), 0);
	assert_true(e.rebuild_min.known && e.rebuild_min.v >= 205 && e.rebuild_min.v <= 242);
	/* RAIDZ1 with an ST2000DM008 rewriting at 63 MB/s: seed 528 min */
	in.ctrl_cap_mbps = (struct known_dbl){ 0 };
	in.d[1].rewrite_mbps = known_dbl_of(63);
	assert_int_equal(estimate_layout(&in, EST_RAID5, 4, &e), 0);
	assert_true(e.rebuild_min.known && e.rebuild_min.v >= 500 && e.rebuild_min.v <= 560);
	assert_true(e.rebuild_smr);
	/* RAID0 has no rebuild */
	assert_int_equal(estimate_layout(&in, EST_RAID0, 4, &e), 0);
	assert_false(e.rebuild_min.known);
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
	in.d[0].read_mbps = (struct known_dbl){ 0 };	/* nothing measured: no estimate */
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
		r.steps[i].aggregate_mbps = known_dbl_of(agg[i]);
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
	assert_true(in.ctrl_cap_mbps.known);
	assert_float_equal(in.ctrl_cap_mbps.v, 640, 0.01);
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

/* A step's result in r (one target per step). */
static void
add_step(struct run_result *r, const char *label, const char *target, const char *pattern, uint32_t bs,
	 uint64_t bytes, double mbps)
{
	r->steps = realloc(r->steps, (r->n_steps + 1) * sizeof(*r->steps));
	assert_non_null(r->steps);
	struct step_result *s = &r->steps[r->n_steps++];
	memset(s, 0, sizeof(*s));
	snprintf(s->label, sizeof(s->label), "%s", label);
	snprintf(s->pattern, sizeof(s->pattern), "%s", pattern);
	s->bs = bs;
	s->qd = 1;
	s->rw_mix = 100;
	s->res = calloc(1, sizeof(*s->res));
	assert_non_null(s->res);
	s->n_res = 1;
	snprintf(s->res[0].target, sizeof(s->res[0].target), "%s", target);
	s->res[0].mbps = s->res[0].read_mbps = mbps;
	s->res[0].bytes = bytes;
}

/* The surface table as surface-report writes it: the target as the user
 * named it, the mode, the bytes scanned, the average over the region. */
static void
add_surface_table(struct run_result *r, const char *target, const char *mode, uint64_t scanned, double avg)
{
	static const struct result_col cols[] = {
		{ "target", "target", COL_STR, "", 0 },
		{ "mode", "mode", COL_STR, "", 0 },
		{ "scanned", "scanned", COL_BYTES, "", 0 },
		{ "avg_mbps", "avg", COL_DBL, "MB/s", 1 },
	};
	struct result_table *t = result_table_add(r, "surface", "Surface scan", cols, 4);
	assert_non_null(t);
	assert_int_equal(table_add_row(t), 0);
	table_set_str(t, 0, 0, target);
	table_set_str(t, 0, 1, mode);
	table_set_int(t, 0, 2, (int64_t)scanned);
	table_set_dbl(t, 0, 3, avg);
}

static void
add_ident(struct run_result *r, const char *target, const char *model, uint64_t cap)
{
	r->ident = realloc(r->ident, (r->n_ident + 1) * sizeof(*r->ident));
	assert_non_null(r->ident);
	struct target_ident *id = &r->ident[r->n_ident++];
	memset(id, 0, sizeof(*id));
	snprintf(id->model, sizeof(id->model), "%s", model);
	id->capacity.known = cap > 0;
	id->capacity.v = cap;
	strlist_add(&r->ident_targets, target);
}

static bool
has_note(const struct run_result *r, const char *part)
{
	for (size_t i = 0; i < r->notes.n; i++)
		if (strstr(r->notes.v[i], part))
			return true;
	return false;
}

/* A single-drive surface of a loop device as a run saves it: the steps
 * name it "loop0", the table "/dev/loop0"; scan 53 MB/s, burst 16 MB/s.
 * One drive with one rate (the scan's), no capacity from the bytes
 * scanned, and no array estimate without a count (main gave "2 drives"
 * at the burst's rate). */
static void
loop_result(struct run_result *r, bool table)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->test, sizeof(r->test), "surface");
	add_step(r, "scan", "loop0", "seq", 1 << 20, 256 << 20, 53);
	add_step(r, "access time", "loop0", "rand", 4096, 4 << 20, 0.5);
	add_step(r, "burst", "loop0", "seq", 65536, 1 << 20, 16);
	if (table)
		add_surface_table(r, "/dev/loop0", "full", 256 << 20, 53.2);
	add_ident(r, "loop0", "", 0);
}

static void
one_loop_drive(void **st)
{
	(void)st;
	struct run_result r;
	struct est_input in;
	struct est_row e;
	char why[256] = "";
	loop_result(&r, true);
	assert_int_equal(estimate_input(&r, NULL, &in), 0);
	assert_int_equal(in.n, 1);
	assert_true(in.d[0].read_mbps.known);
	assert_float_equal(in.d[0].read_mbps.v, 53.2, 0.01);
	assert_false(in.d[0].capacity.known);	/* 256 MB scanned is not a capacity */
	assert_int_equal(estimate_check(&in, 0, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "one drive measured (loop0)"));
	assert_int_equal(estimate_add_table(&r, &in, -1, 0), -EINVAL);
	assert_int_equal(r.n_tables, 1);	/* no estimate table */
	estimate_finish(&r);
	assert_int_equal(r.n_tables, 1);
	assert_true(has_note(&r, "estimate: left out: one drive measured"));
	/* --drives 4 asks for it: arrays of 4 at the scan's rate, rebuild unknown */
	assert_int_equal(estimate_check(&in, 4, why, sizeof(why)), 0);
	assert_int_equal(estimate_layout(&in, EST_RAID5, 4, &e), 0);
	assert_true(e.read_mbps.known);
	assert_float_equal(e.read_mbps.v, 3 * 53.2, 0.01);
	assert_false(e.rebuild_min.known);
	run_result_free(&r);
	/* without the table the scan step is the pass, not the burst */
	loop_result(&r, false);
	assert_int_equal(estimate_input(&r, NULL, &in), 0);
	assert_int_equal(in.n, 1);
	assert_true(in.d[0].read_mbps.known);
	assert_float_equal(in.d[0].read_mbps.v, 53, 0.01);
	run_result_free(&r);
}

/* A quick surface of a 4 TB WD40EZRX samples 1 GB: the capacity is the
 * identity's 4 TB (a RAID5 rebuild of hours, main gave 0.3 min), and the
 * rate is said to be a quick scan's. */
static void
quick_capacity(void **st)
{
	(void)st;
	struct run_result r;
	memset(&r, 0, sizeof(r));
	snprintf(r.test, sizeof(r.test), "surface");
	add_step(&r, "quick scan", "sim:WD40EZRX", "stride", 1 << 20, 1000ULL << 20, 65);
	add_surface_table(&r, "sim:WD40EZRX", "quick", 1000ULL << 20, 65);
	add_ident(&r, "sim:WD40EZRX", "", 4000787030016ULL);
	struct est_input in;
	struct est_row e;
	assert_int_equal(estimate_input(&r, NULL, &in), 0);
	assert_int_equal(in.n, 1);
	assert_true(in.d[0].capacity.known);
	assert_true(in.d[0].capacity.v == 4000787030016ULL);
	assert_true(in.d[0].sampled);
	assert_int_equal(estimate_layout(&in, EST_RAID5, 4, &e), 0);
	assert_true(e.rebuild_min.known && e.rebuild_min.v > 1000 && e.rebuild_min.v < 1050);	/* 4 TB at 65 MB/s */
	assert_int_equal(estimate_add_table(&r, &in, EST_RAID5, 4), 0);
	assert_true(has_note(&r, "the rate of a quick scan"));
	assert_true(has_note(&r, "1 drive measured: the arrays are of 4 drives like it"));
	run_result_free(&r);
}

/* A ST2000DM001 surface at 157 MB/s over 2 TB (its identity): the seed's
 * CMR rebuild, 205-242 min, with --drives 4. */
static void
from_surface(void **st)
{
	(void)st;
	struct run_result r;
	memset(&r, 0, sizeof(r));
	snprintf(r.test, sizeof(r.test), "surface");
	add_step(&r, "scan", "sim:ST2000DM001", "seq", 1 << 20, 2000398934016ULL, 87);	/* with re-reads */
	add_surface_table(&r, "sim:ST2000DM001", "full", 2000398934016ULL, 157);
	add_ident(&r, "sim:ST2000DM001", "ST2000DM001-1CH164", 2000398934016ULL);
	struct est_input in;
	struct est_row e;
	assert_int_equal(estimate_input(&r, NULL, &in), 0);
	assert_int_equal(in.n, 1);
	assert_true(in.d[0].read_mbps.known);
	assert_float_equal(in.d[0].read_mbps.v, 157, 0.01);
	assert_false(in.d[0].sampled);
	assert_int_equal(estimate_layout(&in, EST_RAID5, 4, &e), 0);
	assert_true(e.rebuild_min.known && e.rebuild_min.v >= 205 && e.rebuild_min.v <= 242);
	assert_int_equal(estimate_add_table(&r, &in, -1, 4), 0);
	char buf[32];
	table_cell_text(&r.tables[1], 0, 1, buf, sizeof(buf));
	assert_string_equal(buf, "4");
	run_result_free(&r);
}

/* A bench of 12 drives from 250 GB to 8 TB (main: "raid0 12,839 MB/s,
 * rebuild 60 min"): no estimate, the reason in a note.  Like drives of
 * different models too. */
static void
mixed_bench(void **st)
{
	(void)st;
	static const uint64_t gb[12] = { 250, 500, 1000, 2000, 2000, 3000, 4000, 4000, 6000, 8000, 8000, 8000 };
	struct run_result r;
	memset(&r, 0, sizeof(r));
	snprintf(r.test, sizeof(r.test), "triage");
	r.solo = calloc(12, sizeof(*r.solo));
	assert_non_null(r.solo);
	for (int i = 0; i < 12; i++) {
		char n[16];
		snprintf(n, sizeof(n), "sd%c", 'a' + i);
		snprintf(r.solo[i].target, sizeof(r.solo[i].target), "%s", n);
		r.solo[i].mbps = r.solo[i].read_mbps = 100 + 10 * i;
		add_ident(&r, n, "", gb[i] * 1000000000ULL);
	}
	r.n_solo = 12;
	struct est_input in;
	char why[256] = "";
	assert_int_equal(estimate_input(&r, NULL, &in), 0);
	assert_int_equal(in.n, 12);
	assert_int_equal(estimate_check(&in, 0, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "sizes 250 GB to 8.00 TB"));
	assert_int_equal(estimate_check(&in, 12, why, sizeof(why)), -EINVAL);
	estimate_finish(&r);
	assert_int_equal(r.n_tables, 0);
	assert_true(has_note(&r, "estimate: left out: the 12 drives are not alike"));
	/* one size, two models */
	for (int i = 0; i < 12; i++) {
		r.ident[i].capacity.v = 2000398934016ULL;
		snprintf(r.ident[i].model, sizeof(r.ident[i].model), "%s", i % 2 ? "ST2000DM001" : "WDC WD20EFAX");
	}
	assert_int_equal(estimate_input(&r, NULL, &in), 0);
	assert_int_equal(estimate_check(&in, 0, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "2 models"));
	/* one size, one model: the estimate of all twelve */
	for (int i = 0; i < 12; i++)
		snprintf(r.ident[i].model, sizeof(r.ident[i].model), "ST2000DM001");
	assert_int_equal(estimate_input(&r, NULL, &in), 0);
	assert_int_equal(estimate_check(&in, 0, why, sizeof(why)), 0);
	estimate_finish(&r);
	assert_int_equal(r.n_tables, 1);
	char buf[32];
	table_cell_text(&r.tables[0], 0, 1, buf, sizeof(buf));
	assert_string_equal(buf, "12");
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
		cmocka_unit_test(one_loop_drive),
		cmocka_unit_test(quick_capacity),
		cmocka_unit_test(mixed_bench),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
