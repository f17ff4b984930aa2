/* selftest.h - a drive's own self-test, the same for every drive class:
 * ATA SMART EXECUTE OFF-LINE IMMEDIATE (libatasmart), SCSI SEND DIAGNOSTIC
 * in the background (libsgutils2), NVMe Device Self-test (libnvme), and a
 * sim drive's model in its own time.  The operations are hooks of the
 * target's dev_source (facts.h: selftest_start / _poll / _abort); the
 * orchestrator (bench/selftest-run.c) never learns the class.
 *
 * A self-test writes no user data, but it changes the drive's state (it
 * runs inside the drive, slows its I/O and adds an entry to its log): it is
 * started only on drives the user named. */
#ifndef DS_SELFTEST_H
#define DS_SELFTEST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/known.h"

enum selftest_kind { SELFTEST_NONE, SELFTEST_SHORT, SELFTEST_LONG };

enum selftest_state {
	STS_IDLE,		/* not started */
	STS_RUNNING,
	STS_PASSED,
	STS_FAILED,		/* the drive says it failed: lba when it names one */
	STS_ABORTED,		/* aborted by us (Ctrl-C, a stop of the run) */
	STS_TIMEOUT,		/* ran past its bound: aborted */
	STS_INTERRUPTED,	/* ended by something else (a reset, another command) */
	STS_UNSUPPORTED,	/* the drive cannot self-test: text says why; not a failure */
	STS_ERROR,		/* a command to the drive failed: text says which */
};

struct selftest_status {
	enum selftest_state state;
	struct known_dbl percent;	/* done, 0 .. 100, as the drive reports it */
	struct known_dbl left_s;	/* time left as the drive reports it (or its estimate less
					   the time run); unknown: it reports none */
	struct known_dbl estimate_s;	/* the whole test as the drive estimates it (ATA polling
					   minutes, NVMe EDSTT, SCSI extended completion time) */
	struct known_u64 lba;		/* a failed test's first failing LBA (logical sectors) */
	char text[160];			/* the result as the drive's log says it, or why not */
};

/* One drive's self-test, owned by the orchestrator; the source keeps its
 * own in priv (zeroed before start). */
struct selftest_drive {
	enum selftest_kind kind;
	double now_s;			/* since the start, on the drive's clock (a sim drive's:
					   virtual unless paced) */
	struct selftest_status st;
	uint64_t priv[8];
};

const char *selftest_kind_name(enum selftest_kind k);	/* "short", "long", "none" */
/* "short" / "long" / "off": 0, -EINVAL. */
int selftest_kind_parse(const char *s, enum selftest_kind *out);
const char *selftest_state_name(enum selftest_state s);	/* "running", "passed", "failed", ... */
/* The state has ended (not idle, not running). */
bool selftest_state_over(enum selftest_state s);

/* ---- a real drive's (selftest-ops.c; the SCSI class: selftest-scsi.c) ---- */
struct dev_facts;
struct drive;
int inv_selftest_start(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s);
int inv_selftest_poll(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s);
int inv_selftest_abort(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s);
int scsi_selftest_start(const struct drive *d, struct selftest_drive *s);
int scsi_selftest_poll(const struct drive *d, struct selftest_drive *s);
int scsi_selftest_abort(const struct drive *d, struct selftest_drive *s);

/* ---- pure decoders (selftest-decode.c; unit tests feed them bytes) ---- */

/* ATA: the SMART data's self-test execution status byte (offset 363: high
 * nibble the status, low nibble the tenths left) as libatasmart parses it
 * (its status value and percent remaining) into st: running with its
 * percent, or over with the result (the log then names the LBA). */
void selftest_ata_exec(unsigned status, unsigned percent_remaining, struct selftest_status *st);
/* ATA: the newest entry of a self-test log (ata-selftest.h) of the kind
 * started (type 1 short, 2 extended) into st's result and failing LBA;
 * false when the log's newest entry is not one (then st is as it was). */
struct ata_selftest_log;
bool selftest_ata_log(const struct ata_selftest_log *log, enum selftest_kind kind, struct selftest_status *st);

/* NVMe: the Device Self-test log page (Log Identifier 06h, 564 bytes as
 * libnvme's struct nvme_self_test_log): the operation under way and its
 * completion, or the newest result (Device Self-test Status bits 3:0) with
 * the failing LBA where the entry says it is valid. */
struct nvme_self_test_log;
void selftest_nvme_log(const struct nvme_self_test_log *l, struct selftest_status *st);

/* SCSI: the self-test results log page (0x10) as LOG SENSE returns it (its
 * 4-byte header, then 20-byte parameters): the newest parameter's result
 * (bits 3:0 of byte 4) and address of first failure; 0, or -EINVAL (not
 * that page, too short). */
int selftest_scsi_log(const uint8_t *page, size_t n, struct selftest_status *st);

/* The bound on a self-test's time: the user's (timeout_s > 0), else the
 * drive's own estimate plus a margin, else a default per kind. */
double selftest_bound_s(enum selftest_kind kind, struct known_dbl estimate_s, double timeout_s);
#endif
