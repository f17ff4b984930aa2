/* ata.h - ATA IDENTIFY decoding, SMART via libatasmart, SG_IO fallback. */
#ifndef DS_ATA_H
#define DS_ATA_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "inventory/inventory.h"

/* Decode 256 IDENTIFY words (host order) with smartctl's validity rules.
 * Pure.  Implausible values (sizes no drive has, capacities past the LBA48
 * limit or ATA_MAX_BYTES) stay unknown.  Without a valid word 106 the sizes
 * are 512/512 with sector_size_reported false. */
#define ATA_MAX_SECTOR 65536u		/* largest logical sector believed */
#define ATA_MAX_PHYS (1u << 20)		/* largest physical sector believed */
#define ATA_MAX_BYTES (1ull << 56)	/* 72 PB: past that a capacity is nonsense */
void ata_identify_decode(const uint16_t words[256], struct ata_identify *out);

/* Parse a libatasmart blob (IDFY/SMST/SMDT/SMTH records, every length checked):
 * IDENTIFY by our decoder, SMART by libatasmart.  0 or -errno (EINVAL corrupt,
 * ENODATA no IDFY); out->reason says what was wrong. */
int ata_from_blob(const void *blob, size_t len, struct ata_info *out);
/* Is a raw 512-byte IDENTIFY usable at all?  All zeros or all 0xFF (no
 * device), or a word-255 checksum that does not match: -EINVAL with a
 * reason.  Pure. */
int ata_identify_check(const uint8_t *id, char *reason, size_t n);
int ata_from_blob_file(const char *file, struct ata_info *out);

/* Query a device: libatasmart first, then our own ATA PASS-THROUGH(16) over
 * SG_IO (fixed or descriptor sense), bounded by timeout_ms.  On success the
 * libatasmart-format blob is returned in *blob (malloc'd) when blob != NULL. */
int ata_query_device(const char *devpath, unsigned timeout_ms, struct ata_info *out,
		     void **blob, size_t *blob_len);

/* Query every SATA/SAS/USB drive of the inventory in parallel, each bounded;
 * a drive that does not answer gets ATA_NO_ANSWER.  Applies --ata-blob files
 * and writes --save-blobs.  Then folds IDENTIFY facts into each drive
 * (sector sizes, rpm, model/serial when sysfs lacked them). */
int ata_query_all(struct inventory *inv, const struct inventory_opts *o);

/* The same in two halves, for the dashboard: start the queries and return
 * at once (drives left ATA_PENDING), then collect what has arrived, from the
 * thread that owns the inventory.  collect returns 1 when the batch is done
 * (and freed: do not use it again), 0 while queries are outstanding; the
 * drives it updated are listed in changed[]. */
struct ata_batch;
int ata_query_start(struct inventory *inv, const struct inventory_opts *o, struct ata_batch **b);
int ata_query_collect(struct inventory *inv, struct ata_batch *b, bool wait, size_t *changed,
		      size_t n_changed_max, size_t *n_changed);
/* Give up on an unfinished batch: late answers are dropped, b is released. */
void ata_query_abandon(struct ata_batch *b);

/* Tests only: replace the per-drive query ata_query_all runs in its threads
 * (NULL restores ata_query_device). */
typedef int (*ata_query_fn)(const char *devpath, unsigned timeout_ms, struct ata_info *out,
			    void **blob, size_t *blob_len);
void ata_query_set_hook(ata_query_fn fn);

/* Fold a drive's ata.id facts into the drive (used by ata_query_all and sim). */
void ata_apply_identify(struct drive *d);

void ata_info_free(struct ata_info *a);

/* ---- blob records (libatasmart `skdump --save` format) ---- */
#define ATA_BLOB_SECTOR 512
/* Build a libatasmart-format blob from raw 512-byte sectors.  smart_status:
 * good or bad when known; unknown writes no SMST record.  smart_data /
 * thresholds may be NULL.  *blob is malloc'd.  0 or -ENOMEM. */
int ata_blob_build(const uint8_t identify[ATA_BLOB_SECTOR], struct known_bool smart_status,
		   const uint8_t *smart_data, const uint8_t *thresholds,
		   void **blob, size_t *len);

/* SMART overall verdict names ("good", "bad_sector", ...) from libatasmart's enum. */
const char *ata_overall_name(int sk_overall);

/* ---- ATA PASS-THROUGH over SG_IO (ata-sgio.c) ---- */
/* ATA registers as returned in sense data (fixed 0x70/0x71 or descriptor
 * 0x72/0x73 with the ATA Status Return descriptor 0x09). */
struct ata_regs {
	uint8_t error, status, device, count, lba_low, lba_mid, lba_high;
	bool extend;
	/* a 48-bit command's upper bytes (LBA 31:24, 39:32, 47:40): hob_known
	 * when the sense said them (descriptor format), or said they are zero */
	uint8_t lba_low_hob, lba_mid_hob, lba_high_hob;
	bool hob_known;
};
/* Parse a sense buffer.  Always fills the sense key, ASC and ASCQ when
 * the format is known.  0: registers in *r; -ENODATA: valid sense without ATA registers;
 * -EINVAL: empty, truncated or unknown format.  Pure. */
int ata_sense_parse(const uint8_t *sense, size_t len, struct ata_regs *r,
		    uint8_t *key, uint8_t *asc, uint8_t *ascq);

/* IDENTIFY DEVICE through SG_IO (ATA PASS-THROUGH(16), then (12)). */
int ata_sgio_identify(const char *devpath, unsigned timeout_ms,
		      uint8_t identify[ATA_BLOB_SECTOR], char *reason, size_t rn);
/* IDENTIFY + (when SMART is supported and already enabled) SMART RETURN
 * STATUS, READ DATA, READ THRESHOLDS; builds a blob.  Never changes a device
 * setting.  0 or -errno with reason filled. */
int ata_sgio_blob(const char *devpath, unsigned timeout_ms, void **blob,
		  size_t *len, char *reason, size_t rn);
/* Provenance, read-only: the FARM log (READ LOG EXT 0xA6, when the GP log
 * directory lists it) and the hidden capacity (READ NATIVE MAX ADDRESS
 * (EXT), DEVICE CONFIGURATION IDENTIFY) against IDENTIFY.  Each result says
 * why it is unknown.  Never SET MAX, never a DCO change. */
struct farm_info;
struct hidden_capacity;
void ata_sgio_provenance(const char *devpath, unsigned timeout_ms, struct farm_info *farm,
			 struct hidden_capacity *hc);
#endif
