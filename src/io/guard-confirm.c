/* guard-confirm.c - the write guard's rules 1 and 4 (io/guard.h): which
 * confirmation names a device, the identity of a drive as sysfs shows it,
 * and whether the drive opened is the drive the user confirmed. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "inventory/facts.h"
#include "io/guard.h"
#include "util/util.h"

static const char *
dflt(const char *s, const char *d)
{
	return s && *s ? s : d;
}

/* Copy trimmed on both sides (VPD serials are often space-padded). */
static void
trimcpy(char *dst, size_t n, const char *src)
{
	while (*src && isspace((unsigned char)*src))
		src++;
	strtrimcpy(dst, n, src);
	size_t l = strlen(dst);
	while (l && isspace((unsigned char)dst[l - 1]))
		dst[--l] = '\0';
}

/* Unit serial number VPD page (0x80), by the inventory's reader. */
static void
read_vpd80(const char *dir, char *dst, size_t n)
{
	char text[260];
	sysfs_vpd80(dir, text, sizeof text);
	trimcpy(dst, n, text);
}

/* As the inventory reads them (sysfs.c), so a confirmation from the
 * inventory compares with what the guard reads: serial on the disk, in
 * device/, else VPD 0x80; WWN only from NAA/EUI designators. */
static void
read_attr(const char *dir, const char *rel, char *dst, size_t n)
{
	char p[PATH_MAX], buf[300];
	dst[0] = '\0';
	if (pathf(p, sizeof p, "%s/%s", dir, rel) == 0 && read_text(p, buf, sizeof buf) == 0)
		trimcpy(dst, n, buf);
}

int
guard_ident_read(struct guard_confirm *c, dev_t d, const char *sysfs_root, char *err,
		 size_t errlen)
{
	const char *root = dflt(sysfs_root, "/sys");
	char w[64];
	struct dev_facts f;

	memset(c, 0, sizeof *c);
	c->devt = d;
	c->exact = true;
	/* where the device is, its disk, its capacity: its device facts */
	dev_facts_block(&f, d, root, "-");	/* identity only: no mounts */
	if (!f.sysdir[0]) {
		snprintf(err, errlen,
			 "refused: device %u:%u has no entry in %s/dev/block, so its identity cannot be read",
			 major(d), minor(d), root);
		return -EPERM;
	}
	/* A partition's serial, WWN and backing file are its disk's. */
	const char *disk = f.diskdir;
	read_attr(disk, "serial", c->serial, sizeof c->serial);
	if (!c->serial[0])
		read_attr(disk, "device/serial", c->serial, sizeof c->serial);
	if (!c->serial[0])
		read_vpd80(disk, c->serial, sizeof c->serial);
	read_attr(disk, "device/wwid", w, sizeof w);
	if (strncmp(w, "naa.", 4) != 0 && strncmp(w, "eui.", 4) != 0)
		read_attr(disk, "wwid", w, sizeof w);
	if (strncmp(w, "naa.", 4) == 0 || strncmp(w, "eui.", 4) == 0)
		strtrimcpy(c->wwn, sizeof c->wwn, w);
	read_attr(disk, "loop/backing_file", c->backing, sizeof c->backing);
	if (f.capacity.known)
		c->capacity = f.capacity.v;
	return 0;
}

int
guard_loop_backing_id(int fd, struct guard_confirm *c)
{
	struct loop_info64 li;

	memset(&li, 0, sizeof li);
	if (ioctl(fd, LOOP_GET_STATUS64, &li) < 0)
		return -errno;
	c->backing_dev = li.lo_device;
	c->backing_ino = li.lo_inode;
	c->backing_off = li.lo_offset;
	c->backing_id = true;
	/* The inode number alone is not enough: ext4 gives a deleted file's
	 * number to the next new one.  Its birth time tells them apart; read
	 * through the path only when the path is that very file. */
	struct statx sx;
	c->backing_btime = false;
	if (c->backing[0] == '/' &&
	    statx(AT_FDCWD, c->backing, 0, STATX_INO | STATX_BTIME, &sx) == 0 &&
	    (sx.stx_mask & STATX_BTIME) && sx.stx_ino == li.lo_inode &&
	    sx.stx_dev_major == major((dev_t)li.lo_device) &&
	    sx.stx_dev_minor == minor((dev_t)li.lo_device)) {
		c->backing_btime = true;
		c->backing_btime_s = sx.stx_btime.tv_sec;
		c->backing_btime_ns = sx.stx_btime.tv_nsec;
	}
	return 0;
}

/* The backing file's identity of the loop device c names, now: read
 * through its node (read-only, so nothing else is disturbed), and only when
 * that node is still device c->devt.  Not read: backing_id stays false and
 * the identity check refuses (fail closed). */
static void
backing_id_read(struct guard_confirm *c)
{
	struct stat st;
	int fd;

	if (!c->backing[0] || c->backing_id ||
	    (fd = open(c->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && (!c->devt || st.st_rdev == c->devt))
		guard_loop_backing_id(fd, c);
	close(fd);
}

int
guard_confirm_capture(struct guard_confirm *c, const char *path, const char *sysfs_root,
		      char *err, size_t errlen)
{
	char dev[128];
	struct stat st;
	int rc;

	/* "sdb" means /dev/sdb, as in the target list. */
	if (strchr(path, '/'))
		strtrimcpy(dev, sizeof dev, path);
	else if (pathf(dev, sizeof dev, "/dev/%s", path) < 0)
		return -ENAMETOOLONG;
	if (stat(dev, &st) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", dev,
			 rc == -ENOENT ? "no such block device" : strerror(-rc));
		return rc;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "%s: not a block device", dev);
		return -ENOTBLK;
	}
	if ((rc = guard_ident_read(c, st.st_rdev, sysfs_root, err, errlen)) < 0)
		return rc;
	strtrimcpy(c->path, sizeof c->path, dev);
	backing_id_read(c);
	return 0;
}

static bool
same_path(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];
	return realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

int
guard_confirms_add(struct guard_confirms *l, const struct guard_confirm *c, char *err,
		   size_t errlen)
{
	for (size_t i = 0; i < l->n; i++)
		if ((c->devt && l->v[i].devt == c->devt) || strcmp(l->v[i].path, c->path) == 0)
			return 0;
	if (l->n >= GUARD_MAX_CONFIRMS) {
		snprintf(err, errlen, "at most %d devices can be confirmed", GUARD_MAX_CONFIRMS);
		return -E2BIG;
	}
	l->v[l->n] = *c;
	backing_id_read(&l->v[l->n++]);	/* confirmed now: the file it is on now */
	return 0;
}

int
guard_check_confirm(const char *devpath, dev_t rdev, const struct guard_confirms *l,
		    const struct guard_confirm **out, char *err, size_t errlen)
{
	size_t k;

	*out = NULL;
	if (!l || !l->n) {
		snprintf(err, errlen, "refused: writing %s needs --destroy-data=%s", devpath, devpath);
		return -EPERM;
	}
	for (size_t i = 0; i < l->n; i++)
		if ((rdev && l->v[i].devt == rdev) || same_path(l->v[i].path, devpath)) {
			*out = &l->v[i];
			return 0;
		}
	if (l->n == 1) {
		snprintf(err, errlen, "refused: --destroy-data=%s does not name %s", l->v[0].path,
			 devpath);
		return -EPERM;
	}
	k = (size_t)snprintf(err, errlen, "refused: --destroy-data names");
	for (size_t i = 0; i < l->n && k < errlen; i++)
		k += (size_t)snprintf(err + k, errlen - k, "%s %s", i ? "," : "", l->v[i].path);
	if (k < errlen)
		snprintf(err + k, errlen - k, ", not %s", devpath);
	return -EPERM;
}

/* One text field of the identity: 1 compared and equal, 0 not comparable,
 * -1 different (sentence in err). */
static int
ident_field(const char *dev, const char *what, const char *seen, const char *now, bool exact,
	    bool piece_ok, char *err, size_t errlen)
{
	if (!seen[0] && !now[0])
		return 0;
	if (!seen[0]) {
		snprintf(err, errlen, "refused: %s is now another drive: %s %s, you confirmed a drive without one",
			 dev, what, now);
		return -1;
	}
	if (!now[0]) {
		if (!exact)	/* the inventory may know more than sysfs (IDENTIFY) */
			return 0;
		snprintf(err, errlen, "refused: %s is now another drive: no %s, you confirmed %s %s",
			 dev, what, what, seen);
		return -1;
	}
	if (strcasecmp(seen, now) == 0 ||
	    (piece_ok && !exact && (strstr(seen, now) || strstr(now, seen))))
		return 1;
	snprintf(err, errlen, "refused: %s is now another drive: %s %s, you confirmed %s", dev,
		 what, now, seen);
	return -1;
}

/* The same path can name another file by now (detached, another file put
 * there, attached again): the file itself, as the kernel holds it. */
static int
backing_same(const char *dev, const struct guard_confirm *seen, const struct guard_confirm *now,
	     char *err, size_t errlen)
{
	if (!seen->backing_id || !now->backing_id) {
		snprintf(err, errlen,
			 "refused: cannot prove %s is still on the backing file you confirmed: the device and inode of %s could not be read %s (LOOP_GET_STATUS64)",
			 dev, seen->backing, seen->backing_id ? "now" : "when you confirmed");
		return -EPERM;
	}
	if (seen->backing_dev == now->backing_dev && seen->backing_ino == now->backing_ino &&
	    seen->backing_off == now->backing_off) {
		if (!seen->backing_btime || (now->backing_btime &&
					     seen->backing_btime_s == now->backing_btime_s &&
					     seen->backing_btime_ns == now->backing_btime_ns))
			return 0;
		if (!now->backing_btime)
			snprintf(err, errlen,
				 "refused: cannot prove %s is still on the backing file you confirmed: the birth time of %s cannot be read now",
				 dev, now->backing);
		else
			snprintf(err, errlen,
				 "refused: %s is now another drive: backing file %s is another file with the same inode %llu (created %lld.%09u), you confirmed one created %lld.%09u",
				 dev, now->backing, (unsigned long long)now->backing_ino,
				 (long long)now->backing_btime_s, now->backing_btime_ns,
				 (long long)seen->backing_btime_s, seen->backing_btime_ns);
		return -EPERM;
	}
	snprintf(err, errlen,
		 "refused: %s is now another drive: backing file %s is another file (device %u:%u inode %llu offset %llu), you confirmed device %u:%u inode %llu offset %llu",
		 dev, now->backing, major((dev_t)now->backing_dev), minor((dev_t)now->backing_dev),
		 (unsigned long long)now->backing_ino, (unsigned long long)now->backing_off,
		 major((dev_t)seen->backing_dev), minor((dev_t)seen->backing_dev),
		 (unsigned long long)seen->backing_ino, (unsigned long long)seen->backing_off);
	return -EPERM;
}

int
guard_check_identity(const char *dev, const struct guard_confirm *seen,
		     const struct guard_confirm *now, char *err, size_t errlen)
{
	int compared = 0, r;

	if (seen->devt && now->devt && seen->devt != now->devt) {
		snprintf(err, errlen, "refused: %s is now another drive: device %u:%u, you confirmed %u:%u",
			 dev, major(now->devt), minor(now->devt), major(seen->devt), minor(seen->devt));
		return -EPERM;
	}
	if ((r = ident_field(dev, "serial", seen->serial, now->serial, seen->exact, true, err,
			     errlen)) < 0 ||
	    (compared += r, r = ident_field(dev, "WWN", seen->wwn, now->wwn, seen->exact, false,
					    err, errlen)) < 0 ||
	    (compared += r, r = ident_field(dev, "backing file", seen->backing, now->backing,
					    seen->exact, false, err, errlen)) < 0)
		return -EPERM;
	compared += r;
	if (seen->backing[0] && (r = backing_same(dev, seen, now, err, errlen)) < 0)
		return r;
	if (seen->capacity && now->capacity) {
		if (seen->capacity != now->capacity) {
			snprintf(err, errlen,
				 "refused: %s is now another drive: %llu bytes, you confirmed %llu bytes",
				 dev, (unsigned long long)now->capacity,
				 (unsigned long long)seen->capacity);
			return -EPERM;
		}
		compared++;
	}
	if (!compared) {
		snprintf(err, errlen,
			 "refused: cannot prove %s is the drive you confirmed: no serial, WWN, backing file or capacity to compare",
			 dev);
		return -EPERM;
	}
	return 0;
}
