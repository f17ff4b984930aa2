/* engine-sim.c - simulated drives: each I/O completes after the service time
 * the drive model gives it.  The drive serves one I/O at a time in the order
 * submitted (an NCQ queue that does not reorder).
 *
 * Virtual clock (headless): each drive has its own clock that jumps to the
 * next completion, so a 10-minute test takes milliseconds and comes out the
 * same every time.  Real clock (dashboard): completions are handed out when
 * real time x --sim-speed reaches them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "io/engine.h"
#include "io/target.h"
#include "sim/drive.h"
#include "util/util.h"

struct sim_engine {
	struct sim_drive *d;
	struct io_u **pending;		/* queued, not committed */
	unsigned n_pending;
	struct io_u **inflight;		/* committed, done_ns ascending */
	unsigned n_inflight;
	bool virtual_time;
	double speed;
	uint64_t vbase, rbase;		/* real clock: virtual = vbase + (now - rbase) x speed */
	uint64_t last_clock;
	int slot;			/* in the controller's streaming set */
};

static const char pattern[] = "diskscope sim: no data here. ";

static uint64_t
sim_clock(struct engine *e)
{
	struct sim_engine *s = e->priv;
	if (s->virtual_time)
		return s->d->vnow;
	uint64_t v = s->vbase + (uint64_t)((double)(now_ns() - s->rbase) * s->speed);
	if (v < s->last_clock)
		v = s->last_clock;
	s->last_clock = v;
	return v;
}

static int
sim_init(struct engine *e, void **bufs, unsigned n_bufs, size_t buf_len)
{
	struct target *t = e->t;
	if (!t || t->kind != TGT_SIM || !t->sim)
		return -EINVAL;
	if (e->qd == 0)
		e->qd = 1;
	struct sim_engine *s = calloc(1, sizeof *s);
	if (!s)
		return -ENOMEM;
	s->pending = calloc(e->qd, sizeof *s->pending);
	s->inflight = calloc(e->qd, sizeof *s->inflight);
	if (!s->pending || !s->inflight) {
		free(s->pending);
		free(s->inflight);
		free(s);
		return -ENOMEM;
	}
	s->d = t->sim;
	s->virtual_time = !(t->sim_speed > 0);	/* the plan's clock (target_opts) */
	s->speed = s->virtual_time ? 1 : t->sim_speed;
	s->d->virtual_time = s->virtual_time;
	s->d->active_snap = 0;	/* counted again at this engine's first I/O */
	s->vbase = s->last_clock = s->d->vnow;
	s->rbase = now_ns();
	/* reads "return" a pattern: fill the buffers once, not per I/O */
	for (unsigned i = 0; bufs && i < n_bufs; i++)
		for (size_t o = 0; bufs[i] && o < buf_len; o += sizeof pattern - 1)
			memcpy((char *)bufs[i] + o, pattern,
			       buf_len - o < sizeof pattern - 1 ? buf_len - o : sizeof pattern - 1);
	/* join the controller's set now, before any I/O of the step (the runner
	 * initialises every engine of a step first), asking for the outer rate */
	s->slot = s->d->ctrl ? sim_ctrl_join(s->d->ctrl, s->d->m->curve[0].mbps) : -1;
	e->priv = s;
	return 0;
}

static int
sim_queue(struct engine *e, struct io_u *u)
{
	struct sim_engine *s = e->priv;
	const struct target *t = e->t;
	if (s->n_pending + s->n_inflight >= e->qd)
		return -EBUSY;
	if (u->len == 0 || u->offset > t->size || u->len > t->size - u->offset ||
	    u->offset % t->logical || u->len % t->logical)
		return -EINVAL;
	s->pending[s->n_pending++] = u;
	return 0;
}

static int
sim_commit(struct engine *e)
{
	struct sim_engine *s = e->priv;
	struct sim_drive *d = s->d;
	uint64_t now = sim_clock(e);
	unsigned n = s->n_pending;
	for (unsigned i = 0; i < n; i++) {
		struct io_u *u = s->pending[i];
		if (d->busy_until < now) {
			sim_drive_idle(d, now - d->busy_until);
			d->busy_until = now;
		}
		bool queued = d->busy_until > now;
		uint64_t start = d->busy_until;
		int res;
		uint64_t svc = sim_drive_service(d, u->offset, u->len, u->write, queued, &res);
		u->result = res;
		u->done_ns = start + svc;
		d->busy_until = u->done_ns;
		if (!u->write && res > 0 && u->buf && u->len >= sizeof(uint64_t))
			memcpy(u->buf, &u->offset, sizeof u->offset);	/* where it came from */
		s->inflight[s->n_inflight++] = u;
	}
	s->n_pending = 0;
	return (int)n;
}

static void
sleep_until_clock(struct engine *e, uint64_t v)
{
	struct sim_engine *s = e->priv;
	for (;;) {
		uint64_t c = sim_clock(e);
		if (c >= v)
			return;
		uint64_t real = (uint64_t)((double)(v - c) / s->speed) + 1;
		struct timespec ts = { (time_t)(real / 1000000000ull), (long)(real % 1000000000ull) };
		nanosleep(&ts, NULL);
	}
}

static int
sim_getevents(struct engine *e, unsigned min, unsigned max, struct io_u **done)
{
	struct sim_engine *s = e->priv;
	struct sim_drive *d = s->d;
	if (min > s->n_inflight)
		min = s->n_inflight;
	if (max == 0 || s->n_inflight == 0)
		return 0;
	uint64_t now = sim_clock(e);
	if (min > 0 && s->inflight[min - 1]->done_ns > now) {
		uint64_t until = s->inflight[min - 1]->done_ns;
		/* a bounded wait ends early, empty-handed (virtual or real time) */
		if (e->wait_ns && until - now > e->wait_ns)
			until = now + e->wait_ns;
		if (s->virtual_time)
			d->vnow = until;
		else
			sleep_until_clock(e, until);
		now = sim_clock(e);
	}
	unsigned k = 0;
	while (k < s->n_inflight && k < max && s->inflight[k]->done_ns <= now) {
		done[k] = s->inflight[k];
		k++;
	}
	memmove(s->inflight, s->inflight + k, (s->n_inflight - k) * sizeof *s->inflight);
	s->n_inflight -= k;
	if (!s->virtual_time && now > d->vnow)
		d->vnow = now;
	return (int)k;
}

static void
sim_cleanup(struct engine *e)
{
	struct sim_engine *s = e->priv;
	if (!s)
		return;
	if (s->d->ctrl)
		sim_ctrl_leave(s->d->ctrl, s->slot);
	/* I/O never reaped still occupies the drive; its clock moves past it */
	if (s->virtual_time && s->d->busy_until > s->d->vnow)
		s->d->vnow = s->d->busy_until;
	free(s->pending);
	free(s->inflight);
	free(s);
	e->priv = NULL;
}

const struct engine_ops engine_sim_ops = {
	.name = "sim",
	.init = sim_init,
	.queue = sim_queue,
	.commit = sim_commit,
	.getevents = sim_getevents,
	.cleanup = sim_cleanup,
	.clock_ns = sim_clock,
};
