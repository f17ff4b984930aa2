/* test_align.c - the alignment verdict on fabricated rows: a device with no
 * penalty under heavy noise and hiccups is never given a physical sector; an
 * AF device whose read-modify-write costs relatively little at large sizes
 * (HD204UI-like) is found at 4096 even with noise and a hiccup in an aligned
 * row; a shifted phase is found; too few rows judge nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "run/runner.h"

/* What the rows measure: tps of one (size, offset). */
struct model {
	uint32_t phys, phase;		/* 0: no physical sector */
	double rmw_us;
	double noise;			/* lognormal sigma */
	double hiccup;			/* share of rows 3x slower */
	uint64_t rng;
	uint32_t hiccup_size, hiccup_off;	/* one forced hiccup, 0 none */
};

static double
uni(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
}

static double
gauss(uint64_t *s)
{
	return sqrt(-2 * log(uni(s))) * cos(2 * M_PI * uni(s));
}

static double
model_tps(struct model *m, uint32_t size, uint32_t off)
{
	/* per I/O: command, the gap and the transfer at 140 MB/s, a rmw */
	double us = 18 + 4.0 * size / 140.0;
	bool al = m->phys && size % m->phys == 0 && (off + m->phys - m->phase) % m->phys == 0;
	if (m->phys && !al)
		us += m->rmw_us;
	double t = 1e6 / us * exp(m->noise * gauss(&m->rng));
	if (uni(&m->rng) < m->hiccup || (size == m->hiccup_size && off == m->hiccup_off))
		t /= 3;
	return t;
}

/* A plan of rows 512 .. maxsz (the planner's order) and their results. */
static void
fabricate(struct plan *p, struct run_result *r, struct model *m, uint32_t maxsz, size_t keep)
{
	plan_init(p, bench_find("align"));
	strlist_add(&p->targets, "/nonexistent/align-target");
	for (uint32_t sz = 512; sz <= maxsz; sz *= 2)
		for (uint32_t off = 0; off < sz; off += 512) {
			struct run_params rp = p->params;
			rp.bs = sz;
			rp.stride = 4ull * sz;
			rp.region_lba = true;
			rp.region_lba_start = off / 512;
			assert_int_equal(plan_add_step_params(p, NULL, 1, &rp, "row", NULL), 0);
		}
	memset(r, 0, sizeof(*r));
	size_t n = keep && keep < p->n_steps ? keep : p->n_steps;
	r->steps = calloc(n, sizeof(*r->steps));
	r->n_steps = n;
	for (size_t i = 0; i < n; i++) {
		struct step_result *s = &r->steps[i];
		const struct plan_step *st = &p->steps[i];
		s->index = (unsigned)i + 1;
		s->res = calloc(1, sizeof(*s->res));
		s->n_res = 1;
		double tps = model_tps(m, st->rp.bs, (uint32_t)st->rp.region_lba_start * 512);
		s->res[0].ios = 1000;
		s->res[0].seconds = 1000 / tps;
		s->res[0].bytes = 1000ull * st->rp.bs;
		snprintf(s->res[0].target, sizeof(s->res[0].target), "x");
	}
}

static const struct verdict *
align_verdict(const struct run_result *r)
{
	for (size_t i = 0; i < r->n_verdicts; i++)
		if (!strcmp(r->verdicts[i].kind, "align"))
			return &r->verdicts[i];
	return NULL;
}

static void
test_no_penalty_never_invented(void **state)
{
	for (uint64_t seed = 1; seed <= 300; seed++) {
		struct model m = { .noise = 0.25, .hiccup = 0.05, .rng = seed };
		struct plan p;
		struct run_result r;
		fabricate(&p, &r, &m, 32768, 0);
		assert_int_equal(bench_finish(&p, &r), 0);
		const struct verdict *v = align_verdict(&r);
		assert_non_null(v);
		if (!strstr(v->text, "no alignment penalty measured"))
			fail_msg("seed %llu: %s", (unsigned long long)seed, v->text);
		run_result_free(&r);
		plan_free(&p);
	}
}

static void
test_af_found(void **state)
{
	for (uint64_t seed = 1; seed <= 50; seed++) {
		/* HD204UI-like: 106 us rmw, 1.7x at 4k, 1.1x at 32k; 3 % noise;
		 * the aligned 8k row at offset 4096 hit by a hiccup */
		struct model m = { .phys = 4096, .rmw_us = 106, .noise = 0.03, .rng = seed,
				   .hiccup_size = 8192, .hiccup_off = 4096 };
		struct plan p;
		struct run_result r;
		fabricate(&p, &r, &m, 32768, 0);
		assert_int_equal(bench_finish(&p, &r), 0);
		const struct verdict *v = align_verdict(&r);
		assert_non_null(v);
		if (!strstr(v->text, "behaves as 4096-byte physical sectors"))
			fail_msg("seed %llu: %s", (unsigned long long)seed, v->text);
		assert_int_equal(r.n_tables, 1);
		assert_int_equal(r.tables[0].n_rows, 127);
		run_result_free(&r);
		plan_free(&p);
	}
}

static void
test_phase(void **state)
{
	struct model m = { .phys = 4096, .phase = 3584, .rmw_us = 750, .noise = 0.02, .rng = 7 };
	struct plan p;
	struct run_result r;
	fabricate(&p, &r, &m, 16384, 0);
	bench_finish(&p, &r);
	const struct verdict *v = align_verdict(&r);
	assert_non_null(v);
	assert_non_null(strstr(v ? v->text : "", "behaves as 4096-byte physical sectors"));
	bool said = false;
	for (size_t i = 0; i < v->evidence.n; i++) {
		const char *e = v->evidence.v[i];
		said |= e && strstr(e, "offset mod 4096 = 3584");
	}
	assert_true(said);
	run_result_free(&r);
	plan_free(&p);
}

static void
test_too_few(void **state)
{
	struct model m = { .phys = 4096, .rmw_us = 750, .rng = 1 };
	struct plan p;
	struct run_result r;
	fabricate(&p, &r, &m, 32768, 2);	/* interrupted after two rows */
	bench_finish(&p, &r);
	const struct verdict *v = align_verdict(&r);
	assert_non_null(v);
	assert_non_null(strstr(v->text, "too few rows measured"));
	run_result_free(&r);
	plan_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_penalty_never_invented),
		cmocka_unit_test(test_af_found),
		cmocka_unit_test(test_phase),
		cmocka_unit_test(test_too_few),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
