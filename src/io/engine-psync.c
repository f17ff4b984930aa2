/* engine-psync.c - pread/pwrite, one I/O at a time: the fallback when
 * io_uring is unavailable (seccomp, io_uring_disabled, old kernel).
 * Queue depth is 1 whatever was asked: init sets e->qd = 1, queue() takes one
 * I/O and answers -EBUSY until it has been reaped, commit() performs it. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "io/engine.h"
#include "io/target.h"

struct psync {
	struct io_u *queued;	/* taken, not yet done */
	struct io_u *done;	/* done, not yet reaped */
};

static int
psync_init(struct engine *e, void **bufs, unsigned n_bufs, size_t buf_len)
{
	if (!e->t || e->t->fd < 0)
		return -EBADF;
	if (!(e->priv = calloc(1, sizeof(struct psync))))
		return -ENOMEM;
	e->qd = 1;
	return 0;
}

static int
psync_queue(struct engine *e, struct io_u *u)
{
	struct psync *p = e->priv;

	if (p->queued || p->done)
		return -EBUSY;
	p->queued = u;
	return 0;
}

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

static int
psync_commit(struct engine *e)
{
	struct psync *p = e->priv;

	if (!p->queued)
		return 0;
	p->queued->result = do_io(e->t->fd, p->queued);
	p->done = p->queued;
	p->queued = NULL;
	return 1;
}

static int
psync_getevents(struct engine *e, unsigned min, unsigned max, struct io_u **done)
{
	struct psync *p = e->priv;

	if (p->queued && min)
		psync_commit(e);	/* queued but never committed: do it now */
	if (!p->done || !max)
		return 0;
	done[0] = p->done;
	p->done = NULL;
	return 1;
}

static void
psync_cleanup(struct engine *e)
{
	free(e->priv);
	e->priv = NULL;
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
