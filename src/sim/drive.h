/* drive.h - one simulated drive's state and its service-time model (no
 * clock: engine-sim decides when an I/O starts; this says how long it takes). */
#ifndef DS_SIM_DRIVE_H
#define DS_SIM_DRIVE_H
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "sim/model.h"
#include "util/known.h"

#define SIM_CTRL_SLOTS 64

/* A controller of the loaded rig, shared by its drives (and their threads).
 * Each engine initialised on one of its drives holds a slot with the rate
 * that drive asks for (its outer-zone rate), so the controller can share
 * its ceiling max-min fairly: a slow drive leaves its unused share to the
 * fast ones, as a real link does. */
struct sim_ctrl {
	const struct sim_hba_model *hba;
	struct known_u64 inv_index;	/* inventory controller index */
	char address[16];		/* fake PCI address */
	pthread_mutex_t lock;
	double demand[SIM_CTRL_SLOTS];	/* MB/s, 0 = free slot */
	bool leaving[SIM_CTRL_SLOTS];	/* its engine is done (see sim_ctrl_leave) */
	int active;			/* slots in use */
};

/* Join / leave the streaming set (engine init / cleanup).  Slot or -1.
 * On a virtual clock the drives of one step do not run at the same real
 * time (one may finish its 10 virtual seconds before another starts), so a
 * slot that leaves stays counted until the next step's first join finds
 * every slot leaving; the runner initialises all engines of a step before
 * any I/O, so each step counts exactly its own drives.  On the real clock a
 * drive that stops frees its share at once. */
int sim_ctrl_join(struct sim_ctrl *c, double demand_mbps);
void sim_ctrl_leave(struct sim_ctrl *c, int slot);

#define SIM_CHUNK_SHIFT 20		/* SMR bookkeeping per MiB */

struct sim_drive {
	const struct sim_drive_model *m;
	struct sim_ctrl *ctrl;		/* NULL: a drive on its own (sim:MODEL) */
	char name[64];
	/* clock state, kept across engine instances (ns) */
	uint64_t vnow, busy_until;
	/* head and buffer */
	uint64_t last_end;		/* byte after the last I/O */
	uint64_t buf_start, buf_end;	/* what the drive buffer holds (read-ahead) */
	int active_snap;		/* drives streaming on the controller, frozen per engine */
	double level_snap;		/* the controller's fair-share level then, MB/s */
	bool virtual_time;
	uint64_t rng;
	/* drive-managed SMR */
	uint8_t *chunk;			/* per MiB: CH_NEVER, CH_VALID, CH_TRIMMED */
	uint64_t n_chunks;
	double cache_plain, cache_trim;	/* bytes waiting in the media cache */
	bool smr_stream;		/* the last write went straight to its band */
	/* what happened (tests and the details panel) */
	uint64_t stalls, stall_ns, longest_stall_ns, rmw_count, errors;
};

enum { CH_NEVER = 0, CH_VALID = 1, CH_TRIMMED = 2 };	/* per-MiB state */

/* New drive on ctrl (may be NULL), noise seeded from seed and name. */
int sim_drive_new(const struct sim_drive_model *m, struct sim_ctrl *ctrl, const char *name,
		  uint64_t seed, struct sim_drive **out);
void sim_drive_free(struct sim_drive *d);

/* Time the drive needs for one I/O (ns), updating head, buffer and SMR state.
 * queued: it waited behind another I/O (NCQ hides the command overhead).
 * *result: len, or -EIO for a read that touches an unreadable range. */
uint64_t sim_drive_service(struct sim_drive *d, uint64_t off, uint32_t len, bool write,
			   bool queued, int *result);
/* The host left the drive idle for ns: SMR cleaning catches up. */
void sim_drive_idle(struct sim_drive *d, uint64_t ns);
/* TRIM a byte range (SMR bookkeeping; other drives ignore it). */
void sim_drive_trim(struct sim_drive *d, uint64_t off, uint64_t len);
/* Media-cache fill, bytes (0 on CMR). */
double sim_drive_cache_used(const struct sim_drive *d);
/* The controller's state now: drives streaming (*n) and the max-min fair
 * share level of its ceiling (*level, MB/s; HUGE_VAL when it is not the limit). */
void sim_ctrl_state(struct sim_ctrl *c, bool virtual_time, int *n, double *level);
/* What the controller lets a drive that could move drive_mbps move. */
double sim_ctrl_rate(const struct sim_ctrl *c, int n, double level, double drive_mbps);

/* sim.c: the current rig (loading the built-in one when none is). */
int sim_rig_get(const struct sim_rig **r, struct sim_ctrl **c, char *err, size_t errlen);
#endif
