/* wear.h - one SSD wear figure per drive, whatever its class: the NVMe
 * health log's percentage used, or a SATA SSD's SMART wear attribute
 * (231 SSD life left, 233 media wearout indicator, 177 wear leveling
 * count: each a normalized value counting down from 100), with the bytes
 * written beside it (NVMe data units written, SMART 241).  Pure: computed
 * here, in the core, and only shown by the front ends. */
#ifndef DS_WEAR_H
#define DS_WEAR_H
#include <stdbool.h>
#include <stddef.h>
#include "util/known.h"

struct nvme_health;
struct smart_attr;

struct drive_wear {
	struct known_u64 percent_used;	/* 0 new, 100 rated life used (may pass 100) */
	char source[48];		/* "NVMe percentage used", "SMART 231 SSD life left" */
	char reason[160];		/* why unknown */
	struct known_u64 bytes_written;	/* host writes, bytes */
	char written_source[40];	/* "NVMe data units written", "SMART 241 x 512 bytes" */
};

void wear_from_nvme(const struct nvme_health *h, struct drive_wear *w);
/* a SATA drive's SMART attributes (n of them); ssd: the drive says it is
 * one (no attribute on a disk is wear) */
void wear_from_smart(const struct smart_attr *a, size_t n, bool ssd, struct drive_wear *w);
void wear_unknown(struct drive_wear *w, const char *reason);
/* An inventory drive's: its NVMe health log, else its ATA SMART. */
struct drive;
void wear_of_drive(const struct drive *d, struct drive_wear *w);
/* "37% used (NVMe percentage used), 12.3 TB written" or "unknown (reason)" */
const char *wear_text(const struct drive_wear *w, char *buf, size_t n);
#endif
