/* worker.h - one thread driving one target: keeps qd I/Os in flight through
 * an engine, timestamps each I/O on the engine's clock, and owns its
 * statistics (histogram, errors, per-interval series).  The sampler reads only
 * the published part (`pub`, atomics) and the series ring. */
#ifndef DS_WORKER_H
#define DS_WORKER_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "io/engine.h"
#include "io/target.h"
#include "run/hist.h"
#include "run/offsets.h"
#include "run/result.h"
#include "run/series.h"
#include "run/snapshot.h"

#define WORKER_MAX_QD 256
#define WORKER_MIN_BS 512u
#define WORKER_MAX_BS (16u << 20)
#define WORKER_IO_TIMEOUT_NS (30ull * 1000000000ull)	/* default --io-timeout */

/* DATA_PATTERN: every 512-byte sector written carries pattern_fill(its
 * byte offset, the worker's seed) (run/pattern.h), so a reader can check it. */
enum data_mode { DATA_RANDOM, DATA_ZEROS, DATA_COMPRESSIBLE, DATA_PATTERN };
int data_mode_parse(const char *s, enum data_mode *out);	/* 0 / -EINVAL */
const char *data_mode_name(enum data_mode d);

/* Every worker of a step initialises its engine, then waits here until the
 * runner opens the gate: sim drives on one controller share its bandwidth by
 * counting the opened ones, and real drives should start together. */
struct start_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned arrived;
	unsigned finished;		/* workers done (the runner wakes at once) */
	bool open;
};
void gate_init(struct start_gate *g);
void gate_destroy(struct start_gate *g);
void gate_arrive(struct start_gate *g);		/* worker: arrive and wait */
void gate_wait_all(struct start_gate *g, unsigned n);	/* runner: wait for n arrivals */
void gate_open(struct start_gate *g);
/* runner: wait up to ms for n workers to finish; true when they all have */
bool gate_wait_done(struct start_gate *g, unsigned n, unsigned ms);

/* The next I/O a test's hook asks for: len bytes at off (len 0: the
 * block size; at most the block size), after which the pass goes on at the
 * first block past it (offsets_seek).  off UINT64_MAX: no more I/O, the
 * pass is over.  Only the hook sets it, only the worker reads it, in the
 * worker thread; a worker that has none costs one test per I/O issued. */
struct io_next {
	uint64_t off;
	uint32_t len;
	bool set;
};
#define IO_NEXT_END UINT64_MAX

/* One completed I/O, as a test's per-I/O hook sees it (bench_test.on_io).
 * Called in the worker thread for every completion, ramp-up included
 * (`measured` says which): keep it cheap, touch only per-target state. */
struct io_done {
	uint64_t offset;		/* bytes */
	uint32_t len;			/* bytes asked for */
	bool write;
	bool measured;			/* inside the measured window */
	int res;			/* 0, or -errno (a short transfer is -EIO; -ETIMEDOUT:
					   outstanding past the I/O timeout, given up) */
	uint64_t lat_ns;		/* submit to completion */
	uint64_t t_ns;			/* completion, engine clock, from the step's start */
	const void *buf;		/* the data (a read's as it arrived), len bytes */
	uint64_t seed;			/* the worker's seed (the DATA_PATTERN key) */
	/* A fail rule: the hook ends this target's worker by writing its reason
	 * here (one line, without the target's name; WORKER_STOP_LEN bytes).
	 * The worker issues no more I/O, the ones in flight drain uncounted, it
	 * ends failed with the reason, and the other workers of the step go on. */
	char *stop;
	/* Steering (NULL where the worker cannot): the hook may say where the
	 * next I/O goes by setting next->set (a skip-ahead over an unreadable
	 * zone, a bisection's probes at qd 1).  See struct io_next. */
	struct io_next *next;
};
#define WORKER_STOP_LEN 160
typedef void (*worker_io_hook)(void *state, const struct io_done *d);

struct worker_params {
	const struct engine_ops *ops;		/* the engine to use */
	const struct engine_ops *fallback;	/* tried when ops->init says io_uring is unavailable */
	struct target *t;
	uint32_t bs;
	unsigned qd;
	int rw_mix;			/* % reads: 100 = read only, 0 = write only */
	enum offset_pattern pat;
	uint64_t region_start, region_end;	/* bytes */
	uint64_t stride_first, stride_step;	/* OFS_STRIDE */
	uint64_t size;			/* measured bytes to move, 0 = unbounded */
	uint64_t time_ns;		/* measured time, 0 = unbounded */
	uint64_t ramp_ns;		/* excluded from the results */
	bool one_pass;			/* stop at the end of the region (first pass) */
	enum data_mode data;
	uint64_t seed;
	unsigned interval_ms;		/* series interval, default 100 */
	size_t series_cap;		/* samples kept, default 36000 */
	unsigned max_consec_errors;	/* stop after this many failures in a row, default 256 */
	uint64_t io_timeout_ns;		/* an I/O outstanding longer ends the worker, default 30 s */
	worker_io_hook on_io;		/* optional, per completion (see struct io_done) */
	void *on_io_state;		/* per-target state handed to on_io */
	struct io_next first;		/* the first I/O, when set (a steered step) */
};

enum worker_state { WS_INIT, WS_RAMP, WS_MEASURE, WS_DRAIN, WS_DONE };

/* What the sampler may read while the worker runs (single writer: plain
 * loads/stores with relaxed atomics; no read-modify-write on the I/O path). */
struct worker_pub {
	_Atomic int state;		/* enum worker_state */
	_Atomic uint64_t rbytes, wbytes, ios, errors;	/* measured part */
	_Atomic uint64_t pos;		/* last completed offset, bytes */
	_Atomic uint64_t elapsed_ns;	/* measured time so far */
	_Atomic uint64_t snap_hist[SNAP_HIST];	/* folded latency, updated per interval */
	_Atomic uint64_t busy_ns, busy_off;	/* a blocking I/O under way: since (wall), where */
};

struct worker {
	struct worker_params p;
	struct worker_pub pub;
	struct series series;
	struct hist hist;		/* measured part, whole */
	struct err_summary err;		/* measured part, and the drain after it */
	struct err_summary err_ramp;	/* failed I/Os during the ramp-up, apart */
	int rc;				/* 0, or -errno when the worker could not run */
	char msg[192];			/* why it failed / stopped early */
	bool failed;			/* a fail rule of the test ended it (io_done.stop) */
	char stop_why[WORKER_STOP_LEN];	/* that rule's reason, written by the hook */
	char notice[160];		/* e.g. the psync fallback */
	const char *engine_used;
	double seconds;			/* measured seconds (engine clock) */
	bool virtual_clock;		/* the engine has its own clock */
	pthread_t th;
	bool started;
	_Atomic int own;		/* 0 running, 1 in a blocking I/O, 2 abandoned, 3 done */
	bool abandoned;			/* the runner gave up on the thread (worker_watch) */
	bool keep_mem;			/* the engine left I/O in flight: buffers never freed */
	unsigned char busy[WORKER_MAX_QD];	/* slot in flight */
	struct start_gate *gate;	/* every worker of a step meets here after init */
	atomic_bool *stop;		/* set by the runner: stop within one completion */
	/* private to the thread */
	struct engine eng;
	struct io_u *u;
	struct io_u **done;
	void *mem;			/* all buffers, one block */
	void **bufs;
	unsigned *free_slots;
	uint64_t ihist[HIST_BUCKETS];	/* current interval */
	uint64_t in, irb, iwb;		/* current interval counts */
	uint64_t rng;
	uint64_t wseq;			/* writes issued (buffer stamps) */
	struct io_next next;		/* the hook's steering (io_done.next) */
};

/* Set defaults for the optional fields of p. */
void worker_params_default(struct worker_params *p);
/* Allocate what the thread needs.  0 / -errno (message in w->msg). */
int worker_setup(struct worker *w, const struct worker_params *p,
		 struct start_gate *gate, atomic_bool *stop);
/* Start the thread: it initialises the engine, waits at the barrier, runs. */
int worker_start(struct worker *w);
void worker_join(struct worker *w);	/* detaches an abandoned one */
/* Free what can be freed; false when the struct itself must be kept (its
 * thread was abandoned while stuck in the kernel and still uses it). */
bool worker_cleanup(struct worker *w);
/* For the runner, at every sampler tick: a worker whose thread has been
 * inside one blocking I/O (psync at qd 1) longer than the I/O timeout is
 * given up: the timeout is recorded with the I/O's offset, the gate counts it
 * as finished, and worker_join detaches it.  True when that happened. */
bool worker_watch(struct worker *w);
/* Pauses of the process (worker-gate.c): SIGCONT blocked from the calling
 * thread on (call it before starting threads: main does at start-up, and
 * worker_start), so it stays pending until worker_poll_cont takes it; the
 * CLOCK_MONOTONIC ns of the last SIGCONT taken (0 none) and how many. */
void worker_watch_pauses(void);
uint64_t worker_last_cont_ns(void);
uint64_t worker_cont_count(void);
/* Take a pending SIGCONT, if any, and return the count: every thread that
 * asks after a resume sees it counted (the sampler asks at each tick, a
 * worker back from a long gap). */
uint64_t worker_poll_cont(void);
/* Fill a target_result from a finished worker (series and histogram copied). */
int worker_result(const struct worker *w, struct target_result *out);
#endif
