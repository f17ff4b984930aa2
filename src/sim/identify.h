/* identify.h - IDENTIFY words and SMART values of a sim drive, from its model. */
#ifndef DS_SIM_IDENTIFY_H
#define DS_SIM_IDENTIFY_H
#include <stdint.h>
#include "inventory/inventory.h"
#include "sim/model.h"

/* The 256 words the drive would answer IDENTIFY DEVICE with (host order). */
void sim_identify_words(const struct sim_drive_model *m, const char *serial, uint16_t w[256]);
/* SMART as libatasmart would have parsed it (attrs malloc'd: ata_info_free). */
void sim_smart_info(const struct sim_drive_model *m, struct smart_info *s);
/* A SCSI model's INQUIRY, READ CAPACITY(16) and health pages ([scsi]) as the
 * SCSI reader would have decoded them (after: once a test's I/O ran, what
 * grew meanwhile added); a model without [scsi]: unknown, with the reason. */
void sim_scsi_info(const struct sim_drive_model *m, const char *serial, bool after, struct scsi_info *out);
/* The FARM log and hidden capacity its [provenance] section gives (no
 * section: no FARM, nothing hidden). */
void sim_provenance_info(const struct sim_drive_model *m, const struct ata_identify *id,
			 struct farm_info *farm, struct hidden_capacity *hc);
#endif
