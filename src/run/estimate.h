/* estimate.h - the array estimate (DESIGN.md "Results of saturate and surface
 * feed an array estimate"): no I/O of its own, arithmetic over measured
 * per-drive rates, the controller's measured aggregate and capacities. */
#ifndef DS_ESTIMATE_H
#define DS_ESTIMATE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "run/result.h"

enum est_layout { EST_RAID0, EST_RAID10, EST_RAID5, EST_RAID6, EST_NLAYOUTS };

#define EST_MAX_DRIVES 64

struct est_drive {
	char name[64];
	char model[64];		/* "" unknown */
	struct known_dbl read_mbps;	/* measured sequential rate */
	struct known_dbl write_mbps;	/* measured sequential write (unknown: read used) */
	struct known_dbl rewrite_mbps;	/* DM-SMR: the smr test's rewrite rate */
	struct known_u64 capacity;	/* bytes, from the run's identity */
	bool sampled;		/* the rate is a quick scan's: a seek per block read */
};

struct est_input {
	struct est_drive d[EST_MAX_DRIVES];
	size_t n;
	struct known_dbl ctrl_cap_mbps;	/* measured controller aggregate when it saturated */
};

struct est_row {
	enum est_layout layout;
	unsigned drives;
	struct known_dbl read_mbps, write_mbps;
	bool read_capped, write_capped;
	struct known_dbl rebuild_min;	/* unknown / not applicable (RAID0) */
	bool rebuild_smr;		/* paced by an SMR rewrite rate */
};

const char *estimate_layout_name(enum est_layout l);	/* "raid0", "raid1/10", ... */
/* "raid0", "raid1", "raid10", "raid5", "raidz1", "raid6", "raidz2": 0 / -EINVAL. */
int estimate_layout_parse(const char *s, enum est_layout *out);
/* The smallest drive count a layout needs. */
unsigned estimate_min_drives(enum est_layout l);
/* One layout over `drives` drives like the slowest measured one.  0,
 * -EINVAL (too few drives for the layout, no drive measured). */
int estimate_layout(const struct est_input *in, enum est_layout l, unsigned drives, struct est_row *out);
/* The drives, rates, capacities and controller cap in a result (saturate,
 * surface, or any run).  A drive's rate is its sustained pass: a table's
 * per-target average over its whole region (a TR_DRIVE_RATES table
 * columns, a surface scan's), else its solo pass, else its sequential
 * pure-read (pure-write) step with the fewest drives beside it that moved
 * the most bytes (not a burst, access-time or re-read step).  "loop0" and
 * "/dev/loop0" are one drive.  Capacity and model come from the identity
 * block only.  A second result (smr) may add rewrite rates (smr may be
 * NULL).  0 / -ENOENT when nothing was measured / -ENOMEM. */
int estimate_input(const struct run_result *r, const struct run_result *smr, struct est_input *in);
/* Whether an estimate of `drives` drives (0 = the measured ones) can be
 * made: 0, or -ENOENT (nothing measured) / -EINVAL (one drive measured and
 * no count given; drives of different models or sizes) with the reason in
 * why. */
int estimate_check(const struct est_input *in, unsigned drives, char *why, size_t n);
/* Add the "estimate" table (every layout, or only `only` when >= 0, over
 * `drives` drives, 0 = the measured count) and its assumptions as notes.
 * 0 / estimate_check's error (no table) / -ENOMEM. */
int estimate_add_table(struct run_result *r, const struct est_input *in, int only, unsigned drives);
/* For a test's finish: the estimate of its own result when it measured
 * like drives; when it cannot be made, a note says why (the estimate is an
 * extra: no error). */
void estimate_finish(struct run_result *r);


#endif
