/* triage-verdict.c - the triage test's verdicts: per drive its own
 * findings (unreadable extents, the rule that ended its job, a stalled
 * read), then the re-reads' (triage-confirm.c), the peers'
 * (triage-peers.c), SMART's and the self-tests' (triage-smart.c) and
 * write-verify's (triage-verify.c) parts; one row each in the triage table
 * and the summary. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "run/estimate.h"
#include "bench/triage-int.h"

int
triage_add_reason(char *buf, size_t n, const char *fmt, ...)
{
	size_t o = strlen(buf);
	if (o && o + 2 < n) {
		memcpy(buf + o, "; ", 3);
		o += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	if (o < n)
		vsnprintf(buf + o, n - o, fmt, ap);
	va_end(ap);
	return 0;
}


enum { C_TGT, C_CTRL, C_PORT, C_MODEL, C_SERIAL, C_SOLO, C_SHARED, C_SOLO_PCT, C_SHARED_PCT,
       C_EXT, C_SLOW, C_MAXMS, C_TEMP, C_REALLOC, C_PENDING, C_VERDICT, C_REASONS, C_RESUME, N_COLS };

static const struct result_col cols[N_COLS] = {
	{ "target", "Drive", COL_STR, "", 0 },
	{ "controller", "Controller", COL_STR, "", 0 },
	{ "port", "Port", COL_STR, "", 0 },
	{ "model", "Model", COL_STR, "", 0 },
	{ "serial", "Serial", COL_STR, "", 0 },
	{ "solo_mbps", "Solo", COL_DBL, "MB/s", 1 },
	{ "shared_mbps", "Shared", COL_DBL, "MB/s", 1 },
	{ "solo_peer_pct", "Solo/peers", COL_DBL, "%", 0 },
	{ "shared_peer_pct", "Shared/peers", COL_DBL, "%", 0 },
	{ "extents", "Unreadable", COL_INT, "", 0 },
	{ "slow_ranges", "Slow ranges", COL_INT, "", 0 },
	{ "max_read_ms", "Slowest read", COL_DBL, "ms", 0 },
	{ "temp_c", "Temp", COL_DBL, "C", 0 },
	/* SMART 5 and 197 after the run: the bench history's trend over re-tests */
	{ "reallocated", "Realloc", COL_INT, "", 0 },
	{ "pending", "Pending", COL_INT, "", 0 },
	{ "verdict", "Verdict", COL_STR, "", 0 },
	{ "reasons", "Reasons", COL_STR, "", 0 },
	{ "resume_from", "Resume LBA", COL_INT, "", 0 },	/* with --write-verify on only */
};

static const char *const level_word[] = { "INFO", "PASS", "WARN", "FAIL" };

/* The drive's row of the triage table. */
static int
table_row(struct bench_ctx *c, struct result_table *tb, size_t t, enum verdict_level lv, const char *why,
	  int64_t resume)
{
	struct tri_state *S = c->state;
	const struct tri_tgt *T = &S->t[t];
	const struct tri_io *io = tri_io_of(c, (unsigned)t);
	const struct target_ident *id = &c->plan->ident[t];
	if (table_add_row(tb))
		return -ENOMEM;
	size_t row = tb->n_rows - 1;
	table_set_str(tb, row, C_TGT, triage_name(c, t));
	if (id->controller[0])
		table_set_str(tb, row, C_CTRL, id->controller);
	if (id->port[0])
		table_set_str(tb, row, C_PORT, id->port);
	if (id->model[0])
		table_set_str(tb, row, C_MODEL, id->model);
	if (id->serial[0])
		table_set_str(tb, row, C_SERIAL, id->serial);
	table_set_known_dbl(tb, row, C_SOLO, T->solo);
	table_set_known_dbl(tb, row, C_SHARED, T->shared);
	table_set_known_dbl(tb, row, C_SOLO_PCT, T->solo_pct);
	table_set_known_dbl(tb, row, C_SHARED_PCT, T->shared_pct);
	if (T->scanned) {
		table_set_int(tb, row, C_EXT, (int64_t)(io->n_ext + io->ext_lost));
		table_set_int(tb, row, C_SLOW, (int64_t)T->n_conf);
	}
	table_set_known_dbl(tb, row, C_MAXMS, KNOWN_DBL_IF(io->max_lat_ns, (double)io->max_lat_ns / 1e6));
	const struct tri_snap *sn = S->after[t].temp_known ? &S->after[t] : &S->before[t];
	table_set_known_dbl(tb, row, C_TEMP, KNOWN_DBL_IF(sn->temp_known, sn->temp_c));
	const struct tri_snap *sa = S->after[t].smart ? &S->after[t] : &S->before[t];
	if (sa->smart && sa->attr[0].known)	/* triage_smart_ids[0] = 5 */
		table_set_int(tb, row, C_REALLOC, (int64_t)sa->attr[0].v);
	if (sa->smart && sa->attr[4].known)	/* [4] = 197 */
		table_set_int(tb, row, C_PENDING, (int64_t)sa->attr[4].v);
	table_set_str(tb, row, C_VERDICT, level_word[lv]);
	table_set_str(tb, row, C_REASONS, why[0] ? why : "-");
	if (S->wv && resume >= 0)
		table_set_int(tb, row, C_RESUME, resume);
	return 0;
}

/* The drive's own findings: its unreadable extents, the rule that ended
 * its job, a read past --stall. */
static void
judge_own(struct bench_ctx *c, size_t t, enum verdict_level *lv, char *why, size_t wn, struct strlist *ev,
	  char *first_fail, size_t fn)
{
	struct tri_state *S = c->state;
	struct tri_tgt *T = &S->t[t];
	struct tri_io *io = tri_io_of(c, (unsigned)t);
	unsigned lbs = c->targets[t].logical ? c->targets[t].logical : 512;
	double stall_s = plan_param_num(c->plan, "stall");
	char line[200];
	if (io->n_ext) {
		*lv = VL_FAIL;
		const struct surface_extent *x = &io->ext[0];
		triage_add_reason(why, wn, "unreadable at LBA %llu-%llu (%.3f GB)%s",
			   (unsigned long long)(x->start / lbs), (unsigned long long)((x->end - 1) / lbs),
			   (double)x->start / 1e9,
			   io->n_ext > 1 ? " and more" : "");
		if (!first_fail[0])
			snprintf(first_fail, fn, "%s unreadable at LBA %llu-%llu",
				 triage_name(c, t), (unsigned long long)(x->start / lbs),
				 (unsigned long long)((x->end - 1) / lbs));
		for (size_t e = 0; e < io->n_ext; e++) {
			triage_pin_line(io, e, lbs, line, sizeof(line));
			strlist_add(ev, line);
		}
		if (triage_pin_summary(io, line, sizeof(line)))
			strlist_add(ev, line);
		if (io->ext_lost) {
			snprintf(line, sizeof(line), "%llu more failed blocks not listed",
				 (unsigned long long)io->ext_lost);
			strlist_add(ev, line);
		}
	}
	/* the rule that ended its job, early in the line: the verdict's text is short */
	if (T->out) {
		*lv = VL_FAIL;
		triage_add_reason(why, wn, T->out_warm ? "not read: %s" : "stopped: %s", T->out_why);
		if (!first_fail[0])
			snprintf(first_fail, fn, "%s stopped: %.120s", triage_name(c, t), T->out_why);
	}
	if (io->max_lat_ns && (double)io->max_lat_ns / 1e9 > stall_s) {
		*lv = VL_FAIL;
		triage_add_reason(why, wn, "a read stalled %.1f s at LBA %llu (%.3f GB) (limit %.1f s)",
				  (double)io->max_lat_ns / 1e9, (unsigned long long)(io->max_lat_off / lbs),
				  (double)io->max_lat_off / 1e9, stall_s);
		if (!first_fail[0])
			snprintf(first_fail, fn, "%s stalled %.1f s", triage_name(c, t),
				 (double)io->max_lat_ns / 1e9);
	}
}

/* One drive's verdict (its findings, the re-reads, the peers, SMART, the
 * self-tests, write-verify), with its evidence and its table row. */
static int
judge_drive(struct bench_ctx *c, struct run_result *r, struct result_table *tb, size_t t, size_t cnt[4],
	    char *first_fail, size_t fn)
{
	struct tri_state *S = c->state;
	const struct plan *p = c->plan;
	struct tri_tgt *T = &S->t[t];
	struct tri_io *io = tri_io_of(c, (unsigned)t);
	unsigned lbs = c->targets[t].logical ? c->targets[t].logical : 512;
	enum verdict_level lv = VL_PASS;
	char why[512] = "";
	struct strlist ev = { 0 };
	judge_own(c, t, &lv, why, sizeof(why), &ev, first_fail, fn);
	triage_confirm_judge(c, t, &lv, why, sizeof(why), &ev);
	triage_peer_judge(c, t, &lv, why, sizeof(why), &ev);
	triage_smart_judge(&S->before[t], &S->after[t], S->t[t].temp_peak, plan_param_num(p, "max-temp"),
			   plan_param_str(p, "new-sectors"), &lv, why, sizeof(why), &ev);
	struct tri_health_rules hr = {
		.max_temp = plan_param_num(p, "max-temp"), .max_wear = plan_param_num(p, "max-wear"),
		.optional = !strcmp(plan_param_str(p, "health-optional"), "on"),
	};
	snprintf(hr.critical, sizeof(hr.critical), "%s", plan_param_str(p, "nvme-critical"));
	snprintf(hr.spare, sizeof(hr.spare), "%s", plan_param_str(p, "nvme-spare"));
	snprintf(hr.media, sizeof(hr.media), "%s", plan_param_str(p, "nvme-media-errors"));
	snprintf(hr.defects, sizeof(hr.defects), "%s", plan_param_str(p, "scsi-defects"));
	snprintf(hr.uncorrected, sizeof(hr.uncorrected), "%s", plan_param_str(p, "scsi-errors"));
	snprintf(hr.ie, sizeof(hr.ie), "%s", plan_param_str(p, "scsi-ie"));
	hr.max_defects = plan_param_num(p, "max-grown-defects");
	triage_health_judge(&S->before[t], &S->after[t], &hr, &lv, why, sizeof(why), &ev);
	triage_wear_evidence(&S->before[t], &S->after[t], &ev);
	{
		const struct tri_snap *fs = S->after[t].taken ? &S->after[t] : &S->before[t];
		triage_format_judge(fs->fmt, &fs->block_bytes, &c->targets[t].facts.capacity, c->targets[t].name,
				    fs->sg_node, &lv, why, sizeof(why), &ev);
	}
	triage_selftest_judge(&S->before[t], &S->after[t], lbs, &lv, why, sizeof(why), &ev);
	triage_selftest_run_judge(c, t, &lv, why, sizeof(why), &ev);
	triage_prov_judge(&S->before[t], plan_param_str(p, "provenance"), &lv, why, sizeof(why), &ev);
	int64_t resume = triage_wv_judge(c, t, r->interrupted, &lv, why, sizeof(why), &ev, first_fail, fn);
	if (io->oom)
		strlist_add(&ev, "out of memory: the slow-range search saw part of the curve");
	if (T->stopped && !T->out) {	/* a rule's stop is said once, by the rule */
		lv = VL_FAIL;
		triage_add_reason(why, sizeof(why), "its read stopped early%s%s", T->note[0] ? ": " : "", T->note);
	}
	if ((!T->scanned && !T->out) || r->interrupted) {
		triage_raise(&lv, VL_WARN);
		triage_add_reason(why, sizeof(why), !r->interrupted ? "the read test did not run" : T->scanned
				  ? "the run was stopped before the end" : "the run was stopped: the read test did not finish");
	}
	cnt[lv]++;
	struct verdict *v = result_verdict(r, lv, "triage", "%s: %s%s%s", triage_name(c, t), level_word[lv],
					   why[0] ? ": " : "", why);
	for (size_t e = 0; v && e < ev.n; e++)
		verdict_evidence(v, "%s", ev.v[e]);
	strlist_free(&ev);
	return table_row(c, tb, t, lv, why, resume);
}

int
triage_finish(struct bench_ctx *c, struct run_result *r)
{
	struct tri_state *S = c->state;
	const struct plan *p = c->plan;
	if (!S->done)	/* stopped before the first step ended: nothing measured */
		for (size_t t = 0; t < PLAN_MAX_TARGETS; t++)
			S->t[t].solo = S->t[t].shared = (struct known_dbl){ 0 };
	triage_snapshot(p, c->targets, c->n_targets, true, S->after);
	struct result_table *tb = result_table_add(r, "triage", "Bench triage: one row per drive", cols,
							S->wv ? N_COLS : N_COLS - 1);
	if (!tb)
		return -ENOMEM;
	size_t cnt[4] = { 0 };
	char first_fail[200] = "";
	for (size_t t = 0; t < c->n_targets; t++)	/* every drive's findings before the peer rule */
		triage_confirm_classify(c, t);
	for (size_t t = 0; t < c->n_targets; t++)
		if (judge_drive(c, r, tb, t, cnt, first_fail, sizeof(first_fail)))
			return -ENOMEM;
	if (triage_health_table(c, r))
		return -ENOMEM;
	struct verdict *sum = result_verdict(r, VL_INFO, "summary", "%zu drives: %zu pass, %zu warn, %zu fail%s%s%s",
		       c->n_targets, cnt[VL_PASS], cnt[VL_WARN], cnt[VL_FAIL], first_fail[0] ? ": " : "", first_fail,
		       r->interrupted ? " (stopped before the end)" : "");
	if (sum)
		sum->tally = true;	/* the tally of the drives, not one drive's verdict */
	bench_verdict_errors(p, r);
	estimate_finish(r);	/* the array these drives would make, from their solo rates */
	for (size_t t = 0; t < c->n_targets; t++) {
		triage_snap_free(&S->before[t]);
		triage_snap_free(&S->after[t]);
		triage_snap_free(&S->tick[t]);
		free(tri_io_of(c, (unsigned)t)->pt);	/* a run stopped in the shared pass */
		tri_io_of(c, (unsigned)t)->pt = NULL;
		triage_pin_free(tri_io_of(c, (unsigned)t));
	}
	return 0;
}
