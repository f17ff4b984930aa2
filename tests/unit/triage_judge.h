/* triage_judge.h - what the triage health-rule tests share: one judgement
 * of a before/after snapshot pair into a level, a reason and evidence. */
#ifndef DS_TEST_TRIAGE_JUDGE_H
#define DS_TEST_TRIAGE_JUDGE_H
#include <stdbool.h>
#include <string.h>
#include "bench/triage.h"

/* an evidence line containing needle */
static inline bool
has(const struct strlist *l, const char *needle)
{
	for (size_t i = 0; i < l->n; i++)
		if (strstr(l->v[i], needle))
			return true;
	return false;
}

struct out {
	enum verdict_level lv;
	char why[512];
	struct strlist ev;
};

/* The health rules on b (before) and a (after); with_smart: the SMART
 * judgement first, as triage_finish runs them. */
static inline void
judge_with(const struct tri_snap *b, const struct tri_snap *a, const struct tri_health_rules *r, bool with_smart,
	   struct out *o)
{
	memset(o, 0, sizeof(*o));
	o->lv = VL_PASS;
	if (with_smart)
		triage_smart_judge(b, a, (struct known_dbl){ 0 }, r->max_temp, "fail", &o->lv, o->why,
				   sizeof(o->why), &o->ev);
	triage_health_judge(b, a, r, &o->lv, o->why, sizeof(o->why), &o->ev);
}
#endif
