/* test_ata_hostile.c - IDENTIFY records that must not decode as a drive
 * (issue 10): a word-255 checksum that does not match, all 0xFF (nothing
 * answered), crafted sizes and capacities (no negative JSON, no
 * "18446744.07 TB"); and the record without word 106 (issue 9 item 7):
 * 512/512, marked "ata-default". */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inventory/ata.h"
#include "inventory/inventory.h"
#include "ata_words.h"

/* The synthetic page as a blob: IDFY only. */
static int
blob_decode(struct ata_info *a)
{
	void *blob;
	size_t len;
	words_to_bytes();
	assert_int_equal(ata_blob_build(idbytes, (struct known_bool){ 0 }, NULL, NULL, &blob, &len), 0);
	int rc = ata_from_blob(blob, len, a);
	free(blob);
	return rc;
}

static void
sign(void)
{
	unsigned sum = 0;
	w[255] = 0x00A5;
	words_to_bytes();
	for (int i = 0; i < 511; i++)
		sum += idbytes[i];
	w[255] = (uint16_t)(0x00A5 | ((0x100 - (sum & 0xFF)) & 0xFF) << 8);
}

static void
test_checksum(void **state)
{
	(void)state;
	struct ata_info a;
	sign();
	assert_int_equal(blob_decode(&a), 0);		/* a correct checksum decodes */
	assert_int_equal(a.state, ATA_OK);
	ata_info_free(&a);
	w[100] ^= 1;					/* one bit flipped in transit */
	assert_int_equal(blob_decode(&a), -EINVAL);
	assert_int_not_equal(a.state, ATA_OK);
	printf("%s\n", a.reason);
	assert_non_null(strstr(a.reason, "checksum (word 255) does not match"));
	ata_info_free(&a);
	/* no signature: nothing to check (older drives) */
	w[255] = 0x1234;
	assert_int_equal(blob_decode(&a), 0);
	ata_info_free(&a);
}

static void
test_all_ff(void **state)
{
	(void)state;
	struct ata_info a;
	memset(w, 0xFF, sizeof w);
	assert_int_equal(blob_decode(&a), -EINVAL);
	assert_non_null(strstr(a.reason, "all 0xFF"));
	assert_false(a.id.capacity_bytes.known);
	assert_false(a.id.trim.known);
	ata_info_free(&a);
	/* the decoder alone (a caller that skips the check) still claims nothing */
	struct ata_identify id;
	ata_identify_decode(w, &id);
	assert_false(id.capacity_bytes.known);
	assert_false(id.trim.known);
	assert_false(id.zoned.known);
}

static void
test_crafted_capacity(void **state)
{
	(void)state;
	struct ata_identify id;
	/* 2^64-1 sectors */
	w[100] = w[101] = w[102] = w[103] = 0xFFFF;
	ata_identify_decode(w, &id);
	assert_false(id.sectors.known);
	assert_false(id.capacity_bytes.known);
	/* just under the LBA48 limit, with a huge long-logical size */
	setup_words(NULL);
	w[100] = w[101] = w[102] = 0xFFFF;
	w[106] = 0x4000 | (1u << 12);
	w[117] = 0xFFFF;
	w[118] = 0x7FFF;
	ata_identify_decode(w, &id);
	assert_true(id.sector_size_reported);
	assert_false(id.logical.known);			/* 4 GiB sectors: no */
	assert_false(id.capacity_bytes.known);
	/* plausible sizes, implausible product */
	setup_words(NULL);
	w[100] = w[101] = w[102] = 0xFFFF;		/* 2^48-1 sectors */
	w[106] = 0x4000 | (1u << 12);
	w[117] = 0x8000;				/* 64 KiB logical */
	ata_identify_decode(w, &id);
	assert_true(id.logical.known);
	assert_int_equal(id.logical.v, 65536);
	assert_true(id.sectors.known);
	assert_false(id.capacity_bytes.known);		/* 2^64: past ATA_MAX_BYTES */
	/* a non-power-of-two logical size */
	setup_words(NULL);
	w[106] = 0x4000 | (1u << 12);
	w[117] = 300;
	ata_identify_decode(w, &id);
	assert_false(id.logical.known);
	assert_false(id.capacity_bytes.known);
	/* LBA28 words beyond 28 bits */
	setup_words(NULL);
	w[83] = 0;
	w[60] = w[61] = 0xFFFF;
	ata_identify_decode(w, &id);
	assert_false(id.capacity_bytes.known);
}

/* Issue 9 item 7: no valid word 106 -> 512/512, "ata-default". */
static void
test_no_word106_default(void **state)
{
	(void)state;
	struct drive d;
	memset(&d, 0, sizeof d);
	w[106] = 0;
	d.ata.state = ATA_OK;
	ata_identify_decode(w, &d.ata.id);
	ata_apply_identify(&d);
	assert_false(d.ata.id.sector_size_reported);
	assert_true(d.logical.known && d.physical.known);
	assert_int_equal(d.logical.v, 512);
	assert_int_equal(d.physical.v, 512);
	assert_string_equal(d.sector_source, "ata-default");
	/* what the kernel saw through a 4K bridge is kept */
	memset(&d, 0, sizeof d);
	d.ata.state = ATA_OK;
	ata_identify_decode(w, &d.ata.id);
	KNOWN_SET(d.logical, 4096);
	KNOWN_SET(d.physical, 4096);
	snprintf(d.sector_source, sizeof d.sector_source, "sysfs");
	ata_apply_identify(&d);
	assert_int_equal(d.logical.v, 4096);
	assert_string_equal(d.sector_source, "sysfs");
}

#define T(f) cmocka_unit_test_setup(f, setup_words)
int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_checksum), T(test_all_ff), T(test_crafted_capacity),
		T(test_no_word106_default),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
