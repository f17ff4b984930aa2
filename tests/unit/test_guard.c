/* test_guard.c - the write guard's rules over a fixture sysfs tree, mounts and
 * swaps files built in a temporary directory: each rule refuses with its one
 * sentence and evidence, and passes a device it has no reason to refuse.
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
static char SYS[128], MOUNTS[128], SWAPS[128], DEV[128];

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
	char p[512];
	snprintf(p, sizeof p, "%s/%s", F, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
link_rel(const char *target, const char *rel)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", F, rel);
	assert_int_equal(symlink(target, p), 0);
}

/* A block device directory: dev number, empty holders/, optional partition. */
static void
blockdir(const char *rel, const char *devnum, int partno)
{
	char p[512];
	mkpath("sys/class/block/%s/holders", rel);
	snprintf(p, sizeof p, "sys/class/block/%s/dev", rel);
	char v[32];
	snprintf(v, sizeof v, "%s\n", devnum);
	put(p, v);
	if (partno) {
		snprintf(p, sizeof p, "sys/class/block/%s/partition", rel);
		snprintf(v, sizeof v, "%d\n", partno);
		put(p, v);
	}
}

static int
setup(void **state)
{
	strcpy(F, "/tmp/ds-guard-XXXXXX");
	if (!mkdtemp(F))
		return -1;
	snprintf(SYS, sizeof SYS, "%s/sys", F);
	snprintf(MOUNTS, sizeof MOUNTS, "%s/mounts", F);
	snprintf(SWAPS, sizeof SWAPS, "%s/swaps", F);
	snprintf(DEV, sizeof DEV, "%s/dev", F);
	/* loop4 with a mounted partition (as sysfs has it: under the disk and
	 * again in class/block). */
	blockdir("loop4", "7:4", 0);
	blockdir("loop4/loop4p1", "259:0", 1);
	blockdir("loop4p1", "259:0", 1);
	/* loop5 held by device-mapper. */
	blockdir("loop5", "7:5", 0);
	mkpath("sys/class/block/loop5/holders/dm-0");
	/* loop6 whose second partition is an md member. */
	blockdir("loop6", "7:6", 0);
	blockdir("loop6/loop6p1", "259:1", 1);
	blockdir("loop6/loop6p2", "259:2", 2);
	mkpath("sys/class/block/loop6/loop6p2/holders/md0");
	/* vda: / on vda1. */
	blockdir("vda", "254:0", 0);
	blockdir("vda/vda1", "254:1", 1);
	blockdir("vda1", "254:1", 1);
	mkpath("sys/dev/block");
	link_rel("../../class/block/vda/vda1", "sys/dev/block/254:1");
	/* loop7 under an LV (dm-1) that holds /. */
	blockdir("loop7", "7:7", 0);
	mkpath("sys/class/block/loop7/holders/dm-1");
	blockdir("dm-1", "253:1", 0);
	mkpath("sys/class/block/dm-1/slaves/loop7");
	link_rel("../../class/block/dm-1", "sys/dev/block/253:1");
	/* zram9 used as swap; loop8 untouched. */
	blockdir("zram9", "252:9", 0);
	blockdir("loop8", "7:8", 0);
	put("mounts", "/dev/vda1 / ext4 rw,relatime 0 0\n"
		      "proc /proc proc rw 0 0\n"
		      "/dev/loop4p1 /mnt/my\\040disk ext4 rw 0 0\n");
	put("swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
		     "/dev/zram9                              partition\t8388604\t\t0\t\t100\n");
	/* Device nodes stand-ins for --destroy-data: a file and symlinks to it. */
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
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", F);
	return system(cmd) == 0 ? 0 : -1;
}

static void
load(struct guard_family *f, const char *name)
{
	char dev[80];
	snprintf(dev, sizeof dev, "/dev/%s", name);
	assert_int_equal(guard_family_load(f, SYS, name, dev), 0);
}

static void
t_family(void **s)
{
	struct guard_family f;
	load(&f, "loop4");
	assert_int_equal(f.n, 2);
	assert_string_equal(f.name[0], "loop4");
	assert_string_equal(f.name[1], "loop4p1");
	assert_true(f.devt[0] == makedev(7, 4));
	assert_true(f.devt[1] == makedev(259, 0));
	load(&f, "loop6");
	assert_int_equal(f.n, 3);
	load(&f, "loop4p1");	/* a partition alone */
	assert_int_equal(f.n, 1);
	assert_int_equal(guard_family_load(&f, SYS, "sdz", "/dev/sdz"), -ENOENT);
}

static void
t_mounts(void **s)
{
	struct guard_family f;
	char err[256] = "";
	load(&f, "loop4");
	assert_int_equal(guard_check_mounts(&f, MOUNTS, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop4p1 is mounted on /mnt/my disk");
	load(&f, "loop4p1");
	assert_int_equal(guard_check_mounts(&f, MOUNTS, err, sizeof err), -EPERM);
	load(&f, "loop5");
	assert_int_equal(guard_check_mounts(&f, MOUNTS, err, sizeof err), 0);
	/* Without the mounts table nothing is proven safe. */
	char missing[160];
	snprintf(missing, sizeof missing, "%s/nope", F);
	assert_int_equal(guard_check_mounts(&f, missing, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "refused: cannot read"));
	assert_non_null(strstr(err, "/dev/loop5"));
}

static void
t_holders(void **s)
{
	struct guard_family f;
	char err[256] = "";
	load(&f, "loop5");
	assert_int_equal(guard_check_holders(&f, SYS, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop5 is held by dm-0 (holders)");
	load(&f, "loop6");
	assert_int_equal(guard_check_holders(&f, SYS, err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop6p2, a partition of /dev/loop6, is held by md0 (holders)");
	load(&f, "loop4");
	assert_int_equal(guard_check_holders(&f, SYS, err, sizeof err), 0);
}

static void
t_swaps(void **s)
{
	struct guard_family f;
	char err[256] = "";
	load(&f, "zram9");
	assert_int_equal(guard_check_swaps(&f, SWAPS, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "refused: /dev/zram9 is in use as swap"));
	load(&f, "loop8");
	assert_int_equal(guard_check_swaps(&f, SWAPS, err, sizeof err), 0);
}

static void
t_root(void **s)
{
	struct guard_family f;
	char err[256] = "";
	char nomounts[160];
	snprintf(nomounts, sizeof nomounts, "%s/nope", F);
	/* By the st_dev of "/" (254:1 = vda1, a partition of vda). */
	load(&f, "vda");
	assert_int_equal(guard_check_root(&f, SYS, nomounts, makedev(254, 1), err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/vda holds / on its partition /dev/vda1 (the running system)");
	/* By the mounts table's "/" when st_dev says nothing (btrfs). */
	assert_int_equal(guard_check_root(&f, SYS, MOUNTS, 0, err, sizeof err), -EPERM);
	/* Through slaves/: / on an LV over loop7. */
	load(&f, "loop7");
	assert_int_equal(guard_check_root(&f, SYS, nomounts, makedev(253, 1), err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: /dev/loop7 holds / (the running system)");
	load(&f, "loop8");
	assert_int_equal(guard_check_root(&f, SYS, MOUNTS, makedev(254, 1), err, sizeof err), 0);
}

static void
t_confirm(void **s)
{
	char dev[160], link[200], other[160], bad[160], err[512] = "", want[512];
	snprintf(dev, sizeof dev, "%s/loop4", DEV);
	snprintf(link, sizeof link, "%s/disk/by-id/usb-Test_Disk", DEV);
	snprintf(other, sizeof other, "%s/loop5", DEV);
	snprintf(bad, sizeof bad, "%s/loop9", DEV);

	assert_int_equal(guard_check_confirm(dev, NULL, err, sizeof err), -EPERM);
	snprintf(want, sizeof want, "refused: writing %s needs --destroy-data=%s", dev, dev);
	assert_string_equal(err, want);
	assert_int_equal(guard_check_confirm(dev, "", err, sizeof err), -EPERM);
	assert_int_equal(guard_check_confirm(dev, dev, err, sizeof err), 0);
	assert_int_equal(guard_check_confirm(dev, link, err, sizeof err), 0);	/* via symlink */
	assert_int_equal(guard_check_confirm(link, dev, err, sizeof err), 0);
	assert_int_equal(guard_check_confirm(dev, other, err, sizeof err), -EPERM);
	snprintf(want, sizeof want, "refused: --destroy-data=%s does not name %s", other, dev);
	assert_string_equal(err, want);
	assert_int_equal(guard_check_confirm(dev, bad, err, sizeof err), -EPERM);
	/* "X" means /dev/X. */
	assert_int_equal(guard_check_confirm("/dev/null", "null", err, sizeof err), 0);
	assert_int_equal(guard_check_confirm("/dev/null", "zero", err, sizeof err), -EPERM);
	assert_string_equal(err, "refused: --destroy-data=zero does not name /dev/null");
}

static void
t_write_open_not_block(void **s)
{
	char dev[160], err[256] = "";
	int fd = 123;
	snprintf(dev, sizeof dev, "%s/loop4", DEV);
	assert_int_equal(guard_write_open(dev, dev, NULL, &fd, err, sizeof err), -ENOTBLK);
	assert_int_equal(fd, -1);
	assert_non_null(strstr(err, "not a block device"));
	assert_int_equal(guard_precheck(dev, NULL, err, sizeof err), -ENOTBLK);
	/* The root disk fails the precheck too (nothing is opened). */
	struct stat st;
	char p[64], real[PATH_MAX];
	if (stat("/", &st) == 0 &&
	    snprintf(p, sizeof p, "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev)) > 0 &&
	    realpath(p, real)) {
		char devn[80];
		snprintf(devn, sizeof devn, "/dev/%s", strrchr(real, '/') + 1);
		if (access(devn, F_OK) == 0)
			assert_int_equal(guard_precheck(devn, NULL, err, sizeof err), -EPERM);
	}
}

/* The real system: the disk under "/" is refused by the root rule alone (a
 * pure check: nothing is opened for writing). */
static void
t_real_root(void **s)
{
	struct stat st;
	char p[PATH_MAX + 16], real[PATH_MAX], disk[64], err[256] = "";
	struct guard_family f;

	if (stat("/", &st) < 0)
		skip();
	snprintf(p, sizeof p, "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (!realpath(p, real))
		skip();	/* / is not on a block device (overlay, btrfs subvolume) */
	/* The whole disk: the partition's parent directory, else itself. */
	snprintf(p, sizeof p, "%s/partition", real);
	if (access(p, F_OK) == 0)
		*strrchr(real, '/') = '\0';
	strtrimcpy(disk, sizeof disk, strrchr(real, '/') + 1);
	snprintf(p, sizeof p, "/dev/%s", disk);
	assert_int_equal(guard_family_load(&f, "/sys", disk, p), 0);
	assert_int_equal(guard_check_root(&f, "/sys", "/proc/self/mounts", st.st_dev, err, sizeof err),
			 -EPERM);
	assert_non_null(strstr(err, "holds /"));
	assert_non_null(strstr(err, p));
	print_message("%s\n", err);
}

/* Driver for tests/sys/guard.sh when `diskscope run` is not available:
 * open DEV for writing through target_open (the guard), and when allowed,
 * write one 4 KiB block at offset 0.  Exit 3 refused, 2 other error, 0 ok. */
static int
try_write(const char *dev, const char *confirm)
{
	struct target t;
	struct target_opts o = { .write = true, .destroy_data = confirm };
	char err[512];
	void *buf;
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
		return try_write(argv[2], argc > 3 ? argv[3] : NULL);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_family),
		cmocka_unit_test(t_mounts),
		cmocka_unit_test(t_holders),
		cmocka_unit_test(t_swaps),
		cmocka_unit_test(t_root),
		cmocka_unit_test(t_confirm),
		cmocka_unit_test(t_write_open_not_block),
		cmocka_unit_test(t_real_root),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
