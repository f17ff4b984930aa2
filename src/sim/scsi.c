/* scsi.c - a sim SAS drive as the SCSI reader would decode it: identity,
 * READ CAPACITY(16) (a 520-byte pull says 520 there) and the health pages,
 * from the model's [scsi] section, so triage and `list` judge a sim SAS
 * drive through the same struct as a real one. */
#include <stdio.h>
#include <string.h>
#include "sim/identify.h"

static void
scsi_health_of(const struct sim_drive_model *m, bool after, struct scsi_health *h)
{
	h->known = true;
	snprintf(h->pages, sizeof h->pages, "00 02 03 05 06 0d 0e 10 15 2f");
	KNOWN_SET(h->temperature_c, (int64_t)m->scsi_temperature_c);
	KNOWN_SET(h->trip_temperature_c, 65);
	KNOWN_SET(h->grown_defects, m->scsi_grown_defects + (after ? m->scsi_grown_defects_during : 0));
	KNOWN_SET(h->read_uncorrected, m->scsi_read_uncorrected + (after ? m->scsi_read_uncorrected_during : 0));
	KNOWN_SET(h->write_uncorrected, m->scsi_write_uncorrected);
	KNOWN_SET(h->verify_uncorrected, 0);
	KNOWN_SET(h->non_medium_errors, 0);
	KNOWN_SET(h->start_stop_cycles, m->scsi_start_stop_cycles);
	KNOWN_SET(h->power_on_minutes, m->scsi_power_on_hours * 60);
	KNOWN_SET(h->ie_asc, m->scsi_ie_asc);
	KNOWN_SET(h->ie_ascq, m->scsi_ie_ascq);
	if (m->scsi_ie_asc == 0x5d)	/* the failure prediction threshold family */
		snprintf(h->ie_text, sizeof h->ie_text, "failure prediction threshold exceeded");
	else if (m->scsi_ie_asc || m->scsi_ie_ascq)
		snprintf(h->ie_text, sizeof h->ie_text, "ASC 0x%02llx ASCQ 0x%02llx",
			 (unsigned long long)m->scsi_ie_asc, (unsigned long long)m->scsi_ie_ascq);
	KNOWN_SET(h->selftest_entries, 1);
	KNOWN_SET(h->selftest_last_code, 1);
	KNOWN_SET(h->selftest_last_result, m->scsi_selftest_result);
	KNOWN_SET(h->selftest_last_hours, m->scsi_power_on_hours);
	KNOWN_SET(h->selftest_failed, m->scsi_selftest_result >= 3 && m->scsi_selftest_result <= 7);
	if (m->scsi_selftest_result >= 3 && m->scsi_selftest_result <= 7)
		KNOWN_SET(h->selftest_last_lba, m->scsi_selftest_lba);
}

void
sim_scsi_info(const struct sim_drive_model *m, const char *serial, bool after, struct scsi_info *out)
{
	memset(out, 0, sizeof *out);
	if (!m->scsi) {
		snprintf(out->reason, sizeof out->reason, "not a SCSI drive");
		snprintf(out->health.reason, sizeof out->health.reason, "not a SCSI drive");
		return;
	}
	out->known = true;
	/* INQUIRY's vendor is the model's first word ("SEAGATE ST4000NM0023") */
	const char *sp = strchr(m->model, ' ');
	snprintf(out->vendor, sizeof out->vendor, "%.*s", sp && sp - m->model < 9 ? (int)(sp - m->model) : 0, m->model);
	snprintf(out->product, sizeof out->product, "%.16s", sp ? sp + 1 : m->model);
	snprintf(out->revision, sizeof out->revision, "%.4s", m->firmware);
	KNOWN_SET(out->peripheral_type, 0);
	snprintf(out->transport, sizeof out->transport, "sas");
	out->sat = known_bool_of(false);
	snprintf(out->serial, sizeof out->serial, "%.63s", serial);
	KNOWN_SET(out->rotation_rpm, m->ssd ? 0 : (uint64_t)m->rpm);
	KNOWN_SET(out->logical_bytes, m->scsi_block_bytes);
	KNOWN_SET(out->lba_count, m->capacity / m->logical);
	unsigned exp = 0;
	while ((m->logical << (exp + 1)) <= m->physical && exp < 15)
		exp++;
	KNOWN_SET(out->physical_exp, exp);
	KNOWN_SET(out->lowest_aligned, 0);
	out->protection = known_bool_of(m->scsi_protection);
	if (m->scsi_protection)
		KNOWN_SET(out->protection_type, 1);
	out->format = scsi_format_of(&out->logical_bytes, &out->protection);
	scsi_health_of(m, after, &out->health);
}
