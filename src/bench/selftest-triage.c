/* selftest-triage.c - triage --self-test short|long: the drives' own
 * self-tests as triage's last step (after the reads, before SMART after),
 * all drives at once (selftest-run.c), and what each adds to the drive's
 * verdict: a failed self-test is FAIL with its LBA, one that could not
 * finish WARN, one the drive cannot run is evidence only. */
#include <stdio.h>
#include <string.h>
#include "bench/selftest-run.h"
#include "bench/triage-int.h"

static const char *const st_kinds[] = { "off", "short", "long", NULL };
const struct bench_param bp_triage_selftest = {
	.name = "self-test", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "off|short|long",
	.help = "after the reads, the drives' own self-test on every drive at once (a failed one: FAIL)",
	.bad = "one of off, short, long", .choices = st_kinds, .def = 0,
};

void
triage_selftest_add(struct bench_ctx *c)
{
	struct tri_state *S = c->state;
	struct plan *p = c->plan;
	enum selftest_kind k = selftest_plan_kind(p, "self-test");
	if (k == SELFTEST_NONE || S->st_added || S->done != p->n_steps || S->n_kind >= TRI_MAX_STEPS)
		return;
	unsigned idx[PLAN_MAX_TARGETS];
	for (unsigned i = 0; i < c->n_targets; i++)
		idx[i] = i;
	char label[48];
	snprintf(label, sizeof label, "%s self-test", selftest_kind_name(k));
	struct plan_step *st = NULL;
	if (plan_add_step_params(p, idx, (unsigned)c->n_targets, &p->params, label, &st))
		return;
	st->own = true;
	S->st_added = true;
}

int
triage_selftest_run(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr)
{
	(void)st;
	struct tri_state *S = c->state;
	S->st_kind = selftest_plan_kind(c->plan, "self-test");
	S->st_ran = true;
	return selftest_run_step(c, S->st_kind, plan_param_num(c->plan, "self-test-timeout"), S->st, sr);
}

void
triage_selftest_run_judge(struct bench_ctx *c, size_t t, enum verdict_level *lv, char *why, size_t wn,
			  struct strlist *ev)
{
	struct tri_state *S = c->state;
	if (!S->st_ran || t >= c->n_targets)
		return;
	char s[256];
	enum verdict_level l = st_drive_verdict(&S->st[t], S->st_kind, s, sizeof s);
	strlist_addf(ev, "%s", s);
	if (l == VL_FAIL || l == VL_WARN) {
		if (*lv < l)
			*lv = l;
		triage_add_reason(why, wn, "%s", s);
	}
}
