/* live.h (run) - what this bench is doing now, drive by drive: the one copy
 * that the metrics endpoint and the fleet heartbeat read.  Producers (a
 * run's watch loop, the station's slots, the dashboard) publish into it from
 * their own snapshots; readers take a consistent copy under a short lock.
 * Neither side ever waits on a worker or on the other. */
#ifndef DS_LIVE_H
#define DS_LIVE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/known.h"

#define LIVE_MAX 128		/* drives one bench shows at once */

enum live_state {
	LIVE_IDENTIFYING,	/* arrived, being read */
	LIVE_WAITING,		/* waiting for its turn (limits, stagger) */
	LIVE_RUNNING,
	LIVE_DONE,		/* finished: the verdict is known */
	LIVE_STOPPED,		/* stopped by the user or a pull */
	LIVE_FAILED,		/* its run failed (open, I/O) */
	LIVE_HUNG,		/* no progress for --io-timeout */
	LIVE_STATE_N
};
extern const char *const live_state_name[LIVE_STATE_N];	/* "identifying", ... */

enum live_level { LIVE_V_NONE, LIVE_V_PASS, LIVE_V_WARN, LIVE_V_FAIL, LIVE_LEVEL_N };
extern const char *const live_level_name[LIVE_LEVEL_N];	/* "", "pass", "warn", "fail" */

enum live_err { LIVE_ERR_IO, LIVE_ERR_N };		/* errors by kind (more kinds: add here) */
extern const char *const live_err_name[LIVE_ERR_N];	/* "io" */

struct live_drive {
	char key[64];			/* the series' identity in this bench: slot label, else target name */
	char slot[48];			/* the station's slot label, "" none */
	char dev[64];			/* the target's name (sda, loop3, sim:WD20EFAX#2) */
	char serial[64], model[64];	/* "" unknown */
	char test[24];			/* the running test's name, "" none */
	char step[48];			/* the running step's label, "" none */
	unsigned step_i, n_steps;	/* 1-based; 0 unknown */
	enum live_state state;
	struct known_dbl progress;	/* 0..1 of the drive's whole job */
	uint64_t read_bytes, write_bytes;	/* counters: never go down for one key */
	struct known_dbl rate_bps;	/* bytes/s in the last interval */
	struct known_dbl temp_c;
	uint64_t errors[LIVE_ERR_N];
	enum live_level verdict;	/* LIVE_V_NONE until known */
	struct known_dbl selftest_ratio;	/* the drive's own self-test, 0..1 */
	double updated;			/* live_now() of its last publish */
};

struct live_counts { uint64_t tested, passed, warned, failed, pulled; };

struct live_view {
	char bench[128];		/* history_bench_name() */
	char instance[64];		/* what runs: "run", "triage", "station", "dashboard" + pid */
	double started;			/* wall clock (s since the epoch) of live_begin */
	bool ended;			/* the run is over: the view is its final state */
	struct known_dbl rate_bps;	/* the whole bench, last interval */
	struct live_counts counts;
	size_t n;
	struct live_drive d[LIVE_MAX];
};

double live_now(void);		/* monotonic seconds */
/* Name this process's bench and what runs in it (resets drives and counts). */
void live_begin(const char *bench, const char *instance);
/* Insert or update the drive of d->key (d->updated is set): 0, -ENOSPC full. */
int live_put(const struct live_drive *d);
/* Its series end (the drive left its slot). */
void live_remove(const char *key);
/* Count a finished drive once (tested, then pass/warn/fail; pulled). */
void live_count(enum live_level v, bool pulled);
void live_set_rate(struct known_dbl bps);
void live_end(void);		/* the run is over */
/* A consistent copy for a reader (out is large: allocate it). */
void live_copy(struct live_view *out);
#endif
