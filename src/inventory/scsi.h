/* scsi.h - the SCSI/SAS drive class: INQUIRY and its VPD pages, READ
 * CAPACITY(16), the LOG SENSE pages smartctl reads, the grown defect list;
 * sent through libsgutils2 (sg3_utils' library), read-only commands only.
 *
 * The decoders take the raw response bytes and are pure: a unit test feeds
 * them captured pages.  Every value is a known_* value: a page the drive
 * does not have, or a parameter it does not report, stays unknown, never 0. */
#ifndef DS_SCSI_H
#define DS_SCSI_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/known.h"

/* How the logical block format stands for use on a bench. */
enum scsi_format {
	SCSI_FMT_UNKNOWN,	/* READ CAPACITY(16) not answered */
	SCSI_FMT_OK,		/* 512 or 4096 bytes, no protection information */
	SCSI_FMT_PI,		/* 512/4096 bytes with protection information: usable (INFO) */
	SCSI_FMT_NEEDS_FORMAT,	/* 520/528 bytes or another size: needs a low-level
				   format to 512 before use; no write test starts */
};

/* What the LOG SENSE pages and READ DEFECT DATA say of a drive's health. */
struct scsi_health {
	bool known;			/* at least one health page was read */
	char reason[160];		/* why not, when !known */
	char pages[96];			/* the supported log pages, "00 02 03 ..." ("" unread) */
	char missing[64];		/* the health pages it lacks or did not answer, "05 15" */
	struct known_i64 temperature_c, trip_temperature_c;	/* 0x0D */
	/* error counters (0x02 write, 0x03 read, 0x05 verify): total corrected
	 * (parameter 3) and uncorrected (parameter 6) */
	struct known_u64 write_corrected, write_uncorrected;
	struct known_u64 read_corrected, read_uncorrected;
	struct known_u64 verify_corrected, verify_uncorrected;
	struct known_u64 non_medium_errors;	/* 0x06 parameter 0 */
	struct known_u64 start_stop_cycles, start_stop_cycles_limit;	/* 0x0E */
	struct known_u64 load_unload_cycles, load_unload_cycles_limit;
	struct known_u64 power_on_minutes;	/* 0x15 parameter 0 (accumulated power on) */
	struct known_u64 bg_scan_status, bg_medium_scans;	/* 0x15 */
	/* informational exceptions (0x2F parameter 0): ASC/ASCQ, 0/0 none */
	struct known_u64 ie_asc, ie_ascq;
	char ie_text[96];		/* sg_get_asc_ascq_str of a raised exception, "" none */
	struct known_i64 ie_temperature_c;	/* most recent temperature reading there */
	struct known_u64 grown_defects;	/* READ DEFECT DATA (GLIST) count */
	/* the self-test results page (0x10): the newest of its 20 entries */
	struct known_u64 selftest_entries;	/* non-empty entries */
	struct known_u64 selftest_last_code;	/* self-test code (1 bg short, 2 bg extended) */
	struct known_u64 selftest_last_result;	/* 0 ok ... 7 failed in a segment, 15 running */
	struct known_u64 selftest_last_hours;	/* power-on hours when it ran */
	struct known_u64 selftest_last_lba;	/* address of first failure, when one */
	struct known_u64 selftest_failed;	/* entries whose result is 3..7 */
};

struct scsi_info {
	bool known;			/* standard INQUIRY answered */
	char reason[160];		/* why not, when !known */
	char vendor[9], product[17], revision[5];
	struct known_u64 peripheral_type;	/* 0 disk, 0x14 host-managed zoned */
	/* how the device is attached, from the SCSI host's transport class and
	 * VPD 0x83's protocol identifier: "sas", "fc", "spi", "iscsi", "srp",
	 * "sata" (ATA Information VPD 0x89 answered: an ATA drive behind SAT),
	 * "" unknown */
	char transport[16];
	char transport_from[24];	/* who said it: "sas_host", "VPD 0x83", "libata", ... */
	char protocol[12];		/* VPD 0x83 target port protocol ("sas", "fc"...), "" none */
	struct known_bool sat;		/* VPD 0x89 present */
	char sat_vendor[9];		/* SAT layer vendor (0x89 bytes 8..15) */
	char serial[64];		/* VPD 0x80 */
	char designator[80];		/* VPD 0x83 best LU designator: "naa.5000c500...", "" none */
	struct known_u64 rotation_rpm;	/* VPD 0xB1: known 0 = non-rotating */
	struct known_u64 form_factor;	/* VPD 0xB1 nominal form factor code */
	struct known_u64 max_transfer_blocks, opt_transfer_blocks;	/* VPD 0xB0 */
	struct known_bool lbp_unmap;	/* VPD 0xB2 LBPU */
	struct known_bool lbp_enabled;	/* READ CAPACITY(16) LBPME (thin provisioned) */
	/* READ CAPACITY(16) */
	struct known_u64 lba_count;	/* returned LBA + 1 */
	struct known_u64 logical_bytes;	/* logical block length */
	struct known_u64 physical_exp;	/* logical blocks per physical block exponent */
	struct known_u64 lowest_aligned;	/* lowest aligned LBA */
	struct known_bool protection;	/* PROT_EN */
	struct known_u64 protection_type;	/* P_TYPE + 1 when PROT_EN */
	enum scsi_format format;
	struct scsi_health health;
	char sg_node[16];		/* its SCSI generic node, "/dev/sg2" ("" unknown) */
};

/* ---- the words list and the details panel show (scsi-text.c) ---- */
enum scsi_line_level { SCSI_LINE_OK, SCSI_LINE_UNKNOWN, SCSI_LINE_WARN, SCSI_LINE_FAIL };
struct scsi_line {
	enum scsi_line_level level;
	char text[400];
};
/* Up to 2 lines (max >= 2): the block format (a 520/528-byte one with the
 * sg_format command for node, the sg node or the disk), rotation and
 * temperature; the grown defects, uncorrected errors, informational
 * exception and newest self-test.  Returns how many. */
size_t scsi_text_lines(const struct scsi_info *s, const char *node, struct scsi_line *out,
		       size_t max);

/* ---- pure decoders over raw response bytes (tests/unit/test_scsi.c) ----
 * Each returns 0, or -EINVAL when the bytes are not that page (too short, a
 * different page code); what it does not see stays as it was. */
int scsi_decode_inquiry(const uint8_t *p, size_t n, struct scsi_info *out);
/* A VPD page: 0x80, 0x83, 0x89, 0xB0, 0xB1, 0xB2 (by its page code, p[1]);
 * another page: -ENOTSUP. */
int scsi_decode_vpd(const uint8_t *p, size_t n, struct scsi_info *out);
/* READ CAPACITY(16) parameter data (32 bytes; 12 at least); sets format. */
int scsi_decode_readcap16(const uint8_t *p, size_t n, struct scsi_info *out);
/* A LOG SENSE page: 0x00, 0x02, 0x03, 0x05, 0x06, 0x0D, 0x0E, 0x10, 0x15,
 * 0x2F (by its page code, p[0] bits 5:0); another page: -ENOTSUP.  Sets
 * out->known for a health page. */
int scsi_decode_log(const uint8_t *p, size_t n, struct scsi_health *out);
/* READ DEFECT DATA's header: (10) 4 bytes, (12) 8 bytes (is12); the grown
 * list count is its length over the descriptor size of the format the drive
 * answered in. */
int scsi_decode_defects(const uint8_t *p, size_t n, bool is12, struct scsi_health *out);
/* The name of a SCSI protocol identifier ("fc", "spi", "srp", "iscsi",
 * "sas", "ata", "uas", "sop", ...), "" reserved. */
const char *scsi_protocol_name(unsigned id);
/* The self-test result code's words ("completed", "failed in segment 1"...). */
const char *scsi_selftest_result_text(uint64_t r);
/* Whether the supported-pages list (0x00, read) names page pc. */
bool scsi_health_has_page(const struct scsi_health *h, unsigned pc);

/* Whether the drive says it is an ATA drive behind a SAT layer: the ATA
 * Information VPD page (0x89) and the SAT vendor "ATA" in INQUIRY. */
bool scsi_is_sat(const struct scsi_info *s);

/* Read it all from the disk at path (its sd node, or the /dev/sg node;
 * opened read-only): 0, or -errno with out->reason set.  Every command has
 * a timeout of a few seconds.  save_dir: also write each raw response there
 * as NAME.scsi-PAGE.bin (NULL: not).  An ATA drive behind SAT (scsi_is_sat)
 * gets INQUIRY, VPD and READ CAPACITY only: its health is SMART's.
 * out->transport and transport_from are kept (sysfs sets them first). */
int scsi_info_read(const char *path, const char *name, const char *save_dir,
		   struct scsi_info *out);

/* "needs a low-level format to 512 before use", ... */
const char *scsi_format_text(enum scsi_format f);
/* The format of a logical block length and protection as READ CAPACITY(16)
 * gives them (either unknown: SCSI_FMT_UNKNOWN). */
enum scsi_format scsi_format_of(const struct known_u64 *logical_bytes,
				const struct known_bool *protection);
#endif
