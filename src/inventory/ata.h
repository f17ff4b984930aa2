/* ata.h - ATA IDENTIFY decoding, SMART via libatasmart, SG_IO fallback. */
#ifndef DS_ATA_H
#define DS_ATA_H
#include <stddef.h>
#include <stdint.h>
#include "inventory/inventory.h"

/* Decode 256 IDENTIFY words (host order) with smartctl's validity rules. Pure. */
void ata_identify_decode(const uint16_t words[256], struct ata_identify *out);

/* Parse a libatasmart blob (IDFY/SMST/SMDT/SMTH records, every length checked):
 * IDENTIFY by our decoder, SMART by libatasmart.  0 or -errno (EINVAL corrupt,
 * ENODATA no IDFY); out->reason says what was wrong. */
int ata_from_blob(const void *blob, size_t len, struct ata_info *out);
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

/* Fold a drive's ata.id facts into the drive (used by ata_query_all and sim). */
void ata_apply_identify(struct drive *d);

void ata_info_free(struct ata_info *a);
#endif
