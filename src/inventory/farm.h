/* farm.h - provenance and hidden capacity: Seagate's Field Accessible
 * Reliability Metrics log (FARM: ATA log 0xA6, SCSI log page 0x3D subpage
 * 0x03), compared with what SMART says, and the sectors an HPA or a DCO
 * hides from every test (hpa.c).
 *
 * The decoders are pure functions over the raw log bytes; every value is a
 * known_* value: a field the drive marks unsupported or invalid stays
 * unknown, never 0.  The layout is the public one (Seagate's FARM
 * specification, as smartmontools 7.4 reads it): 8-byte fields whose top
 * byte 0xC0 says "supported and valid", the value in the low 56 bits; ATA
 * little-endian in six 16 KiB pages, SCSI big-endian in log parameters. */
#ifndef DS_FARM_H
#define DS_FARM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/known.h"

#define FARM_ATA_LOG 0xA6
#define FARM_ATA_PAGE 16384u		/* bytes a page, six pages */
#define FARM_ATA_PAGES 6u
#define FARM_ATA_SIZE (FARM_ATA_PAGE * FARM_ATA_PAGES)
#define FARM_SCSI_PAGE 0x3D
#define FARM_SCSI_SUBPAGE 0x03
#define FARM_MAX_HEADS 24
#define FARM_SIGNATURE 0x00004641524D4552ull	/* "FARMER" */

struct farm_info {
	bool known;			/* a FARM log was read and its signature matched */
	char reason[160];		/* why not, when !known */
	char source[24];		/* "ATA log 0xA6", "SCSI log 0x3D/0x03" */
	struct known_u64 major, minor;	/* log version */
	char serial[24], model[48], firmware[20];	/* "" not in the log */
	char assembly[8];		/* YYWW, "" unknown */
	struct known_u64 power_on_hours, spindle_hours, head_flight_hours;
	struct known_u64 power_cycles, heads;
	/* per head (ATA page 5 "write power-on" by head, in hours as smartctl
	 * 7.4 prints it), n_head_hours of them (0: not in the log) */
	struct known_u64 head_hours[FARM_MAX_HEADS];
	unsigned n_head_hours;
};

/* Decode an ATA FARM log (all six pages, len >= FARM_ATA_SIZE; a shorter
 * log decodes the pages it holds).  0, or -EINVAL with out->reason (too
 * short, signature missing).  Pure. */
int farm_ata_decode(const uint8_t *log, size_t len, struct farm_info *out);
/* Decode a SCSI FARM log page (the LOG SENSE response, its 4-byte page
 * header first).  0, or -EINVAL with out->reason.  Pure. */
int farm_scsi_decode(const uint8_t *page, size_t len, struct farm_info *out);

/* The rule: FARM's power-on hours against SMART's (attribute 9, or the SCSI
 * accumulated power-on time): a gap beyond max(48 h, 2 %) of the larger is
 * a mismatch, said as "SMART 9 says 212 h, FARM says 23,114 h" (smart_name:
 * "SMART 9", "log page 0x15").  A FARM serial that differs from the drive's
 * (IDENTIFY, VPD 0x80; blanks ignored) is one too.  Returns how many
 * mismatches (0..2); msg gets them, "; " between; "" none.  Pure. */
int farm_compare(const struct farm_info *f, const struct known_u64 *smart_hours,
		 const char *smart_name, const char *serial, char *msg, size_t n);
/* The line every view shows (list, details panel): "FARM 23,114 h (ATA
 * log 0xA6), mismatch: SMART 9 says 212 h, FARM says 23,114 h", "FARM
 * 31,383 h (ATA log 0xA6), agrees with SMART 9", "FARM: unknown (REASON)".
 * Returns farm_compare's count.  Pure. */
int farm_text(const struct farm_info *f, const struct known_u64 *smart_hours, const char *serial,
	      char *buf, size_t n);
/* 23114 -> "23,114" (buf returned). */
const char *farm_thousands(uint64_t v, char *buf, size_t n);

/* ---- hidden capacity (hpa.c) ---- */
struct hidden_capacity {
	bool known;			/* the answer: none, or N sectors hidden */
	char reason[200];		/* why unknown; with known: notes (DCO not read ...) */
	struct known_u64 reported;	/* IDENTIFY's user addressable sectors */
	struct known_u64 native;	/* READ NATIVE MAX ADDRESS + 1 */
	struct known_u64 dco;		/* DEVICE CONFIGURATION IDENTIFY max LBA + 1 */
	struct known_u64 hidden;	/* sectors the drive does not show */
	struct known_u64 logical;	/* bytes a sector, for the GB figure */
	char source[16];		/* "HPA", "DCO", "HPA+DCO", "" none */
};

/* The LBA READ NATIVE MAX ADDRESS (EXT) returned, from its registers:
 * ext: 48-bit (hob bytes given), else 28-bit (device bits 3:0 on top).
 * Pure. */
uint64_t hpa_native_lba(bool ext, uint8_t low, uint8_t mid, uint8_t high, uint8_t device,
			uint8_t low_hob, uint8_t mid_hob, uint8_t high_hob);
/* DEVICE CONFIGURATION IDENTIFY data (512 bytes): its maximum LBA (words
 * 3-6).  0, or -EINVAL with reason (revision word 0 not 0x0002, checksum
 * of word 255 wrong, LBA 0).  Pure. */
int hpa_dco_max(const uint8_t dco[512], uint64_t *max_lba, char *reason, size_t n);
/* Fill h's verdict from what is known in it (reported, native, dco):
 * hidden = the largest of native and dco past reported.  Pure. */
void hpa_judge(struct hidden_capacity *h);
/* "hidden capacity: 1953525 sectors (1.00 GB) by HPA", "hidden capacity:
 * none", "hidden capacity: unknown (REASON)".  Returns buf. */
const char *hpa_text(const struct hidden_capacity *h, char *buf, size_t n);

/* ---- USB bridges (usb-bridge.c) ---- */
/* The USB device a disk sits behind: walk up from its sysfs directory to
 * the first one with idVendor and idProduct.  0 with "VID:PID, product"
 * in out ("152d:0578, JMS578"), -ENOENT when none.  */
int usb_bridge_name(const char *syspath, char *out, size_t n);
/* "no pass-through through this bridge (VID:PID, product): WHY" */
void usb_bridge_reason(const char *syspath, const char *why, char *out, size_t n);
#endif
