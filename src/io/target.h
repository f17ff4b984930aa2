/* target.h - a thing to test: a block device, a scratch file in a directory
 * the user names, or a simulated drive.  Each carries its device facts
 * (inventory/facts.h), filled once by target_open: tests and the guard read
 * those, never sysfs or the simulator themselves. */
#ifndef DS_TARGET_H
#define DS_TARGET_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "inventory/facts.h"
#include "io/guard.h"

enum target_kind { TGT_BLOCK, TGT_FILE, TGT_SIM };

struct target_opts {
	bool write;			/* the test will write */
	/* the drives the user confirmed (--destroy-data=DEV, one each; the
	 * dashboard's typed names), with their identity at that time */
	struct guard_confirms confirms;
	uint64_t file_size;		/* scratch file size, bytes (default 1 GiB) */
	bool keep;			/* keep the scratch file */
	const char *sysfs_root;		/* for the guard's holder checks, default /sys */
	const char *mountinfo_file;	/* default /proc/self/mountinfo */
	const char *swaps_file;		/* default /proc/swaps */
	bool defer_fill;		/* leave a scratch file's fill to target_prepare() */
	bool fill;			/* fill a scratch file even when the test writes (it reads too) */
	bool buffered_ok;		/* no O_DIRECT: open buffered anyway (the test flushes and drops) */
	bool named;			/* a scratch file the caller reopens by name (filemix): not O_TMPFILE */
	/* sim drives: their clock, 0 = virtual (headless: a run ends at once and
	 * repeats exactly), else real time x sim_speed (the dashboard); and the
	 * seed of their rate noise (the plan's --seed; NULL opts: 42) */
	double sim_speed;
	uint64_t sim_seed;
};

struct target {
	char spec[256];			/* as the user named it */
	char name[64];			/* short name for tables: sda, loop3, sim:WD20EFAX#2, scratch */
	enum target_kind kind;
	int fd;				/* -1 for sim */
	char path[PATH_MAX];		/* device or scratch file */
	/* the I/O geometry: usable bytes (a scratch file: its size), the sector
	 * sizes I/O follows (a block device: as its descriptor says) */
	uint64_t size;
	uint32_t logical, physical;
	uint32_t mem_align, offset_align;	/* O_DIRECT alignment (STATX_DIOALIGN or logical) */
	bool writable;			/* opened for writing (guard passed) */
	bool created;			/* scratch file created by us (removed on close unless keep) */
	bool unnamed;			/* scratch file made with O_TMPFILE: path is only for messages */
	bool keep;
	struct dev_facts facts;		/* what the device is (facts.h), filled at open */
	void *sim;			/* engine-sim's per-drive state (io/ only) */
	double sim_speed;		/* sim: 0 virtual clock, else real time x this */
	bool direct;			/* opened O_DIRECT (false only for a scratch file on tmpfs/ramfs) */
	char notice[256];		/* one line the runner should print once (e.g. buffered fallback), "" = none */
	bool fill_pending;		/* scratch file not yet filled (target_prepare) */
};

/* The size of a scratch file when target_opts.file_size is 0. */
#define TARGET_DEFAULT_FILE_SIZE (1ULL << 30)

/* Open a target.  Block devices ("/dev/sdb", "sdb", or any symlink to one):
 * O_DIRECT, read-only unless opts->write, in which case the guard decides
 * (-EPERM + its one-sentence "refused: ..." in err; see io/guard.h) and the
 * device is then held O_RDWR|O_EXCL for the whole run.  Directory: creates a
 * scratch file (O_EXCL, fallocate'd to file_size,
 * O_DIRECT; filled with incompressible data first when the test only reads,
 * so reads reach the media, as fio lays out its files).  An existing regular
 * file is never used (-EPERM when writing, -EINVAL when reading).
 * The scratch file is made with O_TMPFILE where the file system has it (no
 * name: nothing is left behind, even after kill -9; --keep names it at
 * close), else it is the named DIR/diskscope-scratch-XXXXXX.  A file size
 * the directory's free space cannot take is -EINVAL, nothing created.
 * "sim:MODEL": a simulated drive.  0 or -errno, with a one-line reason in err
 * that names the target.  o may be NULL (read-only, defaults). */
int target_open(struct target *t, const char *spec, const struct target_opts *o,
		char *err, size_t errlen);
/* The facts of what spec names without opening it (a test's plan, before
 * any target is open): a block device's, a directory's file system's, a
 * sim drive's.  0, or -errno + one line in err.  o may be NULL. */
int target_facts(const char *spec, const struct target_opts *o, struct dev_facts *f, char *err,
		 size_t errlen);
/* Finish what target_open left for later (opts.defer_fill): fill a scratch
 * file, calling progress(arg, 0..1) now and then; a nonzero return from
 * progress stops it (-EINTR).  Slow (a 1 GiB file): the runner calls it on
 * its own thread, never the dashboard's.  0 or -errno + a line in err. */
int target_prepare(struct target *t, int (*progress)(void *arg, double frac), void *arg,
		   char *err, size_t errlen);
/* Close; removes a scratch file we created unless keep.  Safe to call twice. */
void target_close(struct target *t);
/* TRIM / discard [off, off+len) of a target opened for writing (BLKDISCARD on
 * the guard-opened device, a punched hole in a scratch file, the sim's
 * bookkeeping).  0, -EOPNOTSUPP when the device has no discard, -EPERM when
 * not opened for writing, -errno. */
int target_trim(struct target *t, uint64_t off, uint64_t len);
/* Check an I/O size/offset against the target's alignment: 0 or -EINVAL + reason. */
int target_check_io(const struct target *t, uint64_t offset, uint32_t len, char *err, size_t errlen);

/* Simulated drives (target-sim.c over src/sim/): "sim:MODEL", "sim:NAME" into
 * t (kind TGT_SIM, t->sim set), with o's clock and seed (o may be NULL). */
int sim_target_open(struct target *t, const char *spec, const struct target_opts *o, char *err,
		    size_t errlen);
void sim_target_close(struct target *t);
/* A sim drive's facts without keeping it open (target_facts). */
int sim_target_facts(const char *spec, const struct target_opts *o, struct dev_facts *f,
		     char *err, size_t errlen);
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
#endif
