/* guard.h - the write guard (DESIGN.md "Safety").  Writing to a block device
 * needs, in this order:
 *   1. a confirmation naming that very device (--destroy-data=DEV, one per
 *      device; in the dashboard each name typed), carrying the identity the
 *      user confirmed (struct guard_confirm); without one nothing is opened
 *      (the refusal names rule 3's reason when there is one, e.g. "holds /");
 *   2. an O_RDWR|O_EXCL open that succeeds (held for the whole run, so nobody
 *      mounts it and its kernel name cannot change hands meanwhile);
 *   3. against the OPENED descriptor's device number (fstat st_rdev), for the
 *      device and its partitions (a partition: also its whole disk): not the
 *      device holding /, not mounted (mountinfo major:minor, and any mount
 *      source path that is that block device, in /dev or not), no holders
 *      (/sys/dev/block/MAJ:MIN/holders: md, dm, zfs), not swap (/proc/swaps
 *      by device number);
 *   4. the opened device's identity (serial, WWN, capacity; for a loop device
 *      its backing file: its path, and the device, inode and offset the
 *      kernel holds (LOOP_GET_STATUS64), since another file can be put at
 *      the same path and attached again) equal to the confirmed one.
 * A rule that cannot be evaluated refuses (fail closed) and says which rule
 * and why.  Each refusal is -EPERM with ONE sentence "refused: ..." naming the
 * rule and the evidence (the CLI exits 3).
 *
 * Test hook: DISKSCOPE_TEST_PAUSE_BEFORE_WRITE=SECONDS makes guard_write_open
 * sleep between the confirmation and the exclusive open (tests/sys/guard.sh
 * swaps a loop device's backing file meanwhile).  Nothing else reads it.
 *
 * Every file the rules read comes from struct guard_env, so tests feed
 * fixtures (a fake sysfs tree, mountinfo and swaps files). */
#ifndef DS_GUARD_H
#define DS_GUARD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define GUARD_MAX_FAMILY 129	/* the device and up to 128 partitions */
#define GUARD_MAX_CONFIRMS 64

/* A drive as the user confirmed it (or as it is now). */
struct guard_confirm {
	char path[128];		/* as named: /dev/sdb, /dev/disk/by-id/... */
	dev_t devt;		/* 0 unknown */
	char serial[64], wwn[64];	/* "" none (exact) or unknown (!exact) */
	uint64_t capacity;	/* bytes, 0 unknown */
	char backing[256];	/* loop backing file, "" not a loop device */
	/* the backing file as the kernel holds it (LOOP_GET_STATUS64), read
	 * when confirmed and after the open; false: not read (refused) */
	bool backing_id;
	uint64_t backing_dev, backing_ino, backing_off;
	/* its birth time (statx), where the file system keeps one: an inode
	 * number is reused at once on ext4 after a delete */
	bool backing_btime;
	int64_t backing_btime_s;
	uint32_t backing_btime_ns;
	/* true: read from sysfs by the guard itself, so "" means the drive has
	 * none; false: from the inventory the user looked at, whose serial may
	 * be the whole IDENTIFY string where sysfs holds a piece of it. */
	bool exact;
};

struct guard_confirms {
	size_t n;
	struct guard_confirm v[GUARD_MAX_CONFIRMS];
};

/* The device and the block devices whose use makes writing it unsafe: for a
 * whole disk its partitions, for a partition its whole disk. */
struct guard_family {
	char dev[128];			/* target path for messages, e.g. /dev/loop4 */
	bool partition;			/* the target is a partition: [1] is its disk */
	size_t n;			/* [0] is the target itself */
	char name[GUARD_MAX_FAMILY][64];	/* kernel names: loop4, loop4p1 ... */
	dev_t devt[GUARD_MAX_FAMILY];
};

struct guard_env {
	const char *sysfs_root;		/* NULL = "/sys" */
	const char *mountinfo_file;	/* NULL = "/proc/self/mountinfo" */
	const char *swaps_file;		/* NULL = "/proc/swaps" */
	dev_t root_dev;			/* st_dev of "/"; 0 = stat("/") */
};

/* The identity of block device number d from sysfs (serial, WWN, capacity,
 * loop backing file); c->exact set.  0, or -EPERM + "refused: ..." when
 * sysfs has no entry for it. */
int guard_ident_read(struct guard_confirm *c, dev_t d, const char *sysfs_root,
		     char *err, size_t errlen);
/* A confirmation of block device path ("/dev/sdb", "sdb", a symlink) with
 * the identity it has now.  0, -ENOENT / -ENOTBLK (one line in err). */
int guard_confirm_capture(struct guard_confirm *c, const char *path, const char *sysfs_root,
			  char *err, size_t errlen);
/* The backing file's device, inode and offset of the loop device open on
 * fd, into c (backing_id set), and its birth time when c->backing names that
 * very file and the file system keeps one.  0, or -errno (not a loop
 * device: -ENXIO). */
int guard_loop_backing_id(int fd, struct guard_confirm *c);
/* Append (a second confirmation of the same device is dropped).  A loop
 * device's confirmation whose backing file's device and inode are not read
 * yet (one from the inventory) gets them now, from c->path.  0 / -E2BIG. */
int guard_confirms_add(struct guard_confirms *l, const struct guard_confirm *c,
		       char *err, size_t errlen);
/* The confirmation that names devpath (same resolved path or same device
 * number rdev): 0 and *out, or -EPERM "refused: writing X needs
 * --destroy-data=X" / "refused: --destroy-data=Y does not name X". */
int guard_check_confirm(const char *devpath, dev_t rdev, const struct guard_confirms *l,
			const struct guard_confirm **out, char *err, size_t errlen);
/* Rule 4: seen (confirmed) against now (guard_ident_read of the opened
 * device): 0, or -EPERM "refused: X is now another drive: serial A, you
 * confirmed B" (or why they cannot be compared). */
int guard_check_identity(const char *devpath, const struct guard_confirm *seen,
			 const struct guard_confirm *now, char *err, size_t errlen);

/* The family of block device number d.  0, or -EPERM + "refused: ..." when
 * it cannot be listed (no sysfs entry, more than GUARD_MAX_FAMILY). */
int guard_family_load(struct guard_family *f, const char *sysfs_root, dev_t d,
		      const char *devpath, char *err, size_t errlen);

/* Each rule: 0 = passes, -EPERM + "refused: ..." in err (also when the rule
 * cannot be evaluated). */
int guard_check_root(const struct guard_family *f, const struct guard_env *env,
		     char *err, size_t errlen);
int guard_check_mounts(const struct guard_family *f, const char *mountinfo_file,
		       char *err, size_t errlen);
int guard_check_holders(const struct guard_family *f, const char *sysfs_root,
			char *err, size_t errlen);
int guard_check_swaps(const struct guard_family *f, const char *swaps_file,
		      char *err, size_t errlen);
/* Rule 3 (root, mounts, holders, swaps) for device number d. */
int guard_check_rules(dev_t d, const char *devpath, const struct guard_env *env,
		      char *err, size_t errlen);

/* The rules that need no confirmation and open nothing, by the device
 * number devpath has now (e.g. for a picker to grey out a device).  0,
 * -EPERM + "refused: ...", or -errno (not a block device). */
int guard_precheck(const char *devpath, const struct guard_env *env, char *err, size_t errlen);

/* The whole guard on block device devpath (any path or symlink to it).  On
 * success *fd is the exclusive read-write O_DIRECT descriptor, to be kept
 * open for the whole run; on failure *fd is -1 and nothing was written. */
int guard_write_open(const char *devpath, const struct guard_confirms *l,
		     const struct guard_env *env, int *fd, char *err, size_t errlen);
#endif
