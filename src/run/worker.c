/* worker.c - a worker's set-up, its thread, the runner's watch over it and
 * its result; the I/O loop itself is worker-loop.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "run/worker-int.h"
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

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	int rc = engine_up(w);
	if (w->gate)
		gate_arrive(w->gate);
	if (rc) {
		w->rc = rc;
	} else if (worker_loop(w) == -ECANCELED) {
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
	worker_record_timeout(w, atomic_load_explicit(&w->pub.busy_off, memory_order_relaxed), now - since);
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
