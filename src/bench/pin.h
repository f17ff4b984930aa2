/* pin.h - a failing drive, bounded (surface and triage share it): skip
 * ahead over a large unreadable zone during a sequential scan (the way
 * ddrescue does: after PIN_SKIP_AFTER failed blocks in a row, jump, the jump
 * doubling up to 1 % of the capacity), then pin each unreadable extent in one
 * steered step at qd 1 (io_done.next): its first and last bad sector by
 * bisection (about 2 log2(n) reads, not n), its inside and the skipped gaps
 * by sampling (a sample that reads splits the extent, its new edges are
 * bisected too), all within a time budget (--pin-budget).  The edges of a
 * range of at most one block are exact (a read of a range fails when any
 * sector in it does); across a skipped gap they assume the zone is one run.
 * The logic is pure (no I/O of its own): tests/unit/test_pin.c drives it. */
#ifndef DS_PIN_H
#define DS_PIN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bench/surface.h"
#include "run/test.h"
#include "run/worker.h"

#define PIN_SKIP_AFTER 8	/* failed blocks in a row before the scan jumps */
#define PIN_SKIP_CAP_DIV 100	/* the jump grows to at most capacity / this (1 %) */
#define PIN_SAMPLES 8		/* sectors sampled inside an extent (and one per skipped gap) */
#define PIN_MAX_SAMPLES 64
#define PIN_MAX_RUNS 512	/* extents pinned per drive (the rest stay at block resolution) */
#define PIN_BUDGET_DEF 300	/* --pin-budget default, seconds per drive */

extern const struct bench_param bp_pin_budget;

/* The scan's skip-ahead, per target (its worker thread). */
struct pin_skip {
	uint64_t cap;			/* the largest jump, bytes; 0: no skip-ahead */
	uint32_t consec;		/* failed blocks in a row */
	uint64_t jump;			/* the last jump, bytes */
	struct surface_extent *gap;	/* skipped, unread: [start, end) */
	size_t n_gap, cap_gap;
	uint64_t skipped;		/* bytes jumped over */
};

/* capacity 0: no skip-ahead (a quick scan's samples are its bound). */
void pin_skip_init(struct pin_skip *k, uint64_t capacity);
void pin_skip_free(struct pin_skip *k);
/* Every completion of the scan.  True when it jumped: the gap [*a, *b)
 * joins the failed block before it (the caller's extents). */
bool pin_skip_io(struct pin_skip *k, const struct io_done *d, uint64_t *a, uint64_t *b);

/* One extent being pinned: its first bad sector lies in [a_lo, a_hi), its
 * last in [b_lo, b_hi) (bytes). */
struct pin_run {
	uint64_t a_lo, a_hi, b_lo, b_hi;
	uint64_t s0, e0;		/* as the scan found it */
	bool a_seen, b_seen;		/* a failed read proves a bad sector there */
	bool a_none, b_none;		/* the edge's block read on pinning */
	bool sampled;
	uint32_t smp, smp_bad;		/* sectors sampled inside, unreadable */
};

struct pin {
	uint32_t bs, lbs;		/* the largest read (the scan's block), the sector */
	uint64_t budget_ns;		/* 0: no limit */
	struct pin_run *run;
	size_t n;
	const struct surface_extent *gap;	/* the scan's skipped gaps (not owned) */
	size_t n_gap;
	/* the probe asked for */
	int what;
	size_t cur;
	uint64_t p_off;
	uint32_t p_len;
	/* the run being sampled */
	size_t s_run;
	struct { uint64_t off; bool bad; } smp[PIN_MAX_SAMPLES];
	size_t n_smp, i_smp;
	uint64_t reads, failed, used_ns;
	size_t smp_good;		/* samples that read (holes found inside) */
	size_t r_gap;			/* the return pass: its gap, where in it */
	uint64_t r_off, r_end;		/* r_end: the region's end (0 none) */
	bool started, done, out_of_budget;
};

/* Runs from extents x (n, sorted; gaps already joined) at block size bs.
 * 0 / -ENOMEM.  n_lost: extents past PIN_MAX_RUNS. */
int pin_init(struct pin *P, const struct surface_extent *x, size_t n, uint32_t bs, uint32_t lbs,
	     double budget_s, const struct pin_skip *k);
void pin_free(struct pin *P);
/* The first probe (the step's io_next first); false: nothing to pin. */
bool pin_first(struct pin *P, struct io_next *first);
/* Every completion of the pin step: its answer, the next probe (d->next).
 * True when it was a block of the return pass (the caller's curve may count
 * it like a block of the scan). */
bool pin_on_io(struct pin *P, const struct io_done *d);

/* off (a block of len in [lo, hi)) moved past any extent it falls in, to
 * the next block after it (or lo): reads of another kind (access time) that
 * should not pay for failed ones. */
uint64_t pin_outside(const struct pin *P, uint64_t off, uint64_t lo, uint64_t hi, uint32_t len);

/* An extent as pinning left it. */
struct pin_out {
	uint64_t start, end;		/* bytes: first possibly bad .. past the last */
	uint64_t res;			/* bytes: the coarser edge's uncertainty (lbs: exact) */
	bool exact, recovered, pinned;
	uint32_t smp, smp_bad;
};
/* Runs in order; at most max.  The count. */
size_t pin_results(const struct pin *P, struct pin_out *out, size_t max);
/* One evidence line for o: how it was pinned, to what resolution. */
void pin_describe(const struct pin *P, const struct pin_out *o, unsigned lbs, char *buf, size_t n);
/* One line on the pinning as a whole (reads, failed, time, budget). */
void pin_summary(const struct pin *P, char *buf, size_t n);
#endif
