/* worker-gate.c - what the workers of a step share: the start gate, and
 * the watch for a pause of the whole process (SIGSTOP/SIGCONT). */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include "run/worker.h"
#include "util/util.h"

void
gate_init(struct start_gate *g)
{
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->arrived = 0;
	g->finished = 0;
	g->open = false;
}

void
gate_destroy(struct start_gate *g)
{
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->cv);
}

void
gate_arrive(struct start_gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->arrived++;
	pthread_cond_broadcast(&g->cv);
	while (!g->open)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

void
gate_wait_all(struct start_gate *g, unsigned n)
{
	pthread_mutex_lock(&g->mu);
	while (g->arrived < n)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

void
gate_open(struct start_gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->open = true;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

bool
gate_wait_done(struct start_gate *g, unsigned n, unsigned ms)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += (long)ms * 1000000L;
	ts.tv_sec += ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&g->mu);
	while (g->finished < n)
		if (pthread_cond_timedwait(&g->cv, &g->mu, &ts))
			break;
	bool all = g->finished >= n;
	pthread_mutex_unlock(&g->mu);
	return all;
}

/* ---- a pause of the whole process (SIGSTOP/SIGTSTP, then SIGCONT) ----
 * CLOCK_MONOTONIC keeps running while the process is stopped, so a stop
 * inside the measured window would count as time with no bytes.  SIGCONT is
 * blocked in every thread (the first call blocks it in the thread that
 * starts the others, main at start-up), so the kernel keeps it pending: the
 * process has resumed by the time any thread runs again, and the signal is
 * still there to be seen.  It is taken (sigtimedwait) under a lock, and its
 * time and count recorded in the same critical section, so a thread that
 * finds none pending sees the count of one taken already.  A handler that
 * ran after delivery left a window: a worker back from the stop before the
 * handler had counted it saw neither (pause.sh under load, 30 idle
 * intervals counted).  The handler stays, chained, for a thread of a
 * library that leaves SIGCONT unblocked. */
static _Atomic uint64_t cont_count, cont_at_ns;
static struct sigaction cont_old;
static pthread_mutex_t cont_mu = PTHREAD_MUTEX_INITIALIZER;

static void
on_sigcont(int sig, siginfo_t *si, void *uc)
{
	atomic_store(&cont_at_ns, now_ns());
	atomic_fetch_add(&cont_count, 1);
	if ((cont_old.sa_flags & SA_SIGINFO) && cont_old.sa_sigaction)
		cont_old.sa_sigaction(sig, si, uc);
	else if (!(cont_old.sa_flags & SA_SIGINFO) && cont_old.sa_handler != SIG_DFL &&
		 cont_old.sa_handler != SIG_IGN)
		cont_old.sa_handler(sig);
}

static void
cont_install(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigcont, .sa_flags = SA_SIGINFO | SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCONT, &sa, &cont_old);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGCONT);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
}

uint64_t
worker_last_cont_ns(void)
{
	return atomic_load(&cont_at_ns);
}

uint64_t
worker_cont_count(void)
{
	return atomic_load(&cont_count);
}

void
worker_watch_pauses(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, cont_install);
}

uint64_t
worker_poll_cont(void)
{
	static const struct timespec zero = { 0, 0 };
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGCONT);
	pthread_mutex_lock(&cont_mu);
	if (sigtimedwait(&s, NULL, &zero) == SIGCONT) {
		atomic_store(&cont_at_ns, now_ns());
		atomic_fetch_add(&cont_count, 1);
	}
	uint64_t c = atomic_load(&cont_count);
	pthread_mutex_unlock(&cont_mu);
	return c;
}
