/* facts.h - one set of device facts per target: what the device is, its
 * geometry, who uses it, the disk it belongs to, and where its identity and
 * SMART come from.  io/target.h carries one (target.facts), filled once when
 * the target is opened; tests and the guard read it instead of asking sysfs,
 * mountinfo or the simulator themselves.
 *
 * Every value is a known_* value (util/known.h): unknown is said, never 0 or
 * -1.  Block devices and scratch files are filled here, by the inventory's
 * own sysfs and mountinfo readers (dev_facts_read); a sim drive by the
 * simulator (io/target-sim.c), which also points .source at its model.  The
 * NVMe and SCSI drive classes fill the same struct with their own source.
 *
 * The readers the inventory, the guard and the tests share are declared
 * here too: the sysfs directory of a device number, the sector sizes of a
 * disk's queue, the unit serial VPD page, a mountinfo line. */
#ifndef DS_FACTS_H
#define DS_FACTS_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "util/known.h"
#include "util/util.h"

struct inventory;
struct inventory_opts;
struct drive;
struct smart_info;
struct nvme_health;
struct scsi_health;
struct dev_facts;
struct selftest_drive;

enum dev_kind { DEV_UNKNOWN, DEV_DISK, DEV_PARTITION, DEV_LOOP, DEV_ZRAM, DEV_FILE, DEV_SIM };
const char *dev_kind_name(enum dev_kind k);	/* "disk", "partition", "loop", ... */

/* Where a device's identity and SMART come from: the inventory's readers for
 * a real drive (dev_source_inventory), the model for a sim drive.  A test
 * asks through here and never learns which. */
struct dev_source {
	const char *name;		/* "inventory", "sim model" */
	/* The options of an inventory scan that shows the device (a sim drive:
	 * its rig); NULL leaves the defaults. */
	void (*scan_opts)(const struct dev_facts *f, struct inventory_opts *o);
	/* The device as the inventory shows it (identity, SMART, SMR
	 * assessment), in inv: *out points into it.  0, -ENOENT when the
	 * inventory has no such drive, -errno. */
	int (*drive)(const struct dev_facts *f, const char *path, struct inventory *inv,
		     struct drive **out);
	/* What SMART reads once a test's I/O ran (a sim drive's sectors
	 * remapped and its warming meanwhile); NULL: as read. */
	void (*smart_after)(const struct dev_facts *f, struct smart_info *s);
	/* The SMART self-test log (ATA_SELFTEST_SIZE bytes) as read now (after:
	 * once the test's I/O ran); smart: the drive's SMART was read.  0, or
	 * -errno with the reason. */
	int (*selftest_log)(const struct dev_facts *f, const char *path, bool after, bool smart,
			    uint8_t *log, char *reason, size_t n);
	/* The NVMe health log of d (the drive as the snapshot's inventory scan
	 * shows it) as read now (after: once the test's I/O ran).  0, or
	 * -errno with out->reason (not an NVMe drive: -ENODATA); NULL: none. */
	int (*nvme_health)(const struct dev_facts *f, const struct drive *d, bool after,
			   struct nvme_health *out);
	/* The SCSI health (log pages, grown defects) of d, likewise: 0, or
	 * -errno with out->reason (not a SCSI drive: -ENODATA); NULL: none. */
	int (*scsi_health)(const struct dev_facts *f, const struct drive *d, bool after,
			   struct scsi_health *out);
	/* The drive's own self-test (inventory/selftest.h) on d: start one of
	 * s->kind (0; -EOPNOTSUPP with s->st.text the reason it cannot, e.g.
	 * "self-test not supported (OACS)"), poll it into s->st (at its end the
	 * result and failing LBA from the drive's self-test log), abort it.
	 * s->now_s is the drive's clock.  -errno with s->st.text on failure.
	 * NULL: no self-test. */
	int (*selftest_start)(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s);
	int (*selftest_poll)(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s);
	int (*selftest_abort)(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s);
};
extern const struct dev_source dev_source_inventory;

struct dev_facts {
	enum dev_kind kind;
	bool simulated;			/* a sim drive: nothing below it, nothing to guard */
	char name[64];			/* kernel name (sda1, loop3), a sim drive's, "" a file */
	char disk[64];			/* the whole disk it is or is on (sda for sda1, for a
					   scratch file the disk under its file system), "" none */
	char model[300];		/* the disk's model ("loop on FILE", "compressed RAM disk"), "" none */
	char backing[256];		/* a loop disk's backing file, "" none */
	struct known_u64 devt;		/* device number (a file: its file system's) */
	char sysdir[PATH_MAX];		/* resolved /sys/dev/block/MAJ:MIN, "" none */
	char diskdir[PATH_MAX];		/* its disk's */
	struct known_u64 capacity;	/* bytes */
	/* sector sizes as the device reports them, bytes (a partition: its
	 * disk's); sector_source says who: "sysfs", "IDENTIFY", "namespace"
	 * (an NVMe drive's LBA format in use), "" unknown */
	struct known_u64 logical, physical;
	char sector_source[32];
	struct known_u64 meta_bytes;	/* NVMe: metadata bytes per LBA of that format */
	struct known_i64 alignment_offset;	/* bytes; -1 is the kernel's "misaligned" */
	struct known_bool rotational;
	struct known_u64 holders;	/* dm, md, zfs users of the device */
	struct known_bool mounted;	/* it, or a partition of it, is mounted (mountinfo) */
	struct known_u64 controller;	/* inventory controller index */
	/* a scratch file: the mount that holds it */
	char mount[512], fs[64], mount_src[256];
	const struct dev_source *source;	/* NULL: nothing to ask (a scratch file) */
	const void *source_arg;		/* the source's own (a sim drive's model) */
};

/* dev_spec_simulated, DEV_SIM_PREFIX: in util/util.h, for every layer. */

/* The facts of block device number rdev (sysfs_root NULL = /sys; mounts
 * from mountinfo_file, NULL = /proc/self/mountinfo, "-" not read; source:
 * the inventory), or of scratch directory dir on the file system whose
 * st_dev it is (its mount from mountinfo_file, NULL = /proc/self/mountinfo;
 * the disk below it; no source).  What cannot be read stays unknown.
 * Always 0. */
int dev_facts_block(struct dev_facts *f, dev_t rdev, const char *sysfs_root,
		    const char *mountinfo_file);
int dev_facts_dir(struct dev_facts *f, const char *dir, dev_t st_dev, const char *sysfs_root,
		  const char *mountinfo_file);

/* A real block device (not a sim drive, not a scratch file). */
bool dev_facts_is_block(const struct dev_facts *f);

/* ---- shared readers ---- */

/* The resolved sysfs directory of device number d: 0 or -ENOENT. */
int sysfs_devt_dir(const char *sysfs_root, dev_t d, char *out, size_t n);
/* A number in sysfs attribute dir/rel: 0, -ENOENT absent, -EINVAL not a
 * number, -errno unreadable; *out unknown unless 0. */
int sysfs_u64(const char *dir, const char *rel, struct known_u64 *out);
/* A queue's logical and physical sector sizes, the one reader of them: dir
 * is a disk's (a partition's: its disk's queue is read).  Unknown when
 * unreadable; rc (may be NULL) gets sysfs_u64's answer for each. */
void sysfs_sector_sizes(const char *dir, struct known_u64 *logical, struct known_u64 *physical,
			int rc[2]);
/* The unit serial number VPD page (0x80) of dir's device/: its printable
 * characters, untrimmed; "" when there is none. */
void sysfs_vpd80(const char *dir, char *dst, size_t n);

/* One /proc/self/mountinfo line, split in place: "ID PARENT MAJ:MIN ROOT
 * MOUNTPOINT OPTS [OPT...] - FSTYPE SOURCE SUPEROPTS" (\ooo escapes undone).
 * false when the line does not have that shape. */
struct mount_line {
	dev_t devt;
	char *mnt, *fstype, *src;
};
bool mountinfo_parse(char *line, struct mount_line *m);
/* \ooo escapes (mountinfo, swaps) undone in place. */
void mount_unescape(char *s);
#endif
