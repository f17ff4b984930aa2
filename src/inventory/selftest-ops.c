/* selftest-ops.c - a real drive's own self-test (selftest.h), the
 * inventory's selftest_* hooks: ATA through libatasmart (SMART EXECUTE
 * OFF-LINE IMMEDIATE, the SMART data's execution status, the self-test log
 * over SG_IO for the failing LBA), NVMe through libnvme (Device Self-test,
 * the Device Self-test log), SCSI in selftest-scsi.c (libsgutils2).  Each
 * call opens the device and closes it again: a poll every few seconds,
 * nothing held across a self-test of hours.  Which class comes from the
 * drive the inventory shows (its transport), never from its name. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <atasmart.h>
#include <libnvme.h>
#include "inventory/ata.h"
#include "inventory/ata-selftest.h"
#include "inventory/inventory.h"
#include "inventory/selftest.h"

/* What a source keeps between calls (selftest_drive.priv): the newest log
 * entry before the start, so an old result is not taken for this one's. */
struct inv_st {
	uint64_t sig;		/* the newest entry before start; 0 none */
	int cls;		/* CLS_* */
};
enum { CLS_NONE, CLS_ATA, CLS_NVME, CLS_SCSI };
_Static_assert(sizeof(struct inv_st) <= sizeof(((struct selftest_drive *)0)->priv), "priv too small");

static struct inv_st *
priv_of(struct selftest_drive *s)
{
	return (struct inv_st *)(void *)s->priv;
}

/* ---- ATA ---- */

static SkSmartSelfTest
ata_test(enum selftest_kind k)
{
	return k == SELFTEST_LONG ? SK_SMART_SELF_TEST_EXTENDED : SK_SMART_SELF_TEST_SHORT;
}

/* The drive's SMART data now as libatasmart parses it: read through its
 * own transport, or, where that fails (no udev to name the bus, some
 * bridges), read over our SG_IO and handed to it as a blob (*sgio).  0 with
 * *sk (sk_disk_free after) and *pd, or -errno with the reason. */
static int
ata_open(const struct drive *d, SkDisk **sk, const SkSmartParsedData **pd, bool *sgio,
	 struct selftest_status *st)
{
	SkBool avail = 0;
	*sgio = false;
	if (sk_disk_open(d->path, sk) == 0) {
		if (sk_disk_smart_is_available(*sk, &avail) == 0 && !avail) {
			snprintf(st->text, sizeof st->text, "SMART not available on this drive");
			sk_disk_free(*sk);
			return -EOPNOTSUPP;
		}
		if (avail && sk_disk_smart_read_data(*sk) == 0 && sk_disk_smart_parse(*sk, pd) == 0)
			return 0;
		sk_disk_free(*sk);
	}
	void *blob = NULL;
	size_t n = 0;
	char why[128] = "";
	int rc = ata_sgio_blob(d->path, 5000, &blob, &n, why, sizeof why);
	if (rc) {
		snprintf(st->text, sizeof st->text, "SMART data unreadable: %s", why);
		return rc;
	}
	if (sk_disk_open(NULL, sk) < 0) {
		free(blob);
		snprintf(st->text, sizeof st->text, "libatasmart: %s", strerror(errno ? errno : ENOMEM));
		return -ENOMEM;
	}
	rc = sk_disk_set_blob(*sk, blob, n);
	free(blob);
	if (rc < 0 || sk_disk_smart_is_available(*sk, &avail) < 0 || !avail || sk_disk_smart_parse(*sk, pd) < 0) {
		snprintf(st->text, sizeof st->text, "SMART not available on this drive%s%.100s%s",
			 why[0] ? " (" : "", why, why[0] ? ")" : "");
		sk_disk_free(*sk);
		return -EOPNOTSUPP;
	}
	*sgio = true;
	return 0;
}

/* SMART EXECUTE OFF-LINE IMMEDIATE: through libatasmart's transport, or
 * over SG_IO where its own failed. */
static int
ata_exec(const struct drive *d, SkDisk *sk, bool sgio, SkSmartSelfTest t, struct selftest_status *st)
{
	char why[128] = "";
	if (!sgio && sk_disk_smart_self_test(sk, t) == 0)
		return 0;
	int rc = ata_sgio_smart_exec(d->path, 5000, (uint8_t)t, why, sizeof why);
	if (rc)
		snprintf(st->text, sizeof st->text, "%s", why);
	return rc;
}

/* The newest entry of the self-test log as one number (0: none, unreadable). */
static uint64_t
ata_log_sig(const struct drive *d, struct ata_selftest_log *log, char *why, size_t wn)
{
	uint8_t raw[ATA_SELFTEST_SIZE];
	memset(log, 0, sizeof(*log));
	snprintf(why, wn, "no entry");
	if (ata_sgio_selftest_log(d->path, 5000, raw, why, wn) ||
	    ata_selftest_parse(raw, log, why, wn) || !log->n)
		return 0;
	const struct ata_selftest *e = &log->e[0];
	return (uint64_t)log->n << 56 | (uint64_t)e->type << 48 | (uint64_t)e->status << 40 |
	       (uint64_t)e->hours << 24 | (e->lba & 0xffffff);
}

static int
ata_start(const struct drive *d, struct selftest_drive *s)
{
	SkDisk *sk;
	const SkSmartParsedData *pd;
	bool sgio;
	int rc = ata_open(d, &sk, &pd, &sgio, &s->st);
	if (rc)
		return rc;
	SkSmartSelfTest t = ata_test(s->kind);
	if (!sk_smart_self_test_available(pd, t)) {
		snprintf(s->st.text, sizeof s->st.text, "SMART self-test not supported");
		sk_disk_free(sk);
		return -EOPNOTSUPP;
	}
	unsigned mins = sk_smart_self_test_polling_minutes(pd, t);
	if (mins)
		KNOWN_SET(s->st.estimate_s, mins * 60.0);
	struct ata_selftest_log log;
	char why[96];
	priv_of(s)->sig = ata_log_sig(d, &log, why, sizeof why);
	rc = ata_exec(d, sk, sgio, t, &s->st);
	sk_disk_free(sk);
	return rc;
}

static int
ata_poll(const struct drive *d, struct selftest_drive *s)
{
	SkDisk *sk;
	const SkSmartParsedData *pd;
	bool sgio;
	int rc = ata_open(d, &sk, &pd, &sgio, &s->st);
	if (rc)
		return rc;
	struct selftest_status st = s->st;
	selftest_ata_exec(pd->self_test_execution_status, pd->self_test_execution_percent_remaining, &st);
	sk_disk_free(sk);
	if (selftest_state_over(st.state)) {
		/* over: the log has the result and the failing LBA, once it has
		 * this test's entry (a drive may answer the old status at first) */
		struct ata_selftest_log log;
		char why[96];
		uint64_t sig = ata_log_sig(d, &log, why, sizeof why);
		if (sig && sig != priv_of(s)->sig) {
			selftest_ata_log(&log, s->kind, &st);
		} else if (!sig && !priv_of(s)->sig) {
			/* no log to tell this test's entry from an older one: the
			 * execution status is all the drive says (no failing LBA) */
			char t[64];
			snprintf(t, sizeof t, "%.60s", st.text);
			snprintf(st.text, sizeof st.text, "%s (SMART execution status; no self-test log: %.50s)", t, why);
		} else if (st.state != STS_ABORTED && s->now_s < 30) {
			st.state = STS_RUNNING;	/* not in the log yet */
		}
	}
	if (st.state == STS_RUNNING && st.estimate_s.known)
		KNOWN_SET(st.left_s, st.estimate_s.v > s->now_s ? st.estimate_s.v - s->now_s : 0);
	s->st = st;
	return 0;
}

static int
ata_abort(const struct drive *d, struct selftest_drive *s)
{
	SkDisk *sk;
	const SkSmartParsedData *pd;
	bool sgio;
	int rc = ata_open(d, &sk, &pd, &sgio, &s->st);
	if (rc)
		return rc;
	rc = ata_exec(d, sk, sgio, SK_SMART_SELF_TEST_ABORT, &s->st);
	sk_disk_free(sk);
	return rc;
}

/* ---- NVMe ---- */

static int
nvme_fail(int rc, const char *what, struct selftest_status *st)
{
	if (rc > 0) {	/* an NVMe status: Invalid Command Opcode is "cannot" */
		snprintf(st->text, sizeof st->text, "%s: NVMe status 0x%x", what, (unsigned)rc);
		return (rc & 0x7ff) == NVME_SC_INVALID_OPCODE ? -EOPNOTSUPP : -EIO;
	}
	int e = errno ? errno : EIO;
	snprintf(st->text, sizeof st->text, "%s: %s", what, strerror(e));
	return -e;
}

static int
nvme_open_dev(const struct drive *d, struct selftest_status *st)
{
	int fd = open(d->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		snprintf(st->text, sizeof st->text, "%s: %s", d->path, strerror(errno));
	return fd < 0 ? -errno : fd;
}

static uint64_t
nvme_sig(const struct nvme_self_test_log *l)
{
	const struct nvme_st_result *e = &l->result[0];
	return (uint64_t)e->dsts << 56 | (le64toh(e->poh) & 0xffffffffffffull);
}

static int
nvme_start(const struct drive *d, struct selftest_drive *s)
{
	if (d->nvme.selftest_supported.known && !d->nvme.selftest_supported.v) {
		snprintf(s->st.text, sizeof s->st.text, "self-test not supported (OACS)");
		return -EOPNOTSUPP;
	}
	int fd = nvme_open_dev(d, &s->st);
	if (fd < 0)
		return fd;
	struct nvme_id_ctrl ctrl;
	int rc = nvme_identify_ctrl(fd, &ctrl);
	if (rc) {
		rc = nvme_fail(rc, "identify controller", &s->st);
		close(fd);
		return rc;
	}
	if (!(le16toh(ctrl.oacs) & NVME_CTRL_OACS_SELF_TEST)) {
		snprintf(s->st.text, sizeof s->st.text, "self-test not supported (OACS)");
		close(fd);
		return -EOPNOTSUPP;
	}
	/* EDSTT: the extended test's minutes; a short one is at most 2 minutes */
	if (s->kind == SELFTEST_LONG && le16toh(ctrl.edstt))
		KNOWN_SET(s->st.estimate_s, le16toh(ctrl.edstt) * 60.0);
	else if (s->kind == SELFTEST_SHORT)
		KNOWN_SET(s->st.estimate_s, 120);
	struct nvme_self_test_log log;
	if (!nvme_get_log_device_self_test(fd, &log))
		priv_of(s)->sig = nvme_sig(&log);
	struct nvme_dev_self_test_args a = {
		.args_size = sizeof(a), .fd = fd, .timeout = 0, .nsid = NVME_NSID_ALL,
		.stc = s->kind == SELFTEST_LONG ? NVME_DST_STC_LONG : NVME_DST_STC_SHORT,
	};
	rc = nvme_dev_self_test(&a);
	if (rc)
		rc = nvme_fail(rc, "Device Self-test", &s->st);
	close(fd);
	return rc;
}

static int
nvme_poll(const struct drive *d, struct selftest_drive *s)
{
	int fd = nvme_open_dev(d, &s->st);
	if (fd < 0)
		return fd;
	struct nvme_self_test_log log;
	int rc = nvme_get_log_device_self_test(fd, &log);
	close(fd);
	if (rc)
		return nvme_fail(rc, "self-test log", &s->st);
	struct selftest_status st = s->st;
	selftest_nvme_log(&log, &st);
	if (selftest_state_over(st.state) && nvme_sig(&log) == priv_of(s)->sig && s->now_s < 30)
		st.state = STS_RUNNING;	/* the log does not show it yet */
	if (st.state == STS_RUNNING && st.estimate_s.known)
		KNOWN_SET(st.left_s, st.estimate_s.v > s->now_s ? st.estimate_s.v - s->now_s : 0);
	s->st = st;
	return 0;
}

static int
nvme_abort(const struct drive *d, struct selftest_drive *s)
{
	int fd = nvme_open_dev(d, &s->st);
	if (fd < 0)
		return fd;
	struct nvme_dev_self_test_args a = {
		.args_size = sizeof(a), .fd = fd, .nsid = NVME_NSID_ALL, .stc = NVME_DST_STC_ABORT,
	};
	int rc = nvme_dev_self_test(&a);
	if (rc)
		rc = nvme_fail(rc, "Device Self-test abort", &s->st);
	close(fd);
	return rc;
}

/* ---- the hooks ---- */

static int
class_of(const struct drive *d, struct selftest_status *st)
{
	if (!d) {
		snprintf(st->text, sizeof st->text, "not a drive the inventory shows");
		return CLS_NONE;
	}
	switch (d->transport) {
	case TR_SATA: case TR_IDE: case TR_USB:
		return CLS_ATA;
	case TR_NVME:
		return CLS_NVME;
	case TR_SAS: case TR_SCSI:
		return CLS_SCSI;
	default:
		snprintf(st->text, sizeof st->text, "a %s device has no self-test", transport_name(d->transport));
		return CLS_NONE;
	}
}

/* Each class's start, poll and abort, by the class a drive was found to
 * be when its self-test started (priv_of(s)->cls). */
static const struct cls_ops {
	int (*start)(const struct drive *, struct selftest_drive *);
	int (*poll)(const struct drive *, struct selftest_drive *);
	int (*abort)(const struct drive *, struct selftest_drive *);
} cls_ops[] = {
	[CLS_ATA] = { ata_start, ata_poll, ata_abort },
	[CLS_NVME] = { nvme_start, nvme_poll, nvme_abort },
	[CLS_SCSI] = { scsi_selftest_start, scsi_selftest_poll, scsi_selftest_abort },
};

static const struct cls_ops *
ops_of(int cls)
{
	return cls > CLS_NONE && cls <= CLS_SCSI ? &cls_ops[cls] : NULL;
}

int
inv_selftest_start(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s)
{
	(void)f;
	int cls = class_of(d, &s->st);
	priv_of(s)->cls = cls;
	const struct cls_ops *o = ops_of(cls);
	return o ? o->start(d, s) : -EOPNOTSUPP;
}

int
inv_selftest_poll(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s)
{
	(void)f;
	const struct cls_ops *o = ops_of(priv_of(s)->cls);
	return o ? o->poll(d, s) : -EOPNOTSUPP;
}

int
inv_selftest_abort(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s)
{
	(void)f;
	const struct cls_ops *o = ops_of(priv_of(s)->cls);
	return o ? o->abort(d, s) : -EOPNOTSUPP;
}
