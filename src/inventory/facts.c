/* facts.c - the device facts of a target (facts.h) from sysfs and
 * mountinfo, with the readers the inventory, the guard and the tests share,
 * and the inventory as the identity and SMART source of a real drive. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "inventory/ata-selftest.h"
#include "inventory/facts.h"
#include "inventory/inventory.h"
#include "inventory/nvme.h"
#include "inventory/selftest.h"
#include "util/util.h"

bool
dev_facts_is_block(const struct dev_facts *f)
{
	return !f->simulated && f->kind != DEV_FILE && f->devt.known;
}

const char *
dev_kind_name(enum dev_kind k)
{
	static const char *const n[] = { "unknown", "disk", "partition", "loop", "zram",
					  "scratch file", "sim drive" };
	return (unsigned)k < ARRAY_SIZE(n) ? n[k] : "unknown";
}

/* ---- shared readers ---- */

int
sysfs_devt_dir(const char *sysfs_root, dev_t d, char *out, size_t n)
{
	char p[PATH_MAX], real[PATH_MAX];
	const char *root = sysfs_root && *sysfs_root ? sysfs_root : "/sys";
	if (pathf(p, sizeof p, "%s/dev/block/%u:%u", root, major(d), minor(d)) < 0 ||
	    !realpath(p, real) || strlen(real) >= n)
		return -ENOENT;
	memcpy(out, real, strlen(real) + 1);
	return 0;
}

int
sysfs_u64(const char *dir, const char *rel, struct known_u64 *out)
{
	char p[PATH_MAX], buf[64], *end;
	KNOWN_CLEAR(*out);
	int rc = pathf(p, sizeof p, "%s/%s", dir, rel);
	if (rc == 0)
		rc = read_text(p, buf, sizeof buf);
	if (rc < 0)
		return rc;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 0);
	if (end == buf || *end || errno || buf[0] == '-')
		return -EINVAL;
	KNOWN_SET(*out, v);
	return 0;
}

void
sysfs_sector_sizes(const char *dir, struct known_u64 *logical, struct known_u64 *physical,
		   int rc[2])
{
	char q[PATH_MAX];
	/* a partition has no queue of its own: its disk's */
	if (pathf(q, sizeof q, "%s/partition", dir) == 0 && access(q, F_OK) == 0)
		pathf(q, sizeof q, "%s/..", dir);
	else
		pathf(q, sizeof q, "%s", dir);
	int a = sysfs_u64(q, "queue/logical_block_size", logical);
	int b = sysfs_u64(q, "queue/physical_block_size", physical);
	if (rc) {
		rc[0] = a;
		rc[1] = b;
	}
}

void
sysfs_vpd80(const char *dir, char *dst, size_t n)
{
	char p[PATH_MAX];
	unsigned char buf[260];
	size_t k = 0;
	int fd;

	if (n)
		dst[0] = '\0';
	if (pathf(p, sizeof p, "%s/device/vpd_pg80", dir) < 0 ||
	    (fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	ssize_t r = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (r < 4 || buf[1] != 0x80)
		return;
	size_t len = ((size_t)buf[2] << 8) | buf[3];
	if (len > (size_t)r - 4)
		len = (size_t)r - 4;
	for (size_t i = 0; i < len && k + 1 < n; i++)
		if (isprint(buf[4 + i]))
			dst[k++] = (char)buf[4 + i];
	if (n)
		dst[k] = '\0';
}

void
mount_unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

bool
mountinfo_parse(char *line, struct mount_line *m)
{
	char *tok[64], *save = NULL;
	unsigned ma, mi;
	int n = 0, dash = -1;

	for (char *t = strtok_r(line, " \n", &save); t && n < 64; t = strtok_r(NULL, " \n", &save))
		tok[n++] = t;
	for (int i = 6; i < n && dash < 0; i++)
		if (strcmp(tok[i], "-") == 0)
			dash = i;
	if (n < 6 || dash < 0 || dash + 2 >= n || sscanf(tok[2], "%u:%u", &ma, &mi) != 2)
		return false;
	m->devt = makedev(ma, mi);
	m->mnt = tok[4];
	m->fstype = tok[dash + 1];
	m->src = tok[dash + 2];
	mount_unescape(m->mnt);
	mount_unescape(m->src);
	return true;
}

/* ---- the facts of a block device or a scratch directory ---- */

static void
facts_clear(struct dev_facts *f)
{
	memset(f, 0, sizeof *f);	/* every known_* value unknown */
}

/* The disk directory of sysfs directory dir (a partition's parent). */
static bool
is_partition(const char *dir)
{
	char p[PATH_MAX];
	return pathf(p, sizeof p, "%s/partition", dir) == 0 && access(p, F_OK) == 0;
}

static void
disk_model(struct dev_facts *f)
{
	char p[PATH_MAX + 32];
	if (pathf(p, sizeof p, "%s/device/model", f->diskdir) == 0)
		read_text(p, f->model, sizeof f->model);
	if (!strncmp(f->disk, "loop", 4) &&
	    pathf(p, sizeof p, "%s/loop/backing_file", f->diskdir) == 0)
		read_text(p, f->backing, sizeof f->backing);
	if (!f->model[0] && f->backing[0])
		snprintf(f->model, sizeof f->model, "loop on %s", f->backing);
	if (!f->model[0] && !strncmp(f->disk, "zram", 4))
		snprintf(f->model, sizeof f->model, "compressed RAM disk");
}

static size_t
count_dir(const char *dir, const char *rel, bool *ok)
{
	char p[PATH_MAX];
	size_t n = 0;
	*ok = false;
	if (pathf(p, sizeof p, "%s/%s", dir, rel))
		return 0;
	DIR *d = opendir(p);
	if (!d)
		return 0;
	*ok = true;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Where the device sits in sysfs: its directory, its disk's, the names. */
static bool
facts_where(struct dev_facts *f, dev_t rdev, const char *sysfs_root)
{
	KNOWN_SET(f->devt, rdev);
	if (sysfs_devt_dir(sysfs_root, rdev, f->sysdir, sizeof f->sysdir) < 0) {
		f->sysdir[0] = '\0';
		return false;
	}
	const char *b = strrchr(f->sysdir, '/');
	strtrimcpy(f->name, sizeof f->name, b ? b + 1 : f->sysdir);
	snprintf(f->diskdir, sizeof f->diskdir, "%s", f->sysdir);
	if (is_partition(f->sysdir) && strrchr(f->diskdir, '/'))
		*strrchr(f->diskdir, '/') = '\0';	/* a partition's parent is its disk */
	b = strrchr(f->diskdir, '/');
	strtrimcpy(f->disk, sizeof f->disk, b ? b + 1 : f->diskdir);
	return true;
}

/* "MAJ:MIN" from sysfs dir/rel/dev; 0 when unreadable. */
static dev_t
read_devt(const char *dir, const char *rel)
{
	char p[PATH_MAX + 300], b[32];
	unsigned ma, mi;
	if (pathf(p, sizeof p, "%s/%s/dev", dir, rel) || read_text(p, b, sizeof b) ||
	    sscanf(b, "%u:%u", &ma, &mi) != 2)
		return 0;
	return makedev(ma, mi);
}

#define MOUNT_DEVS 129	/* the device and its partitions, as the guard counts them */

/* Mounted: a mountinfo entry on the device or (a whole disk) a partition. */
static void
facts_mounted(struct dev_facts *f, dev_t rdev, const char *mountinfo_file)
{
	dev_t v[MOUNT_DEVS];
	size_t n = 0;
	v[n++] = rdev;
	DIR *d = f->kind == DEV_PARTITION ? NULL : opendir(f->sysdir);
	for (struct dirent *e; d && (e = readdir(d)) && n < MOUNT_DEVS;) {
		char sub[PATH_MAX + 300];
		if (e->d_name[0] == '.' || pathf(sub, sizeof sub, "%s/%s", f->sysdir, e->d_name) ||
		    !is_partition(sub))
			continue;
		dev_t pd = read_devt(f->sysdir, e->d_name);
		if (pd)
			v[n++] = pd;
	}
	if (d)
		closedir(d);
	FILE *fp = fopen(mountinfo_file && *mountinfo_file ? mountinfo_file : "/proc/self/mountinfo",
			 "re");
	if (!fp)
		return;
	char *line = NULL;
	size_t cap = 0;
	struct mount_line m;
	bool on = false;
	while (!on && getline(&line, &cap, fp) > 0) {
		if (!mountinfo_parse(line, &m))
			continue;
		for (size_t i = 0; i < n; i++)
			on |= m.devt == v[i];
	}
	free(line);
	fclose(fp);
	KNOWN_SET(f->mounted, on);
}

/* An NVMe namespace's sector sizes from the LBA format in use (its data
 * and metadata sizes), which the kernel may round; sysfs's stay where the
 * namespace does not answer.  Only on the live system: a test's sysfs tree
 * has no device behind it. */
static void
facts_nvme_format(struct dev_facts *f, const char *sysfs_root)
{
	char path[PATH_MAX];
	if ((sysfs_root && *sysfs_root && strcmp(sysfs_root, "/sys")) || strncmp(f->disk, "nvme", 4) ||
	    pathf(path, sizeof path, "/dev/%s", f->disk))
		return;
	struct nvme_info *n = calloc(1, sizeof *n);
	if (n && nvme_ns_format_read(path, n) == 0 && n->lbaf_in_use.known) {
		const struct nvme_lbaf_desc *l = &n->lbaf[n->lbaf_in_use.v];
		KNOWN_SET(f->logical, l->data_bytes);
		KNOWN_SET(f->meta_bytes, l->meta_bytes);
		if (!f->physical.known || f->physical.v < l->data_bytes)
			KNOWN_SET(f->physical, l->data_bytes);
		snprintf(f->sector_source, sizeof f->sector_source, "namespace");
	}
	free(n);
}

int
dev_facts_block(struct dev_facts *f, dev_t rdev, const char *sysfs_root, const char *mountinfo_file)
{
	struct known_u64 v;
	int64_t ao;
	char p[PATH_MAX + 32], b[32], *e;
	bool ok;

	facts_clear(f);
	f->source = &dev_source_inventory;
	if (!facts_where(f, rdev, sysfs_root))
		return 0;
	f->kind = is_partition(f->sysdir) ? DEV_PARTITION : !strncmp(f->name, "loop", 4) ? DEV_LOOP
		  : !strncmp(f->name, "zram", 4) ? DEV_ZRAM : DEV_DISK;
	sysfs_sector_sizes(f->sysdir, &f->logical, &f->physical, NULL);
	if (f->logical.known)
		snprintf(f->sector_source, sizeof f->sector_source, "sysfs");
	facts_nvme_format(f, sysfs_root);
	if (!sysfs_u64(f->sysdir, "size", &v))
		KNOWN_SET(f->capacity, v.v * 512);	/* always 512-byte units */
	if (pathf(p, sizeof p, "%s/alignment_offset", f->sysdir) == 0 &&
	    !read_text(p, b, sizeof b) && (ao = strtoll(b, &e, 10), e != b))
		KNOWN_SET(f->alignment_offset, ao);
	if (!sysfs_u64(f->diskdir, "queue/rotational", &v))
		KNOWN_SET(f->rotational, v.v != 0);
	size_t h = count_dir(f->sysdir, "holders", &ok);
	if (ok)
		KNOWN_SET(f->holders, h);
	disk_model(f);
	if (!mountinfo_file || strcmp(mountinfo_file, "-"))
		facts_mounted(f, rdev, mountinfo_file);
	return 0;
}

/* Mount point, file system and source of the mount holding dir: the
 * mountinfo entry of its device with the longest mount-point prefix. */
static void
facts_mount(struct dev_facts *f, const char *dir, dev_t dev, const char *mountinfo_file)
{
	FILE *fp = fopen(mountinfo_file && *mountinfo_file ? mountinfo_file : "/proc/self/mountinfo",
			 "re");
	char *line = NULL;
	size_t cap = 0, best = 0;
	struct mount_line m;
	if (!fp)
		return;
	while (getline(&line, &cap, fp) > 0) {
		if (!mountinfo_parse(line, &m))
			continue;
		size_t l = strlen(m.mnt);
		if (m.devt != dev || strncmp(dir, m.mnt, l) || (l > 1 && dir[l] && dir[l] != '/') ||
		    l < best)
			continue;
		best = l;
		strtrimcpy(f->mount, sizeof f->mount, m.mnt);
		strtrimcpy(f->fs, sizeof f->fs, m.fstype);
		strtrimcpy(f->mount_src, sizeof f->mount_src, m.src);
	}
	free(line);
	fclose(fp);
}

int
dev_facts_dir(struct dev_facts *f, const char *dir, dev_t st_dev, const char *sysfs_root,
	      const char *mountinfo_file)
{
	facts_clear(f);
	f->kind = DEV_FILE;
	facts_mount(f, dir, st_dev, mountinfo_file);
	struct statfs sf;
	if (!f->fs[0] && !statfs(dir, &sf))	/* no mount entry: the magic at least */
		snprintf(f->fs, sizeof f->fs, "fs 0x%lx", (unsigned long)sf.f_type);
	if (facts_where(f, st_dev, sysfs_root)) {
		/* the disk under the file system, not the file */
		f->name[0] = '\0';
		disk_model(f);
		struct known_u64 v;
		if (!sysfs_u64(f->diskdir, "queue/rotational", &v))
			KNOWN_SET(f->rotational, v.v != 0);
	}
	KNOWN_SET(f->devt, st_dev);
	return 0;
}

/* ---- the inventory as a source ---- */

static int
inv_drive(const struct dev_facts *f, const char *path, struct inventory *inv, struct drive **out)
{
	struct inventory_opts o;
	(void)f;
	*out = NULL;
	inventory_opts_default(&o);
	int rc = inventory_scan(inv, &o);
	if (rc)
		return rc == -ENOENT ? -EIO : rc;	/* -ENOENT: no such drive */
	*out = inventory_find_drive(inv, path);
	return *out ? 0 : -ENOENT;
}

static int
inv_selftest_log(const struct dev_facts *f, const char *path, bool after, bool smart,
		 uint8_t *log, char *reason, size_t n)
{
	(void)f;
	(void)after;
	if (!smart) {
		snprintf(reason, n, "no SMART");
		return -ENODATA;
	}
	return ata_sgio_selftest_log(path, 5000, log, reason, n);
}

/* The scan read the health log already (nvme_query_all): its copy. */
static int
inv_nvme_health(const struct dev_facts *f, const struct drive *d, bool after, struct nvme_health *out)
{
	(void)f;
	(void)after;
	memset(out, 0, sizeof *out);
	if (d->transport != TR_NVME) {
		snprintf(out->reason, sizeof out->reason, "not an NVMe drive");
		return -ENODATA;
	}
	*out = d->nvme.health;
	if (out->known)
		return 0;
	if (!out->reason[0])
		snprintf(out->reason, sizeof out->reason, "%s", d->nvme.reason[0] ? d->nvme.reason : "not read");
	return -EIO;
}

/* A SCSI drive's health read now: the log pages change while a test runs
 * (error counters, grown defects), so after a test they are read again;
 * before, the scan's copy stands. */
static int
inv_scsi_health(const struct dev_facts *f, const struct drive *d, bool after, struct scsi_health *out)
{
	(void)f;
	memset(out, 0, sizeof *out);
	if (d->transport != TR_SAS && d->transport != TR_SCSI) {
		snprintf(out->reason, sizeof out->reason, "not a SCSI drive");
		return -ENODATA;
	}
	if (after && d->scsi.known && !dev_spec_simulated(d->path, NULL)) {
		struct scsi_info now;
		memset(&now, 0, sizeof now);
		if (scsi_info_read(d->path, d->name, NULL, &now) == 0 && now.health.known) {
			*out = now.health;
			return 0;
		}
	}
	*out = d->scsi.health;
	if (out->known)
		return 0;
	if (!out->reason[0])
		snprintf(out->reason, sizeof out->reason, "%s", d->scsi.reason[0] ? d->scsi.reason : "not read");
	return -EIO;
}

const struct dev_source dev_source_inventory = {
	.name = "inventory",
	.drive = inv_drive,
	.selftest_log = inv_selftest_log,
	.nvme_health = inv_nvme_health,
	.scsi_health = inv_scsi_health,
	.selftest_start = inv_selftest_start,
	.selftest_poll = inv_selftest_poll,
	.selftest_abort = inv_selftest_abort,
};
