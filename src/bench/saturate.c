/* saturate.c - controller saturation: sequential reads on 1, 2, ... N drives
 * at once.  The ideal line is the sum of each active drive's solo rate: the
 * first drive's comes from step 1 (it runs alone there); every other drive
 * gets a short solo pass up front (min(3 s, step time)), because its solo
 * rate is never measured by the sweep itself and drives differ (outer-zone
 * speed, firmware).  The knee is the first step below 90 % of ideal where
 * the curve also flattens (the added drive brings less than half its solo
 * rate); the controller saturates at the step before it.  A curve below
 * ideal that keeps rising is uneven scaling, not a knee. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench/bench.h"
#include "run/estimate.h"

#define SOLO_MAX_S 3.0
#define KNEE_FRACTION 0.9	/* below this share of ideal ... */
#define FLAT_FRACTION 0.5	/* ... and gaining less than this share of the added drive */

struct sat_state {
	double single[PLAN_MAX_TARGETS];	/* solo rate per target, 0 unknown */
	unsigned n_solo;			/* solo passes measured */
};

static int
saturate_plan(struct plan *p, char *err, size_t errlen)
{
	unsigned n = (unsigned)p->targets.n;
	if (n == 0) {
		snprintf(err, errlen, "saturate: no drives given (name drives or ctrl:N)");
		return -EINVAL;
	}
	if (n > PLAN_MAX_TARGETS || n > SNAP_STEPS) {
		snprintf(err, errlen, "saturate: too many drives (%u, at most %d)", n, SNAP_STEPS);
		return -E2BIG;
	}
	double secs = p->params.seconds;
	double solo = secs > 0 && secs < SOLO_MAX_S ? secs : secs > 0 ? SOLO_MAX_S : 0;
	double ramp = p->params.ramp_s;
	double solo_ramp = ramp < 1 ? ramp : 1;
	for (unsigned i = 1; i < n; i++) {
		int rc = plan_add_solo(p, i, solo, solo_ramp);
		if (rc)
			return rc;
		snprintf(p->steps[p->n_steps - 1].label, sizeof(p->steps[0].label), "solo %u", i + 1);
	}
	for (unsigned k = 1; k <= n; k++) {
		int rc = plan_add_step(p, NULL, k, secs, ramp);
		if (rc)
			return rc;
		snprintf(p->steps[p->n_steps - 1].label, sizeof(p->steps[0].label), "%u drive%s",
			 k, k == 1 ? "" : "s");
	}
	return 0;
}

/* The knee (1-based step) or 0; *worst gets the step furthest below ideal
 * (1-based, 0 none below 90 %). */
static size_t
find_knee(const struct step_result *s, size_t n, size_t *worst)
{
	double worst_ratio = KNEE_FRACTION;
	*worst = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(s[i].ideal_mbps > 0) || !s[i].aggregate_mbps.known)
			continue;
		double ratio = s[i].aggregate_mbps.v / s[i].ideal_mbps;
		if (ratio >= KNEE_FRACTION)
			continue;
		if (ratio < worst_ratio) {
			worst_ratio = ratio;
			*worst = i + 1;
		}
		if (i == 0 || !s[i - 1].aggregate_mbps.known)
			continue;
		double added = s[i].ideal_mbps - (s[i - 1].ideal_mbps > 0 ? s[i - 1].ideal_mbps : 0);
		double gain = s[i].aggregate_mbps.v - s[i - 1].aggregate_mbps.v;
		if (added > 0 && gain < FLAT_FRACTION * added)
			return i + 1;
	}
	return 0;
}

/* The name of a target that stopped early in a step, or NULL. */
static const char *
stopped_target(const struct step_result *s)
{
	static char buf[96];
	for (size_t k = 0; k < s->n_res; k++)
		if (s->res[k].stopped_early || s->res[k].note[0]) {
			snprintf(buf, sizeof(buf), "%s stopped early", s->res[k].target);
			return buf;
		}
	return NULL;
}

/* The last step scaling can be judged on, 1-based (0: none): an ideal, a
 * measured aggregate and every drive running to the end.  A drive that
 * vanished or gave up ends the curve there, whatever comes after. */
static size_t
last_judged(const struct run_result *r)
{
	size_t j = 0;
	for (size_t i = 0; i < r->n_steps; i++) {
		const struct step_result *s = &r->steps[i];
		if (stopped_target(s) || !s->aggregate_mbps.known)
			break;
		if (s->ideal_mbps > 0)
			j = i + 1;
	}
	return j;
}

static void
saturate_on_step(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr)
{
	struct sat_state *S = c->state;
	struct plan *p = c->plan;
	bool ok = !sr->failed && sr->n_res == st->n;
	if (st->solo) {
		if (ok && sr->res[0].seconds > 0) {
			S->single[st->idx[0]] = sr->res[0].mbps;
			S->n_solo++;
		}
	} else {
		/* step 1 of a sweep is the first drive's solo rate */
		if (ok && sr->index == 1 && st->n == 1 && sr->res[0].seconds > 0)
			S->single[st->idx[0]] = sr->res[0].mbps;
		if (S->n_solo && ok) {
			double ideal = 0;
			bool all = true;
			for (unsigned k = 0; k < st->n; k++) {
				all &= S->single[st->idx[k]] > 0;
				ideal += S->single[st->idx[k]];
			}
			if (sr->index == 1)
				sr->ideal_mbps = sr->aggregate_mbps.known ? sr->aggregate_mbps.v : 0;
			else if (all)
				sr->ideal_mbps = ideal;
		}
		size_t worst;
		size_t knee = find_knee(c->res->steps, c->res->n_steps, &worst);
		if (knee && !c->knee_drives)
			c->knee_drives = (int)(knee > 1 ? c->res->steps[knee - 2].active.n
					       : c->res->steps[0].active.n);
	}
	/* the reference line of the steps still to come */
	for (size_t j = 0; j < p->n_steps; j++) {
		struct plan_step *n = &p->steps[j];
		if (n->solo || n->ref_mbps > 0 || !S->n_solo)
			continue;
		double ideal = 0;
		bool all = true;
		for (unsigned k = 0; k < n->n; k++) {
			all &= S->single[n->idx[k]] > 0;
			ideal += S->single[n->idx[k]];
		}
		if (all && n->n > 1)
			n->ref_mbps = ideal;
	}
}

static void
scaling_table(struct run_result *r)
{
	static const struct result_col cols[] = {
		{ "drives", "drives", COL_INT, "", 0 },
		{ "aggregate_mbps", "aggregate", COL_DBL, "MB/s", 1 },
		{ "ideal_mbps", "ideal", COL_DBL, "MB/s", 1 },
		{ "of_ideal_pct", "of ideal", COL_DBL, "%", 0 },
		{ "gain_mbps", "gain", COL_DBL, "MB/s", 1 },
	};
	struct result_table *t = result_table_add(r, "scaling", "Aggregate against ideal by drive count",
						  cols, ARRAY_SIZE(cols));
	for (size_t i = 0; t && i < r->n_steps; i++) {
		const struct step_result *s = &r->steps[i];
		if (table_add_row(t))
			return;
		table_set_int(t, i, 0, (int64_t)s->active.n);
		struct known_dbl agg = s->aggregate_mbps, prev = i > 0 ? r->steps[i - 1].aggregate_mbps
								   : (struct known_dbl){ 0 };
		struct known_dbl ideal = { s->ideal_mbps > 0, s->ideal_mbps };
		table_set_known_dbl(t, i, 1, agg);
		table_set_known_dbl(t, i, 2, ideal);
		table_set_known_dbl(t, i, 3, (struct known_dbl){ ideal.known && agg.known,
								 100.0 * agg.v / s->ideal_mbps });
		table_set_known_dbl(t, i, 4, (struct known_dbl){ agg.known && prev.known, agg.v - prev.v });
	}
}

static size_t
planned_steps(const struct plan *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n_steps; i++)
		n += !p->steps[i].solo;
	return n;
}

static struct verdict *
sat(struct run_result *r, enum verdict_level lv, int knee, struct known_dbl ceil, const char *text)
{
	struct verdict *v = result_verdict(r, lv, "saturation", "%s", text);
	if (v) {
		v->knee_drives = knee;
		v->ceiling_mbps = ceil;
	}
	return v;
}

static int
saturate_finish(struct bench_ctx *c, struct run_result *r)
{
	const struct plan *p = c->plan;
	struct known_dbl ceil = p->ceiling_mbps;
	char t[768];
	if (p->link_downgraded && ceil.known) {
		struct verdict *v = result_verdict(r, VL_WARN, "link",
			"link trained at %s: %.0f MB/s ceiling — reseat the card or use a wider slot",
			p->link_text, ceil.v);
		if (v) {
			v->ceiling_mbps = ceil;
			v->problem = true;
		}
	}
	size_t worst, clean = 0;
	while (clean < r->n_steps && !stopped_target(&r->steps[clean]) &&
	       r->steps[clean].aggregate_mbps.known)
		clean++;	/* a knee is looked for where every drive ran to the end */
	size_t knee = find_knee(r->steps, clean, &worst);
	size_t judged = last_judged(r);
	bool ideal_known = judged > 0;
	char ctx[200] = "";
	if (p->shared_note[0])
		snprintf(ctx, sizeof(ctx), " (%s)", p->shared_note);
	struct verdict *v = NULL;
	if (r->n_steps == 0) {
		v = sat(r, VL_INFO, 0, ceil, "no step completed");
	} else if (knee) {
		/* saturated at the step before the knee (or at 1 drive when step 2 fell short) */
		size_t at = knee > 1 ? knee - 1 : 1;
		const struct step_result *s = &r->steps[at - 1];
		const struct step_result *k = &r->steps[knee - 1];
		int drives = (int)s->active.n;
		if (ceil.known) {
			double pct = 100.0 * s->aggregate_mbps.v / ceil.v;
			snprintf(t, sizeof(t), "saturates at %d drive%s, %.0f MB/s = %.0f %% of the %s link: %s%s",
				 drives, drives == 1 ? "" : "s", s->aggregate_mbps.v, pct, p->ceiling_text,
				 pct >= 80 ? "the link (slot) is the limit" : "the chip, not the slot, is the limit",
				 ctx);
		} else {
			snprintf(t, sizeof(t), "saturates at %d drive%s, %.0f MB/s (%u drives: %.0f MB/s = %.0f %% of the ideal %.0f MB/s); "
				 "link ceiling unknown%s",
				 drives, drives == 1 ? "" : "s", s->aggregate_mbps.v, k->index,
				 k->aggregate_mbps.v, 100.0 * k->aggregate_mbps.v / k->ideal_mbps, k->ideal_mbps, ctx);
		}
		v = sat(r, VL_INFO, drives, ceil, t);
		if (v)
			verdict_evidence(v, "%zu drives: %.0f MB/s, %.0f MB/s more than %zu (a drive alone adds %.0f)",
					 k->active.n, k->aggregate_mbps.v, k->aggregate_mbps.v - s->aggregate_mbps.v,
					 s->active.n, k->ideal_mbps - s->ideal_mbps);
	} else if (worst) {
		/* below ideal but still rising: say what was measured */
		size_t o = 0;
		for (size_t i = 0; i < r->n_steps && o < sizeof(t); i++) {
			char a[32];
			o += (size_t)snprintf(t + o, sizeof(t) - o, "%s%s", i ? ", " : "",
					      known_fmt_dbl(&r->steps[i].aggregate_mbps, "%.0f", "?", a, sizeof(a)));
		}
		const struct step_result *w = &r->steps[worst - 1];
		char full[1024];
		snprintf(full, sizeof(full), "uneven scaling: %s MB/s; %zu drives at %.0f %% of ideal%s", t,
			 w->active.n, 100.0 * w->aggregate_mbps.v / w->ideal_mbps, ctx);
		v = sat(r, VL_WARN, 0, ceil, full);
		const struct step_result *last = &r->steps[r->n_steps - 1];
		if (v && ceil.known && last->aggregate_mbps.known)
			verdict_evidence(v, "%zu drives: %.0f MB/s = %.0f %% of the %s link", last->active.n,
					 last->aggregate_mbps.v, 100.0 * last->aggregate_mbps.v / ceil.v, p->ceiling_text);
	} else if (ideal_known) {
		const struct step_result *s = &r->steps[judged - 1];
		if (ceil.known)
			snprintf(t, sizeof(t), "no saturation up to %zu drives: %.0f MB/s = %.0f %% of ideal, %.0f %% of the %s link%s",
				 s->active.n, s->aggregate_mbps.v, 100.0 * s->aggregate_mbps.v / s->ideal_mbps,
				 100.0 * s->aggregate_mbps.v / ceil.v, p->ceiling_text, ctx);
		else
			snprintf(t, sizeof(t), "no saturation up to %zu drives: %.0f MB/s = %.0f %% of ideal; link ceiling unknown%s",
				 s->active.n, s->aggregate_mbps.v, 100.0 * s->aggregate_mbps.v / s->ideal_mbps, ctx);
		const char *lost = judged < r->n_steps ? stopped_target(&r->steps[judged]) : NULL;
		if (judged < r->n_steps) {	/* a drive failed: say how far the curve goes */
			size_t o = strlen(t);
			snprintf(t + o, sizeof(t) - o, "; not judged beyond %zu drive%s: %s", s->active.n,
				 s->active.n == 1 ? "" : "s", lost ? lost : "no ideal for the next step");
		}
		v = sat(r, judged < r->n_steps ? VL_WARN : VL_PASS, 0, ceil, t);
	} else if (r->interrupted && r->n_steps < planned_steps(p)) {
		snprintf(t, sizeof(t), "interrupted after %zu of %zu steps, before scaling could be judged",
			 r->n_steps, planned_steps(p));
		v = sat(r, VL_INFO, 0, ceil, t);
	} else if (!r->steps[0].aggregate_mbps.known) {
		v = sat(r, VL_INFO, 0, ceil, "no step was measured");
	} else {
		snprintf(t, sizeof(t), "only one drive: no scaling to judge (%.0f MB/s)", r->steps[0].aggregate_mbps.v);
		v = sat(r, VL_INFO, 0, ceil, t);
	}
	scaling_table(r);
	estimate_finish(r);	/* the array these drives would make (no I/O) */
	bench_verdict_errors(p, r);
	return 0;
}

const struct bench_test bench_saturate = {
	.name = "saturate",
	.summary = "controller saturation: sequential reads on 1, 2, ... N drives at once",
	.writes = false,
	.by_port = true,
	.panels = PANEL_THROUGHPUT | PANEL_LATENCY | PANEL_SATURATION,
	.defaults = {
		.bs = 1 << 20, .qd = 8, .seconds = 10, .ramp_s = 2,
		.region_start = 0, .region_end = 1,
		.pattern = "seq", .data = "random", .rw_mix = 100,
	},
	.params = (const struct bench_param *const[]){ BENCH_XFER_PARAMS, NULL },
	.plan = saturate_plan,
	.state_size = sizeof(struct sat_state),
	.on_step = saturate_on_step,
	.finish = saturate_finish,
};
