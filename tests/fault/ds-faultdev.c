/* ds-faultdev - a FUSE file system of disk images that misbehave on command,
 * for diskscope's fault scenarios.  A loop device on MOUNT/diskN makes it a
 * real block device; MOUNT/.ctl takes commands at run time (see behave.c).
 * Files are opened in FUSE direct_io mode, so every read and write of the
 * loop device reaches this daemon: nothing is answered from a page cache. */
#define FUSE_USE_VERSION 312
#include <fuse3/fuse.h>

#include "faultdev.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define CTL_NAME ".ctl"
#define CTL_IDX (~(uint64_t)0)

static struct fd_dev dev = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};
static char mnt_path[PATH_MAX];

/* "vanish unmount": detach the mount (a loop device still holds its file,
 * so only a lazy unmount works) and end the daemon, which closes the FUSE
 * connection: every I/O still aimed at it fails.  From a thread of its own,
 * so the .ctl write that asked for it is answered first. */
static void *
unmount_thread(void *arg)
{
	usleep(100 * 1000);
	if (umount2(mnt_path, MNT_DETACH))
		fprintf(stderr, "ds-faultdev: unmount %s: %s\n", mnt_path, strerror(errno));
	kill(getpid(), SIGTERM);
	return NULL;
}

/* "disk3" -> 3; -1 for anything else */
static int
disk_of(const char *path)
{
	if (*path == '/')
		path++;
	for (size_t i = 0; i < dev.n_disks; i++)
		if (!strcmp(path, dev.disk[i].name))
			return (int)i;
	return -1;
}

static void *
fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	/* one loop request = one FUSE request: a failed tail of a split
	 * request would reach the loop driver as a short read, which its
	 * direct-io path completes as success */
	conn->max_write = 1U << 20;
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->attr_timeout = 0;
	cfg->entry_timeout = 0;
	cfg->use_ino = 0;
	return NULL;
}

static int
fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	memset(st, 0, sizeof(*st));
	st->st_uid = getuid();
	st->st_gid = getgid();
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (!strcmp(path, "/" CTL_NAME)) {
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		return 0;
	}
	int k = disk_of(path);
	if (k < 0)
		return -ENOENT;
	st->st_mode = S_IFREG | 0644;
	st->st_nlink = 1;
	st->st_size = (off_t)dev.disk[k].size;
	st->st_blocks = st->st_size / 512;
	return 0;
}

static int
fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off, struct fuse_file_info *fi,
	   enum fuse_readdir_flags flags)
{
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, CTL_NAME, NULL, 0, 0);
	for (size_t i = 0; i < dev.n_disks; i++)
		fill(buf, dev.disk[i].name, NULL, 0, 0);
	return 0;
}

static int
fs_open(const char *path, struct fuse_file_info *fi)
{
	if (!strcmp(path, "/" CTL_NAME)) {
		fi->fh = CTL_IDX;
	} else {
		int k = disk_of(path);
		if (k < 0)
			return -ENOENT;
		fi->fh = (uint64_t)k;
	}
	fi->direct_io = 1;
	fi->keep_cache = 0;
	return 0;
}

static int
fs_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	if (fi->fh == CTL_IDX) {
		char *s = fd_describe(&dev);
		if (!s)
			return -ENOMEM;
		size_t n = strlen(s), got = 0;
		if ((size_t)off < n) {
			got = n - (size_t)off < size ? n - (size_t)off : size;
			memcpy(buf, s + off, got);
		}
		free(s);
		return (int)got;
	}
	struct fd_disk *k = &dev.disk[fi->fh];
	if ((uint64_t)off >= k->size)
		return 0;
	if (size > k->size - (uint64_t)off)
		size = k->size - (uint64_t)off;
	int rc = fd_behave(&dev, fi->fh, FD_READ, (uint64_t)off, size);
	if (rc)
		return rc;
	memcpy(buf, k->mem + off, size);
	return (int)size;
}

/* .ctl: each line a command; a bad one fails the write with EINVAL and its
 * reason on the daemon's stderr (lines before it stay applied) */
static int
ctl_write(const char *buf, size_t size)
{
	char line[1024];
	size_t s = 0;
	while (s < size) {
		size_t e = s;
		while (e < size && buf[e] != '\n')
			e++;
		size_t n = e - s < sizeof(line) - 1 ? e - s : sizeof(line) - 1;
		memcpy(line, buf + s, n);
		line[n] = 0;
		char why[256];
		if (fd_command(&dev, line, why, sizeof(why))) {
			fprintf(stderr, "ds-faultdev: %s: %s\n", CTL_NAME, why);
			return -EINVAL;
		}
		if (dev.verbose && *line)
			fprintf(stderr, "ds-faultdev: %s\n", line);
		s = e + 1;
	}
	pthread_mutex_lock(&dev.lock);
	bool go = dev.unmount;
	dev.unmount = false;
	pthread_mutex_unlock(&dev.lock);
	pthread_t t;
	if (go && !pthread_create(&t, NULL, unmount_thread, NULL))
		pthread_detach(t);
	return (int)size;
}

static int
fs_write(const char *path, const char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	if (fi->fh == CTL_IDX)
		return ctl_write(buf, size);
	struct fd_disk *k = &dev.disk[fi->fh];
	if ((uint64_t)off >= k->size)
		return -ENOSPC;
	if (size > k->size - (uint64_t)off)
		size = k->size - (uint64_t)off;
	int rc = fd_behave(&dev, fi->fh, FD_WRITE, (uint64_t)off, size);
	if (rc)
		return rc;
	fd_store(&dev, fi->fh, (uint64_t)off, buf, size);
	return (int)size;
}

/* shell redirection truncates .ctl; the disks keep their size */
static int
fs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	return !strcmp(path, "/" CTL_NAME) ? 0 : -EPERM;
}

/* a flush from the loop device: fails like any I/O once the disk is gone */
static int
fs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	if (fi->fh == CTL_IDX)
		return 0;
	pthread_mutex_lock(&dev.lock);
	int rc = dev.disk[fi->fh].vanished ? -ENODEV : 0;
	pthread_mutex_unlock(&dev.lock);
	return rc;
}

static const struct fuse_operations ops = {
	.init = fs_init,
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.open = fs_open,
	.read = fs_read,
	.write = fs_write,
	.truncate = fs_truncate,
	.fsync = fs_fsync,
};

static int
parse_size(const char *s, uint64_t *v)
{
	char *e;
	errno = 0;
	unsigned long long x = strtoull(s, &e, 10);
	if (errno || e == s || *s == '-')
		return -EINVAL;
	unsigned long long m = 1;
	switch (*e) {
	case 'k': case 'K': m = 1ULL << 10; e++; break;
	case 'm': case 'M': m = 1ULL << 20; e++; break;
	case 'g': case 'G': m = 1ULL << 30; e++; break;
	case 0: break;
	default: return -EINVAL;
	}
	if (*e || x > (~0ULL) / m)
		return -EINVAL;
	*v = x * m;
	return 0;
}

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: ds-faultdev [options] MOUNTPOINT [-o FUSE-OPTION,...]\n"
		"Runs in the foreground until unmounted (fusermount3 -u MOUNTPOINT) or killed.\n"
		"  --disks N          disk images disk0 .. disk(N-1) (1 .. %d, default 1)\n"
		"  --size SIZE        bytes per disk, 512-byte multiple (k/M/G; default 128M)\n"
		"  --fill zero|random what the disks hold at start (default zero)\n"
		"  --config FILE      commands to apply at start, one a line\n"
		"  -c COMMAND         a command to apply at start (repeatable)\n"
		"  -v                 log each control command on stderr\n"
		"%s"
		"exit: 0 unmounted, 1 FUSE failed, 2 usage\n",
		FD_MAX_DISKS, fd_command_help);
}

static int
disks_make(uint64_t size, size_t n, bool random)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	for (size_t i = 0; i < n; i++) {
		struct fd_disk *k = &dev.disk[i];
		snprintf(k->name, sizeof(k->name), "disk%zu", i);
		k->size = size;
		/* untouched pages are zero and take no memory */
		k->mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (k->mem == MAP_FAILED)
			return -errno;
		if (random)
			for (uint64_t o = 0; o + 8 <= size; o += 8) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				memcpy(k->mem + o, &x, 8);
			}
	}
	dev.n_disks = n;
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "disks", required_argument, NULL, 'n' }, { "size", required_argument, NULL, 's' },
		{ "fill", required_argument, NULL, 'F' },  { "config", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },	   { NULL, 0, NULL, 0 },
	};
	uint64_t size = 128ULL << 20, ndisks = 1;
	bool random = false;
	const char *config = NULL, *cmd[64];
	size_t ncmd = 0;
	int o;
	while ((o = getopt_long(argc, argv, "+c:vh", lo, NULL)) != -1) {
		switch (o) {
		case 'n':
			if (parse_size(optarg, &ndisks) || ndisks < 1 || ndisks > FD_MAX_DISKS) {
				fprintf(stderr, "ds-faultdev: --disks '%s': expected 1 .. %d\n", optarg, FD_MAX_DISKS);
				return 2;
			}
			break;
		case 's':
			if (parse_size(optarg, &size) || !size || size % FD_SECTOR || size > (64ULL << 30)) {
				fprintf(stderr, "ds-faultdev: --size '%s': expected a 512-byte multiple up to 64G\n",
					optarg);
				return 2;
			}
			break;
		case 'F':
			if (strcmp(optarg, "zero") && strcmp(optarg, "random")) {
				fprintf(stderr, "ds-faultdev: --fill '%s': expected zero or random\n", optarg);
				return 2;
			}
			random = !strcmp(optarg, "random");
			break;
		case 'C': config = optarg; break;
		case 'c':
			if (ncmd == sizeof(cmd) / sizeof(cmd[0])) {
				fprintf(stderr, "ds-faultdev: -c: at most 64\n");
				return 2;
			}
			cmd[ncmd++] = optarg;
			break;
		case 'v': dev.verbose = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "ds-faultdev: no mount point given\n");
		usage(stderr);
		return 2;
	}
	if (!realpath(argv[optind], mnt_path)) {
		fprintf(stderr, "ds-faultdev: mount point %s: %s\n", argv[optind], strerror(errno));
		return 2;
	}
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&dev.wake, &ca);
	int rc = disks_make(size, (size_t)ndisks, random);
	if (rc) {
		fprintf(stderr, "ds-faultdev: %llu bytes of memory per disk: %s\n", (unsigned long long)size,
			strerror(-rc));
		return 1;
	}
	char why[512];
	if (config && fd_command_file(&dev, config, why, sizeof(why))) {
		fprintf(stderr, "ds-faultdev: --config: %s\n", why);
		return 2;
	}
	for (size_t i = 0; i < ncmd; i++)
		if (fd_command(&dev, cmd[i], why, sizeof(why))) {
			fprintf(stderr, "ds-faultdev: -c '%s': %s\n", cmd[i], why);
			return 2;
		}
	dev.unmount = false;	/* "vanish unmount" acts from .ctl only */

	/* FUSE gets: the mount point, foreground, enough threads that I/O held
	 * in a stall never blocks .ctl, and whatever followed the mount point */
	char *fargv[64];
	int fargc = 0;
	fargv[fargc++] = argv[0];
	fargv[fargc++] = argv[optind];
	fargv[fargc++] = "-f";
	fargv[fargc++] = "-o";
	fargv[fargc++] = "max_threads=256,fsname=ds-faultdev,subtype=dsfault";
	for (int i = optind + 1; i < argc && fargc < 63; i++)
		fargv[fargc++] = argv[i];
	fargv[fargc] = NULL;
	return fuse_main(fargc, fargv, &ops, NULL) ? 1 : 0;
}
