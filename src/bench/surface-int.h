/* surface-int.h - the surface scan's own state, shared by its two files
 * (surface.c: plan, per-I/O hook, follow-up steps; surface-report.c: tables
 * and verdicts).  Not for other tests: they use surface.h. */
#ifndef DS_SURFACE_INT_H
#define DS_SURFACE_INT_H
#include "bench/bench.h"
#include "bench/pin.h"
#include "bench/surface.h"

enum { PH_SCAN, PH_ACCESS, PH_BURST, PH_PIN, PH_CONFIRM, PH_NONE };

#define SLOT_CAP (1u << 21)	/* curve slots kept per target; coarser past that */
#define MAX_STEPS 1024		/* steps the run may have (phase table) */
#define MAX_EXT 256		/* failed block ranges kept per target */
#define MAX_SLOW 16
#define CONFIRM_MAX_BLOCKS 32	/* a slow zone is slow throughout: its start will do */
#define CONFIRM_PASSES 5		/* re-reads of a slow range; its fastest counts */
#define ACCESS_READS 100
#define BURST_READS 32
#define SCAN_ERR_LIMIT (1u << 20)	/* failed blocks in a row before the worker gives up */
#define MAP_CELLS 100

extern const double surface_bucket_ms[5];
extern const char *const surface_bucket_name[7];
#define N_BUCKETS 7

struct slot {
	uint32_t sum_us, max_us, n;	/* time of the good reads, the slowest, how many */
};

struct fail_list {
	struct surface_extent *v;
	size_t n, cap;
};

/* Per target, written by on_io in its worker (read by on_step between steps). */
struct surf_io {
	int phase;
	uint32_t bs;			/* the scan's block size */
	uint64_t unit, lo;		/* bytes per slot; the first slot (offset / unit) */
	struct slot *slot;
	size_t n_slot, cap_slot;
	uint64_t bucket[N_BUCKETS];
	uint64_t min_off, max_end;
	bool any, oom;
	struct fail_list scan_fail;
	struct pin_skip skip;		/* the scan's jumps over unreadable zones */
	struct pin pin;			/* the extents pinned (PH_PIN) */
	uint64_t acc_lo, acc_hi, rng;	/* the access-time reads: where, the next one */
	uint32_t acc_bs;
	struct { int err; uint64_t n; } errs[4];	/* the scan's failures by errno (first four kinds) */
	uint64_t ph_n, ph_bytes, ph_lat_ns;	/* the current follow-up step */
	uint64_t ph_last_off;		/* a confirm step: where its pass is */
	double ph_best;			/* ... and its fastest pass, MB/s */
};

struct surf_tgt {
	bool scanned, quick;
	uint64_t rs, re;		/* the scanned region, bytes */
	unsigned lbs;			/* logical sector */
	struct known_dbl access_ms, burst_mbps;	/* unknown: not measured */
	struct surface_slow slow[MAX_SLOW];
	size_t n_slow, slow_found;
	struct surface_extent ext[MAX_EXT];	/* failed block ranges (skipped gaps joined) */
	size_t n_ext, ext_found;
};

struct surf_state {
	size_t done;			/* steps finished */
	unsigned char phase[MAX_STEPS];
	short arg[MAX_STEPS];
	struct surf_tgt t[PLAN_MAX_TARGETS];
};
static inline struct surf_io *
io_of(struct bench_ctx *c, unsigned t)
{
	return (struct surf_io *)c->io_state + t;
}

static inline double
rate(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / ((double)ns / 1e9) / 1e6 : NAN;
}

int surface_finish(struct bench_ctx *c, struct run_result *r);
#endif
