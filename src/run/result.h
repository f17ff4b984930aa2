/* result.h - the result of a run: what JSON, CSV, the text table, the result
 * view and `show` all read.  Maps to rows: run, drive identity, test+params,
 * step results, verdicts (the future bench history).  Fields may be added;
 * do not rename (JSON schema 1 follows these names). */
#ifndef DS_RESULT_H
#define DS_RESULT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "util/util.h"

struct lat_summary {		/* microseconds */
	bool known;		/* false when no I/O completed */
	double min, mean, stddev, p50, p90, p99, p999, max;
};

struct errno_count {
	int err;		/* positive errno */
	uint64_t count;
};

struct err_summary {
	uint64_t count;
	bool have_offsets;
	uint64_t first_offset, last_offset;	/* bytes */
	struct errno_count by_errno[8];
	size_t n_errno;
};

/* A saved time series: one sample per interval. */
struct saved_series {
	unsigned interval_ms;
	size_t n;
	float *mbps, *iops, *p99_us;	/* n each; p99 NAN where no I/O completed */
	float *pos;			/* position on the target 0..1, n (may be NULL) */
};

/* Latency histogram as saved: non-empty buckets only. */
struct saved_hist {
	size_t n;
	double *upper_us;	/* bucket upper bound */
	uint64_t *count;
};

struct target_result {
	char target[64];	/* what the user named: sda, /dev/loop3, sim:WD20EFAX, /tmp/dir */
	char drive_id[128];	/* stable identity (model+serial) when known */
	char model[64], serial[64];
	double mbps, iops;	/* 10^6 bytes/s */
	double read_mbps, write_mbps;
	uint64_t bytes, ios;
	double seconds;
	struct lat_summary lat;
	struct err_summary err;
	struct saved_series series;
	struct saved_hist hist;
	char note[192];		/* why this target stopped early / failed; "" none */
	char engine[16];	/* engine that moved the bytes (after any fallback) */
	uint64_t ramp_errors;	/* failed I/Os during the ramp-up (not in err) */
};

struct step_result {
	unsigned index;		/* 1-based */
	struct strlist active;	/* targets active in this step */
	struct target_result *res;
	size_t n_res;
	double aggregate_mbps;
	double ideal_mbps;	/* sum of single-drive rates of the active set; 0 = n/a */
	double cpu_usr_s, cpu_sys_s;
	double seconds;
};

struct verdict {
	char kind[24];		/* "saturation", "link", "smr", "af", "errors" */
	char text[320];		/* the sentence a technician reads */
	int knee_drives;	/* saturation: 0 = no knee */
	double ceiling_mbps;	/* 0 = unknown */
};

struct run_params {
	uint32_t bs;		/* bytes */
	unsigned qd;
	double seconds;		/* per step, 0 = by size */
	uint64_t size;		/* bytes per target, 0 = by time */
	double ramp_s;
	double region_start, region_end;	/* fraction 0..1 (when !region_lba) */
	bool region_lba;			/* the region was given in LBAs: */
	uint64_t region_lba_start, region_lba_end;	/* logical sectors, end 0 = to the end */
	char pattern[16];	/* seq, rand, stride */
	uint64_t stride;	/* bytes, pattern stride */
	char data[16];		/* random, zeros, compressible */
	int rw_mix;		/* % reads: 100 read, 0 write */
	char engine[16];
	uint64_t seed;
};

struct run_result {
	char test[24];
	struct strlist targets;
	struct run_params params;
	time_t started;
	double seconds;
	bool interrupted;
	bool virtual_time;	/* sim clock */
	double ceiling_mbps;	/* link ceiling of the controller, 0 unknown */
	char ceiling_text[64];	/* "x8 5GT/s" */
	struct step_result *steps;
	size_t n_steps;
	struct verdict *verdicts;
	size_t n_verdicts;
	struct target_result *solo;	/* saturate: solo passes behind the ideal line */
	size_t n_solo;
	struct strlist notes;		/* one line each: fallbacks, early stops */
};

void run_result_free(struct run_result *r);
#endif
