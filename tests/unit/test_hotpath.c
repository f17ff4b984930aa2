/* test_hotpath.c - the per-I/O path costs nothing a test does not use: with
 * no per-I/O hook a worker makes no allocation and takes no lock per I/O
 * (malloc, calloc, realloc, free and the pthread locks are wrapped and
 * counted: -Wl,--wrap, see the Makefile), on a scripted engine (counted
 * between its first submission and its last completion, and over the whole
 * worker: the same for N and 8N I/Os), on psync over a scratch file and on
 * io_uring where it works; and the runner installs its per-I/O hook
 * (acc_on_io, wrapped too) only where something uses it: never for
 * randread, on every completion of seqread (its position curve), and of
 * randread under DISKSCOPE_BENCH_IO_HOOK=1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/bench.h"
#include "cli/options.h"
#include "io/engine.h"
#include "io/target.h"
#include "run/measure.h"
#include "run/runner.h"
#include "run/worker.h"

/* ---- counted calls (from the project's objects only) ---- */

static _Atomic unsigned long n_alloc, n_lock, n_acc;
static _Atomic bool hot;		/* inside the scripted engine's window */
static _Atomic unsigned long hot_alloc, hot_lock;

static inline void
count(_Atomic unsigned long *all, _Atomic unsigned long *in_hot)
{
	atomic_fetch_add(all, 1);
	if (atomic_load(&hot))
		atomic_fetch_add(in_hot, 1);
}

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t s);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
int __real_pthread_mutex_lock(pthread_mutex_t *m);
int __real_pthread_mutex_trylock(pthread_mutex_t *m);
int __real_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int __real_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t);
void __real_acc_on_io(void *state, const struct io_done *d);

void *__wrap_malloc(size_t n) { count(&n_alloc, &hot_alloc); return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t s) { count(&n_alloc, &hot_alloc); return __real_calloc(n, s); }
void *__wrap_realloc(void *p, size_t n) { count(&n_alloc, &hot_alloc); return __real_realloc(p, n); }
void __wrap_free(void *p) { if (p) count(&n_alloc, &hot_alloc); __real_free(p); }
int __wrap_pthread_mutex_lock(pthread_mutex_t *m) { count(&n_lock, &hot_lock); return __real_pthread_mutex_lock(m); }
int __wrap_pthread_mutex_trylock(pthread_mutex_t *m) { count(&n_lock, &hot_lock); return __real_pthread_mutex_trylock(m); }
int
__wrap_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	count(&n_lock, &hot_lock);
	return __real_pthread_cond_wait(c, m);
}
int
__wrap_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t)
{
	count(&n_lock, &hot_lock);
	return __real_pthread_cond_timedwait(c, m, t);
}
void
__wrap_acc_on_io(void *state, const struct io_done *d)
{
	atomic_fetch_add(&n_acc, 1);
	__real_acc_on_io(state, d);
}

/* ---- a scripted engine: every I/O takes 10 us on a virtual clock ---- */

#define BS 4096u
static uint64_t vnow;
static struct io_u *pend[WORKER_MAX_QD];
static unsigned npend;
static unsigned long s_done, s_want;	/* completions handed back, and the run's */

static int s_init(struct engine *e, void **b, unsigned n, size_t l) { npend = 0; return 0; }
static int
s_queue(struct engine *e, struct io_u *u)
{
	if (npend >= e->qd)
		return -EBUSY;
	atomic_store(&hot, true);	/* from the first submission on */
	pend[npend++] = u;
	u->done_ns = u->start_ns + 10000;
	u->result = (int)u->len;
	return 0;
}
static int s_commit(struct engine *e) { return (int)npend; }
static int
s_getevents(struct engine *e, unsigned min, unsigned max, struct io_u **done)
{
	uint64_t first = UINT64_MAX;
	for (unsigned i = 0; i < npend; i++)
		if (pend[i]->done_ns < first)
			first = pend[i]->done_ns;
	if (first > vnow)
		vnow = first;
	unsigned k = 0;
	for (unsigned i = 0; i < npend && k < max;) {
		if (pend[i]->done_ns <= vnow) {
			done[k++] = pend[i];
			pend[i] = pend[--npend];
		} else {
			i++;
		}
	}
	s_done += k;
	if (s_done >= s_want)
		atomic_store(&hot, false);	/* to the last completion */
	return (int)k;
}
static void s_cleanup(struct engine *e) { }
static uint64_t s_clock(struct engine *e) { return vnow; }

static const struct engine_ops stub_ops = {
	.name = "stub", .init = s_init, .queue = s_queue, .commit = s_commit,
	.getevents = s_getevents, .cleanup = s_cleanup, .clock_ns = s_clock,
};

struct counts {
	unsigned long alloc, lock, hot_alloc, hot_lock, ios;
};

/* One worker run of n I/Os from set-up to clean-up; the calls it made. */
static struct counts
run_worker(const struct engine_ops *ops, struct target *t, unsigned qd, int rw_mix,
	   enum offset_pattern pat, unsigned long n)
{
	static atomic_bool stop;
	struct worker_params p = {
		.ops = ops, .t = t, .bs = BS, .qd = qd, .rw_mix = rw_mix, .pat = pat,
		.region_end = t->size, .size = (uint64_t)n * BS, .data = DATA_RANDOM, .seed = 7,
	};
	struct worker *w = __real_calloc(1, sizeof(*w));
	assert_non_null(w);
	vnow = 1000000000ull;
	s_done = 0;
	s_want = n;
	atomic_store(&stop, false);
	atomic_store(&hot, false);
	unsigned long a0 = n_alloc, l0 = n_lock;
	hot_alloc = hot_lock = 0;
	assert_int_equal(worker_setup(w, &p, NULL, &stop), 0);
	assert_int_equal(worker_start(w), 0);
	worker_join(w);
	atomic_store(&hot, false);
	assert_int_equal(w->rc, 0);
	struct counts c = { n_alloc - a0, n_lock - l0, hot_alloc, hot_lock, atomic_load(&w->pub.ios) };
	assert_true(worker_cleanup(w));
	__real_free(w);
	return c;
}

/* The same calls for n and 8n I/Os: none per I/O. */
static void
same_for_more(const struct engine_ops *ops, struct target *t, unsigned qd, int rw_mix,
	      enum offset_pattern pat, unsigned long n)
{
	struct counts a = run_worker(ops, t, qd, rw_mix, pat, n);
	struct counts b = run_worker(ops, t, qd, rw_mix, pat, 8 * n);
	print_message("%s qd %u: %lu I/Os: %lu allocations/frees, %lu locks; %lu I/Os: %lu, %lu\n",
		      ops->name, qd, a.ios, a.alloc, a.lock, b.ios, b.alloc, b.lock);
	assert_int_equal(a.ios, n);
	assert_int_equal(b.ios, 8 * n);
	assert_int_equal(a.alloc, b.alloc);
	assert_int_equal(a.lock, b.lock);
}

static struct target stub_tgt = { .name = "stub", .fd = -1, .size = 1ull << 30, .logical = 512 };

/* The scripted engine: nothing at all between the first submission and
 * the last completion, reads and mixed, qd 1 and 8. */
static void
test_stub_window(void **state)
{
	unsigned qds[] = { 1, 8 };
	int mixes[] = { 100, 50 };
	for (unsigned i = 0; i < 2; i++)
		for (unsigned j = 0; j < 2; j++) {
			struct counts c = run_worker(&stub_ops, &stub_tgt, qds[i], mixes[j], OFS_RAND, 20000);
			assert_int_equal(c.ios, 20000);
			assert_int_equal(c.hot_alloc, 0);
			assert_int_equal(c.hot_lock, 0);
			same_for_more(&stub_ops, &stub_tgt, qds[i], mixes[j], OFS_RAND, 2000);
		}
}

/* The counters see the worker's calls at all: its set-up allocates. */
static void
test_counters_count(void **state)
{
	struct counts c = run_worker(&stub_ops, &stub_tgt, 4, 100, OFS_SEQ, 100);
	assert_true(c.alloc > 0);
}

/* The real engines on a scratch file (page cache: fast). */
static char path[64];
static int ffd = -1;

static int
setup_file(void **state)
{
	snprintf(path, sizeof path, "/tmp/ds-test-hotpath-XXXXXX");
	ffd = mkstemp(path);
	if (ffd < 0 || ftruncate(ffd, 8 << 20))
		return -1;
	return 0;
}

static int
teardown_file(void **state)
{
	if (ffd >= 0)
		close(ffd);
	unlink(path);
	return 0;
}

static void
test_psync_qd1(void **state)
{
	struct target t = { .name = "f", .fd = ffd, .size = 8 << 20, .logical = 512 };
	same_for_more(engine_find("psync"), &t, 1, 100, OFS_RAND, 2000);
	same_for_more(engine_find("psync"), &t, 1, 50, OFS_SEQ, 2000);
}

static void
test_uring(void **state)
{
	if (!engine_uring_available())
		skip();
	struct target t = { .name = "f", .fd = ffd, .size = 8 << 20, .logical = 512 };
	same_for_more(engine_find("uring"), &t, 1, 100, OFS_RAND, 2000);
	same_for_more(engine_find("uring"), &t, 8, 100, OFS_RAND, 2000);
}

/* ---- the runner: its per-I/O hook only where it is used ---- */

static unsigned long
run_acc(const char *test, uint64_t *ios)
{
	const char *args[] = { test, "sim:WD20EFRX", "--size", "8M", "--bs", "64k", "--qd", "4" };
	struct plan p;
	struct run_outputs out;
	char err[512] = "";
	if (plan_parse_args(&p, 8, (char **)args, cli_output_find, &out, err, sizeof(err)))
		fail_msg("parse: %s", err);
	if (plan_resolve_targets(&p, NULL, err, sizeof(err)))
		fail_msg("resolve: %s", err);
	assert_int_equal(plan_build(&p, err, sizeof(err)), 0);
	struct runner *r;
	if (runner_create(&p, &r, NULL, err, sizeof(err)))
		fail_msg("create: %s", err);
	unsigned long a0 = n_acc;
	assert_int_equal(runner_start(r), 0);
	runner_wait(r, -1);
	unsigned long calls = n_acc - a0;
	struct run_result res;
	assert_int_equal(runner_result(r, &res), 0);
	*ios = 0;
	for (size_t s = 0; s < res.n_steps; s++)
		for (size_t k = 0; k < res.steps[s].n_res; k++)
			*ios += res.steps[s].res[k].ios;
	run_result_free(&res);
	runner_destroy(r);
	plan_free(&p);
	return calls;
}

static void
test_runner_hook(void **state)
{
	uint64_t ios;
	assert_int_equal(run_acc("randread", &ios), 0);	/* no test hook, no curve */
	assert_true(ios > 0);
	unsigned long calls = run_acc("seqread", &ios);	/* the position curve */
	assert_true(ios > 0);
	assert_true(calls >= ios);
	/* the benchmark's switch: the hook everywhere (tests/bench/hooks-cost.sh) */
	setenv("DISKSCOPE_BENCH_IO_HOOK", "1", 1);
	calls = run_acc("randread", &ios);
	unsetenv("DISKSCOPE_BENCH_IO_HOOK");
	assert_true(ios > 0);
	assert_true(calls >= ios);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters_count),
		cmocka_unit_test(test_stub_window),
		cmocka_unit_test(test_psync_qd1),
		cmocka_unit_test(test_uring),
		cmocka_unit_test(test_runner_hook),
	};
	return cmocka_run_group_tests(tests, setup_file, teardown_file);
}
