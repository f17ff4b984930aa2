/* worker.c - the I/O loop.  The hot path does no allocation, reads the clock
 * once per submitted batch and once per reaped batch (as fio does), and
 * publishes counters with relaxed stores. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "run/pattern.h"
#include "run/worker.h"
#include "util/util.h"

int
data_mode_parse(const char *s, enum data_mode *out)
{
	if (!strcmp(s, "random"))
		*out = DATA_RANDOM;
	else if (!strcmp(s, "zeros") || !strcmp(s, "zero"))
		*out = DATA_ZEROS;
	else if (!strcmp(s, "compressible"))
		*out = DATA_COMPRESSIBLE;
	else if (!strcmp(s, "pattern"))
		*out = DATA_PATTERN;
	else
		return -EINVAL;
	return 0;
}

const char *
data_mode_name(enum data_mode d)
{
	switch (d) {
	case DATA_RANDOM: return "random";
	case DATA_ZEROS: return "zeros";
	case DATA_COMPRESSIBLE: return "compressible";
	case DATA_PATTERN: return "pattern";
	}
	return "?";
}

void
worker_params_default(struct worker_params *p)
{
	if (!p->interval_ms)
		p->interval_ms = 100;
	if (!p->series_cap)
		p->series_cap = 36000;
	if (!p->max_consec_errors)
		p->max_consec_errors = 256;
	if (!p->qd)
		p->qd = 1;
	if (!p->io_timeout_ns)
		p->io_timeout_ns = WORKER_IO_TIMEOUT_NS;
}

static inline uint64_t
xorshift(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static void
fill_random(uint64_t *rng, void *buf, size_t len)
{
	uint64_t *p = buf;
	for (size_t i = 0; i < len / 8; i++)
		p[i] = xorshift(rng);
}

/* Initial buffer contents.  Compressible: in each 4 KiB, the first half
 * random, the second zeros (compresses ~2:1). */
static void
fill_buffer(struct worker *w, void *buf, size_t len)
{
	switch (w->p.data) {
	case DATA_ZEROS:
	case DATA_PATTERN:	/* filled before each write */
		memset(buf, 0, len);
		break;
	case DATA_RANDOM:
		fill_random(&w->rng, buf, len);
		break;
	case DATA_COMPRESSIBLE:
		for (size_t o = 0; o < len; o += 4096) {
			size_t n = len - o < 4096 ? len - o : 4096;
			size_t r = n / 2;
			fill_random(&w->rng, (char *)buf + o, r);
			memset((char *)buf + o + r, 0, n - r);
		}
		break;
	}
}

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

static inline uint64_t
eclock(struct worker *w)
{
	return w->eng.ops->clock_ns ? w->eng.ops->clock_ns(&w->eng) : now_ns();
}

int
worker_setup(struct worker *w, const struct worker_params *p,
	     struct start_gate *gate, atomic_bool *stop)
{
	memset(w, 0, sizeof(*w));
	w->p = *p;
	worker_params_default(&w->p);
	w->gate = gate;
	w->stop = stop;
	hist_init(&w->hist);
	w->rng = p->seed ? p->seed * 0x9e3779b97f4a7c15ull : 0x2545f4914f6cdd1dull;
	if (!w->rng)
		w->rng = 1;
	unsigned qd = w->p.qd;
	if (qd < 1 || qd > WORKER_MAX_QD || w->p.bs < WORKER_MIN_BS || w->p.bs > WORKER_MAX_BS) {
		snprintf(w->msg, sizeof(w->msg), "queue depth %u or block size %u out of range", qd, w->p.bs);
		return -EINVAL;
	}
	int rc = series_init(&w->series, w->p.series_cap);
	if (rc)
		return rc;
	w->u = calloc(qd, sizeof(*w->u));
	w->done = calloc(qd, sizeof(*w->done));
	w->bufs = calloc(qd, sizeof(*w->bufs));
	w->free_slots = calloc(qd, sizeof(*w->free_slots));
	if (!w->u || !w->done || !w->bufs || !w->free_slots)
		return -ENOMEM;
	/* One contiguous block for all buffers (the engine can register it as
	 * one array); from 2 MiB up on huge pages where the kernel allows, so a
	 * large I/O is a few physically contiguous segments, not one per 4 KiB
	 * page (fewer request splits below the block layer). */
	size_t align = 4096;
	if (p->t && p->t->mem_align > align)
		align = p->t->mem_align;
	size_t len = (w->p.bs + 4095) / 4096 * 4096;
	size_t total = len * qd;
	if (total >= (2u << 20))
		align = 2u << 20;
	total = (total + align - 1) / align * align;
	if (posix_memalign(&w->mem, align, total))
		return -ENOMEM;
	if (align >= (2u << 20))
		madvise(w->mem, total, MADV_HUGEPAGE);	/* a hint: fine when refused */
	for (unsigned i = 0; i < qd; i++) {
		w->bufs[i] = (char *)w->mem + (size_t)i * len;
		fill_buffer(w, w->bufs[i], len);
		w->u[i].buf = w->bufs[i];
		w->u[i].index = i;
	}
	return 0;
}

static bool
fallback_errno(int rc)
{
	return rc == -ENOSYS || rc == -EPERM || rc == -EOPNOTSUPP || rc == -EACCES;
}

static int
engine_up(struct worker *w)
{
	size_t len = (w->p.bs + 4095) / 4096 * 4096;
	w->eng.ops = w->p.ops;
	w->eng.t = w->p.t;
	w->eng.qd = w->p.qd;
	int rc = w->p.ops->init(&w->eng, w->bufs, w->p.qd, len);
	if (rc && fallback_errno(rc) && w->p.fallback && w->p.fallback != w->p.ops) {
		snprintf(w->notice, sizeof(w->notice), "%s unavailable (%s): using %s",
			 w->p.ops->name, strerror(-rc), w->p.fallback->name);
		memset(&w->eng, 0, sizeof(w->eng));
		w->eng.ops = w->p.fallback;
		w->eng.t = w->p.t;
		w->eng.qd = w->p.qd;
		rc = w->p.fallback->init(&w->eng, w->bufs, w->p.qd, len);
	}
	if (rc) {
		snprintf(w->msg, sizeof(w->msg), "%s: engine %s: %s", w->p.t ? w->p.t->name : "?",
			 w->eng.ops->name, strerror(-rc));
		w->eng.ops = NULL;
		return rc;
	}
	w->engine_used = w->eng.ops->name;
	/* only sim engines keep a clock; in the dashboard it follows real time */
	w->virtual_clock = w->eng.ops->clock_ns != NULL && w->p.t && !(w->p.t->sim_speed > 0);
	return 0;
}

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

#define PUB_STORE(f, v) atomic_store_explicit(&w->pub.f, (v), memory_order_relaxed)

/* Bounded waits (fio's way): the worker looks at the clock, the stop flag and
 * the oldest outstanding I/O at least this often. */
#define WAIT_NS (100ull * 1000000ull)

static void
record_timeout(struct worker *w, uint64_t off, uint64_t age_ns)
{
	err_record(&w->err, ETIMEDOUT, off);
	PUB_STORE(errors, w->err.count);
	snprintf(w->msg, sizeof(w->msg), "%s: I/O at byte %llu outstanding for %.0f s: gave up on the target",
		 w->p.t ? w->p.t->name : "?", (unsigned long long)off, (double)age_ns / 1e9);
	w->rc = -ETIMEDOUT;
}

/* Stamp and queue up to nfree I/Os.  The start time is read after the
 * buffers are stamped, so no latency includes stamping. */
static unsigned
fill_queue(struct worker *w, struct offset_gen *g, unsigned *nfree, uint64_t tm,
	   uint64_t *issued, bool *stopping)
{
	const struct worker_params *p = &w->p;
	struct io_u *batch[WORKER_MAX_QD];
	unsigned nb = 0;
	bool steered = false;
	/* --size counts the measured part only: not while ramping up */
	bool counting = p->size && (!p->ramp_ns || eclock(w) >= tm);
	while (nb < *nfree) {
		if (counting && *issued + (uint64_t)nb * p->bs >= p->size) {
			*stopping = true;
			break;
		}
		bool wrapped = false;
		uint64_t off;
		uint32_t len = p->bs;
		if (w->next.set) {	/* steered by the test's hook (set between batches) */
			w->next.set = false;
			steered = true;
			off = w->next.off;
			if (w->next.len && w->next.len < p->bs)
				len = w->next.len;
			/* the end, or (never by design) outside the step's region */
			if (off == IO_NEXT_END || off < g->start || off + len > g->end) {
				*stopping = true;
				break;
			}
			offsets_seek(g, off + len);
		} else {
			off = offsets_next(g, &wrapped);
		}
		if (wrapped && p->one_pass) {
			*stopping = true;
			break;
		}
		struct io_u *u = &w->u[w->free_slots[*nfree - 1 - nb]];
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
				g->i -= nb - 1;
			} else {
				g->i -= nb - i;
			}
			break;
		}
		if (rc < 0) {
			snprintf(w->msg, sizeof(w->msg), "%s: queue: %s", p->t->name, strerror(-rc));
			w->rc = rc;
			*stopping = true;
			break;
		}
		(*nfree)--;
		w->busy[u->index] = 1;
		queued++;
		if (ts >= tm)
			*issued += p->bs;
	}
	return queued;
}

/* Hand back an I/O to the caller's thread when the runner gave up on it
 * (own: 0 running, 1 inside a blocking call, 2 abandoned, 3 done). */
static bool
blocking_enter(struct worker *w, const struct io_u *u)
{
	PUB_STORE(busy_off, u->offset);
	PUB_STORE(busy_ns, now_ns());
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

/* 0, or -ECANCELED when the runner abandoned this worker during an I/O. */
static int
run_loop(struct worker *w)
{
	const struct engine_ops *ops = w->eng.ops;
	struct offset_gen g;
	const struct worker_params *p = &w->p;
	int rc = offsets_init(&g, p->pat, p->region_start, p->region_end, p->bs,
			      p->stride_first, p->stride_step, p->seed);
	if (rc) {
		snprintf(w->msg, sizeof(w->msg), "%s: empty region for block size %u", p->t->name, p->bs);
		w->rc = rc;
		return 0;
	}
	unsigned nfree = p->qd, inflight = 0;
	for (unsigned i = 0; i < p->qd; i++)
		w->free_slots[i] = p->qd - 1 - i;
	w->eng.wait_ns = WAIT_NS;
	uint64_t interval = (uint64_t)p->interval_ms * 1000000ull;
	uint64_t t0 = eclock(w);
	uint64_t tm = t0 + p->ramp_ns;			/* measurement starts */
	uint64_t tstop = p->time_ns ? tm + p->time_ns : UINT64_MAX;
	uint64_t inext = tm + interval;			/* end of the current interval */
	uint64_t issued = 0, consec = 0, last = tm, streak_from = tm, rb = 0, wb = 0, ios = 0, late = 0;
	uint64_t prev = t0, scanned = t0, gave_up = 0;
	uint64_t conts = worker_cont_count();
	bool stopping = false, measuring = p->ramp_ns == 0, died = false;
	const struct io_u *rule_u = NULL;	/* the I/O whose completion a fail rule ended on */
	bool wall = !ops->clock_ns;	/* a pause shows on the wall clock only */
	w->next = p->first;
	PUB_STORE(state, measuring ? WS_MEASURE : WS_RAMP);

	for (;;) {
		if (!stopping && nfree && fill_queue(w, &g, &nfree, tm, &issued, &stopping)) {
			inflight = p->qd - nfree;
			bool blk = w->eng.blocking;
			if (blk && !blocking_enter(w, &w->u[w->free_slots[nfree]]))
				return -ECANCELED;
			rc = ops->commit(&w->eng);
			if (blk && !blocking_leave(w))
				return -ECANCELED;
			if (rc < 0 && rc != -EAGAIN && rc != -EINTR) {
				snprintf(w->msg, sizeof(w->msg), "%s: submit: %s", p->t->name, strerror(-rc));
				w->rc = rc;
				stopping = true;
			}
		}
		inflight = p->qd - nfree;
		if (!inflight)
			break;
		int n = ops->getevents(&w->eng, 1, inflight, w->done);
		if (n == -EINTR || n == -EAGAIN)
			n = 0;
		if (n < 0) {
			snprintf(w->msg, sizeof(w->msg), "%s: reap: %s", p->t->name, strerror(-n));
			w->rc = n;
			w->eng.abandoned = inflight;
			break;
		}
		uint64_t now = eclock(w);
		/* back from a long gap: a stop of the process, if SIGCONT is
		 * pending or was taken since (worker-gate.c) */
		uint64_t c = wall && now - prev > 2 * WAIT_NS ? worker_poll_cont() : worker_cont_count(), ca = 0;
		if (c != conts) {
			conts = c;
			ca = worker_last_cont_ns();
			if (ca > now)
				ca = now;	/* taken by another thread after our clock read */
		}
		if (ca) {
			/* stopped somewhere after prev, resumed at ca */
			if (wall && ca > prev && ca - prev > 2 * WAIT_NS && ca <= now) {
				uint64_t gap = ca - prev;
				t0 += gap;
				tm += gap;
				if (tstop != UINT64_MAX)
					tstop += gap;
				inext += gap;
				last += gap;
				streak_from += gap;
				scanned = now;
				for (unsigned i = 0; i < p->qd; i++)
					if (w->busy[i])
						w->u[i].start_ns = 0;	/* spans the pause: latency unknown */
			}
		}
		prev = now;
		for (int i = 0; i < n; i++) {
			struct io_u *u = w->done[i];
			uint64_t td = u->done_ns ? u->done_ns : now;
			inflight--;
			w->busy[u->index] = 0;
			w->free_slots[nfree++] = u->index;
			PUB_STORE(pos, u->offset);
			bool lat_known = u->start_ns != 0 || !wall;
			uint64_t lat = td > u->start_ns ? td - u->start_ns : 0;
			if (p->on_io) {
				struct io_done d = {
					.offset = u->offset, .len = u->len, .write = u->write,
					.measured = td >= tm && td < tstop,
					.res = u->result == (int)u->len ? 0 : u->result < 0 ? u->result : -EIO,
					.lat_ns = lat_known ? lat : 0,
					.t_ns = td > t0 ? td - t0 : 0,
					.buf = u->buf, .seed = p->seed, .stop = w->stop_why,
					.next = &w->next,
				};
				p->on_io(p->on_io_state, &d);
				if (w->stop_why[0] && !w->failed) {
					/* a fail rule ended this target: this I/O still
					 * counts, nothing later does */
					w->failed = true;
					snprintf(w->msg, sizeof(w->msg), "%.30s: %.158s", p->t ? p->t->name : "?",
						 w->stop_why);
					if (!stopping || td < tstop)
						tstop = td;
					rule_u = u;
					stopping = true;
					PUB_STORE(state, WS_DRAIN);
				}
			}
			if (u->result != (int)u->len) {
				int e = u->result < 0 ? -u->result : EIO;	/* short = EIO */
				if (td < tm) {
					err_record(&w->err_ramp, e, u->offset);
				} else {
					err_record(&w->err, e, u->offset);
					PUB_STORE(errors, w->err.count);
				}
				if (!consec)
					streak_from = last;
				if (td >= tm && td < tstop && td > last)
					last = td;	/* a step of failed reads took time too */
				if (++consec >= p->max_consec_errors && !stopping) {
					died = true;
					snprintf(w->msg, sizeof(w->msg), "%s: stopped after %llu failed I/Os in a row (%s)",
						 p->t->name, (unsigned long long)consec, strerror(e));
					stopping = true;
				}
				continue;
			}
			consec = 0;
			if (td < tm)
				continue;	/* ramp-up */
			if (td >= tstop && u != rule_u) {
				/* after the limit (the drain): no bytes, but its
				 * latency counts, so a stall at the end shows */
				if (lat_known)
					hist_add(&w->hist, lat);
				late++;
				continue;
			}
			if (!measuring) {
				measuring = true;
				PUB_STORE(state, WS_MEASURE);
			}
			while (td >= inext) {
				interval_close(w, inext - tm, interval);
				inext += interval;
			}
			if (lat_known) {
				w->ihist[hist_index(lat)]++;
				w->in++;
				hist_add(&w->hist, lat);
			}
			ios++;
			if (u->write) {
				w->iwb += u->len;
				wb += u->len;
			} else {
				w->irb += u->len;
				rb += u->len;
			}
			if (td > last)
				last = td;
		}
		PUB_STORE(rbytes, rb);
		PUB_STORE(wbytes, wb);
		PUB_STORE(ios, ios);
		if (!stopping) {
			if (now >= tstop) {
				stopping = true;
			} else if (atomic_load_explicit(w->stop, memory_order_relaxed)) {
				stopping = true;
				tstop = now;	/* bytes completing from here on are not counted */
			}
			if (now > tm)
				PUB_STORE(elapsed_ns, (now < tstop ? now : tstop) - tm);
			if (stopping)
				PUB_STORE(state, WS_DRAIN);
		}
		/* The oldest outstanding I/O, at most every wait (or when the wait
		 * came back empty). */
		if (inflight && (n == 0 || now - scanned >= WAIT_NS)) {
			scanned = now;
			uint64_t oldest = UINT64_MAX, off = 0;
			for (unsigned i = 0; i < p->qd; i++) {
				uint64_t st = w->u[i].start_ns ? w->u[i].start_ns : prev;
				if (w->busy[i] && st < oldest) {
					oldest = st;
					off = w->u[i].offset;
				}
			}
			if (oldest != UINT64_MAX && now > oldest && now - oldest >= p->io_timeout_ns) {
				record_timeout(w, off, now - oldest);
				if (p->on_io) {	/* the test hears of it like any failed I/O */
					struct io_done d = {
						.offset = off, .len = p->bs, .measured = now >= tm && now < tstop,
						.res = -ETIMEDOUT, .lat_ns = now - oldest, .t_ns = now - t0,
						.seed = p->seed, .stop = w->stop_why,
					};
					p->on_io(p->on_io_state, &d);
				}
				w->eng.abandoned = inflight;
				gave_up = now;
				break;
			}
		}
	}
	/* The measured span: to the time limit when it was reached, else to the
	 * last counted completion (or to the give-up on a timed-out I/O). */
	/* Failed reads are measured time (a bisection's probes), but a drive
	 * that read and then died (the streak of failures that ended it) is
	 * measured to its time before that streak: a step's common window is
	 * the time all of its drives delivered data. */
	if (died && streak_from > tm)
		last = streak_from;
	uint64_t tend = tstop != UINT64_MAX && eclock(w) >= tstop ? tstop : last;
	if (gave_up > tend)	/* the stall before giving up was measured time */
		tend = gave_up < tstop ? gave_up : tstop;
	if (tend < tm)
		tend = tm;
	while (inext <= tend) {
		interval_close(w, inext - tm, interval);
		inext += interval;
	}
	uint64_t istart = inext - interval;
	if (tend > istart)
		interval_close(w, tend - tm, tend - istart);
	w->seconds = (double)(tend - tm) / 1e9;
	PUB_STORE(elapsed_ns, tend - tm);
	/* Measured time with no I/O completed in it (a drive that did not
	 * answer in time, or a worker starved of CPU on a loaded machine): its
	 * 0 is not a rate, so say so; the result then counts as a problem. */
	if (!ios && !w->err.count && !w->msg[0] && tend > tm && !atomic_load_explicit(w->stop, memory_order_relaxed))
		snprintf(w->msg, sizeof(w->msg), "%s: no I/O completed in the %.1f s measured (%llu after it)",
			 p->t ? p->t->name : "?", w->seconds, (unsigned long long)late);
	return 0;
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	int rc = engine_up(w);
	if (w->gate)
		gate_arrive(w->gate);
	if (rc) {
		w->rc = rc;
	} else if (run_loop(w) == -ECANCELED) {
		/* The runner gave up on us while a read or write hung in the
		 * kernel, and may have freed the gate, the stop flag and the
		 * target by now: close the engine (its own descriptor) and go.
		 * The buffers stay: w->u and w->mem are never freed (see
		 * worker_cleanup). */
		w->eng.abandoned = 1;
		w->eng.ops->cleanup(&w->eng);
		return NULL;
	} else {
		w->eng.ops->cleanup(&w->eng);
		w->keep_mem = w->eng.stalled;
	}
	atomic_store_explicit(&w->pub.state, WS_DONE, memory_order_release);
	atomic_store(&w->own, 3);
	if (w->gate) {
		pthread_mutex_lock(&w->gate->mu);
		w->gate->finished++;
		pthread_cond_broadcast(&w->gate->cv);
		pthread_mutex_unlock(&w->gate->mu);
	}
	return NULL;
}

int
worker_start(struct worker *w)
{
	worker_watch_pauses();
	worker_poll_cont();	/* one left from before this run is no stop of it */
	int rc = pthread_create(&w->th, NULL, worker_main, w);
	if (rc)
		return -rc;
	w->started = true;
	return 0;
}

bool
worker_watch(struct worker *w)
{
	if (atomic_load(&w->own) != 1)
		return false;
	uint64_t since = atomic_load_explicit(&w->pub.busy_ns, memory_order_relaxed);
	worker_poll_cont();	/* the sampler's tick takes a SIGCONT a worker did not */
	uint64_t cont = worker_last_cont_ns(), now = now_ns();
	if (cont > since)
		since = cont;	/* a pause of the process is not the device's */
	if (!since || now < since || now - since < w->p.io_timeout_ns)
		return false;
	int exp = 1;
	if (!atomic_compare_exchange_strong(&w->own, &exp, 2))
		return false;
	/* The thread is stuck in the kernel and will touch nothing of ours
	 * when it returns: the statistics are the runner's now. */
	record_timeout(w, atomic_load_explicit(&w->pub.busy_off, memory_order_relaxed), now - since);
	w->abandoned = true;
	uint64_t el = atomic_load(&w->pub.elapsed_ns);
	w->seconds = (double)el / 1e9;
	atomic_store_explicit(&w->pub.state, WS_DONE, memory_order_release);
	if (w->gate) {
		pthread_mutex_lock(&w->gate->mu);
		w->gate->finished++;
		pthread_cond_broadcast(&w->gate->cv);
		pthread_mutex_unlock(&w->gate->mu);
	}
	return true;
}

void
worker_join(struct worker *w)
{
	if (w->started) {
		if (w->abandoned)
			pthread_detach(w->th);
		else
			pthread_join(w->th, NULL);
		w->started = false;
	}
}

bool
worker_cleanup(struct worker *w)
{
	series_free(&w->series);
	if (w->abandoned || w->keep_mem) {
		/* A thread or the kernel may still write into these: never freed
		 * (one buffer block per stalled target), and an abandoned
		 * worker's struct is kept by its caller. */
		return !w->abandoned;
	}
	free(w->mem);
	w->mem = NULL;
	free(w->bufs);
	free(w->u);
	free(w->done);
	free(w->free_slots);
	w->bufs = NULL;
	w->u = NULL;
	w->done = NULL;
	w->free_slots = NULL;
	return true;
}

int
worker_result(const struct worker *w, struct target_result *r)
{
	memset(r, 0, sizeof(*r));
	if (w->p.t)
		strtrimcpy(r->target, sizeof(r->target), w->p.t->name);
	strtrimcpy(r->note, sizeof(r->note), w->msg);
	strtrimcpy(r->engine, sizeof(r->engine), w->engine_used ? w->engine_used : "");
	uint64_t rb = atomic_load(&w->pub.rbytes), wb = atomic_load(&w->pub.wbytes);
	r->bytes = rb + wb;
	r->ios = atomic_load(&w->pub.ios);
	r->seconds = w->seconds;
	if (w->seconds > 0) {
		r->mbps = (double)r->bytes / w->seconds / 1e6;
		r->read_mbps = (double)rb / w->seconds / 1e6;
		r->write_mbps = (double)wb / w->seconds / 1e6;
		r->iops = (double)r->ios / w->seconds;
	}
	const struct hist *h = &w->hist;
	if (h->n) {
		r->lat.known = true;
		r->lat.min = (double)h->min / 1e3;
		r->lat.max = (double)h->max / 1e3;
		r->lat.mean = hist_mean(h) / 1e3;
		r->lat.stddev = hist_stddev(h) / 1e3;
		r->lat.p50 = hist_percentile(h, 50) / 1e3;
		r->lat.p90 = hist_percentile(h, 90) / 1e3;
		r->lat.p99 = hist_percentile(h, 99) / 1e3;
		r->lat.p999 = hist_percentile(h, 99.9) / 1e3;
	}
	r->err = w->err;
	r->ramp_err = w->err_ramp;
	/* Series: what the ring still holds. */
	uint64_t total = series_total(&w->series);
	size_t n = total < w->series.cap ? (size_t)total : w->series.cap;
	struct saved_series *s = &r->series;
	s->interval_ms = w->p.interval_ms;
	if (n) {
		struct series_sample *tmp = malloc(n * sizeof(*tmp));
		s->mbps = malloc(n * sizeof(float));
		s->iops = malloc(n * sizeof(float));
		s->p99_us = malloc(n * sizeof(float));
		s->pos = malloc(n * sizeof(float));
		if (!tmp || !s->mbps || !s->iops || !s->p99_us || !s->pos) {
			free(tmp);
			return -ENOMEM;
		}
		size_t k = series_copy(&w->series, total - n, n, tmp, NULL);
		for (size_t i = 0; i < k; i++) {
			s->mbps[i] = (float)series_mbps(&tmp[i]);
			s->iops[i] = (float)series_iops(&tmp[i]);
			s->p99_us[i] = tmp[i].p99_us;
			s->pos[i] = tmp[i].pos;
		}
		s->n = k;
		free(tmp);
	}
	/* Histogram: non-empty buckets. */
	size_t nb = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		nb += h->count[i] != 0;
	if (nb) {
		r->hist.upper_us = malloc(nb * sizeof(double));
		r->hist.count = malloc(nb * sizeof(uint64_t));
		if (!r->hist.upper_us || !r->hist.count)
			return -ENOMEM;
		for (unsigned i = 0; i < HIST_BUCKETS; i++)
			if (h->count[i]) {
				r->hist.upper_us[r->hist.n] = (double)(hist_bucket_hi(i) + 1) / 1e3;
				r->hist.count[r->hist.n++] = h->count[i];
			}
	}
	return 0;
}
