/* test_sysfs_fixtures.c - the drive inventory over small sysfs trees built
 * here (real directories, files and symlinks laid out as the kernel does):
 * SATA behind AHCI, SATA and SAS behind a SAS HBA, a USB bridge, NVMe (plain
 * and native multipath), loop bound/unbound, zram, virtio, holders, mounts,
 * an unreadable attribute, a device that vanished, a missing root.
 * Never touches the live /sys, /dev or PCI bus. */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "inventory/inventory.h"
#include "inventory/sysfs.h"
#include "inventory/topology.h"

static char fx[64];	/* fixture top: fx/sys, fx/dev, fx/mounts */

/* fx/<rel>; a path that does not fit fails the test. */
static void
fxpath(char *out, const char *rel)
{
	if (snprintf(out, PATH_MAX, "%s/%s", fx, rel) >= PATH_MAX)
		fail_msg("fixture path too long: %s", rel);
}

static void
mkdirs(const char *path)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(tmp, 0755);
			*p = '/';
		}
	}
	mkdir(tmp, 0755);
}

/* fx/<rel> with contents (a newline is added, as sysfs does). */
static void
put(const char *rel, const char *text)
{
	char p[PATH_MAX], dir[PATH_MAX];
	fxpath(p, rel);
	snprintf(dir, sizeof dir, "%s", p);
	*strrchr(dir, '/') = '\0';
	mkdirs(dir);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static void
put_bin(const char *rel, const void *data, size_t len)
{
	char p[PATH_MAX];
	fxpath(p, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fwrite(data, 1, len, f);
	fclose(f);
}

static void
link_to(const char *rel, const char *target)
{
	char p[PATH_MAX], dir[PATH_MAX];
	fxpath(p, rel);
	snprintf(dir, sizeof dir, "%s", p);
	*strrchr(dir, '/') = '\0';
	mkdirs(dir);
	assert_int_equal(symlink(target, p), 0);
}

static void
mkdir_rel(const char *rel)
{
	char p[PATH_MAX];
	fxpath(p, rel);
	mkdirs(p);
}

/* The queue and top-level attributes every block device has. */
static void
disk_attrs(const char *dev, unsigned long long sectors, int lbs, int pbs, int rot,
	   const char *wc)
{
	char r[PATH_MAX], v[64];
#define A(rel, val) do { snprintf(r, sizeof r, "%s/%s", dev, rel); put(r, val); } while (0)
	snprintf(v, sizeof v, "%llu", sectors);
	A("size", v);
	snprintf(v, sizeof v, "%d", lbs);
	A("queue/logical_block_size", v);
	snprintf(v, sizeof v, "%d", pbs);
	A("queue/physical_block_size", v);
	A("queue/minimum_io_size", v);
	A("queue/optimal_io_size", "0");
	A("alignment_offset", "0");
	A("queue/discard_granularity", rot ? "0" : "512");
	A("queue/rotational", rot ? "1" : "0");
	A("queue/zoned", "none");
	A("queue/write_cache", wc);
	A("removable", "0");
	A("ro", "0");
	mkdirs((snprintf(r, sizeof r, "%s/%s/holders", fx, dev), r));
#undef A
}

/* SCSI device (the parent of block/NAME) with INQUIRY strings. */
static void
scsi_dev(const char *sdev, const char *vendor, const char *model, const char *rev)
{
	char r[PATH_MAX];
	snprintf(r, sizeof r, "%s/vendor", sdev);
	put(r, vendor);
	snprintf(r, sizeof r, "%s/model", sdev);
	put(r, model);
	snprintf(r, sizeof r, "%s/rev", sdev);
	put(r, rev);
}

static void
vpd80(const char *sdev, const char *serial)
{
	unsigned char b[64] = {0, 0x80, 0, (unsigned char)strlen(serial)};
	char r[PATH_MAX];
	memcpy(b + 4, serial, strlen(serial));
	snprintf(r, sizeof r, "%s/vpd_pg80", sdev);
	put_bin(r, b, 4 + strlen(serial));
}

static void
vpd89(const char *sdev)
{
	unsigned char b[16] = {0, 0x89, 0x02, 0x38};	/* header of the ATA information page */
	char r[PATH_MAX];
	snprintf(r, sizeof r, "%s/vpd_pg89", sdev);
	put_bin(r, b, sizeof b);
}

static void
partition(const char *dev, const char *part, int no)
{
	char r[PATH_MAX], v[16];
	snprintf(r, sizeof r, "%s/%s/partition", dev, part);
	snprintf(v, sizeof v, "%d", no);
	put(r, v);
	snprintf(r, sizeof r, "%s/%s/size", dev, part);
	put(r, "2048");
	snprintf(r, sizeof r, "%s/%s/holders", dev, part);
	mkdir_rel(r);
}

#define PCI "sys/devices/pci0000:00"
#define AHCI PCI "/0000:00:1f.2"
#define SDA AHCI "/ata3/host2/target2:0:0/2:0:0:0"
#define SDE AHCI "/ata10/host9/target9:0:0/9:0:0:0"
#define SDF AHCI "/ata2/host1/target1:0:0/1:0:0:0"
#define HBA PCI "/0000:00:03.0/0000:03:00.0/host0"
#define SDB HBA "/port-0:0/end_device-0:0/target0:0:0/0:0:0:0"
#define SDC HBA "/port-0:1/end_device-0:1/target0:0:1/0:0:1:0"
#define MEGA PCI "/0000:00:1c.0/0000:06:00.0/host5"
#define SDG MEGA "/target5:2:0/5:2:0:0"
#define SDH PCI "/0000:00:07.0/host3/target3:0:0/3:0:0:0"
#define SDD PCI "/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0"
#define NVME0 PCI "/0000:00:01.0/0000:01:00.0/nvme/nvme0"
#define NVME1 PCI "/0000:00:1d.0/0000:05:00.0/nvme/nvme1"
#define SUBSYS1 "sys/devices/virtual/nvme-subsystem/nvme-subsys1"
#define VIRT "sys/devices/virtual/block"
#define VIRTIO PCI "/0000:00:02.0/virtio1"

static void
build_fixture(void)
{
	/* SATA behind AHCI: sda (ata3), sde (ata10), sdf (ata2). */
	scsi_dev(SDA, "ATA     ", "WDC WD20EFRX-68E", "0A82");
	vpd80(SDA, "     WD-WCC4M1234567");
	vpd89(SDA);
	put(SDA "/wwid", "naa.50014ee2b5c6d7e8");
	disk_attrs(SDA "/block/sda", 3907029168ull, 512, 4096, 1, "write back");
	link_to(SDA "/block/sda/device", "../../../2:0:0:0");
	link_to("sys/block/sda", "../devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sda");
	partition(SDA "/block/sda", "sda1", 1);
	partition(SDA "/block/sda", "sda2", 2);
	link_to(SDA "/block/sda/sda2/holders/dm-0", "../../../../../../../../../../virtual/block/dm-0");

	scsi_dev(SDE, "ATA     ", "ST2000DM008-2FR1", "0001");
	vpd80(SDE, "ZFL1ABCD");
	vpd89(SDE);
	disk_attrs(SDE "/block/sde", 3907029168ull, 512, 4096, 1, "write back");
	link_to(SDE "/block/sde/device", "../../../9:0:0:0");
	link_to("sys/block/sde", "../devices/pci0000:00/0000:00:1f.2/ata10/host9/target9:0:0/9:0:0:0/block/sde");

	scsi_dev(SDF, "ATA     ", "Samsung SSD 860", "RVT04B6Q");
	vpd80(SDF, "S3Z9NB0K123456A");
	vpd89(SDF);
	disk_attrs(SDF "/block/sdf", 976773168ull, 512, 512, 0, "write back");
	link_to(SDF "/block/sdf/device", "../../../1:0:0:0");
	link_to("sys/block/sdf", "../devices/pci0000:00/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0/block/sdf");

	/* SAS HBA at 03:00.0: a SATA drive on phy 0 (no serial page: WWN is the
	 * id) and a 4Kn SAS drive on phy 1. */
	mkdir_rel(HBA "/phy-0:0");
	mkdir_rel(HBA "/phy-0:1");
	link_to(HBA "/port-0:0/phy-0:0", "../phy-0:0");
	link_to(HBA "/port-0:1/phy-0:1", "../phy-0:1");
	scsi_dev(SDB, "ATA     ", "WDC WD40EFAX-68J", "0A82");
	vpd89(SDB);
	put(SDB "/wwid", "naa.50014ee2bbbbbbbb");
	disk_attrs(SDB "/block/sdb", 7814037168ull, 512, 4096, 1, "write back");
	link_to(SDB "/block/sdb/device", "../../../0:0:0:0");
	link_to("sys/block/sdb", "../devices/pci0000:00/0000:00:03.0/0000:03:00.0/host0/port-0:0/end_device-0:0/target0:0:0/0:0:0:0/block/sdb");

	scsi_dev(SDC, "SEAGATE ", "ST4000NM0023", "0004");
	vpd80(SDC, "Z1Z0SASX");
	disk_attrs(SDC "/block/sdc", 976754646ull, 4096, 4096, 1, "write through");
	link_to(SDC "/block/sdc/device", "../../../0:0:1:0");
	link_to("sys/block/sdc", "../devices/pci0000:00/0000:00:03.0/0000:03:00.0/host0/port-0:1/end_device-0:1/target0:0:1/0:0:1:0/block/sdc");

	/* RAID-on-chip HBA without SAS transport ports (megaraid_sas): a 4Kn
	 * SCSI disk is SAS; a SATA disk beside it answers ATA.  And a plain
	 * SCSI disk on some other host driver stays "scsi". */
	put(MEGA "/scsi_host/host5/proc_name", "megaraid_sas");
	scsi_dev(SDG, "QEMU    ", "QEMU HARDDISK", "2.5+");
	vpd80(SDG, "MEGA4KN");
	disk_attrs(SDG "/block/sdg", 262144ull, 4096, 4096, 1, "write through");
	link_to(SDG "/block/sdg/device", "../../../5:2:0:0");
	link_to("sys/block/sdg", "../devices/pci0000:00/0000:00:1c.0/0000:06:00.0/host5/target5:2:0/5:2:0:0/block/sdg");
	put(PCI "/0000:00:07.0/host3/scsi_host/host3/proc_name", "scsi_debug");
	scsi_dev(SDH, "Linux   ", "scsi_debug", "0191");
	disk_attrs(SDH "/block/sdh", 16384ull, 512, 512, 0, "write through");
	link_to(SDH "/block/sdh/device", "../../../3:0:0:0");
	link_to("sys/block/sdh", "../devices/pci0000:00/0000:00:07.0/host3/target3:0:0/3:0:0:0/block/sdh");

	/* USB-SATA bridge: passes VPD 0x89, but it is a USB drive; no serial and
	 * no WWN, so the by-path link names it. */
	scsi_dev(SDD, "ASMT    ", "2115", "0");
	vpd89(SDD);
	disk_attrs(SDD "/block/sdd", 1953525168ull, 512, 512, 1, "write back");
	link_to(SDD "/block/sdd/device", "../../../6:0:0:0");
	put(SDD "/wwid", "t10.ATA     WDC WD20EFRX-68EUZN0 WD-WCC4M1234567");	/* not a WWN */
	link_to("sys/block/sdd", "../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdd");
	link_to("dev/disk/by-path/pci-0000:00:14.0-usb-0:1:1.0-scsi-0:0:0:0", "../../sdd");
	link_to("dev/disk/by-path/pci-0000:00:14.0-usb-0:1:1.0-scsi-0:0:0:0-part1", "../../sdd1");

	/* NVMe on a root port; garbage in one attribute. */
	put(NVME0 "/model", "Samsung SSD 980 PRO 1TB");
	put(NVME0 "/serial", "S5GXNF0R123456      ");
	put(NVME0 "/firmware_rev", "5B2QGXA7");
	disk_attrs(NVME0 "/nvme0n1", 1953525168ull, 512, 512, 0, "write back");
	put(NVME0 "/nvme0n1/wwid", "eui.002538b111111111");
	put(NVME0 "/nvme0n1/queue/discard_granularity", "garbage");
	link_to(NVME0 "/nvme0n1/device", "../../nvme0");
	link_to("sys/block/nvme0n1", "../devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0/nvme0n1");

	/* NVMe with native multipath: the head disk lives in the subsystem, its
	 * path device (hidden) under the controller. */
	put(SUBSYS1 "/model", "KIOXIA KCD6XLUL1T92");
	put(SUBSYS1 "/serial", "X1N0A0ZZ0ZZZ");
	put(SUBSYS1 "/firmware_rev", "GPK6");
	disk_attrs(SUBSYS1 "/nvme1n1", 3750748848ull, 512, 512, 0, "write through");
	link_to(SUBSYS1 "/nvme1n1/device", "../../nvme-subsys1");
	link_to(SUBSYS1 "/nvme1n1/multipath/nvme1c1n1",
		"../../../../../pci0000:00/0000:00:1d.0/0000:05:00.0/nvme/nvme1/nvme1c1n1");
	disk_attrs(NVME1 "/nvme1c1n1", 3750748848ull, 512, 512, 0, "write through");
	put(NVME1 "/nvme1c1n1/hidden", "1");
	link_to("sys/block/nvme1n1", "../devices/virtual/nvme-subsystem/nvme-subsys1/nvme1n1");
	link_to("sys/block/nvme1c1n1", "../devices/pci0000:00/0000:00:1d.0/0000:05:00.0/nvme/nvme1/nvme1c1n1");

	/* virtio: serial on the disk, a PCI vendor id that is not a vendor name,
	 * and an attribute that cannot be read (a directory where a file was). */
	put(VIRTIO "/vendor", "0x1af4");
	disk_attrs(VIRTIO "/block/vda", 536870912ull, 512, 4096, 1, "write back");
	put(VIRTIO "/block/vda/serial", "overlayblk");
	char p[PATH_MAX];
	fxpath(p, VIRTIO "/block/vda/queue/rotational");
	unlink(p);
	mkdir_rel(VIRTIO "/block/vda/queue/rotational");
	link_to(VIRTIO "/block/vda/device", "../../../virtio1");
	link_to("sys/block/vda", "../devices/pci0000:00/0000:00:02.0/virtio1/block/vda");

	/* loop: bound with direct I/O and 4K sectors, bound without dio, unbound. */
	disk_attrs(VIRT "/loop0", 2048, 4096, 4096, 0, "write through");
	put(VIRT "/loop0/loop/backing_file", "/var/tmp/img0");
	put(VIRT "/loop0/loop/dio", "1");
	disk_attrs(VIRT "/loop1", 0, 512, 512, 0, "write through");
	disk_attrs(VIRT "/loop2", 4096, 512, 512, 0, "write through");
	put(VIRT "/loop2/loop/backing_file", "/var/tmp/img2 (deleted)");
	put(VIRT "/loop2/loop/dio", "0");
	link_to("sys/block/loop0", "../devices/virtual/block/loop0");
	link_to("sys/block/loop1", "../devices/virtual/block/loop1");
	link_to("sys/block/loop2", "../devices/virtual/block/loop2");

	/* zram: zram0 unset (disksize 0), zram1 sized. */
	disk_attrs(VIRT "/zram0", 0, 4096, 4096, 0, "write through");
	put(VIRT "/zram0/disksize", "0");
	disk_attrs(VIRT "/zram1", 2097152, 4096, 4096, 0, "write through");
	put(VIRT "/zram1/disksize", "1073741824");
	link_to("sys/block/zram0", "../devices/virtual/block/zram0");
	link_to("sys/block/zram1", "../devices/virtual/block/zram1");

	/* Not drives: ram disk, device mapper, md, optical. */
	disk_attrs(VIRT "/ram0", 8192, 512, 4096, 0, "write through");
	disk_attrs(VIRT "/dm-0", 2048, 512, 4096, 1, "write back");
	put(VIRT "/dm-0/dm/name", "vg-data");
	link_to(VIRT "/dm-0/slaves/sda2", "../../../../pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sda/sda2");
	disk_attrs(VIRT "/md0", 4096, 512, 4096, 1, "write back");
	disk_attrs(AHCI "/ata5/host4/target4:0:0/4:0:0:0/block/sr0", 0, 2048, 2048, 1, "write through");
	link_to("sys/block/ram0", "../devices/virtual/block/ram0");
	link_to("sys/block/dm-0", "../devices/virtual/block/dm-0");
	link_to("sys/block/md0", "../devices/virtual/block/md0");
	link_to("sys/block/sr0", "../devices/pci0000:00/0000:00:1f.2/ata5/host4/target4:0:0/4:0:0:0/block/sr0");

	/* A device that left between readdir and realpath. */
	link_to("sys/block/sdz", "../devices/pci0000:00/0000:00:1f.2/ata9/host8/target8:0:0/8:0:0:0/block/sdz");

	put("mounts",
	    "/dev/vda / ext4 rw,relatime 0 0\n"
	    "proc /proc proc rw 0 0\n"
	    "/dev/sda1 /boot ext4 rw 0 0\n"
	    "/dev/sdab1 /not/sda vfat rw 0 0\n"
	    "/dev/mapper/vg-data /srv/my\\040data xfs rw 0 0\n"
	    "/dev/nvme0n1 /mnt/fast ext4 rw 0 0");
}

static int
rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	return remove(p);
}

static int
group_setup(void **state)
{
	snprintf(fx, sizeof fx, "/tmp/ds-sysfs-XXXXXX");
	if (!mkdtemp(fx))
		return -1;
	build_fixture();
	return 0;
}

static int
group_teardown(void **state)
{
	return nftw(fx, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

struct scanned {
	struct inventory inv;
	int rc;
};

static void
scan(struct scanned *s, const char *mounts)
{
	static char sys[PATH_MAX], dev[PATH_MAX], mnt[PATH_MAX];
	struct inventory_opts o;
	inventory_opts_default(&o);
	snprintf(sys, sizeof sys, "%s/sys", fx);
	snprintf(dev, sizeof dev, "%s/dev", fx);
	snprintf(mnt, sizeof mnt, "%s/%s", fx, mounts);
	o.sysfs_root = sys;
	o.dev_root = dev;
	o.mounts_file = mnt;
	o.no_ata = true;
	memset(&s->inv, 0, sizeof s->inv);
	s->rc = sysfs_scan_drives(&s->inv, &o);
}

static struct drive *
must_find(struct inventory *inv, const char *name)
{
	struct drive *d = inventory_find_drive(inv, name);
	if (!d)
		fail_msg("drive %s missing from the inventory", name);
	return d;
}

static bool
has_note(const struct inventory *inv, const char *a, const char *b)
{
	for (size_t i = 0; i < inv->notes.n; i++)
		if (strstr(inv->notes.v[i], a) && strstr(inv->notes.v[i], b))
			return true;
	return false;
}

/* Which drives are there, and which are not. */
static void
test_enumeration(void **state)
{
	struct scanned s;
	scan(&s, "mounts");
	assert_int_equal(s.rc, 0);
	const char *want[] = {"loop0", "loop2", "nvme0n1", "nvme1n1", "sda", "sdb", "sdc",
			      "sdd", "sde", "sdf", "sdg", "sdh", "vda", "zram1"};
	const char *never[] = {"loop1", "zram0", "ram0", "dm-0", "md0", "sr0", "sda1",
			       "sda2", "sdz", "nvme1c1n1"};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		must_find(&s.inv, want[i]);
	for (size_t i = 0; i < ARRAY_SIZE(never); i++)
		if (inventory_find_drive(&s.inv, never[i]))
			fail_msg("%s must not be listed as a drive", never[i]);
	assert_int_equal(s.inv.n_drv, ARRAY_SIZE(want));
	/* Natural order, as the kernel names them. */
	assert_string_equal(s.inv.drv[0].name, "loop0");
	/* The vanished device is a note, not a crash and not a drive. */
	assert_true(has_note(&s.inv, "sdz", "vanished"));
	/* A fixture never gets its /dev nodes opened. */
	for (size_t i = 0; i < s.inv.n_drv; i++)
		assert_int_equal(s.inv.drv[i].access, ACC_UNCHECKED);
	inventory_free(&s.inv);
}

static void
test_sata_ahci(void **state)
{
	struct scanned s;
	scan(&s, "mounts");
	struct drive *d = must_find(&s.inv, "/dev/sda");
	assert_int_equal(d->transport, TR_SATA);
	assert_string_equal(transport_name(d->transport), "sata");
	assert_false(d->virtual_dev);
	assert_string_equal(d->model, "WDC WD20EFRX-68E");
	assert_string_equal(d->vendor, "ATA");
	assert_string_equal(d->serial, "WD-WCC4M1234567");
	assert_string_equal(d->firmware, "0A82");
	assert_string_equal(d->wwn, "naa.50014ee2b5c6d7e8");
	assert_string_equal(d->id, "WD-WCC4M1234567");
	assert_string_equal(d->id_source, "serial");
	assert_true(d->capacity_bytes.known);
	assert_int_equal(d->capacity_bytes.v, 3907029168ull * 512);
	assert_true(d->logical.known && d->physical.known);
	assert_int_equal(d->logical.v, 512);
	assert_int_equal(d->physical.v, 4096);
	assert_string_equal(d->sector_source, "sysfs");
	assert_int_equal(d->min_io.v, 4096);
	assert_false(d->opt_io.known);		/* 0 = not reported, never "0 bytes" */
	assert_true(d->alignment_offset.known);
	assert_int_equal(d->alignment_offset.v, 0);
	assert_true(d->rotational.known);
	assert_int_equal(d->rotational.v, 1);
	assert_string_equal(d->zoned, "none");
	assert_string_equal(d->write_cache, "write back");
	assert_false(d->removable);
	assert_false(d->readonly);
	assert_int_equal(d->partitions.n, 2);
	assert_string_equal(d->partitions.v[0], "sda1");
	assert_string_equal(d->partitions.v[1], "sda2");
	/* dm-0 holds sda2, so it holds sda. */
	assert_int_equal(d->holders.n, 1);
	assert_string_equal(d->holders.v[0], "dm-0");
	/* sda1 directly, the dm device through /dev/mapper; not sdab1. */
	assert_int_equal(d->mounts.n, 2);
	assert_true(strlist_has(&d->mounts, "sda1 /boot"));
	assert_true(strlist_has(&d->mounts, "mapper/vg-data /srv/my data"));
	assert_string_equal(d->syspath + strlen(d->syspath) - strlen("/block/sda"), "/block/sda");
	assert_int_equal(d->warnings.n, 0);
	inventory_free(&s.inv);
}

static void
test_sas_hba(void **state)
{
	struct scanned s;
	scan(&s, "mounts");
	struct drive *b = must_find(&s.inv, "sdb"), *c = must_find(&s.inv, "sdc");
	/* SATA behind the SAS HBA is still SATA (ATA information VPD page). */
	assert_int_equal(b->transport, TR_SATA);
	assert_string_equal(b->serial, "");
	assert_string_equal(b->id, "naa.50014ee2bbbbbbbb");
	assert_string_equal(b->id_source, "wwn");
	assert_int_equal(c->transport, TR_SAS);
	assert_string_equal(c->vendor, "SEAGATE");
	assert_string_equal(c->model, "ST4000NM0023");
	assert_string_equal(c->firmware, "0004");
	assert_int_equal(c->logical.v, 4096);
	assert_int_equal(c->physical.v, 4096);
	assert_int_equal(c->capacity_bytes.v, 976754646ull * 512);
	assert_string_equal(c->write_cache, "write through");
	assert_int_equal(c->partitions.n, 0);
	struct drive *g = must_find(&s.inv, "sdg"), *h = must_find(&s.inv, "sdh");
	assert_int_equal(g->transport, TR_SAS);		/* by the HBA's driver */
	assert_int_equal(g->logical.v, 4096);
	assert_int_equal(h->transport, TR_SCSI);
	assert_int_equal(c->holders.n, 0);
	assert_int_equal(c->mounts.n, 0);
	inventory_free(&s.inv);
}

static void
test_usb_nvme_virtio(void **state)
{
	struct scanned s;
	scan(&s, "mounts");
	struct drive *u = must_find(&s.inv, "sdd");
	assert_int_equal(u->transport, TR_USB);	/* not "sata", though it speaks ATA */
	assert_string_equal(u->id_source, "by-path");
	assert_string_equal(u->id, "pci-0000:00:14.0-usb-0:1:1.0-scsi-0:0:0:0");
	assert_string_equal(u->wwn, "");	/* a t10 vendor id is no world wide name */

	struct drive *n = must_find(&s.inv, "nvme0n1");
	assert_int_equal(n->transport, TR_NVME);
	assert_string_equal(n->model, "Samsung SSD 980 PRO 1TB");
	assert_string_equal(n->serial, "S5GXNF0R123456");
	assert_string_equal(n->firmware, "5B2QGXA7");
	assert_string_equal(n->wwn, "eui.002538b111111111");
	assert_int_equal(n->rotational.v, 0);
	assert_true(strlist_has(&n->mounts, "nvme0n1 /mnt/fast"));
	/* "garbage" in a number: unknown plus one note, not 0. */
	assert_false(n->discard_granularity.known);
	assert_true(has_note(&s.inv, "nvme0n1", "queue/discard_granularity"));

	struct drive *m = must_find(&s.inv, "nvme1n1");
	assert_int_equal(m->transport, TR_NVME);
	assert_string_equal(m->model, "KIOXIA KCD6XLUL1T92");
	assert_string_equal(m->firmware, "GPK6");
	assert_non_null(strstr(m->syspath, "/0000:05:00.0/nvme/nvme1/"));

	struct drive *v = must_find(&s.inv, "vda");
	assert_int_equal(v->transport, TR_VIRTIO);
	assert_string_equal(v->vendor, "");		/* 0x1af4 is an id, not a vendor name */
	assert_string_equal(v->serial, "overlayblk");
	assert_string_equal(v->id_source, "serial");
	assert_true(strlist_has(&v->mounts, "vda /"));
	/* The unreadable attribute: unknown, one note naming device and file. */
	assert_false(v->rotational.known);
	assert_true(has_note(&s.inv, "vda", "queue/rotational"));
	assert_true(v->logical.known);		/* the rest still read */
	assert_true(s.inv.incomplete);
	inventory_free(&s.inv);
}

static void
test_loop_zram(void **state)
{
	struct scanned s;
	scan(&s, "mounts");
	struct drive *l0 = must_find(&s.inv, "loop0"), *l2 = must_find(&s.inv, "loop2");
	struct drive *z = must_find(&s.inv, "zram1");
	assert_true(l0->virtual_dev);
	assert_int_equal(l0->transport, TR_LOOP);
	assert_string_equal(l0->backing, "/var/tmp/img0");
	assert_int_equal(l0->logical.v, 4096);
	assert_string_equal(l0->id_source, "name");
	assert_string_equal(l0->id, "loop0");
	assert_int_equal(l0->warnings.n, 0);
	/* Without direct I/O a loop device measures the page cache. */
	assert_int_equal(l2->warnings.n, 1);
	assert_non_null(strstr(l2->warnings.v[0], "direct I/O"));
	assert_true(z->virtual_dev);
	assert_int_equal(z->transport, TR_ZRAM);
	assert_int_equal(z->capacity_bytes.v, 2097152ull * 512);
	inventory_free(&s.inv);
}

static void
test_topology_pure(void **state)
{
	char a[16], port[48];
	assert_int_equal(topology_pci_address("/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/"
					      "0000:02:01.0/0000:03:00.0/nvme/nvme2/nvme2n1", a, sizeof a), 0);
	assert_string_equal(a, "0000:03:00.0");
	assert_int_equal(topology_pci_address("/sys/devices/virtual/block/loop0", a, sizeof a), -ENOENT);
	/* pci0000:00 is the root bus, not a function */
	assert_int_equal(topology_pci_address("/sys/devices/pci0000:00/foo", a, sizeof a), -ENOENT);

	topology_port("/sys/devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sda",
		      port, sizeof port);
	assert_string_equal(port, "ata3");
	topology_port("/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1.3/2-1.3:1.0/host6/target6:0:0/"
		      "6:0:0:0/block/sdd", port, sizeof port);
	assert_string_equal(port, "usb2-1.3");
	topology_port("/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0/nvme0n1",
		      port, sizeof port);
	assert_string_equal(port, "nvme0");
	topology_port("/sys/devices/pci0000:00/0000:00:07.0/host3/target3:2:0/3:2:0:0/block/sdk",
		      port, sizeof port);
	assert_string_equal(port, "host3");
	topology_port("/sys/devices/virtual/block/loop0", port, sizeof port);
	assert_string_equal(port, "");
	/* a SAS port that does not exist on disk keeps the port name */
	topology_port("/nonexistent/0000:03:00.0/host0/port-0:7/end_device-0:7/target0:0:7/0:0:7:0/block/sdq",
		      port, sizeof port);
	assert_string_equal(port, "port-0:7");
}

static void
add_ctrl(struct inventory *inv, const char *id, const char *addr)
{
	struct controller *c = inventory_add_controller(inv);
	assert_non_null(c);
	snprintf(c->id, sizeof c->id, "%s", id);
	snprintf(c->address, sizeof c->address, "%s", addr);
}

static void
test_topology_link(void **state)
{
	struct scanned s;
	scan(&s, "mounts");
	/* What pci.c would have found: no USB or virtio function among them. */
	add_ctrl(&s.inv, "ctrl0", "0000:00:1f.2");
	add_ctrl(&s.inv, "ctrl1", "0000:01:00.0");
	add_ctrl(&s.inv, "ctrl2", "0000:03:00.0");
	add_ctrl(&s.inv, "ctrl3", "0000:05:00.0");
	assert_int_equal(topology_link(&s.inv), 0);

	struct drive *a = must_find(&s.inv, "sda");
	assert_int_equal(a->controller, 0);
	assert_string_equal(a->port, "ata3");
	/* ordered by port: ata2, ata3, ata10 */
	struct strlist *l = &s.inv.ctrl[0].drives;
	assert_int_equal(l->n, 3);
	assert_string_equal(l->v[0], "sdf");
	assert_string_equal(l->v[1], "sda");
	assert_string_equal(l->v[2], "sde");

	struct drive *b = must_find(&s.inv, "sdb"), *c = must_find(&s.inv, "sdc");
	assert_int_equal(b->controller, 2);
	assert_int_equal(c->controller, 2);
	assert_string_equal(b->port, "phy-0:0");
	assert_string_equal(c->port, "phy-0:1");
	l = &s.inv.ctrl[2].drives;
	assert_int_equal(l->n, 2);
	assert_string_equal(l->v[0], "sdb");
	assert_string_equal(l->v[1], "sdc");

	struct drive *n = must_find(&s.inv, "nvme0n1");
	assert_int_equal(n->controller, 1);
	assert_string_equal(n->port, "nvme0");
	struct drive *m = must_find(&s.inv, "nvme1n1");	/* through its multipath path */
	assert_int_equal(m->controller, 3);
	assert_string_equal(m->port, "nvme1");

	/* No controller found for these: -1, but the port stays. */
	struct drive *u = must_find(&s.inv, "sdd");
	assert_int_equal(u->controller, -1);
	assert_string_equal(u->port, "usb2-1");
	assert_int_equal(must_find(&s.inv, "vda")->controller, -1);
	assert_int_equal(must_find(&s.inv, "loop0")->controller, -1);
	assert_string_equal(must_find(&s.inv, "loop0")->port, "");

	/* Relinking does not duplicate the lists. */
	assert_int_equal(topology_link(&s.inv), 0);
	assert_int_equal(s.inv.ctrl[0].drives.n, 3);

	/* Lookups a user types. */
	assert_int_equal(inventory_find_controller(&s.inv, "ctrl:2"), 2);
	assert_int_equal(inventory_find_controller(&s.inv, "ctrl2"), 2);
	assert_int_equal(inventory_find_controller(&s.inv, "ctrl:0000:03:00.0"), 2);
	assert_int_equal(inventory_find_controller(&s.inv, "0000:03:00.0"), 2);
	assert_int_equal(inventory_find_controller(&s.inv, "03:00.0"), 2);
	assert_int_equal(inventory_find_controller(&s.inv, "ctrl:9"), -1);
	assert_int_equal(inventory_find_controller(&s.inv, "0000:09:00.0"), -1);
	inventory_free(&s.inv);
}

static void
test_missing_inputs(void **state)
{
	struct inventory inv = {0};
	struct inventory_opts o;
	inventory_opts_default(&o);
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/no-such-root", fx);
	o.sysfs_root = p;
	o.no_ata = true;
	assert_int_equal(sysfs_scan_drives(&inv, &o), -ENOENT);
	assert_int_equal(inv.n_drv, 0);
	/* inventory_scan says which root, and gives up before the PCI bus. */
	assert_int_equal(inventory_scan(&inv, &o), -ENOENT);
	assert_true(has_note(&inv, "no-such-root", "No such file or directory"));
	inventory_free(&inv);

	/* No mounts file: drives still listed, mounts unknown, one note. */
	struct scanned s;
	scan(&s, "no-mounts-here");
	assert_int_equal(s.rc, 0);
	assert_non_null(inventory_find_drive(&s.inv, "sda"));
	assert_int_equal(must_find(&s.inv, "sda")->mounts.n, 0);
	assert_true(has_note(&s.inv, "no-mounts-here", "No such file"));
	inventory_free(&s.inv);

	assert_string_equal(transport_name(TR_SAS), "sas");
	assert_string_equal(transport_name(TR_LOOP), "loop");
	assert_string_equal(transport_name((enum ds_transport)99), "unknown");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enumeration),
		cmocka_unit_test(test_sata_ahci),
		cmocka_unit_test(test_sas_hba),
		cmocka_unit_test(test_usb_nvme_virtio),
		cmocka_unit_test(test_loop_zram),
		cmocka_unit_test(test_topology_pure),
		cmocka_unit_test(test_topology_link),
		cmocka_unit_test(test_missing_inputs),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
