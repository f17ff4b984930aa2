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
	double read_mbps;	/* measured sequential rate, NAN unknown */
	double write_mbps;	/* measured sequential write, NAN unknown (read used) */
	double rewrite_mbps;	/* DM-SMR: the smr test's rewrite rate, NAN unknown */
	struct known_u64 capacity;	/* bytes */
};

struct est_input {
	struct est_drive d[EST_MAX_DRIVES];
	size_t n;
	double ctrl_cap_mbps;	/* measured controller aggregate when it saturated, 0 none */
	bool scanned_capacity;	/* a capacity is the bytes a surface scan covered */
};

struct est_row {
	enum est_layout layout;
	unsigned drives;
	double read_mbps, write_mbps;	/* NAN unknown */
	bool read_capped, write_capped;
	double rebuild_min;		/* NAN unknown / not applicable (RAID0) */
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
 * surface, or any run): solo passes first, else each target's rate in the
 * step with the fewest active drives.  A second result (smr) may add
 * rewrite rates (smr may be NULL).  A table with "target" and "avg_mbps"
 * columns (a surface scan's) gives the average rate and, without an inventory capacity, the bytes
 * scanned.  0 / -ENOENT when nothing was measured. */
int estimate_input(const struct run_result *r, const struct run_result *smr, struct est_input *in);
/* Add the "estimate" table (every layout, or only `only` when >= 0, over
 * `drives` drives, 0 = the measured count, 4 when only one was measured)
 * and its assumptions as notes.  0 /
 * -ENOENT (nothing measured: no table) / -ENOMEM. */
int estimate_add_table(struct run_result *r, const struct est_input *in, int only, unsigned drives);
/* For a test's finish: the estimate of its own result when it measured
 * something; errors are silent (the estimate is an extra). */
void estimate_finish(struct run_result *r);


#endif
