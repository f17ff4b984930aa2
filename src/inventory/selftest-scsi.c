/* selftest-scsi.c - a SCSI drive's own self-test through libsgutils2:
 * SEND DIAGNOSTIC with the self-test code for a background short (001b) or
 * extended (010b) test, 100b to abort it; its progress from REQUEST SENSE's
 * progress indication (NOT READY, "self-test in progress"), its result and
 * address of first failure from the self-test results log page (0x10); the
 * extended test's time from the Control mode page (0x0A bytes 10-11). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <scsi/sg_cmds_basic.h>
#include <scsi/sg_cmds_extra.h>
#include <scsi/sg_lib.h>
#include "inventory/inventory.h"
#include "inventory/selftest.h"

enum { ST_BG_SHORT = 1, ST_BG_EXTENDED = 2, ST_ABORT_BG = 4 };

static int
scsi_open(const struct drive *d, struct selftest_status *st)
{
	int fd = sg_cmds_open_device(d->path, true, 0);
	if (fd < 0)
		snprintf(st->text, sizeof st->text, "%s: %s", d->path, strerror(-fd));
	return fd;
}

/* A libsgutils2 status as a reason: "cannot" for an illegal request. */
static int
scsi_fail(int res, const char *what, struct selftest_status *st)
{
	char b[96];
	sg_get_category_sense_str(res, sizeof b, b, 0);
	snprintf(st->text, sizeof st->text, "%s: %s", what, b);
	return res == SG_LIB_CAT_INVALID_OP || res == SG_LIB_CAT_ILLEGAL_REQ ? -EOPNOTSUPP : -EIO;
}

/* The extended self-test completion time of the Control mode page: 0 / -errno. */
static int
ext_time(int fd, struct known_dbl *out)
{
	uint8_t b[256];
	memset(b, 0, sizeof b);
	if (sg_ll_mode_sense10(fd, false, true, 0, 0x0a, 0, b, sizeof b, false, 0))
		return -EIO;
	size_t bdl = (size_t)b[6] << 8 | b[7];
	const uint8_t *pg = b + 8 + bdl;
	if (8 + bdl + 12 > sizeof b || (pg[0] & 0x3f) != 0x0a || pg[1] < 10)
		return -EINVAL;
	unsigned s = (unsigned)pg[10] << 8 | pg[11];
	if (s && s != 0xffff)
		KNOWN_SET(*out, s);
	return 0;
}

static int
read_log(int fd, struct selftest_status *st)
{
	uint8_t b[4 + 20 * 20];
	memset(b, 0, sizeof b);
	int res = sg_ll_log_sense(fd, false, false, 1, 0x10, 0, 0, b, sizeof b, false, 0);
	if (res)
		return scsi_fail(res, "LOG SENSE self-test results", st);
	return selftest_scsi_log(b, sizeof b, st);
}

int
scsi_selftest_start(const struct drive *d, struct selftest_drive *s)
{
	int fd = scsi_open(d, &s->st);
	if (fd < 0)
		return fd;
	if (s->kind == SELFTEST_LONG)
		ext_time(fd, &s->st.estimate_s);
	int res = sg_ll_send_diag(fd, s->kind == SELFTEST_LONG ? ST_BG_EXTENDED : ST_BG_SHORT, false, false,
				  false, false, 0, NULL, 0, false, 0);
	int rc = res ? scsi_fail(res, "SEND DIAGNOSTIC", &s->st) : 0;
	sg_cmds_close_device(fd);
	return rc;
}

int
scsi_selftest_poll(const struct drive *d, struct selftest_drive *s)
{
	int fd = scsi_open(d, &s->st);
	if (fd < 0)
		return fd;
	struct selftest_status st = s->st;
	int rc = read_log(fd, &st);
	if (rc == -EOPNOTSUPP) {
		/* no self-test results page: while the sense data shows progress
		 * it runs; after that its result is not to be had */
		uint8_t sb[64];
		int prog;
		memset(sb, 0, sizeof sb);
		char why[128];
		snprintf(why, sizeof why, "%.100s", st.text);
		if (!sg_ll_request_sense(fd, false, sb, sizeof sb, false, 0) &&
		    sg_get_sense_progress_fld(sb, sizeof sb, &prog)) {
			st.state = STS_RUNNING;
			KNOWN_SET(st.percent, prog * 100.0 / 65536);
		} else {
			st.state = STS_ERROR;
			snprintf(st.text, sizeof st.text, "no progress in REQUEST SENSE and no result: %.100s", why);
		}
		rc = 0;
	} else if (!rc && st.state == STS_RUNNING) {
		/* the progress indication of the sense data, 65536ths done */
		uint8_t sb[64];
		int prog;
		memset(sb, 0, sizeof sb);
		if (!sg_ll_request_sense(fd, false, sb, sizeof sb, false, 0) &&
		    sg_get_sense_progress_fld(sb, sizeof sb, &prog))
			KNOWN_SET(st.percent, prog * 100.0 / 65536);
		if (st.estimate_s.known)
			KNOWN_SET(st.left_s, st.estimate_s.v > s->now_s ? st.estimate_s.v - s->now_s : 0);
	} else if (!rc && st.state == STS_IDLE && s->now_s < 30) {
		st.state = STS_RUNNING;	/* not in the log yet */
	}
	sg_cmds_close_device(fd);
	if (!rc)
		s->st = st;
	return rc;
}

int
scsi_selftest_abort(const struct drive *d, struct selftest_drive *s)
{
	int fd = scsi_open(d, &s->st);
	if (fd < 0)
		return fd;
	int res = sg_ll_send_diag(fd, ST_ABORT_BG, false, false, false, false, 0, NULL, 0, false, 0);
	int rc = res ? scsi_fail(res, "SEND DIAGNOSTIC abort", &s->st) : 0;
	sg_cmds_close_device(fd);
	return rc;
}
