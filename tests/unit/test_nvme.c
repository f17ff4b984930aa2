/* test_nvme - the NVMe decoders (inventory/nvme.c) on captured pages: QEMU
 * 7.2's emulated controllers, their identify pages and health log as the
 * guest read them, with nvme-cli 2.3's own decoding of the same controller
 * (tests/fixtures/nvme/README) as the ground truth.  Then hand-set pages for
 * what QEMU never reports: warning bits, worn-out percentage, 128-bit
 * counters, namespace ids, a format index above 15, error and self-test logs. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <libnvme.h>
#include "test_top.h"
#include "inventory/nvme.h"

static char fix[PATH_MAX];		/* tests/fixtures/nvme */
static const char *const captures[] = { "qemu72-512", "qemu72-4kn" };

static int
find_fixtures(void)
{
	return test_fixture_dir(fix, sizeof fix, "nvme");
}

/* The capture NAME.WHAT.bin, exactly n bytes. */
static void
load_bin(const char *name, const char *what, void *buf, size_t n)
{
	char path[PATH_MAX];
	assert_true((size_t)snprintf(path, sizeof path, "%s/%s.%s.bin", fix, name, what) <
		    sizeof path);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, n, f), n);
	assert_int_equal(fgetc(f), EOF);
	fclose(f);
}

static struct json_object *
load_json(const char *name, const char *what)
{
	char path[PATH_MAX];
	assert_true((size_t)snprintf(path, sizeof path, "%s/%s.%s.json", fix, name, what) <
		    sizeof path);
	struct json_object *o = json_object_from_file(path);
	assert_non_null(o);
	return o;
}

/* nvme-cli writes 128-bit counters as strings, the rest as numbers. */
static uint64_t
jnum(struct json_object *o, const char *key)
{
	struct json_object *v;
	assert_true(json_object_object_get_ex(o, key, &v));
	if (json_object_is_type(v, json_type_string))
		return strtoull(json_object_get_string(v), NULL, 10);
	return (uint64_t)json_object_get_int64(v);
}

static const char *
jstr(struct json_object *o, const char *key)
{
	struct json_object *v;
	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_string(v);
}

static void
assert_known(struct known_u64 k, uint64_t want)
{
	assert_true(k.known);
	assert_int_equal(k.v, want);
}

static void
test_health_log_vs_nvme_cli(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof captures / sizeof captures[0]; i++) {
		struct nvme_smart_log raw;
		struct nvme_health h;
		load_bin(captures[i], "smart", &raw, sizeof raw);
		nvme_health_from_smart(&raw, &h);
		struct json_object *t = load_json(captures[i], "smart");
		assert_true(h.known);
		assert_known(h.critical_warning, jnum(t, "critical_warning"));
		assert_true(h.temperature_c.known);
		assert_int_equal(h.temperature_c.v, (int64_t)jnum(t, "temperature") - 273);
		assert_known(h.available_spare, jnum(t, "avail_spare"));
		assert_known(h.spare_threshold, jnum(t, "spare_thresh"));
		assert_known(h.percent_used, jnum(t, "percent_used"));
		assert_known(h.data_units_read, jnum(t, "data_units_read"));
		assert_known(h.data_units_written, jnum(t, "data_units_written"));
		assert_known(h.power_on_hours, jnum(t, "power_on_hours"));
		assert_known(h.power_cycles, jnum(t, "power_cycles"));
		assert_known(h.unsafe_shutdowns, jnum(t, "unsafe_shutdowns"));
		assert_known(h.media_errors, jnum(t, "media_errors"));
		assert_known(h.error_log_entries, jnum(t, "num_err_log_entries"));
		assert_known(h.warning_temp_minutes, jnum(t, "warning_temp_time"));
		assert_known(h.critical_temp_minutes, jnum(t, "critical_comp_time"));
		/* QEMU's fixed values (hw/nvme/ctrl.c: NVME_TEMPERATURE 0x143 K) */
		assert_int_equal(h.temperature_c.v, 50);
		json_object_put(t);
	}
}

static void
test_identify_vs_nvme_cli(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof captures / sizeof captures[0]; i++) {
		struct nvme_id_ctrl ctrl;
		struct nvme_id_ns ns;
		struct nvme_info n;
		memset(&n, 0, sizeof n);
		load_bin(captures[i], "id-ctrl", &ctrl, sizeof ctrl);
		load_bin(captures[i], "id-ns", &ns, sizeof ns);
		nvme_health_from_ctrl(&ctrl, &n);
		nvme_health_from_ns(&ns, &n);

		struct json_object *c = load_json(captures[i], "id-ctrl");
		char want[64];
		assert_true(n.known);
		/* nvme-cli keeps the blank padding: ours is trimmed */
		snprintf(want, sizeof want, "%s", jstr(c, "mn"));
		for (size_t l = strlen(want); l && want[l - 1] == ' '; l--)
			want[l - 1] = 0;
		assert_string_equal(n.model, want);
		assert_string_equal(n.model, "QEMU NVMe Ctrl");
		snprintf(want, sizeof want, "%s", jstr(c, "sn"));
		for (size_t l = strlen(want); l && want[l - 1] == ' '; l--)
			want[l - 1] = 0;
		assert_string_equal(n.serial, want);
		snprintf(want, sizeof want, "%s", jstr(c, "fr"));
		for (size_t l = strlen(want); l && want[l - 1] == ' '; l--)
			want[l - 1] = 0;
		assert_string_equal(n.firmware, want);
		assert_true(n.warning_temp_c.known && n.critical_temp_c.known);
		assert_int_equal(n.warning_temp_c.v, (int64_t)jnum(c, "wctemp") - 273);
		assert_int_equal(n.critical_temp_c.v, (int64_t)jnum(c, "cctemp") - 273);
		assert_true(n.selftest_supported.known);
		assert_int_equal(n.selftest_supported.v, (jnum(c, "oacs") >> 4) & 1);
		/* QEMU 7.2 advertises no Device Self-test (OACS 0x10a) */
		assert_false(n.selftest_supported.v);
		assert_known(n.error_log_capacity, jnum(c, "elpe") + 1);
		json_object_put(c);

		struct json_object *s = load_json(captures[i], "id-ns");
		assert_known(n.ns_size_lba, jnum(s, "nsze"));
		assert_int_equal(n.n_lbaf, jnum(s, "nlbaf") + 1);
		struct json_object *fs;
		assert_true(json_object_object_get_ex(s, "lbafs", &fs));
		assert_int_equal(json_object_array_length(fs), n.n_lbaf);
		for (unsigned k = 0; k < n.n_lbaf; k++) {
			struct json_object *f = json_object_array_get_idx(fs, k);
			assert_int_equal(n.lbaf[k].data_bytes, (uint64_t)1 << jnum(f, "ds"));
			assert_int_equal(n.lbaf[k].meta_bytes, jnum(f, "ms"));
			assert_int_equal(n.lbaf[k].rel_perf, jnum(f, "rp"));
		}
		assert_known(n.lbaf_in_use, jnum(s, "flbas") & 0xf);
		/* QEMU gives neither NGUID nor EUI64 by default: no id, not zeros */
		assert_string_equal(jstr(s, "nguid"), "00000000000000000000000000000000");
		assert_string_equal(n.ns_id, "");
		json_object_put(s);
	}
	/* the two rigs' formats: 512 bytes (index 0) and 4 KiB (index 4), no metadata */
	struct nvme_id_ns ns;
	struct nvme_info n;
	memset(&n, 0, sizeof n);
	load_bin("qemu72-4kn", "id-ns", &ns, sizeof ns);
	nvme_health_from_ns(&ns, &n);
	assert_known(n.lbaf_in_use, 4);
	assert_int_equal(n.lbaf[4].data_bytes, 4096);
	assert_int_equal(n.lbaf[4].meta_bytes, 0);
	assert_int_equal(n.lbaf[7].meta_bytes, 64);
}

/* A worn drive QEMU cannot show: bits set, spare under its threshold. */
static void
test_health_log_worn(void **state)
{
	(void)state;
	struct nvme_smart_log raw;
	struct nvme_health h;
	load_bin("qemu72-512", "smart", &raw, sizeof raw);
	raw.critical_warning = NVME_CW_SPARE | NVME_CW_DEGRADED | NVME_CW_READ_ONLY;
	raw.temperature[0] = 0x5e, raw.temperature[1] = 0x01;	/* 350 K */
	raw.avail_spare = 3, raw.spare_thresh = 10, raw.percent_used = 255;
	memset(raw.media_errors, 0, 16);
	raw.media_errors[0] = 0x34, raw.media_errors[1] = 0x12;
	raw.power_on_hours[0] = 0x10, raw.power_on_hours[7] = 0x01;	/* 2^56 + 16 */
	raw.data_units_written[8] = 1;	/* past 64 bits: not representable */
	nvme_health_from_smart(&raw, &h);
	assert_known(h.critical_warning, 0x0d);
	char t[160];
	assert_string_equal(nvme_crit_text(h.critical_warning.v, t, sizeof t),
			    "spare below threshold, reliability degraded, read-only");
	assert_int_equal(h.temperature_c.v, 77);
	assert_known(h.available_spare, 3);
	assert_known(h.spare_threshold, 10);
	assert_known(h.percent_used, 255);		/* may pass 100: kept as is */
	assert_known(h.media_errors, 0x1234);
	assert_known(h.power_on_hours, ((uint64_t)1 << 56) + 16);
	assert_false(h.data_units_written.known);	/* unknown, never a cut value */
	/* a zero temperature is no reading at all */
	raw.temperature[0] = raw.temperature[1] = 0;
	nvme_health_from_smart(&raw, &h);
	assert_false(h.temperature_c.known);
	assert_string_equal(nvme_crit_text(0, t, sizeof t), "");
}

static void
test_namespace_ids_and_formats(void **state)
{
	(void)state;
	struct nvme_id_ns ns;
	struct nvme_info n;
	memset(&n, 0, sizeof n);
	load_bin("qemu72-512", "id-ns", &ns, sizeof ns);
	ns.eui64[0] = 0x00, ns.eui64[1] = 0x25, ns.eui64[7] = 0x9f;
	nvme_health_from_ns(&ns, &n);
	assert_string_equal(n.ns_id, "eui64:002500000000009f");
	ns.nguid[0] = 0xab, ns.nguid[15] = 0x01;	/* NGUID outranks EUI64 */
	nvme_health_from_ns(&ns, &n);
	assert_string_equal(n.ns_id, "nguid:ab000000000000000000000000000001");
	/* 20 formats, index 18 = FLBAS bits 6:5 (01) above bits 3:0 (0010) */
	ns.nlbaf = 19;
	ns.lbaf[18].ds = 12, ns.lbaf[18].ms = htole16(8), ns.lbaf[18].rp = 2;
	ns.flbas = 0x20 | 0x02;
	nvme_health_from_ns(&ns, &n);
	assert_int_equal(n.n_lbaf, 20);
	assert_known(n.lbaf_in_use, 18);
	assert_int_equal(n.lbaf[18].data_bytes, 4096);
	assert_int_equal(n.lbaf[18].meta_bytes, 8);
	assert_int_equal(n.lbaf[18].rel_perf, 2);
	/* with 16 or fewer formats bits 6:5 mean nothing */
	ns.nlbaf = 7;
	nvme_health_from_ns(&ns, &n);
	assert_known(n.lbaf_in_use, 2);
	/* an index past the formats is unknown */
	ns.flbas = 0x0c;
	nvme_health_from_ns(&ns, &n);
	assert_false(n.lbaf_in_use.known);
}

static void
test_error_and_selftest_logs(void **state)
{
	(void)state;
	struct nvme_error_log_page e[4];
	struct nvme_info n;
	memset(e, 0, sizeof e);
	memset(&n, 0, sizeof n);
	nvme_health_from_errors(e, 4, &n);
	assert_known(n.error_log_valid, 0);
	assert_false(n.latest_error_count.known);
	e[0].error_count = htole64(41);
	e[1].error_count = htole64(42);
	e[1].status_field = htole16(0x0281 << 1 | 1);	/* phase tag set */
	nvme_health_from_errors(e, 4, &n);
	assert_known(n.error_log_valid, 2);
	assert_known(n.latest_error_count, 42);
	assert_known(n.latest_error_status, 0x0281);
	assert_int_equal(n.n_latest, 2);
	assert_int_equal(n.latest[0].error_count, 42);	/* newest first */
	assert_int_equal(n.latest[0].status, 0x0281);
	assert_int_equal(n.latest[1].error_count, 41);
	assert_false(n.latest[1].nsid.known);		/* nsid 0: no namespace */
	/* six entries, out of order: the newest four kept, newest first */
	struct nvme_error_log_page six[6];
	memset(six, 0, sizeof six);
	const uint64_t counts[6] = { 7, 12, 3, 10, 11, 9 };
	for (int i = 0; i < 6; i++) {
		six[i].error_count = htole64(counts[i]);
		six[i].nsid = htole32(i == 1 ? 1 : 0xffffffffu);
		six[i].lba = htole64(1000 + (uint64_t)i);
	}
	nvme_health_from_errors(six, 6, &n);
	assert_known(n.error_log_valid, 6);
	assert_int_equal(n.n_latest, 4);
	const uint64_t want[4] = { 12, 11, 10, 9 };
	for (int i = 0; i < 4; i++)
		assert_int_equal(n.latest[i].error_count, want[i]);
	assert_known(n.latest[0].nsid, 1);
	assert_int_equal(n.latest[0].lba, 1001);
	assert_false(n.latest[1].nsid.known);		/* all ones: every namespace */

	struct nvme_self_test_log st;
	memset(&st, 0, sizeof st);
	for (int i = 0; i < NVME_LOG_ST_MAX_RESULTS; i++)
		st.result[i].dsts = 0x0f;	/* unused entries */
	nvme_health_from_selftest(&st, &n);
	assert_known(n.selftest_current, 0);
	assert_false(n.selftest_percent.known);
	assert_false(n.selftest_last_result.known);
	st.current_operation = 2, st.completion = 37;	/* extended, 37 % */
	st.result[0].dsts = 0x17;	/* short test, failed segment (7) */
	nvme_health_from_selftest(&st, &n);
	assert_known(n.selftest_current, 2);
	assert_known(n.selftest_percent, 37);
	assert_known(n.selftest_last_result, 7);
	assert_known(n.selftest_last_code, 1);
}

/* The whole self-test log, hand-set (QEMU 7.2 has no Device Self-test: OACS
 * bit 4 clear, so no capture has one; see tests/fixtures/nvme/README). */
static void
test_selftest_full_log(void **state)
{
	(void)state;
	struct nvme_self_test_log st;
	struct nvme_info n;
	memset(&st, 0, sizeof st);
	memset(&n, 0xa5, sizeof n);	/* stale values must not survive */
	for (int i = 0; i < NVME_LOG_ST_MAX_RESULTS; i++) {
		st.result[i].dsts = 0x10;	/* short, no error */
		st.result[i].poh = htole64(5000 - (uint64_t)i);
	}
	st.result[19].dsts = 0x2f;		/* the oldest unused */
	/* entry 3: extended test, failed segment 4, NSID and failing LBA valid */
	st.result[3].dsts = 0x27;
	st.result[3].seg = 4;
	st.result[3].vdi = NVME_ST_VALID_DIAG_INFO_NSID | NVME_ST_VALID_DIAG_INFO_FLBA;
	st.result[3].nsid = htole32(1);
	st.result[3].flba = htole64(0x123456789aULL);
	st.result[3].sct = 2, st.result[3].sc = 0x81;	/* not valid: ignored */
	/* entry 7: an older failure, every field valid */
	st.result[7].dsts = 0x15;
	st.result[7].vdi = 0x0f;
	st.result[7].nsid = htole32(2);
	st.result[7].flba = htole64(77);
	st.result[7].sct = 2, st.result[7].sc = 0x81;
	nvme_health_from_selftest(&st, &n);
	assert_int_equal(n.n_selftest, 19);
	assert_known(n.selftest_failed_at, 3);	/* the newest failed one */
	const struct nvme_st_entry *e = &n.selftest_log[3];
	assert_int_equal(e->result, 7);
	assert_int_equal(e->code, 2);
	assert_int_equal(e->segment, 4);
	assert_int_equal(e->valid, 3);
	assert_int_equal(e->power_on_hours, 4997);
	assert_known(e->nsid, 1);
	assert_known(e->failing_lba, 0x123456789aULL);
	assert_false(e->sct.known);
	assert_false(e->sc.known);
	e = &n.selftest_log[7];
	assert_int_equal(e->result, 5);
	assert_known(e->nsid, 2);
	assert_known(e->failing_lba, 77);
	assert_known(e->sct, 2);
	assert_known(e->sc, 0x81);
	e = &n.selftest_log[0];
	assert_int_equal(e->result, 0);
	assert_false(e->nsid.known);
	assert_false(e->failing_lba.known);
	assert_string_equal(nvme_st_result_text(7), "failed: segment");
	assert_string_equal(nvme_st_result_text(15), "reserved result");
	/* an unused entry in the middle is skipped, the rest kept in order */
	st.result[1].dsts = 0x0f;
	nvme_health_from_selftest(&st, &n);
	assert_int_equal(n.n_selftest, 18);
	assert_known(n.selftest_failed_at, 2);
	assert_int_equal(n.selftest_log[1].power_on_hours, 4998);
	/* none failed */
	st.result[3].dsts = st.result[7].dsts = 0x10;
	nvme_health_from_selftest(&st, &n);
	assert_false(n.selftest_failed_at.known);
}

int
main(void)
{
	if (find_fixtures() != 0) {
		printf("SKIP: tests/fixtures/nvme not found (run from the repository top)\n");
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_health_log_vs_nvme_cli),
		cmocka_unit_test(test_identify_vs_nvme_cli),
		cmocka_unit_test(test_health_log_worn),
		cmocka_unit_test(test_namespace_ids_and_formats),
		cmocka_unit_test(test_error_and_selftest_logs),
		cmocka_unit_test(test_selftest_full_log),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
