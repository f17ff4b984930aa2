/* guard.h - the write guard (DESIGN.md "Safety").  Writing to a block device
 * needs all of: not the device holding /, not mounted (nor any partition),
 * no holders (md, dm; swap from the swaps file; zfs shows as a holder, a
 * mount or a failed exclusive open), --destroy-data naming that very device,
 * and an O_EXCL open that succeeds.  Each refusal is -EPERM with ONE sentence
 * "refused: ..." naming the rule and the evidence (the CLI exits 3).
 *
 * The rule functions are pure over the files they are given (sysfs root,
 * mounts file, swaps file) so tests can feed fixtures. */
#ifndef DS_GUARD_H
#define DS_GUARD_H
#include <stddef.h>
#include <sys/types.h>

#define GUARD_MAX_FAMILY 128

/* A disk (or partition) and, for a disk, its partitions: the set of kernel
 * block devices whose use makes writing the target unsafe. */
struct guard_family {
	char dev[64];			/* target path for messages, e.g. /dev/loop4 */
	size_t n;			/* [0] is the target itself */
	char name[GUARD_MAX_FAMILY][64];	/* kernel names: loop4, loop4p1 ... */
	dev_t devt[GUARD_MAX_FAMILY];	/* from sysfs "dev"; 0 when unknown */
};

struct guard_env {
	const char *sysfs_root;		/* NULL = "/sys" */
	const char *mounts_file;	/* NULL = "/proc/self/mounts" */
	const char *swaps_file;		/* NULL = "/proc/swaps" */
	dev_t root_dev;			/* st_dev of "/"; 0 = stat("/") */
};

/* The family of kernel block device `name` (e.g. "loop4"): itself plus its
 * partitions (subdirectories of class/block/NAME holding a "partition" file).
 * devpath is the path used in messages.  0 / -ENOENT (no such device). */
int guard_family_load(struct guard_family *f, const char *sysfs_root, const char *name,
		      const char *devpath);

/* Each rule: 0 = passes, -EPERM + "refused: ..." in err. */
int guard_check_root(const struct guard_family *f, const char *sysfs_root,
		     const char *mounts_file, dev_t root_dev, char *err, size_t errlen);
int guard_check_mounts(const struct guard_family *f, const char *mounts_file,
		       char *err, size_t errlen);
int guard_check_holders(const struct guard_family *f, const char *sysfs_root,
			char *err, size_t errlen);
int guard_check_swaps(const struct guard_family *f, const char *swaps_file,
		      char *err, size_t errlen);
/* confirm is the --destroy-data value (NULL = not given): "/dev/X" or "X",
 * compared with devpath through symlinks (realpath, then st_rdev). */
int guard_check_confirm(const char *devpath, const char *confirm, char *err, size_t errlen);
/* Open O_RDWR|O_EXCL|O_DIRECT: *fd on success; EBUSY -> -EPERM "refused: ...
 * in use"; another failure -> -errno with a one-line reason. */
int guard_open_excl(const char *devpath, int *fd, char *err, size_t errlen);

/* The rules that need no confirmation and open nothing (root, mounts,
 * holders, swap), e.g. for the TUI picker to grey out a device before asking
 * for its name.  0, -EPERM + "refused: ...", or -errno (not a block device). */
int guard_precheck(const char *devpath, const struct guard_env *env, char *err, size_t errlen);

/* All rules in the order above on block device devpath (any path or symlink
 * to it).  On success *fd is the exclusive read-write O_DIRECT descriptor,
 * kept open for the whole run so nobody can mount it meanwhile. */
int guard_write_open(const char *devpath, const char *confirm, const struct guard_env *env,
		     int *fd, char *err, size_t errlen);
#endif
