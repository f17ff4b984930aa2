/* test_triage_nvme.c - triage's health rules (bench/triage-health.c) on
 * hand-set snapshots: NVMe critical warning bits, spare below threshold,
 * wear at 100 %, media errors that grew, each with its level and its
 * evidence; a physical drive with no health at all is WARN with the
 * reason, unless --health-optional; loop and sim targets are exempt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "bench/triage.h"
#include "inventory/inventory.h"
#include "triage_judge.h"
#include "io/target.h"

static const struct tri_health_rules defaults = {
	.max_temp = 55, .critical = "fail", .spare = "fail", .media = "fail", .max_wear = 100,
};

/* a healthy NVMe drive's snapshot */
static void
healthy(struct tri_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->taken = s->found = s->nvme = s->physical = true;
	snprintf(s->reason, sizeof(s->reason), "not an ATA device");
	struct nvme_health *h = &s->nh;
	h->known = true;
	h->critical_warning = known_u64_of(0);
	h->available_spare = known_u64_of(100);
	h->spare_threshold = known_u64_of(10);
	h->percent_used = known_u64_of(3);
	h->media_errors = known_u64_of(0);
	h->temperature_c = known_i64_of(38);
}

static void
judge(const struct tri_snap *b, const struct tri_snap *a, const struct tri_health_rules *r, struct out *o)
{
	judge_with(b, a, r, true, o);
}

static void
test_healthy(void **st)
{
	(void)st;
	struct tri_snap b, a;
	struct out o;
	healthy(&b);
	healthy(&a);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_PASS);
	assert_string_equal(o.why, "");
	assert_true(has(&o.ev, "NVMe health: critical warning 0x00 (none), available spare 100% (threshold 10%)"));
	assert_true(has(&o.ev, "temperature: 38 C (limit 55 C)"));
	/* judged by its NVMe health: not "no SMART rule applied" */
	assert_false(has(&o.ev, "no SMART rule applied"));
	strlist_free(&o.ev);
}

static void
test_critical(void **st)
{
	(void)st;
	struct tri_snap b, a;
	struct out o;
	healthy(&b);
	healthy(&a);
	a.nh.critical_warning = known_u64_of(0x1f);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_FAIL);
	assert_non_null(strstr(o.why, "NVMe critical warning 0x1f: spare below threshold, temperature threshold, "
				       "reliability degraded, read-only, volatile memory backup failed (--nvme-critical)"));
	strlist_free(&o.ev);
	/* warn, off */
	struct tri_health_rules r = defaults;
	strcpy(r.critical, "warn");
	a.nh.critical_warning = known_u64_of(NVME_CW_READ_ONLY);
	judge(&b, &a, &r, &o);
	assert_int_equal(o.lv, VL_WARN);
	assert_non_null(strstr(o.why, "NVMe critical warning 0x08: read-only"));
	strlist_free(&o.ev);
	strcpy(r.critical, "off");
	judge(&b, &a, &r, &o);
	assert_int_equal(o.lv, VL_PASS);
	assert_true(has(&o.ev, "critical warning 0x08 (read-only)"));
	strlist_free(&o.ev);
}

static void
test_spare_wear(void **st)
{
	(void)st;
	struct tri_snap b, a;
	struct out o;
	healthy(&b);
	healthy(&a);
	a.nh.available_spare = known_u64_of(5);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_FAIL);
	assert_non_null(strstr(o.why, "NVMe available spare 5% below its threshold 10% (--nvme-spare)"));
	strlist_free(&o.ev);
	healthy(&a);
	a.nh.percent_used = known_u64_of(100);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_WARN);
	assert_non_null(strstr(o.why, "NVMe percentage used 100% (--max-wear 100%)"));
	strlist_free(&o.ev);
	a.nh.percent_used = known_u64_of(99);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_PASS);
	strlist_free(&o.ev);
}

static void
test_media(void **st)
{
	(void)st;
	struct tri_snap b, a;
	struct out o;
	healthy(&b);
	healthy(&a);
	a.nh.media_errors = known_u64_of(3);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_FAIL);
	assert_non_null(strstr(o.why, "NVMe media errors grew by 3 during the test (--nvme-media-errors)"));
	assert_true(has(&o.ev, "NVMe media errors before -> after: 0->3"));
	strlist_free(&o.ev);
	/* 3 before and after: none grew, but some: warn */
	b.nh.media_errors = known_u64_of(3);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_WARN);
	assert_non_null(strstr(o.why, "NVMe media errors: 3"));
	strlist_free(&o.ev);
}

static void
test_too_warm(void **st)
{
	(void)st;
	struct tri_snap b, a;
	struct out o;
	healthy(&b);
	healthy(&a);
	a.nh.temperature_c = known_i64_of(71);
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_FAIL);
	assert_non_null(strstr(o.why, "too warm: 71 C (limit 55 C)"));
	strlist_free(&o.ev);
}

static void
test_not_read(void **st)
{
	(void)st;
	struct tri_snap b, a;
	struct out o;
	memset(&b, 0, sizeof(b));
	b.taken = b.found = b.physical = true;
	snprintf(b.reason, sizeof(b.reason), "not an ATA device");
	snprintf(b.nh.reason, sizeof(b.nh.reason), "health log: Invalid Field in Command");
	a = b;
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_WARN);
	assert_non_null(strstr(o.why, "health not read: health log: Invalid Field in Command"));
	strlist_free(&o.ev);
	/* an ATA drive whose SMART could not be read: ATA's reason */
	snprintf(b.reason, sizeof(b.reason), "SMART disabled");
	snprintf(b.nh.reason, sizeof(b.nh.reason), "not an NVMe drive");
	a = b;
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_WARN);
	assert_non_null(strstr(o.why, "health not read: SMART disabled"));
	strlist_free(&o.ev);
	struct tri_health_rules r = defaults;
	r.optional = true;
	judge(&b, &a, &r, &o);
	assert_int_equal(o.lv, VL_PASS);
	strlist_free(&o.ev);
	/* not physical (a loop device): no warning */
	b.physical = a.physical = false;
	judge(&b, &a, &defaults, &o);
	assert_int_equal(o.lv, VL_PASS);
	strlist_free(&o.ev);
}

static void
test_exempt(void **st)
{
	(void)st;
	static struct drive d;
	static struct target tg;
	memset(&d, 0, sizeof(d));
	memset(&tg, 0, sizeof(tg));
	d.transport = TR_NVME;
	tg.facts.kind = DEV_DISK;
	assert_true(triage_drive_physical(&d, &tg));
	d.transport = TR_SATA;
	assert_true(triage_drive_physical(&d, &tg));
	d.transport = TR_USB;
	assert_true(triage_drive_physical(&d, &tg));
	d.transport = TR_SCSI;
	assert_true(triage_drive_physical(&d, &tg));
	d.transport = TR_VIRTIO;
	assert_false(triage_drive_physical(&d, &tg));
	d.transport = TR_LOOP;
	tg.facts.kind = DEV_LOOP;
	assert_false(triage_drive_physical(&d, &tg));
	d.transport = TR_ZRAM;
	tg.facts.kind = DEV_ZRAM;
	assert_false(triage_drive_physical(&d, &tg));
	/* a sim drive, whatever transport its model claims */
	d.transport = TR_SATA;
	tg.facts.kind = DEV_SIM;
	tg.facts.simulated = true;
	assert_false(triage_drive_physical(&d, &tg));
	/* a scratch file on a SATA disk */
	tg.facts.kind = DEV_FILE;
	tg.facts.simulated = false;
	assert_false(triage_drive_physical(&d, &tg));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy),
		cmocka_unit_test(test_critical),
		cmocka_unit_test(test_spare_wear),
		cmocka_unit_test(test_media),
		cmocka_unit_test(test_too_warm),
		cmocka_unit_test(test_not_read),
		cmocka_unit_test(test_exempt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
