/* test_sysfs_emulated.c - what a QEMU rig configured by someone else showed
 * the inventory getting wrong, as sysfs trees: three namespaces of one NVMe
 * controller (NGUID, EUI-64, neither) get three ids; a SCSI disk on
 * virtio-scsi keeps its vendor (virtio-blk's PCI id is still dropped); SCSI
 * rotation comes from VPD page B1 (15000 rpm; 1 = SSD); a SATA drive's link
 * speed comes from the kernel's ata_link when IDENTIFY has none. */
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

static char fx[64];

static void
mkdirs(const char *path)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s", path);
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(tmp, 0755);
			*p = '/';
		}
	mkdir(tmp, 0755);
}

static void
put_n(const char *rel, const void *data, size_t len)
{
	char p[PATH_MAX], dir[PATH_MAX];
	snprintf(p, sizeof p, "%s/%s", fx, rel);
	snprintf(dir, sizeof dir, "%s", p);
	*strrchr(dir, '/') = '\0';
	mkdirs(dir);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fwrite(data, 1, len, f);
	fclose(f);
}

static void
put(const char *rel, const char *text)
{
	char b[512];
	int n = snprintf(b, sizeof b, "%s\n", text);
	put_n(rel, b, (size_t)n);
}

static void
link_to(const char *rel, const char *target)
{
	char p[PATH_MAX], dir[PATH_MAX];
	snprintf(p, sizeof p, "%s/%s", fx, rel);
	snprintf(dir, sizeof dir, "%s", p);
	*strrchr(dir, '/') = '\0';
	mkdirs(dir);
	assert_int_equal(symlink(target, p), 0);
}

/* A disk at sys/devices/<devpath> named NAME, linked from sys/block/NAME. */
static void
disk(const char *devpath, const char *name, int rot)
{
	char r[PATH_MAX], l[PATH_MAX];
	snprintf(r, sizeof r, "sys/devices/%s/size", devpath);
	put(r, "2097152");
	snprintf(r, sizeof r, "sys/devices/%s/queue/logical_block_size", devpath);
	put(r, "512");
	snprintf(r, sizeof r, "sys/devices/%s/queue/rotational", devpath);
	put(r, rot ? "1" : "0");
	snprintf(r, sizeof r, "sys/block/%s", name);
	snprintf(l, sizeof l, "../devices/%s", devpath);
	link_to(r, l);
}

static void
vpd_b1(const char *scsidev, unsigned rate)
{
	unsigned char pg[64] = { 0, 0xb1, 0, 0x3c, (unsigned char)(rate >> 8), (unsigned char)rate };
	char r[PATH_MAX];
	snprintf(r, sizeof r, "sys/devices/%s/vpd_pgb1", scsidev);
	put_n(r, pg, sizeof pg);
}

#define NV "pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0"
#define VS "pci0000:00/0000:00:04.0/virtio2/host0/target0:0:0/0:0:0:0"
#define VS2 "pci0000:00/0000:00:04.0/virtio2/host0/target0:0:1/0:0:1:0"
#define LSI "pci0000:00/0000:00:05.0/host1/target1:0:0/1:0:0:0"
#define VB "pci0000:00/0000:00:06.0/virtio3"
#define AHCI "pci0000:00/0000:00:1f.2"

static void
build(void)
{
	/* one NVMe controller, three namespaces */
	put("sys/devices/" NV "/serial", "NVME0SERIAL");
	put("sys/devices/" NV "/model", "QEMU NVMe Ctrl");
	const char *ns[] = { "nvme0n1", "nvme0n2", "nvme0n3" };
	for (int i = 0; i < 3; i++) {
		char dp[256], r[300], v[8];
		snprintf(dp, sizeof dp, NV "/%s", ns[i]);
		disk(dp, ns[i], 0);
		snprintf(r, sizeof r, "sys/devices/%s/device", dp);
		link_to(r, "../../nvme0");
		snprintf(r, sizeof r, "sys/devices/%s/nsid", dp);
		snprintf(v, sizeof v, "%d", i + 1);
		put(r, v);
		snprintf(r, sizeof r, "sys/devices/%s/nguid", dp);
		put(r, i == 0 ? "5b1a2c3d-0000-4000-8000-00000000beef" : "00000000-0000-0000-0000-000000000000");
		snprintf(r, sizeof r, "sys/devices/%s/eui", dp);
		put(r, i == 1 ? "00 25 38 b1 11 11 11 11" : "0000000000000000");
	}
	/* virtio-scsi: two SCSI disks, 15000 rpm and an SSD (VPD B1 = 1) */
	put("sys/devices/" VS "/vendor", "QEMU    ");
	put("sys/devices/" VS "/model", "QEMU HARDDISK");
	vpd_b1(VS, 15000);
	disk(VS "/block/sda", "sda", 1);
	link_to("sys/devices/" VS "/block/sda/device", "../../../0:0:0:0");
	put("sys/devices/" VS2 "/vendor", "QEMU    ");
	vpd_b1(VS2, 1);
	disk(VS2 "/block/sdb", "sdb", 0);
	link_to("sys/devices/" VS2 "/block/sdb/device", "../../../0:0:1:0");
	/* lsi53c895a: no B1 page: rotation stays unknown */
	put("sys/devices/" LSI "/vendor", "QEMU    ");
	disk(LSI "/block/sdc", "sdc", 1);
	link_to("sys/devices/" LSI "/block/sdc/device", "../../../1:0:0:0");
	/* virtio-blk: vendor is a PCI id */
	put("sys/devices/" VB "/vendor", "0x1af4");
	disk(VB "/block/vda", "vda", 1);
	link_to("sys/devices/" VB "/block/vda/device", "../../../virtio3");
	/* SATA: link speed in the device tree (ata3), in /sys/class only (ata4),
	 * unknown to the kernel (ata5) */
	put("sys/devices/" AHCI "/ata3/host2/target2:0:0/2:0:0:0/vendor", "ATA     ");
	disk(AHCI "/ata3/host2/target2:0:0/2:0:0:0/block/sdd", "sdd", 1);
	link_to("sys/devices/" AHCI "/ata3/host2/target2:0:0/2:0:0:0/block/sdd/device", "../../../2:0:0:0");
	put("sys/devices/" AHCI "/ata3/link3/ata_link/link3/sata_spd", "3.0 Gbps");
	put("sys/devices/" AHCI "/ata4/host3/target3:0:0/3:0:0:0/vendor", "ATA     ");
	disk(AHCI "/ata4/host3/target3:0:0/3:0:0:0/block/sde", "sde", 1);
	link_to("sys/devices/" AHCI "/ata4/host3/target3:0:0/3:0:0:0/block/sde/device", "../../../3:0:0:0");
	put("sys/class/ata_link/link4/sata_spd", "1.5 Gbps");
	put("sys/devices/" AHCI "/ata5/host4/target4:0:0/4:0:0:0/vendor", "ATA     ");
	disk(AHCI "/ata5/host4/target4:0:0/4:0:0:0/block/sdf", "sdf", 1);
	link_to("sys/devices/" AHCI "/ata5/host4/target4:0:0/4:0:0:0/block/sdf/device", "../../../4:0:0:0");
	put("sys/devices/" AHCI "/ata5/link5/ata_link/link5/sata_spd", "<unknown>");
	put("mounts", "proc /proc proc rw 0 0");
}

static int
rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	return remove(p);
}

static int
setup(void **state)
{
	snprintf(fx, sizeof fx, "/tmp/ds-emu-XXXXXX");
	if (!mkdtemp(fx))
		return -1;
	build();
	return 0;
}

static int
teardown(void **state)
{
	return nftw(fx, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static struct inventory inv;

static struct drive *
drv(const char *name)
{
	struct drive *d = inventory_find_drive(&inv, name);
	if (!d)
		fail_msg("no drive %s", name);
	return d;
}

static void
scan(void)
{
	static char sys[PATH_MAX], dev[PATH_MAX], mnt[PATH_MAX];
	struct inventory_opts o;
	inventory_opts_default(&o);
	snprintf(sys, sizeof sys, "%s/sys", fx);
	snprintf(dev, sizeof dev, "%s/dev", fx);
	snprintf(mnt, sizeof mnt, "%s/mounts", fx);
	o.sysfs_root = sys;
	o.dev_root = dev;
	o.mounts_file = mnt;
	o.no_ata = true;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(sysfs_scan_drives(&inv, &o), 0);
}

static void
test_nvme_namespaces_apart(void **state)
{
	scan();
	struct drive *a = drv("nvme0n1"), *b = drv("nvme0n2"), *c = drv("nvme0n3");
	assert_string_equal(a->serial, "NVME0SERIAL");
	assert_string_equal(c->serial, "NVME0SERIAL");
	assert_string_equal(a->id_source, "nguid");
	assert_string_equal(a->id, "5b1a2c3d00004000800000000000beef");
	assert_string_equal(b->id_source, "eui");
	assert_string_equal(b->id, "002538b111111111");
	assert_string_equal(c->id_source, "serial+nsid");
	assert_string_equal(c->id, "NVME0SERIAL-ns3");
	assert_string_not_equal(a->id, b->id);
	inventory_free(&inv);
}

static void
test_scsi_vendor_and_rotation(void **state)
{
	scan();
	assert_string_equal(drv("sda")->vendor, "QEMU");	/* virtio-scsi keeps it */
	assert_string_equal(drv("vda")->vendor, "");		/* virtio-blk: a PCI id */
	struct drive *d = drv("sda");
	assert_true(d->rotation_rpm.known);
	assert_int_equal(d->rotation_rpm.v, 15000);
	d = drv("sdb");
	assert_true(d->rotation_rpm.known);
	assert_int_equal(d->rotation_rpm.v, 0);			/* non-rotating */
	assert_false(drv("sdc")->rotation_rpm.known);		/* no page: unknown */
	inventory_free(&inv);
}

static void
test_sata_link_from_kernel(void **state)
{
	scan();
	struct drive *d = drv("sdd");
	assert_int_equal(d->transport, TR_SATA);
	assert_true(d->link_gbps.known);
	assert_true(d->link_gbps.v == 3.0);
	d = drv("sde");
	assert_true(d->link_gbps.known);
	assert_true(d->link_gbps.v == 1.5);
	assert_false(drv("sdf")->link_gbps.known);		/* "<unknown>" */
	assert_false(drv("sda")->link_gbps.known);		/* not SATA */
	inventory_free(&inv);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvme_namespaces_apart),
		cmocka_unit_test(test_scsi_vendor_and_rotation),
		cmocka_unit_test(test_sata_link_from_kernel),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
