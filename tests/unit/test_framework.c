/* test_framework.c - the test framework on simulated drives (virtual time,
 * deterministic): typed parameters, steps with their own parameters, the
 * hooks (on_io with per-target state, on_step appending a step, finish),
 * a step that cannot run, ramp-up errors apart, the whole-run series, and
 * saturate's verdicts on fabricated curves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "report/run.h"
#include "bench/plan-options.h"
#include "run/runner.h"
#include "run/series.h"
#include "sim/sim.h"
#include "test_top.h"

/* ---- parameters ---- */

static void
test_params(void **state)
{
	const struct bench_test *t = bench_find("randread");
	assert_non_null(t);
	const struct bench_param *bs = bench_param_find(t, "bs", NULL);
	assert_non_null(bs);
	struct bench_value v;
	char err[160], txt[32];
	assert_int_equal(bench_param_parse(bs, "64k", &v, err, sizeof(err)), 0);
	assert_true(v.num == 65536);
	bench_param_format(bs, &v, txt, sizeof(txt));
	assert_string_equal(txt, "64k");
	assert_int_equal(bench_param_parse(bs, "3000", &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--bs 3000: block size must be"));
	const struct bench_param *rw = bench_param_find(t, "rw", NULL);
	assert_int_equal(bench_param_parse(rw, "write", &v, err, sizeof(err)), 0);
	assert_true(v.num == 0);
	assert_int_equal(bench_param_parse(rw, "70%", &v, err, sizeof(err)), 0);
	bench_param_format(rw, &v, txt, sizeof(txt));
	assert_string_equal(txt, "70%");
	assert_int_equal(bench_param_parse(rw, "101", &v, err, sizeof(err)), -EINVAL);
	const struct bench_param *pat = bench_param_find(t, "pattern", NULL);
	assert_int_equal(bench_param_parse(pat, "zigzag", &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(bench_param_parse(pat, "sequential", &v, err, sizeof(err)), 0);
	assert_string_equal(v.str, "seq");	/* the old long words still work */
	/* defaults are the test's own */
	bench_param_default(t, bench_param_find(t, "qd", NULL), &v);
	assert_true(v.num == 32);
	bench_param_default(t, pat, &v);
	assert_string_equal(v.str, "rand");

	struct plan p;
	plan_init(&p, t);
	assert_int_equal(plan_set_param(&p, "qd", "4", err, sizeof(err)), 0);
	assert_int_equal(p.params.qd, 4);
	assert_true(p.set_qd);
	assert_int_equal(plan_set_param(&p, "nosuch", "1", err, sizeof(err)), -ENOENT);
	assert_true(plan_param_num(&p, "qd") == 4);
	assert_true(plan_param_num(&p, "bs") == 4096);
	assert_false(plan_param_known(&p, "nosuch").known);
	assert_true(plan_param_known(&p, "qd").known && plan_param_known(&p, "qd").v == 4);
	plan_free(&p);
}

/* A parameter can make a test write (triage write-verify=on): plan_writes
 * says so for the command line and the picker alike; the picker's
 * "NAME=VALUE ..." text sets each through plan_set_option. */
static void
test_plan_writes(void **state)
{
	(void)state;
	char err[160] = "";
	struct plan p;
	plan_init(&p, bench_find("triage"));
	assert_false(plan_writes(&p));
	assert_int_equal(plan_set_options(&p, "--mode=full, samples=200", err, sizeof(err)), 0);
	assert_false(plan_writes(&p));
	assert_string_equal(plan_param_str(&p, "mode"), "full");
	assert_int_equal(plan_set_options(&p, "write-verify", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not NAME=VALUE"));
	assert_int_equal(plan_set_options(&p, "write-verify=maybe", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "write-verify"));
	assert_false(plan_writes(&p));
	assert_int_equal(plan_set_options(&p, "write-verify=on", err, sizeof(err)), 0);
	assert_true(plan_writes(&p));
	assert_true(p.topts.write);
	plan_free(&p);
	plan_init(&p, bench_find("seqwrite"));
	assert_true(plan_writes(&p));
	plan_free(&p);
	plan_init(&p, bench_find("seqread"));
	assert_false(plan_writes(&p));
	plan_free(&p);
}

/* The picker's typed fields go through plan_set_option: every parameter of
 * every test (its own table, its own checks), the run options, never a
 * confirmation or an output file. */
static void
test_set_option(void **state)
{
	char err[160], txt[32];
	for (size_t i = 0; i < bench_count; i++) {
		const struct bench_test *t = bench_table[i];
		for (size_t k = 0; t->params && t->params[k]; k++) {
			const struct bench_param *bp = t->params[k];
			struct bench_value v;
			struct plan p;
			plan_init(&p, t);
			bench_param_default(t, bp, &v);
			bench_param_format(bp, &v, txt, sizeof(txt));
			err[0] = 0;
			assert_int_equal(plan_set_option(&p, bp->name, txt, err, sizeof(err)), 0);
			assert_int_equal(plan_set_option(&p, bp->name, "nonsense", err, sizeof(err)), -EINVAL);
			assert_non_null(strstr(err, bp->name));
			plan_free(&p);
		}
	}
	struct plan p;
	plan_init(&p, bench_find("seqread"));
	assert_int_equal(plan_set_option(&p, "bs", "12k", err, sizeof(err)), 0);
	assert_int_equal(p.params.bs, 12288);
	assert_int_equal(plan_set_option(&p, "time", "20", err, sizeof(err)), 0);
	assert_true(p.params.seconds == 20);
	assert_int_equal(plan_set_option(&p, "pattern", "rand", err, sizeof(err)), 0);
	assert_string_equal(p.params.pattern, "rand");
	assert_int_equal(plan_set_option(&p, "data", "zeros", err, sizeof(err)), 0);
	assert_string_equal(p.params.data, "zeros");
	assert_int_equal(plan_set_option(&p, "rw", "70", err, sizeof(err)), 0);
	assert_true(p.topts.write);	/* a mix writes: the guard is asked */
	assert_int_equal(plan_set_option(&p, "region", "0%:10%", err, sizeof(err)), 0);
	assert_true(p.params.region_end == 0.1);
	assert_int_equal(plan_set_option(&p, "bs", "3x", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--bs 3x: block size must be"));
	const char *const never[] = { "destroy-data", "json", "csv", "text", "keep", "help", "nosuch" };
	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		assert_int_equal(plan_set_option(&p, never[i], "/dev/null", err, sizeof(err)), -EINVAL);
	plan_free(&p);
}

/* ---- a test made here: per-step parameters, hooks ---- */

struct count_io {
	uint64_t measured, all, bytes;
};

struct fw_state {
	unsigned on_step_calls;
	bool appended;
};

static void
fw_on_io(void *state, const struct io_done *d)
{
	struct count_io *c = state;
	c->all++;
	if (d->measured && !d->res) {
		c->measured++;
		c->bytes += d->len;
	}
}

static int
fw_plan(struct plan *p, char *err, size_t errlen)
{
	struct run_params rp = p->params;
	rp.bs = 4096;
	rp.qd = 1;
	int rc = plan_add_step_params(p, NULL, 1, &rp, "4k QD1", NULL);
	rp.bs = 65536;
	rp.qd = 4;
	return rc ? rc : plan_add_step_params(p, NULL, 1, &rp, "64k QD4", NULL);
}

static void
fw_on_step(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr)
{
	struct fw_state *s = c->state;
	s->on_step_calls++;
	if (!s->appended) {	/* the first step adds a third, at 1M */
		struct run_params rp = st->rp;
		rp.bs = 1 << 20;
		assert_int_equal(plan_add_step_params(c->plan, NULL, 1, &rp, "appended 1M", NULL), 0);
		s->appended = true;
	}
}

static int
fw_finish(struct bench_ctx *c, struct run_result *r)
{
	/* the per-target state saw what the worker measured */
	const struct count_io *io = c->io_state;
	uint64_t ios = 0;
	for (size_t i = 0; i < r->n_steps; i++)
		ios += r->steps[i].res[0].ios;
	assert_true(io->measured == ios);
	struct verdict *v = result_verdict(r, VL_PASS, "fw", "%llu I/Os seen", (unsigned long long)io->all);
	assert_non_null(v);
	return verdict_evidence(v, "%u steps", ((struct fw_state *)c->state)->on_step_calls);
}

static const struct bench_test fw_test = {
	.name = "fwtest", .summary = "framework test",
	.defaults = { .bs = 4096, .qd = 1, .seconds = 1, .pattern = "seq", .data = "random",
		      .rw_mix = 100, .region_end = 1, .seed = 3 },
	.params = (const struct bench_param *const[]){ BENCH_XFER_PARAMS, NULL },
	.plan = fw_plan,
	.on_io = fw_on_io, .io_state_size = sizeof(struct count_io),
	.state_size = sizeof(struct fw_state),
	.on_step = fw_on_step, .finish = fw_finish,
};

static void
run_plan(struct plan *p, struct run_result *res)
{
	char err[256] = "";
	assert_int_equal(p->test->plan(p, err, sizeof(err)), 0);
	struct runner *r;
	int rc = runner_create(p, &r, NULL, err, sizeof(err));
	if (rc)
		fail_msg("create: %s", err);
	assert_int_equal(runner_start(r), 0);
	runner_wait(r, -1);
	assert_int_equal(runner_result(r, res), 0);
	runner_destroy(r);
}

static void
test_steps_and_hooks(void **state)
{
	struct plan p;
	plan_init(&p, &fw_test);
	strlist_add(&p.targets, "sim:WD40EZRX");
	struct run_result res;
	run_plan(&p, &res);
	assert_int_equal(res.n_steps, 3);
	assert_false(res.failed);
	assert_string_equal(res.steps[0].label, "4k QD1");
	assert_string_equal(res.steps[1].label, "64k QD4");
	assert_string_equal(res.steps[2].label, "appended 1M");
	/* each step ran at its own block size */
	const unsigned bs[3] = { 4096, 65536, 1 << 20 };
	for (int i = 0; i < 3; i++) {
		const struct target_result *t = &res.steps[i].res[0];
		assert_true(t->ios > 0);
		assert_int_equal(t->bytes, t->ios * bs[i]);
	}
	assert_int_equal(res.n_verdicts, 1);
	assert_string_equal(res.verdicts[0].kind, "fw");
	assert_int_equal(res.verdicts[0].evidence.n, 1);
	assert_string_equal(res.verdicts[0].evidence.v[0], "3 steps");
	/* identity: a run id of 32 hex digits, the version */
	assert_int_equal(strlen(res.run_id), 32);
	assert_string_equal(res.version, DS_VERSION);
	assert_int_equal(res.n_ident, 1);
	run_result_free(&res);
	plan_free(&p);
}

/* A per-target fail rule: the hook of one drive ends its own worker past
 * 64 MiB; the other drive of the same step reads on to its time limit.
 * The stopped one's result is well short, says why, the step does not fail
 * and the run is not interrupted. */
struct rule_io {
	unsigned me;
};

static void
rule_on_io(void *state, const struct io_done *d)
{
	struct rule_io *s = state;
	if (s->me == 0 && d->offset >= (64u << 20))
		snprintf(d->stop, WORKER_STOP_LEN, "rule: past 64 MiB at LBA %llu",
			 (unsigned long long)(d->offset / 512));
}

static int
rule_plan(struct plan *p, char *err, size_t errlen)
{
	struct run_params rp = p->params;
	return plan_add_step_params(p, NULL, 2, &rp, "two drives", NULL);
}

static int
rule_before(struct bench_ctx *c, char *err, size_t errlen)
{
	for (unsigned i = 0; i < c->n_targets; i++)
		((struct rule_io *)c->io_state)[i].me = i;
	return 0;
}

static const struct bench_test rule_test = {
	.name = "ruletest", .summary = "a fail rule on one drive",
	.defaults = { .bs = 1 << 20, .qd = 1, .seconds = 10, .pattern = "seq", .data = "random",
		      .rw_mix = 100, .region_end = 1, .seed = 3 },
	.plan = rule_plan, .before = rule_before,
	.on_io = rule_on_io, .io_state_size = sizeof(struct rule_io),
};

static void
test_rule_stops_one(void **state)
{
	struct plan p;
	plan_init(&p, &rule_test);
	strlist_add(&p.targets, "sim:WD40EZRX");
	strlist_add(&p.targets, "sim:WD40EZRX");
	struct run_result res;
	run_plan(&p, &res);
	assert_false(res.failed);
	assert_false(res.interrupted);
	assert_int_equal(res.n_steps, 1);
	const struct target_result *a = &res.steps[0].res[0], *b = &res.steps[0].res[1];
	assert_int_equal(a->bytes, 65u << 20);	/* the block at 64 MiB counted, no more */
	assert_true(b->bytes > 10 * a->bytes);
	assert_true(fabs(b->seconds - 10.0) < 0.01);
	assert_non_null(strstr(a->note, "rule: past 64 MiB at LBA 131072"));
	assert_string_equal(b->note, "");
	assert_true(a->stopped_early);
	assert_false(b->stopped_early);
	run_result_free(&res);
	plan_free(&p);
}

/* A step that cannot run (here: queue depth 1000, refused by the worker) fails
 * the run: no aggregate, no hook fed with zeros, no later step. */
static int
bad_plan(struct plan *p, char *err, size_t errlen)
{
	struct run_params rp = p->params;
	int rc = plan_add_step_params(p, NULL, 1, &rp, "good", NULL);
	rp.qd = 1000;
	if (!rc)
		rc = plan_add_step_params(p, NULL, 1, &rp, "bad", NULL);
	rp.qd = 1;
	return rc ? rc : plan_add_step_params(p, NULL, 1, &rp, "never", NULL);
}

static unsigned bad_fed;	/* steps handed to on_step with no measurement */

static void
bad_on_step(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr)
{
	if (sr->failed || !(sr->aggregate_mbps.known && sr->aggregate_mbps.v > 0))
		bad_fed++;
}

static const struct bench_test bad_test = {
	.name = "badtest", .summary = "a step that cannot run",
	.defaults = { .bs = 4096, .qd = 1, .seconds = 0.5, .pattern = "seq", .data = "random",
		      .rw_mix = 100, .region_end = 1 },
	.plan = bad_plan, .on_step = bad_on_step,
};

static void
test_step_error(void **state)
{
	struct plan p;
	plan_init(&p, &bad_test);
	strlist_add(&p.targets, "sim:WD40EZRX");
	struct run_result res;
	run_plan(&p, &res);
	assert_true(res.failed);
	assert_int_equal(bad_fed, 0);		/* the hook never saw the failed step */
	assert_int_equal(res.n_steps, 2);	/* the third never ran */
	assert_false(res.steps[0].failed);
	assert_true(res.steps[1].failed);
	assert_false(res.steps[1].aggregate_mbps.known);
	bool said = false;
	for (size_t i = 0; i < res.notes.n; i++)
		said |= strstr(res.notes.v[i], "step 2 could not run") != NULL;
	assert_true(said);
	assert_false(res.interrupted);
	run_result_free(&res);
	plan_free(&p);
}

/* Errors during ramp-up are kept apart: a drive whose bad zone is half of
 * the region has about as many measured errors with a ramp as without. */
static void
ramp_run(double ramp, struct run_result *res)
{
	struct plan p;
	plan_init(&p, bench_find("randread"));
	strlist_add(&p.targets, "sim:dies-early");
	p.params.seconds = 2;
	p.params.ramp_s = ramp;
	p.params.qd = 1;
	p.params.seed = 9;
	p.region_lba = p.params.region_lba = true;
	p.region_lba_start = p.params.region_lba_start = 1998000;
	p.region_lba_end = p.params.region_lba_end = 2002000;
	run_plan(&p, res);
	plan_free(&p);
}

static void
test_ramp_errors(void **state)
{
	char err[256], top[512], path[700];
	assert_int_equal(test_top(top, sizeof(top)), 0);
	snprintf(path, sizeof(path), "%s/tests/fixtures/sim/dies-early.drive", top);
	const char *files[] = { path };
	if (sim_load_models(files, 1, err, sizeof(err)))
		fail_msg("%s", err);
	struct run_result a, b;
	ramp_run(0, &a);
	ramp_run(2, &b);
	const struct target_result *ta = &a.steps[0].res[0], *tb = &b.steps[0].res[0];
	assert_true(ta->err.count > 10);
	assert_int_equal(ta->ramp_err.count, 0);
	assert_true(tb->ramp_err.count > ta->err.count / 2);
	/* measured errors: the 2 measured seconds only, not 4 */
	assert_true(tb->err.count < ta->err.count * 3 / 2);
	bool ramp_said = false;
	for (size_t i = 0; i < b.n_verdicts; i++)
		ramp_said |= strstr(b.verdicts[i].text, "during ramp-up") != NULL;
	assert_true(ramp_said);
	run_result_free(&a);
	run_result_free(&b);
}

/* ---- the whole-run series ---- */

static void
test_series_whole(void **state)
{
	struct series s;
	assert_int_equal(series_init(&s, 600), 0);
	const size_t n = 72000;	/* 2 hours at 100 ms */
	uint64_t bytes = 0;
	for (size_t i = 0; i < n; i++) {
		struct series_sample x = { .end_ns = (i + 1) * 100000000ull, .dur_ns = 100000000u,
					   .ios = 1, .rbytes = i < 36000 ? 2000000 : 1000000,
					   .p50_us = 10, .p99_us = i == 5 ? 5e6f : 20, .pos = 0 };
		bytes += x.rbytes;
		series_push(&s, &x);
	}
	assert_true(s.n_whole <= SERIES_WHOLE_CAP);
	uint64_t sum = 0, dur = 0;
	for (size_t i = 0; i < s.n_whole; i++) {
		sum += s.whole[i].rbytes;
		dur += s.whole[i].dur_ns;
	}
	assert_true(sum == bytes);		/* nothing dropped */
	assert_true(dur == n * 100000000ull);
	struct saved_series sv;
	assert_int_equal(series_save_whole(&s, 100, &sv), 0);
	assert_true(sv.n == s.n_whole);
	/* the first hour (20 MB/s) is there, and the stall at 0.5 s too */
	assert_true(fabsf(sv.mbps[0] - 20.0f) < 0.01f);
	assert_true(fabsf(sv.mbps[sv.n - 1] - 10.0f) < 0.01f);
	assert_true(sv.p99_us[0] == 5e6f);
	assert_int_equal(sv.interval_ms, 100 * s.span);
	/* a last interval cut short (5 ms, one 1 MB I/O: "200 MB/s") folds into
	 * the bucket before it instead of drawing a spike at the drive's end */
	struct series t;
	assert_int_equal(series_init(&t, 16), 0);
	for (unsigned i = 0; i < 3; i++) {
		struct series_sample x = { .end_ns = (i + 1) * 100000000ull, .dur_ns = 100000000u,
					   .ios = 10, .rbytes = 10000000, .p99_us = 20, .pos = 0.3f * (float)(i + 1) };
		series_push(&t, &x);
	}
	struct series_sample cut = { .end_ns = 305000000ull, .dur_ns = 5000000u, .ios = 1,
				     .rbytes = 1000000, .p99_us = 30, .pos = 1.0f };
	series_push(&t, &cut);
	struct saved_series tv;
	assert_int_equal(series_save_whole(&t, 100, &tv), 0);
	assert_int_equal(tv.n, 3);
	assert_true(fabsf(tv.mbps[2] - 11.0f / 0.105f) < 0.01f);
	assert_true(tv.pos[2] == 1.0f && tv.p99_us[2] == 30.0f);
	free(tv.mbps);
	free(tv.iops);
	free(tv.p99_us);
	free(tv.pos);
	series_free(&t);
	/* the bytes after a time, for the common window */
	assert_true(series_bytes_after(&s, 7199ull * 1000000000ull) == 10000000);
	free(sv.mbps);
	free(sv.iops);
	free(sv.p99_us);
	free(sv.pos);
	series_free(&s);
}

/* ---- saturate's verdicts ---- */

static void
fake(struct run_result *r, const double *agg, const double *ideal, size_t n)
{
	memset(r, 0, sizeof(*r));
	r->steps = calloc(n, sizeof(*r->steps));
	r->n_steps = n;
	for (size_t i = 0; i < n; i++) {
		r->steps[i].index = (unsigned)i + 1;
		for (size_t k = 0; k <= i; k++)
			strlist_addf(&r->steps[i].active, "sd%c", (char)('a' + k));
		r->steps[i].aggregate_mbps = known_dbl_of(agg[i]);
		r->steps[i].ideal_mbps = ideal[i];
	}
}

static void
test_uneven_scaling(void **state)
{
	struct plan p;
	plan_init(&p, bench_find("saturate"));
	/* rising but uneven (issue 9 item 13): no knee to call */
	const double agg[] = { 137, 215, 353 }, ideal[] = { 137, 275, 412 };
	struct run_result r;
	fake(&r, agg, ideal, 3);
	assert_int_equal(bench_finish(&p, &r), 0);
	assert_string_equal(r.verdicts[0].kind, "saturation");
	assert_int_equal(r.verdicts[0].knee_drives, 0);
	assert_int_equal(r.verdicts[0].level, VL_WARN);
	assert_string_equal(r.verdicts[0].text,
		"uneven scaling: 137, 215, 353 MB/s; 2 drives at 78 % of ideal");
	/* the scaling table, typed */
	assert_int_equal(r.n_tables, 1);
	assert_string_equal(r.tables[0].name, "scaling");
	assert_int_equal(r.tables[0].n_rows, 3);
	char b[32];
	table_cell_text(&r.tables[0], 1, 3, b, sizeof(b));
	assert_string_equal(b, "78 %");
	table_cell_text(&r.tables[0], 0, 4, b, sizeof(b));
	assert_string_equal(b, "-");		/* no gain for the first step: unknown */
	run_result_free(&r);

	/* a real knee still is one: the curve flattens below ideal */
	const double agg2[] = { 150, 273, 430, 544, 573 }, ideal2[] = { 150, 300, 450, 600, 750 };
	fake(&r, agg2, ideal2, 5);
	bench_finish(&p, &r);
	assert_int_equal(r.verdicts[0].knee_drives, 4);
	assert_non_null(strstr(r.verdicts[0].text, "saturates at 4 drives"));
	run_result_free(&r);
	plan_free(&p);
}

/* What a writer saves, the loader (`show`) reads back: tables, verdict
 * level and evidence, the identity block, the new step and target fields. */
static void
test_json_roundtrip(void **state)
{
	struct plan p;
	plan_init(&p, bench_find("saturate"));
	const double agg[] = { 137, 215, 353 }, ideal[] = { 137, 275, 412 };
	struct run_result r, back;
	fake(&r, agg, ideal, 3);
	snprintf(r.test, sizeof(r.test), "saturate");
	assert_int_equal(bench_finish(&p, &r), 0);
	r.steps[1].window_s = 0.7;
	snprintf(r.steps[1].label, sizeof(r.steps[1].label), "2 drives");
	r.steps[2].failed = true;
	result_new_id(r.run_id, sizeof(r.run_id));
	snprintf(r.host, sizeof(r.host), "bench1");
	r.ident = calloc(1, sizeof(*r.ident));
	r.n_ident = 1;
	strlist_add(&r.ident_targets, "/dev/sdb");
	snprintf(r.ident[0].model, sizeof(r.ident[0].model), "WDC WD40EZRX");
	r.ident[0].logical = (struct known_u64){ true, 512 };
	struct verdict *v = &r.verdicts[0];
	assert_int_equal(verdict_evidence(v, "one line"), 0);

	struct json_object *o = run_json(&r);
	char err[160];
	assert_int_equal(run_json_from_object(o, &back, err, sizeof(err)), 0);
	json_object_put(o);
	assert_string_equal(back.run_id, r.run_id);
	assert_string_equal(back.host, "bench1");
	assert_int_equal(back.n_ident, 1);
	assert_string_equal(back.ident_targets.v[0], "/dev/sdb");
	assert_string_equal(back.ident[0].model, "WDC WD40EZRX");
	assert_true(back.ident[0].logical.known && back.ident[0].logical.v == 512);
	assert_false(back.ident[0].physical.known);	/* unknown stays unknown */
	assert_int_equal(back.verdicts[0].level, VL_WARN);
	assert_int_equal(back.verdicts[0].evidence.n, r.verdicts[0].evidence.n);
	assert_int_equal(back.n_tables, 1);
	assert_int_equal(back.tables[0].n_rows, 3);
	char a[32], b[32];
	for (size_t y = 0; y < 3; y++)
		for (size_t c = 0; c < back.tables[0].n_cols; c++) {
			table_cell_text(&r.tables[0], y, c, a, sizeof(a));
			table_cell_text(&back.tables[0], y, c, b, sizeof(b));
			assert_string_equal(a, b);
		}
	assert_true(back.steps[1].window_s == 0.7);
	assert_string_equal(back.steps[1].label, "2 drives");
	assert_true(back.steps[2].failed);
	run_result_free(&r);
	run_result_free(&back);
	plan_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_set_option),
		cmocka_unit_test(test_plan_writes),
		cmocka_unit_test(test_steps_and_hooks),
		cmocka_unit_test(test_step_error),
		cmocka_unit_test(test_rule_stops_one),
		cmocka_unit_test(test_ramp_errors),
		cmocka_unit_test(test_series_whole),
		cmocka_unit_test(test_uneven_scaling),
		cmocka_unit_test(test_json_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
