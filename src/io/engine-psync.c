/* engine-psync.c - pread/pwrite: the fallback when io_uring is unavailable
 * (seccomp, io_uring_disabled, old kernel) and the default at queue depth 1.
 *
 * Queue depth N runs N I/Os in flight: N threads, each doing one pread or
 * pwrite at a time (fio's way with numjobs).  At queue depth 1 there is no
 * thread: commit() does the I/O in the caller's thread, since a handoff would
 * cost more than a zram read; init then sets e->blocking, and the runner
 * watches that worker for an I/O that never returns.
 *
 * The engine works on its own duplicate of the target's descriptor and its
 * threads share one refcounted block: when the worker gives up on I/Os stuck
 * in the kernel, cleanup() detaches the threads and the last one out frees
 * the block and closes the descriptor, so nothing they use is freed under
 * them (the worker keeps its buffers: e->stalled). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "io/engine.h"
#include "io/target.h"
#include "util/util.h"

struct psync {
	int fd;			/* our dup of the target's */
	unsigned qd;
	/* qd 1, inline */
	struct io_u *queued;	/* taken, not yet done */
	struct io_u *ready;	/* done, not yet reaped */
	/* qd > 1, threads */
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	struct io_u **staged;	/* queued, not committed */
	unsigned nstaged;
	struct io_u **todo;	/* committed, waiting for a thread (a ring) */
	unsigned todo_head, ntodo;
	struct io_u **fin;	/* completed, not reaped */
	unsigned nfin, outstanding;	/* outstanding: taken by queue(), not reaped */
	pthread_t *th;
	unsigned nth;
	unsigned refs;		/* threads alive + 1 for the engine */
	bool quit;
};

/* The whole transfer, or bytes done before EOF, or -errno. */
static int
do_io(int fd, struct io_u *u)
{
	char *b = u->buf;
	uint32_t done = 0;

	while (done < u->len) {
		ssize_t r = u->write ? pwrite(fd, b + done, u->len - done, (off_t)(u->offset + done))
				     : pread(fd, b + done, u->len - done, (off_t)(u->offset + done));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return done ? (int)done : -errno;
		}
		if (r == 0)
			break;
		done += (uint32_t)r;
	}
	return (int)done;
}

static void
ps_free(struct psync *p)
{
	if (p->fd >= 0)
		close(p->fd);
	if (p->qd > 1) {
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->work);
		pthread_cond_destroy(&p->done);
	}
	free(p->staged);
	free(p->todo);
	free(p->fin);
	free(p->th);
	free(p);
}

/* Drop one reference with p->mu held; frees the block on the last. */
static void
ps_unref_locked(struct psync *p)
{
	bool last = --p->refs == 0;
	pthread_mutex_unlock(&p->mu);
	if (last)
		ps_free(p);
}

static void *
ps_thread(void *arg)
{
	struct psync *p = arg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->quit && !p->ntodo)
			pthread_cond_wait(&p->work, &p->mu);
		if (p->quit)
			break;
		struct io_u *u = p->todo[p->todo_head];
		p->todo_head = (p->todo_head + 1) % p->qd;
		p->ntodo--;
		pthread_mutex_unlock(&p->mu);
		int res = do_io(p->fd, u);
		pthread_mutex_lock(&p->mu);
		if (p->quit)
			break;	/* given up on: the buffer is kept, not ours to report */
		u->result = res;
		p->fin[p->nfin++] = u;
		pthread_cond_signal(&p->done);
	}
	ps_unref_locked(p);
	return NULL;
}

static void psync_cleanup(struct engine *e);

static int
psync_init(struct engine *e, void **bufs, unsigned n_bufs, size_t buf_len)
{
	if (!e->t || e->t->fd < 0)
		return -EBADF;
	struct psync *p = calloc(1, sizeof(struct psync));
	if (!p)
		return -ENOMEM;
	p->qd = e->qd ? e->qd : 1;
	if ((p->fd = dup(e->t->fd)) < 0) {
		int rc = -errno;
		free(p);
		return rc;
	}
	e->priv = p;
	e->qd = p->qd;
	if (p->qd == 1) {
		e->blocking = true;
		return 0;
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	p->staged = calloc(p->qd, sizeof(*p->staged));
	p->todo = calloc(p->qd, sizeof(*p->todo));
	p->fin = calloc(p->qd, sizeof(*p->fin));
	p->th = calloc(p->qd, sizeof(*p->th));
	p->refs = 1;
	if (!p->staged || !p->todo || !p->fin || !p->th) {
		ps_free(p);
		e->priv = NULL;
		return -ENOMEM;
	}
	for (unsigned i = 0; i < p->qd; i++) {
		pthread_mutex_lock(&p->mu);
		p->refs++;
		pthread_mutex_unlock(&p->mu);
		int rc = pthread_create(&p->th[i], NULL, ps_thread, p);
		if (rc) {
			p->refs--;
			psync_cleanup(e);
			return -rc;
		}
		p->nth++;
	}
	return 0;
}

static int
psync_queue(struct engine *e, struct io_u *u)
{
	struct psync *p = e->priv;

	if (p->qd == 1) {
		if (p->queued || p->ready)
			return -EBUSY;
		p->queued = u;
		return 0;
	}
	if (p->outstanding >= p->qd)
		return -EBUSY;
	p->staged[p->nstaged++] = u;
	p->outstanding++;
	return 0;
}

static int
psync_commit(struct engine *e)
{
	struct psync *p = e->priv;

	if (p->qd == 1) {
		if (!p->queued)
			return 0;
		p->queued->result = do_io(p->fd, p->queued);
		p->ready = p->queued;
		p->queued = NULL;
		return 1;
	}
	unsigned n = p->nstaged;
	if (!n)
		return 0;
	pthread_mutex_lock(&p->mu);
	for (unsigned i = 0; i < n; i++) {
		p->todo[(p->todo_head + p->ntodo) % p->qd] = p->staged[i];
		p->ntodo++;
	}
	p->nstaged = 0;
	if (n == 1)
		pthread_cond_signal(&p->work);
	else
		pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	return (int)n;
}

static int
psync_getevents(struct engine *e, unsigned min, unsigned max, struct io_u **done)
{
	struct psync *p = e->priv;

	if (p->qd == 1) {
		if (p->queued && min)
			psync_commit(e);	/* queued but never committed: do it now */
		if (!p->ready || !max)
			return 0;
		done[0] = p->ready;
		p->ready = NULL;
		return 1;
	}
	if (p->nstaged && min)
		psync_commit(e);
	struct timespec dl;
	if (e->wait_ns) {
		clock_gettime(CLOCK_MONOTONIC, &dl);
		uint64_t ns = (uint64_t)dl.tv_nsec + e->wait_ns;
		dl.tv_sec += (time_t)(ns / 1000000000ull);
		dl.tv_nsec = (long)(ns % 1000000000ull);
	}
	if (min > p->outstanding)
		min = p->outstanding;
	pthread_mutex_lock(&p->mu);
	while (p->nfin < min) {
		if (!e->wait_ns)
			pthread_cond_wait(&p->done, &p->mu);
		else if (pthread_cond_timedwait(&p->done, &p->mu, &dl) == ETIMEDOUT)
			break;
	}
	unsigned k = p->nfin < max ? p->nfin : max;
	for (unsigned i = 0; i < k; i++)
		done[i] = p->fin[i];
	p->nfin -= k;
	for (unsigned i = 0; i < p->nfin; i++)
		p->fin[i] = p->fin[k + i];
	p->outstanding -= k;
	pthread_mutex_unlock(&p->mu);
	return (int)k;
}

static void
psync_cleanup(struct engine *e)
{
	struct psync *p = e->priv;

	if (!p)
		return;
	e->priv = NULL;
	if (p->qd == 1) {
		ps_free(p);
		return;
	}
	pthread_mutex_lock(&p->mu);
	p->quit = true;
	bool stuck = p->outstanding > p->nfin + p->ntodo + p->nstaged;	/* inside pread/pwrite */
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	if (stuck || e->abandoned) {
		/* Do not wait for the kernel: the last thread out frees the block;
		 * the caller keeps its buffers. */
		for (unsigned i = 0; i < p->nth; i++)
			pthread_detach(p->th[i]);
		e->stalled = stuck;
		pthread_mutex_lock(&p->mu);
		ps_unref_locked(p);
		return;
	}
	unsigned nth = p->nth;
	pthread_t *th = p->th;
	p->th = NULL;
	/* idle threads: they exit at once; keep the block until they have */
	for (unsigned i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	free(th);
	pthread_mutex_lock(&p->mu);
	ps_unref_locked(p);
}

const struct engine_ops engine_psync_ops = {
	.name = "psync",
	.init = psync_init,
	.queue = psync_queue,
	.commit = psync_commit,
	.getevents = psync_getevents,
	.cleanup = psync_cleanup,
	.clock_ns = NULL,
};
