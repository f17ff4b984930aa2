/* test_ata_decode.c - our IDENTIFY decoder on synthetic words (one test per
 * rule and edge), corrupt / truncated blobs, and a blob round trip.  The
 * parallel queries are in test_ata_query.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "inventory/ata.h"
#include "inventory/inventory.h"
#include "ata_words.h"

static struct ata_identify
decode(void)
{
	struct ata_identify id;
	ata_identify_decode(w, &id);
	return id;
}

static void
test_strings_swapped_and_trimmed(void **state)
{
	(void)state;
	struct ata_identify id = decode();
	assert_string_equal(id.model, "WDC WD20EFRX-68AX9N0");
	assert_string_equal(id.serial, "WD-WCC4M1234567");
	assert_string_equal(id.firmware, "82.00A82");
}

static void
test_strings_nul_padding(void **state)
{
	(void)state;
	put_string(27, 20, "SAMSUNG HS122JC");
	for (int i = 35; i <= 46; i++)
		w[i] = 0;	/* NUL padding instead of spaces */
	w[34] = (uint16_t)('C' << 8);	/* "C\0" */
	struct ata_identify id = decode();
	assert_string_equal(id.model, "SAMSUNG HS122JC");
	assert_int_equal(strlen(id.model), 15);
}

static void
test_lba48_capacity(void **state)
{
	(void)state;
	struct ata_identify id = decode();
	assert_true(id.lba48);
	assert_true(id.sectors.known);
	assert_int_equal(id.sectors.v, 3907029168ull);
	assert_int_equal(id.capacity_bytes.v, 3907029168ull * 512);
}

static void
test_lba28_when_word83_bit10_clear(void **state)
{
	(void)state;
	w[83] = 0x4000;	/* valid, no LBA48: words 100-103 must be ignored */
	w[60] = 0x1234;
	w[61] = 0x0098;
	struct ata_identify id = decode();
	assert_false(id.lba48);
	assert_int_equal(id.sectors.v, 0x00981234ull);
}

static void
test_lba48_ignored_when_word83_invalid(void **state)
{
	(void)state;
	w[83] = 0xFFFF;	/* bits 15:14 = 11: word not valid */
	w[60] = 0x5000;
	w[61] = 0;
	struct ata_identify id = decode();
	assert_false(id.lba48);
	assert_int_equal(id.sectors.v, 0x5000);
}

static void
test_no_lba_no_capacity(void **state)
{
	(void)state;
	w[83] = 0;
	w[49] = 0;	/* CHS only */
	struct ata_identify id = decode();
	assert_false(id.capacity_bytes.known);
}

static void
test_512e(void **state)
{
	(void)state;
	struct ata_identify id = decode();
	assert_true(id.sector_size_reported);
	assert_int_equal(id.logical.v, 512);
	assert_int_equal(id.physical.v, 4096);
	assert_true(id.alignment_offset.known);
	assert_int_equal(id.alignment_offset.v, 0);
}

static void
test_4kn_long_logical(void **state)
{
	(void)state;
	w[106] = 0x4000 | (1u << 12);	/* long logical, 1:1 */
	w[117] = 2048;			/* words: 4096 bytes */
	w[118] = 0;
	struct ata_identify id = decode();
	assert_int_equal(id.logical.v, 4096);
	assert_int_equal(id.physical.v, 4096);
	assert_int_equal(id.capacity_bytes.v, 3907029168ull * 4096);
}

static void
test_w117_without_bit12_ignored(void **state)
{
	(void)state;
	w[106] = 0x4000;
	w[117] = 0x0100;
	struct ata_identify id = decode();
	assert_true(id.sector_size_reported);
	assert_int_equal(id.logical.v, 512);
	assert_int_equal(id.physical.v, 512);
}

static void
test_w106_invalid_not_reported(void **state)
{
	(void)state;
	static const uint16_t bad[] = { 0x0000, 0xFFFF, 0x8000 | (1u << 13) | 3, 0x2003 };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		w[106] = bad[i];
		struct ata_identify id = decode();
		assert_false(id.sector_size_reported);
		/* ATA's (and smartctl's) 512/512, marked by sector_size_reported */
		assert_true(id.logical.known);
		assert_true(id.physical.known);
		assert_int_equal(id.logical.v, 512);
		assert_int_equal(id.physical.v, 512);
	}
}

static void
test_alignment_word209(void **state)
{
	(void)state;
	w[209] = 0x4000 | 1;	/* LBA 0 starts 1 logical sector into a physical one */
	struct ata_identify id = decode();
	assert_int_equal(id.alignment_offset.v, 512);
	w[209] = 0x8001;	/* not valid */
	id = decode();
	assert_false(id.alignment_offset.known);
}

static void
test_rotation_word217(void **state)
{
	(void)state;
	struct ata_identify id;
	w[217] = 1;
	id = decode();
	assert_true(id.ssd);
	assert_true(id.rotation_rpm.known);
	assert_int_equal(id.rotation_rpm.v, 0);
	w[217] = 5400;
	id = decode();
	assert_false(id.ssd);
	assert_int_equal(id.rotation_rpm.v, 5400);
	static const uint16_t none[] = { 0, 0xFFFF, 0x0400, 2 };
	for (size_t i = 0; i < ARRAY_SIZE(none); i++) {
		w[217] = none[i];
		id = decode();
		assert_false(id.ssd);
		assert_false(id.rotation_rpm.known);
	}
}

static void
test_trim_and_word69(void **state)
{
	(void)state;
	w[169] = 1;
	w[69] = 0x4020;
	struct ata_identify id = decode();
	assert_int_equal(id.trim.v, 1);
	assert_int_equal(id.trim_deterministic.v, 1);
	assert_int_equal(id.trim_zeroed.v, 1);
	w[69] = 0x4000;
	id = decode();
	assert_int_equal(id.trim_deterministic.v, 1);
	assert_int_equal(id.trim_zeroed.v, 0);
	w[169] = 0;
	id = decode();
	assert_true(id.trim.known);
	assert_int_equal(id.trim.v, 0);
	assert_false(id.trim_deterministic.known);	/* meaningless without TRIM */
}

static void
test_zoned_word69(void **state)
{
	(void)state;
	static const unsigned want[] = { ZONED_NONE, ZONED_HOST_AWARE, ZONED_DEVICE_MANAGED,
					 ZONED_RESERVED };
	for (unsigned z = 0; z < 4; z++) {
		w[69] = (uint16_t)(0x4000 | z);
		struct ata_identify id = decode();
		assert_true(id.zoned.known);
		assert_int_equal(id.zoned.v, want[z]);
	}
}

static void
test_ncq_and_sata_speeds(void **state)
{
	(void)state;
	struct ata_identify id = decode();
	assert_int_equal(id.ncq_depth.v, 32);
	assert_true(id.sata_max_gbps.known);
	assert_true(id.sata_max_gbps.v == 6.0);
	assert_true(id.sata_cur_gbps.v == 3.0);
	w[76] = 0x0006;	/* Gen1+2, no NCQ */
	w[77] = 0;
	id = decode();
	assert_false(id.ncq_depth.known);
	assert_true(id.sata_max_gbps.v == 3.0);
	assert_false(id.sata_cur_gbps.known);
	w[76] = 0xFFFF;	/* not SATA / not valid */
	w[77] = 3u << 1;
	id = decode();
	assert_false(id.sata_max_gbps.known);
	assert_false(id.sata_cur_gbps.known);
	assert_false(id.ncq_depth.known);
}

static void
test_smart_words(void **state)
{
	(void)state;
	struct ata_identify id = decode();
	assert_int_equal(id.smart_supported.v, 1);
	assert_int_equal(id.smart_enabled.v, 1);
	w[85] = 0x4000;	/* other features on, SMART off ... */
	w[87] = 0x4000;	/* ... and word 87 says words 85-87 are valid */
	id = decode();
	assert_true(id.smart_enabled.known);
	assert_int_equal(id.smart_enabled.v, 0);
	w[87] = 0;	/* not valid: "off" cannot be trusted */
	id = decode();
	assert_false(id.smart_enabled.known);
	w[82] = 0;	/* not supported */
	w[85] = 1;
	id = decode();
	assert_int_equal(id.smart_supported.v, 0);
	assert_false(id.smart_enabled.known);
}

/* ---- blobs ---- */

static void
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* SMART data with attribute 5 (reallocated, raw 3), 9 (power-on hours,
 * raw 1234), 194 (temperature 38 C), 197 pending raw 2; thresholds with
 * attribute 5's threshold 36 above its value 30 (failing now). */
static void
make_smart(uint8_t *sd, uint8_t *th)
{
	memset(sd, 0, 512);
	memset(th, 0, 512);
	static const struct { uint8_t id, flags, val, worst, thr; uint32_t raw; } a[] = {
		{ 5, 0x33, 30, 30, 36, 3 }, { 9, 0x32, 98, 98, 0, 1234 },
		{ 194, 0x22, 112, 100, 0, 38 }, { 197, 0x32, 200, 200, 0, 2 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(a); i++) {
		uint8_t *p = sd + 2 + 12 * i, *t = th + 2 + 12 * i;
		p[0] = a[i].id;
		p[1] = a[i].flags;
		p[3] = a[i].val;
		p[4] = a[i].worst;
		p[5] = (uint8_t)a[i].raw;
		p[6] = (uint8_t)(a[i].raw >> 8);
		t[0] = a[i].id;
		t[1] = a[i].thr;
	}
	/* checksums: libatasmart does not need them, real drives set them */
	uint8_t s = 0;
	for (int i = 0; i < 511; i++)
		s = (uint8_t)(s + sd[i]);
	sd[511] = (uint8_t)-s;
}

static void
test_blob_round_trip(void **state)
{
	(void)state;
	uint8_t sd[512], th[512];
	words_to_bytes();
	make_smart(sd, th);
	void *b;
	size_t n;
	assert_int_equal(ata_blob_build(idbytes, known_bool_of(true), sd, th, &b, &n), 0);
	assert_int_equal(n, 8 + 512 + 12 + 8 + 512 + 8 + 512);
	assert_memory_equal(b, "IDFY", 4);
	struct ata_info a;
	assert_int_equal(ata_from_blob(b, n, &a), 0);
	assert_int_equal(a.state, ATA_OK);
	assert_memory_equal(a.id.words, w, sizeof w);
	assert_string_equal(a.id.model, "WDC WD20EFRX-68AX9N0");
	assert_true(a.smart.known);
	assert_int_equal(a.smart.status_good.v, 1);
	assert_int_equal(a.smart.n_attrs, 4);
	assert_int_equal(a.smart.reallocated.v, 3);
	assert_int_equal(a.smart.pending.v, 2);
	assert_false(a.smart.offline_uncorrectable.known);
	assert_int_equal(a.smart.power_on_hours.v, 1234);
	assert_true(a.smart.temperature_c.known);
	assert_true(a.smart.temperature_c.v > 37.9 && a.smart.temperature_c.v < 38.1);
	const struct smart_attr *r5 = &a.smart.attrs[0];
	assert_int_equal(r5->id, 5);
	assert_int_equal(r5->threshold.v, 36);
	assert_true(r5->prefailure);
	assert_true(r5->failing_now);
	assert_true(r5->failed_past);
	assert_false(a.smart.attrs[1].failing_now);
	assert_string_not_equal(a.smart.overall, "good");	/* bad sectors, failing attribute */
	assert_true(a.smart.overall[0] != '\0');
	ata_info_free(&a);
	free(b);

	/* Without SMST the verdict is unknown, the attributes still parse;
	 * without thresholds every threshold is unknown. */
	assert_int_equal(ata_blob_build(idbytes, (struct known_bool){ 0 }, sd, NULL, &b, &n), 0);
	assert_int_equal(ata_from_blob(b, n, &a), 0);
	assert_false(a.smart.status_good.known);
	assert_string_equal(a.smart.overall, "");
	assert_int_equal(a.smart.n_attrs, 4);
	for (size_t i = 0; i < a.smart.n_attrs; i++) {
		assert_false(a.smart.attrs[i].threshold.known);
		assert_false(a.smart.attrs[i].failing_now);
	}
	ata_info_free(&a);
	free(b);

	/* IDENTIFY alone: facts known, SMART not. */
	assert_int_equal(ata_blob_build(idbytes, (struct known_bool){ 0 }, NULL, NULL, &b, &n), 0);
	assert_int_equal(ata_from_blob(b, n, &a), 0);
	assert_false(a.smart.known);
	assert_true(a.smart.reason[0] != '\0');
	ata_info_free(&a);
	free(b);
}

/* Build a blob by hand: records {tag, declared length, actual payload length}. */
struct rec { const char *tag; uint32_t declared, actual; };

static size_t
hand_blob(uint8_t *buf, const struct rec *r, size_t n)
{
	size_t off = 0;
	words_to_bytes();
	for (size_t i = 0; i < n; i++) {
		memcpy(buf + off, r[i].tag, 4);
		put_be32(buf + off + 4, r[i].declared);
		off += 8;
		for (uint32_t k = 0; k < r[i].actual; k++)
			buf[off + k] = strcmp(r[i].tag, "IDFY") == 0 && k < 512 ? idbytes[k] : 0x11;
		off += r[i].actual;
	}
	return off;
}

static void
expect_bad(const uint8_t *b, size_t n, int err, const char *needle)
{
	struct ata_info a;
	int rc = ata_from_blob(b, n, &a);
	assert_int_equal(rc, err);
	assert_int_not_equal(a.state, ATA_OK);
	if (!strstr(a.reason, needle))
		fail_msg("reason '%s' does not mention '%s'", a.reason, needle);
	ata_info_free(&a);
}

static void
test_corrupt_blobs(void **state)
{
	(void)state;
	uint8_t buf[4096];
	size_t n;

	/* declared length larger than the file (a truncated file) */
	const struct rec trunc[] = { { "IDFY", 512, 300 } };
	n = hand_blob(buf, trunc, 1);
	expect_bad(buf, n, -EINVAL, "IDFY");

	/* huge length: must not wrap around or read past the buffer */
	const struct rec huge[] = { { "IDFY", 0xFFFFFFF8u, 16 } };
	n = hand_blob(buf, huge, 1);
	expect_bad(buf, n, -EINVAL, "claims");

	/* a known record with the wrong length */
	const struct rec badlen[] = { { "IDFY", 512, 512 }, { "SMST", 8, 8 } };
	n = hand_blob(buf, badlen, 2);
	expect_bad(buf, n, -EINVAL, "SMST");

	/* a short record header at the end */
	const struct rec ok1[] = { { "IDFY", 512, 512 } };
	n = hand_blob(buf, ok1, 1);
	memcpy(buf + n, "SMD", 3);
	expect_bad(buf, n + 3, -EINVAL, "truncated");

	/* no IDFY at all */
	const struct rec noid[] = { { "SMDT", 512, 512 } };
	n = hand_blob(buf, noid, 1);
	expect_bad(buf, n, -ENODATA, "IDFY");

	/* IDFY twice */
	const struct rec twice[] = { { "IDFY", 512, 512 }, { "IDFY", 512, 512 } };
	n = hand_blob(buf, twice, 2);
	expect_bad(buf, n, -EINVAL, "twice");

	/* empty input */
	expect_bad(buf, 0, -EINVAL, "empty");

	/* unknown tags are skipped by their length (odd length too) */
	const struct rec unk[] = { { "XTRA", 3, 3 }, { "IDFY", 512, 512 }, { "ZZZZ", 0, 0 } };
	n = hand_blob(buf, unk, 3);
	struct ata_info a;
	assert_int_equal(ata_from_blob(buf, n, &a), 0);
	assert_string_equal(a.id.model, "WDC WD20EFRX-68AX9N0");
	ata_info_free(&a);
}

static void
test_blob_file_errors(void **state)
{
	(void)state;
	struct ata_info a;
	int rc = ata_from_blob_file("/nonexistent/diskscope-blob", &a);
	assert_int_equal(rc, -ENOENT);
	assert_non_null(strstr(a.reason, "/nonexistent/diskscope-blob"));

	char tmpl[] = "/tmp/ds-blob-XXXXXX";
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	close(fd);	/* empty file */
	rc = ata_from_blob_file(tmpl, &a);
	unlink(tmpl);
	assert_int_equal(rc, -EINVAL);
	assert_non_null(strstr(a.reason, "empty"));
}

/* Our own fixture blob (tests/fixtures/ata/synthetic-512e.blob, made by
 * ata_blob_build from the words above) still decodes. */
static void
test_fixture_blob(void **state)
{
	(void)state;
	struct ata_info a;
	const char *f = "tests/fixtures/ata/synthetic-512e.blob";
	if (access(f, R_OK) != 0)
		skip();
	assert_int_equal(ata_from_blob_file(f, &a), 0);
	assert_string_equal(a.id.model, "WDC WD20EFRX-68AX9N0");
	assert_int_equal(a.id.physical.v, 4096);
	assert_int_equal(a.smart.status_good.v, 1);
	ata_info_free(&a);
}


/* ata_apply_identify: IDENTIFY completes sysfs without overruling what the
 * kernel does I/O by. */
static void
test_apply_identify(void **state)
{
	(void)state;
	struct drive d;
	memset(&d, 0, sizeof d);
	snprintf(d.model, sizeof d.model, "WDC WD20EFRX-68A");	/* INQUIRY: 16 chars */
	snprintf(d.firmware, sizeof d.firmware, "0A82");	/* INQUIRY rev: last 4 */
	KNOWN_SET(d.logical, 512);
	KNOWN_SET(d.physical, 512);
	snprintf(d.sector_source, sizeof d.sector_source, "sysfs");
	ata_identify_decode(w, &d.ata.id);
	d.ata.state = ATA_OK;
	ata_apply_identify(&d);
	assert_string_equal(d.model, "WDC WD20EFRX-68AX9N0");
	assert_string_equal(d.serial, "WD-WCC4M1234567");
	assert_string_equal(d.firmware, "82.00A82");
	assert_int_equal(d.physical.v, 4096);
	assert_string_equal(d.sector_source, "identify");
	assert_int_equal(d.rotation_rpm.v, 7200);
	assert_true(d.capacity_bytes.known);
	assert_int_equal(d.warnings.n, 0);

	/* a USB bridge presenting 4K logical sectors for this 512e drive */
	memset(&d, 0, sizeof d);
	snprintf(d.model, sizeof d.model, "External USB 3.0");
	KNOWN_SET(d.logical, 4096);
	KNOWN_SET(d.physical, 4096);
	ata_identify_decode(w, &d.ata.id);
	d.ata.state = ATA_OK;
	ata_apply_identify(&d);
	assert_int_equal(d.logical.v, 4096);
	assert_string_equal(d.model, "External USB 3.0");	/* sysfs had its own */
	assert_int_equal(d.warnings.n, 1);
	assert_non_null(strstr(d.warnings.v[0], "bridge"));
	strlist_free(&d.warnings);

	/* not ATA_OK: nothing changes */
	memset(&d, 0, sizeof d);
	ata_identify_decode(w, &d.ata.id);
	d.ata.state = ATA_NO_ANSWER;
	ata_apply_identify(&d);
	assert_false(d.physical.known);
	assert_string_equal(d.model, "");
}

#define T(f) cmocka_unit_test_setup(f, setup_words)
int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_strings_swapped_and_trimmed), T(test_strings_nul_padding),
		T(test_lba48_capacity), T(test_lba28_when_word83_bit10_clear),
		T(test_lba48_ignored_when_word83_invalid), T(test_no_lba_no_capacity),
		T(test_512e), T(test_4kn_long_logical), T(test_w117_without_bit12_ignored),
		T(test_w106_invalid_not_reported), T(test_alignment_word209),
		T(test_rotation_word217), T(test_trim_and_word69), T(test_zoned_word69),
		T(test_ncq_and_sata_speeds), T(test_smart_words), T(test_blob_round_trip),
		T(test_corrupt_blobs), T(test_blob_file_errors), T(test_fixture_blob),
		T(test_apply_identify),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
