/* scsi-read.c - the SCSI drive class's reader: INQUIRY and its VPD pages,
 * READ CAPACITY(16), the LOG SENSE pages, READ DEFECT DATA, all sent through
 * libsgutils2, all read-only, each with a timeout of a few seconds so that a
 * failing drive keeps the inventory bounded.  Decoding is scsi.c's. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <scsi/sg_cmds_basic.h>
#include <scsi/sg_lib.h>
#include <scsi/sg_pt.h>
#include "inventory/scsi.h"
#include "util/util.h"

#define SCSI_TIMEOUT_S 5
#define SCSI_BUDGET_S 12	/* all of one drive's commands: past it, no more are sent */
#define RESP_MAX 4096

/* One drive's read: its fd, where its pages are saved, the time it may take. */
struct rd {
	int fd;
	const char *name, *save_dir;
	struct timespec until;
};

/* The drive's time is used up (a failing drive answering each command
 * only at its timeout): the rest stays unknown. */
static bool
over(const struct rd *r)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > r->until.tv_sec ||
	       (now.tv_sec == r->until.tv_sec && now.tv_nsec >= r->until.tv_nsec);
}

static void
save_page(const char *dir, const char *name, const char *what, const void *p, size_t len)
{
	char path[PATH_MAX];
	if (!dir || !len || pathf(path, sizeof path, "%s/%s.scsi-%s.bin", dir, name, what))
		return;
	FILE *f = fopen(path, "wb");
	if (!f)
		return;
	fwrite(p, 1, len, f);
	fclose(f);
}

/* libsgutils2's answer (0, SG_LIB_CAT_*, -errno or -1) in words. */
static int
sg_rc(int rc, const char *what, char *reason, size_t n)
{
	if (rc == 0)
		return 0;
	if (rc < 0) {
		int e = rc < -1 ? -rc : EIO;	/* libsgutils2: -1 is "other failure" */
		snprintf(reason, n, "%s: %s", what, strerror(e));
		return -e;
	}
	char cat[80];
	sg_get_category_sense_str(rc, (int)sizeof cat, cat, 0);
	snprintf(reason, n, "%s: %s", what, cat);
	return rc == SG_LIB_CAT_INVALID_OP || rc == SG_LIB_CAT_ILLEGAL_REQ ? -EOPNOTSUPP : -EIO;
}

/* A data-in command of our CDB through libsgutils2's pass-through object:
 * sg_ll_readcap_16 and sg_ll_read_defect10 take no timeout, this does.
 * Returns the bytes received (>= 0) or a sg_rc answer. */
static int
pt_in(const struct rd *r, const uint8_t *cdb, int cdb_len, uint8_t *resp, int len, const char *what,
      char *reason, size_t n)
{
	uint8_t sense[64];
	if (over(r))
		return sg_rc(-ETIMEDOUT, what, reason, n);
	struct sg_pt_base *pt = construct_scsi_pt_obj_with_fd(r->fd, 0);
	if (!pt)
		return sg_rc(-ENOMEM, what, reason, n);
	set_scsi_pt_cdb(pt, cdb, cdb_len);
	set_scsi_pt_sense(pt, sense, sizeof sense);
	set_scsi_pt_data_in(pt, resp, len);
	int res = do_scsi_pt(pt, -1, SCSI_TIMEOUT_S, 0);
	int cat = 0;
	int got = sg_cmds_process_resp(pt, what, res, false, 0, &cat);
	destruct_scsi_pt_obj(pt);
	if (got >= 0)
		return got;
	if (got == -2) {
		/* sense data: a recovered error or "no sense" still carries data */
		if (cat == SG_LIB_CAT_RECOVERED || cat == SG_LIB_CAT_NO_SENSE)
			return len;
		return sg_rc(cat, what, reason, n);
	}
	return sg_rc(res == SCSI_PT_DO_TIMEOUT ? -ETIMEDOUT : res < 0 ? res : -EIO, what,
		     reason, n);
}

static int
read_vpd(const struct rd *r, unsigned page, struct scsi_info *out)
{
	uint8_t buf[RESP_MAX];
	int resid = 0;
	char why[96], tag[16];
	memset(buf, 0, sizeof buf);
	if (over(r))
		return -ETIMEDOUT;
	int rc = sg_rc(sg_ll_inquiry_v2(r->fd, true, (int)page, buf, 255, SCSI_TIMEOUT_S, &resid,
					false, 0), "VPD", why, sizeof why);
	if (rc < 0)
		return rc;
	size_t got = 255 - (size_t)(resid > 0 && resid < 255 ? resid : 0);
	snprintf(tag, sizeof tag, "vpd%02x", page);
	save_page(r->save_dir, r->name, tag, buf, got);
	return scsi_decode_vpd(buf, got, out);
}

/* The VPD pages the drive lists in page 0x00 (a page it lacks stays unknown). */
static void
read_vpds(const struct rd *r, struct scsi_info *out)
{
	uint8_t list[256];
	int resid = 0;
	memset(list, 0, sizeof list);
	if (sg_ll_inquiry_v2(r->fd, true, 0x00, list, 255, SCSI_TIMEOUT_S, &resid, false, 0))
		return;
	save_page(r->save_dir, r->name, "vpd00", list, 255 - (size_t)(resid > 0 ? resid : 0));
	size_t n = list[3];
	for (size_t i = 0; i < n && 4 + i < sizeof list; i++) {
		unsigned pg = list[4 + i];
		if (pg == 0x80 || pg == 0x83 || pg == 0x89 || pg == 0xb0 || pg == 0xb1 ||
		    pg == 0xb2)
			read_vpd(r, pg, out);
	}
}

static void
read_capacity(const struct rd *r, struct scsi_info *out)
{
	/* SERVICE ACTION IN(16), READ CAPACITY(16), allocation length 32 */
	uint8_t cdb[16] = { 0x9e, 0x10, [13] = 32 }, buf[32];
	char why[96];
	memset(buf, 0, sizeof buf);
	int got = pt_in(r, cdb, sizeof cdb, buf, sizeof buf, "READ CAPACITY(16)", why, sizeof why);
	if (got < 0)
		return;
	save_page(r->save_dir, r->name, "rc16", buf, (size_t)got);
	scsi_decode_readcap16(buf, (size_t)got, out);
}

/* The grown defect list's header: READ DEFECT DATA(12), else (10), in the
 * bytes-from-index format; the drive may answer in another one. */
static void
read_defects(const struct rd *r, struct scsi_health *h)
{
	uint8_t buf[8], cdb12[12] = { 0xb7, 0x08 | 4, [9] = 8 }, cdb10[10] = { 0x37, 0x08 | 4, [8] = 4 };
	char why[96];
	memset(buf, 0, sizeof buf);
	int got = pt_in(r, cdb12, sizeof cdb12, buf, 8, "READ DEFECT DATA(12)", why, sizeof why);
	if (got >= 8 && scsi_decode_defects(buf, 8, true, h) == 0) {
		save_page(r->save_dir, r->name, "defect12", buf, 8);
		return;
	}
	memset(buf, 0, sizeof buf);
	got = pt_in(r, cdb10, sizeof cdb10, buf, 4, "READ DEFECT DATA(10)", why, sizeof why);
	if (got >= 4 && scsi_decode_defects(buf, 4, false, h) == 0)
		save_page(r->save_dir, r->name, "defect10", buf, 4);
}

static void
add_missing(struct scsi_health *h, unsigned pg)
{
	size_t j = strlen(h->missing);
	if (j + 4 < sizeof h->missing)
		snprintf(h->missing + j, sizeof h->missing - j, "%s%02x", j ? " " : "", pg);
}

static const unsigned health_pages[] = { 0x02, 0x03, 0x05, 0x06, 0x0d, 0x0e, 0x10, 0x15, 0x2f };

static void
read_health(const struct rd *r, struct scsi_health *h)
{
	uint8_t buf[RESP_MAX];
	int resid = 0;
	char tag[16];
	memset(buf, 0, sizeof buf);
	/* page 0x00: which pages there are; the cumulative values (PC 1) */
	int rc = sg_rc(sg_ll_log_sense_v2(r->fd, false, false, 1, 0x00, 0, 0, buf, 255,
					  SCSI_TIMEOUT_S, &resid, false, 0),
		       "LOG SENSE", h->reason, sizeof h->reason);
	if (rc == 0) {
		size_t got = 255 - (size_t)(resid > 0 && resid < 255 ? resid : 0);
		save_page(r->save_dir, r->name, "log00", buf, got);
		scsi_decode_log(buf, got, h);
		for (size_t i = 0; i < sizeof health_pages / sizeof health_pages[0]; i++) {
			unsigned pg = health_pages[i];
			memset(buf, 0, sizeof buf);
			resid = 0;
			if (!scsi_health_has_page(h, pg) || over(r) ||
			    sg_ll_log_sense_v2(r->fd, false, false, 1, (int)pg, 0, 0, buf, sizeof buf,
					       SCSI_TIMEOUT_S, &resid, false, 0)) {
				add_missing(h, pg);
				continue;
			}
			size_t n = sizeof buf - (size_t)(resid > 0 && resid < RESP_MAX ? resid : 0);
			snprintf(tag, sizeof tag, "log%02x", pg);
			save_page(r->save_dir, r->name, tag, buf, n);
			scsi_decode_log(buf, n, h);
		}
	}
	read_defects(r, h);
	if (!h->known && !h->reason[0])
		snprintf(h->reason, sizeof h->reason, "no health log page answered");
	else if (h->known)
		h->reason[0] = 0;
}

int
scsi_info_read(const char *path, const char *name, const char *save_dir, struct scsi_info *out)
{
	char transport[sizeof out->transport], from[sizeof out->transport_from];
	memcpy(transport, out->transport, sizeof transport);
	memcpy(from, out->transport_from, sizeof from);
	memset(out, 0, sizeof *out);
	memcpy(out->transport, transport, sizeof transport);
	memcpy(out->transport_from, from, sizeof from);
	snprintf(out->health.reason, sizeof out->health.reason, "not read");

	int fd = sg_cmds_open_device(path, true, 0);
	struct rd r = { .fd = fd, .name = name, .save_dir = save_dir };
	clock_gettime(CLOCK_MONOTONIC, &r.until);
	r.until.tv_sec += SCSI_BUDGET_S;
	if (fd < 0) {
		snprintf(out->reason, sizeof out->reason, "open %s: %s", path, strerror(-fd));
		snprintf(out->health.reason, sizeof out->health.reason, "%s", out->reason);
		return fd;
	}
	uint8_t inq[96];
	int resid = 0;
	memset(inq, 0, sizeof inq);
	int rc = sg_rc(sg_ll_inquiry_v2(fd, false, 0, inq, sizeof inq, SCSI_TIMEOUT_S, &resid,
					false, 0), "INQUIRY", out->reason, sizeof out->reason);
	if (rc == 0 && scsi_decode_inquiry(inq, sizeof inq - (size_t)(resid > 0 ? resid : 0),
					   out) < 0) {
		snprintf(out->reason, sizeof out->reason, "INQUIRY: no logical unit");
		rc = -ENODEV;
	}
	if (rc < 0) {
		snprintf(out->health.reason, sizeof out->health.reason, "%s", out->reason);
		sg_cmds_close_device(fd);
		return rc;
	}
	save_page(save_dir, name, "inq", inq, sizeof inq - (size_t)(resid > 0 ? resid : 0));
	read_vpds(&r, out);
	read_capacity(&r, out);
	if (scsi_is_sat(out)) {
		snprintf(out->health.reason, sizeof out->health.reason,
			 "an ATA drive behind SAT (%s): its health is SMART's",
			 out->sat_vendor[0] ? out->sat_vendor : "VPD 0x89");
	} else {
		out->health.reason[0] = 0;
		read_health(&r, &out->health);
	}
	sg_cmds_close_device(fd);
	if (over(&r) && !out->health.known)
		snprintf(out->health.reason, sizeof out->health.reason,
			 "gave up: the drive's answers took over %d s", SCSI_BUDGET_S);
	return 0;
}
