/* filemix-int.h - what filemix.c (the plan, the steps, the files) and
 * filemix-report.c (its tables and verdicts) share. */
#ifndef DS_FILEMIX_INT_H
#define DS_FILEMIX_INT_H
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "bench/bench.h"
#include "io/target.h"

struct fm_file {
	unsigned test;		/* 1, 2, 3 (test 1 again with zeros) */
	char cls[8];
	unsigned n;
	char name[40];		/* basename in the subdirectory */
	uint64_t size;
	bool exists;
	double at_s;		/* when its write started, s since the run began */
	struct known_dbl w_mbps, r_mbps;	/* unknown: not (wholly) written / read */
};

struct fm_state {
	bool swapped, dir_made;
	struct target orig;		/* the runner's probe scratch file */
	struct target tmpl;		/* the last file opened: alignment and O_DIRECT */
	char dir[PATH_MAX];		/* our subdirectory */
	struct fm_file *f;
	size_t n_f, cap_f;
	long cur;			/* file of the step that ran, -1 none */
	bool cur_write;
	size_t done;			/* on_step calls so far */
	double t0;
	bool direct, ram, buffered;	/* how the page cache was kept out */
	struct known_dbl probe_mbps;	/* the runner's 1 MiB probe */
	char fs[32];			/* the file system's name, as far as known */
	int fs_compresses;		/* 1 can, 0 does not, -1 unknown */
	uint64_t margin;
};

int filemix_files_table(const struct fm_state *S, struct run_result *r);	/* live too */
int filemix_class_table(const struct fm_state *S, struct run_result *r);
void filemix_verdicts(struct bench_ctx *c, struct fm_state *S, struct run_result *r);
#endif
