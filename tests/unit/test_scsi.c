/* test_scsi - the SCSI decoders (inventory/scsi.c) on captured pages: the
 * guest's scsi_debug (Debian 12's 6.1 kernel), the bytes diskscope read,
 * with sg3_utils 1.46's decoding of the same device beside them
 * (tests/fixtures/scsi/README) as the ground truth.  Then hand-set pages for
 * what scsi_debug never reports: error counters, non-medium errors, start-
 * stop cycles, background scan, a raised informational exception, failed
 * self-tests, grown defect lists, 520/528-byte and PI formats. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "test_top.h"
#include "inventory/inventory.h"
#include "inventory/scsi.h"
#include "inventory/sysfs.h"

static char fix[PATH_MAX];		/* tests/fixtures/scsi */

#define assert_known(k, val) do { assert_true((k).known); assert_int_equal((k).v, (val)); } while (0)

/* The fixture NAME, into buf: its length. */
static size_t
load(const char *name, uint8_t *buf, size_t n)
{
	char path[PATH_MAX];
	assert_true((size_t)snprintf(path, sizeof path, "%s/%s", fix, name) < sizeof path);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t got = fread(buf, 1, n, f);
	fclose(f);
	assert_true(got > 0);
	return got;
}

/* sg3_utils' text of the same page holds want (the ground truth). */
static void
sg_says(const char *name, const char *want)
{
	static uint8_t t[16384];
	size_t n = load(name, t, sizeof t - 1);
	t[n] = 0;
	if (!strstr((char *)t, want))
		fail_msg("%s does not say \"%s\"", name, want);
}

static void
decode_vpd(const char *name, struct scsi_info *s)
{
	uint8_t b[1024];
	size_t n = load(name, b, sizeof b);
	assert_int_equal(scsi_decode_vpd(b, n, s), 0);
}

static void
test_identity_vs_sg3_utils(void **state)
{
	(void)state;
	struct scsi_info s;
	uint8_t b[1024];
	memset(&s, 0, sizeof s);
	size_t n = load("debug-inq.bin", b, sizeof b);
	assert_int_equal(scsi_decode_inquiry(b, n, &s), 0);
	sg_says("debug-inq.sg_inq.txt", "Vendor identification: Linux");
	sg_says("debug-inq.sg_inq.txt", "Product identification: scsi_debug");
	sg_says("debug-inq.sg_inq.txt", "Product revision level: 0191");
	sg_says("debug-inq.sg_inq.txt", "PDT=0");
	assert_string_equal(s.vendor, "Linux");
	assert_string_equal(s.product, "scsi_debug");
	assert_string_equal(s.revision, "0191");
	assert_known(s.peripheral_type, 0);

	decode_vpd("debug-vpd80.bin", &s);
	sg_says("debug-vpd80.sg_vpd.txt", "Unit serial number: 2000");
	assert_string_equal(s.serial, "2000");
	decode_vpd("debug-vpd83.bin", &s);
	sg_says("debug-vpd83.sg_vpd.txt", "0x33333330000007d0");
	sg_says("debug-vpd83.sg_vpd.txt", "transport: Serial Attached SCSI");
	assert_string_equal(s.designator, "naa.33333330000007d0");	/* NAA over T10 vendor id */
	assert_string_equal(s.protocol, "sas");
	decode_vpd("debug-vpd89.bin", &s);
	sg_says("debug-vpd89.sg_vpd.txt", "SAT Vendor identification: linux");
	assert_true(s.sat.known && s.sat.v);
	assert_string_equal(s.sat_vendor, "linux");
	assert_false(scsi_is_sat(&s));	/* INQUIRY says "Linux", not a SAT layer's "ATA" */
	decode_vpd("debug-vpdb0.bin", &s);
	sg_says("debug-vpdb0.sg_vpd.txt", "Maximum transfer length: 32768 blocks");
	sg_says("debug-vpdb0.sg_vpd.txt", "Optimal transfer length: 1024 blocks");
	assert_known(s.max_transfer_blocks, 32768);
	assert_known(s.opt_transfer_blocks, 1024);
	decode_vpd("debug-vpdb1.bin", &s);
	sg_says("debug-vpdb1.sg_vpd.txt", "Non-rotating medium");
	sg_says("debug-vpdb1.sg_vpd.txt", "less then 1.8 inch");
	assert_known(s.rotation_rpm, 0);
	assert_known(s.form_factor, 5);		/* < 1.8 inch */
	decode_vpd("debug-vpdb2.bin", &s);
	sg_says("debug-vpdb2.sg_vpd.txt", "Unmap command supported (LBPU): 0");
	assert_true(s.lbp_unmap.known && !s.lbp_unmap.v);
	/* page 0x00 is no page of ours */
	n = load("debug-vpd00.bin", b, sizeof b);
	assert_int_equal(scsi_decode_vpd(b, n, &s), -ENOTSUP);

	/* host-managed zoned: peripheral device type 0x14 */
	memset(&s, 0, sizeof s);
	n = load("debug-zbc-inq.bin", b, sizeof b);
	assert_int_equal(scsi_decode_inquiry(b, n, &s), 0);
	assert_known(s.peripheral_type, 0x14);
}

static void
readcap(const char *name, struct scsi_info *s)
{
	uint8_t b[64];
	memset(s, 0, sizeof *s);
	size_t n = load(name, b, sizeof b);
	assert_int_equal(n, 32);
	assert_int_equal(scsi_decode_readcap16(b, n, s), 0);
}

static void
test_readcap_vs_sg3_utils(void **state)
{
	(void)state;
	struct scsi_info s;
	readcap("debug-rc16.bin", &s);
	sg_says("debug-rc16.sg_readcap.txt", "Number of logical blocks=32768");
	assert_known(s.lba_count, 32768);
	assert_known(s.logical_bytes, 512);
	assert_known(s.physical_exp, 0);
	assert_known(s.lowest_aligned, 0);
	assert_true(s.protection.known && !s.protection.v);
	assert_false(s.protection_type.known);
	assert_int_equal(s.format, SCSI_FMT_OK);

	readcap("debug-512e-rc16.bin", &s);
	sg_says("debug-512e-rc16.sg_readcap.txt", "physical block exponent=3");
	assert_known(s.physical_exp, 3);
	assert_int_equal(s.format, SCSI_FMT_OK);

	readcap("debug-4kn-rc16.bin", &s);
	sg_says("debug-4kn-rc16.sg_readcap.txt", "Logical block length=4096 bytes");
	assert_known(s.logical_bytes, 4096);
	assert_known(s.lba_count, 4096);
	assert_int_equal(s.format, SCSI_FMT_OK);

	readcap("debug-dif-rc16.bin", &s);
	sg_says("debug-dif-rc16.sg_readcap.txt", "prot_en=1, p_type=0");
	assert_true(s.protection.known && s.protection.v);
	assert_known(s.protection_type, 1);
	assert_int_equal(s.format, SCSI_FMT_PI);
}

static void
test_log_pages_vs_sg3_utils(void **state)
{
	(void)state;
	struct scsi_health h;
	uint8_t b[1024];
	memset(&h, 0, sizeof h);
	size_t n = load("debug-log00.bin", b, sizeof b);
	assert_int_equal(scsi_decode_log(b, n, &h), 0);
	assert_string_equal(h.pages, "00 0d 2f");
	assert_false(h.known);		/* the list alone is no health */
	assert_true(scsi_health_has_page(&h, 0x0d) && scsi_health_has_page(&h, 0x2f));
	assert_false(scsi_health_has_page(&h, 0x02) || scsi_health_has_page(&h, 0x10));
	n = load("debug-log0d.bin", b, sizeof b);
	assert_int_equal(scsi_decode_log(b, n, &h), 0);
	sg_says("debug-logs.sg_logs.txt", "Current temperature = 38 C");
	sg_says("debug-logs.sg_logs.txt", "Reference temperature = 65 C");
	assert_true(h.known);
	assert_known(h.temperature_c, 38);
	assert_known(h.trip_temperature_c, 65);
	n = load("debug-log2f.bin", b, sizeof b);
	assert_int_equal(scsi_decode_log(b, n, &h), 0);
	sg_says("debug-logs.sg_logs.txt", "IE asc = 0x0, ascq = 0x0");
	assert_known(h.ie_asc, 0);
	assert_known(h.ie_ascq, 0);
	assert_string_equal(h.ie_text, "");
	assert_known(h.ie_temperature_c, 38);
	/* what scsi_debug has no page for stays unknown */
	assert_false(h.read_uncorrected.known || h.grown_defects.known || h.selftest_entries.known);
}

/* A log page of params: code, length, value bytes ... (hand-set). */
static size_t
page(uint8_t *b, unsigned pc, const uint8_t *params, size_t len)
{
	b[0] = (uint8_t)pc, b[1] = 0, b[2] = (uint8_t)(len >> 8), b[3] = (uint8_t)len;
	memcpy(b + 4, params, len);
	return 4 + len;
}

static void
test_counters_hand_set(void **state)
{
	(void)state;
	struct scsi_health h;
	uint8_t b[512];
	memset(&h, 0, sizeof h);
	/* read errors: param 0 (2 bytes), 3 corrected 4 bytes, 6 uncorrected 8 bytes */
	static const uint8_t rd[] = {
		0, 0, 0x02, 2, 0x01, 0x00,
		0, 3, 0x02, 4, 0, 0, 0x12, 0x34,
		0, 6, 0x02, 8, 0, 0, 0, 1, 0, 0, 0, 2,
	};
	assert_int_equal(scsi_decode_log(b, page(b, 0x03, rd, sizeof rd), &h), 0);
	assert_known(h.read_corrected, 0x1234);
	assert_known(h.read_uncorrected, 0x100000002ull);
	static const uint8_t wr[] = { 0, 3, 0x02, 1, 7, 0, 6, 0x02, 1, 0 };
	assert_int_equal(scsi_decode_log(b, page(b, 0x02, wr, sizeof wr), &h), 0);
	assert_known(h.write_corrected, 7);
	assert_known(h.write_uncorrected, 0);
	/* verify: the uncorrected parameter cut short by the page length: not read */
	static const uint8_t vf[] = { 0, 3, 0x02, 2, 0, 9, 0, 6, 0x02, 4, 0, 0 };
	assert_int_equal(scsi_decode_log(b, page(b, 0x05, vf, sizeof vf), &h), 0);
	assert_known(h.verify_corrected, 9);
	assert_false(h.verify_uncorrected.known);
	static const uint8_t nm[] = { 0, 0, 0x02, 2, 0, 42 };
	assert_int_equal(scsi_decode_log(b, page(b, 0x06, nm, sizeof nm), &h), 0);
	assert_known(h.non_medium_errors, 42);
	static const uint8_t ss[] = {
		0, 1, 0x01, 6, '2', '0', '1', '8', '3', '1',
		0, 3, 0x01, 4, 0, 0, 0xc3, 0x50,	/* 50000 specified */
		0, 4, 0x01, 4, 0, 0, 0, 88,
		0, 5, 0x01, 4, 0, 0x09, 0x27, 0xc0,	/* 600000 */
		0, 6, 0x01, 4, 0, 0, 0x01, 0x2c,
	};
	assert_int_equal(scsi_decode_log(b, page(b, 0x0e, ss, sizeof ss), &h), 0);
	assert_known(h.start_stop_cycles_limit, 50000);
	assert_known(h.start_stop_cycles, 88);
	assert_known(h.load_unload_cycles_limit, 600000);
	assert_known(h.load_unload_cycles, 300);
	/* background scan status: 1,234,567 power-on minutes, status 1, 16 medium scans */
	static const uint8_t bg[] = {
		0, 0, 0x03, 12, 0x00, 0x12, 0xd6, 0x87, 0, 1, 0, 5, 0x10, 0x00, 0, 16,
		0, 1, 0x03, 20, 0, 0, 0, 0, 0x11, 0x03, 0x00, 0x11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0,
	};
	assert_int_equal(scsi_decode_log(b, page(b, 0x15, bg, sizeof bg), &h), 0);
	assert_known(h.power_on_minutes, 1234567);
	assert_known(h.bg_scan_status, 1);
	assert_known(h.bg_medium_scans, 16);
	/* a raised exception: 5D/10, "hardware impending failure general hard drive failure" */
	static const uint8_t ie[] = { 0, 0, 0x03, 4, 0x5d, 0x10, 47, 60 };
	assert_int_equal(scsi_decode_log(b, page(b, 0x2f, ie, sizeof ie), &h), 0);
	assert_known(h.ie_asc, 0x5d);
	assert_known(h.ie_ascq, 0x10);
	assert_known(h.ie_temperature_c, 47);
	assert_non_null(strstr(h.ie_text, "impending failure"));
	/* temperature 0xFF: no valid reading */
	memset(&h, 0, sizeof h);
	static const uint8_t tp[] = { 0, 0, 0x03, 2, 0, 0xff, 0, 1, 0x03, 2, 0, 70 };
	assert_int_equal(scsi_decode_log(b, page(b, 0x0d, tp, sizeof tp), &h), 0);
	assert_false(h.temperature_c.known);
	assert_known(h.trip_temperature_c, 70);
	/* another page, a subpage, a short buffer */
	assert_int_equal(scsi_decode_log(b, page(b, 0x18, tp, sizeof tp), &h), -ENOTSUP);
	b[0] = 0x0d, b[1] = 1;
	assert_int_equal(scsi_decode_log(b, 16, &h), -ENOTSUP);
	assert_int_equal(scsi_decode_log(b, 3, &h), -EINVAL);
}

/* One self-test results entry (parameter code 1..20). */
static uint8_t *
st_entry(uint8_t *p, unsigned code, unsigned st, unsigned res, unsigned hours, uint64_t lba)
{
	memset(p, 0, 20);
	p[1] = (uint8_t)code, p[2] = 0x03, p[3] = 0x10;
	p[4] = (uint8_t)(st << 5 | res), p[5] = st ? (uint8_t)code : 0;
	p[6] = (uint8_t)(hours >> 8), p[7] = (uint8_t)hours;
	for (int i = 0; i < 8; i++)
		p[8 + i] = (uint8_t)(lba >> (56 - 8 * i));
	if (res >= 3 && res <= 7)
		p[16] = 3, p[17] = 0x11;	/* medium error, unrecovered read */
	return p + 20;
}

static void
test_selftest_hand_set(void **state)
{
	(void)state;
	struct scsi_health h;
	uint8_t params[20 * 20], b[512], *p = params;
	memset(&h, 0, sizeof h);
	/* newest: background extended, failed in segment 7 at LBA 0x1234 after 500 h */
	p = st_entry(p, 1, 2, 7, 500, 0x1234);
	p = st_entry(p, 2, 1, 0, 480, UINT64_MAX);
	p = st_entry(p, 3, 2, 5, 300, 99);
	for (unsigned c = 4; c <= 20; c++)
		p = st_entry(p, c, 0, 0, 0, 0);		/* never ran */
	assert_int_equal(scsi_decode_log(b, page(b, 0x10, params, (size_t)(p - params)), &h), 0);
	assert_known(h.selftest_entries, 3);
	assert_known(h.selftest_failed, 2);
	assert_known(h.selftest_last_code, 2);
	assert_known(h.selftest_last_result, 7);
	assert_known(h.selftest_last_hours, 500);
	assert_known(h.selftest_last_lba, 0x1234);
	assert_string_equal(scsi_selftest_result_text(7), "failed in another segment");
	/* a passing newest entry: no failing LBA */
	p = params;
	p = st_entry(p, 1, 1, 0, 20, UINT64_MAX);
	memset(&h, 0, sizeof h);
	assert_int_equal(scsi_decode_log(b, page(b, 0x10, params, 20), &h), 0);
	assert_known(h.selftest_entries, 1);
	assert_known(h.selftest_failed, 0);
	assert_known(h.selftest_last_result, 0);
	assert_false(h.selftest_last_lba.known);
	/* an empty log: known to be empty */
	memset(&h, 0, sizeof h);
	assert_int_equal(scsi_decode_log(b, page(b, 0x10, params, 0), &h), 0);
	assert_known(h.selftest_entries, 0);
	assert_false(h.selftest_last_result.known);
}

static void
test_defects_hand_set(void **state)
{
	(void)state;
	struct scsi_health h;
	memset(&h, 0, sizeof h);
	/* (10): GLISTV, bytes-from-index (4), 37 descriptors of 8 bytes */
	const uint8_t d10[4] = { 0, 0x08 | 4, 0x01, 0x28 };
	assert_int_equal(scsi_decode_defects(d10, 4, false, &h), 0);
	assert_known(h.grown_defects, 37);
	/* (12): physical sector format (5), 500 descriptors */
	const uint8_t d12[8] = { 0, 0x08 | 5, 0, 0, 0, 0, 0x0f, 0xa0 };
	assert_int_equal(scsi_decode_defects(d12, 8, true, &h), 0);
	assert_known(h.grown_defects, 500);
	/* short block format (0): 4 bytes each; an empty list is 0, known */
	const uint8_t s10[4] = { 0, 0x08 | 0, 0, 12 }, e10[4] = { 0, 0x08 | 4, 0, 0 };
	assert_int_equal(scsi_decode_defects(s10, 4, false, &h), 0);
	assert_known(h.grown_defects, 3);
	assert_int_equal(scsi_decode_defects(e10, 4, false, &h), 0);
	assert_known(h.grown_defects, 0);
	/* no grown list in the answer, a vendor format, a short header */
	memset(&h, 0, sizeof h);
	const uint8_t pl[4] = { 0, 0x10 | 4, 0, 8 }, vf[4] = { 0, 0x08 | 6, 0, 8 };
	assert_int_equal(scsi_decode_defects(pl, 4, false, &h), -ENODATA);
	assert_int_equal(scsi_decode_defects(vf, 4, false, &h), -EINVAL);
	assert_int_equal(scsi_decode_defects(d12, 4, true, &h), -EINVAL);
	assert_false(h.grown_defects.known);
}

static void
rc16(uint8_t *b, uint64_t last, uint32_t len, uint8_t b12, uint8_t b13)
{
	memset(b, 0, 32);
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(last >> (56 - 8 * i));
	b[8] = (uint8_t)(len >> 24), b[9] = (uint8_t)(len >> 16), b[10] = (uint8_t)(len >> 8);
	b[11] = (uint8_t)len, b[12] = b12, b[13] = b13;
}

static void
test_formats_hand_set(void **state)
{
	(void)state;
	struct scsi_info s;
	uint8_t b[32];
	struct scsi_line l[2];
	/* a storage array's 520-byte format: unusable until sg_format to 512 */
	memset(&s, 0, sizeof s);
	rc16(b, 1172123567, 520, 0, 0);
	assert_int_equal(scsi_decode_readcap16(b, 32, &s), 0);
	assert_known(s.lba_count, 1172123568);
	assert_int_equal(s.format, SCSI_FMT_NEEDS_FORMAT);
	s.known = true;
	assert_int_equal(scsi_text_lines(&s, "/dev/sg3", l, 2), 2);
	assert_int_equal(l[0].level, SCSI_LINE_FAIL);
	assert_non_null(strstr(l[0].text, "520-byte blocks: needs a low-level format to 512 before use: "
				"sg_format --format --size=512 /dev/sg3"));
	assert_int_equal(l[1].level, SCSI_LINE_UNKNOWN);	/* no health read */
	/* 528 bytes, and 512 + type 2 protection: 520 needs a format, 512 + PI is usable */
	rc16(b, 1000, 528, 0, 0);
	assert_int_equal(scsi_decode_readcap16(b, 32, &s), 0);
	assert_int_equal(s.format, SCSI_FMT_NEEDS_FORMAT);
	rc16(b, 1000, 4096, 0x01 | 1 << 1, 0);	/* PROT_EN, P_TYPE 1: type 2 */
	assert_int_equal(scsi_decode_readcap16(b, 32, &s), 0);
	assert_known(s.protection_type, 2);
	assert_int_equal(s.format, SCSI_FMT_PI);
	/* 512e with lowest aligned LBA 7 and thin provisioning (LBPME) */
	rc16(b, 1000, 512, 0, 3);
	b[14] = 0x80, b[15] = 7;
	assert_int_equal(scsi_decode_readcap16(b, 32, &s), 0);
	assert_known(s.lowest_aligned, 7);
	assert_true(s.lbp_enabled.known && s.lbp_enabled.v);
	assert_int_equal(s.format, SCSI_FMT_OK);
	/* no block length, a short answer */
	rc16(b, 1000, 0, 0, 0);
	assert_int_equal(scsi_decode_readcap16(b, 32, &s), -EINVAL);
	assert_int_equal(scsi_decode_readcap16(b, 8, &s), -EINVAL);
}

static void
test_lines_hand_set(void **state)
{
	(void)state;
	struct scsi_info s;
	struct scsi_line l[2];
	memset(&s, 0, sizeof s);
	s.known = true;
	s.logical_bytes = known_u64_of(512);
	s.physical_exp = known_u64_of(3);
	s.protection = known_bool_of(false);
	s.format = scsi_format_of(&s.logical_bytes, &s.protection);
	s.rotation_rpm = known_u64_of(10000);
	struct scsi_health *h = &s.health;
	h->known = true;
	h->temperature_c = known_i64_of(31);
	h->grown_defects = known_u64_of(12);
	h->read_uncorrected = known_u64_of(0);
	h->write_uncorrected = known_u64_of(0);
	h->verify_uncorrected = known_u64_of(0);
	h->ie_asc = known_u64_of(0);
	h->selftest_entries = known_u64_of(1);
	h->selftest_failed = known_u64_of(0);
	h->selftest_last_result = known_u64_of(0);
	assert_int_equal(scsi_text_lines(&s, NULL, l, 2), 2);
	assert_int_equal(l[0].level, SCSI_LINE_OK);
	assert_string_equal(l[0].text, "512-byte blocks (4096-byte physical), usable; 10000 rpm; 31 C");
	assert_int_equal(l[1].level, SCSI_LINE_WARN);	/* grown defects */
	assert_string_equal(l[1].text, "grown defects 12, uncorrected errors read 0 write 0 verify 0, "
			    "IE none, self-test completed (0 failed)");
	h->ie_asc = known_u64_of(0x5d);
	assert_int_equal(scsi_text_lines(&s, NULL, l, 2), 2);
	assert_int_equal(l[1].level, SCSI_LINE_FAIL);
	s.known = false;
	snprintf(s.reason, sizeof s.reason, "INQUIRY: timed out");
	assert_int_equal(scsi_text_lines(&s, NULL, l, 2), 1);
	assert_string_equal(l[0].text, "SCSI: unknown (INQUIRY: timed out)");
}

static void
test_vpd_hand_set(void **state)
{
	(void)state;
	struct scsi_info s;
	memset(&s, 0, sizeof s);
	/* 0x83: a T10 vendor id and an EUI-64 for the LU, an FC target port */
	static const uint8_t di[] = {
		0, 0x83, 0, 36,
		0x02, 0x01, 0, 8, 'S', 'E', 'A', 'G', 'A', 'T', 'E', ' ',
		0x01, 0x02, 0, 8, 0x50, 0x00, 0xc5, 0x00, 0x30, 0x11, 0xcb, 0x2b,
		0x01, 0x93, 0, 8, 0x20, 0, 0, 0, 0, 0, 0, 1,	/* PIV, target port, FC */
	};
	assert_int_equal(scsi_decode_vpd(di, sizeof di, &s), 0);
	assert_string_equal(s.designator, "eui.5000c5003011cb2b");	/* EUI-64 over T10 */
	assert_string_equal(s.protocol, "fc");
	/* only a T10 vendor id, and a designator running past the page: cut there */
	memset(&s, 0, sizeof s);
	static const uint8_t t10[] = {
		0, 0x83, 0, 24,
		0x02, 0x01, 0, 8, 'H', 'P', ' ', ' ', ' ', ' ', ' ', ' ',
		0x61, 0x93, 0, 40, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	assert_int_equal(scsi_decode_vpd(t10, sizeof t10, &s), 0);
	assert_string_equal(s.designator, "t10.HP");
	assert_string_equal(s.protocol, "");
	/* a rotating drive's 0xB1: 7200 rpm, 3.5 inch (code 2); 0x89's SAT vendor */
	static const uint8_t b1[] = { 0, 0xb1, 0, 0x3c, 0x1c, 0x20, 0, 0x02 };
	assert_int_equal(scsi_decode_vpd(b1, sizeof b1, &s), 0);
	assert_known(s.rotation_rpm, 7200);
	assert_known(s.form_factor, 2);
	/* no LU at this LUN (peripheral qualifier 3), a short page */
	static const uint8_t nolu[36] = { 0x7f };
	assert_int_equal(scsi_decode_inquiry(nolu, sizeof nolu, &s), -EINVAL);
	assert_int_equal(scsi_decode_inquiry(nolu, 20, &s), -EINVAL);
	assert_int_equal(scsi_decode_vpd(b1, 3, &s), -EINVAL);
	assert_string_equal(scsi_protocol_name(6), "sas");
	assert_string_equal(scsi_protocol_name(14), "");
}

/* ---- the class from what the host or the device says (sysfs.c) ---- */

static char tree[64];

static void
tree_file(const char *rel, const void *data, size_t len)
{
	char p[PATH_MAX], cmd[PATH_MAX + 16];
	snprintf(p, sizeof p, "%s/%s", tree, rel);
	snprintf(cmd, sizeof cmd, "%s", p);
	*strrchr(cmd, '/') = 0;
	for (char *c = cmd + strlen(tree) + 1; *c; c++)
		if (*c == '/') {
			*c = 0;
			mkdir(cmd, 0755);
			*c = '/';
		}
	mkdir(cmd, 0755);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fwrite(data, 1, len, f);
	fclose(f);
}

static void
tree_text(const char *rel, const char *text)
{
	tree_file(rel, text, strlen(text));
}

/* A SCSI disk NAME at sys/devices/PATH (ending in the H:C:T:L device),
 * INQUIRY vendor, and the VPD fixtures named (NULL: none). */
static void
tree_disk(const char *name, const char *path, const char *vendor, const char *v83,
	  const char *v89)
{
	char rel[PATH_MAX], p[PATH_MAX], tgt[PATH_MAX];
	uint8_t b[1024];
	snprintf(rel, sizeof rel, "sys/devices/%s/vendor", path);
	tree_text(rel, vendor);
	snprintf(rel, sizeof rel, "sys/devices/%s/model", path);
	tree_text(rel, "DISK");
	if (v83) {
		snprintf(rel, sizeof rel, "sys/devices/%s/vpd_pg83", path);
		tree_file(rel, b, load(v83, b, sizeof b));
	}
	if (v89) {
		snprintf(rel, sizeof rel, "sys/devices/%s/vpd_pg89", path);
		tree_file(rel, b, load(v89, b, sizeof b));
	}
	snprintf(rel, sizeof rel, "sys/devices/%s/block/%s/size", path, name);
	tree_text(rel, "32768");
	snprintf(rel, sizeof rel, "sys/devices/%s/block/%s/queue/logical_block_size", path, name);
	tree_text(rel, "512");
	snprintf(p, sizeof p, "%s/sys/devices/%s/block/%s/device", tree, path, name);
	assert_int_equal(symlink("../..", p), 0);
	snprintf(p, sizeof p, "%s/sys/block", tree);
	mkdir(p, 0755);
	snprintf(p, sizeof p, "%s/sys/block/%s", tree, name);
	snprintf(tgt, sizeof tgt, "../devices/%s/block/%s", path, name);
	assert_int_equal(symlink(tgt, p), 0);
}

static int
rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	return remove(p);
}

static void
test_transport_said(void **state)
{
	(void)state;
	snprintf(tree, sizeof tree, "/tmp/ds-scsi-tree-XXXXXX");
	assert_non_null(mkdtemp(tree));
	/* scsi_debug: a pseudo host with no transport class; its VPD 0x83 names
	 * SAS target ports, and its ATA Information page does not make it ATA */
	tree_disk("sda", "pseudo_0/adapter0/host0/target0:0:0/0:0:0:0", "Linux",
		  "debug-vpd83.bin", "debug-vpd89.bin");
	/* an FC HBA: its host's fc_host class */
	tree_disk("sdb", "pci0000:00/0000:00:04.0/host1/rport-1:0-0/target1:0:0/1:0:0:0",
		  "HITACHI", NULL, NULL);
	tree_text("sys/devices/pci0000:00/0000:00:04.0/host1/fc_host/host1/port_name", "0x1");
	/* a RAID HBA passing a SATA drive through: the SAT layer's vendor "ATA" */
	tree_disk("sdc", "pci0000:00/0000:00:05.0/host2/target2:0:0/2:0:0:0", "ATA", NULL,
		  "debug-vpd89.bin");
	/* a SAS host (sas_host class) without port-/end_device- in the path */
	tree_disk("sdd", "pci0000:00/0000:00:06.0/host3/target3:0:0/3:0:0:0", "SEAGATE", NULL, NULL);
	tree_text("sys/devices/pci0000:00/0000:00:06.0/host3/sas_host/host3/uevent", "");
	/* nothing said: a plain SCSI disk, transport unknown */
	tree_disk("sde", "pci0000:00/0000:00:07.0/host4/target4:0:0/4:0:0:0", "QEMU", NULL, NULL);
	tree_text("mounts", "");

	char sys[PATH_MAX], mnt[PATH_MAX];
	snprintf(sys, sizeof sys, "%s/sys", tree);
	snprintf(mnt, sizeof mnt, "%s/mounts", tree);
	struct inventory_opts o;
	struct inventory inv;
	inventory_opts_default(&o);
	o.sysfs_root = sys;
	o.mounts_file = mnt;
	o.no_ata = true;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(sysfs_scan_drives(&inv, &o), 0);
	static const struct { const char *name; enum ds_transport t; const char *what, *from; } want[] = {
		{ "sda", TR_SAS, "sas", "VPD 0x83" },
		{ "sdb", TR_SCSI, "fc", "fc_host" },
		{ "sdc", TR_SATA, "sata", "INQUIRY vendor ATA" },
		{ "sdd", TR_SAS, "sas", "sas_host" },
		{ "sde", TR_SCSI, "", "" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		struct drive *d = inventory_find_drive(&inv, want[i].name);
		assert_non_null(d);
		if (d->transport != want[i].t || strcmp(d->scsi.transport, want[i].what) ||
		    strcmp(d->scsi.transport_from, want[i].from))
			fail_msg("%s: %s (%s from %s), want %s (%s from %s)", want[i].name,
				 transport_name(d->transport), d->scsi.transport, d->scsi.transport_from,
				 transport_name(want[i].t), want[i].what, want[i].from);
	}
	inventory_free(&inv);
	nftw(tree, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int
main(void)
{
	if (test_fixture_dir(fix, sizeof fix, "scsi") != 0) {
		printf("SKIP: tests/fixtures/scsi not found (run from the repository top)\n");
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity_vs_sg3_utils),
		cmocka_unit_test(test_readcap_vs_sg3_utils),
		cmocka_unit_test(test_log_pages_vs_sg3_utils),
		cmocka_unit_test(test_counters_hand_set),
		cmocka_unit_test(test_selftest_hand_set),
		cmocka_unit_test(test_defects_hand_set),
		cmocka_unit_test(test_formats_hand_set),
		cmocka_unit_test(test_lines_hand_set),
		cmocka_unit_test(test_vpd_hand_set),
		cmocka_unit_test(test_transport_said),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
