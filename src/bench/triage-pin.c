/* triage-pin.c - triage's unreadable extents bounded the way the surface
 * scan's are (pin.h): the full shared pass skips ahead over an unreadable
 * zone (its gap joins the extent), then one steered step over every drive
 * with extents pins them at once, each drive within --pin-budget.  triage.c
 * calls these from its hooks; the state lives in struct tri_io. */
#include <stdio.h>
#include <string.h>
#include "bench/triage-int.h"

void
triage_pin_before(struct bench_ctx *c)
{
	/* a quick pass's samples are its own bound: skip-ahead in full mode only */
	bool full = !strcmp(plan_param_str(c->plan, "mode"), "full");
	for (size_t t = 0; t < c->n_targets; t++)
		pin_skip_init(&tri_io_of(c, (unsigned)t)->skip, full ? c->targets[t].size : 0);
}

bool
triage_pin_io(struct tri_io *s, const struct io_done *d)
{
	if (s->phase == TP_PIN) {
		pin_on_io(&s->pin, d);
		return true;
	}
	/* after pinning, a later step's failed read of a block already pinned
	 * (a confirm's blocks beside a slow range) is not a new extent: it
	 * would widen the pinned one back to block resolution */
	if (!s->pin.reads || !d->res || d->write)
		return false;
	for (size_t i = 0; i < s->pin.n; i++)
		if (d->offset >= s->pin.run[i].s0 && d->offset + d->len <= s->pin.run[i].e0) {
			s->n_err++;
			return true;
		}
	return false;
}

void
triage_pin_skip(struct tri_io *s, const struct io_done *d)
{
	uint64_t a, b;
	/* not after a fail rule ended the drive's job (no gap to pin then) */
	if (s->phase == TP_SHARED && !s->ruled && pin_skip_io(&s->skip, d, &a, &b))
		triage_ext_add(s->ext, &s->n_ext, &s->ext_lost, a, b);	/* unread: pinning samples it */
}

void
triage_pin_add(struct bench_ctx *c)
{
	struct tri_state *S = c->state;
	struct plan *p = c->plan;
	unsigned idx[PLAN_MAX_TARGETS], n = 0;
	struct io_next first[PLAN_MAX_TARGETS];
	double budget = plan_param_num(p, "pin-budget");
	uint32_t bs = p->params.bs ? p->params.bs : 1u << 20;
	if (S->n_kind >= TRI_MAX_STEPS - 1)
		return;
	for (unsigned t = 0; t < c->n_targets; t++) {
		struct tri_io *io = tri_io_of(c, t);
		if (S->t[t].out || io->ruled || !io->n_ext)
			continue;
		uint64_t rs = 0, re = 0;
		plan_region(p, &c->targets[t], &rs, &re);	/* the pass's (--region) */
		for (size_t e = 0; e < io->n_ext; e++)	/* a jump's gap may reach past its end */
			if (io->ext[e].end > re)
				io->ext[e].end = re;
		if (pin_init(&io->pin, io->ext, io->n_ext, bs, io->lbs ? io->lbs : 512, budget, &io->skip))
			continue;
		io->pin.r_end = re;
		if (!pin_first(&io->pin, &first[t]))
			continue;
		idx[n++] = t;
	}
	struct run_params rp = triage_reread_rp(p);
	struct plan_step *st;
	if (!n || plan_add_step_params(p, idx, n, &rp, "pin unreadable ranges", &st))
		return;
	st->max_consec_errors = UINT32_MAX;
	for (unsigned k = 0; k < n; k++)
		st->first[idx[k]] = first[idx[k]];
	S->kind[S->n_kind++] = TK_PIN;
}

void
triage_pin_phase(struct bench_ctx *c, const struct plan_step *next)
{
	for (unsigned k = 0; k < next->n; k++)
		tri_io_of(c, next->idx[k])->phase = TP_PIN;
}

void
triage_pin_done(struct bench_ctx *c, const struct plan_step *st)
{
	for (unsigned k = 0; k < st->n; k++) {
		struct tri_io *io = tri_io_of(c, st->idx[k]);
		size_t n = pin_results(&io->pin, io->pinned, TRI_MAX_EXT);
		for (size_t e = 0; e < n; e++)
			io->ext[e] = (struct surface_extent){ io->pinned[e].start, io->pinned[e].end,
							       io->pinned[e].exact, io->pinned[e].recovered };
		io->n_ext = n;
	}
}

void
triage_pin_line(const struct tri_io *io, size_t e, unsigned lbs, char *buf, size_t n)
{
	/* pinned when the pin step ran and wrote its results (not stopped before) */
	const struct pin_out *p = &io->pinned[e];
	struct pin_out o = { .start = io->ext[e].start, .end = io->ext[e].end, .res = 0 };
	pin_describe(&io->pin, io->pin.reads && p->end > p->start ? p : &o, lbs, buf, n);
}

bool
triage_pin_summary(const struct tri_io *io, char *buf, size_t n)
{
	if (!io->pin.reads)
		return false;
	pin_summary(&io->pin, buf, n);
	if (io->skip.n_gap) {
		size_t o = strlen(buf);
		snprintf(buf + o, n - o, "; skip-ahead: %zu jumps over %.3f GB", io->skip.n_gap,
			 (double)io->skip.skipped / 1e9);
	}
	return true;
}

void
triage_pin_free(struct tri_io *io)
{
	pin_skip_free(&io->skip);
	pin_free(&io->pin);
}
