/* worker-int.h - what worker.c (set-up, thread, results) and worker-loop.c
 * (the I/O loop) share; private to src/run/worker*.c. */
#ifndef DS_WORKER_INT_H
#define DS_WORKER_INT_H
#include <stdint.h>
#include "run/worker.h"

#define PUB_STORE(f, v) atomic_store_explicit(&w->pub.f, (v), memory_order_relaxed)

static inline uint64_t
xorshift(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* The I/O loop (worker-loop.c): 0, or -ECANCELED when the runner abandoned
 * this worker during a blocking I/O. */
int worker_loop(struct worker *w);
/* An I/O outstanding for age_ns at off: counted as a timeout, the worker
 * gives up on the target (also worker_watch's, from the runner's thread). */
void worker_record_timeout(struct worker *w, uint64_t off, uint64_t age_ns);
#endif
