/* plan.c - a plan: the test, the targets, the parameters and the steps
 * (each with its own parameters); and a test's finish outside a runner. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/runner.h"

void
plan_init(struct plan *p, const struct bench_test *t)
{
	memset(p, 0, sizeof(*p));
	p->test = t;
	if (t)
		p->params = t->defaults;
	if (!p->params.pattern[0])
		strcpy(p->params.pattern, "seq");
	if (!p->params.data[0])
		strcpy(p->params.data, "random");
	if (p->params.region_end <= 0)
		p->params.region_end = 1.0;
	offsets_parse_pattern(p->params.pattern, &p->pat);
	data_mode_parse(p->params.data, &p->data);
	p->topts.write = t && t->writes;
	p->topts.file_size = 1ull << 30;
}

void
plan_free(struct plan *p)
{
	strlist_free(&p->user_targets);
	strlist_free(&p->targets);
	strlist_free(&p->notes);
	free(p->steps);
	p->steps = NULL;
	p->n_steps = 0;
}

int
plan_add_step_params(struct plan *p, const unsigned *idx, unsigned cnt,
		     const struct run_params *rp, const char *label, struct plan_step **out)
{
	if (cnt > PLAN_MAX_TARGETS)
		return -E2BIG;
	struct plan_step *nv = realloc(p->steps, (p->n_steps + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	p->steps = nv;
	struct plan_step *s = &nv[p->n_steps++];
	memset(s, 0, sizeof(*s));
	s->n = cnt;
	for (unsigned i = 0; i < cnt; i++)
		s->idx[i] = idx ? idx[i] : i;
	s->rp = *rp;
	s->seconds = rp->seconds;
	s->ramp_s = rp->ramp_s;
	if (label)
		snprintf(s->label, sizeof(s->label), "%s", label);
	if (out)
		*out = s;
	return 0;
}

int
plan_add_step(struct plan *p, const unsigned *idx, unsigned n, double seconds, double ramp_s)
{
	struct run_params rp = p->params;
	rp.seconds = seconds;
	rp.ramp_s = ramp_s;
	return plan_add_step_params(p, idx, n, &rp, NULL, NULL);
}

int
plan_add_solo(struct plan *p, unsigned idx, double seconds, double ramp_s)
{
	int rc = plan_add_step(p, &idx, 1, seconds, ramp_s);
	if (!rc)
		p->steps[p->n_steps - 1].solo = true;
	return rc;
}

void
plan_for_step(const struct plan *p, const struct plan_step *st, struct plan *out)
{
	*out = *p;
	out->params = st->rp;
	out->region_lba = st->rp.region_lba;
	out->region_lba_start = st->rp.region_lba_start;
	out->region_lba_end = st->rp.region_lba_end;
	offsets_parse_pattern(st->rp.pattern, &out->pat);
	data_mode_parse(st->rp.data, &out->data);
}

/* ---- results ---- */

int
bench_finish(const struct plan *p, struct run_result *r)
{
	const struct bench_test *t = p->test;
	if (!t || !t->finish) {
		bench_verdict_errors(p, r);
		return 0;
	}
	void *state = calloc(1, t->state_size ? t->state_size : 1);
	void *io_state = calloc(p->targets.n ? p->targets.n : 1, t->io_state_size ? t->io_state_size : 1);
	struct bench_ctx c = { .plan = (struct plan *)p, .res = r, .state = state,
			       .io_state = io_state, .n_targets = p->targets.n };
	int rc = state && io_state ? t->finish(&c, r) : -ENOMEM;
	free(state);
	free(io_state);
	return rc;
}

