/* test_pin.c - pinning and skip-ahead (bench/pin.h) on a made-up drive: a
 * read fails when it touches a bad sector, each failed read costs 0.5 s.
 * A sequential scan with skip-ahead, then the pin step's probes, the way
 * the worker runs them (io_done.next).  Extents come out exact with about
 * 2 log2(n) failed reads, two extents in one block stay two, a 1 GiB zone is
 * crossed in a few dozen reads, a budget that runs out leaves bounds that
 * still hold the extent, a read error that does not repeat is "recovered". */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "bench/pin.h"

#define MIB (1ull << 20)
#define LBS 512u
#define FAIL_NS 500000000ull

struct drive {
	uint64_t size;
	uint64_t bad[8][2];	/* sectors, inclusive */
	size_t n_bad;
	uint64_t reads, failed, t_ns;
	bool transient;		/* the bad sectors read after the scan */
};

static bool
touches(const struct drive *d, uint64_t off, uint64_t len)
{
	for (size_t i = 0; i < d->n_bad; i++)
		if (off / LBS <= d->bad[i][1] && (off + len - 1) / LBS >= d->bad[i][0])
			return true;
	return false;
}

static int
rd(struct drive *d, uint64_t off, uint64_t len, bool scan)
{
	d->reads++;
	bool bad = touches(d, off, len) && (scan || !d->transient);
	d->t_ns += bad ? FAIL_NS : 1000;
	d->failed += bad;
	return bad ? -5 : 0;
}

/* The scan: bs blocks in order, skip-ahead as the worker does it; failed
 * blocks and gaps into x (merged).  The count of extents. */
static size_t
scan(struct drive *d, struct pin_skip *k, struct surface_extent *x, size_t max)
{
	size_t n = 0;
	pin_skip_init(k, d->size);
	for (uint64_t off = 0; off + MIB <= d->size;) {
		struct io_next nx = { 0 };
		struct io_done io = { .offset = off, .len = MIB, .res = rd(d, off, MIB, true), .next = &nx };
		uint64_t a, b;
		if (io.res && n < max)
			x[n++] = (struct surface_extent){ off, off + MIB, false, false };
		if (pin_skip_io(k, &io, &a, &b) && n < max)
			x[n++] = (struct surface_extent){ a, b, false, false };
		off = nx.set ? nx.off : off + MIB;
	}
	n = surface_merge(x, n);
	for (size_t i = 0; i < n; i++)
		x[i].end = x[i].end > d->size ? d->size : x[i].end;
	return n;
}

/* The pin step: probes until it says the end.  The step's own time in t_ns. */
static void
pin_run(struct drive *d, struct pin *P)
{
	struct io_next nx;
	uint64_t t0 = d->t_ns;
	if (!pin_first(P, &nx))
		return;
	for (int guard = 0; guard < 100000; guard++) {
		assert_true(nx.set);
		if (nx.off == IO_NEXT_END)
			return;
		uint32_t len = nx.len ? nx.len : P->bs;
		assert_true(len <= P->bs && len % LBS == 0 && nx.off % LBS == 0);
		assert_true(nx.off + len <= d->size);
		int res = rd(d, nx.off, len, false);
		struct io_done io = { .offset = nx.off, .len = len, .res = res, .t_ns = d->t_ns - t0, .next = &nx };
		nx.set = false;
		pin_on_io(P, &io);
	}
	fail_msg("pinning did not end");
}

/* Scan and pin drive d; out gets the results, the count returned. */
static size_t
pin_drive(struct drive *d, double budget_s, struct pin *P, struct pin_skip *k, struct pin_out *out,
	  uint64_t *pin_failed)
{
	struct surface_extent x[256];
	size_t n = scan(d, k, x, 256);
	assert_int_equal(pin_init(P, x, n, MIB, LBS, budget_s, k), 0);
	P->r_end = d->size;
	uint64_t f0 = d->failed;
	pin_run(d, P);
	*pin_failed = d->failed - f0;
	return pin_results(P, out, 64);
}

static void
check_exact(const struct pin_out *o, uint64_t a, uint64_t b)
{
	assert_true(o->exact);
	assert_int_equal(o->start / LBS, a);
	assert_int_equal((o->end - 1) / LBS, b);
}

static void
test_one_mib(void **state)
{
	(void)state;
	/* aligned to a block, then across two blocks */
	uint64_t at[2] = { 204800, 300000 };
	for (int c = 0; c < 2; c++) {
		struct drive d = { .size = 256 * MIB, .bad = { { at[c], at[c] + 2047 } }, .n_bad = 1 };
		struct pin P;
		struct pin_skip k = { 0 };
		struct pin_out o[64];
		uint64_t pf;
		size_t n = pin_drive(&d, 300, &P, &k, o, &pf);
		assert_int_equal(n, 1);
		check_exact(&o[0], at[c], at[c] + 2047);
		assert_true(d.failed <= 2 * 11 + 16);	/* the scan's failed blocks included */
		assert_true(o[0].smp == PIN_SAMPLES && o[0].smp_bad == PIN_SAMPLES);
		pin_free(&P);
		pin_skip_free(&k);
	}
}

static void
test_two_in_one_block(void **state)
{
	(void)state;
	/* surface-fault.sh's A and B: one 1 MiB block, two extents */
	struct drive d = { .size = 64 * MIB, .bad = { { 41000, 41009 }, { 42000, 42007 }, { 70000, 70000 } },
			   .n_bad = 3 };
	struct pin P;
	struct pin_skip k = { 0 };
	struct pin_out o[64];
	uint64_t pf;
	size_t n = pin_drive(&d, 300, &P, &k, o, &pf);
	assert_int_equal(n, 3);
	check_exact(&o[0], 41000, 41009);
	check_exact(&o[1], 42000, 42007);
	check_exact(&o[2], 70000, 70000);
	pin_free(&P);
	pin_skip_free(&k);
}

static void
test_zone(void **state)
{
	(void)state;
	/* a 1 GiB zone on a 3 GiB drive, a small extent after it */
	struct drive d = { .size = 3072 * MIB, .bad = { { 2100000, 4197151 }, { 5000000, 5000015 } }, .n_bad = 2 };
	struct pin P;
	struct pin_skip k = { 0 };
	struct pin_out o[64];
	uint64_t pf;
	size_t n = pin_drive(&d, 300, &P, &k, o, &pf);
	assert_int_equal(n, 2);
	check_exact(&o[0], 2100000, 4197151);
	check_exact(&o[1], 5000000, 5000015);
	assert_true(k.n_gap > 10 && k.n_gap < 60);
	assert_true(d.failed < 200);	/* of 1,025 blocks that touch it */
	assert_true(d.t_ns < 120ull * 1000000000ull);
	pin_free(&P);
	pin_skip_free(&k);
}

static void
test_budget(void **state)
{
	(void)state;
	struct drive d = { .size = 256 * MIB, .bad = { { 300000, 302047 } }, .n_bad = 1 };
	struct pin P;
	struct pin_skip k = { 0 };
	struct pin_out o[64];
	uint64_t pf;
	size_t n = pin_drive(&d, 2.0, &P, &k, o, &pf);	/* 4 failed reads' worth */
	assert_true(P.out_of_budget);
	assert_int_equal(n, 1);
	assert_false(o[0].exact);
	assert_true(o[0].res > LBS && o[0].res <= MIB);
	/* the bounds hold the extent */
	assert_true(o[0].start / LBS <= 300000 && (o[0].end - 1) / LBS >= 302047);
	assert_true(pf <= 5);
	char line[256];
	pin_describe(&P, &o[0], LBS, line, sizeof(line));
	assert_non_null(strstr(line, "budget ran out"));
	pin_free(&P);
	pin_skip_free(&k);
}

static void
test_transient(void **state)
{
	(void)state;
	struct drive d = { .size = 64 * MIB, .bad = { { 10000, 10003 } }, .n_bad = 1, .transient = true };
	struct pin P;
	struct pin_skip k = { 0 };
	struct pin_out o[64];
	uint64_t pf;
	size_t n = pin_drive(&d, 300, &P, &k, o, &pf);
	assert_int_equal(n, 1);
	assert_true(o[0].recovered);
	assert_int_equal(pf, 0);
	pin_free(&P);
	pin_skip_free(&k);
}

static void
test_no_skip_without_steering(void **state)
{
	(void)state;
	struct pin_skip k = { 0 };
	pin_skip_init(&k, 3072 * MIB);
	uint64_t a, b;
	struct io_done io = { .offset = 0, .len = MIB, .res = -5, .next = NULL };
	for (int i = 0; i < 20; i++)
		assert_false(pin_skip_io(&k, &io, &a, &b));
	pin_skip_init(&k, 0);	/* a quick scan: no skip-ahead */
	struct io_next nx = { 0 };
	io.next = &nx;
	for (int i = 0; i < 20; i++)
		assert_false(pin_skip_io(&k, &io, &a, &b));
	pin_skip_free(&k);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_mib),
		cmocka_unit_test(test_two_in_one_block),
		cmocka_unit_test(test_zone),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_transient),
		cmocka_unit_test(test_no_skip_without_steering),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
