/* triage-verify.c - triage's --write-verify on: after the read pass, every
 * drive still in the running writes a pattern (run/pattern.h: each 512-byte
 * sector carries its LBA and this run's seed) over its span and reads it
 * back, in up to TRI_WV_CHUNKS rounds of "write a chunk, read it back", all
 * drives at once.  Rounds keep the part written but not yet checked small:
 * an interrupted run says where to resume (--from), and nothing before that
 * is left unchecked.  The guard opened every target for writing (the plan
 * sets topts.write), so an unconfirmed drive was refused before any I/O. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "bench/triage-int.h"
#include "run/pattern.h"
#include "util/util.h"

#define TRI_WV_ERR_LIMIT (1u << 20)	/* failed blocks in a row before a worker gives up */

bool
triage_wv_on(const struct plan *p)
{
	return !strcmp(plan_param_str(p, "write-verify"), "on");
}

int
triage_wv_plan(struct plan *p, char *err, size_t errlen)
{
	bool from = plan_param_num(p, "from") > 0;
	if (!triage_wv_on(p)) {
		if (from) {
			snprintf(err, errlen, "triage: --from is where --write-verify on starts; it is off");
			return -EINVAL;
		}
		return 0;
	}
	/* the same LBAs on every drive: a percentage names other bytes on
	 * drives of other sizes */
	if (!p->region_lba && (p->params.region_start > 0 || p->params.region_end < 1)) {
		snprintf(err, errlen, "triage: --write-verify on takes --region in LBAs (START:END), not in %%");
		return -EINVAL;
	}
	return 0;
}

int
triage_wv_before(struct bench_ctx *c, char *err, size_t errlen)
{
	struct tri_state *S = c->state;
	const struct plan *p = c->plan;
	S->wv = triage_wv_on(p);
	if (!S->wv)
		return 0;
	uint64_t from = (uint64_t)plan_param_num(p, "from");
	unsigned lbs0 = 0;
	S->wv_lo = UINT64_MAX;
	S->wv_hi = 0;
	for (size_t t = 0; t < c->n_targets; t++) {
		const struct target *tg = &c->targets[t];
		unsigned lbs = tg->logical ? tg->logical : 512;
		unsigned al = tg->offset_align > lbs ? tg->offset_align : lbs;
		if (lbs0 && lbs != lbs0) {
			snprintf(err, errlen, "triage: --write-verify on: %s has %u-byte sectors, %s %u: "
				 "verify drives of one sector size together", tg->name, lbs, c->targets[0].name, lbs0);
			return -EINVAL;
		}
		lbs0 = lbs;
		uint64_t s = p->region_lba ? p->region_lba_start * lbs : 0;
		uint64_t e = p->region_lba && p->region_lba_end ? p->region_lba_end * lbs : tg->size;
		if (e > tg->size)
			e = tg->size;
		if (from > UINT64_MAX / lbs || from * lbs > s)
			s = from > UINT64_MAX / lbs ? UINT64_MAX : from * lbs;
		if (s >= e || e - s < p->params.bs) {
			snprintf(err, errlen, "triage: --from %" PRIu64 ": %s has nothing to write from LBA %" PRIu64
				 " (its span ends at LBA %" PRIu64 ")", from, tg->name, s / lbs, e / lbs);
			return -EINVAL;
		}
		if (s % al) {
			snprintf(err, errlen, "triage: --from %" PRIu64 ": byte %" PRIu64 " of %s is not a multiple "
				 "of its %u-byte I/O alignment", from, s, tg->name, al);
			return -EINVAL;
		}
		S->t[t].wv_start = S->t[t].wv_done = s;
		S->t[t].wv_end = e;
		S->wv_lo = s < S->wv_lo ? s : S->wv_lo;
		S->wv_hi = e > S->wv_hi ? e : S->wv_hi;
	}
	/* another seed every run: a dropped write over an earlier run's
	 * pattern must not read back as good */
	S->wv_seed = (p->params.seed ^ now_ns()) * 0x9e3779b97f4a7c15ull | 1;
	uint64_t span = S->wv_hi - S->wv_lo;
	uint64_t k = span / TRI_WV_CHUNK_MIN;
	S->wv_chunks = k < 1 ? 1 : k > TRI_WV_CHUNKS ? TRI_WV_CHUNKS : (unsigned)k;
	return 0;
}

static uint64_t
chunk_len(const struct tri_state *S, uint64_t bs)
{
	uint64_t span = S->wv_hi - S->wv_lo, n = S->wv_chunks;
	uint64_t len = (span + n - 1) / n;
	return (len + bs - 1) / bs * bs;
}

bool
triage_wv_next(struct bench_ctx *c)
{
	struct tri_state *S = c->state;
	struct plan *p = c->plan;
	uint64_t bs = p->params.bs, len = chunk_len(S, bs);
	while (S->wv_next < 2 * S->wv_chunks) {
		unsigned round = S->wv_next / 2;
		bool write = !(S->wv_next % 2);
		uint64_t a = S->wv_lo + round * len, b = a + len < S->wv_hi ? a + len : S->wv_hi;
		S->wv_next++;
		unsigned idx[PLAN_MAX_TARGETS], n = 0;
		for (unsigned t = 0; t < c->n_targets; t++)
			if (!S->t[t].out && !tri_io_of(c, t)->ruled && S->t[t].wv_end > a &&
			    S->t[t].wv_end - a >= bs)
				idx[n++] = t;
		if (a >= b || !n)
			continue;
		unsigned lbs = c->targets[idx[0]].logical ? c->targets[idx[0]].logical : 512;
		struct run_params rp = triage_read_rp(p);
		rp.rw_mix = write ? 0 : 100;
		snprintf(rp.data, sizeof(rp.data), "pattern");
		rp.seed = S->wv_seed;
		rp.region_lba = true;
		rp.region_lba_start = a / lbs;
		rp.region_lba_end = b / lbs;
		char lab[48];
		snprintf(lab, sizeof(lab), "%s LBA %" PRIu64 "-%" PRIu64, write ? "write" : "read back",
			 a / lbs, b / lbs - 1);
		struct plan_step *st;
		if (plan_add_step_params(p, idx, n, &rp, lab, &st))
			return false;
		st->max_consec_errors = TRI_WV_ERR_LIMIT;
		S->kind[S->n_kind++] = write ? TK_WRITE : TK_VERIFY;
		S->wv_cur_a = a;
		S->wv_cur_b = b;
		for (unsigned t = 0; t < c->n_targets; t++) {
			tri_io_of(c, t)->phase = write ? TP_WRITE : TP_VERIFY;
			tri_io_of(c, t)->verify_hi = a;
		}
		return true;
	}
	return false;
}

void
triage_wv_step_done(struct bench_ctx *c, int kind)
{
	struct tri_state *S = c->state;
	if (kind != TK_VERIFY)
		return;
	uint64_t bs = c->plan->params.bs, a = S->wv_cur_a;
	for (unsigned t = 0; t < c->n_targets; t++) {
		struct tri_tgt *T = &S->t[t];
		const struct tri_io *io = tri_io_of(c, t);
		uint64_t b = S->wv_cur_b < T->wv_end ? S->wv_cur_b : T->wv_end;
		if (T->out || io->ruled || T->wv_done != a || b <= a)
			continue;
		/* read back to the round's last whole block: this round is done
		 * (a stop or a rule leaves it short) */
		if (io->verify_hi >= a + (b - a) / bs * bs)
			T->wv_done = b;
		T->wv_complete = T->wv_done >= T->wv_end;
	}
}

bool
triage_wv_io(struct tri_io *s, const struct io_done *d)
{
	if (s->phase != TP_WRITE && s->phase != TP_VERIFY)
		return false;
	if (d->write) {
		if (!d->res) {
			s->wbytes += d->len;
			return false;
		}
		s->n_werr++;
		triage_ext_add(s->wext, &s->n_wext, &s->wext_lost, d->offset, d->offset + d->len);
		return true;
	}
	if (d->offset + d->len > s->verify_hi)
		s->verify_hi = d->offset + d->len;
	if (d->res || !d->buf)
		return false;	/* unreadable: counted as in the read pass */
	s->vbytes += d->len;
	if (s->sim)
		return false;	/* a sim drive keeps no data */
	uint64_t f = 0, l = 0, bad = pattern_check(d->buf, d->len, d->offset, d->seed, &f, &l);
	if (!bad)
		return false;
	s->mis_blocks++;
	s->mis_sectors += bad;
	triage_ext_add(s->mis, &s->n_mis, &s->mis_lost, f, l + PATTERN_SECTOR);
	return true;
}

/* Extents as "LBA a-b (x GB)" evidence lines, the first one into *first. */
static void
ext_lines(struct surface_extent *x, size_t *n, size_t lost, unsigned lbs, const char *what,
	  struct strlist *ev)
{
	*n = surface_merge(x, *n);
	for (size_t e = 0; e < *n; e++)
		strlist_addf(ev, "%s: LBA %" PRIu64 "-%" PRIu64 " (%.3f GB)", what, x[e].start / lbs,
			     (x[e].end - 1) / lbs, (double)x[e].start / 1e9);
	if (lost)
		strlist_addf(ev, "%s: %zu more ranges not listed", what, lost);
}

int64_t
triage_wv_judge(struct bench_ctx *c, size_t t, bool interrupted, enum verdict_level *lv,
		char *why, size_t wn, struct strlist *ev, char *first_fail, size_t fn)
{
	struct tri_state *S = c->state;
	if (!S->wv)
		return -1;
	struct tri_tgt *T = &S->t[t];
	struct tri_io *io = tri_io_of(c, (unsigned)t);
	unsigned lbs = io->lbs ? io->lbs : 512;
	const char *name = c->targets[t].name;
	strlist_addf(ev, "write-verify: LBA %" PRIu64 "-%" PRIu64 " (%.3f-%.3f GB), pattern seed %016" PRIx64
		     ", %.1f MB written, %.1f MB read back%s", T->wv_start / lbs, T->wv_end / lbs - 1,
		     (double)T->wv_start / 1e9, (double)T->wv_end / 1e9, S->wv_seed, (double)io->wbytes / 1e6,
		     (double)io->vbytes / 1e6, io->sim ? " (a sim drive keeps no data: not compared)" : "");
	if (io->n_wext) {
		*lv = VL_FAIL;
		ext_lines(io->wext, &io->n_wext, io->wext_lost, lbs, "write failed", ev);
		triage_add_reason(why, wn, "write failed at LBA %" PRIu64 "-%" PRIu64 " (%.3f GB)%s",
				  io->wext[0].start / lbs, (io->wext[0].end - 1) / lbs,
				  (double)io->wext[0].start / 1e9, io->n_wext > 1 ? " and more" : "");
	}
	if (io->n_mis) {
		*lv = VL_FAIL;
		ext_lines(io->mis, &io->n_mis, io->mis_lost, lbs, "pattern mismatch", ev);
		strlist_addf(ev, "pattern mismatch: %" PRIu64 " sectors of 512 bytes in %" PRIu64 " blocks",
			     io->mis_sectors, io->mis_blocks);
		triage_add_reason(why, wn, "pattern mismatch at LBA %" PRIu64 "-%" PRIu64 " (%.3f GB)%s",
				  io->mis[0].start / lbs, (io->mis[0].end - 1) / lbs,
				  (double)io->mis[0].start / 1e9, io->n_mis > 1 ? " and more" : "");
		if (!first_fail[0])
			snprintf(first_fail, fn, "%s pattern mismatch at LBA %" PRIu64 "-%" PRIu64, name,
				 io->mis[0].start / lbs, (io->mis[0].end - 1) / lbs);
	}
	if (T->wv_complete)
		return -1;
	/* Where a new run picks up: the end of the last round read back whole,
	 * or (stopped while reading back) a queue's worth before the furthest
	 * block read back. */
	uint64_t pos = T->wv_done, qspan = (uint64_t)c->plan->params.qd * c->plan->params.bs;
	if (io->phase == TP_VERIFY && io->verify_hi > pos + qspan && S->wv_cur_a == T->wv_done)
		pos = io->verify_hi - qspan;
	unsigned al = c->targets[t].offset_align > lbs ? c->targets[t].offset_align : lbs;
	pos = pos / al * al;
	if (*lv < VL_WARN)
		*lv = VL_WARN;
	if (T->out && !interrupted) {	/* a rule failed it: nothing to resume */
		triage_add_reason(why, wn, "write-verify not finished: checked up to LBA %" PRIu64, pos / lbs);
		return (int64_t)(pos / lbs);
	}
	triage_add_reason(why, wn, "write-verify %s at LBA %" PRIu64 " (%.3f GB): resume with --from %" PRIu64,
			  interrupted ? "interrupted" : "not finished", pos / lbs, (double)pos / 1e9, pos / lbs);
	if (pos > T->wv_start)
		strlist_addf(ev, "write-verify: LBA %" PRIu64 "-%" PRIu64 " written and read back; resume with --from %"
			     PRIu64, T->wv_start / lbs, pos / lbs - 1, pos / lbs);
	else
		strlist_addf(ev, "write-verify: nothing read back yet; resume with --from %" PRIu64, pos / lbs);
	return (int64_t)(pos / lbs);
}
