/* plan-build.c (run) - plan_make: what every start path does after its
 * options are parsed, in one place (see plan-build.h). */
#include <errno.h>
#include <stdio.h>
#include "run/plan-build.h"
#include "run/test.h"

int
plan_build(struct plan *p, char *err, size_t errlen)
{
	if (!p->test) {
		snprintf(err, errlen, "no test");
		return -EINVAL;
	}
	return p->test->plan(p, err, errlen);
}

int
plan_make(struct plan *p, const struct plan_env *env, char *err, size_t errlen)
{
	static const struct plan_env none;
	if (!env)
		env = &none;
	p->history_rates = env->history_rates;
	if (env->sim_speed_set)
		p->topts.sim_speed = env->sim_speed;
	int rc = plan_resolve_targets_in(p, env->inv, env->inv_opts, err, errlen);
	return rc ? rc : plan_build(p, err, errlen);
}
