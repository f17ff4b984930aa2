/* test_selftest.c - the SMART self-test log (inventory/ata-selftest.h) on
 * fabricated 512-byte logs laid out byte by byte as ATA8-ACS keeps them:
 * newest first from the index, a wrapped log, the failing LBA only for a
 * failed test, checksum and index refused, entries new since a snapshot
 * (a test running then and finished now is not new), and the encoder the
 * sim uses read back by the parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include "inventory/ata-selftest.h"

/* descriptor i (0-based): type, status nibble, percent-left nibble, hours,
 * checkpoint, LBA, by hand */
static void
desc(uint8_t *log, int i, uint8_t type, uint8_t st, uint8_t left10, uint16_t hours, uint32_t lba)
{
	uint8_t *d = log + 2 + 24 * i;
	d[0] = type;
	d[1] = (uint8_t)(st << 4 | left10);
	d[2] = hours & 0xff;
	d[3] = hours >> 8;
	d[4] = 0;
	d[5] = lba & 0xff;
	d[6] = (lba >> 8) & 0xff;
	d[7] = (lba >> 16) & 0xff;
	d[8] = lba >> 24;
	memset(d + 9, 0xA5, 15);	/* vendor bytes: ignored */
}

static void
seal(uint8_t *log, uint8_t index)
{
	log[0] = 1;
	log[508] = index;
	uint8_t s = 0;
	for (int i = 0; i < 511; i++)
		s = (uint8_t)(s + log[i]);
	log[511] = (uint8_t)-s;
}

static void
test_parse(void **state)
{
	uint8_t log[512] = { 0 };
	char why[160];
	struct ata_selftest_log l;
	desc(log, 0, 1, 0, 0, 100, 0xffffffff);		/* short, ok */
	desc(log, 1, 2, 7, 9, 250, 123456789);		/* extended, read failure, 90 % left */
	desc(log, 2, 0x81, 1, 0, 300, 0xffffffff);	/* short captive, aborted */
	seal(log, 3);
	assert_int_equal(ata_selftest_parse(log, &l, why, sizeof why), 0);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.e[0].hours, 300);		/* newest first */
	assert_int_equal(l.e[0].status, 1);
	assert_false(l.e[0].lba_known);
	assert_string_equal(ata_selftest_type_name(l.e[0].type), "short (captive)");
	assert_int_equal(l.e[1].status, 7);
	assert_true(ata_selftest_failed(&l.e[1]));
	assert_true(l.e[1].lba_known);
	assert_int_equal(l.e[1].lba, 123456789);
	assert_int_equal(l.e[1].remaining, 90);
	assert_string_equal(ata_selftest_status_name(l.e[1].status), "completed: read failure");
	assert_int_equal(l.e[2].hours, 100);
	assert_false(ata_selftest_failed(&l.e[2]));

	/* a full, wrapped log: the newest is descriptor 2 (index 3), then 1, 0, 20 ... 3 */
	for (int i = 0; i < 21; i++)
		desc(log, i, 1, 0, 0, (uint16_t)(i < 3 ? 1000 + i : 900 + i), 0xffffffff);
	seal(log, 3);
	assert_int_equal(ata_selftest_parse(log, &l, why, sizeof why), 0);
	assert_int_equal(l.n, 21);
	assert_int_equal(l.e[0].hours, 1002);
	assert_int_equal(l.e[2].hours, 1000);
	assert_int_equal(l.e[3].hours, 920);
	assert_int_equal(l.e[20].hours, 903);

	/* refused: a checksum off by one, an index past 21 */
	log[100] ^= 1;
	assert_int_equal(ata_selftest_parse(log, &l, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "checksum"));
	log[100] ^= 1;
	seal(log, 22);
	assert_int_equal(ata_selftest_parse(log, &l, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "index 22"));
	/* empty: index 0 */
	memset(log, 0, sizeof log);
	seal(log, 0);
	assert_int_equal(ata_selftest_parse(log, &l, why, sizeof why), 0);
	assert_int_equal(l.n, 0);
}

static void
test_new_and_build(void **state)
{
	struct ata_selftest e[3] = {
		{ .type = 2, .status = 7, .hours = 7871, .lba = 781250123 },	/* newest */
		{ .type = 1, .status = 0, .hours = 7000, .lba = 0 },
		{ .type = 1, .status = 0, .hours = 6000 },
	};
	uint8_t log[512];
	char why[160];
	struct ata_selftest_log before, after;
	ata_selftest_build(e + 1, 2, log);
	assert_int_equal(ata_selftest_parse(log, &before, why, sizeof why), 0);
	ata_selftest_build(e, 3, log);
	assert_int_equal(ata_selftest_parse(log, &after, why, sizeof why), 0);
	assert_int_equal(after.n, 3);
	assert_true(after.e[0].lba_known);
	assert_int_equal(after.e[0].lba, 781250123);
	assert_false(after.e[1].lba_known);	/* a passed test has no failing LBA */
	assert_int_equal(ata_selftest_new(&before, &after), 1);
	assert_int_equal(ata_selftest_new(&after, &after), 0);
	struct ata_selftest_log empty = { 0 };
	assert_int_equal(ata_selftest_new(&empty, &after), 3);
	/* running at the first snapshot (status 15), failed by the second: the
	 * same test, not a new one */
	struct ata_selftest run = { .type = 2, .status = 15, .remaining = 40, .hours = 7871 };
	ata_selftest_build(&run, 1, log);
	assert_int_equal(ata_selftest_parse(log, &before, why, sizeof why), 0);
	assert_int_equal(before.e[0].remaining, 40);
	ata_selftest_build(e, 1, log);
	assert_int_equal(ata_selftest_parse(log, &after, why, sizeof why), 0);
	assert_int_equal(ata_selftest_new(&before, &after), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_new_and_build),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
