/* selftest.c - the drives' own self-tests, short or long, on every drive at
 * once (selftest-run.c): one step of the test's own work (no I/O from
 * diskscope), each drive's progress on the board, its result and failing
 * LBA from its log; a failed self-test is FAIL.  A drive that cannot
 * self-test says why and is no failure. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "bench/selftest-run.h"

static const char *const kinds[] = { "short", "long", NULL };
static const struct bench_param bp_kind = {
	.name = "kind", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "short|long",
	.help = "short (minutes) or long (the whole surface: hours on a disk)",
	.bad = "one of short, long", .choices = kinds, .def = 0,
};
const struct bench_param bp_selftest_timeout = {
	.name = "self-test-timeout", .kind = BP_DURATION, .bind = BIND_NONE, .arg = "DURATION",
	.help = "abort a self-test still running after this; 0: the drive's own estimate plus half "
		"(at least 10 min more), else 20 min short, 24 h long",
	.bad = "a duration 0 .. 7d", .min = 0, .max = 7 * 86400.0, .def = 0,
};

struct st_state {
	enum selftest_kind kind;
	struct st_drive dr[PLAN_MAX_TARGETS];	/* the results (dr[].d not kept) */
	size_t n;
	bool ran;
};

enum selftest_kind
selftest_plan_kind(const struct plan *p, const char *param)
{
	enum selftest_kind k = SELFTEST_NONE;
	if (selftest_kind_parse(plan_param_str(p, param), &k))
		k = SELFTEST_NONE;
	return k;
}

static int
st_plan(struct plan *p, char *err, size_t errlen)
{
	if (!p->targets.n) {
		snprintf(err, errlen, "%s: no target given", p->test->name);
		return -EINVAL;
	}
	if (p->targets.n > PLAN_MAX_TARGETS) {
		snprintf(err, errlen, "too many targets (%zu, at most %d)", p->targets.n, PLAN_MAX_TARGETS);
		return -E2BIG;
	}
	unsigned idx[PLAN_MAX_TARGETS];
	for (unsigned i = 0; i < p->targets.n; i++)
		idx[i] = i;
	char label[48];
	snprintf(label, sizeof label, "%s self-test", selftest_kind_name(selftest_plan_kind(p, "kind")));
	struct plan_step *st = NULL;
	int rc = plan_add_step_params(p, idx, (unsigned)p->targets.n, &p->params, label, &st);
	if (!rc)
		st->own = true;
	return rc;
}

struct show_arg {
	struct bench_ctx *c;
	enum selftest_kind kind;
};

static bool
show_stopping(void *arg)
{
	return bench_stopping(((struct show_arg *)arg)->c);
}

static void
show_progress(void *arg, size_t i, const struct st_drive *d)
{
	struct show_arg *a = arg;
	char what[48];
	st_drive_activity(d, a->kind, what, sizeof what);
	struct known_dbl frac = { 0 };
	if (d->s.st.state == STS_RUNNING && d->s.st.percent.known)
		KNOWN_SET(frac, d->s.st.percent.v / 100);
	else if (selftest_state_over(d->s.st.state))
		KNOWN_SET(frac, 1);
	bench_show_progress(a->c, i, frac, what);
}

int
selftest_run_step(struct bench_ctx *c, enum selftest_kind kind, double timeout_s, struct st_drive *out,
		  struct step_result *sr)
{
	struct st_run *o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	struct show_arg a = { c, kind };
	o->kind = kind;
	o->timeout_s = timeout_s;
	o->stopping = show_stopping;
	o->progress = show_progress;
	o->arg = &a;
	st_run_setup(o, c->plan, c->targets, c->n_targets);	/* no drive: its source says why */
	int rc = st_run_all(o);
	for (size_t i = 0; i < o->n; i++) {
		out[i] = o->dr[i];
		out[i].d = NULL;	/* points into the scan freed below */
	}
	/* the time each ran; its result is the test's table's (a note would
	 * be an error of the step) */
	for (size_t k = 0; sr && k < sr->n_res && k < o->n; k++)
		sr->res[k].seconds = o->dr[k].ran_s;
	st_run_free(o);
	free(o);
	return rc;
}

static int
st_run_step(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr)
{
	(void)st;
	struct st_state *S = c->state;
	S->kind = selftest_plan_kind(c->plan, "kind");
	S->n = c->n_targets;
	S->ran = true;
	return selftest_run_step(c, S->kind, plan_param_num(c->plan, "self-test-timeout"), S->dr, sr);
}

static const char *const level_word[] = { "INFO", "PASS", "WARN", "FAIL" };

enum { C_TARGET, C_KIND, C_RESULT, C_PCT, C_LBA, C_GB, C_SECONDS, C_VERDICT, C_REASONS, N_COLS };
static const struct result_col cols[N_COLS] = {
	{ "target", "Drive", COL_STR, "", 0 },
	{ "kind", "Kind", COL_STR, "", 0 },
	{ "result", "Result", COL_STR, "", 0 },
	{ "percent_done", "Done", COL_DBL, "%", 0 },
	{ "failing_lba", "Failing LBA", COL_LBA, "", 0 },
	{ "failing_gb", "At", COL_DBL, "GB", 3 },
	{ "seconds", "Ran", COL_DBL, "s", 0 },
	{ "verdict", "Verdict", COL_STR, "", 0 },
	{ "reasons", "Reasons", COL_STR, "", 0 },
};

static int
st_finish(struct bench_ctx *c, struct run_result *r)
{
	struct st_state *S = c->state;
	struct result_table *tb = result_table_add(r, c->plan->test->name, "Drive self-tests: one row per drive",
						   cols, N_COLS);
	if (!tb)
		return -ENOMEM;
	size_t cnt[4] = { 0 };
	for (size_t i = 0; i < c->n_targets; i++) {
		const char *name = c->targets[i].name;
		char why[256];
		enum verdict_level lv;
		struct st_drive none = { 0 };
		const struct st_drive *d = S->ran && i < S->n ? &S->dr[i] : &none;
		if (!S->ran) {
			lv = VL_WARN;
			snprintf(why, sizeof why, "the self-test did not run");
		} else {
			lv = st_drive_verdict(d, S->kind, why, sizeof why);
		}
		cnt[lv]++;
		struct verdict *v = result_verdict(r, lv, "selftest", "%s: %s: %s", name, level_word[lv], why);
		if (v && d->s.st.estimate_s.known)
			verdict_evidence(v, "the drive's estimate: %.0f s", d->s.st.estimate_s.v);
		if (v && S->ran)
			verdict_evidence(v, "self-test log: %s", d->s.st.text[0] ? d->s.st.text : "-");
		if (table_add_row(tb))
			return -ENOMEM;
		size_t row = tb->n_rows - 1;
		table_set_str(tb, row, C_TARGET, name);
		table_set_str(tb, row, C_KIND, selftest_kind_name(S->kind));
		table_set_str(tb, row, C_RESULT, selftest_state_name(d->s.st.state));
		table_set_known_dbl(tb, row, C_PCT, d->s.st.percent);
		if (d->s.st.lba.known) {
			table_set_int(tb, row, C_LBA, (int64_t)d->s.st.lba.v);
			if (d->lbs)
				table_set_dbl(tb, row, C_GB, (double)d->s.st.lba.v * d->lbs / 1e9);
		}
		if (S->ran)
			table_set_dbl(tb, row, C_SECONDS, d->ran_s);
		table_set_str(tb, row, C_VERDICT, level_word[lv]);
		table_set_str(tb, row, C_REASONS, why);
	}
	struct verdict *sum = result_verdict(r, VL_INFO, "summary", "%zu drives: %zu pass, %zu warn, %zu fail, %zu no self-test%s",
					     c->n_targets, cnt[VL_PASS], cnt[VL_WARN], cnt[VL_FAIL], cnt[VL_INFO],
					     r->interrupted ? " (stopped: the self-tests were aborted)" : "");
	if (sum)
		sum->tally = true;
	return 0;
}

const struct bench_test bench_selftest = {
	.name = "selftest",
	.summary = "the drives' own self-tests (short or long), on all drives at once",
	.writes = false,
	.command = true,
	.defaults = {
		.bs = 1048576, .qd = 1, .seconds = 0, .ramp_s = 0,
		.region_start = 0, .region_end = 1,
		.pattern = "seq", .data = "random", .rw_mix = 100,
	},
	.panels = PANEL_BOARD,
	.flags = TEST_JUDGES,
	.params = (const struct bench_param *const[]){ &bp_kind, &bp_selftest_timeout, NULL },
	.plan = st_plan,
	.state_size = sizeof(struct st_state),
	.run_step = st_run_step,
	.finish = st_finish,
};
