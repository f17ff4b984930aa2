/* engine-uring.c - io_uring through liburing, the default engine.
 *
 * Lean on purpose (issue 3 measures us against fio): one ring per worker sized
 * to qd, the worker's buffers registered once (READ_FIXED/WRITE_FIXED: no page
 * pinning per I/O), the file registered (no fd lookup per I/O), no allocation
 * and at most one io_uring_enter per reap.  commit() leaves the queued SQEs in
 * the ring and the next getevents() submits them and waits in the same
 * syscall (io_uring_submit_and_wait): at QD1 that is one syscall per I/O where
 * fio spends two.  The ring is created disabled and enabled by the first
 * commit, so with SINGLE_ISSUER|DEFER_TASKRUN the submitting thread is the
 * worker thread whichever thread ran init. */
#include <errno.h>
#include <liburing.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include "io/engine.h"
#include "io/target.h"

struct uring {
	struct io_uring ring;
	unsigned pending;	/* queued, not yet handed to the kernel */
	unsigned nbufs;
	size_t buf_len;
	char *base;		/* bufs[0] when the buffers are one contiguous array */
	void **bufs;
	bool fixed_bufs, fixed_file, enabled, defer;
	struct io_uring_cqe *cqes[];	/* reap batch, qd entries */
};

/* SUBMIT_ALL: one bad SQE does not hold back the rest of the batch. */
static const unsigned setup_tries[] = {
	IORING_SETUP_R_DISABLED | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SUBMIT_ALL,
	IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SUBMIT_ALL,	/* kernels before 6.1 */
	0,							/* before 5.19 */
};

/* Tests only: rings without SUBMIT_ALL, so the kernel stops a batch at its
 * first bad SQE and a short submit can be made on purpose. */
static bool no_submit_all;

void
engine_uring_test_no_submit_all(bool on)
{
	no_submit_all = on;
}

/* liburing 2.3 declares io_uring_enable_rings() but does not export it. */
static int
ring_enable(struct io_uring *ring)
{
	long rc = syscall(__NR_io_uring_register, ring->ring_fd, IORING_REGISTER_ENABLE_RINGS,
			  NULL, 0);
	return rc < 0 ? -errno : 0;
}

static int
ring_init(struct io_uring *ring, unsigned entries, unsigned *flags_out)
{
	int rc = -EINVAL;

	for (size_t i = 0; i < sizeof setup_tries / sizeof setup_tries[0]; i++) {
		struct io_uring_params p;
		memset(&p, 0, sizeof p);
		p.flags = setup_tries[i] & (no_submit_all ? ~IORING_SETUP_SUBMIT_ALL : ~0u);
		rc = io_uring_queue_init_params(entries, ring, &p);
		if (rc == 0) {
			*flags_out = p.flags;
			return 0;
		}
		if (rc != -EINVAL)
			break;	/* ENOSYS, EPERM (seccomp, io_uring_disabled), ENOMEM */
	}
	return rc;
}

/* 1 = usable, else -errno; probed once per process (a ring and one NOP, so a
 * seccomp filter that blocks only io_uring_enter is caught too). */
static _Atomic int probed;

int
engine_uring_probe(void)
{
	int v = atomic_load(&probed);
	if (v)
		return v > 0 ? 0 : v;
	struct io_uring ring;
	unsigned flags;
	int rc = ring_init(&ring, 2, &flags);
	if (rc == 0) {
		if (flags & IORING_SETUP_R_DISABLED)
			rc = ring_enable(&ring);
		struct io_uring_sqe *sqe = rc == 0 ? io_uring_get_sqe(&ring) : NULL;
		struct io_uring_cqe *cqe;
		if (sqe) {
			io_uring_prep_nop(sqe);
			rc = io_uring_submit_and_wait(&ring, 1);
			if (rc >= 0 && (rc = io_uring_peek_cqe(&ring, &cqe)) == 0) {
				rc = cqe->res < 0 ? cqe->res : 0;
				io_uring_cqe_seen(&ring, cqe);
			}
		}
		io_uring_queue_exit(&ring);
	}
	atomic_store(&probed, rc == 0 ? 1 : rc);
	return rc < 0 ? rc : 0;
}

bool
engine_uring_available(void)
{
	return engine_uring_probe() == 0;
}

static int
uring_init(struct engine *e, void **bufs, unsigned n_bufs, size_t buf_len)
{
	unsigned qd = e->qd ? e->qd : 1, flags = 0;
	struct uring *u;
	int rc;

	if (!e->t || e->t->fd < 0)
		return -EBADF;	/* sim targets have their own engine */
	if (!(u = calloc(1, sizeof *u + qd * sizeof u->cqes[0])))
		return -ENOMEM;
	if ((rc = ring_init(&u->ring, qd, &flags)) < 0) {
		free(u);
		return rc;
	}
	u->enabled = !(flags & IORING_SETUP_R_DISABLED);
	u->defer = flags & IORING_SETUP_DEFER_TASKRUN;
	u->bufs = bufs;
	u->nbufs = n_bufs;
	u->buf_len = buf_len;
	/* Registration is an optimisation: without it (old kernel, memlock
	 * limit) plain READ/WRITE still work. */
	if (bufs && n_bufs && buf_len) {
		struct iovec *iov = calloc(n_bufs, sizeof *iov);
		if (iov) {
			bool contiguous = true;
			for (unsigned i = 0; i < n_bufs; i++) {
				iov[i].iov_base = bufs[i];
				iov[i].iov_len = buf_len;
				if ((char *)bufs[i] != (char *)bufs[0] + (size_t)i * buf_len)
					contiguous = false;
			}
			u->fixed_bufs = io_uring_register_buffers(&u->ring, iov, n_bufs) == 0;
			u->base = contiguous ? bufs[0] : NULL;
			free(iov);
		}
	}
	if (e->t && e->t->fd >= 0)
		u->fixed_file = io_uring_register_files(&u->ring, &e->t->fd, 1) == 0;
	e->priv = u;
	return 0;
}

/* Which registered buffer holds [buf, buf+len): the worker's slot index
 * first (the usual case), then the contiguous-array arithmetic. -1 = none. */
static int
buf_index(const struct uring *u, const struct io_u *io)
{
	const char *b = io->buf;
	if (io->index < u->nbufs) {
		const char *r = u->bufs[io->index];
		if (b >= r && b + io->len <= r + u->buf_len)
			return (int)io->index;
	}
	if (u->base && b >= u->base) {
		size_t i = (size_t)(b - u->base) / u->buf_len;
		if (i < u->nbufs && b + io->len <= u->base + (i + 1) * u->buf_len)
			return (int)i;
	}
	return -1;
}

static int
uring_queue(struct engine *e, struct io_u *io)
{
	struct uring *u = e->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	int fd = u->fixed_file ? 0 : e->t->fd;
	int bi;

	if (!sqe)
		return -EBUSY;
	if (u->fixed_bufs && (bi = buf_index(u, io)) >= 0) {
		if (io->write)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->offset, bi);
		else
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->offset, bi);
	} else if (io->write) {
		io_uring_prep_write(sqe, fd, io->buf, io->len, io->offset);
	} else {
		io_uring_prep_read(sqe, fd, io->buf, io->len, io->offset);
	}
	if (u->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, io);
	u->pending++;
	return 0;
}

static int
uring_commit(struct engine *e)
{
	struct uring *u = e->priv;
	unsigned n = u->pending;

	if (!u->enabled) {
		int rc = ring_enable(&u->ring);
		if (rc < 0)
			return rc;
		u->enabled = true;
		/* A registered ring fd spares io_uring_enter its fd lookup; it is
		 * per thread, so it is registered here, by the submitter. */
		io_uring_register_ring_fd(&u->ring);
	}
	/* Handed to the kernel by the next getevents (see the top of the file). */
	return (int)n;
}

static void
wait_ts(const struct engine *e, struct __kernel_timespec *ts)
{
	ts->tv_sec = (long long)(e->wait_ns / 1000000000ull);
	ts->tv_nsec = (long long)(e->wait_ns % 1000000000ull);
}

static int
uring_getevents(struct engine *e, unsigned min, unsigned max, struct io_u **done)
{
	struct uring *u = e->priv;
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts;
	unsigned got = 0;
	bool waited = false;
	int rc;

	if (max > e->qd)
		max = e->qd;
	if (min > max)
		min = max;
	if (u->pending) {
		if (!u->enabled && (rc = uring_commit(e)) < 0)
			return rc;
		/* Submit and wait in one io_uring_enter, bounded when asked. */
		if (e->wait_ns && min) {
			wait_ts(e, &ts);
			rc = io_uring_submit_and_wait_timeout(&u->ring, &cqe, min, &ts, NULL);
			waited = true;
		} else {
			rc = io_uring_submit_and_wait(&u->ring, min);
		}
		if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
			return rc;
		/* A short submit (the kernel stopped at a bad SQE, or was short of
		 * memory) leaves the rest in the SQ ring: they are still pending
		 * and go with the next enter. */
		u->pending = io_uring_sq_ready(&u->ring);
	}
	for (bool polled = false;;) {
		unsigned n = io_uring_peek_batch_cqe(&u->ring, u->cqes, max - got);
		for (unsigned i = 0; i < n; i++) {
			struct io_u *io = io_uring_cqe_get_data(u->cqes[i]);
			io->result = u->cqes[i]->res;
			done[got++] = io;
		}
		io_uring_cq_advance(&u->ring, n);
		/* A poll (min 0) with DEFER_TASKRUN sees nothing until the kernel
		 * is entered once to post the completions. */
		if (got == 0 && min == 0 && u->defer && u->enabled && !polled && max) {
			polled = true;
			if ((rc = io_uring_get_events(&u->ring)) < 0 && rc != -EINTR)
				return rc;
			continue;
		}
		if (got >= min)
			return (int)got;
		if (e->wait_ns) {
			if (waited)
				return (int)got;	/* the bounded wait is over */
			wait_ts(e, &ts);
			rc = io_uring_wait_cqes(&u->ring, &cqe, min - got, &ts, NULL);
			waited = true;
			if (rc < 0 && rc != -EINTR && rc != -ETIME && rc != -EAGAIN)
				return got ? (int)got : rc;
			continue;
		}
		/* Enters the kernel (with GETEVENTS, which also runs the deferred
		 * completion work of DEFER_TASKRUN). */
		rc = io_uring_wait_cqe_nr(&u->ring, &cqe, min - got);
		if (rc < 0 && rc != -EINTR && rc != -ETIME && rc != -EAGAIN)
			return got ? (int)got : rc;
	}
}

static void
uring_cleanup(struct engine *e)
{
	struct uring *u = e->priv;

	if (!u)
		return;
	/* The ring is torn down asynchronously after its fd closes, and the
	 * registered file would keep the device's O_EXCL claim until then: drop
	 * the registrations now so the target can be reopened at once.
	 * Unregistering waits for requests that use them; exiting the ring
	 * cancels anything else, so no completion lands in a freed buffer. */
	if (e->abandoned) {
		/* I/O stuck in the device: unregistering would wait for it.  The
		 * kernel tears the ring down on its own when it completes; the
		 * buffers must live until then. */
		e->stalled = true;
	} else {
		if (u->fixed_file)
			io_uring_unregister_files(&u->ring);
		if (u->fixed_bufs)
			io_uring_unregister_buffers(&u->ring);
	}
	io_uring_queue_exit(&u->ring);
	free(u);
	e->priv = NULL;
}

const struct engine_ops engine_uring_ops = {
	.name = "uring",
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.cleanup = uring_cleanup,
	.clock_ns = NULL,
};
