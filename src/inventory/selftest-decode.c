/* selftest-decode.c - a self-test's progress and result from what each
 * drive class reports (selftest.h): pure functions over the bytes (or
 * libatasmart's and libnvme's parsed structs), one per class. */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <nvme/types.h>
#include "inventory/ata-selftest.h"
#include "inventory/selftest.h"

const char *
selftest_kind_name(enum selftest_kind k)
{
	return k == SELFTEST_SHORT ? "short" : k == SELFTEST_LONG ? "long" : "none";
}

int
selftest_kind_parse(const char *s, enum selftest_kind *out)
{
	if (!s)
		return -EINVAL;
	if (!strcmp(s, "short"))
		*out = SELFTEST_SHORT;
	else if (!strcmp(s, "long") || !strcmp(s, "extended"))
		*out = SELFTEST_LONG;
	else if (!strcmp(s, "off") || !strcmp(s, "none"))
		*out = SELFTEST_NONE;
	else
		return -EINVAL;
	return 0;
}

const char *
selftest_state_name(enum selftest_state s)
{
	static const char *const names[] = {
		[STS_IDLE] = "not started", [STS_RUNNING] = "running", [STS_PASSED] = "passed",
		[STS_FAILED] = "failed", [STS_ABORTED] = "aborted", [STS_TIMEOUT] = "timed out",
		[STS_INTERRUPTED] = "interrupted", [STS_UNSUPPORTED] = "not supported",
		[STS_ERROR] = "error",
	};
	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

bool
selftest_state_over(enum selftest_state s)
{
	return s != STS_IDLE && s != STS_RUNNING;
}

/* ---- ATA ---- */

/* An ATA status value (the SMART data's execution status, a log entry's)
 * as a state: 0 passed, 1 aborted by the host, 2 interrupted, 3..8 failed,
 * 15 running. */
static enum selftest_state
ata_state(unsigned status)
{
	if (status == 0)
		return STS_PASSED;
	if (status == 1)
		return STS_ABORTED;
	if (status == 2)
		return STS_INTERRUPTED;
	if (status >= 3 && status <= 8)
		return STS_FAILED;
	return status == 15 ? STS_RUNNING : STS_ERROR;
}

void
selftest_ata_exec(unsigned status, unsigned percent_remaining, struct selftest_status *st)
{
	st->state = ata_state(status);
	if (st->state == STS_RUNNING) {
		KNOWN_SET(st->percent, percent_remaining <= 100 ? 100.0 - percent_remaining : 0);
		snprintf(st->text, sizeof st->text, "in progress, %u%% remaining", percent_remaining);
	} else {
		KNOWN_SET(st->percent, 100);
		snprintf(st->text, sizeof st->text, "%s", ata_selftest_status_name((uint8_t)status));
	}
}

bool
selftest_ata_log(const struct ata_selftest_log *log, enum selftest_kind kind, struct selftest_status *st)
{
	if (!log->n)
		return false;
	const struct ata_selftest *e = &log->e[0];
	unsigned want = kind == SELFTEST_LONG ? 2 : 1;
	if ((e->type & 0x7f) != want)
		return false;
	st->state = ata_state(e->status);
	snprintf(st->text, sizeof st->text, "%s", ata_selftest_status_name(e->status));
	KNOWN_CLEAR(st->lba);
	if (st->state == STS_FAILED && e->lba_known)
		KNOWN_SET(st->lba, e->lba);
	if (st->state == STS_RUNNING)
		KNOWN_SET(st->percent, e->remaining <= 100 ? 100.0 - e->remaining : 0);
	return true;
}

/* ---- NVMe ---- */

static const char *
nvme_result_name(unsigned r)
{
	switch (r) {
	case NVME_ST_RESULT_NO_ERR: return "completed without error";
	case NVME_ST_RESULT_ABORTED: return "aborted by a Device Self-test command";
	case NVME_ST_RESULT_CLR: return "aborted by a controller level reset";
	case NVME_ST_RESULT_NS_REMOVED: return "aborted: namespace removed";
	case NVME_ST_RESULT_ABORTED_FORMAT: return "aborted by a Format NVM command";
	case NVME_ST_RESULT_FATAL_ERR: return "fatal or unknown test error";
	case NVME_ST_RESULT_UNKNOWN_SEG_FAIL: return "completed: a segment failed (which unknown)";
	case NVME_ST_RESULT_KNOWN_SEG_FAIL: return "completed: segment failed";
	case NVME_ST_RESULT_ABORTED_UNKNOWN: return "aborted for an unknown reason";
	case NVME_ST_RESULT_ABORTED_SANITIZE: return "aborted by a sanitize operation";
	}
	return "reserved result";
}

void
selftest_nvme_log(const struct nvme_self_test_log *l, struct selftest_status *st)
{
	unsigned op = l->current_operation & NVME_ST_CURR_OP_MASK;
	if (op != NVME_ST_CURR_OP_NOT_RUNNING) {
		st->state = STS_RUNNING;
		KNOWN_SET(st->percent, l->completion & NVME_ST_CURR_OP_CMPL_MASK);
		snprintf(st->text, sizeof st->text, "in progress, %u%% done",
			 l->completion & NVME_ST_CURR_OP_CMPL_MASK);
		return;
	}
	const struct nvme_st_result *e = &l->result[0];
	unsigned r = e->dsts & NVME_ST_RESULT_MASK;
	if (r == NVME_ST_RESULT_NOT_USED) {
		st->state = STS_IDLE;
		snprintf(st->text, sizeof st->text, "no self-test in the log");
		return;
	}
	KNOWN_SET(st->percent, 100);
	switch (r) {
	case NVME_ST_RESULT_NO_ERR: st->state = STS_PASSED; break;
	case NVME_ST_RESULT_ABORTED: st->state = STS_ABORTED; break;
	case NVME_ST_RESULT_FATAL_ERR:
	case NVME_ST_RESULT_UNKNOWN_SEG_FAIL:
	case NVME_ST_RESULT_KNOWN_SEG_FAIL: st->state = STS_FAILED; break;
	default: st->state = STS_INTERRUPTED; break;
	}
	if (r == NVME_ST_RESULT_KNOWN_SEG_FAIL)
		snprintf(st->text, sizeof st->text, "completed: segment %u failed", e->seg);
	else
		snprintf(st->text, sizeof st->text, "%s", nvme_result_name(r));
	KNOWN_CLEAR(st->lba);
	if (st->state == STS_FAILED && (e->vdi & NVME_ST_VALID_DIAG_INFO_FLBA))
		KNOWN_SET(st->lba, le64toh(e->flba));
}

/* ---- SCSI ---- */

static const char *
scsi_result_name(unsigned r)
{
	static const char *const names[] = {
		"completed without error", "aborted by SEND DIAGNOSTIC", "aborted (a reset or another command)",
		"an unknown error", "completed: a segment failed (which unknown)", "completed: the first segment failed",
		"completed: the second segment failed", "completed: another segment failed",
	};
	return r < sizeof(names) / sizeof(names[0]) ? names[r] : r == 15 ? "in progress" : "reserved result";
}

int
selftest_scsi_log(const uint8_t *page, size_t n, struct selftest_status *st)
{
	if (n < 4 || (page[0] & 0x3f) != 0x10)
		return -EINVAL;
	size_t len = 4 + ((size_t)page[2] << 8 | page[3]);
	if (len > n)
		len = n;
	/* the newest result is parameter 0001h; an unused one is all zeros */
	for (size_t o = 4; o + 20 <= len; o += 4 + page[o + 3]) {
		const uint8_t *p = page + o;
		unsigned code = (unsigned)p[0] << 8 | p[1];
		if (code != 1)
			continue;
		bool used = false;
		for (int k = 4; k < 20; k++)
			used |= p[k] != 0;
		if (!used) {
			st->state = STS_IDLE;
			snprintf(st->text, sizeof st->text, "no self-test in the log");
			return 0;
		}
		unsigned r = p[4] & 0x0f;
		st->state = r == 0 ? STS_PASSED : r == 1 ? STS_ABORTED : r == 2 ? STS_INTERRUPTED
			  : r == 15 ? STS_RUNNING : r <= 7 ? STS_FAILED : STS_ERROR;
		snprintf(st->text, sizeof st->text, "%s", scsi_result_name(r));
		uint64_t a = 0;
		for (int k = 8; k < 16; k++)
			a = a << 8 | p[k];
		KNOWN_CLEAR(st->lba);
		if (st->state == STS_FAILED && a != UINT64_MAX)
			KNOWN_SET(st->lba, a);
		if (st->state != STS_RUNNING)
			KNOWN_SET(st->percent, 100);
		return 0;
	}
	return -EINVAL;
}

double
selftest_bound_s(enum selftest_kind kind, struct known_dbl estimate_s, double timeout_s)
{
	if (timeout_s > 0)
		return timeout_s;
	if (estimate_s.known && estimate_s.v > 0) {
		/* the drive's own estimate plus half again, at least 10 minutes more */
		double margin = estimate_s.v / 2 > 600 ? estimate_s.v / 2 : 600;
		return estimate_s.v + margin;
	}
	return kind == SELFTEST_LONG ? 24 * 3600.0 : 20 * 60.0;
}
