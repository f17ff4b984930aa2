/* sysfs.c - whole block devices from <sysfs_root>/block and every fact sysfs
 * knows about them.  A missing attribute is simply unknown; an attribute that
 * exists but cannot be read is unknown *and* one note in inv->notes. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "inventory/facts.h"
#include "inventory/sysfs.h"

struct scan {
	struct inventory *inv;
	const char *root;	/* sysfs root */
	const char *dev;	/* /dev root */
	const char *mounts;	/* mounts file */
	bool live;		/* the real /sys: open the /dev nodes too */
};

static void
note(struct scan *s, const char *fmt, const char *name, const char *what, int err)
{
	strlist_addf(&s->inv->notes, fmt, name, what, strerror(err));
	s->inv->incomplete = true;
}

/* Read attribute dir/rel.  Absent (ENOENT) is silent; anything else is a note. */
static int
attr_text(struct scan *s, const char *name, const char *dir, const char *rel,
	  char *buf, size_t n)
{
	char p[PATH_MAX];
	int rc = pathf(p, sizeof p, "%s/%s", dir, rel);
	if (rc == 0)
		rc = read_text(p, buf, n);
	if (rc < 0 && rc != -ENOENT && rc != -ENOTDIR)
		note(s, "%s: cannot read %s: %s", name, rel, -rc);
	return rc;
}

static bool
attr_exists(const char *dir, const char *rel)
{
	char p[PATH_MAX];
	return pathf(p, sizeof p, "%s/%s", dir, rel) == 0 && access(p, F_OK) == 0;
}

/* A number from sysfs (the facts' reader); zero_unknown: 0 means "not
 * reported" (optimal_io_size). */
static void
attr_u64(struct scan *s, const char *name, const char *dir, const char *rel,
	 struct known_u64 *out, bool zero_unknown)
{
	struct known_u64 v;
	int rc = sysfs_u64(dir, rel, &v);
	out->known = false;
	if (rc < 0 && rc != -ENOENT && rc != -ENOTDIR)
		note(s, "%s: cannot read %s: %s", name, rel, -rc);
	if (rc < 0 || (v.v == 0 && zero_unknown))
		return;
	KNOWN_SET(*out, v.v);
}

static bool
attr_flag(struct scan *s, const char *name, const char *dir, const char *rel)
{
	struct known_u64 v;
	attr_u64(s, name, dir, rel, &v, false);
	return v.known && v.v != 0;
}

/* Text attribute into a fixed field (trimmed); "" when unknown. */
static void
attr_str(struct scan *s, const char *name, const char *dir, const char *rel,
	 char *dst, size_t n)
{
	char buf[256];
	if (attr_text(s, name, dir, rel, buf, sizeof buf) < 0)
		buf[0] = '\0';
	strtrimcpy(dst, n, buf);
}

/* A world wide name from device/wwid or wwid.  Only NAA and EUI-64
 * designators are WWNs: "t10.ATA <model> <serial>" and "nvme.<vid>-..." are
 * vendor ids made up from model and serial.  The kernel answers EINVAL when
 * the device has no identifier at all: that is "no WWN", not a read error. */
static void
read_wwn(const char *dir, char *dst, size_t n)
{
	static const char *const rel[] = { "device/wwid", "wwid" };
	char p[PATH_MAX], buf[256];
	dst[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(rel); i++) {
		if (pathf(p, sizeof p, "%s/%s", dir, rel[i]) || read_text(p, buf, sizeof buf))
			continue;
		if (strncmp(buf, "naa.", 4) == 0 || strncmp(buf, "eui.", 4) == 0) {
			strtrimcpy(dst, n, buf);
			return;
		}
	}
}

/* Unit serial number VPD page (0x80), trimmed (the facts' reader). */
static void
read_vpd80(const char *dir, char *dst, size_t n)
{
	char text[260];
	sysfs_vpd80(dir, text, sizeof text);
	strtrimcpy(dst, n, text);
}

/* Block Device Characteristics VPD page (0xB1): bytes 4-5 the medium
 * rotation rate; 1 = non-rotating, 0x0401..0xFFFE rpm, 0 = not reported. */
static void
read_vpdb1(const char *dir, struct known_u64 *rpm)
{
	char p[PATH_MAX];
	unsigned char buf[64];
	if (pathf(p, sizeof p, "%s/device/vpd_pgb1", dir))
		return;
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t r = read(fd, buf, sizeof buf);
	close(fd);
	if (r < 6 || buf[1] != 0xb1)
		return;
	unsigned rate = (unsigned)buf[4] << 8 | buf[5];
	if (rate == 1)
		KNOWN_SET(*rpm, 0);
	else if (rate >= 0x0401 && rate <= 0xfffe)
		KNOWN_SET(*rpm, rate);
}

/* Hex digits of an NVMe namespace identifier (eui, nguid), lower case, no
 * separators; "" when absent or all zero (not assigned). */
static void
ns_ident(struct scan *s, const char *name, const char *dir, const char *rel, char *out, size_t n)
{
	char buf[128];
	size_t k = 0;
	bool nonzero = false;
	out[0] = '\0';
	if (attr_text(s, name, dir, rel, buf, sizeof buf) < 0)
		return;
	for (const char *c = buf; *c && k + 1 < n; c++)
		if (isxdigit((unsigned char)*c)) {
			out[k++] = (char)tolower((unsigned char)*c);
			nonzero |= *c != '0';
		}
	out[k] = '\0';
	if (!nonzero)
		out[0] = '\0';
}

/* The SATA link speed the kernel negotiated, for a drive on port ataN:
 * <...>/ataN/linkN/ata_link/linkN/sata_spd ("6.0 Gbps"; "<unknown>"). */
static void
read_sata_spd(struct scan *s, struct drive *d)
{
	const char *a = NULL;
	for (const char *p = strstr(d->syspath, "/ata"); p; p = strstr(p + 1, "/ata")) {
		const char *e = p + 4;
		if (!isdigit((unsigned char)*e))
			continue;
		while (isdigit((unsigned char)*e))
			e++;
		if (*e == '/') {
			a = p;
			break;
		}
	}
	if (!a)
		return;
	unsigned n = (unsigned)strtoul(a + 4, NULL, 10);
	char path[PATH_MAX], buf[32];
	double g;
	if ((pathf(path, sizeof path, "%.*s/link%u/ata_link/link%u/sata_spd", (int)(strchr(a + 1, '/') - d->syspath),
		   d->syspath, n, n) || read_text(path, buf, sizeof buf)) &&
	    (pathf(path, sizeof path, "%s/class/ata_link/link%u/sata_spd", s->root, n) ||
	     read_text(path, buf, sizeof buf)))
		return;
	if (sscanf(buf, "%lf Gbps", &g) == 1 && g > 0)
		KNOWN_SET(d->link_gbps, g);
}

enum kind { K_SKIP, K_DISK, K_LOOP, K_ZRAM };

static bool
prefixed(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static enum kind
classify(struct scan *s, const char *name, const char *dir)
{
	/* ram disks, device mapper, md and optical drives are not bench drives;
	 * dm and md show up as holders of the drives beneath them. */
	if (prefixed(name, "ram") || prefixed(name, "dm-") || prefixed(name, "sr") ||
	    (prefixed(name, "md") && (str_isdigits(name + 2) || name[2] == '_')))
		return K_SKIP;
	if (attr_exists(dir, "partition"))
		return K_SKIP;
	if (prefixed(name, "loop"))
		return attr_exists(dir, "loop/backing_file") ? K_LOOP : K_SKIP;
	if (prefixed(name, "zram")) {
		char p[PATH_MAX];
		uint64_t ds = 0;
		if (pathf(p, sizeof p, "%s/disksize", dir) == 0 && read_u64(p, &ds) == 0 && ds > 0)
			return K_ZRAM;
		return K_SKIP;
	}
	/* NVMe multipath path devices (nvme0c0n1) are hidden behind the head. */
	char hidden[8];
	if (attr_text(s, name, dir, "hidden", hidden, sizeof hidden) == 0 && strcmp(hidden, "1") == 0)
		return K_SKIP;
	if (prefixed(name, "mmcblk") && (strstr(name, "boot") || strstr(name, "rpmb")))
		return K_SKIP;
	if (prefixed(name, "sd") || prefixed(name, "nvme") || prefixed(name, "vd") ||
	    prefixed(name, "hd") || prefixed(name, "mmcblk") || prefixed(name, "xvd"))
		return K_DISK;
	/* Anything else (nbd, pmem, ...) only when it has media. */
	char p[PATH_MAX];
	uint64_t sz = 0;
	if (pathf(p, sizeof p, "%s/size", dir) == 0 && read_u64(p, &sz) == 0 && sz > 0)
		return K_DISK;
	return K_SKIP;
}

/* "/ata3/" style component: "/<word><digits>/" somewhere in path. */
static bool
has_component(const char *path, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
		const char *c = p + 1;
		if (strncmp(c, word, wl) != 0)
			continue;
		const char *e = c + wl;
		if (!isdigit((unsigned char)*e))
			continue;
		while (isdigit((unsigned char)*e))
			e++;
		if (*e == '/' || *e == '\0')
			return true;
	}
	return false;
}

/* SCSI host drivers of SAS HBAs that do not register SAS transport ports
 * (RAID-on-chip in JBOD/HBA mode): their end devices are SAS unless they
 * answer ATA. */
static const char *const sas_hba_drivers[] = {
	"megaraid_sas", "mpt3sas", "mpt2sas", "mptsas", "hpsa", "smartpqi",
	"aacraid", "pm80xx", "hisi_sas_v3_hw", "mvsas", "isci", "arcmsr",
};

int
sysfs_first_host(const char *syspath, size_t *prefix, const char **host, int *host_len)
{
	for (const char *p = strstr(syspath, "/host"); p; p = strstr(p + 1, "/host")) {
		const char *e = p + 5;
		if (!isdigit((unsigned char)*e))
			continue;
		while (isdigit((unsigned char)*e))
			e++;
		if (*e != '/')
			continue;
		*prefix = (size_t)(e - syspath);
		*host = p + 1;
		*host_len = (int)(e - p - 1);
		return 0;
	}
	return -ENOENT;
}

/* proc_name of the first hostN on the path: <...>/hostN/scsi_host/hostN/proc_name. */
static bool
behind_sas_hba(const char *syspath)
{
	char path[PATH_MAX], drv[64];
	size_t pl;
	const char *h;
	int hl;
	if (sysfs_first_host(syspath, &pl, &h, &hl) ||
	    pathf(path, sizeof path, "%.*s/scsi_host/%.*s/proc_name", (int)pl, syspath, hl, h) ||
	    read_text(path, drv, sizeof drv))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(sas_hba_drivers); i++)
		if (strcmp(drv, sas_hba_drivers[i]) == 0)
			return true;
	return false;
}

static enum ds_transport
decide_transport(const char *name, const char *dir, struct drive *d)
{
	const char *sp = d->syspath;
	bool ata_vendor = strcmp(d->vendor, "ATA") == 0;
	bool ata_vpd = attr_exists(dir, "device/vpd_pg89");	/* ATA information page */

	if (prefixed(name, "loop"))
		return TR_LOOP;
	if (prefixed(name, "zram"))
		return TR_ZRAM;
	if (strstr(sp, "/nvme/") || strstr(sp, "/nvme-subsystem/") || prefixed(name, "nvme"))
		return TR_NVME;
	/* USB first: a USB-SATA bridge is still a USB drive to the bench. */
	if (has_component(sp, "usb"))
		return TR_USB;
	/* SAS transport class: end devices hang off port-H:N (libsas or mpt*sas).
	 * A SATA drive there still answers ATA (VPD 0x89, vendor "ATA"). */
	if (strstr(sp, "/end_device-") || strstr(sp, "/port-"))
		return (ata_vpd || ata_vendor || has_component(sp, "ata")) ?
		       scsi_transport_said(d, TR_SATA, "sata", "SAS end device, ATA") :
		       scsi_transport_said(d, TR_SAS, "sas", "SAS end device");
	if (has_component(sp, "ata"))
		return scsi_transport_said(d, TR_SATA, "sata", "libata");
	if (has_component(sp, "virtio"))
		return TR_VIRTIO;
	if (strstr(sp, "/mmc_host/") || prefixed(name, "mmcblk"))
		return TR_MMC;
	if (prefixed(name, "hd") || has_component(sp, "ide"))
		return TR_IDE;
	if (strstr(sp, "/target") && has_component(sp, "host"))
		return scsi_host_transport(dir, d, ata_vpd, ata_vendor, behind_sas_hba(sp));
	return TR_UNKNOWN;
}

static int
cmp_version(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

static int
not_dot(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* Names in dir/rel (sorted naturally) appended to l unless already there. */
static void
list_dir(const char *dir, const char *rel, struct strlist *l)
{
	char p[PATH_MAX];
	struct dirent **ents;
	if (pathf(p, sizeof p, "%s/%s", dir, rel))
		return;
	int n = scandir(p, &ents, not_dot, cmp_version);
	if (n < 0)
		return;
	for (int i = 0; i < n; i++) {
		if (!strlist_has(l, ents[i]->d_name))
			strlist_add(l, ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
}

/* Partitions are subdirectories named NAME... that carry a "partition" file. */
static void
find_partitions(const char *name, const char *dir, struct strlist *parts)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, not_dot, cmp_version);
	if (n < 0)
		return;
	for (int i = 0; i < n; i++) {
		char rel[300];
		if (prefixed(ents[i]->d_name, name) &&
		    pathf(rel, sizeof rel, "%s/partition", ents[i]->d_name) == 0 &&
		    attr_exists(dir, rel))
			strlist_add(parts, ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
}

/* Stable name of a by-path link to this device ("pci-0000:00:1f.2-ata-3"). */
static void
find_by_path(const char *devroot, const char *name, char *out, size_t n)
{
	char p[PATH_MAX];
	struct dirent **ents;
	out[0] = '\0';
	if (pathf(p, sizeof p, "%s/disk/by-path", devroot))
		return;
	int cnt = scandir(p, &ents, not_dot, cmp_version);
	if (cnt < 0)
		return;
	for (int i = 0; i < cnt; i++) {
		char lp[PATH_MAX], tgt[PATH_MAX];
		if (!out[0] && pathf(lp, sizeof lp, "%s/%s", p, ents[i]->d_name) == 0) {
			ssize_t r = readlink(lp, tgt, sizeof tgt - 1);
			if (r > 0) {
				tgt[r] = '\0';
				const char *b = strrchr(tgt, '/');
				b = b ? b + 1 : tgt;
				if (strcmp(b, name) == 0)
					strtrimcpy(out, n, ents[i]->d_name);
			}
		}
		free(ents[i]);
	}
	free(ents);
}

/* Device-mapper name of holder dm-N ("vg-lv"), for /dev/mapper sources. */
static void
dm_name(struct scan *s, const char *holder, char *out, size_t n)
{
	char p[PATH_MAX];
	out[0] = '\0';
	if (pathf(p, sizeof p, "%s/block/%s/dm/name", s->root, holder) == 0)
		read_text(p, out, n);
}

/* Strip "/dev/" (or the dev root) from a mount source; NULL when neither. */
static const char *
dev_relative(struct scan *s, const char *src)
{
	size_t dl = strlen(s->dev);
	if (strncmp(src, "/dev/", 5) == 0)
		return src + 5;
	if (strncmp(src, s->dev, dl) == 0 && src[dl] == '/')
		return src + dl + 1;
	return NULL;
}

static void
find_mounts(struct scan *s, struct drive *d)
{
	FILE *f = fopen(s->mounts, "re");
	if (!f)
		return;		/* reported once by the caller */
	char line[4096];
	while (fgets(line, sizeof line, f)) {
		char src[1024], mnt[2048];
		if (sscanf(line, "%1023s %2047s", src, mnt) != 2)
			continue;
		mount_unescape(src);	/* /proc/mounts escapes as mountinfo does */
		mount_unescape(mnt);
		const char *rel = dev_relative(s, src);
		if (!rel)
			continue;
		bool mine = strcmp(rel, d->name) == 0 || strlist_has(&d->partitions, rel) ||
			    strlist_has(&d->holders, rel);
		for (size_t i = 0; !mine && i < d->holders.n; i++) {
			char dn[128];
			dm_name(s, d->holders.v[i], dn, sizeof dn);
			mine = dn[0] && strncmp(rel, "mapper/", 7) == 0 && strcmp(rel + 7, dn) == 0;
		}
		char entry[sizeof src + sizeof mnt + 2];
		snprintf(entry, sizeof entry, "%s %s", rel, mnt);
		if (mine && !strlist_has(&d->mounts, entry))
			strlist_add(&d->mounts, entry);
	}
	fclose(f);
}

/* NVMe native multipath puts the head disk under /sys/devices/virtual/nvme-subsystem;
 * the controller (and its PCI function) is on the path of the first path device. */
static void
nvme_path_device(const char *dir, char *syspath, size_t n)
{
	char p[PATH_MAX], real[PATH_MAX];
	struct dirent **ents;
	if (!strstr(syspath, "/nvme-subsystem/") || pathf(p, sizeof p, "%s/multipath", dir))
		return;
	int cnt = scandir(p, &ents, not_dot, cmp_version);
	if (cnt <= 0)
		return;
	char lp[PATH_MAX];
	if (pathf(lp, sizeof lp, "%s/%s", p, ents[0]->d_name) == 0 && realpath(lp, real))
		strtrimcpy(syspath, n, real);
	for (int i = 0; i < cnt; i++)
		free(ents[i]);
	free(ents);
}

static void
choose_id(struct scan *s, struct drive *d, const char *dir)
{
	char bp[128], ns[80], nsid[16];
	/* Namespaces of one NVMe controller share its serial: the namespace's
	 * own NGUID or EUI-64 names it, else serial and namespace id. */
	if (d->transport == TR_NVME) {
		ns_ident(s, d->name, dir, "nguid", ns, sizeof ns);
		if (ns[0]) {
			strtrimcpy(d->id, sizeof d->id, ns);
			strcpy(d->id_source, "nguid");
			return;
		}
		ns_ident(s, d->name, dir, "eui", ns, sizeof ns);
		if (ns[0]) {
			strtrimcpy(d->id, sizeof d->id, ns);
			strcpy(d->id_source, "eui");
			return;
		}
		if (d->serial[0] && attr_text(s, d->name, dir, "nsid", nsid, sizeof nsid) == 0 &&
		    str_isdigits(nsid) && nsid[0]) {
			snprintf(d->id, sizeof d->id, "%.100s-ns%s", d->serial, nsid);
			strcpy(d->id_source, "serial+nsid");
			return;
		}
	}
	if (d->serial[0]) {
		strtrimcpy(d->id, sizeof d->id, d->serial);
		strcpy(d->id_source, "serial");
	} else if (d->wwn[0]) {
		strtrimcpy(d->id, sizeof d->id, d->wwn);
		strcpy(d->id_source, "wwn");
	} else if (find_by_path(s->dev, d->name, bp, sizeof bp), bp[0]) {
		strtrimcpy(d->id, sizeof d->id, bp);
		strcpy(d->id_source, "by-path");
	} else {
		strtrimcpy(d->id, sizeof d->id, d->name);
		strcpy(d->id_source, "name");
	}
}

static void
check_access(struct scan *s, struct drive *d, const char *dir)
{
	if (!s->live)
		return;		/* a fixture tree has no matching /dev nodes */
	int fd = open(d->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		d->access = ACC_OK;
		return;
	}
	int err = errno;
	if (access(dir, F_OK) != 0)
		return;		/* gone: the caller says so */
	d->access = ACC_DENIED;
	d->access_errno = err;
	note(s, "%s: cannot open %s read-only: %s", d->name, d->path, err);
}

/* The queue's sector sizes, by the one reader of them (facts.h). */
static void
sector_sizes(struct scan *s, const char *name, const char *dir, struct drive *d)
{
	static const char *const rel[2] = { "queue/logical_block_size", "queue/physical_block_size" };
	struct known_u64 v[2];
	struct known_u64 *out[2] = { &d->logical, &d->physical };
	int rc[2];
	sysfs_sector_sizes(dir, &v[0], &v[1], rc);
	for (int i = 0; i < 2; i++) {
		out[i]->known = false;
		if (rc[i] < 0 && rc[i] != -ENOENT && rc[i] != -ENOTDIR)
			note(s, "%s: cannot read %s: %s", name, rel[i], -rc[i]);
		else if (v[i].known)
			KNOWN_SET(*out[i], v[i].v);
	}
}

static void
fill_drive(struct scan *s, struct drive *d, const char *name, const char *dir, enum kind k)
{
	struct known_u64 size;

	strtrimcpy(d->name, sizeof d->name, name);
	pathf(d->path, sizeof d->path, "%s/%s", s->dev, name);
	d->controller = -1;
	d->virtual_dev = (k == K_LOOP || k == K_ZRAM);

	char real[PATH_MAX];
	if (realpath(dir, real))
		strtrimcpy(d->syspath, sizeof d->syspath, real);
	nvme_path_device(dir, d->syspath, sizeof d->syspath);

	/* Identity.  SCSI/SATA: device/{model,vendor,rev,wwid}, serial in VPD 0x80;
	 * NVMe: device/{model,serial,firmware_rev}, wwid on the namespace; virtio
	 * has a serial on the disk itself; MMC: device/{name,serial,fwrev}. */
	attr_str(s, name, dir, "device/model", d->model, sizeof d->model);
	if (!d->model[0])
		attr_str(s, name, dir, "device/name", d->model, sizeof d->model);
	/* virtio-blk's "vendor" is a PCI id; a SCSI disk on virtio-scsi (under
	 * a SCSI target) has a real INQUIRY vendor */
	if (!has_component(d->syspath, "virtio") || strstr(d->syspath, "/target"))
		attr_str(s, name, dir, "device/vendor", d->vendor, sizeof d->vendor);
	attr_str(s, name, dir, "serial", d->serial, sizeof d->serial);
	if (!d->serial[0])
		attr_str(s, name, dir, "device/serial", d->serial, sizeof d->serial);
	if (!d->serial[0])
		read_vpd80(dir, d->serial, sizeof d->serial);
	attr_str(s, name, dir, "device/rev", d->firmware, sizeof d->firmware);
	if (!d->firmware[0])
		attr_str(s, name, dir, "device/firmware_rev", d->firmware, sizeof d->firmware);
	if (!d->firmware[0])
		attr_str(s, name, dir, "device/fwrev", d->firmware, sizeof d->firmware);
	read_wwn(dir, d->wwn, sizeof d->wwn);
	if (k == K_LOOP)
		attr_str(s, name, dir, "loop/backing_file", d->backing, sizeof d->backing);

	d->transport = decide_transport(name, dir, d);

	attr_u64(s, name, dir, "size", &size, false);
	if (size.known)
		KNOWN_SET(d->capacity_bytes, size.v * 512);	/* always 512-byte units */
	sector_sizes(s, name, dir, d);
	if (d->logical.known)
		strcpy(d->sector_source, "sysfs");
	attr_u64(s, name, dir, "queue/minimum_io_size", &d->min_io, false);
	attr_u64(s, name, dir, "queue/optimal_io_size", &d->opt_io, true);
	attr_u64(s, name, dir, "alignment_offset", &d->alignment_offset, false);
	attr_u64(s, name, dir, "queue/discard_granularity", &d->discard_granularity, false);
	attr_u64(s, name, dir, "queue/rotational", &d->rotational, false);
	attr_str(s, name, dir, "queue/zoned", d->zoned, sizeof d->zoned);
	attr_str(s, name, dir, "queue/write_cache", d->write_cache, sizeof d->write_cache);
	d->removable = attr_flag(s, name, dir, "removable");
	d->readonly = attr_flag(s, name, dir, "ro");

	find_partitions(name, dir, &d->partitions);
	list_dir(dir, "holders", &d->holders);
	for (size_t i = 0; i < d->partitions.n; i++) {
		char rel[300];
		if (pathf(rel, sizeof rel, "%s/holders", d->partitions.v[i]) == 0)
			list_dir(dir, rel, &d->holders);
	}
	find_mounts(s, d);
	choose_id(s, d, dir);
	read_vpdb1(dir, &d->rotation_rpm);
	if (d->transport == TR_SATA)
		read_sata_spd(s, d);

	/* Warnings only for what sysfs alone can tell. */
	if (k == K_LOOP && attr_exists(dir, "loop/dio")) {
		char dio[8];
		if (attr_text(s, name, dir, "loop/dio", dio, sizeof dio) == 0 && strcmp(dio, "0") == 0)
			strlist_add(&d->warnings,
				    "loop device without direct I/O: results include the host page cache");
	}
	if (d->alignment_offset.known && d->alignment_offset.v != 0)
		strlist_addf(&d->warnings, "logical sector 0 starts %llu bytes into a physical sector",
			     (unsigned long long)d->alignment_offset.v);

	check_access(s, d, dir);
	if (access(dir, F_OK) != 0) {	/* left while we read it */
		d->access = ACC_GONE;
		d->access_errno = 0;
		note(s, "%s: %s: %s", name, "vanished during enumeration", ENOENT);
	}
}

int
sysfs_scan_drives(struct inventory *inv, const struct inventory_opts *o)
{
	struct scan s = {
		.inv = inv,
		.root = o && o->sysfs_root ? o->sysfs_root : "/sys",
		.dev = o && o->dev_root ? o->dev_root : "/dev",
		.mounts = o && o->mounts_file ? o->mounts_file : "/proc/self/mounts",
	};
	s.live = strcmp(s.root, "/sys") == 0 || strcmp(s.root, "/sys/") == 0;

	char blk[PATH_MAX];
	struct stat st;
	if (stat(s.root, &st) != 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (pathf(blk, sizeof blk, "%s/block", s.root))
		return -ENAMETOOLONG;
	struct dirent **ents;
	int n = scandir(blk, &ents, not_dot, cmp_version);
	if (n < 0)
		return -errno;
	if (access(s.mounts, R_OK) != 0) {
		strlist_addf(&inv->notes, "mounts file %s: %s", s.mounts, strerror(errno));
		inv->incomplete = true;
	}

	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char dir[PATH_MAX], real[PATH_MAX];
		if (pathf(dir, sizeof dir, "%s/%s", blk, name) == 0) {
			/* A link whose target is gone: the device left mid-scan. */
			if (!realpath(dir, real)) {
				strlist_addf(&inv->notes, "%s: vanished during enumeration: %s",
					     name, strerror(errno));
				inv->incomplete = true;
			} else {
				enum kind k = classify(&s, name, dir);
				struct drive *d = k == K_SKIP ? NULL : inventory_add_drive(inv);
				if (k != K_SKIP && !d) {
					for (; i < n; i++)
						free(ents[i]);
					free(ents);
					return -ENOMEM;
				}
				if (d)
					fill_drive(&s, d, name, dir, k);
			}
		}
		free(ents[i]);
	}
	free(ents);
	return 0;
}
