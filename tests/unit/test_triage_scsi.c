/* test_triage_scsi.c - triage's SCSI health rules (bench/triage-health-scsi.c)
 * on hand-set snapshots: an informational exception, grown defects that grew
 * and too many of them, uncorrected errors that grew or stand, a failed
 * self-test with its LBA, the temperature; each with its level and its
 * evidence, each turned off by its option; and the 520-byte format rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "bench/triage.h"
#include "inventory/inventory.h"
#include "triage_judge.h"

static const struct tri_health_rules defaults = {
	.max_temp = 55, .critical = "fail", .spare = "fail", .media = "fail", .max_wear = 100,
	.defects = "fail", .max_defects = 100, .uncorrected = "fail", .ie = "fail",
};

/* a healthy SAS drive's snapshot */
static void
healthy(struct tri_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->taken = s->found = s->scsi = s->physical = true;
	snprintf(s->reason, sizeof(s->reason), "not an ATA drive");
	struct scsi_health *h = &s->sh;
	h->known = true;
	h->grown_defects = known_u64_of(3);
	h->read_uncorrected = known_u64_of(0);
	h->write_uncorrected = known_u64_of(0);
	h->verify_uncorrected = known_u64_of(0);
	h->ie_asc = known_u64_of(0);
	h->ie_ascq = known_u64_of(0);
	h->selftest_last_result = known_u64_of(0);
	h->temperature_c = known_i64_of(34);
}

static void
judge(const struct tri_snap *b, const struct tri_snap *a, const struct tri_health_rules *r, struct out *o)
{
	judge_with(b, a, r, false, o);
}

static void
test_healthy_pass(void **st)
{
	(void)st;
	struct tri_snap b, a;
	struct out o;
	healthy(&b);
	healthy(&a);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_PASS);
	assert_string_equal(o.why, "");
	assert_true(has(&o.ev, "SCSI health: grown defects 3, uncorrected errors read 0 write 0 verify 0, "
			"informational exception none"));
	assert_true(has(&o.ev, "SCSI grown defects before -> after: 3->3"));
	assert_true(has(&o.ev, "temperature: 34 C (limit 55 C)"));
	strlist_free(&o.ev);
}

static void
test_ie_fails(void **st)
{
	(void)st;
	struct tri_snap b, a;
	struct out o;
	healthy(&b);
	healthy(&a);
	a.sh.ie_asc = known_u64_of(0x5d);
	a.sh.ie_ascq = known_u64_of(0x10);
	snprintf(a.sh.ie_text, sizeof(a.sh.ie_text), "Hardware impending failure general hard drive failure");
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_FAIL);
	assert_non_null(strstr(o.why, "informational exception 5D/10: Hardware impending failure general hard "
				      "drive failure (--scsi-ie)"));
	strlist_free(&o.ev);
	struct tri_health_rules r = defaults;
	snprintf(r.ie, sizeof(r.ie), "off");
	judge(&b, &a, &r, &o);
	assert_int_equal(o.lv, VL_PASS);
	strlist_free(&o.ev);
}

static void
test_defects(void **st)
{
	(void)st;
	struct tri_snap b, a;
	struct out o;
	healthy(&b);
	healthy(&a);
	a.sh.grown_defects = known_u64_of(12);	/* grew by 9 */
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_FAIL);
	assert_non_null(strstr(o.why, "grown defects +9 during the test, now 12 (--scsi-defects)"));
	assert_true(has(&o.ev, "SCSI grown defects before -> after: 3->12"));
	strlist_free(&o.ev);
	/* 500 grown defects are bad even if none grew: WARN by the limit */
	b.sh.grown_defects = a.sh.grown_defects = known_u64_of(500);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_WARN);
	assert_string_equal(o.why, "500 grown defects (--max-grown-defects 100)");
	strlist_free(&o.ev);
	struct tri_health_rules r = defaults;
	r.max_defects = 0;
	judge(&b, &a, &r, &o);
	assert_int_equal(o.lv, VL_PASS);
	strlist_free(&o.ev);
	/* grown, with --scsi-defects warn */
	a.sh.grown_defects = known_u64_of(501);
	snprintf(r.defects, sizeof(r.defects), "warn");
	judge(&b, &a, &r, &o);
	assert_int_equal(o.lv, VL_WARN);
	assert_non_null(strstr(o.why, "grown defects +1 during the test, now 501"));
	strlist_free(&o.ev);
}

static void
test_uncorrected(void **st)
{
	(void)st;
	struct tri_snap b, a;
	struct out o;
	healthy(&b);
	healthy(&a);
	b.sh.read_uncorrected = known_u64_of(4);
	a.sh.read_uncorrected = known_u64_of(6);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_FAIL);
	assert_non_null(strstr(o.why, "uncorrected read errors +2 during the test (--scsi-errors)"));
	strlist_free(&o.ev);
	/* standing, not grown: WARN */
	a.sh.read_uncorrected = known_u64_of(4);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_WARN);
	assert_string_equal(o.why, "4 uncorrected read errors");
	strlist_free(&o.ev);
	struct tri_health_rules r = defaults;
	snprintf(r.uncorrected, sizeof(r.uncorrected), "off");
	judge(&b, &a, &r, &o);
	assert_int_equal(o.lv, VL_PASS);
	strlist_free(&o.ev);
}

static void
test_selftest_and_temp(void **st)
{
	(void)st;
	struct tri_snap b, a;
	struct out o;
	healthy(&b);
	healthy(&a);
	a.sh.selftest_last_result = known_u64_of(7);
	a.sh.selftest_last_lba = known_u64_of(123456789);
	a.sh.temperature_c = known_i64_of(61);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_FAIL);
	assert_non_null(strstr(o.why, "SCSI self-test failed (result 7) at LBA 123456789"));
	assert_non_null(strstr(o.why, "too warm: 61 C (limit 55 C)"));
	strlist_free(&o.ev);
}

/* only the first snapshot read: what grew cannot be judged, what stands can */
static void
test_after_unread(void **st)
{
	(void)st;
	struct tri_snap b, a;
	struct out o;
	healthy(&b);
	memset(&a, 0, sizeof(a));
	a.taken = true;
	b.sh.grown_defects = known_u64_of(700);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_WARN);
	assert_string_equal(o.why, "700 grown defects (--max-grown-defects 100)");
	strlist_free(&o.ev);
}

static void
test_format(void **st)
{
	(void)st;
	struct out o;
	memset(&o, 0, sizeof(o));
	o.lv = VL_PASS;
	struct known_u64 bb = known_u64_of(520), cap = known_u64_of(4000787030016ULL);
	triage_format_judge(SCSI_FMT_NEEDS_FORMAT, &bb, &cap, "sdc", "", &o.lv, o.why, sizeof(o.why), &o.ev);
	assert_int_equal(o.lv, VL_WARN);
	assert_string_equal(o.why, "520-byte logical blocks: needs a low-level format to 512 before use");
	/* 4000787030016 B / 150 MB/s = 26672 s = 7.4 h */
	assert_true(has(&o.ev, "fix: sg_format --format --size=512 on sdc's sg device (erases it), about 7.4 h "
			"(capacity at 150 MB/s)"));
	strlist_free(&o.ev);
	/* its sg node known: the command names it, ready to paste */
	memset(&o, 0, sizeof(o));
	o.lv = VL_PASS;
	triage_format_judge(SCSI_FMT_NEEDS_FORMAT, &bb, &cap, "sdc", "/dev/sg3", &o.lv, o.why, sizeof(o.why), &o.ev);
	assert_int_equal(o.lv, VL_WARN);
	assert_true(has(&o.ev, "fix: sg_format --format --size=512 /dev/sg3 (erases it), about 7.4 h "
			"(capacity at 150 MB/s)"));
	strlist_free(&o.ev);
	/* 512 with protection information: usable, said */
	memset(&o, 0, sizeof(o));
	o.lv = VL_PASS;
	bb = known_u64_of(512);
	triage_format_judge(SCSI_FMT_PI, &bb, &cap, "sdc", "/dev/sg3", &o.lv, o.why, sizeof(o.why), &o.ev);
	assert_int_equal(o.lv, VL_PASS);
	assert_true(has(&o.ev, "format: 512-byte blocks with protection information: usable"));
	strlist_free(&o.ev);
	/* the rule itself: which formats need a format */
	struct known_bool no = known_bool_of(false), yes = known_bool_of(true);
	struct known_u64 b520 = known_u64_of(520), b528 = known_u64_of(528), b4k = known_u64_of(4096), unk = { 0 };
	assert_int_equal(scsi_format_of(&b520, &no), SCSI_FMT_NEEDS_FORMAT);
	assert_int_equal(scsi_format_of(&b528, &yes), SCSI_FMT_NEEDS_FORMAT);
	assert_int_equal(scsi_format_of(&b4k, &no), SCSI_FMT_OK);
	assert_int_equal(scsi_format_of(&bb, &yes), SCSI_FMT_PI);
	assert_int_equal(scsi_format_of(&unk, &no), SCSI_FMT_UNKNOWN);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy_pass),	cmocka_unit_test(test_ie_fails),
		cmocka_unit_test(test_defects),		cmocka_unit_test(test_uncorrected),
		cmocka_unit_test(test_selftest_and_temp), cmocka_unit_test(test_after_unread),
		cmocka_unit_test(test_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
