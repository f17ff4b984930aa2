/* test_sim_harness.h - drive engine-sim directly (no worker, no runner) for the
 * sim tests: open a sim target, run a stream of I/O at a queue depth, and
 * report how long it took on the drive's virtual clock. */
#ifndef SIM_HARNESS_H
#define SIM_HARNESS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/engine.h"
#include "io/target.h"
#include "sim/sim.h"

extern const struct engine_ops engine_sim_ops;

/* offset of the i-th I/O */
typedef uint64_t (*h_off_fn)(void *ctx, uint64_t i);

struct h_stats {
	double seconds;		/* virtual: first submit to last completion */
	uint64_t bytes, ios, errors;
};

/* The clock and seed h_open gives the drive (as a plan's target_opts would). */
static struct target_opts h_opts = { .sim_seed = SIM_DEFAULT_SEED };

static inline int
h_open(struct target *t, const char *spec)
{
	char err[512];
	memset(t, 0, sizeof *t);
	int r = sim_target_open(t, spec, &h_opts, err, sizeof err);
	if (r)
		fprintf(stderr, "%s\n", err);
	return r;
}

static inline int
h_init(struct engine *e, struct target *t, unsigned qd)
{
	memset(e, 0, sizeof *e);
	e->ops = &engine_sim_ops;
	e->t = t;
	e->qd = qd;
	return e->ops->init(e, NULL, 0, 0);
}

/* n I/Os of bs bytes at f(ctx, i), keeping qd in flight. */
static inline int
h_run(struct engine *e, uint64_t n, uint32_t bs, bool write, h_off_fn f, void *ctx,
      struct h_stats *st)
{
	unsigned qd = e->qd;
	memset(st, 0, sizeof *st);
	struct io_u *slots = calloc(qd, sizeof *slots);
	struct io_u **free_ = calloc(qd, sizeof *free_), **done = calloc(qd, sizeof *done);
	if (!slots || !free_ || !done)
		return -1;
	unsigned n_free = qd;
	for (unsigned i = 0; i < qd; i++)
		free_[i] = &slots[i], slots[i].index = i;
	uint64_t t0 = e->ops->clock_ns(e), last = t0, sub = 0, inflight = 0;
	int rc = 0;
	while (sub < n || inflight) {
		unsigned q = 0;
		while (sub < n && n_free) {
			struct io_u *u = free_[--n_free];
			u->offset = f(ctx, sub);
			u->len = bs;
			u->write = write;
			u->start_ns = e->ops->clock_ns(e);
			if (e->ops->queue(e, u)) {
				rc = -1;
				goto out;
			}
			sub++;
			q++;
			inflight++;
		}
		if (q && e->ops->commit(e) < 0) {
			rc = -1;
			goto out;
		}
		int k = e->ops->getevents(e, 1, qd, done);
		if (k <= 0) {
			rc = -1;
			goto out;
		}
		for (int i = 0; i < k; i++) {
			struct io_u *u = done[i];
			if (u->result < 0)
				st->errors++;
			else
				st->bytes += (uint64_t)u->result;
			st->ios++;
			if (u->done_ns > last)
				last = u->done_ns;
			free_[n_free++] = u;
			inflight--;
		}
	}
	st->seconds = (double)(last - t0) / 1e9;
out:
	free(slots);
	free(free_);
	free(done);
	return rc;
}

static inline double
h_mbps(const struct h_stats *st)
{
	return st->seconds > 0 ? (double)st->bytes / st->seconds / 1e6 : 0;
}

struct h_seq {
	uint64_t start;
	uint32_t bs;
};

static inline uint64_t
h_seq_off(void *ctx, uint64_t i)
{
	struct h_seq *s = ctx;
	return s->start + i * s->bs;
}

/* Sequential I/O of bytes from start (bs a multiple of the sector). */
static inline int
h_seq(struct engine *e, uint64_t start, uint64_t bytes, uint32_t bs, bool write, struct h_stats *st)
{
	struct h_seq s = { start, bs };
	return h_run(e, bytes / bs, bs, write, h_seq_off, &s, st);
}

/* within +-pct % of want */
static inline bool
h_near(double got, double want, double pct)
{
	return got >= want * (1 - pct / 100) && got <= want * (1 + pct / 100);
}
#endif
