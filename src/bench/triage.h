/* triage.h - the triage test's inventory and SMART snapshots
 * (triage-smart.c), taken before and after its reads. */
#ifndef DS_TRIAGE_H
#define DS_TRIAGE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bench/bench.h"
#include "inventory/ata-selftest.h"
#include "inventory/farm.h"
#include "inventory/nvme.h"
#include "inventory/scsi.h"
#include "inventory/wear.h"

/* The SMART attributes that predict failure: reallocated, reported
 * uncorrectable, command timeout, reallocation events, pending,
 * offline uncorrectable, UDMA CRC errors (the cable). */
#define TRI_SMART_N 7
extern const uint8_t triage_smart_ids[TRI_SMART_N];

struct tri_snap {
	bool taken;			/* a snapshot was attempted */
	bool found;			/* the inventory shows this drive */
	bool smart;			/* SMART was read */
	char reason[192];		/* why not (!found or !smart) */
	char overall[32];		/* libatasmart's overall, "" unknown */
	bool temp_known;
	double temp_c;
	struct known_u64 attr[TRI_SMART_N];	/* raw values, triage_smart_ids order */
	bool link_low;			/* a link trained below what it could */
	struct strlist checks;		/* inventory checks, one sentence each */
	bool st_known;			/* the SMART self-test log was read */
	char st_reason[160];		/* why not */
	struct ata_selftest_log st;
	bool nvme;			/* the NVMe health log was read (its source's) */
	struct nvme_health nh;		/* it; .reason says why not */
	bool physical;			/* ata, scsi, nvme or usb: its health must be read */
	struct drive_wear wear;		/* SSD wear from the NVMe log or SMART (inventory/wear.h) */
	bool scsi;			/* the SCSI health pages were read (its source's) */
	struct scsi_health sh;		/* them; .reason says why not */
	enum scsi_format fmt;		/* READ CAPACITY(16)'s format (SCSI_FMT_UNKNOWN: not read) */
	struct known_u64 block_bytes;	/* its logical block length */
	char sg_node[16];		/* its SCSI generic node ("" unknown): the fix names it */
	/* provenance (triage-provenance.c): an ATA drive's FARM log, hidden
	 * capacity, SMART 9 and serial as read */
	bool prov;
	struct farm_info farm;
	struct hidden_capacity hidden;
	struct known_u64 smart_poh;
	char serial[64];
};

/* The rules on a drive's health beyond ATA SMART (triage-health.c): the
 * NVMe health log, and a physical drive whose health was not read. */
struct tri_health_rules {
	double max_temp;		/* --max-temp, C */
	/* fail|warn|off, copies (plan_param_str's answer lasts one call) */
	char critical[8];		/* --nvme-critical */
	char spare[8];			/* --nvme-spare */
	char media[8];			/* --nvme-media-errors */
	double max_wear;		/* --max-wear: percentage used to warn at, 0 off */
	char defects[8];		/* --scsi-defects: grown defects grew */
	double max_defects;		/* --max-grown-defects: warn at more, 0 off */
	char uncorrected[8];		/* --scsi-errors: uncorrected errors grew */
	char ie[8];			/* --scsi-ie: informational exception raised */
	bool optional;			/* --health-optional on: an unread health is no WARN */
};

/* One inventory scan (ATA queries on; the sim rig in use when a target is
 * simulated) and each drive's self-test log: a snapshot per target into
 * out[n] (after: one taken once the reads began, during or at the end).  0 / -errno (every snapshot then says
 * why). */
int triage_snapshot(const struct plan *p, const struct target *tg, size_t n, bool after,
		    struct tri_snap *out);
/* The self-test entries logged between two snapshots: FAIL on a failed one
 * ("new failed self-test at LBA ..."), evidence for each. */
void triage_selftest_judge(const struct tri_snap *b, const struct tri_snap *a, unsigned lbs,
			   enum verdict_level *lv, char *why, size_t wn, struct strlist *ev);
/* SMART before and after (temp_peak: the warmest reading during the
 * reads, unknown none) and the inventory's checks: evidence, reasons and the
 * rules (too warm: fail; new reallocated or pending sectors: --new-sectors
 * ns_rule; any other predictor that grew, a link below capability: warn). */
void triage_smart_judge(const struct tri_snap *b, const struct tri_snap *a, struct known_dbl temp_peak, double max_temp,
			const char *ns_rule, enum verdict_level *lv, char *why, size_t wn, struct strlist *ev);
/* The NVMe health before and after (critical warning, spare below its
 * threshold, wear, media errors, temperature), and a physical drive whose
 * health was not read at all ("health not read: <reason>", WARN). */
/* The SCSI health before (x, NULL unread) and after (y): grown defects that
 * grew or are too many, uncorrected errors, an informational exception, a
 * failed self-test, temperature (triage-health-scsi.c). */
void triage_scsi_judge(const struct scsi_health *x, const struct scsi_health *y,
		       const struct tri_health_rules *r, enum verdict_level *lv, char *why, size_t wn,
		       struct strlist *ev);
/* A drive whose logical blocks are not 512/4096 bytes (520/528: a storage
 * array's format) cannot be used as it is: WARN with the command that fixes
 * it and how long that takes (capacity_bytes: known or not); the command
 * names sg_node ("/dev/sg3") when known, else name's sg device. */
void triage_format_judge(enum scsi_format fmt, const struct known_u64 *block_bytes,
			 const struct known_u64 *capacity_bytes, const char *name, const char *sg_node,
			 enum verdict_level *lv,
			 char *why, size_t wn, struct strlist *ev);
void triage_health_judge(const struct tri_snap *b, const struct tri_snap *a, const struct tri_health_rules *r,
			 enum verdict_level *lv, char *why, size_t wn, struct strlist *ev);
/* A physical drive (ata, scsi, nvme, usb transport; not a loop, zram or
 * sim device, not a scratch file): its health must be read. */
struct drive;
struct target;
bool triage_drive_physical(const struct drive *d, const struct target *tg);
void triage_snap_free(struct tri_snap *s);
/* The wear a run recorded for target in its "health" table (triage-record.c):
 * 0, or -ENOENT (no such table or row: w unknown). */
struct run_result;
int triage_recorded_wear(const struct run_result *r, const char *target, struct drive_wear *w);
/* triage-provenance.c: the snapshot's part, and the rules (rule: --provenance
 * warn|off) on the snapshot before the reads */
void triage_prov_snap(struct tri_snap *s, const struct drive *d);
void triage_prov_judge(const struct tri_snap *b, const char *rule, enum verdict_level *lv, char *why,
		       size_t wn, struct strlist *ev);
extern const struct bench_param triage_bp_provenance;
#endif
