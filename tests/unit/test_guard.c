/* test_guard.c - the write guard's rules over a fixture sysfs tree (laid out
 * as the kernel does: devices/..., dev/block/MAJ:MIN and class/block links),
 * mountinfo and swaps files built in a temporary directory: each rule refuses
 * with its one sentence and evidence, refuses when it cannot be evaluated
 * (fail closed), and passes a device it has no reason to refuse.  The
 * identity rule compares a confirmed drive with the one opened.
 * (tests/sys/guard.sh runs the same rules on real loop devices.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <fcntl.h>
#include <limits.h>
#include "io/guard.h"
#include "io/target.h"
#include "util/util.h"

static char F[64];		/* fixture root */
static char SYS[128], MI[128], SWAPS[128], NOPE[128];

static void
mkpath(const char *fmt, ...)
{
	char p[512], cmd[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p, sizeof p, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/%s'", F, p);
	assert_int_equal(system(cmd), 0);
}

static void
put(const char *rel, const char *text)
{
	char p[700];
	snprintf(p, sizeof p, "%s/%s", F, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
putf(const char *rel, const char *fmt, ...)
{
	char v[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v, sizeof v, fmt, ap);
	va_end(ap);
	put(rel, v);
}

static void
link_rel(const char *target, const char *rel)
{
	char p[700];
	snprintf(p, sizeof p, "%s/%s", F, rel);
	unlink(p);
	assert_int_equal(symlink(target, p), 0);
}

/* A block device at sys/devices/REL (REL "virtual/block/loop4" or
 * "virtual/block/loop4/loop4p1"): dev, size, empty holders/ and slaves/,
 * the partition file when partno, and its dev/block and class/block links. */
static void
blockdev(const char *rel, unsigned ma, unsigned mi, int partno)
{
	char p[512], t[512];
	const char *name = strrchr(rel, '/') + 1;
	mkpath("sys/devices/%s/holders", rel);
	mkpath("sys/devices/%s/slaves", rel);
	snprintf(p, sizeof p, "sys/devices/%s/dev", rel);
	putf(p, "%u:%u\n", ma, mi);
	snprintf(p, sizeof p, "sys/devices/%s/size", rel);
	putf(p, "131072\n");
	if (partno) {
		snprintf(p, sizeof p, "sys/devices/%s/partition", rel);
		putf(p, "%d\n", partno);
	}
	mkpath("sys/dev/block");
	mkpath("sys/class/block");
	snprintf(p, sizeof p, "sys/dev/block/%u:%u", ma, mi);
	snprintf(t, sizeof t, "../../devices/%s", rel);
	link_rel(t, p);
	snprintf(p, sizeof p, "sys/class/block/%s", name);
	link_rel(t, p);
}

static int
setup(void **state)
{
	(void)state;
	strcpy(F, "/tmp/ds-guard-XXXXXX");
	if (!mkdtemp(F))
		return -1;
	snprintf(SYS, sizeof SYS, "%s/sys", F);
	snprintf(MI, sizeof MI, "%s/mountinfo", F);
	snprintf(SWAPS, sizeof SWAPS, "%s/swaps", F);
	snprintf(NOPE, sizeof NOPE, "%s/nope", F);
	/* loop4 with a mounted partition, a loop device with its backing file. */
	blockdev("virtual/block/loop4", 7, 4, 0);
	blockdev("virtual/block/loop4/loop4p1", 259, 0, 1);
	mkpath("sys/devices/virtual/block/loop4/loop");
	put("sys/devices/virtual/block/loop4/loop/backing_file", "/srv/a.img\n");
	/* loop5 held by device-mapper. */
	blockdev("virtual/block/loop5", 7, 5, 0);
	mkpath("sys/devices/virtual/block/loop5/holders/dm-0");
	/* loop6 whose second partition is an md member. */
	blockdev("virtual/block/loop6", 7, 6, 0);
	blockdev("virtual/block/loop6/loop6p1", 259, 1, 1);
	blockdev("virtual/block/loop6/loop6p2", 259, 2, 2);
	mkpath("sys/devices/virtual/block/loop6/loop6p2/holders/md0");
	/* vda: / on vda1; a serial on the disk, a WWN, partition vda2 free. */
	blockdev("pci0000:00/0000:00:04.0/virtio1/block/vda", 254, 0, 0);
	blockdev("pci0000:00/0000:00:04.0/virtio1/block/vda/vda1", 254, 1, 1);
	blockdev("pci0000:00/0000:00:04.0/virtio1/block/vda/vda2", 254, 2, 2);
	put("sys/devices/pci0000:00/0000:00:04.0/virtio1/block/vda/serial", "  VDA-SERIAL-1  \n");
	put("sys/devices/pci0000:00/0000:00:04.0/virtio1/block/vda/wwid", "naa.5000c500a1b2c3d4\n");
	/* loop7 under an LV (dm-1) that holds /. */
	blockdev("virtual/block/loop7", 7, 7, 0);
	mkpath("sys/devices/virtual/block/loop7/holders/dm-1");
	blockdev("virtual/block/dm-1", 253, 1, 0);
	mkpath("sys/devices/virtual/block/dm-1/slaves/loop7");
	/* zram9 used as swap; loop8 untouched; sdb with a VPD serial, t10 id. */
	blockdev("virtual/block/zram9", 252, 9, 0);
	blockdev("virtual/block/loop8", 7, 8, 0);
	blockdev("pci0000:00/ata3/host2/target2:0:0/2:0:0:0/block/sdb", 8, 16, 0);
	mkpath("sys/devices/pci0000:00/ata3/host2/target2:0:0/2:0:0:0/block/sdb/device");
	{
		char p[600];
		snprintf(p, sizeof p, "%s/sys/devices/pci0000:00/ata3/host2/target2:0:0/2:0:0:0/block/sdb/device/vpd_pg80", F);
		FILE *f = fopen(p, "w");
		assert_non_null(f);
		fwrite("\0\x80\0\x0d    WD-WCC4M1", 1, 17, f);
		fclose(f);
		put("sys/devices/pci0000:00/ata3/host2/target2:0:0/2:0:0:0/block/sdb/device/wwid",
		    "t10.ATA     WDC WD20EFRX WD-WCC4M1\n");
	}
	put("mountinfo",
	    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
	    "27 1 254:1 / / rw,relatime shared:1 - ext4 /dev/ds-fixture-vda1 rw\n"
	    "40 27 259:0 / /mnt/my\\040disk rw,relatime shared:9 master:2 - ext4 /dev/loop4p1 rw\n");
	put("swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
		     "/dev/zram9                              partition\t8388604\t\t0\t\t100\n");
	mkpath("dev/disk/by-id");
	put("dev/loop4", "");
	put("dev/loop5", "");
	link_rel("../../loop4", "dev/disk/by-id/usb-Test_Disk");
	return 0;
}

static int
teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", F);
	return system(cmd) == 0 ? 0 : -1;
}

static void
load(struct guard_family *f, unsigned ma, unsigned mi, const char *dev)
{
	char err[256] = "";
	int rc = guard_family_load(f, SYS, makedev(ma, mi), dev, err, sizeof err);
	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
}

static void
t_family(void **s)
{
	struct guard_family f;
	char err[256] = "";
	(void)s;
	load(&f, 7, 4, "/dev/loop4");
	assert_int_equal(f.n, 2);
	assert_false(f.partition);
	assert_string_equal(f.name[0], "loop4");
	assert_string_equal(f.name[1], "loop4p1");
	assert_true(f.devt[0] == makedev(7, 4));
	assert_true(f.devt[1] == makedev(259, 0));
	load(&f, 7, 6, "/dev/loop6");
	assert_int_equal(f.n, 3);
	/* a partition: itself and its whole disk */
	load(&f, 259, 0, "/dev/loop4p1");
	assert_int_equal(f.n, 2);
	assert_true(f.partition);
	assert_string_equal(f.name[1], "loop4");
	/* no sysfs entry for that device number: refused, not skipped */
	assert_int_equal(guard_family_load(&f, SYS, makedev(8, 99), "/dev/sdz", err, sizeof err),
			 -EPERM);
	assert_non_null(strstr(err, "refused: /dev/sdz (device 8:99) has no entry in "));
}

/* More partitions than the guard can list: refused, never a partial check. */
static void
t_family_too_many(void **s)
{
	struct guard_family f;
	char rel[128], err[256] = "";
	(void)s;
	blockdev("virtual/block/loop9", 7, 9, 0);
	for (int i = 1; i <= GUARD_MAX_FAMILY; i++) {
		snprintf(rel, sizeof rel, "virtual/block/loop9/loop9p%d", i);
		blockdev(rel, 260, (unsigned)i, i);
	}
	assert_int_equal(guard_family_load(&f, SYS, makedev(7, 9), "/dev/loop9", err, sizeof err),
			 -EPERM);
	assert_string_equal(err, "refused: /dev/loop9 has more than 128 partitions, more than the guard can check");
	/* A partition whose device number cannot be read. */
	blockdev("virtual/block/loop3", 7, 3, 0);
	blockdev("virtual/block/loop3/loop3p1", 259, 30, 1);
	put("sys/devices/virtual/block/loop3/loop3p1/dev", "garbage\n");
	assert_int_equal(guard_family_load(&f, SYS, makedev(7, 3), "/dev/loop3", err, sizeof err),
			 -EPERM);
	assert_non_null(strstr(err, "cannot read the device number of /dev/loop3's partition loop3p1"));
}

static void
t_mounts(void **s)
{
	struct guard_family f;
	char err[256] = "", p[300];
	(void)s;
	load(&f, 7, 4, "/dev/loop4");
	assert_int_equal(guard_check_mounts(&f, MI, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop4p1 is mounted on /mnt/my disk");
	load(&f, 259, 0, "/dev/loop4p1");
	assert_int_equal(guard_check_mounts(&f, MI, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop4p1 is mounted on /mnt/my disk");
	load(&f, 7, 5, "/dev/loop5");
	assert_int_equal(guard_check_mounts(&f, MI, err, sizeof err), 0);
	/* A partition target whose whole disk is mounted (by number). */
	load(&f, 254, 2, "/dev/vda2");
	put("mi-whole", "50 1 254:0 / /srv rw - ext4 /dev/vda rw\n");
	snprintf(p, sizeof p, "%s/mi-whole", F);
	assert_int_equal(guard_check_mounts(&f, p, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/vda is mounted on /srv");
	/* Fail closed: no mountinfo, or a line that is not mountinfo. */
	assert_int_equal(guard_check_mounts(&f, NOPE, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "refused: cannot read"));
	assert_non_null(strstr(err, "whether /dev/vda2 is mounted"));
	put("mi-bad", "/dev/vda2 /mnt ext4 rw 0 0\n");
	snprintf(p, sizeof p, "%s/mi-bad", F);
	assert_int_equal(guard_check_mounts(&f, p, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "refused: cannot parse line 1 of"));
}

/* A mount whose source is a device node outside /dev (by device number:
 * the filesystem's own st_dev says nothing, as for btrfs). */
static void
t_mounts_source_outside_dev(void **s)
{
	struct guard_family f;
	struct stat st;
	char err[256] = "", p[300], node[200];
	(void)s;
	if (stat("/dev/loop0", &st) < 0 || !S_ISBLK(st.st_mode))
		skip();
	f = (struct guard_family){ .n = 1 };
	strcpy(f.dev, "/dev/loop0");
	strcpy(f.name[0], "loop0");
	f.devt[0] = st.st_rdev;
	snprintf(node, sizeof node, "%s/nodes-disk", F);
	unlink(node);
	assert_int_equal(symlink("/dev/loop0", node), 0);
	snprintf(p, sizeof p, "%s/mi-outside", F);
	FILE *fp = fopen(p, "w");
	assert_non_null(fp);
	fprintf(fp, "60 1 0:77 / /data rw - btrfs %s rw\n", node);
	fclose(fp);
	assert_int_equal(guard_check_mounts(&f, p, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop0 is mounted on /data");
	/* and as a swap file name outside /dev */
	snprintf(p, sizeof p, "%s/swaps-outside", F);
	fp = fopen(p, "w");
	assert_non_null(fp);
	fprintf(fp, "Filename Type Size Used Priority\n%s partition 100 0 -2\n", node);
	fclose(fp);
	assert_int_equal(guard_check_swaps(&f, p, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "refused: /dev/loop0 is in use as swap"));
}

static void
t_holders(void **s)
{
	struct guard_family f;
	char err[256] = "";
	(void)s;
	load(&f, 7, 5, "/dev/loop5");
	assert_int_equal(guard_check_holders(&f, SYS, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop5 is held by dm-0 (holders)");
	load(&f, 7, 6, "/dev/loop6");
	assert_int_equal(guard_check_holders(&f, SYS, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop6p2, a partition of /dev/loop6, is held by md0 (holders)");
	load(&f, 7, 4, "/dev/loop4");
	assert_int_equal(guard_check_holders(&f, SYS, err, sizeof err), 0);
	/* Fail closed: a holders directory that cannot be read. */
	blockdev("virtual/block/loop2", 7, 2, 0);
	mkpath("sys/devices/virtual/block/loop2");
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rmdir '%s/sys/devices/virtual/block/loop2/holders'", F);
	assert_int_equal(system(cmd), 0);
	load(&f, 7, 2, "/dev/loop2");
	assert_int_equal(guard_check_holders(&f, SYS, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "refused: cannot read "));
	assert_non_null(strstr(err, "/dev/block/7:2/holders to check what holds /dev/loop2"));
}

static void
t_swaps(void **s)
{
	struct guard_family f;
	char err[256] = "";
	(void)s;
	load(&f, 252, 9, "/dev/zram9");
	assert_int_equal(guard_check_swaps(&f, SWAPS, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "refused: /dev/zram9 is in use as swap"));
	load(&f, 7, 8, "/dev/loop8");
	assert_int_equal(guard_check_swaps(&f, SWAPS, err, sizeof err), 0);
	/* Fail closed: unreadable swaps file (it used to pass). */
	assert_int_equal(guard_check_swaps(&f, NOPE, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "refused: cannot read"));
	assert_non_null(strstr(err, "whether /dev/loop8 is in use as swap"));
}

static void
t_root(void **s)
{
	struct guard_family f;
	struct guard_env env = { .sysfs_root = SYS, .mountinfo_file = MI };
	char err[256] = "";
	(void)s;
	/* By the st_dev of "/" (254:1 = vda1, a partition of vda). */
	env.root_dev = makedev(254, 1);
	load(&f, 254, 0, "/dev/vda");
	assert_int_equal(guard_check_root(&f, &env, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/vda holds / on its partition /dev/vda1 (the running system)");
	/* By mountinfo's "/" when st_dev says nothing (btrfs: anonymous 0:33). */
	env.root_dev = makedev(0, 33);
	assert_int_equal(guard_check_root(&f, &env, err, sizeof err), -EPERM);
	/* A partition of the root disk that does not hold / may be written;
	 * the partition holding / may not. */
	load(&f, 254, 2, "/dev/vda2");
	assert_int_equal(guard_check_root(&f, &env, err, sizeof err), 0);
	load(&f, 254, 1, "/dev/vda1");
	assert_int_equal(guard_check_root(&f, &env, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/vda1 holds / (the running system)");
	/* Through slaves/: / on an LV over loop7. */
	env.root_dev = makedev(253, 1);
	load(&f, 7, 7, "/dev/loop7");
	assert_int_equal(guard_check_root(&f, &env, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop7 holds / (the running system)");
	load(&f, 7, 8, "/dev/loop8");
	assert_int_equal(guard_check_root(&f, &env, err, sizeof err), 0);
	/* Fail closed: without mountinfo "/" cannot be placed. */
	env.mountinfo_file = NOPE;
	assert_int_equal(guard_check_root(&f, &env, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "to find the device holding /"));
}

static void
t_rules(void **s)
{
	struct guard_env env = { .sysfs_root = SYS, .mountinfo_file = MI, .swaps_file = SWAPS,
				 .root_dev = makedev(254, 1) };
	char err[256] = "";
	(void)s;
	assert_int_equal(guard_check_rules(makedev(7, 8), "/dev/loop8", &env, err, sizeof err), 0);
	assert_int_equal(guard_check_rules(makedev(7, 5), "/dev/loop5", &env, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop5 is held by dm-0 (holders)");
	assert_int_equal(guard_check_rules(makedev(252, 9), "/dev/zram9", &env, err, sizeof err), -EPERM);
	env.swaps_file = NOPE;
	assert_int_equal(guard_check_rules(makedev(7, 8), "/dev/loop8", &env, err, sizeof err), -EPERM);
}

static void
t_ident_read(void **s)
{
	struct guard_confirm c;
	char err[256] = "";
	(void)s;
	assert_int_equal(guard_ident_read(&c, makedev(8, 16), SYS, err, sizeof err), 0);
	assert_true(c.exact);
	assert_string_equal(c.serial, "WD-WCC4M1");	/* VPD 0x80, trimmed */
	assert_string_equal(c.wwn, "");		/* a t10 vendor id is no WWN */
	assert_true(c.capacity == 131072ull * 512);
	assert_int_equal(guard_ident_read(&c, makedev(254, 2), SYS, err, sizeof err), 0);
	assert_string_equal(c.serial, "VDA-SERIAL-1");	/* the partition's disk */
	assert_string_equal(c.wwn, "naa.5000c500a1b2c3d4");
	assert_int_equal(guard_ident_read(&c, makedev(7, 4), SYS, err, sizeof err), 0);
	assert_string_equal(c.backing, "/srv/a.img");
	assert_string_equal(c.serial, "");
	assert_int_equal(guard_ident_read(&c, makedev(8, 99), SYS, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "refused: device 8:99 has no entry"));
}

static void
t_identity(void **s)
{
	struct guard_confirm seen = { .devt = makedev(8, 16), .serial = "WD-WCC4M1",
				      .capacity = 2000398934016ull, .exact = true };
	struct guard_confirm now = seen;
	char err[256] = "";
	(void)s;
	assert_int_equal(guard_check_identity("/dev/sdb", &seen, &now, err, sizeof err), 0);
	strcpy(now.serial, "WD-WXB1HB4XYZ");
	assert_int_equal(guard_check_identity("/dev/sdb", &seen, &now, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/sdb is now another drive: serial WD-WXB1HB4XYZ, you confirmed WD-WCC4M1");
	/* exact (both read by the guard): a serial gone is another drive */
	now.serial[0] = '\0';
	assert_int_equal(guard_check_identity("/dev/sdb", &seen, &now, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/sdb is now another drive: no serial, you confirmed serial WD-WCC4M1");
	/* from the inventory: IDENTIFY's whole serial where sysfs has a piece,
	 * or sysfs has none: compared by what both know */
	seen.exact = false;
	strcpy(seen.serial, "WD-WCC4M1234567");
	strcpy(now.serial, "WCC4M1234567");
	assert_int_equal(guard_check_identity("/dev/sdb", &seen, &now, err, sizeof err), 0);
	now.serial[0] = '\0';
	assert_int_equal(guard_check_identity("/dev/sdb", &seen, &now, err, sizeof err), 0);
	/* a serial where the confirmed drive had none */
	seen.serial[0] = '\0';
	strcpy(now.serial, "S3Z9NB0K");
	assert_int_equal(guard_check_identity("/dev/sdb", &seen, &now, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/sdb is now another drive: serial S3Z9NB0K, you confirmed a drive without one");
	now.serial[0] = '\0';
	/* capacity, WWN, device number */
	now.capacity = 1000204886016ull;
	assert_int_equal(guard_check_identity("/dev/sdb", &seen, &now, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/sdb is now another drive: 1000204886016 bytes, you confirmed 2000398934016 bytes");
	now.capacity = seen.capacity;
	strcpy(seen.wwn, "naa.5000c500a1b2c3d4");
	strcpy(now.wwn, "naa.5000c500ffffffff");
	assert_int_equal(guard_check_identity("/dev/sdb", &seen, &now, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/sdb is now another drive: WWN naa.5000c500ffffffff, you confirmed naa.5000c500a1b2c3d4");
	strcpy(now.wwn, seen.wwn);
	now.devt = makedev(8, 32);
	assert_int_equal(guard_check_identity("/dev/sdb", &seen, &now, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/sdb is now another drive: device 8:32, you confirmed 8:16");
	/* a loop device: its backing file */
	struct guard_confirm l1 = { .backing = "/srv/a.img", .capacity = 67108864, .exact = true };
	struct guard_confirm l2 = l1;
	strcpy(l2.backing, "/srv/b.img");
	assert_int_equal(guard_check_identity("/dev/loop4", &l1, &l2, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop4 is now another drive: backing file /srv/b.img, you confirmed /srv/a.img");
	/* the same path, another file (detached, another file put there,
	 * attached again): the kernel's device and inode tell them apart */
	l1.backing_id = true;
	l1.backing_dev = makedev(8, 3);
	l1.backing_ino = 1201;
	l2 = l1;
	assert_int_equal(guard_check_identity("/dev/loop4", &l1, &l2, err, sizeof err), 0);
	l2.backing_ino = 1202;
	assert_int_equal(guard_check_identity("/dev/loop4", &l1, &l2, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop4 is now another drive: backing file /srv/a.img is another file"
			    " (device 8:3 inode 1202 offset 0), you confirmed device 8:3 inode 1201 offset 0");
	l2 = l1;
	l2.backing_off = 4096;	/* the same file from another offset: other bytes */
	assert_int_equal(guard_check_identity("/dev/loop4", &l1, &l2, err, sizeof err), -EPERM);
	/* ext4 gives a deleted file's inode number to the next new file: the
	 * birth time tells them apart (when the file system keeps one) */
	l1.backing_btime = true;
	l1.backing_btime_s = 1796286007;
	l1.backing_btime_ns = 439572059;
	l2 = l1;
	assert_int_equal(guard_check_identity("/dev/loop4", &l1, &l2, err, sizeof err), 0);
	l2.backing_btime_s = 1796286054;
	assert_int_equal(guard_check_identity("/dev/loop4", &l1, &l2, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop4 is now another drive: backing file /srv/a.img is another file"
			    " with the same inode 1201 (created 1796286054.439572059), you confirmed one created"
			    " 1796286007.439572059");
	l2.backing_btime = false;
	assert_int_equal(guard_check_identity("/dev/loop4", &l1, &l2, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "the birth time of /srv/a.img cannot be read now"));
	l1.backing_btime = false;	/* a file system without birth times: inode only */
	assert_int_equal(guard_check_identity("/dev/loop4", &l1, &l2, err, sizeof err), 0);
	/* not read (then or now): refused, never assumed */
	l2 = l1;
	l2.backing_id = false;
	assert_int_equal(guard_check_identity("/dev/loop4", &l1, &l2, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "refused: cannot prove /dev/loop4 is still on the backing file you confirmed"));
	assert_non_null(strstr(err, "could not be read now"));
	assert_int_equal(guard_check_identity("/dev/loop4", &l2, &l1, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "could not be read when you confirmed"));
	/* nothing to compare: refused */
	struct guard_confirm none = { .exact = false }, some = { .exact = true };
	assert_int_equal(guard_check_identity("/dev/sdc", &none, &some, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "refused: cannot prove /dev/sdc is the drive you confirmed"));
}

static void
t_confirm(void **s)
{
	struct guard_confirms l = { 0 };
	const struct guard_confirm *c;
	char dev[160], link[200], other[160], err[512] = "", want[512];
	(void)s;
	snprintf(dev, sizeof dev, "%s/dev/loop4", F);
	snprintf(link, sizeof link, "%s/dev/disk/by-id/usb-Test_Disk", F);
	snprintf(other, sizeof other, "%s/dev/loop5", F);

	assert_int_equal(guard_check_confirm(dev, 0, NULL, &c, err, sizeof err), -EPERM);
	snprintf(want, sizeof want, "refused: writing %s needs --destroy-data=%s", dev, dev);
	assert_string_equal(err, want);
	assert_int_equal(guard_check_confirm(dev, 0, &l, &c, err, sizeof err), -EPERM);
	/* by resolved path (a symlink names the same node) */
	struct guard_confirm a = { .exact = true };
	strcpy(a.path, link);
	assert_int_equal(guard_confirms_add(&l, &a, err, sizeof err), 0);
	assert_int_equal(guard_check_confirm(dev, 0, &l, &c, err, sizeof err), 0);
	assert_ptr_equal(c, &l.v[0]);
	assert_int_equal(guard_check_confirm(other, 0, &l, &c, err, sizeof err), -EPERM);
	snprintf(want, sizeof want, "refused: --destroy-data=%s does not name %s", link, other);
	assert_string_equal(err, want);
	/* by device number */
	struct guard_confirm b = { .devt = makedev(7, 5), .exact = true };
	strcpy(b.path, "/dev/loop5-by-another-name");
	assert_int_equal(guard_confirms_add(&l, &b, err, sizeof err), 0);
	assert_int_equal(guard_check_confirm(other, makedev(7, 5), &l, &c, err, sizeof err), 0);
	assert_ptr_equal(c, &l.v[1]);
	/* several, none naming it */
	assert_int_equal(guard_check_confirm("/dev/null", makedev(1, 3), &l, &c, err, sizeof err), -EPERM);
	snprintf(want, sizeof want, "refused: --destroy-data names %s, /dev/loop5-by-another-name, not /dev/null", link);
	assert_string_equal(err, want);
	/* the same device twice is one confirmation; at most 64 */
	assert_int_equal(guard_confirms_add(&l, &b, err, sizeof err), 0);
	assert_int_equal(l.n, 2);
	for (unsigned i = 0; l.n < GUARD_MAX_CONFIRMS; i++) {
		struct guard_confirm x = { .devt = makedev(100, i) };
		snprintf(x.path, sizeof x.path, "/dev/x%u", i);
		assert_int_equal(guard_confirms_add(&l, &x, err, sizeof err), 0);
	}
	struct guard_confirm y = { .devt = makedev(101, 1), .path = "/dev/y" };
	assert_int_equal(guard_confirms_add(&l, &y, err, sizeof err), -E2BIG);
}

static void
t_capture(void **s)
{
	struct guard_confirm c;
	struct stat st;
	char dev[160], err[256] = "";
	(void)s;
	snprintf(dev, sizeof dev, "%s/dev/loop4", F);
	assert_int_equal(guard_confirm_capture(&c, dev, SYS, err, sizeof err), -ENOTBLK);
	assert_non_null(strstr(err, "not a block device"));
	assert_int_equal(guard_confirm_capture(&c, "no-such-disk-xyz", SYS, err, sizeof err), -ENOENT);
	assert_string_equal(err, "/dev/no-such-disk-xyz: no such block device");
	if (stat("/dev/loop0", &st) == 0 && S_ISBLK(st.st_mode)) {
		assert_int_equal(guard_confirm_capture(&c, "loop0", NULL, err, sizeof err), 0);
		assert_string_equal(c.path, "/dev/loop0");
		assert_true(c.devt == st.st_rdev);
		assert_true(c.exact);
	}
}

static void
t_write_open_not_block(void **s)
{
	struct guard_confirms l = { 0 };
	char dev[160], err[256] = "";
	int fd = 123;
	(void)s;
	snprintf(dev, sizeof dev, "%s/dev/loop4", F);
	assert_int_equal(guard_write_open(dev, &l, NULL, &fd, err, sizeof err), -ENOTBLK);
	assert_int_equal(fd, -1);
	assert_non_null(strstr(err, "not a block device"));
	assert_int_equal(guard_precheck(dev, NULL, err, sizeof err), -ENOTBLK);
}

/* The real system: the disk under "/" is refused by the root rule alone (a
 * pure check: nothing is opened for writing). */
static void
t_real_root(void **s)
{
	struct stat st;
	struct guard_family f;
	char p[PATH_MAX + 16], real[PATH_MAX], err[256] = "", dev[80];
	(void)s;
	if (stat("/", &st) < 0)
		skip();
	snprintf(p, sizeof p, "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (!realpath(p, real))
		skip();	/* / is not on a block device (overlay, btrfs subvolume) */
	/* The whole disk: the partition's parent directory, else itself. */
	snprintf(p, sizeof p, "%s/partition", real);
	if (access(p, F_OK) == 0)
		*strrchr(real, '/') = '\0';
	snprintf(p, sizeof p, "%s/dev", real);
	dev_t d = 0;
	unsigned ma, mi;
	char buf[32];
	if (read_text(p, buf, sizeof buf) == 0 && sscanf(buf, "%u:%u", &ma, &mi) == 2)
		d = makedev(ma, mi);
	assert_true(d != 0);
	snprintf(dev, sizeof dev, "/dev/%s", strrchr(real, '/') + 1);
	assert_int_equal(guard_family_load(&f, NULL, d, dev, err, sizeof err), 0);
	assert_int_equal(guard_check_root(&f, NULL, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "holds /"));
	assert_non_null(strstr(err, dev));
	print_message("%s\n", err);
	assert_int_equal(guard_check_rules(d, dev, NULL, err, sizeof err), -EPERM);
}

/* Driver for scripts: open DEV for writing through target_open (the guard),
 * each CONFIRM captured now as --destroy-data would, and when allowed write
 * one 4 KiB block at offset 0.  Exit 3 refused, 2 other error, 0 ok. */
static int
try_write(const char *dev, int n, char **confirm)
{
	struct target t;
	struct target_opts o = { .write = true };
	char err[512];
	void *buf;
	for (int i = 0; i < n; i++) {
		struct guard_confirm c;
		if (guard_confirm_capture(&c, confirm[i], NULL, err, sizeof err) < 0 ||
		    guard_confirms_add(&o.confirms, &c, err, sizeof err) < 0) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
	}
	int rc = target_open(&t, dev, &o, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "%s\n", err);
		return rc == -EPERM ? 3 : 2;
	}
	if (posix_memalign(&buf, 4096, 4096))
		return 2;
	for (int i = 0; i < 4096; i++)
		((unsigned char *)buf)[i] = (unsigned char)(now_ns() >> (i % 8));
	rc = pwrite(t.fd, buf, 4096, 0) == 4096 ? 0 : 2;
	free(buf);
	target_close(&t);
	return rc;
}

int
main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "--try-write") == 0)
		return try_write(argv[2], argc - 3, argv + 3);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_family),
		cmocka_unit_test(t_family_too_many),
		cmocka_unit_test(t_mounts),
		cmocka_unit_test(t_mounts_source_outside_dev),
		cmocka_unit_test(t_holders),
		cmocka_unit_test(t_swaps),
		cmocka_unit_test(t_root),
		cmocka_unit_test(t_rules),
		cmocka_unit_test(t_ident_read),
		cmocka_unit_test(t_identity),
		cmocka_unit_test(t_confirm),
		cmocka_unit_test(t_capture),
		cmocka_unit_test(t_write_open_not_block),
		cmocka_unit_test(t_real_root),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
