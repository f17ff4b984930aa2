/* engine.h - how bytes move (fio's ioengine_ops).  Engines move bytes and
 * nothing else: the worker timestamps every I/O and keeps the statistics. */
#ifndef DS_ENGINE_H
#define DS_ENGINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct target;

struct io_u {
	void *buf;
	uint64_t offset;	/* bytes */
	uint32_t len;		/* bytes */
	bool write;
	int result;		/* bytes done, or -errno; set by the engine at completion */
	uint64_t start_ns;	/* set by the worker at submit (engine clock) */
	uint64_t done_ns;	/* set by the engine when it knows better (sim), else 0 */
	unsigned index;		/* slot in the worker's io_u array */
};

struct engine {
	const struct engine_ops *ops;
	struct target *t;
	unsigned qd;
	void *priv;
	/* Set by the worker: the longest one getevents(min > 0) may wait, on the
	 * engine's clock; it then returns what it has, maybe 0.  0 = until min. */
	uint64_t wait_ns;
	/* Set by the worker before cleanup: I/Os it gave up on (outstanding past
	 * the I/O timeout).  cleanup must not wait for them. */
	unsigned abandoned;
	/* Set by init: commit() performs the I/O in the calling thread and may
	 * block for as long as the device takes (psync at queue depth 1). */
	bool blocking;
	/* Set by cleanup: I/O may still land in the buffers (a thread or the
	 * kernel still holds it); the owner must never free them. */
	bool stalled;
};

struct engine_ops {
	const char *name;
	/* Set up for queue depth qd on an opened target; bufs/n_bufs are the
	 * worker's aligned buffers (for registration). 0 / -errno. */
	int (*init)(struct engine *e, void **bufs, unsigned n_bufs, size_t buf_len);
	/* Queue one I/O (not yet submitted).  0 / -errno / -EBUSY when full. */
	int (*queue)(struct engine *e, struct io_u *u);
	/* Submit what is queued.  Number submitted or -errno. */
	int (*commit)(struct engine *e);
	/* Wait for at least min completions (or at most e->wait_ns when set),
	 * return up to max in done[].  Count (0 after a bounded wait) or -errno. */
	int (*getevents)(struct engine *e, unsigned min, unsigned max, struct io_u **done);
	void (*cleanup)(struct engine *e);
	/* The engine's clock when it is not wall time (sim's virtual clock); NULL = now_ns(). */
	uint64_t (*clock_ns)(struct engine *e);
};

/* The explicit registry: "uring", "psync", "sim"; NULL-terminated. */
extern const struct engine_ops *const engine_table[];
const struct engine_ops *engine_find(const char *name);

/* Notes on the engines (engine-*.c):
 * - uring: init returns -ENOSYS / -EPERM when io_uring is unavailable (old
 *   kernel, seccomp, kernel.io_uring_disabled), so the caller can fall back
 *   to psync.  The ring becomes owned by the thread of the first commit:
 *   commit, getevents and cleanup must then run on that thread (cleanup on
 *   another thread cannot drop the registered file, and the device's O_EXCL
 *   claim lingers until the kernel's async ring teardown).  commit() leaves
 *   the SQEs for the next getevents() to submit together with the wait (one
 *   io_uring_enter per reap): call getevents() after commit(), as fio does.
 * - psync: qd threads, each doing pread/pwrite, so qd I/Os are in flight; at
 *   qd 1 no thread: commit() does the I/O inline (a thread handoff would cost
 *   more than a zram read) and init sets e->blocking. */
/* 0 when io_uring works in this process (a ring and a NOP, probed once), else
 * -errno (-ENOSYS, -EPERM, ...).  For the "using psync" notice. */
int engine_uring_probe(void);
bool engine_uring_available(void);
/* Tests only: rings created from now on lack IORING_SETUP_SUBMIT_ALL. */
void engine_uring_test_no_submit_all(bool on);
#endif
