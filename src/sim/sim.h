/* sim.h - the simulated rig: drive/controller models (data files), sim
 * targets for engine-sim, and the rig's inventory.  Owned by the sim work. */
#ifndef DS_SIM_H
#define DS_SIM_H
#include <stddef.h>
#include "inventory/inventory.h"
#include "io/target.h"

/* Add the rig's controllers and drives to the inventory as if they were real
 * (names sim0, sim1...; path "sim:NAME"; transport TR_SIM; IDENTIFY facts from
 * the model so SMR/AF assessment runs on them).  rig_file NULL = built-in
 * seed-bench.rig.  extra_models: --sim-model files.  0 or -errno; parse errors
 * as "file:line: message" in err. */
int sim_inventory_add(struct inventory *inv, const char *rig_file,
		      const char *const *extra_models, size_t n_extra, char *err, size_t errlen);

/* One drive of model m added to inv as the rig's are (IDENTIFY, SMART, the
 * SMR assessment): what a test reads about a sim target it has opened. */
struct sim_drive_model;
int sim_model_inventory(struct inventory *inv, const struct sim_drive_model *m);

/* Resolve "sim:MODEL" or "sim:NAME" (a rig drive) into t (kind TGT_SIM, t->sim set). */
int sim_target_open(struct target *t, const char *spec, char *err, size_t errlen);
void sim_target_close(struct target *t);

/* Validate a model/rig file: 0, or -EINVAL with "file:line: message" in err. */
int sim_check_file(const char *file, char *err, size_t errlen);

/* Clock mode for sim targets: virtual (headless default) or real time x speed. */
void sim_set_clock(int virtual_time, double speed);

/* ---- additions (sim work) ---- */
#include <stdbool.h>
#include <stdint.h>
bool sim_clock_is_virtual(void);
double sim_clock_speed(void);
/* Seed for the drives' rate noise (run --seed); default 42.  Call before opening. */
void sim_set_seed(uint64_t seed);
/* Register --sim-model files (.drive/.hba) so "sim:NAME" and rigs find them.
 * 0, or the first file's error as "file:line: message". */
int sim_load_models(const char *const *files, size_t n, char *err, size_t errlen);
/* Make a rig file (NULL = built-in seed-bench.rig) the one "sim:simN" names
 * resolve in; sim_inventory_add does this itself. */
int sim_use_rig(const char *rig_file, char *err, size_t errlen);
/* TRIM a range of a sim drive (SMR model state); idle it for seconds of its
 * clock (SMR media cache cleaning catches up).  0 / -EINVAL (trim: -EOPNOTSUPP
 * when the model has no TRIM). */
int sim_target_trim(struct target *t, uint64_t off, uint64_t len);
int sim_target_idle(struct target *t, double seconds);

/* What the model did so far (details panel, tests). */
struct sim_drive_stats {
	double cache_used_bytes;	/* SMR media cache fill */
	uint64_t stalls;		/* SMR cleaning stalls */
	double stall_s, longest_stall_s;
	uint64_t rmw;			/* AF read-modify-writes */
	uint64_t errors;		/* reads of unreadable sectors */
};
int sim_target_stats(const struct target *t, struct sim_drive_stats *st);
/* What a sim drive reports about its sectors (IDENTIFY words 106 and 209, as
 * the kernel would pass them on): physical sector and alignment offset in
 * bytes; *identify false when word 106 is not valid.  0 / -EINVAL. */
int sim_target_reported(const struct target *t, uint32_t *physical, uint32_t *align_offset,
			bool *identify);
#endif
