/* target.c - open what the user named: a block device (O_DIRECT; writable only
 * through the guard), a scratch file we create in a directory, or a sim drive. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "io/guard.h"
#include "io/target.h"
#include "sim/sim.h"
#include "util/util.h"

#define FILL_CHUNK (1u << 20)

/* DIO alignment from statx(STATX_DIOALIGN) (Linux 6.1+; 0/0 when the kernel
 * or filesystem does not say). */
static void
dio_align(int fd, uint32_t *mem, uint32_t *off)
{
	struct statx stx;

	*mem = *off = 0;
#ifdef STATX_DIOALIGN
	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN)) {
		*mem = stx.stx_dio_mem_align;
		*off = stx.stx_dio_offset_align;
	}
#else
	(void)fd;
	(void)stx;
#endif
}

static void
short_name(struct target *t, const char *name)
{
	strtrimcpy(t->name, sizeof t->name, name);
}

static int
open_block(struct target *t, const char *path, const struct target_opts *o, char *err,
	   size_t errlen)
{
	char real[PATH_MAX];
	uint64_t size = 0;
	int lbs = 0;
	unsigned int pbs = 0;
	uint32_t mem, off;
	int rc;

	if (!realpath(path, real))
		strtrimcpy(real, sizeof real, path);
	strtrimcpy(t->path, sizeof t->path, real);
	short_name(t, strrchr(real, '/') ? strrchr(real, '/') + 1 : real);
	t->kind = TGT_BLOCK;
	if (o->write) {
		struct guard_env env = {
			.sysfs_root = o->sysfs_root, .mountinfo_file = o->mountinfo_file,
			.swaps_file = o->swaps_file,
		};
		if ((rc = guard_write_open(t->path, &o->confirms, &env, &t->fd, err, errlen)) < 0)
			return rc;
		t->writable = true;
	} else if ((t->fd = open(t->path, O_RDONLY | O_DIRECT | O_CLOEXEC)) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", t->path, strerror(-rc));
		return rc;
	}
	if (ioctl(t->fd, BLKGETSIZE64, &size) < 0 || ioctl(t->fd, BLKSSZGET, &lbs) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot read its size: %s", t->path, strerror(-rc));
		return rc;
	}
	if (ioctl(t->fd, BLKPBSZGET, &pbs) < 0)
		pbs = (unsigned int)lbs;
	if (size == 0 || lbs <= 0) {
		snprintf(err, errlen, "%s: has no capacity (size 0)", t->path);
		return -EINVAL;
	}
	t->size = size;
	t->logical = (uint32_t)lbs;
	t->physical = pbs ? pbs : (uint32_t)lbs;
	dio_align(t->fd, &mem, &off);
	t->mem_align = mem ? mem : t->logical;
	/* The rule: offsets and sizes follow the logical block size. */
	t->offset_align = off > t->logical ? off : t->logical;
	t->direct = true;
	/* the facts of the device the descriptor holds (not of the name: it
	 * may have changed hands since) */
	struct stat st;
	if (fstat(t->fd, &st) == 0)
		dev_facts_block(&t->facts, st.st_rdev, o->sysfs_root, o->mountinfo_file);
	else
		t->facts.source = &dev_source_inventory;	/* where it is: unknown */
	return 0;
}

/* Incompressible bytes, cheap: xorshift64* over the buffer. */
static void
fill_random(uint64_t *p, size_t n, uint64_t *s)
{
	for (size_t i = 0; i < n; i++) {
		*s ^= *s >> 12;
		*s ^= *s << 25;
		*s ^= *s >> 27;
		p[i] = *s * 0x2545F4914F6CDD1DULL;
	}
}

/* Write the whole file once so later reads reach the media instead of
 * returning zeros for unwritten extents.  progress (may be NULL) hears the
 * fraction done every 16 MiB and stops the fill by returning nonzero. */
static int
fill_file(int fd, uint64_t size, uint32_t align, int (*progress)(void *, double), void *arg)
{
	void *buf;
	uint64_t seed = 0x9E3779B97F4A7C15ULL ^ (uint64_t)now_ns();
	int rc = 0;

	if (posix_memalign(&buf, align > 4096 ? align : 4096, FILL_CHUNK))
		return -ENOMEM;
	for (uint64_t off = 0; off < size && rc == 0;) {
		if (progress && off % (16u * FILL_CHUNK) == 0 && progress(arg, (double)off / (double)size)) {
			rc = -EINTR;
			break;
		}
		size_t n = size - off < FILL_CHUNK ? (size_t)(size - off) : FILL_CHUNK;
		fill_random(buf, n / 8, &seed);
		ssize_t w = pwrite(fd, buf, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			rc = w < 0 ? -errno : -ENOSPC;
		else
			off += (uint64_t)w;
	}
	free(buf);
	if (rc == 0 && fdatasync(fd) < 0)
		rc = -errno;
	if (rc == 0 && progress)
		progress(arg, 1.0);
	return rc;
}

static void
fill_error(const char *what, uint64_t size, int rc, char *err, size_t errlen)
{
	if (rc == -ENOSPC || rc == -EDQUOT)
		snprintf(err, errlen, "%s: not enough free space for a %llu MiB scratch file (%s)",
			 what, (unsigned long long)(size >> 20), strerror(-rc));
	else if (rc == -EINTR)
		snprintf(err, errlen, "%s: stopped while preparing the scratch file", what);
	else
		snprintf(err, errlen, "%s: cannot prepare a %llu MiB scratch file: %s", what,
			 (unsigned long long)(size >> 20), strerror(-rc));
}

int
target_prepare(struct target *t, int (*progress)(void *arg, double frac), void *arg,
	       char *err, size_t errlen)
{
	if (!t->fill_pending)
		return 0;
	int rc = fill_file(t->fd, t->size, t->mem_align, progress, arg);
	if (rc) {
		fill_error(t->path, t->size, rc, err, errlen);
		return rc;
	}
	t->fill_pending = false;
	return 0;
}

static void
scratch_fail(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->created && !t->unnamed)
		unlink(t->path);	/* only ever the file we created */
	t->created = false;
}

/* A scratch file of size bytes fits in the directory's free space (a size
 * that cannot is bad input, refused before anything is created; size
 * UINT64_MAX: it did not fit after all).  0 or -EINVAL with one line. */
static int
scratch_fits(const char *dir, const char *real, uint64_t size, char *err, size_t errlen)
{
	struct statvfs sv;

	if (statvfs(real, &sv) < 0)
		return 0;	/* cannot tell: creating it will say */
	uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (size != UINT64_MAX && size <= avail)
		return 0;
	if (size == UINT64_MAX)
		snprintf(err, errlen, "%s: the scratch file (--file-size) does not fit: %.1f GiB of free space there",
			 dir, (double)avail / (1u << 30));
	else
		snprintf(err, errlen,
			 "%s: a %.1f GiB scratch file (--file-size) does not fit: %.1f GiB of free space there; give a smaller --file-size",
			 dir, (double)size / (1u << 30), (double)avail / (1u << 30));
	return -EINVAL;
}

/* Create the scratch file: with O_TMPFILE it has no name, so nothing is
 * left behind whatever ends the run (kill -9 too) and nobody else can open
 * it; --keep links it into the directory at close.  A named file
 * (mkostemp, O_CREAT|O_EXCL: never an existing one) when the caller reopens
 * it by name (o->named) or the file system has no O_TMPFILE; a leftover of
 * that kind is DIR/diskscope-scratch-XXXXXX. */
static int
scratch_create(struct target *t, const char *dir, const char *real, const struct target_opts *o,
	       char *err, size_t errlen)
{
	int rc;

	if (!o->named) {
		t->fd = open(real, O_TMPFILE | O_RDWR | O_CLOEXEC | (o->keep ? 0 : O_EXCL), 0600);
		if (t->fd >= 0) {
			t->created = t->unnamed = true;
			pathf(t->path, sizeof t->path, "%s/(unnamed scratch file)", real);
			return 0;
		}
		if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
			rc = -errno;
			snprintf(err, errlen, "%s: cannot create a scratch file: %s", dir, strerror(-rc));
			return rc;
		}
	}
	if (pathf(t->path, sizeof t->path, "%s/diskscope-scratch-XXXXXX", real) < 0) {
		snprintf(err, errlen, "%s: directory path too long", dir);
		return -ENAMETOOLONG;
	}
	if ((t->fd = mkostemp(t->path, O_CLOEXEC)) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot create a scratch file: %s", dir, strerror(-rc));
		return rc;
	}
	t->created = true;
	return 0;
}

/* --keep of an unnamed scratch file: give it a name now, beside where it
 * was made (DIR/diskscope-scratch-XXXXXX, a name nobody has). */
static void
scratch_link(struct target *t)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	char proc[64], name[PATH_MAX], *slash = strrchr(t->path, '/');
	uint64_t r = (uint64_t)now_ns() ^ ((uint64_t)getpid() << 32);

	if (!slash)
		return;
	*slash = '\0';
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", t->fd);
	for (int tries = 0; tries < 100; tries++) {
		char sfx[7];
		for (int i = 0; i < 6; i++, r = r * 6364136223846793005ULL + 1442695040888963407ULL)
			sfx[i] = set[(r >> 33) % (sizeof set - 1)];
		sfx[6] = '\0';
		if (pathf(name, sizeof name, "%s/diskscope-scratch-%s", t->path, sfx) < 0)
			break;
		if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0) {
			strtrimcpy(t->path, sizeof t->path, name);
			t->unnamed = false;
			return;
		}
		if (errno != EEXIST)
			break;
	}
	*slash = '/';
}

/* O_DIRECT on a RAM filesystem (tmpfs, ramfs): Linux < 6.6 refuses it.  There
 * is no device below such a filesystem, so buffered I/O measures the same
 * thing (memory) and we fall back to it with a notice.  On any other
 * filesystem a refused O_DIRECT means results would measure the page cache
 * instead of the disk, so we refuse the target. */
static bool
ram_fs(int fd)
{
	struct statfs sf;
	return fstatfs(fd, &sf) == 0 &&
	       ((unsigned long)sf.f_type == TMPFS_MAGIC || (unsigned long)sf.f_type == RAMFS_MAGIC);
}

static int
open_scratch(struct target *t, const char *dir, const struct target_opts *o, char *err,
	     size_t errlen)
{
	char real[PATH_MAX];
	uint64_t size = o->file_size ? o->file_size : TARGET_DEFAULT_FILE_SIZE;
	uint32_t mem, off, gran;
	struct stat st;
	int rc, fl;

	if (!realpath(dir, real))
		strtrimcpy(real, sizeof real, dir);
	t->kind = TGT_FILE;
	short_name(t, "scratch");
	if ((rc = scratch_fits(dir, real, size, err, errlen)) < 0 ||
	    (rc = scratch_create(t, dir, real, o, err, errlen)) < 0)
		return rc;
	fl = fcntl(t->fd, F_GETFL);
	if (fl >= 0 && fcntl(t->fd, F_SETFL, fl | O_DIRECT) == 0) {
		t->direct = true;
	} else if (o->buffered_ok && !ram_fs(t->fd)) {
		t->direct = false;	/* the caller fsyncs and drops the cache itself */
	} else if (ram_fs(t->fd)) {
		t->direct = false;
		snprintf(t->notice, sizeof t->notice,
			 "%.80s: no O_DIRECT on this RAM filesystem: using buffered I/O (it measures memory, which is what the filesystem is)",
			 dir);
	} else {
		rc = -EINVAL;
		snprintf(err, errlen,
			 "%s: the filesystem does not support O_DIRECT, so results would measure the page cache, not the disk",
			 dir);
		goto fail;
	}
	dio_align(t->fd, &mem, &off);
	fstat(t->fd, &st);
	t->logical = off ? off : 512;
	t->physical = st.st_blksize > 0 ? (uint32_t)st.st_blksize : 4096;
	t->mem_align = mem ? mem : (t->logical > 512 ? t->logical : 512);
	t->offset_align = t->logical;
	/* Whole filesystem blocks, so the last I/O is not a partial block. */
	gran = t->physical > t->logical ? t->physical : t->logical;
	size -= size % gran;
	if (size == 0) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s: scratch file size %llu is smaller than one %u-byte block",
			 dir, (unsigned long long)(o->file_size), gran);
		goto fail;
	}
	bool must_fill = !o->write || o->fill;
	if (fallocate(t->fd, 0, 0, (off_t)size) < 0) {
		rc = -errno;
		if (rc == -ENOSPC || rc == -EDQUOT) {	/* taken meanwhile, or a quota */
			rc = scratch_fits(dir, real, UINT64_MAX, err, errlen);
			goto fail;
		}
		if (rc != -EOPNOTSUPP)
			goto space;
		must_fill = true;	/* no preallocation here: writing it allocates */
	}
	if (must_fill && o->defer_fill)
		t->fill_pending = true;	/* target_prepare, on the runner's thread */
	else if (must_fill && (rc = fill_file(t->fd, size, t->mem_align, NULL, NULL)) < 0)
		goto space;
	t->size = size;
	t->writable = true;
	t->keep = o->keep;
	dev_facts_dir(&t->facts, real, st.st_dev, o->sysfs_root, o->mountinfo_file);
	return 0;
space:
	fill_error(dir, size, rc, err, errlen);
fail:
	scratch_fail(t);
	return rc;
}

/* "sdb" means /dev/sdb when that is a block device; else spec as named.
 * 0 and *st, or -errno with one line in err. */
static int
spec_path(const char *spec, char *path, size_t n, struct stat *st, char *err, size_t errlen)
{
	if (!strchr(spec, '/') && pathf(path, n, "/dev/%s", spec) == 0 &&
	    stat(path, st) == 0 && S_ISBLK(st->st_mode))
		return 0;
	strtrimcpy(path, n, spec);
	if (stat(path, st) < 0) {
		int rc = -errno;
		snprintf(err, errlen, "%s: %s", spec,
			 rc == -ENOENT ? "no such device or directory" : strerror(-rc));
		return rc;
	}
	return 0;
}

static const struct target_opts no_opts = { .sim_seed = SIM_DEFAULT_SEED };

int
target_open(struct target *t, const char *spec, const struct target_opts *o, char *err,
	    size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;
	int rc;

	if (!o)
		o = &no_opts;
	memset(t, 0, sizeof *t);
	t->fd = -1;
	if (errlen)
		err[0] = '\0';
	if (!spec || !*spec) {
		snprintf(err, errlen, "empty target name");
		return -EINVAL;
	}
	strtrimcpy(t->spec, sizeof t->spec, spec);
	if (dev_spec_simulated(spec, NULL))
		return sim_target_open(t, spec, o, err, errlen);
	if ((rc = spec_path(spec, path, sizeof path, &st, err, errlen)) < 0)
		return rc;
	if (S_ISBLK(st.st_mode))
		rc = open_block(t, path, o, err, errlen);
	else if (S_ISDIR(st.st_mode))
		rc = open_scratch(t, path, o, err, errlen);
	else if (S_ISREG(st.st_mode) && o->write) {
		snprintf(err, errlen,
			 "refused: %s is a file diskscope did not create; name a directory for a scratch file",
			 spec);
		return -EPERM;
	} else {
		snprintf(err, errlen,
			 "%s: not a block device or a directory (diskscope tests devices, or scratch files it creates in a directory)",
			 spec);
		return -EINVAL;
	}
	if (rc < 0)
		target_close(t);
	return rc;
}

int
target_facts(const char *spec, const struct target_opts *o, struct dev_facts *f, char *err,
	     size_t errlen)
{
	char path[PATH_MAX], real[PATH_MAX];
	struct stat st;
	int rc;

	if (!o)
		o = &no_opts;
	memset(f, 0, sizeof *f);
	if (errlen)
		err[0] = '\0';
	if (!spec || !*spec) {
		snprintf(err, errlen, "empty target name");
		return -EINVAL;
	}
	if (dev_spec_simulated(spec, NULL))
		return sim_target_facts(spec, o, f, err, errlen);
	if ((rc = spec_path(spec, path, sizeof path, &st, err, errlen)) < 0)
		return rc;
	if (S_ISBLK(st.st_mode))
		return dev_facts_block(f, st.st_rdev, o->sysfs_root, o->mountinfo_file);
	if (S_ISDIR(st.st_mode)) {
		if (!realpath(path, real))
			strtrimcpy(real, sizeof real, path);
		return dev_facts_dir(f, real, st.st_dev, o->sysfs_root, o->mountinfo_file);
	}
	snprintf(err, errlen, "%s: not a block device or a directory", spec);
	return -EINVAL;
}

void
target_close(struct target *t)
{
	if (t->kind == TGT_SIM) {
		sim_target_close(t);
		return;
	}
	if (t->created && t->keep && t->unnamed && t->fd >= 0)
		scratch_link(t);
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->created && !t->keep && !t->unnamed)
		unlink(t->path);
	t->created = false;
}

int
target_trim(struct target *t, uint64_t off, uint64_t len)
{
	if (len == 0)
		return 0;
	if (off > t->size || len > t->size - off)
		return -EINVAL;
	if (t->kind == TGT_SIM)
		return sim_target_trim(t, off, len);
	if (!t->writable || t->fd < 0)
		return -EPERM;	/* only what the guard opened for writing */
	if (t->kind == TGT_BLOCK) {
		uint64_t range[2] = { off, len };
		return ioctl(t->fd, BLKDISCARD, range) < 0 ? -errno : 0;
	}
	/* a scratch file: give the blocks back to the file system */
	return fallocate(t->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) < 0
	       ? -errno : 0;
}

int
target_check_io(const struct target *t, uint64_t offset, uint32_t len, char *err, size_t errlen)
{
	uint32_t a = t->offset_align ? t->offset_align : t->logical ? t->logical : 512;

	if (len == 0) {
		snprintf(err, errlen, "%s: I/O size 0", t->name);
		return -EINVAL;
	}
	if (len % a) {
		snprintf(err, errlen, "%s: I/O size %u is not a multiple of its %u-byte logical block size",
			 t->name, len, a);
		return -EINVAL;
	}
	if (offset % a) {
		snprintf(err, errlen, "%s: offset %llu is not a multiple of its %u-byte logical block size",
			 t->name, (unsigned long long)offset, a);
		return -EINVAL;
	}
	if (t->size && (offset > t->size || len > t->size - offset)) {
		snprintf(err, errlen, "%s: I/O of %u bytes at offset %llu ends past its end (%llu bytes)",
			 t->name, len, (unsigned long long)offset, (unsigned long long)t->size);
		return -EINVAL;
	}
	return 0;
}
