/* facts.c - a sim drive's device facts (inventory/facts.h) and its model as
 * the identity and SMART source tests ask through, as they ask the
 * inventory of a real drive: the rig's scan, the model's drive, SMART after
 * the test's I/O, the self-test log. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "inventory/ata-selftest.h"
#include "inventory/facts.h"
#include "inventory/nvme.h"
#include "sim/drive.h"
#include "sim/identify.h"
#include "sim/sim.h"

static const struct sim_drive_model *
model_of(const struct dev_facts *f)
{
	return f->source_arg;
}

/* The rig loaded now, kept as it is: the sim drive shows in it (else no sim
 * drive, no SMART: ENOSYS). */
static void
src_scan_opts(const struct dev_facts *f, struct inventory_opts *o)
{
	const struct sim_rig *rig = NULL;
	struct sim_ctrl *ctrls = NULL;
	char err[256] = "";
	(void)f;
	if (!sim_rig_get(&rig, &ctrls, err, sizeof err) && rig) {
		o->demo = true;
		o->demo_rig = rig->file;
		o->extra_drives = sim_inventory_source;
	}
}

static int
src_drive(const struct dev_facts *f, const char *path, struct inventory *inv, struct drive **out)
{
	(void)path;
	*out = NULL;
	int rc = sim_model_inventory(inv, model_of(f));
	if (rc)
		return rc;
	if (!inv->n_drv)
		return -ENOENT;
	*out = &inv->drv[inv->n_drv - 1];
	return 0;
}

static void
attr_add(struct smart_info *s, uint8_t id, uint64_t add)
{
	for (size_t a = 0; a < s->n_attrs; a++)
		if (s->attrs[a].id == id)
			s->attrs[a].raw += add;
}

/* The sectors the drive remapped or marked during the run, and its warming
 * under the reads. */
static void
src_smart_after(const struct dev_facts *f, struct smart_info *s)
{
	const struct sim_drive_model *m = model_of(f);
	if (!s->known)
		return;
	if (m->reallocated_during) {
		attr_add(s, 5, m->reallocated_during);
		if (s->reallocated.known)
			s->reallocated.v += m->reallocated_during;
	}
	if (m->pending_during) {
		attr_add(s, 197, m->pending_during);
		if (s->pending.known)
			s->pending.v += m->pending_during;
	}
	if (m->temperature_during > 0)
		KNOWN_SET(s->temperature_c, m->temperature_during);
}

/* The model's log: its "during" entries only once the test ran, newest
 * first (the run's entries, then the rest). */
static int
src_selftest_log(const struct dev_facts *f, const char *path, bool after, bool smart,
		 uint8_t *log, char *reason, size_t n)
{
	const struct sim_drive_model *m = model_of(f);
	(void)path;
	(void)smart;
	if (!m->smart) {
		snprintf(reason, n, "the sim model has no SMART");
		return -ENODATA;
	}
	struct ata_selftest e[ATA_SELFTEST_N];
	size_t k = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = m->n_selftest; i-- > 0 && k < ATA_SELFTEST_N;)
			if (m->selftest[i].during == !pass && (!m->selftest[i].during || after))
				e[k++] = (struct ata_selftest){ .type = m->selftest[i].type,
								.status = m->selftest[i].status,
								.hours = m->selftest[i].hours,
								.lba = m->selftest[i].lba };
	ata_selftest_build(e, k, log);
	return 0;
}

/* The model's NVMe health log ([nvme]); after a test's I/O, its media
 * errors meanwhile added. */
static int
src_nvme_health(const struct dev_facts *f, const struct drive *d, bool after, struct nvme_health *out)
{
	const struct sim_drive_model *m = model_of(f);
	(void)d;
	memset(out, 0, sizeof *out);
	if (!m || !m->nvme) {
		snprintf(out->reason, sizeof out->reason, "not an NVMe drive");
		return -ENODATA;
	}
	out->known = true;
	KNOWN_SET(out->critical_warning, m->nvme_critical_warning);
	KNOWN_SET(out->available_spare, m->nvme_spare);
	KNOWN_SET(out->spare_threshold, m->nvme_spare_threshold);
	KNOWN_SET(out->percent_used, m->nvme_percent_used);
	KNOWN_SET(out->media_errors, m->nvme_media_errors + (after ? m->nvme_media_errors_during : 0));
	KNOWN_SET(out->temperature_c, (int64_t)m->nvme_temperature_c);
	KNOWN_SET(out->power_on_hours, m->power_on_hours);
	if (m->nvme_data_units_written)
		KNOWN_SET(out->data_units_written, m->nvme_data_units_written);
	return 0;
}

/* The model's SCSI health pages ([scsi]); after a test's I/O, what grew
 * meanwhile added. */
static int
src_scsi_health(const struct dev_facts *f, const struct drive *d, bool after, struct scsi_health *out)
{
	const struct sim_drive_model *m = model_of(f);
	struct scsi_info si;
	if (!m) {
		memset(out, 0, sizeof *out);
		snprintf(out->reason, sizeof out->reason, "no sim model");
		return -ENODATA;
	}
	sim_scsi_info(m, d ? d->serial : "", after, &si);
	*out = si.health;
	return m->scsi ? 0 : -ENODATA;
}

static const struct dev_source sim_source = {
	.name = "sim model",
	.scan_opts = src_scan_opts,
	.drive = src_drive,
	.smart_after = src_smart_after,
	.selftest_log = src_selftest_log,
	.nvme_health = src_nvme_health,
	.scsi_health = src_scsi_health,
};

void
sim_drive_facts(const struct sim_drive *d, struct dev_facts *f)
{
	const struct sim_drive_model *m = d->m;
	memset(f, 0, sizeof *f);
	f->kind = DEV_SIM;
	f->simulated = true;
	snprintf(f->name, sizeof f->name, "%s", d->name);
	snprintf(f->disk, sizeof f->disk, "%s", d->name);
	snprintf(f->model, sizeof f->model, "%s", m->model);
	KNOWN_SET(f->capacity, m->capacity);
	/* as the kernel would pass IDENTIFY words 106 and 209 on */
	KNOWN_SET(f->logical, m->logical);
	KNOWN_SET(f->physical, m->sector_sizes_reported ? m->physical_reported : m->logical);
	KNOWN_SET(f->alignment_offset, m->sector_sizes_reported ? (int64_t)m->align_offset : 0);
	snprintf(f->sector_source, sizeof f->sector_source, "%s",
		 m->sector_sizes_reported ? "IDENTIFY" : "IDENTIFY word 106 not valid");
	KNOWN_SET(f->rotational, !m->ssd);
	KNOWN_SET(f->holders, 0);
	if (d->ctrl && d->ctrl->inv_index.known)
		f->controller = d->ctrl->inv_index;
	f->source = &sim_source;
	f->source_arg = m;
}
