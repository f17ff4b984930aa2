/* test_sim_models.c - every shipped drive model reproduces the reference
 * figure it was fitted to (DESIGN.md "Reference figures"), measured the way
 * the figure was: the matching workload run on the model in virtual time
 * through engine-sim.  Tolerance: +-5 % unless a row says otherwise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include "sim/model.h"
#include "test_sim_harness.h"

#define TOL 5.0
#define MiB (1ull << 20)

static void
test_builtin_parse(void **state)
{
	(void)state;
	const char *e = sim_builtin_error();
	if (e)
		fprintf(stderr, "%s\n", e);
	assert_null(e);
	static const char *const want[] = {
		"WD40EZRX", "WD4003FZEX", "WD80PUZX", "ST8000VN0002", "ST2000DM001", "WD20EFAX",
		"WD20EZAZ", "ST2000DM008", "WD20EFRX", "HD204UI", "ST2000DL003", "SSD860EVO",
		"FLAWED250",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		if (!sim_find_drive_model(want[i]))
			fprintf(stderr, "missing model %s\n", want[i]);
		assert_non_null(sim_find_drive_model(want[i]));
	}
	static const char *const hbas[] = { "88SE9485", "88SE9230", "LSI9211-8i", "INTEL-AHCI",
					    "88SE9215" };
	for (size_t i = 0; i < sizeof hbas / sizeof hbas[0]; i++)
		assert_non_null(sim_find_hba_model(hbas[i]));
	char err[512];
	assert_int_equal(sim_use_rig(NULL, err, sizeof err), 0);
}

/* ---- rate curves: sequential 1 MiB reads across the surface ---- */

struct curve_row {
	const char *model;
	double outer, inner, avg;	/* MB/s; avg 0 = the figure gives none */
};

static const struct curve_row curves[] = {
	{ "WD40EZRX", 150, 70, 120 },		/* "WD40EZRX 150->70 (avg 120)" */
	{ "WD4003FZEX", 180, 100, 150 },	/* "WD4003FZEX 180->100 (avg 150)" */
	{ "WD80PUZX", 180, 90, 0 },		/* "WD80PUZX 180->90" */
	{ "ST8000VN0002", 240, 110, 0 },	/* "ST8000VN0002 240->110" */
	{ "FLAWED250", 70, 40, 55 },		/* HD Tune: max 70, avg 55 */
};

/* GNOME Disks style: N samples of 64 MiB at evenly spaced positions, each
 * after a one-I/O pre-read; rate of each sample. */
static double
sample_rate(struct engine *e, const struct target *t, double frac)
{
	uint64_t span = 64 * MiB;
	uint64_t off = (uint64_t)(frac * (double)(t->size - span - MiB)) & ~(MiB - 1);
	struct h_stats st;
	assert_int_equal(h_seq(e, off, MiB, (uint32_t)MiB, false, &st), 0);
	assert_int_equal(h_seq(e, off + MiB, span, (uint32_t)MiB, false, &st), 0);
	return h_mbps(&st);
}

static void
test_rate_curves(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++) {
		const struct curve_row *c = &curves[i];
		char spec[80];
		snprintf(spec, sizeof spec, "sim:%s", c->model);
		struct target t;
		struct engine e;
		assert_int_equal(h_open(&t, spec), 0);
		assert_int_equal(h_init(&e, &t, 4), 0);
		double outer = sample_rate(&e, &t, 0), inner = sample_rate(&e, &t, 1);
		double sum = 0;
		int n = 50;
		for (int k = 0; k < n; k++)
			sum += sample_rate(&e, &t, (k + 0.5) / n);
		double avg = sum / n;
		printf("%-14s outer %6.1f (want %g)  inner %6.1f (want %g)  avg %6.1f (want %g)\n",
		       c->model, outer, c->outer, inner, c->inner, avg, c->avg);
		assert_true(h_near(outer, c->outer, TOL));
		assert_true(h_near(inner, c->inner, TOL));
		if (c->avg)
			assert_true(h_near(avg, c->avg, TOL));
		e.ops->cleanup(&e);
		sim_target_close(&t);
	}
}

/* ---- Advanced Format: phybs-style 4 KiB writes ---- */

struct af_row {
	const char *model;
	double aligned;			/* tps at offset 0 */
	double unal_lo, unal_hi;	/* tps range at offsets 512..2048 */
};

static const struct af_row afs[] = {
	{ "WD20EFRX", 3205, 905, 966 },		/* "WD20EFRX 4 KiB at offset 0: 3205 tps, 512..2048: ~905-966" */
	{ "HD204UI", 7109, 3900, 4200 },	/* "Samsung HD204UI 4 KiB aligned 7109 tps, unaligned ~3900-4200" */
	{ "ST2000DL003", 712, 75, 94 },		/* "Seagate ST2000DL003 4 KiB aligned 712, unaligned 75-94" */
};

struct phybs {
	uint64_t offset, step;
};

static uint64_t
phybs_off(void *ctx, uint64_t i)
{
	struct phybs *p = ctx;
	return p->offset + i * p->step;
}

/* phybs: count = 128 MiB / size writes at offset + i x (4 x size), one at a time */
static double
phybs_tps(const char *model, uint32_t size, uint64_t offset)
{
	char spec[80];
	snprintf(spec, sizeof spec, "sim:%s", model);
	struct target t;
	struct engine e;
	assert_int_equal(h_open(&t, spec), 0);
	assert_int_equal(h_init(&e, &t, 1), 0);
	struct phybs p = { offset, 4ull * size };
	struct h_stats st;
	uint64_t count = 128 * MiB / size;
	assert_int_equal(h_run(&e, count, size, true, phybs_off, &p, &st), 0);
	e.ops->cleanup(&e);
	sim_target_close(&t);
	return (double)count / st.seconds;
}

static void
test_af_alignment(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof afs / sizeof afs[0]; i++) {
		const struct af_row *a = &afs[i];
		double al = phybs_tps(a->model, 4096, 0);
		printf("%-12s 4K offset 0: %7.0f tps (want %g)\n", a->model, al, a->aligned);
		assert_true(h_near(al, a->aligned, TOL));
		static const uint64_t offs[] = { 512, 1024, 2048 };
		for (size_t k = 0; k < 3; k++) {
			double un = phybs_tps(a->model, 4096, offs[k]);
			printf("%-12s 4K offset %4llu: %7.0f tps (want %g-%g)\n", a->model,
			       (unsigned long long)offs[k], un, a->unal_lo, a->unal_hi);
			assert_true(un >= a->unal_lo * (1 - TOL / 100) && un <= a->unal_hi * (1 + TOL / 100));
			assert_true(un < al / 1.5);	/* the point of the figure */
		}
		/* writes in whole physical sectors are fast at every multiple of it */
		double al8 = phybs_tps(a->model, 8192, 0), al8b = phybs_tps(a->model, 8192, 4096);
		double un8 = phybs_tps(a->model, 8192, 512);
		assert_true(h_near(al8b, al8, 1));
		assert_true(un8 < al8 / 1.2);
	}
}

/* ---- SMR: fill, delete every other 10 MiB, rewrite in 1 GiB pieces ---- */

struct smr_row {
	const char *model;
	bool trim;		/* the delete TRIMs the holes */
	double first, last;	/* MB/s of the first and of the steady (last) 1 GiB; 0 = not checked */
	double at_least;	/* every 1 GiB at least this (CMR control) */
};

static const struct smr_row smrs[] = {
	/* "SMR after fill and delete-every-other-10MB, then 1 GB writes (MB/s)" */
	{ "WD20EFAX", false, 68, 24, 0 },	/* "WD20EFAX 24-68" */
	{ "WD20EZAZ", false, 98, 27, 0 },	/* "WD20EZAZ 27-98" */
	{ "ST2000DM008", false, 40, 11, 0 },	/* "ST2000DM008 11-40" */
	{ "WD20EZAZ", true, 98, 60, 0 },	/* "TRIM restored WD20EZAZ ... from 27 to 60" */
	{ "ST2000DM001", false, 0, 0, 109 },	/* "CMR ST2000DM001 109" (through ext4: a floor) */
};

#define HOLE (10 * MiB)

static uint64_t
hole_off(void *ctx, uint64_t i)
{
	uint64_t base = *(uint64_t *)ctx;	/* MiB already written into holes */
	uint64_t k = base + i;
	return (k / 10) * 2 * HOLE + (k % 10) * MiB;
}

static void
test_smr_rewrite(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof smrs / sizeof smrs[0]; i++) {
		const struct smr_row *s = &smrs[i];
		char spec[80];
		snprintf(spec, sizeof spec, "sim:%s", s->model);
		const struct sim_drive_model *m = sim_find_drive_model(s->model);
		assert_non_null(m);
		struct target t;
		struct engine e;
		assert_int_equal(h_open(&t, spec), 0);
		assert_int_equal(h_init(&e, &t, 4), 0);
		struct h_stats st;
		/* fill: the whole disk, sequentially */
		uint32_t fb = (uint32_t)(64 * MiB);
		assert_int_equal(h_seq(&e, 0, t.size / fb * fb, fb, true, &st), 0);
		/* delete every other 10 MiB (a file system does not tell the drive unless it TRIMs) */
		if (s->trim)
			for (uint64_t o = 0; o + HOLE <= t.size; o += 2 * HOLE)
				assert_int_equal(sim_target_trim(&t, o, HOLE), 0);
		/* rewrite into the holes, 1 GiB at a time, past the media cache */
		unsigned pieces = (unsigned)(m->smr ? m->smr_cache / (1024 * MiB) + 4 : 4);
		uint64_t base = 0;
		double first = 0, last = 0, lowest = 1e9;
		for (unsigned p = 0; p < pieces; p++) {
			assert_int_equal(h_run(&e, 1024, (uint32_t)MiB, true, hole_off, &base, &st), 0);
			base += 1024;
			double r = h_mbps(&st);
			if (p == 0)
				first = r;
			last = r;
			if (r < lowest)
				lowest = r;
		}
		printf("%-12s%s first 1 GiB %6.1f MB/s (want %g), steady %6.1f (want %g), lowest %6.1f\n",
		       s->model, s->trim ? " +TRIM" : "      ", first, s->first, last, s->last, lowest);
		if (s->first)
			assert_true(h_near(first, s->first, TOL));
		if (s->last)
			assert_true(h_near(last, s->last, TOL));
		if (s->at_least)
			assert_true(lowest >= s->at_least * (1 - TOL / 100));
		/* idle time lets the drive clean its cache: the next piece is fast again */
		if (m->smr) {
			assert_int_equal(sim_target_idle(&t, 3600), 0);
			assert_int_equal(h_run(&e, 1024, (uint32_t)MiB, true, hole_off, &base, &st), 0);
			assert_true(h_near(h_mbps(&st), s->first, TOL));
		}
		e.ops->cleanup(&e);
		sim_target_close(&t);
	}
}

/* A drive-managed SMR drive rewrites whole bands in order at media speed;
 * scattered rewrites go through the media cache and collapse once it is
 * full (with multi-second stalls). */
static uint64_t
scatter_off(void *ctx, uint64_t i)
{
	uint64_t *s = ctx;
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	(void)i;
	return ((*s >> 24) % 8192) * MiB;	/* within the first 8 GiB */
}

static void
test_smr_sequential_vs_scattered(void **state)
{
	(void)state;
	struct target t;
	struct engine e;
	struct h_stats st;
	assert_int_equal(h_open(&t, "sim:WD20EFAX"), 0);
	assert_int_equal(h_init(&e, &t, 4), 0);
	assert_int_equal(h_seq(&e, 0, 8192 * MiB, (uint32_t)MiB, true, &st), 0);
	double fill = h_mbps(&st);
	assert_int_equal(h_seq(&e, 0, 8192 * MiB, (uint32_t)MiB, true, &st), 0);
	double rewrite = h_mbps(&st);
	uint64_t seed = 1;
	/* twice the 4 GiB cache, scattered */
	assert_int_equal(h_run(&e, 8192, (uint32_t)MiB, true, scatter_off, &seed, &st), 0);
	double scattered = h_mbps(&st);
	struct sim_drive_stats ds;
	sim_target_stats(&t, &ds);
	printf("WD20EFAX fill %.1f, sequential rewrite %.1f, scattered rewrite %.1f MB/s, %llu stalls, longest %.1f s\n",
	       fill, rewrite, scattered, (unsigned long long)ds.stalls, ds.longest_stall_s);
	/* the first band goes through the cache until the stream reaches a band boundary */
	assert_true(rewrite > 0.9 * fill);
	assert_true(fill > 150);
	assert_true(scattered < 68);	/* the cache rate, then the cleaning */
	assert_true(ds.stalls > 0 && ds.longest_stall_s > 1);
	e.ops->cleanup(&e);
	sim_target_close(&t);
}

/* ---- the flawed drive: HD Tune's access time, burst, minimum; errors ---- */

static uint64_t
rand_off(void *ctx, uint64_t i)
{
	uint64_t *s = ctx;
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;	/* fixed seed: reproducible */
	return ((*s >> 20) % (250000000000ull / 4096)) * 4096;
	(void)i;
}

static uint64_t
same_off(void *ctx, uint64_t i)
{
	(void)ctx;
	(void)i;
	return 0;
}

static void
test_flawed(void **state)
{
	(void)state;
	const struct sim_drive_model *m = sim_find_drive_model("FLAWED250");
	assert_non_null(m);
	struct target t;
	struct engine e;
	struct h_stats st;
	assert_int_equal(h_open(&t, "sim:FLAWED250"), 0);
	assert_int_equal(h_init(&e, &t, 1), 0);
	/* access time: random 4 KiB reads, one at a time (HD Tune: 19.7 ms) */
	uint64_t seed = 42;
	assert_int_equal(h_run(&e, 2000, 4096, false, rand_off, &seed, &st), 0);
	double access = st.seconds / 2000 * 1e3;
	printf("FLAWED250 access %.2f ms (want 19.7)\n", access);
	assert_true(h_near(access, 19.7, TOL));
	/* burst: the same 64 KiB again and again, from the drive buffer (157 MB/s) */
	assert_int_equal(h_run(&e, 1, 65536, false, same_off, NULL, &st), 0);
	assert_int_equal(h_run(&e, 500, 65536, false, same_off, NULL, &st), 0);
	printf("FLAWED250 burst %.1f MB/s (want 157)\n", h_mbps(&st));
	assert_true(h_near(h_mbps(&st), 157, TOL));
	e.ops->cleanup(&e);
	/* the minimum of the surface is in its weak zone (33 MB/s) */
	assert_int_equal(h_init(&e, &t, 4), 0);
	uint64_t weak = m->slow[0].start;
	assert_int_equal(h_seq(&e, weak, 32 * MiB, (uint32_t)MiB, false, &st), 0);
	printf("FLAWED250 weak zone %.1f MB/s (want 33)\n", h_mbps(&st));
	assert_true(h_near(h_mbps(&st), 33, TOL));
	/* unreadable: reads across a bad range fail with EIO, the rest succeed */
	uint64_t bad = m->bad[0].start & ~(MiB - 1);
	assert_int_equal(h_seq(&e, bad - 4 * MiB, 8 * MiB, (uint32_t)MiB, false, &st), 0);
	assert_int_equal(st.errors, 1);
	assert_int_equal(st.ios, 8);
	/* writes there succeed (the drive remaps) */
	assert_int_equal(h_seq(&e, bad, MiB, (uint32_t)MiB, true, &st), 0);
	assert_int_equal(st.errors, 0);
	e.ops->cleanup(&e);
	sim_target_close(&t);
}

/* ---- the SSD: flat, fast, no seek ---- */
static void
test_ssd(void **state)
{
	(void)state;
	struct target t;
	struct engine e;
	struct h_stats st;
	assert_int_equal(h_open(&t, "sim:SSD860EVO"), 0);
	assert_int_equal(h_init(&e, &t, 8), 0);
	assert_int_equal(h_seq(&e, 0, 1024 * MiB, (uint32_t)MiB, false, &st), 0);
	double outer = h_mbps(&st);
	assert_int_equal(h_seq(&e, t.size - 1024 * MiB, 1024 * MiB, (uint32_t)MiB, false, &st), 0);
	printf("SSD860EVO %.1f / %.1f MB/s (want 550, flat)\n", outer, h_mbps(&st));
	assert_true(h_near(outer, 550, TOL));	/* Samsung datasheet: up to 550 MB/s */
	assert_true(h_near(h_mbps(&st), 550, TOL));
	e.ops->cleanup(&e);
	sim_target_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_parse),
		cmocka_unit_test(test_rate_curves),
		cmocka_unit_test(test_af_alignment),
		cmocka_unit_test(test_smr_rewrite),
		cmocka_unit_test(test_smr_sequential_vs_scattered),
		cmocka_unit_test(test_flawed),
		cmocka_unit_test(test_ssd),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
