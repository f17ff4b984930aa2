/* test_smr.c - SMR verdicts with their evidence for real model strings, the
 * signals (zoned bits, TRIM on rotating media, model lists), and the hidden
 * Advanced Format warning. */
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
#include "inventory/smr.h"
#include "util/embedded.h"

struct spec {
	const char *model;
	unsigned rpm;		/* word 217: 1 = SSD, 0 = not reported */
	bool trim;
	unsigned zoned;		/* word 69 bits 1:0 */
	uint16_t w106;		/* 0 = not reported */
};

static void
put_string(uint16_t *w, unsigned first, unsigned nwords, const char *s)
{
	size_t n = strlen(s);
	for (unsigned i = 0; i < nwords; i++) {
		unsigned char hi = 2 * i < n ? (unsigned char)s[2 * i] : ' ';
		unsigned char lo = 2 * i + 1 < n ? (unsigned char)s[2 * i + 1] : ' ';
		w[first + i] = (uint16_t)(hi << 8 | lo);
	}
}

/* A SATA drive as ata_query_all would leave it: IDENTIFY decoded and applied.
 * sysfs keeps only the first 16 characters of the model, as libata does. */
static void
make_drive(struct drive *d, const struct spec *s)
{
	uint16_t w[256];
	memset(d, 0, sizeof *d);
	memset(w, 0, sizeof w);
	snprintf(d->name, sizeof d->name, "sda");
	snprintf(d->model, sizeof d->model, "%.16s", s->model);
	d->transport = TR_SATA;
	KNOWN_SET(d->logical, 512);
	KNOWN_SET(d->physical, 512);
	KNOWN_SET(d->rotational, s->rpm == 1 ? 0 : 1);
	put_string(w, 27, 20, s->model);
	put_string(w, 10, 10, "SERIAL1");
	w[217] = (uint16_t)s->rpm;
	w[169] = s->trim ? 1 : 0;
	w[69] = (uint16_t)s->zoned;
	w[106] = s->w106;
	ata_identify_decode(w, &d->ata.id);
	d->ata.state = ATA_OK;
	ata_apply_identify(d);
}

static void
drop(struct drive *d)
{
	strlist_free(&d->smr.evidence);
	strlist_free(&d->warnings);
}

static bool
has_evidence(const struct drive *d, const char *needle)
{
	for (size_t i = 0; i < d->smr.evidence.n; i++)
		if (strstr(d->smr.evidence.v[i], needle))
			return true;
	return false;
}

static bool
has_warning(const struct drive *d, const char *needle)
{
	for (size_t i = 0; i < d->warnings.n; i++)
		if (strstr(d->warnings.v[i], needle))
			return true;
	return false;
}

#define ASSERT_EVIDENCE(d, s) do { if (!has_evidence(d, s)) \
	fail_msg("no evidence '%s' for %s (verdict %s)", s, (d)->model, \
		 smr_verdict_name((d)->smr.verdict)); } while (0)

static void
test_wd20efax_likely(void **state)
{
	(void)state;
	struct drive d;
	make_drive(&d, &(struct spec){ "WDC WD20EFAX-68FB5N0", 5400, true, 0, 0x6003 });
	assert_string_equal(d.model, "WDC WD20EFAX-68FB5N0");	/* IDENTIFY completes sysfs' 16 chars */
	smr_assess(&d);
	assert_int_equal(d.smr.verdict, SMR_LIKELY);
	ASSERT_EVIDENCE(&d, "no zoned bits");
	ASSERT_EVIDENCE(&d, "TRIM on rotating media");
	ASSERT_EVIDENCE(&d, "model family WD Red (EFAX) listed SMR by WD 2020 disclosure");
	ASSERT_EVIDENCE(&d, "smartmontools drivedb");
	assert_false(has_warning(&d, "AF drive"));
	drop(&d);
}

/* The model list alone (no IDENTIFY, sysfs' truncated model) still says it. */
static void
test_wd20efax_from_sysfs_model(void **state)
{
	(void)state;
	struct drive d;
	memset(&d, 0, sizeof d);
	snprintf(d.model, sizeof d.model, "WDC WD20EFAX-68F");
	d.transport = TR_SATA;
	KNOWN_SET(d.rotational, 1);
	d.ata.state = ATA_FAILED;
	smr_assess(&d);
	assert_int_equal(d.smr.verdict, SMR_LIKELY);
	ASSERT_EVIDENCE(&d, "listed SMR");
	ASSERT_EVIDENCE(&d, "no IDENTIFY data");
	drop(&d);
}

static void
test_wd20efrx_unlikely(void **state)
{
	(void)state;
	struct drive d;
	make_drive(&d, &(struct spec){ "WDC WD20EFRX-68EUZN0", 5400, false, 0, 0x6003 });
	smr_assess(&d);
	assert_int_equal(d.smr.verdict, SMR_UNLIKELY);
	ASSERT_EVIDENCE(&d, "no zoned bits");
	ASSERT_EVIDENCE(&d, "no TRIM on rotating media");
	ASSERT_EVIDENCE(&d, "listed CMR");
	drop(&d);
}

static void
test_st2000dm008_likely(void **state)
{
	(void)state;
	struct drive d;
	make_drive(&d, &(struct spec){ "ST2000DM008-2FR102", 7200, true, 0, 0x6003 });
	smr_assess(&d);
	assert_int_equal(d.smr.verdict, SMR_LIKELY);
	ASSERT_EVIDENCE(&d, "TRIM on rotating media");
	ASSERT_EVIDENCE(&d, "Seagate BarraCuda");
	drop(&d);
}

/* Toshiba MQ04ABB400: no TRIM, in no list, but device-managed zoned bits. */
static void
test_mq04abb400_zoned_bits(void **state)
{
	(void)state;
	struct drive d;
	make_drive(&d, &(struct spec){ "TOSHIBA MQ04ABB400", 5400, false, 2, 0x6003 });
	smr_assess(&d);
	assert_int_equal(d.smr.verdict, SMR_LIKELY);
	ASSERT_EVIDENCE(&d, "device-managed zoned bits");
	ASSERT_EVIDENCE(&d, "model not in the shipped SMR/CMR lists");
	assert_false(has_evidence(&d, "listed SMR"));
	drop(&d);
}

static void
test_st2000dm001_cmr(void **state)
{
	(void)state;
	struct drive d;
	make_drive(&d, &(struct spec){ "ST2000DM001-1CH164", 7200, false, 0, 0x6003 });
	smr_assess(&d);
	assert_int_equal(d.smr.verdict, SMR_UNLIKELY);
	ASSERT_EVIDENCE(&d, "listed CMR");
	assert_false(has_warning(&d, "AF drive"));	/* it reports its 4K */
	drop(&d);
}

static void
test_unknown_model_unknown(void **state)
{
	(void)state;
	struct drive d;
	make_drive(&d, &(struct spec){ "ACME HD1234-XYZ", 7200, false, 0, 0 });
	smr_assess(&d);
	assert_int_equal(d.smr.verdict, SMR_UNKNOWN);
	assert_string_equal(smr_verdict_name(d.smr.verdict), "unknown");
	ASSERT_EVIDENCE(&d, "model not in the shipped SMR/CMR lists");
	assert_true(d.smr.evidence.n >= 2);	/* never a bare verdict */
	drop(&d);
}

static void
test_trim_on_rotating_unknown_model(void **state)
{
	(void)state;
	struct drive d;
	make_drive(&d, &(struct spec){ "ACME HD1234-XYZ", 5400, true, 0, 0 });
	smr_assess(&d);
	assert_int_equal(d.smr.verdict, SMR_LIKELY);
	ASSERT_EVIDENCE(&d, "TRIM on rotating media");
	drop(&d);

	/* the same TRIM on an SSD says nothing about shingles */
	make_drive(&d, &(struct spec){ "ACME SSD 1TB", 1, true, 0, 0 });
	smr_assess(&d);
	assert_int_equal(d.smr.verdict, SMR_UNLIKELY);
	ASSERT_EVIDENCE(&d, "solid-state");
	assert_false(has_evidence(&d, "TRIM on rotating"));
	drop(&d);
}

/* A CMR-listed model that shows an SMR hint: the signals disagree. */
static void
test_conflict_possible(void **state)
{
	(void)state;
	struct drive d;
	make_drive(&d, &(struct spec){ "WDC WD20EFRX-68EUZN0", 5400, true, 0, 0x6003 });
	smr_assess(&d);
	assert_int_equal(d.smr.verdict, SMR_POSSIBLE);
	ASSERT_EVIDENCE(&d, "TRIM on rotating media");
	ASSERT_EVIDENCE(&d, "listed CMR");
	drop(&d);
}

static void
test_zoned_host_aware_and_managed(void **state)
{
	(void)state;
	struct drive d;
	make_drive(&d, &(struct spec){ "ACME HA1", 7200, false, 1, 0x6003 });
	smr_assess(&d);
	assert_int_equal(d.smr.verdict, SMR_ZONED);
	ASSERT_EVIDENCE(&d, "host-aware");
	drop(&d);

	memset(&d, 0, sizeof d);
	snprintf(d.model, sizeof d.model, "HGST HSH721414AL");
	snprintf(d.zoned, sizeof d.zoned, "host-managed");
	d.transport = TR_SAS;
	d.ata.state = ATA_NOT_ATA;
	smr_assess(&d);
	assert_int_equal(d.smr.verdict, SMR_ZONED);
	ASSERT_EVIDENCE(&d, "host-managed");
	drop(&d);
}

/* AF families that report 512/512 get the warning; others do not. */
static void
test_af_hidden_warning(void **state)
{
	(void)state;
	struct drive d;
	make_drive(&d, &(struct spec){ "WDC WD20EARS-00MVWB0", 0, false, 0, 0 });
	smr_assess(&d);
	assert_true(has_warning(&d, "AF drive that hides its 4K sectors"));
	smr_assess(&d);	/* again: no duplicate warning */
	size_t n = 0;
	for (size_t i = 0; i < d.warnings.n; i++)
		n += strstr(d.warnings.v[i], "AF drive") != NULL;
	assert_int_equal(n, 1);
	drop(&d);

	/* HD204UI: word 106 valid but 1:1 -> reports 512 physical */
	make_drive(&d, &(struct spec){ "SAMSUNG HD204UI", 5400, false, 0, 0x4000 });
	smr_assess(&d);
	assert_true(has_warning(&d, "AF drive that hides its 4K sectors"));
	drop(&d);

	/* same model, but this one reports 4096 physical: nothing hidden */
	make_drive(&d, &(struct spec){ "SAMSUNG HD204UI", 5400, false, 0, 0x6003 });
	smr_assess(&d);
	assert_false(has_warning(&d, "AF drive"));
	drop(&d);

	/* a non-AF model reporting 512/512 gets no such warning */
	make_drive(&d, &(struct spec){ "WDC WD2500JB-00REA0", 7200, false, 0, 0 });
	smr_assess(&d);
	assert_false(has_warning(&d, "AF drive"));
	drop(&d);
}

/* Nothing known: still an explanation, never a bare "unknown". */
static void
test_no_facts_still_explained(void **state)
{
	(void)state;
	struct drive d;
	memset(&d, 0, sizeof d);
	d.transport = TR_VIRTIO;
	d.ata.state = ATA_NOT_ATA;
	KNOWN_SET(d.rotational, 1);
	smr_assess(&d);
	assert_int_equal(d.smr.verdict, SMR_UNKNOWN);
	assert_int_equal(d.smr.evidence.n, 1);
	ASSERT_EVIDENCE(&d, "virtio");
	drop(&d);
}

static void
test_lookup_and_names(void **state)
{
	(void)state;
	struct smr_model_hit h;
	assert_int_equal(smr_lookup_model("WDC WD20EFAX-68FB5N0", "SMR", &h), 0);
	assert_string_equal(h.kind, "SMR");
	assert_non_null(h.family);
	assert_non_null(h.source);
	assert_int_equal(smr_lookup_model("WDC WD20EFAX-68FB5N0", "CMR", &h), -ENOENT);
	assert_int_equal(smr_lookup_model("ST2000DM001-1CH164", "AF", &h), 0);
	assert_int_equal(smr_lookup_model("ST2000DM001-1CH164", "CMR", &h), 0);
	assert_int_equal(smr_lookup_model("ST8000AS0002-1NA17Z", "SMR", &h), 0); /* drivedb regex */
	assert_int_equal(smr_lookup_model("ST8000AS0003-1NA17Z", "SMR", &h), -ENOENT);
	assert_int_equal(smr_lookup_model("", NULL, &h), -ENOENT);
	assert_int_equal(smr_lookup_model(NULL, NULL, &h), -ENOENT);
	assert_string_equal(smr_verdict_name(SMR_UNKNOWN), "unknown");
	assert_string_equal(smr_verdict_name(SMR_UNLIKELY), "unlikely");
	assert_string_equal(smr_verdict_name(SMR_POSSIBLE), "possible");
	assert_string_equal(smr_verdict_name(SMR_LIKELY), "likely");
	assert_string_equal(smr_verdict_name(SMR_ZONED), "zoned");
}

/* Every prefix row of the shipped CSV is found again (the parser reads them
 * all, quoted fields included), and every row says where it came from. */
static void
test_every_csv_row_loads(void **state)
{
	(void)state;
	const struct embedded_file *f = embedded_find("src/inventory/smr-models.csv");
	assert_non_null(f);
	char *text = strdup(f->data), *save = NULL;
	size_t rows = 0;
	bool header = true;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		if (header) {
			assert_string_equal(line, "kind,match,pattern,family,listed_by,reference");
			header = false;
			continue;
		}
		char kind[8], match[8], pattern[200];
		assert_int_equal(sscanf(line, "%7[^,],%7[^,],%199[^,]", kind, match, pattern), 3);
		/* six fields, the last (reference) non-empty */
		assert_true(line[strlen(line) - 1] != ',');
		if (strcmp(match, "prefix") == 0) {
			struct smr_model_hit h;
			if (smr_lookup_model(pattern, kind, &h) != 0)
				fail_msg("row %s %s not found again", kind, pattern);
		} else {
			assert_string_equal(match, "regex");
		}
		rows++;
	}
	free(text);
	assert_true(rows >= 50);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wd20efax_likely),
		cmocka_unit_test(test_wd20efax_from_sysfs_model),
		cmocka_unit_test(test_wd20efrx_unlikely),
		cmocka_unit_test(test_st2000dm008_likely),
		cmocka_unit_test(test_mq04abb400_zoned_bits),
		cmocka_unit_test(test_st2000dm001_cmr),
		cmocka_unit_test(test_unknown_model_unknown),
		cmocka_unit_test(test_trim_on_rotating_unknown_model),
		cmocka_unit_test(test_conflict_possible),
		cmocka_unit_test(test_zoned_host_aware_and_managed),
		cmocka_unit_test(test_af_hidden_warning),
		cmocka_unit_test(test_no_facts_still_explained),
		cmocka_unit_test(test_lookup_and_names),
		cmocka_unit_test(test_every_csv_row_loads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
