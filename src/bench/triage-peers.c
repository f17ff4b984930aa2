/* triage-peers.c - the peer rule: each drive's rate alone and together set
 * against a reference of its peer group (same model, else same size) that
 * the group's findings cannot drag.
 *
 * The reference of a group and a measure (alone or together) is the median
 * rate of its drives that are clean: measured, and without a finding of
 * their reads: not stopped by a rule (--max-bad, --stall, --fail-below,
 * --max-temp) nor ended early, no unreadable block, no failed write or
 * mismatch, no read past --stall, no slow range that stayed slow on
 * re-reading (an unconfirmed candidate is no finding).  SMART counts,
 * temperature and links are not read findings and do not exclude.  Alone,
 * the bench history's drives of the model count as clean drives too (each
 * one's best finished seqread or surface, measured before by construction;
 * drives on the bench now never, by serial).  Of those, a drive under
 * --slow-below % of their median (one cut, no repeat) is a slow curve and
 * left out too, so three weak units of six do not pull it down.  At least
 * TRI_PEER_MIN drives must remain (the judged drive counts when it is
 * clean, history drives count), else the rule is skipped with the reason.
 *
 * A drive's own rate for the rule leaves out the time its failed reads
 * took (the union of their submit-to-completion spans in that step), so an
 * unreadable block that cost seconds of retries is a FAIL of its own and
 * not also SLOW. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench/triage-int.h"

static bool
peers(const struct bench_ctx *c, size_t a, size_t b)
{
	const struct target_ident *x = &c->plan->ident[a], *y = &c->plan->ident[b];
	if (x->model[0] || y->model[0])
		return !strcmp(x->model, y->model);
	return c->targets[a].size == c->targets[b].size;
}

/* The bench history's rates of t's model, once: the drives on the bench
 * now (by serial) are left out, they are compared live. */
static void
hist_fetch(const struct bench_ctx *c, size_t t)
{
	struct tri_state *S = c->state;
	struct tri_tgt *T = &S->t[t];
	if (T->hist_asked)
		return;
	T->hist_asked = true;
	const char *model = c->plan->ident[t].model;
	if (!c->plan->history_rates || !model[0])
		return;
	struct strlist skip = { 0 };
	for (size_t j = 0; j < c->n_targets; j++)
		if (c->plan->ident[j].serial[0])
			strlist_add(&skip, c->plan->ident[j].serial);
	if (c->plan->history_rates(model, &skip, T->hist, TRI_HIST_MAX, &T->n_hist))
		T->n_hist = 0;	/* no history: the bench's own peers only */
	strlist_free(&skip);
}

void
triage_peer_rate(struct bench_ctx *c, unsigned t, int m, const struct target_result *tr)
{
	struct tri_tgt *T = &((struct tri_state *)c->state)->t[t];
	const struct tri_io *io = tri_io_of(c, t);
	struct known_dbl mbps = KNOWN_DBL_IF(tr->ios, tr->mbps);
	/* reads in flight at the end of the measured span were all issued in
	 * it: the union's part past it is one piece, from its end to the last */
	double past = (double)io->fail_end[m] / 1e9 - tr->seconds;
	double left = (double)io->fail_ns[m] / 1e9 - (past > 0 ? past : 0);
	left = left > 0 ? left : 0;
	double s = tr->seconds - left;
	T->left_n[m] = io->fail_n[m];
	T->left_s[m] = left;
	T->net[m] = !io->fail_n[m] ? mbps : KNOWN_DBL_IF(tr->ios && s > 0, (double)tr->bytes / s / 1e6);
}

/* The rate the rule judges (m 0 alone, 1 together), unknown when a rule
 * cut its read short (one left out by --fail-below keeps its rate alone). */
static struct known_dbl
rate_of(const struct bench_ctx *c, size_t j, int m)
{
	const struct tri_tgt *T = &((const struct tri_state *)c->state)->t[j];
	if (T->out && (m || !T->out_slow))
		return (struct known_dbl){ 0 };
	return KNOWN_DBL_IF(T->net[m].known && isfinite(T->net[m].v) && T->net[m].v > 0, T->net[m].v);
}

/* What keeps drive j out of a reference, NULL nothing. */
static const char *
finding(const struct bench_ctx *c, size_t j)
{
	const struct tri_tgt *T = &((const struct tri_state *)c->state)->t[j];
	const struct tri_io *io = tri_io_of((struct bench_ctx *)c, (unsigned)j);
	if (T->out || io->ruled)
		return "stopped by a rule";
	if (T->stopped)
		return "its read ended early";
	if (io->n_ext || io->ext_lost)
		return "unreadable blocks";
	if (io->n_werr || io->mis_blocks)
		return "bad writes";
	if (io->stall_ns && io->max_lat_ns > io->stall_ns)
		return "a stalled read";
	if (T->n_conf)
		return "a slow range";
	return NULL;
}

static void
add_name(char *buf, size_t n, const char *fmt, const char *name, const char *what)
{
	size_t o = strlen(buf);
	if (o + 2 < n && o)
		o += (size_t)snprintf(buf + o, n - o, ", ");
	if (o < n)
		snprintf(buf + o, n - o, fmt, name, what);
}

void
triage_peer_ref(const struct bench_ctx *c, size_t t, int m, struct tri_ref *ref)
{
	const struct tri_state *S = c->state;
	double v[PLAN_MAX_TARGETS + TRI_HIST_MAX], w[PLAN_MAX_TARGETS + TRI_HIST_MAX];
	size_t from[PLAN_MAX_TARGETS + TRI_HIST_MAX], n = 0;
	memset(ref, 0, sizeof(*ref));	/* the median unknown */
	for (size_t j = 0; j < c->n_targets; j++) {
		if (!peers(c, t, j))
			continue;
		ref->n_group += j != t;
		struct known_dbl r = rate_of(c, j, m);
		const char *f = finding(c, j);
		if (r.known && f) {
			add_name(ref->left, sizeof(ref->left), "%s (%s)", triage_name(c, j), f);
		} else if (r.known) {
			from[n] = j;
			v[n++] = r.v;
		}
	}
	if (!m && c->plan->ident[t].model[0]) {	/* the history holds no shared rates */
		hist_fetch(c, t);
		for (size_t k = 0; k < S->t[t].n_hist; k++)
			if (isfinite(S->t[t].hist[k]) && S->t[t].hist[k] > 0) {
				ref->n_group++;
				from[n] = SIZE_MAX;
				v[n++] = S->t[t].hist[k];
			}
	}
	memcpy(w, v, n * sizeof(*v));
	double cut = plan_param_num(c->plan, "slow-below") / 100.0 * dbl_median(w, n);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < cut) {
			if (from[i] != SIZE_MAX)
				add_name(ref->left, sizeof(ref->left), "%s (%s)", triage_name(c, from[i]),
					 "slow: under --slow-below of the others' median");
			continue;
		}
		from[k] = from[i];
		v[k++] = v[i];
		if (from[i] == SIZE_MAX) {
			ref->n_hist++;
		} else {
			ref->n_bench++;
			add_name(ref->names, sizeof(ref->names), "%s%s", triage_name(c, from[i]), "");
		}
	}
	ref->n = k;
	if (k < TRI_PEER_MIN) {
		snprintf(ref->why, sizeof(ref->why), "%zu drive%s of its %s without findings%s%s%s, at least %d "
			 "needed%s%s", k, k == 1 ? "" : "s", c->plan->ident[t].model[0] ? "model" : "size",
			 ref->names[0] ? " (" : "", ref->names, ref->names[0] ? ")" : "", TRI_PEER_MIN,
			 ref->left[0] ? "; left out: " : "", ref->left);
		return;
	}
	ref->median = known_dbl_of(dbl_median(v, k));
}

struct known_dbl
triage_peer_pct(const struct bench_ctx *c, size_t t, int m, struct tri_ref *ref)
{
	triage_peer_ref(c, t, m, ref);
	struct known_dbl me = rate_of(c, t, m);
	return KNOWN_DBL_IF(me.known && ref->median.known, 100.0 * me.v / ref->median.v);
}

/* The verdict's part: both rates against their references, the rules
 * (--fail-below, --slow-below, --fast-above), what was left out. */
void
triage_peer_judge(struct bench_ctx *c, size_t t, enum verdict_level *lv, char *why, size_t wn,
		  struct strlist *ev)
{
	struct tri_tgt *T = &((struct tri_state *)c->state)->t[t];
	double slow_below = plan_param_num(c->plan, "slow-below");
	double fast_above = plan_param_num(c->plan, "fast-above");
	double fail_below = plan_param_num(c->plan, "fail-below");
	static const char *const which[2] = { "alone", "together" };
	struct tri_ref R[2];
	struct known_dbl pk[2];
	double pct[2];
	for (int m = 0; m < 2; m++) {
		pk[m] = triage_peer_pct(c, t, m, &R[m]);
		pct[m] = pk[m].v;
	}
	T->solo_pct = pk[0];
	T->shared_pct = pk[1];
	if (!R[0].n_group && !R[1].n_group) {
		strlist_add(ev, "no peers (no other drive of this model or size): no peer comparison");
		return;
	}
	bool both = !pk[0].known && !pk[1].known && rate_of(c, t, 0).known &&
		    rate_of(c, t, 1).known && !strcmp(R[0].why, R[1].why);
	for (int m = 0; m < 2; m++) {
		struct known_dbl mk = rate_of(c, t, m);
		double me = mk.v;
		if (T->left_n[m] && mk.known)
			strlist_addf(ev, "%s: its %llu failed read%s took %.1f s, left out of its rate for the peer "
				     "rule (%.1f MB/s with %s)", which[m], (unsigned long long)T->left_n[m],
				     T->left_n[m] == 1 ? "" : "s", T->left_s[m], m ? T->shared.v : T->solo.v,
				     T->left_n[m] == 1 ? "it" : "them");
		if (!mk.known || (both && m))
			continue;
		if (!pk[m].known) {
			strlist_addf(ev, "peer rule skipped %s: %s", both ? "alone and together" : which[m], R[m].why);
			continue;
		}
		strlist_addf(ev, "%s: %.1f MB/s, %.0f %% of its peers' median (%zu on the bench, %zu from the bench "
			     "history); the reference: %.1f MB/s, the median of the drives without findings%s%s%s%s%s",
			     which[m], me, pct[m], R[m].n_bench, R[m].n_hist, R[m].median.v, R[m].names[0] ? " (" : "",
			     R[m].names, R[m].names[0] ? ")" : "", R[m].left[0] ? "; left out: " : "", R[m].left);
		if (fail_below > 0 && pct[m] < fail_below) {
			*lv = VL_FAIL;
			if (!m && T->out_slow)
				continue;	/* said by its "stopped" reason */
			triage_add_reason(why, wn, "SLOW %s: %.0f %% of its peers (%.1f MB/s) (--fail-below %.0f %%)",
					  which[m], pct[m], me, fail_below);
		} else if (pct[m] < slow_below) {
			if (*lv < VL_WARN)
				*lv = VL_WARN;
			triage_add_reason(why, wn, "SLOW %s: %.0f %% of its peers (%.1f MB/s)", which[m], pct[m], me);
		} else if (pct[m] > fast_above) {
			triage_add_reason(why, wn, "FAST %s: %.0f %% of its peers", which[m], pct[m]);
		}
	}
}
