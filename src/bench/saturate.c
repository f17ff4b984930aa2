/* saturate.c - controller saturation: sequential reads on 1, 2, ... N drives
 * at once.  The ideal line is the sum of each active drive's solo rate: the
 * first drive's comes from step 1 (it runs alone there); every other drive
 * gets a short solo pass up front (min(3 s, step time)), because its solo
 * rate is never measured by the sweep itself and drives differ (outer-zone
 * speed, firmware).  The knee is the first step whose aggregate falls below
 * 90 % of ideal; the controller saturates at the step before it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include "bench/bench.h"

#define SOLO_MAX_S 3.0
#define KNEE_FRACTION 0.9

static int
saturate_build(struct plan *p, char *err, size_t errlen)
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
	}
	for (unsigned k = 1; k <= n; k++) {
		int rc = plan_add_step(p, NULL, k, secs, ramp);
		if (rc)
			return rc;
	}
	return 0;
}

static void
saturate_verdict(const struct plan *p, struct run_result *r)
{
	double ceil = p->ceiling_mbps;
	if (p->link_downgraded && ceil > 0)
		result_add_verdict(r, "link", 0, ceil,
			"link trained at %s: %.0f MB/s ceiling — reseat the card or use a wider slot",
			p->link_text, ceil);
	/* knee: first step below 90 % of ideal */
	size_t knee = 0;
	bool ideal_known = false;
	for (size_t i = 0; i < r->n_steps; i++) {
		const struct step_result *s = &r->steps[i];
		if (s->ideal_mbps <= 0)
			continue;
		ideal_known = true;
		if (s->aggregate_mbps < KNEE_FRACTION * s->ideal_mbps) {
			knee = i + 1;
			break;
		}
	}
	char ctx[200] = "";
	if (p->shared_note[0])
		snprintf(ctx, sizeof(ctx), " (%s)", p->shared_note);
	if (r->n_steps == 0) {
		result_add_verdict(r, "saturation", 0, ceil, "no step completed");
	} else if (knee) {
		/* saturated at the step before the knee (or at 1 drive when step 2 fell short) */
		size_t sat = knee > 1 ? knee - 1 : 1;
		const struct step_result *s = &r->steps[sat - 1];
		const struct step_result *k = &r->steps[knee - 1];
		int drives = (int)s->active.n;
		if (ceil > 0) {
			double pct = 100.0 * s->aggregate_mbps / ceil;
			result_add_verdict(r, "saturation", drives, ceil,
				"saturates at %d drive%s, %.0f MB/s = %.0f %% of the %s link: %s%s",
				drives, drives == 1 ? "" : "s", s->aggregate_mbps, pct, p->ceiling_text,
				pct >= 80 ? "the link (slot) is the limit" : "the chip, not the slot, is the limit",
				ctx);
		} else {
			result_add_verdict(r, "saturation", drives, 0,
				"saturates at %d drive%s, %.0f MB/s (%u drives: %.0f MB/s = %.0f %% of the ideal %.0f MB/s); "
				"link ceiling unknown%s",
				drives, drives == 1 ? "" : "s", s->aggregate_mbps, k->index,
				k->aggregate_mbps, 100.0 * k->aggregate_mbps / k->ideal_mbps, k->ideal_mbps, ctx);
		}
	} else if (ideal_known) {
		const struct step_result *s = &r->steps[r->n_steps - 1];
		if (ceil > 0)
			result_add_verdict(r, "saturation", 0, ceil,
				"no saturation up to %zu drives: %.0f MB/s = %.0f %% of ideal, %.0f %% of the %s link%s",
				s->active.n, s->aggregate_mbps, 100.0 * s->aggregate_mbps / s->ideal_mbps,
				100.0 * s->aggregate_mbps / ceil, p->ceiling_text, ctx);
		else
			result_add_verdict(r, "saturation", 0, 0,
				"no saturation up to %zu drives: %.0f MB/s = %.0f %% of ideal; link ceiling unknown%s",
				s->active.n, s->aggregate_mbps, 100.0 * s->aggregate_mbps / s->ideal_mbps, ctx);
	} else if (r->interrupted && r->n_steps < p->n_steps) {
		result_add_verdict(r, "saturation", 0, ceil,
			"interrupted after %zu of %zu steps, before scaling could be judged",
			r->n_steps, p->n_steps);
	} else if (!isfinite(r->steps[0].aggregate_mbps)) {
		result_add_verdict(r, "saturation", 0, ceil, "no step was measured");
	} else {
		result_add_verdict(r, "saturation", 0, ceil,
			"only one drive: no scaling to judge (%.0f MB/s)", r->steps[0].aggregate_mbps);
	}
	bench_verdict_errors(p, r);
}

const struct bench_test bench_saturate = {
	.name = "saturate",
	.summary = "controller saturation: sequential reads on 1, 2, ... N drives at once",
	.writes = false,
	.defaults = {
		.bs = 1 << 20, .qd = 8, .seconds = 10, .ramp_s = 2,
		.region_start = 0, .region_end = 1,
		.pattern = "seq", .data = "random", .rw_mix = 100,
	},
	.build = saturate_build,
	.verdict = saturate_verdict,
};
