/* test_wear - one wear figure per drive (inventory/wear.c): NVMe's
 * percentage used and data units written, a SATA SSD's SMART 231 / 233 /
 * 177 normalized values (in that order of preference) and 241, and the
 * reasons when there is none.  Hand-set values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "inventory/inventory.h"
#include "inventory/wear.h"

static struct smart_attr
attr(uint8_t id, uint64_t value, uint64_t raw)
{
	struct smart_attr a;
	memset(&a, 0, sizeof a);
	a.id = id;
	KNOWN_SET(a.value, value);
	a.raw = raw;
	return a;
}

static void
test_nvme(void **state)
{
	(void)state;
	struct nvme_health h;
	struct drive_wear w;
	char t[200];
	memset(&h, 0, sizeof h);
	snprintf(h.reason, sizeof h.reason, "health log: NVMe status 0x2");
	wear_from_nvme(&h, &w);
	assert_false(w.percent_used.known);
	assert_string_equal(wear_text(&w, t, sizeof t), "unknown (health log: NVMe status 0x2)");
	h.known = true;
	KNOWN_SET(h.percent_used, 37);
	KNOWN_SET(h.data_units_written, 24000000);	/* x 512000 = 12.288 TB */
	wear_from_nvme(&h, &w);
	assert_true(w.percent_used.known);
	assert_int_equal(w.percent_used.v, 37);
	assert_int_equal(w.bytes_written.v, 24000000ULL * 512000);
	assert_string_equal(wear_text(&w, t, sizeof t), "37% used (NVMe percentage used), 12.3 TB written");
	KNOWN_SET(h.data_units_written, UINT64_MAX / 1000);	/* past 64 bits in bytes: unknown */
	wear_from_nvme(&h, &w);
	assert_false(w.bytes_written.known);
}

static void
test_smart(void **state)
{
	(void)state;
	struct drive_wear w;
	char t[200];
	struct smart_attr a[4] = { attr(5, 100, 0), attr(177, 93, 120), attr(233, 80, 0),
				   attr(241, 99, 2000000000) };
	wear_from_smart(a, 4, true, &w);
	assert_int_equal(w.percent_used.v, 20);		/* 233 before 177 */
	assert_string_equal(w.source, "SMART 233 media wearout indicator");
	assert_int_equal(w.bytes_written.v, 2000000000ULL * 512);
	assert_string_equal(wear_text(&w, t, sizeof t),
			    "20% used (SMART 233 media wearout indicator), 1.0 TB written");
	a[2] = attr(231, 64, 0);			/* 231 first of all */
	wear_from_smart(a, 4, true, &w);
	assert_int_equal(w.percent_used.v, 36);
	a[2] = attr(9, 99, 0);
	wear_from_smart(a, 4, true, &w);
	assert_int_equal(w.percent_used.v, 7);		/* 177 alone */
	wear_from_smart(a, 1, true, &w);
	assert_false(w.percent_used.known);
	assert_string_equal(w.reason, "no SMART wear attribute (177, 231, 233)");
	wear_from_smart(a, 4, false, &w);		/* a disk: no wear */
	assert_false(w.percent_used.known);
	assert_false(w.bytes_written.known);
	assert_string_equal(wear_text(&w, t, sizeof t), "unknown (not an SSD)");
	a[1] = attr(177, 253, 0);			/* not a percentage: skipped */
	wear_from_smart(a, 2, true, &w);
	assert_false(w.percent_used.known);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvme),
		cmocka_unit_test(test_smart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
