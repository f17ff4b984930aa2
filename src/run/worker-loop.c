/* worker-loop.c - the I/O loop, by concern: submit and reap, the stop clock
 * (time limit, stop flag, pauses of the process, the I/O timeout), the
 * test's hook, and the interval accounting.  The hot path does no
 * allocation and takes no lock, reads the clock once per submitted batch
 * and once per reaped batch (as fio does), and publishes counters with
 * relaxed stores.  The loop is compiled twice (loop_run with has_hook
 * true and false): a test without a per-I/O hook pays nothing for hooks. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "run/pattern.h"
#include "run/worker-int.h"
#include "util/util.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* Bounded waits (fio's way): the worker looks at the clock, the stop flag and
 * the oldest outstanding I/O at least this often. */
#define WAIT_NS (100ull * 1000000ull)

/* The loop's state, on the worker thread's stack.  Times are engine clock. */
struct wloop {
	struct offset_gen g;
	unsigned nfree, inflight;
	uint64_t interval;
	uint64_t t0, tm, tstop;		/* the start, measurement starts, the time limit */
	uint64_t inext;			/* end of the current interval */
	uint64_t issued, consec, rb, wb, ios, late;
	uint64_t last;			/* the last measured completion, good or failed */
	uint64_t streak_from;		/* last, when the current run of failures began */
	uint64_t prev, scanned, gave_up, conts;
	const struct io_u *rule_u;	/* the I/O whose completion a fail rule ended on */
	bool stopping, measuring;
	bool died;			/* stopped by failures in a row */
	bool wall;			/* a pause shows on the wall clock only */
};

static inline uint64_t
eclock(struct worker *w)
{
	return w->eng.ops->clock_ns ? w->eng.ops->clock_ns(&w->eng) : now_ns();
}

/* ---- accounting: errors, intervals ---- */

static void
err_record(struct err_summary *e, int err, uint64_t off)
{
	if (!e->have_offsets) {
		e->have_offsets = true;
		e->first_offset = off;
	}
	e->last_offset = off;
	e->count++;
	for (size_t i = 0; i < e->n_errno; i++)
		if (e->by_errno[i].err == err) {
			e->by_errno[i].count++;
			return;
		}
	if (e->n_errno < ARRAY_SIZE(e->by_errno)) {
		e->by_errno[e->n_errno].err = err;
		e->by_errno[e->n_errno].count = 1;
		e->n_errno++;
	}
}

static void
interval_close(struct worker *w, uint64_t end_rel, uint64_t dur)
{
	struct series_sample s = {
		.end_ns = end_rel, .dur_ns = (uint32_t)dur, .ios = (uint32_t)w->in,
		.rbytes = w->irb, .wbytes = w->iwb, .p50_us = NAN, .p99_us = NAN,
	};
	uint64_t size = w->p.t && w->p.t->size ? w->p.t->size : 0;
	uint64_t pos = atomic_load_explicit(&w->pub.pos, memory_order_relaxed);
	s.pos = size ? (float)((double)pos / (double)size) : 0;
	if (w->in) {
		s.p50_us = (float)(hist_counts_percentile(w->ihist, w->in, 50) / 1e3);
		s.p99_us = (float)(hist_counts_percentile(w->ihist, w->in, 99) / 1e3);
		uint64_t fold[SNAP_HIST] = { 0 };
		hist_fold_snap(w->ihist, fold);
		for (int k = 0; k < SNAP_HIST; k++)
			if (fold[k])
				atomic_store_explicit(&w->pub.snap_hist[k],
					atomic_load_explicit(&w->pub.snap_hist[k], memory_order_relaxed) + fold[k],
					memory_order_relaxed);
		memset(w->ihist, 0, sizeof(w->ihist));
	}
	series_push(&w->series, &s);
	w->in = w->irb = w->iwb = 0;
}

/* Close every interval that ended by t. */
static inline void
intervals_to(struct worker *w, struct wloop *L, uint64_t t)
{
	while (t >= L->inext) {
		interval_close(w, L->inext - L->tm, L->interval);
		L->inext += L->interval;
	}
}

/* One good completion inside the measured window. */
static ALWAYS_INLINE void
account_io(struct worker *w, struct wloop *L, const struct io_u *u, uint64_t td,
	   bool lat_known, uint64_t lat)
{
	if (!L->measuring) {
		L->measuring = true;
		PUB_STORE(state, WS_MEASURE);
	}
	intervals_to(w, L, td);
	if (lat_known) {
		w->ihist[hist_index(lat)]++;
		w->in++;
		hist_add(&w->hist, lat);
	}
	L->ios++;
	if (u->write) {
		w->iwb += u->len;
		L->wb += u->len;
	} else {
		w->irb += u->len;
		L->rb += u->len;
	}
	if (td > L->last)
		L->last = td;
}

/* A failed completion (a short transfer is EIO): counted apart in the
 * ramp-up, and too many in a row stop the worker. */
static void
account_failed(struct worker *w, struct wloop *L, const struct io_u *u, uint64_t td)
{
	int e = u->result < 0 ? -u->result : EIO;
	if (td < L->tm) {
		err_record(&w->err_ramp, e, u->offset);
	} else {
		err_record(&w->err, e, u->offset);
		PUB_STORE(errors, w->err.count);
	}
	if (!L->consec)
		L->streak_from = L->last;
	if (td >= L->tm && td < L->tstop && td > L->last)
		L->last = td;	/* a step of failed reads took time too */
	if (++L->consec >= w->p.max_consec_errors && !L->stopping) {
		L->died = true;
		snprintf(w->msg, sizeof(w->msg), "%s: stopped after %llu failed I/Os in a row (%s)",
			 w->p.t->name, (unsigned long long)L->consec, strerror(e));
		L->stopping = true;
	}
}

void
worker_record_timeout(struct worker *w, uint64_t off, uint64_t age_ns)
{
	err_record(&w->err, ETIMEDOUT, off);
	PUB_STORE(errors, w->err.count);
	snprintf(w->msg, sizeof(w->msg), "%s: I/O at byte %llu outstanding for %.0f s: gave up on the target",
		 w->p.t ? w->p.t->name : "?", (unsigned long long)off, (double)age_ns / 1e9);
	w->rc = -ETIMEDOUT;
}

/* ---- the test's hook ---- */

/* Hand one completion to the test's on_io; a fail rule it sets ends the
 * worker: this I/O still counts, nothing later does. */
static void
hook_done(struct worker *w, struct wloop *L, const struct io_u *u, uint64_t td, uint64_t lat)
{
	const struct worker_params *p = &w->p;
	struct io_done d = {
		.offset = u->offset, .len = u->len, .write = u->write,
		.measured = td >= L->tm && td < L->tstop,
		.res = u->result == (int)u->len ? 0 : u->result < 0 ? u->result : -EIO,
		.lat_ns = lat,
		.t_ns = td > L->t0 ? td - L->t0 : 0,
		.buf = u->buf, .seed = p->seed, .stop = w->stop_why,
		.next = &w->next,
	};
	p->on_io(p->on_io_state, &d);
	if (w->stop_why[0] && !w->failed) {
		w->failed = true;
		snprintf(w->msg, sizeof(w->msg), "%.30s: %.158s", p->t ? p->t->name : "?", w->stop_why);
		if (!L->stopping || td < L->tstop)
			L->tstop = td;
		L->rule_u = u;
		L->stopping = true;
		PUB_STORE(state, WS_DRAIN);
	}
}

/* The test hears of a timed-out I/O like any failed one. */
static void
hook_timeout(struct worker *w, const struct wloop *L, uint64_t off, uint64_t now, uint64_t age)
{
	const struct worker_params *p = &w->p;
	struct io_done d = {
		.offset = off, .len = p->bs, .measured = now >= L->tm && now < L->tstop,
		.res = -ETIMEDOUT, .lat_ns = age, .t_ns = now - L->t0,
		.seed = p->seed, .stop = w->stop_why,
	};
	p->on_io(p->on_io_state, &d);
}

/* ---- submit ---- */

/* Cheap refill before each write: stamp every 512-byte sector with its
 * offset and a per-write sequence, so no two writes carry the same data
 * (dedupe and compression see fresh blocks) and a reader can check where
 * each sector came from. */
static inline void
stamp(struct worker *w, struct io_u *u)
{
	if (w->p.data == DATA_ZEROS)
		return;
	if (w->p.data == DATA_PATTERN) {
		pattern_fill(u->buf, u->len, u->offset, w->p.seed);
		return;
	}
	uint64_t seq = (++w->wseq ^ w->p.seed) * 0x9e3779b97f4a7c15ull;	/* all 8 bytes vary */
	for (uint32_t o = 0; o < u->len; o += 512) {
		uint64_t *p = (uint64_t *)((char *)u->buf + o);
		p[0] = u->offset + o;
		p[1] = seq;
	}
}

/* Where the next I/O goes: the hook's steering, else the offset pattern.
 * False when the pass is over. */
static inline bool
next_offset(struct worker *w, struct wloop *L, uint64_t *off, uint32_t *len, bool *steered)
{
	const struct worker_params *p = &w->p;
	struct offset_gen *g = &L->g;
	bool wrapped = false;
	*len = p->bs;
	if (w->next.set) {	/* steered by the test's hook (set between batches) */
		w->next.set = false;
		*steered = true;
		*off = w->next.off;
		if (w->next.len && w->next.len < p->bs)
			*len = w->next.len;
		/* the end, or (never by design) outside the step's region */
		if (*off == IO_NEXT_END || *off < g->start || *off + *len > g->end)
			return false;
		offsets_seek(g, *off + *len);
	} else {
		*off = offsets_next(g, &wrapped);
	}
	return !(wrapped && p->one_pass);
}

/* Stamp and queue up to nfree I/Os.  The start time is read after the
 * buffers are stamped, so no latency includes stamping.  The number queued. */
static unsigned
fill_queue(struct worker *w, struct wloop *L)
{
	const struct worker_params *p = &w->p;
	struct io_u *batch[WORKER_MAX_QD];
	unsigned nb = 0;
	bool steered = false;
	/* --size counts the measured part only: not while ramping up */
	bool counting = p->size && (!p->ramp_ns || eclock(w) >= L->tm);
	while (nb < L->nfree) {
		if (counting && L->issued + (uint64_t)nb * p->bs >= p->size) {
			L->stopping = true;
			break;
		}
		uint64_t off;
		uint32_t len;
		if (!next_offset(w, L, &off, &len, &steered)) {
			L->stopping = true;
			break;
		}
		struct io_u *u = &w->u[w->free_slots[L->nfree - 1 - nb]];
		u->offset = off;
		u->len = len;
		u->write = p->rw_mix >= 100 ? false : p->rw_mix <= 0 ? true
			   : (int)(xorshift(&w->rng) % 100) >= p->rw_mix;
		if (u->write)
			stamp(w, u);
		batch[nb++] = u;
	}
	uint64_t ts = eclock(w);
	unsigned queued = 0;
	for (unsigned i = 0; i < nb; i++) {
		struct io_u *u = batch[i];
		u->result = 0;
		u->done_ns = 0;
		u->start_ns = ts;
		int rc = w->eng.ops->queue(&w->eng, u);
		if (rc == -EBUSY) {
			/* offer the same offsets again; a steered one (always
			 * the batch's first) as it was asked for */
			if (i == 0 && steered) {
				w->next = (struct io_next){ u->offset, u->len, true };
				L->g.i -= nb - 1;
			} else {
				L->g.i -= nb - i;
			}
			break;
		}
		if (rc < 0) {
			snprintf(w->msg, sizeof(w->msg), "%s: queue: %s", p->t->name, strerror(-rc));
			w->rc = rc;
			L->stopping = true;
			break;
		}
		L->nfree--;
		w->busy[u->index] = 1;
		queued++;
		if (ts >= L->tm)
			L->issued += p->bs;
	}
	return queued;
}

/* Hand back an I/O to the caller's thread when the runner gave up on it
 * (own: 0 running, 1 inside a blocking call, 2 abandoned, 3 done).  The
 * wall-clock start is the I/O's own when the engine runs on wall time. */
static bool
blocking_enter(struct worker *w, const struct io_u *u)
{
	PUB_STORE(busy_off, u->offset);
	PUB_STORE(busy_ns, w->eng.ops->clock_ns ? now_ns() : u->start_ns);
	int exp = 0;
	return atomic_compare_exchange_strong(&w->own, &exp, 1);
}

static bool
blocking_leave(struct worker *w)
{
	int exp = 1;
	if (!atomic_compare_exchange_strong(&w->own, &exp, 0))
		return false;	/* abandoned meanwhile: touch nothing the runner reads */
	PUB_STORE(busy_ns, 0);
	return true;
}

/* Queue what fits and submit it.  0, or -ECANCELED (abandoned meanwhile). */
static int
submit(struct worker *w, struct wloop *L)
{
	if (!fill_queue(w, L))
		return 0;
	bool blk = w->eng.blocking;
	if (blk && !blocking_enter(w, &w->u[w->free_slots[L->nfree]]))
		return -ECANCELED;
	int rc = w->eng.ops->commit(&w->eng);
	if (blk && !blocking_leave(w))
		return -ECANCELED;
	if (rc < 0 && rc != -EAGAIN && rc != -EINTR) {
		snprintf(w->msg, sizeof(w->msg), "%s: submit: %s", w->p.t->name, strerror(-rc));
		w->rc = rc;
		L->stopping = true;
	}
	return 0;
}

/* ---- the stop clock ---- */

/* Back from a long gap: a stop of the process, if SIGCONT is pending or was
 * taken since (worker-gate.c).  The pause is cut out of the step's times. */
static inline void
clock_pause(struct worker *w, struct wloop *L, uint64_t now)
{
	uint64_t c = L->wall && now - L->prev > 2 * WAIT_NS ? worker_poll_cont() : worker_cont_count();
	if (c != L->conts) {
		L->conts = c;
		uint64_t ca = worker_last_cont_ns();
		if (ca > now)
			ca = now;	/* taken by another thread after our clock read */
		/* stopped somewhere after prev, resumed at ca */
		if (ca && L->wall && ca > L->prev && ca - L->prev > 2 * WAIT_NS) {
			uint64_t gap = ca - L->prev;
			L->t0 += gap;
			L->tm += gap;
			if (L->tstop != UINT64_MAX)
				L->tstop += gap;
			L->inext += gap;
			L->last += gap;
			L->streak_from += gap;
			L->scanned = now;
			for (unsigned i = 0; i < w->p.qd; i++)
				if (w->busy[i])
					w->u[i].start_ns = 0;	/* spans the pause: latency unknown */
		}
	}
	L->prev = now;
}

/* The time limit and the runner's stop, after each reaped batch. */
static inline void
clock_stop(struct worker *w, struct wloop *L, uint64_t now)
{
	if (L->stopping)
		return;
	if (now >= L->tstop) {
		L->stopping = true;
	} else if (atomic_load_explicit(w->stop, memory_order_relaxed)) {
		L->stopping = true;
		L->tstop = now;	/* bytes completing from here on are not counted */
	}
	if (now > L->tm)
		PUB_STORE(elapsed_ns, (now < L->tstop ? now : L->tstop) - L->tm);
	if (L->stopping)
		PUB_STORE(state, WS_DRAIN);
}

/* The oldest outstanding I/O, at most every wait (or when the wait came
 * back empty): true when it is past the I/O timeout (the worker gives up). */
static bool
clock_timeout(struct worker *w, struct wloop *L, uint64_t now, bool has_hook)
{
	L->scanned = now;
	uint64_t oldest = UINT64_MAX, off = 0;
	for (unsigned i = 0; i < w->p.qd; i++) {
		uint64_t st = w->u[i].start_ns ? w->u[i].start_ns : L->prev;
		if (w->busy[i] && st < oldest) {
			oldest = st;
			off = w->u[i].offset;
		}
	}
	if (oldest == UINT64_MAX || now <= oldest || now - oldest < w->p.io_timeout_ns)
		return false;
	worker_record_timeout(w, off, now - oldest);
	if (has_hook)
		hook_timeout(w, L, off, now, now - oldest);
	w->eng.abandoned = L->inflight;
	L->gave_up = now;
	return true;
}

/* ---- reap ---- */

/* One completion: the hook, the fail rules, then the accounting. */
static ALWAYS_INLINE void
reap_one(struct worker *w, struct wloop *L, struct io_u *u, uint64_t now, const bool has_hook)
{
	uint64_t td = u->done_ns ? u->done_ns : now;
	L->inflight--;
	w->busy[u->index] = 0;
	w->free_slots[L->nfree++] = u->index;
	PUB_STORE(pos, u->offset);
	bool lat_known = u->start_ns != 0 || !L->wall;
	uint64_t lat = td > u->start_ns ? td - u->start_ns : 0;
	if (has_hook)
		hook_done(w, L, u, td, lat_known ? lat : 0);
	if (__builtin_expect(u->result != (int)u->len, 0)) {
		account_failed(w, L, u, td);
		return;
	}
	L->consec = 0;
	if (td < L->tm)
		return;		/* ramp-up */
	if (td >= L->tstop && u != L->rule_u) {
		/* after the limit (the drain): no bytes, but its latency
		 * counts, so a stall at the end shows */
		if (lat_known)
			hist_add(&w->hist, lat);
		L->late++;
		return;
	}
	account_io(w, L, u, td, lat_known, lat);
}

/* The loop proper, instantiated with and without the hook. */
static ALWAYS_INLINE int
loop_run(struct worker *w, struct wloop *L, const bool has_hook)
{
	const struct worker_params *p = &w->p;
	for (;;) {
		if (!L->stopping && L->nfree && submit(w, L))
			return -ECANCELED;
		L->inflight = p->qd - L->nfree;
		if (!L->inflight)
			break;
		int n = w->eng.ops->getevents(&w->eng, 1, L->inflight, w->done);
		if (n == -EINTR || n == -EAGAIN)
			n = 0;
		if (n < 0) {
			snprintf(w->msg, sizeof(w->msg), "%s: reap: %s", p->t->name, strerror(-n));
			w->rc = n;
			w->eng.abandoned = L->inflight;
			break;
		}
		uint64_t now = eclock(w);
		clock_pause(w, L, now);
		for (int i = 0; i < n; i++)
			reap_one(w, L, w->done[i], now, has_hook);
		PUB_STORE(rbytes, L->rb);
		PUB_STORE(wbytes, L->wb);
		PUB_STORE(ios, L->ios);
		clock_stop(w, L, now);
		if (L->inflight && (n == 0 || now - L->scanned >= WAIT_NS) &&
		    clock_timeout(w, L, now, has_hook))
			break;
	}
	return 0;
}

static int
loop_with_hook(struct worker *w, struct wloop *L)
{
	return loop_run(w, L, true);
}

static int
loop_without_hook(struct worker *w, struct wloop *L)
{
	return loop_run(w, L, false);
}

/* The measured span: to the time limit when it was reached, else to the
 * last measured completion (or to the give-up on a timed-out I/O).  Failed
 * reads are measured time (a bisection's probes), but a drive that read and
 * then died (the streak of failures that ended it) is measured to its time
 * before that streak: a step's common window is the time all of its drives
 * delivered data (sys/run-window, sys/pin-extent). */
static void
loop_finish(struct worker *w, struct wloop *L)
{
	if (L->died && L->streak_from > L->tm)
		L->last = L->streak_from;
	uint64_t tend = L->tstop != UINT64_MAX && eclock(w) >= L->tstop ? L->tstop : L->last;
	if (L->gave_up > tend)	/* the stall before giving up was measured time */
		tend = L->gave_up < L->tstop ? L->gave_up : L->tstop;
	if (tend < L->tm)
		tend = L->tm;
	while (L->inext <= tend) {
		interval_close(w, L->inext - L->tm, L->interval);
		L->inext += L->interval;
	}
	uint64_t istart = L->inext - L->interval;
	if (tend > istart)
		interval_close(w, tend - L->tm, tend - istart);
	w->seconds = (double)(tend - L->tm) / 1e9;
	PUB_STORE(elapsed_ns, tend - L->tm);
	/* Measured time with no I/O completed in it (a drive that did not
	 * answer in time, or a worker starved of CPU on a loaded machine): its
	 * 0 is not a rate, so say so; the result then counts as a problem. */
	if (!L->ios && !w->err.count && !w->msg[0] && tend > L->tm &&
	    !atomic_load_explicit(w->stop, memory_order_relaxed))
		snprintf(w->msg, sizeof(w->msg), "%s: no I/O completed in the %.1f s measured (%llu after it)",
			 w->p.t ? w->p.t->name : "?", w->seconds, (unsigned long long)L->late);
}

int
worker_loop(struct worker *w)
{
	const struct worker_params *p = &w->p;
	struct wloop L = { 0 };
	int rc = offsets_init(&L.g, p->pat, p->region_start, p->region_end, p->bs,
			      p->stride_first, p->stride_step, p->seed);
	if (rc) {
		snprintf(w->msg, sizeof(w->msg), "%s: empty region for block size %u", p->t->name, p->bs);
		w->rc = rc;
		return 0;
	}
	L.nfree = p->qd;
	for (unsigned i = 0; i < p->qd; i++)
		w->free_slots[i] = p->qd - 1 - i;
	w->eng.wait_ns = WAIT_NS;
	L.interval = (uint64_t)p->interval_ms * 1000000ull;
	L.t0 = eclock(w);
	L.tm = L.t0 + p->ramp_ns;
	L.tstop = p->time_ns ? L.tm + p->time_ns : UINT64_MAX;
	L.inext = L.tm + L.interval;
	L.last = L.streak_from = L.tm;
	L.prev = L.scanned = L.t0;
	L.conts = worker_cont_count();
	L.measuring = p->ramp_ns == 0;
	L.wall = !w->eng.ops->clock_ns;
	w->next = p->first;
	PUB_STORE(state, L.measuring ? WS_MEASURE : WS_RAMP);
	rc = p->on_io ? loop_with_hook(w, &L) : loop_without_hook(w, &L);
	if (rc)
		return rc;
	loop_finish(w, &L);
	return 0;
}
