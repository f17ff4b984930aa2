/* sim.h - the simulated rig: drive/controller models (data files), sim
 * drives for engine-sim (io/target-sim.c makes them targets), and the
 * rig's inventory.  Owned by the sim work. */
#ifndef DS_SIM_H
#define DS_SIM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "inventory/inventory.h"

/* Add the rig's controllers and drives to the inventory as if they were real
 * (names sim0, sim1...; path "sim:NAME"; transport TR_SIM; IDENTIFY facts from
 * the model so SMR/AF assessment runs on them).  rig_file NULL = built-in
 * seed-bench.rig.  extra_models: --sim-model files.  0 or -errno; parse errors
 * as "file:line: message" in err. */
int sim_inventory_add(struct inventory *inv, const char *rig_file,
		      const char *const *extra_models, size_t n_extra, char *err, size_t errlen);

/* The same, as the inventory's extra drive source (inventory_opts.extra_drives):
 * the rig, models and --sim-model files from o. */
int sim_inventory_source(struct inventory *inv, const struct inventory_opts *o, char *err,
			 size_t errlen);

/* One drive of model m added to inv as the rig's are (IDENTIFY, SMART, the
 * SMR assessment): what a test reads about a sim target it has opened. */
struct sim_drive_model;
int sim_model_inventory(struct inventory *inv, const struct sim_drive_model *m);

/* Resolve "sim:MODEL", "sim:MODEL#2" or "sim:NAME" (a rig drive) into a new
 * drive: seed for its rate noise (the plan's --seed), virtual_time its clock
 * (headless) or real time (the dashboard).  0 or -errno + err naming spec.
 * As a target: io/target-sim.c (sim_target_open). */
#define SIM_DEFAULT_SEED 42
struct sim_drive;
int sim_drive_open(const char *spec, uint64_t seed, bool virtual_time, struct sim_drive **out,
		   char *err, size_t errlen);

/* The device facts of sim drive d (inventory/facts.h), its model their
 * identity and SMART source (the rig's scan, its drive, SMART after a
 * test's I/O, its self-test log): what a test asks a real drive's
 * inventory, a sim drive answers from its model. */
struct dev_facts;
void sim_drive_facts(const struct sim_drive *d, struct dev_facts *f);

/* Validate a model/rig file: 0, or -EINVAL with "file:line: message" in err. */
int sim_check_file(const char *file, char *err, size_t errlen);

/* Register --sim-model files (.drive/.hba) so "sim:NAME" and rigs find them.
 * 0, or the first file's error as "file:line: message". */
int sim_load_models(const char *const *files, size_t n, char *err, size_t errlen);
/* Make a rig file (NULL = built-in seed-bench.rig) the one "sim:simN" names
 * resolve in; sim_inventory_add does this itself. */
int sim_use_rig(const char *rig_file, char *err, size_t errlen);
#endif
