/* triage-confirm.c - a slow range of the shared pass is a candidate until
 * it is re-read: its first TRI_CF_BLOCKS blocks and as many beside it, in
 * turn, TRI_CF_PASSES times each (one step each, one drive per step); the
 * fastest pass of each counts.  Every candidate of every drive is re-read,
 * in turn, while the drive's re-reads have taken less than
 * --confirm-budget (their steps' measured time; checked before each step,
 * so it is overrun by one step at most).  Only a range that stays under
 * TRI_CF_FRACTION of the blocks beside it counts (WARN); one that reads at
 * speed is said to be noise; one never re-read in full (the budget ran
 * out, the drive was stopped, too many steps) is listed as unconfirmed,
 * information only. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench/triage-int.h"

enum { CF_UNCONFIRMED, CF_SLOW, CF_NOT_SLOW };

static bool
over_ext(const struct tri_io *io, uint64_t a, uint64_t b)
{
	for (size_t i = 0; i < io->n_ext; i++)
		if (a < io->ext[i].end && b > io->ext[i].start)
			return true;
	return false;
}

/* Candidate i of drive t: its re-read span [*a, *a + *len), the span beside
 * it (*beside, UINT64_MAX none), and how many steps its re-reading takes. */
static unsigned
cf_span(const struct bench_ctx *c, unsigned t, size_t i, uint64_t *a, uint64_t *len, uint64_t *beside)
{
	const struct surface_slow *w = &((const struct tri_state *)c->state)->t[t].slow[i];
	uint32_t bs = c->plan->params.bs ? c->plan->params.bs : 1u << 20;
	uint64_t size = c->targets[t].size;
	*a = w->start;
	*len = w->end - w->start;
	if (*len > (uint64_t)TRI_CF_BLOCKS * bs)
		*len = (uint64_t)TRI_CF_BLOCKS * bs;
	/* not over an unreadable extent: its failed reads would cost a retry
	 * each on a real drive, and widen the pinned extent back */
	const struct tri_io *io = (const struct tri_io *)c->io_state + t;
	if (w->start >= *len && !over_ext(io, w->start - *len, w->start))
		*beside = w->start - *len;
	else if (w->end + *len <= size && !over_ext(io, w->end, w->end + *len))
		*beside = w->end;
	else
		*beside = UINT64_MAX;
	return *beside == UINT64_MAX ? TRI_CF_PASSES : 2 * TRI_CF_PASSES;
}

/* One re-read step of drive t over [a, b) (bytes). */
static int
add_confirm(struct bench_ctx *c, unsigned t, uint64_t a, uint64_t b, int arg, const char *label)
{
	struct tri_state *S = c->state;
	struct plan *p = c->plan;
	unsigned lbs = tri_io_of(c, t)->lbs ? tri_io_of(c, t)->lbs : 512;
	if (S->n_kind >= TRI_MAX_STEPS - 1)
		return -E2BIG;
	struct run_params rp = triage_reread_rp(p);
	rp.region_lba = true;
	rp.region_lba_start = a / lbs;
	rp.region_lba_end = (b + lbs - 1) / lbs;
	struct plan_step *st;
	int rc = plan_add_step_params(p, &t, 1, &rp, label, &st);
	if (rc)
		return rc;
	st->max_consec_errors = TRI_ERR_LIMIT;
	S->cf_arg[S->n_kind] = (short)arg;
	S->kind[S->n_kind++] = TK_CONFIRM;
	/* what the step measures: one pass, for its one drive */
	struct tri_io *io = tri_io_of(c, t);
	io->phase = TP_CONFIRM;
	io->cf_bytes = io->cf_lat_ns = io->cf_last = 0;
	io->cf_n = 0;
	io->cf_best = 0;
	return 0;
}

/* Append the next re-read step (drive by drive, candidate by candidate);
 * false when none is left.  Called when every planned step has run. */
bool
triage_confirm_next(struct bench_ctx *c)
{
	struct tri_state *S = c->state;
	double budget = plan_param_num(c->plan, "confirm-budget");
	for (; S->cf_t < c->n_targets; S->cf_t++, S->cf_i = S->cf_k = 0) {
		unsigned t = S->cf_t;
		struct tri_tgt *T = &S->t[t];
		if (S->cf_i >= T->n_slow)
			continue;
		if (T->out) {
			char o[sizeof(T->out_why)];
			memcpy(o, T->out_why, sizeof(o));
			snprintf(T->cf_cut, sizeof(T->cf_cut), "the drive was stopped: %s", o);
			continue;
		}
		if (budget > 0 && T->cf_spent >= budget) {
			snprintf(T->cf_cut, sizeof(T->cf_cut), "the re-read budget ran out (--confirm-budget %g s)",
				 budget);
			continue;
		}
		uint64_t a, len, beside;
		unsigned need = cf_span(c, t, S->cf_i, &a, &len, &beside);
		bool side = need > TRI_CF_PASSES && S->cf_k % 2;
		char lab[48];
		snprintf(lab, sizeof(lab), "confirm slow at %.1f GB", (double)a / 1e9);
		int rc = side ? add_confirm(c, t, beside, beside + len, (int)(2 * S->cf_i + 1), "beside it")
			      : add_confirm(c, t, a, a + len, (int)(2 * S->cf_i), lab);
		if (rc) {
			snprintf(T->cf_cut, sizeof(T->cf_cut), "no room for more re-read steps (%d in all)",
				 TRI_MAX_STEPS);
			continue;
		}
		if (++S->cf_k == need) {
			S->cf_i++;
			S->cf_k = 0;
		}
		return true;
	}
	return false;
}

/* A re-read step of drive t ended (plan step i): its fastest pass, its time. */
void
triage_confirm_done(struct bench_ctx *c, size_t i, unsigned t, const struct target_result *tr)
{
	struct tri_state *S = c->state;
	struct tri_tgt *T = &S->t[t];
	struct tri_io *io = tri_io_of(c, t);
	int arg = S->cf_arg[i];
	if (io->cf_lat_ns) {	/* the last pass */
		double r = (double)io->cf_bytes / ((double)io->cf_lat_ns / 1e9) / 1e6;
		io->cf_best = r > io->cf_best ? r : io->cf_best;
	}
	if (tr->seconds > 0)
		T->cf_spent += tr->seconds;
	if (arg < 0 || (size_t)arg / 2 >= T->n_slow)
		return;
	T->cf_done[arg / 2]++;
	if (io->cf_best > 0) {
		struct surface_slow *w = &T->slow[arg / 2];
		struct known_dbl *dst = arg % 2 ? &w->control_mbps : &w->confirm_mbps;
		if (!(dst->known && dst->v >= io->cf_best))
			*dst = known_dbl_of(io->cf_best);
	}
}

/* Each candidate of drive t: slow, not slow, or unconfirmed; T->n_conf the
 * slow ones (the findings the peer rule and the verdict count). */
void
triage_confirm_classify(struct bench_ctx *c, size_t t)
{
	struct tri_tgt *T = &((struct tri_state *)c->state)->t[t];
	T->n_conf = 0;
	for (size_t k = 0; k < T->n_slow; k++) {
		const struct surface_slow *w = &T->slow[k];
		uint64_t a, len, beside;
		unsigned need = cf_span(c, (unsigned)t, k, &a, &len, &beside);
		double ref = w->control_mbps.known ? w->control_mbps.v : w->trend_mbps;
		if (T->cf_done[k] < need)
			T->cf_state[k] = CF_UNCONFIRMED;
		else if (w->confirm_mbps.known && w->confirm_mbps.v < TRI_CF_FRACTION * ref)
			T->cf_state[k] = CF_SLOW;
		else
			T->cf_state[k] = CF_NOT_SLOW;
		T->n_conf += T->cf_state[k] == CF_SLOW;
	}
}

/* The verdict's part (after triage_confirm_classify): WARN on a range that
 * stayed slow, the first in the reasons; every candidate in the evidence. */
void
triage_confirm_judge(struct bench_ctx *c, size_t t, enum verdict_level *lv, char *why, size_t wn,
		     struct strlist *ev)
{
	struct tri_tgt *T = &((struct tri_state *)c->state)->t[t];
	unsigned lbs = c->targets[t].logical ? c->targets[t].logical : 512;
	size_t said = 0, n_uncf = 0;
	for (size_t k = 0; k < T->n_slow; k++) {
		const struct surface_slow *w = &T->slow[k];
		unsigned long long la = w->start / lbs, lb = (w->end - 1) / lbs;
		double ref = w->control_mbps.known ? w->control_mbps.v : w->trend_mbps;
		char cf[32];
		known_fmt_dbl(&w->confirm_mbps, "%.1f", "?", cf, sizeof(cf));
		if (T->cf_state[k] == CF_NOT_SLOW) {
			strlist_addf(ev, "not slow on re-reading: LBA %llu-%llu read %.1f MB/s in the pass, %s "
				     "re-read against %.1f beside it", la, lb, w->mbps, cf, ref);
			continue;
		}
		if (T->cf_state[k] == CF_UNCONFIRMED) {
			n_uncf++;
			strlist_addf(ev, "info: slow range candidate LBA %llu-%llu, %.1f MB/s against %.1f in the "
				     "pass: not re-read in full, not judged", la, lb, w->mbps, w->trend_mbps);
			continue;
		}
		if (!said++)
			triage_add_reason(why, wn, "slow range LBA %llu-%llu (%.3f-%.3f GB) at %.1f MB/s against "
					  "%.1f around it%s", la, lb, (double)w->start / 1e9, (double)w->end / 1e9,
					  w->mbps, w->trend_mbps, T->n_conf > 1 ? " and more" : "");
		strlist_addf(ev, "slow range: LBA %llu-%llu, %.1f MB/s against %.1f; re-read %s against %.1f "
			     "beside it", la, lb, w->mbps, w->trend_mbps, cf, ref);
	}
	if (T->slow_found > T->n_slow)
		strlist_addf(ev, "info: %zu more slow range candidates past the first %d, not re-read, not judged",
			     T->slow_found - T->n_slow, TRI_MAX_SLOW);
	if (T->n_slow)
		strlist_addf(ev, "re-reading: %zu of %zu candidates re-read in %.1f s, %zu stayed slow, %zu "
			     "unconfirmed%s%s", T->n_slow - n_uncf, T->n_slow, T->cf_spent, T->n_conf, n_uncf,
			     n_uncf ? ": " : "", !n_uncf ? "" : T->cf_cut[0] ? T->cf_cut : "not re-read");
	if (T->n_conf && *lv < VL_WARN)
		*lv = VL_WARN;
}
