/* snapshot.h - a copy of a running test's state for the live panels.  The
 * UI draws from this, never from worker memory (the runner fills it under
 * its own lock; workers publish with atomics). */
#ifndef DS_SNAPSHOT_H
#define DS_SNAPSHOT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/known.h"
#include "run/strip.h"

#define SNAP_SAMPLES 600	/* last 60 s at 10 Hz */
#define SNAP_HIST 32		/* latency buckets: bucket k holds (2^(k+6) .. 2^(k+7)] ns */
#define SNAP_STEPS 64

struct result_table;

enum run_state { RUN_IDLE, RUN_STARTING, RUN_RUNNING, RUN_STOPPING, RUN_DONE,
		 RUN_STOPPED, RUN_FAILED };

struct snap_target {
	char name[64];
	int controller;			/* inventory index, -1 none */
	bool active;			/* running in the current step */
	double mbps, read_mbps, write_mbps, iops;	/* last interval */
	struct known_dbl p50_us, p99_us;	/* last interval (unknown: no I/O in it) */
	double pos;			/* 0..1 position on the target */
	uint64_t size;			/* the target's bytes (pos * size = where), 0 unknown */
	uint64_t bytes, errors;
	size_t n;			/* samples in the rings below, oldest first */
	float read_hist[SNAP_SAMPLES];	/* MB/s per interval */
	float write_hist[SNAP_SAMPLES];
	/* Added for the throughput panel: where this ring ends on the run's
	 * sample clock (the run-wide tick index just after its newest sample),
	 * so the rings of targets that idled between steps line up in time.
	 * 0 = unknown (the UI then sums only the active targets). */
	uint64_t ring_end;
	unsigned char phase;		/* SNAP_PH_*: what an active target is doing */
	/* The worker of the running step ended before the step did: its last
	 * rate is history, so it shows this state and adds 0 to the total. */
	unsigned char ended;		/* SNAP_END_* */
	char why[128];			/* the worker's reason, without the name; "" none */
	/* The bench board: block time by position over the target's current
	 * step (reset when a step starts it), and the series samples the
	 * sampler took from its worker vs. those overwritten before it came
	 * (run-wide: a 10 Hz run should lose none). */
	struct strip strip;
	uint64_t samples, lost;
	char activity[32];		/* a test's own work on it ("short self-test"), "" none */
};
enum { SNAP_END_NONE, SNAP_END_DONE, SNAP_END_STOPPED, SNAP_END_FAILED };
/* phase: measuring; started but no measured interval yet; warming up (its
 * figures are not counted).  The per-drive bars say so instead of 0 MB/s. */
enum { SNAP_PH_MEASURE, SNAP_PH_STARTING, SNAP_PH_RAMP };

struct snap_step {
	unsigned index;			/* 1-based */
	unsigned n_active;
	struct known_dbl aggregate_mbps;	/* measured (so far, while running) */
	double ideal_mbps;		/* 0 = n/a */
	bool done;
};

struct run_snapshot {
	char test[24];
	unsigned panels;		/* the test's PANEL_* mask (run/test.h) */
	enum run_state state;
	bool virtual_time;
	unsigned interval_ms;		/* sample interval */
	unsigned step, n_steps;		/* current (1-based) */
	double elapsed_s;
	struct known_dbl eta_s;		/* from the planned durations, when there are some */
	struct known_dbl ceiling_mbps;
	int knee_drives;		/* 0 none yet */
	char message[192];		/* last notice / error */
	size_t n_targets;
	struct snap_target *t;		/* owned by the snapshot (snapshot_free) */
	size_t n_steps_done;
	struct snap_step steps[SNAP_STEPS];
	char step_label[SNAP_STEPS][48];	/* what each step is (plan_step.label), "" none */
	bool step_maps[SNAP_STEPS];		/* the step maps the surface (plan_step.maps) */
	uint64_t lat_hist[SNAP_HIST];	/* merged, whole run so far */
	struct known_dbl lat_p50_us, lat_p99_us, lat_p999_us;	/* unknown: no I/O yet */
	struct known_dbl total_mbps;	/* current interval, all targets; unknown: a result's step not measured */
	double total_iops;
	uint64_t total_errors;
	uint64_t sample_now;		/* run-wide sample ticks so far (see ring_end); 0 unknown */
	char cur_label[48];		/* the running step's label, "" none */
	struct result_table *table;	/* the test's table so far (PANEL_TABLE), owned; NULL none */
};

void snapshot_free(struct run_snapshot *s);
#endif
