/* test_selftest.c - the SMART self-test log (inventory/ata-selftest.h) on
 * fabricated 512-byte logs laid out byte by byte as ATA8-ACS keeps them:
 * newest first from the index, a wrapped log, the failing LBA only for a
 * failed test, checksum and index refused, entries new since a snapshot
 * (a test running then and finished now is not new), and the encoder the
 * sim uses read back by the parser.
 *
 * Then a self-test's progress and result per class (inventory/selftest.h):
 * ATA's execution status and log, NVMe's Device Self-test log page, SCSI's
 * self-test results log page 0x10, each laid out by hand from the specs
 * (ACS-3 7.48.6, NVMe 1.4 5.14.1.6, SPC-5 7.3.21: no capture reports a
 * failing self-test), the time bound; and the orchestration across drives
 * (bench/selftest-run.c) over a fake source on a virtual and a fake wall
 * clock: started on every drive, polled until each is over, bounded, a
 * drive that cannot self-test says why, a stop aborts every running one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include <math.h>
#include <nvme/types.h>
#include "bench/selftest-run.h"
#include "inventory/ata-selftest.h"
#include "inventory/selftest.h"
#include "io/target.h"

/* descriptor i (0-based): type, status nibble, percent-left nibble, hours,
 * checkpoint, LBA, by hand */
static void
desc(uint8_t *log, int i, uint8_t type, uint8_t st, uint8_t left10, uint16_t hours, uint32_t lba)
{
	uint8_t *d = log + 2 + 24 * i;
	d[0] = type;
	d[1] = (uint8_t)(st << 4 | left10);
	d[2] = hours & 0xff;
	d[3] = hours >> 8;
	d[4] = 0;
	d[5] = lba & 0xff;
	d[6] = (lba >> 8) & 0xff;
	d[7] = (lba >> 16) & 0xff;
	d[8] = lba >> 24;
	memset(d + 9, 0xA5, 15);	/* vendor bytes: ignored */
}

static void
seal(uint8_t *log, uint8_t index)
{
	log[0] = 1;
	log[508] = index;
	uint8_t s = 0;
	for (int i = 0; i < 511; i++)
		s = (uint8_t)(s + log[i]);
	log[511] = (uint8_t)-s;
}

static void
test_parse(void **state)
{
	uint8_t log[512] = { 0 };
	char why[160];
	struct ata_selftest_log l;
	desc(log, 0, 1, 0, 0, 100, 0xffffffff);		/* short, ok */
	desc(log, 1, 2, 7, 9, 250, 123456789);		/* extended, read failure, 90 % left */
	desc(log, 2, 0x81, 1, 0, 300, 0xffffffff);	/* short captive, aborted */
	seal(log, 3);
	assert_int_equal(ata_selftest_parse(log, &l, why, sizeof why), 0);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.e[0].hours, 300);		/* newest first */
	assert_int_equal(l.e[0].status, 1);
	assert_false(l.e[0].lba_known);
	assert_string_equal(ata_selftest_type_name(l.e[0].type), "short (captive)");
	assert_int_equal(l.e[1].status, 7);
	assert_true(ata_selftest_failed(&l.e[1]));
	assert_true(l.e[1].lba_known);
	assert_int_equal(l.e[1].lba, 123456789);
	assert_int_equal(l.e[1].remaining, 90);
	assert_string_equal(ata_selftest_status_name(l.e[1].status), "completed: read failure");
	assert_int_equal(l.e[2].hours, 100);
	assert_false(ata_selftest_failed(&l.e[2]));

	/* a full, wrapped log: the newest is descriptor 2 (index 3), then 1, 0, 20 ... 3 */
	for (int i = 0; i < 21; i++)
		desc(log, i, 1, 0, 0, (uint16_t)(i < 3 ? 1000 + i : 900 + i), 0xffffffff);
	seal(log, 3);
	assert_int_equal(ata_selftest_parse(log, &l, why, sizeof why), 0);
	assert_int_equal(l.n, 21);
	assert_int_equal(l.e[0].hours, 1002);
	assert_int_equal(l.e[2].hours, 1000);
	assert_int_equal(l.e[3].hours, 920);
	assert_int_equal(l.e[20].hours, 903);

	/* refused: a checksum off by one, an index past 21 */
	log[100] ^= 1;
	assert_int_equal(ata_selftest_parse(log, &l, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "checksum"));
	log[100] ^= 1;
	seal(log, 22);
	assert_int_equal(ata_selftest_parse(log, &l, why, sizeof why), -EINVAL);
	assert_non_null(strstr(why, "index 22"));
	/* empty: index 0 */
	memset(log, 0, sizeof log);
	seal(log, 0);
	assert_int_equal(ata_selftest_parse(log, &l, why, sizeof why), 0);
	assert_int_equal(l.n, 0);
}

static void
test_new_and_build(void **state)
{
	struct ata_selftest e[3] = {
		{ .type = 2, .status = 7, .hours = 7871, .lba = 781250123 },	/* newest */
		{ .type = 1, .status = 0, .hours = 7000, .lba = 0 },
		{ .type = 1, .status = 0, .hours = 6000 },
	};
	uint8_t log[512];
	char why[160];
	struct ata_selftest_log before, after;
	ata_selftest_build(e + 1, 2, log);
	assert_int_equal(ata_selftest_parse(log, &before, why, sizeof why), 0);
	ata_selftest_build(e, 3, log);
	assert_int_equal(ata_selftest_parse(log, &after, why, sizeof why), 0);
	assert_int_equal(after.n, 3);
	assert_true(after.e[0].lba_known);
	assert_int_equal(after.e[0].lba, 781250123);
	assert_false(after.e[1].lba_known);	/* a passed test has no failing LBA */
	assert_int_equal(ata_selftest_new(&before, &after), 1);
	assert_int_equal(ata_selftest_new(&after, &after), 0);
	struct ata_selftest_log empty = { 0 };
	assert_int_equal(ata_selftest_new(&empty, &after), 3);
	/* running at the first snapshot (status 15), failed by the second: the
	 * same test, not a new one */
	struct ata_selftest run = { .type = 2, .status = 15, .remaining = 40, .hours = 7871 };
	ata_selftest_build(&run, 1, log);
	assert_int_equal(ata_selftest_parse(log, &before, why, sizeof why), 0);
	assert_int_equal(before.e[0].remaining, 40);
	ata_selftest_build(e, 1, log);
	assert_int_equal(ata_selftest_parse(log, &after, why, sizeof why), 0);
	assert_int_equal(ata_selftest_new(&before, &after), 0);
}

static void
test_ata_progress(void **state)
{
	(void)state;
	struct selftest_status st = { 0 };
	selftest_ata_exec(15, 70, &st);	/* byte 363 = 0xF7 */
	assert_int_equal(st.state, STS_RUNNING);
	assert_true(st.percent.known);
	assert_true(fabs(st.percent.v - 30) < 1e-9);
	selftest_ata_exec(7, 0, &st);
	assert_int_equal(st.state, STS_FAILED);
	assert_string_equal(st.text, "completed: read failure");
	selftest_ata_exec(1, 0, &st);
	assert_int_equal(st.state, STS_ABORTED);
	selftest_ata_exec(0, 0, &st);
	assert_int_equal(st.state, STS_PASSED);

	/* the log's newest entry: an extended test failed at LBA 781250123 */
	uint8_t log[512];
	memset(log, 0, sizeof log);
	desc(log, 0, 1, 0, 0, 7000, 0);
	desc(log, 1, 2, 7, 3, 7871, 781250123);
	seal(log, 2);
	struct ata_selftest_log l;
	char why[160];
	assert_int_equal(ata_selftest_parse(log, &l, why, sizeof why), 0);
	memset(&st, 0, sizeof st);
	assert_false(selftest_ata_log(&l, SELFTEST_SHORT, &st));	/* not the kind started */
	assert_int_equal(st.state, STS_IDLE);
	assert_true(selftest_ata_log(&l, SELFTEST_LONG, &st));
	assert_int_equal(st.state, STS_FAILED);
	assert_true(st.lba.known);
	assert_int_equal(st.lba.v, 781250123);
	assert_string_equal(st.text, "completed: read failure");
	/* a passed one names no LBA */
	desc(log, 2, 1, 0, 0, 7900, 0x12345);
	seal(log, 3);
	assert_int_equal(ata_selftest_parse(log, &l, why, sizeof why), 0);
	assert_true(selftest_ata_log(&l, SELFTEST_SHORT, &st));
	assert_int_equal(st.state, STS_PASSED);
	assert_false(st.lba.known);
}

static void
test_nvme_log(void **state)
{
	(void)state;
	uint8_t raw[sizeof(struct nvme_self_test_log)];
	_Static_assert(sizeof(struct nvme_self_test_log) == 564, "the log page is 564 bytes");
	struct nvme_self_test_log l;
	struct selftest_status st = { 0 };
	/* an extended test under way, 40 % done: bytes 0 and 1 */
	memset(raw, 0, sizeof raw);
	for (int i = 0; i < 20; i++)
		raw[4 + 28 * i] = 0x0f;	/* unused entries */
	raw[0] = 2;
	raw[1] = 40;
	memcpy(&l, raw, sizeof l);
	selftest_nvme_log(&l, &st);
	assert_int_equal(st.state, STS_RUNNING);
	assert_true(fabs(st.percent.v - 40) < 1e-9);
	/* over: the newest result (byte 4: code 2 extended, result 7 a known
	 * segment failed), segment 3 (byte 5), FLBA valid (byte 6 bit 1), the
	 * failing LBA little-endian at bytes 20..27 of the entry */
	raw[0] = 0;
	raw[1] = 0;
	uint8_t *e = raw + 4;
	e[0] = 0x27;
	e[1] = 3;
	e[2] = 0x03;
	uint64_t lba = 123456789012ull;
	for (int b = 0; b < 8; b++)
		e[16 + b] = (uint8_t)(lba >> (8 * b));
	memcpy(&l, raw, sizeof l);
	selftest_nvme_log(&l, &st);
	assert_int_equal(st.state, STS_FAILED);
	assert_true(st.lba.known);
	assert_int_equal(st.lba.v, lba);
	assert_string_equal(st.text, "completed: segment 3 failed");
	/* the LBA only where the entry says it is valid */
	e[2] = 0x01;
	memcpy(&l, raw, sizeof l);
	selftest_nvme_log(&l, &st);
	assert_int_equal(st.state, STS_FAILED);
	assert_false(st.lba.known);
	e[0] = 0x11;	/* short, aborted by a Device Self-test command */
	memcpy(&l, raw, sizeof l);
	selftest_nvme_log(&l, &st);
	assert_int_equal(st.state, STS_ABORTED);
	e[0] = 0x10;
	memcpy(&l, raw, sizeof l);
	selftest_nvme_log(&l, &st);
	assert_int_equal(st.state, STS_PASSED);
	e[0] = 0x0f;	/* no entry at all */
	memcpy(&l, raw, sizeof l);
	selftest_nvme_log(&l, &st);
	assert_int_equal(st.state, STS_IDLE);
}

/* A page 0x10 with parameter 0001h: self-test code and result in byte 4,
 * the address of first failure big-endian in bytes 8..15. */
static size_t
scsi_page(uint8_t *b, uint8_t code_result, uint64_t addr)
{
	memset(b, 0, 4 + 2 * 20);
	b[0] = 0x10;
	b[3] = 40;
	for (int k = 0; k < 2; k++) {
		uint8_t *p = b + 4 + 20 * k;
		p[1] = (uint8_t)(k + 1);
		p[2] = 0x03;
		p[3] = 0x10;
	}
	uint8_t *p = b + 4;
	p[4] = code_result;
	p[6] = 0x1e;
	for (int k = 0; k < 8; k++)
		p[8 + k] = (uint8_t)(addr >> (56 - 8 * k));
	return 4 + 40;
}

static void
test_scsi_log(void **state)
{
	(void)state;
	uint8_t b[64];
	struct selftest_status st = { 0 };
	size_t n = scsi_page(b, 2 << 5 | 7, 0x1234abcd);	/* extended, a segment failed */
	assert_int_equal(selftest_scsi_log(b, n, &st), 0);
	assert_int_equal(st.state, STS_FAILED);
	assert_true(st.lba.known);
	assert_int_equal(st.lba.v, 0x1234abcd);
	n = scsi_page(b, 2 << 5 | 5, UINT64_MAX);	/* no address given */
	assert_int_equal(selftest_scsi_log(b, n, &st), 0);
	assert_int_equal(st.state, STS_FAILED);
	assert_false(st.lba.known);
	n = scsi_page(b, 1 << 5 | 15, UINT64_MAX);
	assert_int_equal(selftest_scsi_log(b, n, &st), 0);
	assert_int_equal(st.state, STS_RUNNING);
	n = scsi_page(b, 1 << 5 | 1, UINT64_MAX);
	assert_int_equal(selftest_scsi_log(b, n, &st), 0);
	assert_int_equal(st.state, STS_ABORTED);
	n = scsi_page(b, 1 << 5, UINT64_MAX);
	assert_int_equal(selftest_scsi_log(b, n, &st), 0);
	assert_int_equal(st.state, STS_PASSED);
	memset(b + 8, 0, 16);	/* parameter 1 unused */
	assert_int_equal(selftest_scsi_log(b, n, &st), 0);
	assert_int_equal(st.state, STS_IDLE);
	b[0] = 0x0d;	/* another page */
	assert_int_equal(selftest_scsi_log(b, n, &st), -EINVAL);
	assert_int_equal(selftest_scsi_log(b, 3, &st), -EINVAL);
}

static void
test_bound(void **state)
{
	(void)state;
	struct known_dbl none = { 0 };
	assert_true(fabs(selftest_bound_s(SELFTEST_LONG, known_dbl_of(600 * 60), 0) - 900 * 60) < 1e-6);
	assert_true(fabs(selftest_bound_s(SELFTEST_SHORT, known_dbl_of(120), 0) - 720) < 1e-6);
	assert_true(fabs(selftest_bound_s(SELFTEST_SHORT, known_dbl_of(120), 30) - 30) < 1e-6);
	assert_true(fabs(selftest_bound_s(SELFTEST_SHORT, none, 0) - 1200) < 1e-6);
	assert_true(fabs(selftest_bound_s(SELFTEST_LONG, none, 0) - 86400) < 1e-6);
	enum selftest_kind k;
	assert_int_equal(selftest_kind_parse("long", &k), 0);
	assert_int_equal(k, SELFTEST_LONG);
	assert_int_equal(selftest_kind_parse("medium", &k), -EINVAL);
}

/* ---- the orchestration over a fake source ---- */

/* Per drive (facts.name "0".."3"): 0 passes after 100 s, 1 fails at 50 s at
 * LBA 777, 2 cannot, 3 never ends. */
static struct {
	int starts, polls[4], aborts[4];
	double stop_at;		/* the fake clock stops the run here, 0 never */
	double wall, waited_max;
	int progress;
	bool poll_fails;	/* drive 3's polls fail (its device gone) */
} F;

static int
fk_start(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s)
{
	(void)d;
	F.starts++;
	if (f->name[0] == '2') {
		snprintf(s->st.text, sizeof s->st.text, "self-test not supported (OACS)");
		return -EOPNOTSUPP;
	}
	KNOWN_SET(s->st.estimate_s, 100);
	return 0;
}

static int
fk_poll(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s)
{
	(void)d;
	int i = f->name[0] - '0';
	F.polls[i]++;
	if (i == 3 && F.poll_fails) {
		snprintf(s->st.text, sizeof s->st.text, "self-test log: Input/output error");
		return -EIO;
	}
	if (F.aborts[i]) {
		s->st.state = STS_ABORTED;
		snprintf(s->st.text, sizeof s->st.text, "aborted by the host");
	} else if (i == 0 && s->now_s >= 100) {
		s->st.state = STS_PASSED;
	} else if (i == 1 && s->now_s >= 50) {
		s->st.state = STS_FAILED;
		KNOWN_SET(s->st.lba, 777);
	} else {
		KNOWN_SET(s->st.percent, s->now_s < 100 ? s->now_s : 99);
	}
	return 0;
}

static int
fk_abort(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s)
{
	(void)d;
	(void)s;
	F.aborts[f->name[0] - '0']++;
	return 0;
}

static const struct dev_source fake = {
	.name = "fake", .selftest_start = fk_start, .selftest_poll = fk_poll, .selftest_abort = fk_abort,
};

static double
fk_wall(void *arg)
{
	(void)arg;
	return F.wall;
}

static void
fk_wait(void *arg, double s)
{
	(void)arg;
	if (s > F.waited_max)
		F.waited_max = s;
	F.wall += s;
}

static bool
fk_stopping(void *arg)
{
	(void)arg;
	return F.stop_at > 0 && F.wall >= F.stop_at;
}

static void
fk_progress(void *arg, size_t i, const struct st_drive *d)
{
	(void)arg;
	(void)i;
	(void)d;
	F.progress++;
}

static void
setup_run(struct st_run *o, struct target *t, enum target_kind kind, double speed)
{
	memset(&F, 0, sizeof F);
	memset(o, 0, sizeof *o);
	o->kind = SELFTEST_SHORT;
	o->n = 4;
	o->wall = fk_wall;
	o->wait = fk_wait;
	o->stopping = fk_stopping;
	o->progress = fk_progress;
	for (int i = 0; i < 4; i++) {
		memset(&t[i], 0, sizeof t[i]);
		t[i].kind = kind;
		t[i].sim_speed = speed;
		t[i].facts.source = &fake;
		t[i].facts.name[0] = (char)('0' + i);
		o->dr[i].t = &t[i];
		o->dr[i].speed = kind == TGT_SIM ? speed : 1;
		o->dr[i].lbs = 512;
	}
}

static void
test_orchestrate_virtual(void **state)
{
	(void)state;
	struct st_run o;
	struct target t[4];
	setup_run(&o, t, TGT_SIM, 0);
	o.timeout_s = 300;
	assert_int_equal(st_run_all(&o), 0);
	assert_int_equal(F.starts, 4);	/* all at once, before any poll */
	assert_int_equal(o.dr[0].s.st.state, STS_PASSED);
	assert_int_equal(o.dr[1].s.st.state, STS_FAILED);
	assert_int_equal(o.dr[1].s.st.lba.v, 777);
	assert_int_equal(o.dr[2].s.st.state, STS_UNSUPPORTED);
	assert_string_equal(o.dr[2].s.st.text, "self-test not supported (OACS)");
	assert_int_equal(o.dr[3].s.st.state, STS_TIMEOUT);	/* its bound: aborted */
	assert_int_equal(F.aborts[3], 1);
	assert_int_equal(F.aborts[0] + F.aborts[1], 0);
	assert_true(o.dr[3].ran_s >= 300 && o.dr[3].ran_s < 302);
	assert_true(o.dr[1].ran_s >= 50 && o.dr[1].ran_s < 52);
	assert_int_equal(F.polls[2], 0);	/* one that cannot is never polled */
	assert_true(F.polls[0] >= 100 && F.polls[1] < F.polls[0]);	/* every second of virtual time */
	assert_true(F.wall == 0 && F.waited_max == 0);	/* virtual: no wall time, no waits */
	assert_true(F.progress >= F.polls[0] + F.polls[1] + F.polls[3]);
	char why[256];
	assert_int_equal(st_drive_verdict(&o.dr[1], SELFTEST_SHORT, why, sizeof why), VL_FAIL);
	assert_non_null(strstr(why, "failed at LBA 777 (0.000 GB)"));
	assert_int_equal(st_drive_verdict(&o.dr[0], SELFTEST_SHORT, why, sizeof why), VL_PASS);
	assert_int_equal(st_drive_verdict(&o.dr[2], SELFTEST_SHORT, why, sizeof why), VL_INFO);
	assert_string_equal(why, "no short self-test: self-test not supported (OACS)");
	assert_int_equal(st_drive_verdict(&o.dr[3], SELFTEST_SHORT, why, sizeof why), VL_WARN);
}

static void
test_orchestrate_stop(void **state)
{
	(void)state;
	struct st_run o;
	struct target t[4];
	/* real drives on the (fake) wall clock: polled every 5 s in waits of
	 * at most 0.1 s; the run stops at 72.05 s */
	setup_run(&o, t, TGT_BLOCK, 1);
	F.stop_at = 72.05;
	assert_int_equal(st_run_all(&o), 0);
	assert_true(F.waited_max <= 0.1 + 1e-9);
	assert_true(F.wall >= 72.05 && F.wall < 72.2);	/* the stop seen within a wait */
	assert_int_equal(o.dr[1].s.st.state, STS_FAILED);	/* over before the stop */
	assert_int_equal(o.dr[0].s.st.state, STS_ABORTED);
	assert_int_equal(o.dr[3].s.st.state, STS_ABORTED);
	assert_int_equal(F.aborts[0], 1);
	assert_int_equal(F.aborts[3], 1);
	assert_int_equal(F.aborts[1], 0);	/* not running: not aborted */
	assert_int_equal(F.aborts[2], 0);
	assert_string_equal(o.dr[0].s.st.text, "aborted by the host");	/* the log read after the abort */
	assert_true(F.polls[0] >= 14 && F.polls[0] <= 16);	/* 70 s / 5 s, plus the read after the abort */
}

/* Polls that fail: one is not the end (the next may answer), three in a
 * row are (aborted, an error with the reason). */
static void
test_orchestrate_poll_errors(void **state)
{
	(void)state;
	struct st_run o;
	struct target t[4];
	setup_run(&o, t, TGT_SIM, 0);
	F.poll_fails = true;
	assert_int_equal(st_run_all(&o), 0);
	assert_int_equal(o.dr[3].s.st.state, STS_ERROR);
	assert_int_equal(F.polls[3], ST_POLL_ERRORS);
	assert_int_equal(F.aborts[3], 1);
	assert_string_equal(o.dr[3].s.st.text, "its progress could not be read (self-test log: Input/output error)");
	assert_int_equal(o.dr[0].s.st.state, STS_PASSED);	/* the others go on */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_new_and_build),
		cmocka_unit_test(test_ata_progress),
		cmocka_unit_test(test_nvme_log),
		cmocka_unit_test(test_scsi_log),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_orchestrate_virtual),
		cmocka_unit_test(test_orchestrate_stop),
		cmocka_unit_test(test_orchestrate_poll_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
