/* test_facts.c - a target's device facts (inventory/facts.h) over a fixture
 * sysfs tree: a partition's facts are its own (capacity, alignment offset)
 * and its disk's (sector sizes, rotation, model); unknown stays unknown; the
 * shared mountinfo and VPD readers; the one sim: predicate; and a sim
 * drive's facts, whose model answers SMART and identity through the same
 * source interface as the inventory of a real drive. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "inventory/ata-selftest.h"
#include "inventory/facts.h"
#include "inventory/inventory.h"
#include "io/target.h"
#include "sim/sim.h"
#include "test_top.h"
#include "util/util.h"

static char F[64], MI[128];

static void
sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static int
setup(void **st)
{
	(void)st;
	snprintf(F, sizeof F, "/tmp/ds-facts-XXXXXX");
	assert_non_null(mkdtemp(F));
	const char *d = "devices/pci0000:00/ata1/host0/block/sdx";
	sh("mkdir -p %s/%s/sdx1 %s/%s/queue %s/%s/device %s/%s/holders %s/%s/sdx1/holders/dm-0 %s/dev/block",
	   F, d, F, d, F, d, F, d, F, d, F);
	sh("cd %s/%s && echo 3907029168 > size && echo 4096 > queue/logical_block_size && "
	   "echo 4096 > queue/physical_block_size && echo 1 > queue/rotational && "
	   "echo 'WDC WD20EFRX' > device/model && echo 0 > alignment_offset", F, d);
	sh("cd %s/%s/sdx1 && echo 1 > partition && echo 2048 > size && echo -1 > alignment_offset", F, d);
	/* the unit serial VPD page: header, then the ASCII serial */
	sh("printf '\\000\\200\\000\\010  WD-123' > %s/%s/device/vpd_pg80", F, d);
	sh("echo 8:96 > %s/%s/dev && echo 8:97 > %s/%s/sdx1/dev", F, d, F, d);
	/* the partition is mounted, the disk itself is not */
	snprintf(MI, sizeof MI, "%s/mountinfo", F);
	sh("echo '36 35 8:97 / /mnt/x rw shared:1 - ext4 /dev/sdx1 rw' > %s", MI);
	sh("ln -s ../../%s %s/dev/block/8:96 && ln -s ../../%s/sdx1 %s/dev/block/8:97", d, F, d, F);
	return 0;
}

static int
teardown(void **st)
{
	(void)st;
	sh("rm -rf '%s'", F);
	return 0;
}

static void
t_partition(void **st)
{
	(void)st;
	struct dev_facts f;
	assert_int_equal(dev_facts_block(&f, makedev(8, 97), F, MI), 0);
	assert_int_equal(f.kind, DEV_PARTITION);
	assert_string_equal(f.name, "sdx1");
	assert_string_equal(f.disk, "sdx");
	assert_true(f.capacity.known);
	assert_int_equal(f.capacity.v, 2048ull * 512);
	/* a partition's queue is its disk's */
	assert_true(f.logical.known);
	assert_int_equal(f.logical.v, 4096);
	assert_int_equal(f.physical.v, 4096);
	assert_string_equal(f.sector_source, "sysfs");
	assert_true(f.alignment_offset.known);
	assert_int_equal(f.alignment_offset.v, -1);	/* the kernel's "misaligned": a value */
	assert_true(f.rotational.known && f.rotational.v);
	assert_true(f.holders.known);
	assert_int_equal(f.holders.v, 1);
	assert_string_equal(f.model, "WDC WD20EFRX");
	assert_false(f.simulated);
	assert_ptr_equal(f.source, &dev_source_inventory);
	assert_true(dev_facts_is_block(&f));
	assert_true(f.mounted.known && f.mounted.v);

	assert_int_equal(dev_facts_block(&f, makedev(8, 96), F, MI), 0);
	assert_int_equal(f.kind, DEV_DISK);
	assert_int_equal(f.capacity.v, 3907029168ull * 512);
	assert_int_equal(f.holders.v, 0);
	assert_true(f.mounted.known && f.mounted.v);	/* through its partition */
	/* a mountinfo that names neither */
	sh("echo '36 35 8:1 / / rw shared:1 - ext4 /dev/vda1 rw' > %s", MI);
	assert_int_equal(dev_facts_block(&f, makedev(8, 96), F, MI), 0);
	assert_true(f.mounted.known);
	assert_false(f.mounted.v);
	assert_int_equal(dev_facts_block(&f, makedev(8, 96), F, "-"), 0);
	assert_false(f.mounted.known);
}

static void
t_unknown(void **st)
{
	(void)st;
	struct dev_facts f;
	/* no sysfs entry: nothing known, and nothing said to be 0 */
	assert_int_equal(dev_facts_block(&f, makedev(8, 200), F, "-"), 0);
	assert_true(f.devt.known);
	assert_false(f.logical.known);
	assert_false(f.physical.known);
	assert_false(f.capacity.known);
	assert_false(f.rotational.known);
	assert_false(f.holders.known);
	assert_false(f.mounted.known);
	assert_string_equal(f.sysdir, "");
	char dir[PATH_MAX];
	assert_int_equal(sysfs_devt_dir(F, makedev(8, 200), dir, sizeof dir), -ENOENT);
	assert_int_equal(sysfs_devt_dir(F, makedev(8, 96), dir, sizeof dir), 0);
	assert_non_null(strstr(dir, "/block/sdx"));
}

static void
t_readers(void **st)
{
	(void)st;
	char dir[PATH_MAX], serial[64];
	assert_int_equal(sysfs_devt_dir(F, makedev(8, 96), dir, sizeof dir), 0);
	sysfs_vpd80(dir, serial, sizeof serial);
	assert_string_equal(serial, "  WD-123");	/* untrimmed: each caller trims as it must */
	struct known_u64 l, p;
	int rc[2];
	sysfs_sector_sizes(dir, &l, &p, rc);
	assert_int_equal(rc[0], 0);
	assert_int_equal(l.v, 4096);
	sysfs_sector_sizes(F, &l, &p, rc);
	assert_int_equal(rc[0], -ENOENT);
	assert_false(l.known);

	char line[] = "36 35 8:97 / /mnt/a\\040b rw,relatime shared:1 - ext4 /dev/sdx1 rw\n";
	struct mount_line m;
	assert_true(mountinfo_parse(line, &m));
	assert_int_equal(m.devt, makedev(8, 97));
	assert_string_equal(m.mnt, "/mnt/a b");
	assert_string_equal(m.fstype, "ext4");
	assert_string_equal(m.src, "/dev/sdx1");
	char bad[] = "36 35 8:97 / /mnt rw\n";
	assert_false(mountinfo_parse(bad, &m));
}

static void
t_sim_spec(void **st)
{
	(void)st;
	const char *rest;
	assert_true(dev_spec_simulated("sim:WD20EFAX", &rest));
	assert_string_equal(rest, "WD20EFAX");
	assert_false(dev_spec_simulated("/dev/sim", &rest));
	assert_string_equal(rest, "/dev/sim");
	assert_false(dev_spec_simulated("sim", NULL));
	assert_false(dev_spec_simulated(NULL, NULL));
}

/* SMART after a test's I/O, as the model says: 8 sectors pending that were
 * not before, in the field and in attribute 197 alike. */
static void
t_sim_after(void **st)
{
	(void)st;
	char err[256], top[512], path[700];
	assert_int_equal(test_top(top, sizeof(top)), 0);
	snprintf(path, sizeof(path), "%s/tests/fixtures/sim/WD40EZRX-GROWING.drive", top);
	const char *files[] = { path };
	if (sim_load_models(files, 1, err, sizeof(err)))
		fail_msg("%s", err);
	struct target t;
	assert_int_equal(target_open(&t, "sim:WD40EZRX-GROWING", NULL, err, sizeof err), 0);
	struct inventory inv = { 0 };
	struct drive *d = NULL;
	assert_int_equal(t.facts.source->drive(&t.facts, t.path, &inv, &d), 0);
	struct smart_info *s = &d->ata.smart;
	assert_true(s->pending.known);
	assert_int_equal(s->pending.v, 0);
	t.facts.source->smart_after(&t.facts, s);
	assert_int_equal(s->pending.v, 8);
	bool seen = false;
	for (size_t a = 0; a < s->n_attrs; a++)
		if (s->attrs[a].id == 197) {
			assert_int_equal(s->attrs[a].raw, 8);
			seen = true;
		}
	assert_true(seen);
	inventory_free(&inv);
	target_close(&t);
}

/* A sim drive's facts, and its model through the source interface. */
static void
t_sim_source(void **st)
{
	(void)st;
	struct target t;
	char err[256];
	assert_int_equal(target_open(&t, "sim:FLAWED250", NULL, err, sizeof err), 0);
	const struct dev_facts *f = &t.facts;
	assert_true(f->simulated);
	assert_int_equal(f->kind, DEV_SIM);
	assert_true(f->capacity.known);
	assert_int_equal(f->capacity.v, t.size);
	assert_int_equal(f->logical.v, 512);
	assert_false(dev_facts_is_block(f));
	assert_non_null(f->source);
	assert_ptr_not_equal(f->source, &dev_source_inventory);

	struct inventory inv = { 0 };
	struct drive *d = NULL;
	assert_int_equal(f->source->drive(f, t.path, &inv, &d), 0);
	assert_non_null(d);
	assert_true(d->ata.smart.known);
	assert_non_null(f->source->smart_after);
	inventory_free(&inv);

	uint8_t log[ATA_SELFTEST_SIZE];
	char why[128] = "";
	assert_int_equal(f->source->selftest_log(f, t.path, false, true, log, why, sizeof why), 0);
	struct ata_selftest_log sl;
	assert_int_equal(ata_selftest_parse(log, &sl, why, sizeof why), 0);

	/* by name, without opening: the same facts */
	struct dev_facts g;
	assert_int_equal(target_facts("sim:FLAWED250", NULL, &g, err, sizeof err), 0);
	assert_true(g.simulated);
	assert_int_equal(g.capacity.v, f->capacity.v);
	target_close(&t);
	assert_int_equal(target_facts("sim:NO-SUCH-MODEL", NULL, &g, err, sizeof err), -ENOENT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_partition),
		cmocka_unit_test(t_unknown),
		cmocka_unit_test(t_readers),
		cmocka_unit_test(t_sim_spec),
		cmocka_unit_test(t_sim_source),
		cmocka_unit_test(t_sim_after),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
