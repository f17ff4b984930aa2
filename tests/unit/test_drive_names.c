/* test_drive_names.c - a drive is found by every name `list` shows (kernel
 * name, path, serial, WWN in its spellings, a /dev/disk link, a sim name),
 * a name two drives share finds none; TRIM has one answer for every view;
 * the root disk and a drive that cannot be opened are not testable. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "inventory/inventory.h"

static struct drive *
add(struct inventory *inv, const char *name, const char *path, const char *serial, const char *wwn)
{
	struct drive *d = inventory_add_drive(inv);
	snprintf(d->name, sizeof d->name, "%s", name);
	snprintf(d->path, sizeof d->path, "%s", path);
	snprintf(d->serial, sizeof d->serial, "%s", serial);
	snprintf(d->id, sizeof d->id, "%s", serial[0] ? serial : name);
	snprintf(d->wwn, sizeof d->wwn, "%s", wwn);
	return d;
}

static void
test_names(void **state)
{
	struct inventory inv = { 0 };
	char link[64];
	(void)state;
	add(&inv, "sda", "/dev/sda", "WD-WCC4M1234567", "naa.50014ee2b5a1c0de");
	add(&inv, "sdb", "/dev/sdb", "Z1E00042", "0x5000c500a1b2c3d4");
	add(&inv, "sim0", "sim:sim0", "WD-WCC4ESIM0000", "");
	add(&inv, "null", "/dev/null", "", "");
	add(&inv, "sdc", "/dev/sdc", "TWIN", "");
	add(&inv, "sdd", "/dev/sdd", "TWIN", "");

	assert_string_equal(inventory_match_drive(&inv, "sda")->name, "sda");
	assert_string_equal(inventory_match_drive(&inv, "/dev/sdb")->name, "sdb");
	assert_string_equal(inventory_match_drive(&inv, "WD-WCC4M1234567")->name, "sda");
	assert_string_equal(inventory_match_drive(&inv, "50014ee2b5a1c0de")->name, "sda");
	assert_string_equal(inventory_match_drive(&inv, "0x50014EE2B5A1C0DE")->name, "sda");
	assert_string_equal(inventory_match_drive(&inv, "wwn-0x5000c500a1b2c3d4")->name, "sdb");
	assert_string_equal(inventory_match_drive(&inv, "naa.5000c500a1b2c3d4")->name, "sdb");
	assert_string_equal(inventory_match_drive(&inv, "sim0")->name, "sim0");
	assert_string_equal(inventory_match_drive(&inv, "sim:sim0")->name, "sim0");
	assert_string_equal(inventory_match_drive(&inv, "WD-WCC4ESIM0000")->name, "sim0");
	/* a by-id style link resolves to the node it names */
	snprintf(link, sizeof link, "/tmp/ds-by-id-%d", (int)getpid());
	unlink(link);
	assert_int_equal(symlink("/dev/null", link), 0);
	struct drive *d = inventory_match_drive(&inv, link);
	unlink(link);
	assert_non_null(d);
	assert_string_equal(d->name, "null");
	/* never guess */
	assert_null(inventory_match_drive(&inv, "TWIN"));
	assert_null(inventory_match_drive(&inv, "nosuch"));
	assert_null(inventory_match_drive(&inv, ""));
	assert_null(inventory_match_drive(&inv, "WD-WCC4M"));	/* no prefixes */
	inventory_free(&inv);
}

static void
test_trim_one_answer(void **state)
{
	struct drive d;
	const char *src;
	(void)state;
	memset(&d, 0, sizeof d);
	assert_false(drive_trim(&d, &src).known);		/* nothing said: unknown */
	assert_null(src);
	KNOWN_SET(d.discard_granularity, 4096);			/* a loop device */
	struct known_u64 t = drive_trim(&d, &src);
	assert_true(t.known && t.v == 1);
	assert_string_equal(src, "sysfs");
	KNOWN_SET(d.discard_granularity, 0);
	t = drive_trim(&d, NULL);
	assert_true(t.known && t.v == 0);
	/* a stale IDENTIFY bit without an answer does not count */
	KNOWN_SET(d.ata.id.trim, 1);
	d.ata.state = ATA_FAILED;
	assert_int_equal(drive_trim(&d, NULL).v, 0);
	d.ata.state = ATA_OK;				/* the drive's own word 169 wins */
	t = drive_trim(&d, &src);
	assert_true(t.known && t.v == 1);
	assert_string_equal(src, "identify");
}

static void
test_testable(void **state)
{
	struct drive d;
	const char *why;
	(void)state;
	memset(&d, 0, sizeof d);
	assert_true(drive_testable(&d, &why));		/* unchecked (fixture) is fine */
	assert_null(why);
	strlist_add(&d.mounts, "vda1 /boot");
	assert_true(drive_testable(&d, NULL));
	strlist_add(&d.mounts, "vda2 /");
	assert_false(drive_testable(&d, &why));
	assert_string_equal(why, "holds /");
	strlist_free(&d.mounts);
	d.access = ACC_DENIED;
	assert_false(drive_testable(&d, &why));
	assert_string_equal(why, "cannot be opened");
	d.access = ACC_OK;
	assert_true(drive_testable(&d, NULL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_trim_one_answer),
		cmocka_unit_test(test_testable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
