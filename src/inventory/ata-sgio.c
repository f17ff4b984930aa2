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
#include "inventory/farm.h"

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
			/* no room for the upper LBA bytes: known only when the
			 * "upper non-zero" bits say they are zero */
			r->hob_known = !(s[8] & 0x30);
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
				r->hob_known = false;
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
				r->lba_low_hob = d[6];
				r->lba_mid_hob = d[8];
				r->lba_high_hob = d[10];
				r->hob_known = r->extend;
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
	bool ext;		/* a 48-bit command (16-byte CDB's EXTEND bit) */
	uint8_t lba_mid_hob;	/* LBA 39:32 (READ LOG EXT: page number 15:8) */
	uint8_t device;		/* bit 6: LBA mode (READ NATIVE MAX ADDRESS wants it) */
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
		cdb[1] = (uint8_t)(proto << 1 | (c->ext ? 1 : 0));
		cdb[2] = flags;
		cdb[4] = c->features;
		cdb[9] = c->lba_mid_hob;
		cdb[6] = c->count;
		cdb[8] = c->lba_low;
		cdb[10] = c->lba_mid;
		cdb[12] = c->lba_high;
		cdb[13] = c->device;
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
		cdb[8] = c->device;
		cdb[9] = c->command;
	}
	memset(sense, 0, sizeof sense);
	memset(&h, 0, sizeof h);
	h.interface_id = 'S';
	h.cmdp = cdb;
	if (sat12 && c->ext) {
		snprintf(reason, rn, "command 0x%02x is 48-bit: the 12-byte form cannot carry it",
			 c->command);
		return -EOPNOTSUPP;
	}
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

/* ---- provenance: the FARM log and the hidden capacity ---- */

#define ATA_READ_LOG_EXT	0x2F
#define ATA_READ_NATIVE_MAX	0xF8
#define ATA_READ_NATIVE_MAX_EXT	0x27
#define ATA_DCO			0xB1
#define DCO_IDENTIFY		0xC2

static uint16_t
id_word(const uint8_t *id, unsigned w)
{
	return (uint16_t)(id[2 * w] | id[2 * w + 1] << 8);
}

static bool
word_ok(uint16_t w)
{
	return w != 0 && w != 0xFFFF;
}

/* One sector of a GP log (READ LOG EXT, 48-bit, 16-byte CDB only). */
static int
read_log_sector(int fd, unsigned tmo, uint8_t addr, unsigned page, uint8_t *buf, char *reason,
		size_t rn)
{
	const struct ata_cmd c = { .command = ATA_READ_LOG_EXT, .count = 1, .lba_low = addr,
				   .lba_mid = (uint8_t)page, .lba_mid_hob = (uint8_t)(page >> 8),
				   .data_in = true, .ext = true };
	struct ata_regs regs;
	bool hr;
	return sat_command(fd, false, &c, buf, tmo, &regs, &hr, reason, rn);
}

/* The FARM pages a verdict needs: the header, the drive information and
 * page 5's by-head hours, into a zeroed image of the whole log (a field
 * not read stays "not valid" there, so unknown). */
static void
read_farm(int fd, unsigned tmo, const uint8_t *id, struct farm_info *farm)
{
	char r[160] = "";
	uint8_t dir[ATA_BLOB_SECTOR];
	char model[41];
	uint16_t w84 = id_word(id, 84), w87 = id_word(id, 87);
	for (int i = 0; i < 20; i++) {
		model[2 * i] = (char)id[54 + 2 * i + 1];
		model[2 * i + 1] = (char)id[54 + 2 * i];
	}
	model[40] = '\0';
	bool seagate = !strncmp(model, "ST", 2);
	memset(farm, 0, sizeof *farm);
	snprintf(farm->source, sizeof farm->source, "ATA log 0xA6");
	if (!((word_ok(w84) && (w84 & 0x20)) || (word_ok(w87) && (w87 & 0x20)))) {
		snprintf(farm->reason, sizeof farm->reason, "no General Purpose Logging (IDENTIFY word 84 bit 5)%s",
			 seagate ? "" : "; not a Seagate drive");
		return;
	}
	if (read_log_sector(fd, tmo, 0x00, 0, dir, r, sizeof r)) {
		snprintf(farm->reason, sizeof farm->reason, "GP log directory not read: %.120s", r);
		return;
	}
	unsigned nsec = (unsigned)(dir[2 * FARM_ATA_LOG] | dir[2 * FARM_ATA_LOG + 1] << 8);
	if (!nsec) {
		snprintf(farm->reason, sizeof farm->reason, "no FARM log (log 0xA6 not in the GP log directory)%s",
			 seagate ? "" : "; not a Seagate drive");
		return;
	}
	unsigned per_page = nsec / FARM_ATA_PAGES;	/* sectors a page */
	if (per_page * ATA_BLOB_SECTOR != FARM_ATA_PAGE) {
		snprintf(farm->reason, sizeof farm->reason, "log 0xA6 has %u sectors, not the six 16 KiB "
			 "pages of a FARM log", nsec);
		return;
	}
	uint8_t *img = calloc(1, FARM_ATA_SIZE);
	if (!img) {
		snprintf(farm->reason, sizeof farm->reason, "out of memory");
		return;
	}
	/* page 0 and 1: their first sector; page 5: the sector of the head hours */
	const unsigned want[] = { 0, per_page, 5 * per_page + 12 };
	int rc = 0;
	for (size_t k = 0; k < sizeof want / sizeof want[0] && !rc; k++)
		rc = read_log_sector(fd, tmo, FARM_ATA_LOG, want[k], img + (size_t)want[k] * ATA_BLOB_SECTOR,
				     r, sizeof r);
	if (rc)
		snprintf(farm->reason, sizeof farm->reason, "READ LOG EXT 0xA6: %.120s", r);
	else
		farm_ata_decode(img, FARM_ATA_SIZE, farm);
	free(img);
}

/* READ NATIVE MAX ADDRESS (EXT) and DEVICE CONFIGURATION IDENTIFY against
 * IDENTIFY's user addressable sectors. */
static void
read_hidden(int fd, unsigned tmo, bool sat12, const uint8_t *id, struct hidden_capacity *hc)
{
	uint16_t w[256];
	char r[160] = "";
	for (int i = 0; i < 256; i++)
		w[i] = id_word(id, (unsigned)i);
	struct ata_identify ai;
	ata_identify_decode(w, &ai);
	memset(hc, 0, sizeof *hc);
	hc->reported = ai.sectors;
	hc->logical = ai.logical.known ? ai.logical : known_u64_of(512);
	bool hpa_set = word_ok(w[82]) && (w[82] & 0x400);
	bool locked = word_ok(w[128]) && (w[128] & 0x04);
	struct ata_cmd c = { .command = ai.lba48 ? ATA_READ_NATIVE_MAX_EXT : ATA_READ_NATIVE_MAX,
			     .device = 0x40, .ext = ai.lba48 };
	struct ata_regs regs;
	bool hr = false;
	int rc = sat_command(fd, sat12 && !ai.lba48, &c, NULL, tmo, &regs, &hr, r, sizeof r);
	if (rc || !hr) {
		snprintf(hc->reason, sizeof hc->reason, "READ NATIVE MAX ADDRESS%s: %.70s%s%s",
			 ai.lba48 ? " EXT" : "", rc ? r : "no registers returned",
			 hpa_set ? "" : " (no HPA feature set: IDENTIFY word 82 bit 10 clear)",
			 locked ? " (security locked: IDENTIFY word 128)" : "");
		hpa_judge(hc);
		return;
	}
	if (ai.lba48 && !regs.hob_known) {
		snprintf(hc->reason, sizeof hc->reason, "READ NATIVE MAX ADDRESS EXT: the sense data has no "
			 "room for LBA 47:24 (fixed format)");
		hpa_judge(hc);
		return;
	}
	KNOWN_SET(hc->native, hpa_native_lba(ai.lba48, regs.lba_low, regs.lba_mid, regs.lba_high, regs.device,
					     regs.lba_low_hob, regs.lba_mid_hob, regs.lba_high_hob) + 1);
	/* DCO: word 83 bit 11 says the feature set is there */
	uint8_t dco[ATA_BLOB_SECTOR];
	c = (struct ata_cmd){ .command = ATA_DCO, .features = DCO_IDENTIFY, .count = 1, .data_in = true };
	rc = sat_command(fd, sat12, &c, dco, tmo, &regs, &hr, r, sizeof r);
	uint64_t max;
	char r2[96];
	if (!rc && !hpa_dco_max(dco, &max, r2, sizeof r2))
		KNOWN_SET(hc->dco, max + 1);
	else
		snprintf(hc->reason, sizeof hc->reason, "DCO not read: DEVICE CONFIGURATION IDENTIFY: %.100s%s",
			 rc ? r : r2, word_ok(w[83]) && (w[83] & 0x800) ? "" :
			 " (no DCO feature set: IDENTIFY word 83 bit 11 clear)");
	hpa_judge(hc);
}

void
ata_sgio_provenance(const char *devpath, unsigned timeout_ms, struct farm_info *farm,
		    struct hidden_capacity *hc)
{
	char r[160];
	uint8_t id[ATA_BLOB_SECTOR];
	bool sat12;
	unsigned tmo = clamp_timeout(timeout_ms);
	memset(farm, 0, sizeof *farm);
	memset(hc, 0, sizeof *hc);
	int fd = open_dev(devpath, r, sizeof r);
	if (fd >= 0 && identify_fd(fd, tmo, id, &sat12, r, sizeof r) < 0) {
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		snprintf(farm->reason, sizeof farm->reason, "IDENTIFY: %.140s", r);
		snprintf(hc->reason, sizeof hc->reason, "IDENTIFY: %.140s", r);
		return;
	}
	if (sat12)
		snprintf(farm->reason, sizeof farm->reason, "the bridge takes only 12-byte ATA PASS-THROUGH: "
			 "no 48-bit READ LOG EXT");
	else
		read_farm(fd, tmo, id, farm);
	read_hidden(fd, tmo, sat12, id, hc);
	close(fd);
}
