/* ata-sgio.c - our own ATA PASS-THROUGH over SG_IO, for when libatasmart's
 * transport fails: libatasmart 0.19 accepts only descriptor-format sense,
 * while the kernel's SAT layer answers with fixed format (udisks#1305).  We
 * accept both.  Only read commands are sent: IDENTIFY DEVICE and SMART
 * RETURN STATUS / READ DATA / READ THRESHOLDS / READ LOG (the self-test
 * log); never a setting change. */
#include <errno.h>
#include <fcntl.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "inventory/ata.h"
#include "inventory/ata-selftest.h"

#define ATA_IDENTIFY_DEVICE	0xEC
#define ATA_SMART		0xB0
#define SMART_READ_DATA		0xD0
#define SMART_READ_THRESHOLDS	0xD1
#define SMART_RETURN_STATUS	0xDA
#define SMART_READ_LOG		0xD5

#define SK_RECOVERED_ERROR	0x01
#define SK_ILLEGAL_REQUEST	0x05
#define SCSI_CHECK_CONDITION	0x02
#define SG_DRIVER_SENSE		0x08

int
ata_sense_parse(const uint8_t *s, size_t len, struct ata_regs *r,
		uint8_t *key, uint8_t *asc, uint8_t *ascq)
{
	uint8_t k = 0, a = 0, q = 0;
	int rc = -EINVAL;
	memset(r, 0, sizeof *r);
	if (!s || len < 1)
		goto out;
	uint8_t code = s[0] & 0x7F;
	if (code == 0x70 || code == 0x71) {
		/* Fixed format: key byte 2, ASC/ASCQ 12/13; SAT puts the ATA
		 * registers in the INFORMATION and COMMAND-SPECIFIC fields. */
		if (len < 14)
			goto out;
		k = s[2] & 0x0F;
		a = s[12];
		q = s[13];
		rc = -ENODATA;
		if (a == 0x00 && q == 0x1D) {	/* ATA PASS-THROUGH INFORMATION AVAILABLE */
			r->error = s[3];
			r->status = s[4];
			r->device = s[5];
			r->count = s[6];
			r->extend = (s[8] & 0x80) != 0;
			r->lba_low = s[9];
			r->lba_mid = s[10];
			r->lba_high = s[11];
			rc = 0;
			/* Linux 4.7-6.9 wrote the fixed-format fields at descriptor
			 * offsets (status in byte 9, LBA in 17-19) and left VALID
			 * clear.  A finished command always has DRDY in its status,
			 * so status 0 where SAT puts it means that old layout. */
			if (!(s[0] & 0x80) && s[4] == 0 && s[9] != 0 && len >= 20) {
				r->error = s[8];
				r->status = s[9];
				r->device = s[10];
				r->count = s[11];
				r->extend = (s[16] & 0x80) != 0;
				r->lba_low = s[17];
				r->lba_mid = s[18];
				r->lba_high = s[19];
			}
		}
	} else if (code == 0x72 || code == 0x73) {
		/* Descriptor format: key byte 1, ASC/ASCQ 2/3, descriptors from 8. */
		if (len < 8)
			goto out;
		k = s[1] & 0x0F;
		a = s[2];
		q = s[3];
		size_t end = 8 + (size_t)s[7];
		if (end > len)
			end = len;	/* honour what we actually have */
		rc = -ENODATA;
		for (size_t off = 8; off + 2 <= end;) {
			size_t dl = 2 + (size_t)s[off + 1];
			if (off + dl > end)
				break;	/* truncated descriptor: ignore it */
			if (s[off] == 0x09 && dl >= 14) {	/* ATA Status Return */
				const uint8_t *d = s + off;
				r->extend = d[2] & 1;
				r->error = d[3];
				r->count = d[5];
				r->lba_low = d[7];
				r->lba_mid = d[9];
				r->lba_high = d[11];
				r->device = d[12];
				r->status = d[13];
				rc = 0;
				break;
			}
			off += dl;
		}
	}
out:
	if (key)
		*key = k;
	if (asc)
		*asc = a;
	if (ascq)
		*ascq = q;
	return rc;
}

struct ata_cmd {
	uint8_t command, features, count, lba_low, lba_mid, lba_high;
	bool data_in;		/* PIO data-in of one 512-byte sector, else non-data */
};

/* One ATA command through ATA PASS-THROUGH(16) or (12).  Non-data commands
 * ask for the registers back (CK_COND).  0 or -errno, *regs filled when
 * the device returned them. */
static int
sat_command(int fd, bool sat12, const struct ata_cmd *c, uint8_t *data,
	    unsigned timeout_ms, struct ata_regs *regs, bool *have_regs,
	    char *reason, size_t rn)
{
	uint8_t cdb[16], sense[64];
	uint8_t proto = c->data_in ? 4 : 3;	/* PIO Data-In : Non-Data */
	uint8_t flags = c->data_in ? 0x0E : 0x20; /* T_DIR|BYT_BLOK|T_LENGTH=count : CK_COND */
	struct sg_io_hdr h;

	memset(cdb, 0, sizeof cdb);
	if (!sat12) {
		cdb[0] = 0x85;
		cdb[1] = proto << 1;
		cdb[2] = flags;
		cdb[4] = c->features;
		cdb[6] = c->count;
		cdb[8] = c->lba_low;
		cdb[10] = c->lba_mid;
		cdb[12] = c->lba_high;
		cdb[14] = c->command;
	} else {
		cdb[0] = 0xA1;
		cdb[1] = proto << 1;
		cdb[2] = flags;
		cdb[3] = c->features;
		cdb[4] = c->count;
		cdb[5] = c->lba_low;
		cdb[6] = c->lba_mid;
		cdb[7] = c->lba_high;
		cdb[9] = c->command;
	}
	memset(sense, 0, sizeof sense);
	memset(&h, 0, sizeof h);
	h.interface_id = 'S';
	h.cmdp = cdb;
	h.cmd_len = sat12 ? 12 : 16;
	h.sbp = sense;
	h.mx_sb_len = sizeof sense;
	h.timeout = timeout_ms;
	if (c->data_in) {
		h.dxfer_direction = SG_DXFER_FROM_DEV;
		h.dxferp = data;
		h.dxfer_len = ATA_BLOB_SECTOR;
		memset(data, 0, ATA_BLOB_SECTOR);
	} else {
		h.dxfer_direction = SG_DXFER_NONE;
	}
	*have_regs = false;
	if (ioctl(fd, SG_IO, &h) < 0) {
		int e = errno;
		snprintf(reason, rn, "SG_IO: %s%s", strerror(e),
			 e == EPERM || e == EACCES ? " (ATA PASS-THROUGH needs root)" : "");
		return -e;
	}
	if (h.host_status == 0x03 || (h.driver_status & 0x0F) == 0x06) { /* DID_TIME_OUT, DRIVER_TIMEOUT */
		snprintf(reason, rn, "command 0x%02x: no answer within %u ms", c->command, timeout_ms);
		return -ETIMEDOUT;
	}
	if (h.host_status != 0) {
		snprintf(reason, rn, "command 0x%02x: SG_IO host status 0x%x", c->command,
			 h.host_status);
		return -EIO;
	}
	uint8_t key = 0, asc = 0, ascq = 0;
	bool sensed = h.sb_len_wr > 0 &&
		      (h.masked_status == (SCSI_CHECK_CONDITION >> 1) ||
		       (h.driver_status & SG_DRIVER_SENSE));
	if (sensed) {
		int prc = ata_sense_parse(sense, h.sb_len_wr, regs, &key, &asc, &ascq);
		*have_regs = prc == 0;
		if (key == SK_ILLEGAL_REQUEST) {
			snprintf(reason, rn, "ATA PASS-THROUGH(%d) refused (ILLEGAL REQUEST, "
				 "ASC 0x%02x/0x%02x)", sat12 ? 12 : 16, asc, ascq);
			return -EOPNOTSUPP;
		}
		if (*have_regs && (regs->status & 0x01)) {	/* ERR: the drive aborted it */
			snprintf(reason, rn, "drive aborted command 0x%02x (status 0x%02x, "
				 "error 0x%02x)", c->command, regs->status, regs->error);
			return -EIO;
		}
		if (key != SK_RECOVERED_ERROR && key != 0) {
			snprintf(reason, rn, "command 0x%02x failed: sense key 0x%x, ASC 0x%02x/0x%02x",
				 c->command, key, asc, ascq);
			return -EIO;
		}
	} else if (h.masked_status != 0) {
		snprintf(reason, rn, "command 0x%02x: SCSI status 0x%x without sense",
			 c->command, h.status);
		return -EIO;
	}
	if (c->data_in && h.resid > 0) {
		snprintf(reason, rn, "command 0x%02x returned %d of 512 bytes", c->command,
			 ATA_BLOB_SECTOR - h.resid);
		return -EIO;
	}
	return 0;
}

static int
open_dev(const char *devpath, char *reason, size_t rn)
{
	int fd = open(devpath, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(reason, rn, "%s: %s", devpath, strerror(e));
		return -e;
	}
	return fd;
}

static unsigned
clamp_timeout(unsigned ms)
{
	if (ms == 0)
		ms = 5000;
	if (ms < 500)
		ms = 500;
	if (ms > 60000)
		ms = 60000;
	return ms;
}

/* IDENTIFY on an open fd; *sat12 says which CDB worked. */
static int
identify_fd(int fd, unsigned tmo, uint8_t id[ATA_BLOB_SECTOR], bool *sat12,
	    char *reason, size_t rn)
{
	const struct ata_cmd c = { .command = ATA_IDENTIFY_DEVICE, .count = 1, .data_in = true };
	struct ata_regs regs;
	bool hr;
	int rc = sat_command(fd, false, &c, id, tmo, &regs, &hr, reason, rn);
	*sat12 = false;
	if (rc == -EOPNOTSUPP) {	/* some USB bridges know only the 12-byte CDB */
		char r16[160];
		snprintf(r16, sizeof r16, "%s", reason);
		rc = sat_command(fd, true, &c, id, tmo, &regs, &hr, reason, rn);
		*sat12 = rc == 0;
		if (rc < 0)
			snprintf(reason, rn, "%s; 12-byte form too", r16);
	}
	if (rc < 0)
		return rc;
	bool zero = true;
	for (int i = 0; i < ATA_BLOB_SECTOR; i++)
		if (id[i])
			zero = false;
	if (zero) {
		snprintf(reason, rn, "IDENTIFY returned only zeros");
		return -EIO;
	}
	/* Word 255: when its low byte is the A5h signature, all 512 bytes sum to 0. */
	if (id[510] == 0xA5) {
		uint8_t sum = 0;
		for (int i = 0; i < ATA_BLOB_SECTOR; i++)
			sum = (uint8_t)(sum + id[i]);
		if (sum != 0) {
			snprintf(reason, rn, "IDENTIFY checksum mismatch (word 255)");
			return -EIO;
		}
	}
	return 0;
}

int
ata_sgio_identify(const char *devpath, unsigned timeout_ms,
		  uint8_t identify[ATA_BLOB_SECTOR], char *reason, size_t rn)
{
	int fd = open_dev(devpath, reason, rn);
	if (fd < 0)
		return fd;
	bool sat12;
	int rc = identify_fd(fd, clamp_timeout(timeout_ms), identify, &sat12, reason, rn);
	close(fd);
	return rc;
}

int
ata_sgio_blob(const char *devpath, unsigned timeout_ms, void **blob, size_t *len,
	      char *reason, size_t rn)
{
	uint8_t id[ATA_BLOB_SECTOR], sd[ATA_BLOB_SECTOR], th[ATA_BLOB_SECTOR];
	bool sat12, have_sd = false, have_th = false;
	struct known_bool status = { 0 };	/* no SMST record unless the drive says */
	unsigned tmo = clamp_timeout(timeout_ms);
	int fd = open_dev(devpath, reason, rn);
	if (fd < 0)
		return fd;
	int rc = identify_fd(fd, tmo, id, &sat12, reason, rn);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	uint16_t w82 = (uint16_t)(id[164] | id[165] << 8), w85 = (uint16_t)(id[170] | id[171] << 8);
	bool smart_ok = w82 != 0xFFFF && (w82 & 1) && w85 != 0xFFFF && (w85 & 1);
	if (smart_ok) {
		/* Read-only SMART commands; SMART must already be enabled (we never enable it). */
		char r2[160];
		struct ata_regs regs;
		bool hr;
		struct ata_cmd c = { .command = ATA_SMART, .features = SMART_RETURN_STATUS,
				     .lba_mid = 0x4F, .lba_high = 0xC2 };
		if (sat_command(fd, sat12, &c, NULL, tmo, &regs, &hr, r2, sizeof r2) == 0 && hr) {
			if (regs.lba_mid == 0x4F && regs.lba_high == 0xC2)
				status = known_bool_of(true);
			else if (regs.lba_mid == 0xF4 && regs.lba_high == 0x2C)
				status = known_bool_of(false);
		}
		c = (struct ata_cmd){ .command = ATA_SMART, .features = SMART_READ_DATA, .count = 1,
				      .lba_mid = 0x4F, .lba_high = 0xC2, .data_in = true };
		have_sd = sat_command(fd, sat12, &c, sd, tmo, &regs, &hr, r2, sizeof r2) == 0;
		if (!have_sd)
			snprintf(reason, rn, "SMART READ DATA: %s", r2);
		c.features = SMART_READ_THRESHOLDS;
		have_th = sat_command(fd, sat12, &c, th, tmo, &regs, &hr, r2, sizeof r2) == 0;
	}
	close(fd);
	rc = ata_blob_build(id, status, have_sd ? sd : NULL, have_th ? th : NULL, blob, len);
	if (rc < 0)
		snprintf(reason, rn, "out of memory");
	return rc;
}

int
ata_sgio_selftest_log(const char *devpath, unsigned timeout_ms, uint8_t log[ATA_SELFTEST_SIZE],
		      char *reason, size_t rn)
{
	uint8_t id[ATA_BLOB_SECTOR];
	bool sat12;
	unsigned tmo = clamp_timeout(timeout_ms);
	int fd = open_dev(devpath, reason, rn);
	if (fd < 0)
		return fd;
	int rc = identify_fd(fd, tmo, id, &sat12, reason, rn);
	/* word 84 bit 1 (or its copy in 87): the self-test log is supported */
	uint16_t w84 = (uint16_t)(id[168] | id[169] << 8), w87 = (uint16_t)(id[174] | id[175] << 8);
	if (!rc && !((w84 != 0xFFFF && (w84 & 2)) || (w87 != 0xFFFF && (w87 & 2)))) {
		snprintf(reason, rn, "the drive keeps no SMART self-test log (IDENTIFY word 84)");
		rc = -EOPNOTSUPP;
	}
	if (!rc) {
		const struct ata_cmd c = { .command = ATA_SMART, .features = SMART_READ_LOG, .count = 1,
					   .lba_low = ATA_SELFTEST_LOG, .lba_mid = 0x4F, .lba_high = 0xC2,
					   .data_in = true };
		struct ata_regs regs;
		bool hr;
		char r2[160];
		rc = sat_command(fd, sat12, &c, log, tmo, &regs, &hr, r2, sizeof r2);
		if (rc)
			snprintf(reason, rn, "SMART READ LOG 06h: %s", r2);
	}
	close(fd);
	return rc;
}

/* SMART EXECUTE OFF-LINE IMMEDIATE (the self-test: selftest-ops.c, where
 * libatasmart's transport fails); SMART must already be enabled. */
int
ata_sgio_smart_exec(const char *devpath, unsigned timeout_ms, uint8_t subcommand, char *reason, size_t rn)
{
	uint8_t id[ATA_BLOB_SECTOR];
	bool sat12;
	unsigned tmo = clamp_timeout(timeout_ms);
	int fd = open_dev(devpath, reason, rn);
	if (fd < 0)
		return fd;
	int rc = identify_fd(fd, tmo, id, &sat12, reason, rn);
	if (!rc) {
		const struct ata_cmd c = { .command = ATA_SMART, .features = 0xD4, .lba_low = subcommand,
					   .lba_mid = 0x4F, .lba_high = 0xC2 };
		struct ata_regs regs;
		bool hr;
		char r2[160];
		rc = sat_command(fd, sat12, &c, NULL, tmo, &regs, &hr, r2, sizeof r2);
		if (rc)
			snprintf(reason, rn, "SMART EXECUTE OFF-LINE IMMEDIATE: %s", r2);
	}
	close(fd);
	return rc;
}
