/* test_ata_sense.c - SCSI sense parsing for ATA PASS-THROUGH: fixed format
 * (0x70/0x71, what current kernels send), descriptor format (0x72/0x73 with
 * the ATA Status Return descriptor, what libatasmart expects), and junk. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include "inventory/ata.h"

/* SMART RETURN STATUS, drive healthy: LBA mid/high = 4F/C2, status 0x50. */
static void
test_fixed_format_good_status(void **state)
{
	(void)state;
	const uint8_t s[18] = { 0xF0, 0, 0x01, 0x00, 0x50, 0x40, 0x00, 0x0A,
				0x00, 0x00, 0x4F, 0xC2, 0x00, 0x1D, 0, 0, 0, 0 };
	struct ata_regs r;
	uint8_t k, a, q;
	assert_int_equal(ata_sense_parse(s, sizeof s, &r, &k, &a, &q), 0);
	assert_int_equal(k, 0x01);	/* RECOVERED ERROR */
	assert_int_equal(a, 0x00);
	assert_int_equal(q, 0x1D);
	assert_int_equal(r.status, 0x50);
	assert_int_equal(r.device, 0x40);
	assert_int_equal(r.lba_mid, 0x4F);
	assert_int_equal(r.lba_high, 0xC2);
	assert_false(r.extend);
}

/* Fixed format, deferred (0x71), failing drive: F4/2C, EXTEND set. */
static void
test_fixed_format_deferred_bad_status(void **state)
{
	(void)state;
	const uint8_t s[18] = { 0x71, 0, 0x01, 0x00, 0x51, 0x00, 0x01, 0x0A,
				0x80, 0x07, 0xF4, 0x2C, 0x00, 0x1D, 0, 0, 0, 0 };
	struct ata_regs r;
	uint8_t k, a, q;
	assert_int_equal(ata_sense_parse(s, sizeof s, &r, &k, &a, &q), 0);
	assert_int_equal(r.status, 0x51);
	assert_int_equal(r.count, 0x01);
	assert_int_equal(r.lba_low, 0x07);
	assert_int_equal(r.lba_mid, 0xF4);
	assert_int_equal(r.lba_high, 0x2C);
	assert_true(r.extend);
}

/* The layout Linux 4.7-6.9 produced (fields at descriptor offsets, VALID clear). */
static void
test_fixed_format_old_linux_layout(void **state)
{
	(void)state;
	uint8_t s[32] = { 0x70, 0, 0x01, 0, 0, 0, 0, 0x0A,
			  0x00, 0x50, 0x40, 0x00, 0x00, 0x1D };
	s[17] = 0x00;
	s[18] = 0x4F;
	s[19] = 0xC2;
	struct ata_regs r;
	uint8_t k, a, q;
	assert_int_equal(ata_sense_parse(s, 20, &r, &k, &a, &q), 0);
	assert_int_equal(r.status, 0x50);
	assert_int_equal(r.lba_mid, 0x4F);
	assert_int_equal(r.lba_high, 0xC2);
	/* only 18 bytes came back: the registers are not all there, and we do
	 * not invent them (status 0, no 4F/C2: a caller sees "unknown") */
	assert_int_equal(ata_sense_parse(s, 18, &r, &k, &a, &q), 0);
	assert_int_not_equal(r.lba_mid, 0x4F);
}

/* Descriptor format with the ATA Status Return descriptor (0x09, len 0x0C). */
static void
test_descriptor_format(void **state)
{
	(void)state;
	const uint8_t s[22] = { 0x72, 0x01, 0x00, 0x1D, 0, 0, 0, 0x0E,
				0x09, 0x0C, 0x00, 0x04, 0x00, 0x01, 0x00, 0x11,
				0x00, 0x4F, 0x00, 0xC2, 0xA0, 0x50 };
	struct ata_regs r;
	uint8_t k, a, q;
	assert_int_equal(ata_sense_parse(s, sizeof s, &r, &k, &a, &q), 0);
	assert_int_equal(k, 0x01);
	assert_int_equal(q, 0x1D);
	assert_int_equal(r.error, 0x04);
	assert_int_equal(r.count, 0x01);
	assert_int_equal(r.lba_low, 0x11);
	assert_int_equal(r.lba_mid, 0x4F);
	assert_int_equal(r.lba_high, 0xC2);
	assert_int_equal(r.device, 0xA0);
	assert_int_equal(r.status, 0x50);
}

/* The ATA descriptor after another descriptor; deferred 0x73. */
static void
test_descriptor_second_position(void **state)
{
	(void)state;
	uint8_t s[40] = { 0x73, 0x01, 0x00, 0x1D, 0, 0, 0, 0 };
	size_t off = 8;
	s[off] = 0x00;		/* information descriptor */
	s[off + 1] = 0x0A;
	off += 12;
	const uint8_t ata[14] = { 0x09, 0x0C, 0x01, 0x00, 0x00, 0x01, 0, 0, 0, 0xF4, 0, 0x2C, 0, 0x51 };
	memcpy(s + off, ata, sizeof ata);
	off += sizeof ata;
	s[7] = (uint8_t)(off - 8);
	struct ata_regs r;
	uint8_t k, a, q;
	assert_int_equal(ata_sense_parse(s, off, &r, &k, &a, &q), 0);
	assert_true(r.extend);
	assert_int_equal(r.lba_mid, 0xF4);
	assert_int_equal(r.lba_high, 0x2C);
	assert_int_equal(r.status, 0x51);
}

/* Valid sense without ATA registers: a SAS disk refusing the opcode. */
static void
test_illegal_request_no_regs(void **state)
{
	(void)state;
	const uint8_t fixed[18] = { 0x70, 0, 0x05, 0, 0, 0, 0, 0x0A, 0, 0, 0, 0, 0x20, 0x00 };
	const uint8_t desc[8] = { 0x72, 0x05, 0x24, 0x00, 0, 0, 0, 0 };
	struct ata_regs r;
	uint8_t k, a, q;
	assert_int_equal(ata_sense_parse(fixed, sizeof fixed, &r, &k, &a, &q), -ENODATA);
	assert_int_equal(k, 0x05);
	assert_int_equal(a, 0x20);
	assert_int_equal(ata_sense_parse(desc, sizeof desc, &r, &k, &a, &q), -ENODATA);
	assert_int_equal(k, 0x05);
	assert_int_equal(a, 0x24);
}

/* Junk: empty, unknown response code, truncated buffers, lying lengths. */
static void
test_malformed(void **state)
{
	(void)state;
	struct ata_regs r;
	uint8_t k, a, q;
	const uint8_t fixed[18] = { 0x70, 0, 0x01, 0, 0x50, 0, 0, 0x0A, 0, 0, 0x4F, 0xC2, 0, 0x1D };
	assert_int_equal(ata_sense_parse(NULL, 0, &r, &k, &a, &q), -EINVAL);
	assert_int_equal(ata_sense_parse(fixed, 0, &r, &k, &a, &q), -EINVAL);
	assert_int_equal(ata_sense_parse(fixed, 13, &r, &k, &a, &q), -EINVAL);
	const uint8_t weird[18] = { 0x7F, 0, 1 };
	assert_int_equal(ata_sense_parse(weird, sizeof weird, &r, &k, &a, &q), -EINVAL);

	/* descriptor length claims more than we got; the ATA descriptor is cut */
	const uint8_t cut[16] = { 0x72, 0x01, 0x00, 0x1D, 0, 0, 0, 0x0E,
				  0x09, 0x0C, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00 };
	assert_int_equal(ata_sense_parse(cut, sizeof cut, &r, &k, &a, &q), -ENODATA);
	/* a descriptor whose own length runs past the end */
	const uint8_t lying[12] = { 0x72, 0x01, 0x00, 0x1D, 0, 0, 0, 0x04, 0x09, 0xFF, 0, 0 };
	assert_int_equal(ata_sense_parse(lying, sizeof lying, &r, &k, &a, &q), -ENODATA);
	/* a zero-length descriptor loop must end */
	const uint8_t zeros[16] = { 0x72, 0x01, 0x00, 0x1D, 0, 0, 0, 0x08 };
	assert_int_equal(ata_sense_parse(zeros, sizeof zeros, &r, &k, &a, &q), -ENODATA);
	/* NULL out-pointers for key/asc/ascq are allowed */
	assert_int_equal(ata_sense_parse(fixed, sizeof fixed, &r, NULL, NULL, NULL), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_format_good_status),
		cmocka_unit_test(test_fixed_format_deferred_bad_status),
		cmocka_unit_test(test_fixed_format_old_linux_layout),
		cmocka_unit_test(test_descriptor_format),
		cmocka_unit_test(test_descriptor_second_position),
		cmocka_unit_test(test_illegal_request_no_regs),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
