/* test_ata_blobs.c - every real IDENTIFY/SMART blob in ../shared/realdata/
 * ata-blobs decoded by our decoder and compared with ground-truth.csv, plus
 * each trap the README there lists.  Skips when ../shared is absent. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "test_top.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "inventory/ata.h"
#include "inventory/smr.h"

#define MAX_ROWS 64

struct row {
	char file[160], model[48], serial[32], firmware[16];
	uint64_t capacity, logical, physical;
	unsigned w106, w117, w118, w217, w169, w69, zoned;
	bool smst;
};

static char realdata[PATH_MAX];
static struct row rows[MAX_ROWS];
static size_t n_rows;

/* The repo top is the cwd under `make check`; fall back to the executable's
 * place (build/tests/X -> repo top) so the program also runs from elsewhere. */
static bool
find_realdata(void)
{
	char exe[PATH_MAX], cand[PATH_MAX + 64];
	const char *env = getenv("DS_REALDATA");
	if (env) {
		snprintf(realdata, sizeof realdata, "%s", env);
		snprintf(cand, sizeof cand, "%s/ata-blobs/ground-truth.csv", realdata);
		return access(cand, R_OK) == 0;
	}
	snprintf(realdata, sizeof realdata, "../shared/realdata");
	snprintf(cand, sizeof cand, "%s/ata-blobs/ground-truth.csv", realdata);
	if (access(cand, R_OK) == 0)
		return true;
	if (test_top(exe, sizeof exe))
		return false;
	snprintf(realdata, sizeof realdata, "%.*s/../shared/realdata", PATH_MAX - 32, exe);
	snprintf(cand, sizeof cand, "%s/ata-blobs/ground-truth.csv", realdata);
	return access(cand, R_OK) == 0;
}

static unsigned
num(const char *s)
{
	return (unsigned)strtoul(s, NULL, 0);
}

/* ground-truth.csv has no quoted fields: plain comma split. */
static int
load_truth(void)
{
	char path[PATH_MAX + 64], line[1024];
	snprintf(path, sizeof path, "%s/ata-blobs/ground-truth.csv", realdata);
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	bool header = true;
	while (fgets(line, sizeof line, f) && n_rows < MAX_ROWS) {
		line[strcspn(line, "\r\n")] = '\0';
		if (header) {
			header = false;
			continue;
		}
		char *fld[16];
		int nf = 0;
		char *p = line;
		while (nf < 16) {
			fld[nf++] = p;
			char *c = strchr(p, ',');
			if (!c)
				break;
			*c = '\0';
			p = c + 1;
		}
		if (nf != 15)
			continue;
		struct row *r = &rows[n_rows++];
		snprintf(r->file, sizeof r->file, "%s", fld[0]);
		snprintf(r->model, sizeof r->model, "%s", fld[1]);
		snprintf(r->serial, sizeof r->serial, "%s", fld[2]);
		snprintf(r->firmware, sizeof r->firmware, "%s", fld[3]);
		r->capacity = strtoull(fld[4], NULL, 10);
		r->w106 = num(fld[5]);
		r->logical = strtoull(fld[6], NULL, 10);
		r->physical = strtoull(fld[7], NULL, 10);
		sscanf(fld[8], "%x %x", &r->w117, &r->w118);
		r->w217 = num(fld[9]);
		r->w169 = num(fld[10]);
		r->w69 = num(fld[11]);
		r->zoned = num(fld[12]);
		r->smst = strcmp(fld[13], "yes") == 0;
	}
	fclose(f);
	return 0;
}

static void
decode_file(const char *rel, struct ata_info *a)
{
	char path[PATH_MAX + 200];
	snprintf(path, sizeof path, "%s/%s", realdata, rel);
	int rc = ata_from_blob_file(path, a);
	if (rc != 0)
		fail_msg("%s: %s", rel, a->reason);
	assert_int_equal(a->state, ATA_OK);
}

static const struct row *
row_named(const char *part)
{
	for (size_t i = 0; i < n_rows; i++)
		if (strstr(rows[i].file, part))
			return &rows[i];
	fail_msg("ground truth has no row for %s", part);
	return NULL;
}

/* One test per blob: every column of the ground truth. */
static void
test_blob(void **state)
{
	const struct row *r = *state;
	struct ata_info a;
	decode_file(r->file, &a);
	const struct ata_identify *id = &a.id;

	assert_string_equal(id->model, r->model);
	assert_string_equal(id->serial, r->serial);
	assert_string_equal(id->firmware, r->firmware);
	assert_true(id->capacity_bytes.known);
	assert_int_equal(id->capacity_bytes.v, r->capacity);

	assert_int_equal(id->words[106], r->w106);
	assert_int_equal(id->words[117], r->w117);
	assert_int_equal(id->words[118], r->w118);
	bool reported = (r->w106 & 0xC000) == 0x4000;
	assert_int_equal(id->sector_size_reported, reported);
	/* not reported: ATA's 512/512, known, with sector_size_reported false */
	assert_true(id->logical.known);
	assert_true(id->physical.known);
	assert_int_equal(id->logical.v, r->logical);
	assert_int_equal(id->physical.v, r->physical);

	if (r->w217 == 1) {
		assert_true(id->ssd);
		assert_true(id->rotation_rpm.known);
		assert_int_equal(id->rotation_rpm.v, 0);
	} else if (r->w217 > 0x400 && r->w217 != 0xFFFF) {
		assert_false(id->ssd);
		assert_true(id->rotation_rpm.known);
		assert_int_equal(id->rotation_rpm.v, r->w217);
	} else {
		assert_false(id->ssd);
		assert_false(id->rotation_rpm.known);
	}

	assert_true(id->trim.known);
	assert_int_equal(id->trim.v, r->w169 & 1);
	if (r->w169 & 1) {
		assert_true(id->trim_deterministic.known);
		assert_int_equal(id->trim_deterministic.v, (r->w69 >> 14) & 1);
		assert_int_equal(id->trim_zeroed.v, (r->w69 >> 5) & 1);
	} else {
		assert_false(id->trim_deterministic.known);
	}
	assert_true(id->zoned.known);
	assert_int_equal(id->zoned.v, r->zoned);

	assert_int_equal(a.smart.status_good.known, r->smst);
	/* Every real blob carries SMART data: libatasmart parsed attributes. */
	assert_true(a.smart.known);
	assert_true(a.smart.n_attrs > 0);
	for (size_t i = 0; i < a.smart.n_attrs; i++)
		assert_true(a.smart.attrs[i].id != 0);
	ata_info_free(&a);
}

/* Words 117-118 hold 0x0100 but word 106 bit 12 is clear: logical stays 512. */
static void
test_trap_w117_without_bit12(void **state)
{
	(void)state;
	static const char *const names[] = { "ST9100821AS", "ST9160821AS", "TOSHIBA_MK1651GSY" };
	for (size_t i = 0; i < 3; i++) {
		struct ata_info a;
		decode_file(row_named(names[i])->file, &a);
		assert_int_equal(a.id.words[117], 0x0100);
		assert_int_equal(a.id.words[106] & (1u << 12), 0);
		assert_true(a.id.sector_size_reported);
		assert_int_equal(a.id.logical.v, 512);
		assert_int_equal(a.id.physical.v, 512);
		ata_info_free(&a);
	}
}

/* WD20EARS: 4K physical but word 106 = 0 -> 512/512 "not reported", and the
 * AF warning from the SMR/AF assessment. */
static void
test_trap_wd20ears_hidden_af(void **state)
{
	(void)state;
	struct drive d;
	memset(&d, 0, sizeof d);
	decode_file(row_named("WD20EARS")->file, &d.ata);
	assert_false(d.ata.id.sector_size_reported);
	assert_int_equal(d.ata.id.physical.v, 512);
	ata_apply_identify(&d);
	/* shown as ATA means it (512/512), marked as not reported by the drive */
	assert_true(d.logical.known);
	assert_true(d.physical.known);
	assert_int_equal(d.logical.v, 512);
	assert_int_equal(d.physical.v, 512);
	assert_string_equal(d.sector_source, "ata-default");
	smr_assess(&d);
	bool warned = false;
	for (size_t i = 0; i < d.warnings.n; i++)
		if (strstr(d.warnings.v[i], "AF drive that hides its 4K sectors"))
			warned = true;
	assert_true(warned);
	strlist_free(&d.warnings);
	strlist_free(&d.smr.evidence);
	ata_info_free(&d.ata);
}

/* SAMSUNG_HS122JC pads its model with NUL bytes: they must not survive. */
static void
test_trap_nul_padded_model(void **state)
{
	(void)state;
	struct ata_info a;
	decode_file(row_named("SAMSUNG_HS122JC")->file, &a);
	bool has_nul = false;
	for (int i = 27; i <= 46; i++)
		if ((a.id.words[i] & 0xFF) == 0 || (a.id.words[i] >> 8) == 0)
			has_nul = true;
	assert_true(has_nul);	/* the trap is really in the data */
	assert_string_equal(a.id.model, "SAMSUNG HS122JC");
	for (const char *p = a.id.model; *p; p++)
		assert_true(*p >= 0x20 && *p < 0x7F);
	ata_info_free(&a);
}

/* WD2500JB has no SMST record: status and overall verdict stay unknown. */
static void
test_trap_no_smst(void **state)
{
	(void)state;
	struct ata_info a;
	decode_file(row_named("WDC_WD2500JB")->file, &a);
	assert_false(a.smart.status_good.known);
	assert_string_equal(a.smart.overall, "");
	assert_true(a.smart.known);
	assert_true(a.smart.reason[0] != '\0');
	ata_info_free(&a);
}

/* Maxtor_96147H8--BAC51KJ0--2 is failing (SMST = 0); its twin is not. */
static void
test_trap_failing_drive(void **state)
{
	(void)state;
	struct ata_info bad, good;
	decode_file(row_named("Maxtor_96147H8--BAC51KJ0--2")->file, &bad);
	assert_true(bad.smart.status_good.known);
	assert_int_equal(bad.smart.status_good.v, 0);
	assert_string_equal(bad.smart.overall, "bad_status");
	ata_info_free(&bad);

	const struct row *r = NULL;
	for (size_t i = 0; i < n_rows; i++)
		if (strstr(rows[i].file, "Maxtor_96147H8--BAC51KJ0") &&
		    !strstr(rows[i].file, "--2"))
			r = &rows[i];
	assert_non_null(r);
	decode_file(r->file, &good);
	assert_int_equal(good.smart.status_good.v, 1);
	assert_string_not_equal(good.smart.overall, "bad_status");
	ata_info_free(&good);
}

/* TOSHIBA_MK1651GSY: the file name carries the serial, the firmware is LD001D. */
static void
test_trap_toshiba_serial_in_name(void **state)
{
	(void)state;
	struct ata_info a;
	decode_file(row_named("TOSHIBA_MK1651GSY")->file, &a);
	assert_string_equal(a.id.serial, "38IGT0G5T");
	assert_string_equal(a.id.firmware, "LD001D");
	ata_info_free(&a);
}

/* An SSD whose word 217 is 0: rotation unknown, never "0 rpm". */
static void
test_trap_ssd_without_w217(void **state)
{
	(void)state;
	struct ata_info a;
	decode_file(row_named("MCCOE64GEMPP")->file, &a);
	assert_int_equal(a.id.words[217], 0);
	assert_false(a.id.rotation_rpm.known);
	assert_false(a.id.ssd);
	ata_info_free(&a);
}

/* Word 69 deterministic / zeroed TRIM patterns seen in the captures. */
static void
test_trap_w69_patterns(void **state)
{
	(void)state;
	static const struct { unsigned w69; bool det, zero; } want[] = {
		{ 0x4020, true, true }, { 0x0c00, false, false },
		{ 0x1f00, false, false }, { 0x5f20, true, true },
	};
	for (size_t k = 0; k < ARRAY_SIZE(want); k++) {
		bool seen = false;
		for (size_t i = 0; i < n_rows; i++) {
			if (rows[i].w69 != want[k].w69 || !(rows[i].w169 & 1))
				continue;
			struct ata_info a;
			decode_file(rows[i].file, &a);
			assert_int_equal(a.id.trim_deterministic.v, want[k].det);
			assert_int_equal(a.id.trim_zeroed.v, want[k].zero);
			ata_info_free(&a);
			seen = true;
		}
		if (!seen)
			fail_msg("no TRIM blob with word 69 = 0x%04x", want[k].w69);
	}
}

/* Drives without LBA48 get their capacity from words 60-61. */
static void
test_trap_no_lba48(void **state)
{
	(void)state;
	size_t seen = 0;
	for (size_t i = 0; i < n_rows; i++) {
		struct ata_info a;
		decode_file(rows[i].file, &a);
		if (!a.id.lba48) {
			uint64_t s28 = a.id.words[60] | ((uint64_t)a.id.words[61] << 16);
			assert_int_equal(a.id.sectors.v, s28);
			assert_int_equal(a.id.capacity_bytes.v, rows[i].capacity);
			seen++;
		}
		ata_info_free(&a);
	}
	assert_true(seen > 0);
}

int
main(void)
{
	if (!find_realdata()) {
		printf("SKIP: ../shared/realdata/ata-blobs not found (run from the repo top beside ../shared)\n");
		return 77;
	}
	if (load_truth() < 0 || n_rows == 0) {
		printf("ground-truth.csv unreadable or empty under %s\n", realdata);
		return 1;
	}
	if (n_rows != 32)
		printf("note: ground truth lists %zu blobs (expected 32)\n", n_rows);

	static const struct CMUnitTest traps[] = {
		cmocka_unit_test(test_trap_w117_without_bit12),
		cmocka_unit_test(test_trap_wd20ears_hidden_af),
		cmocka_unit_test(test_trap_nul_padded_model),
		cmocka_unit_test(test_trap_no_smst),
		cmocka_unit_test(test_trap_failing_drive),
		cmocka_unit_test(test_trap_toshiba_serial_in_name),
		cmocka_unit_test(test_trap_ssd_without_w217),
		cmocka_unit_test(test_trap_w69_patterns),
		cmocka_unit_test(test_trap_no_lba48),
	};
	struct CMUnitTest t[MAX_ROWS + ARRAY_SIZE(traps)];
	size_t n = 0;
	for (size_t i = 0; i < n_rows; i++) {
		memset(&t[n], 0, sizeof t[n]);
		t[n].name = rows[i].file;
		t[n].test_func = test_blob;
		t[n].initial_state = &rows[i];
		n++;
	}
	for (size_t i = 0; i < ARRAY_SIZE(traps); i++)
		t[n++] = traps[i];
	int failed = _cmocka_run_group_tests("ata_blobs", t, n, NULL, NULL);
	if (n_rows != 32) {
		printf("ground truth should list 32 blobs, lists %zu\n", n_rows);
		return 1;
	}
	return failed ? 1 : 0;
}
