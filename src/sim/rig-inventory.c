/* rig-inventory.c - put the simulated rig into the inventory as if it were
 * hardware: controllers with their PCIe links and ceilings, drives with the
 * IDENTIFY words and SMART values their models answer with. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "inventory/ata.h"
#include "inventory/facts.h"
#include "inventory/pci.h"
#include "inventory/smr.h"
#include "sim/drive.h"
#include "sim/identify.h"
#include "sim/sim.h"

static void
fill_link(struct controller *c, const struct sim_hba_model *h)
{
	struct pci_link *l = &c->link;
	memset(l, 0, sizeof *l);
	if (!h->has_link) {
		snprintf(l->reason, sizeof l->reason, "onboard chipset controller: no PCIe link");
	} else {
		l->known = true;
		l->cap_gts = h->cap_gts;
		l->sta_gts = h->sta_gts;
		l->cap_width = h->cap_width;
		l->sta_width = h->sta_width;
		if (h->cap_gts > 5)	/* LnkCap2 came with PCIe 3.0 */
			KNOWN_SET(l->cap2_max_gts, h->cap_gts);
		l->downgraded = h->sta_gts < h->cap_gts || h->sta_width < h->cap_width;
		l->ceiling_mbps = pcie_lane_mbps(h->sta_gts) * h->sta_width;
		KNOWN_SET(l->cap_ceiling_mbps, pcie_lane_mbps(h->cap_gts) * h->cap_width);
	}
	snprintf(c->link_from, sizeof c->link_from, "%s", c->address);
	c->narrowest = *l;
	snprintf(c->narrowest_at, sizeof c->narrowest_at, "%s", c->address);
}

/* Serial of the rig's drive idx: the model's, its tail replaced by idx, so
 * eight drives of one model keep eight identities. */
static void
drive_serial(const struct sim_drive_model *m, unsigned idx, char *out, size_t n)
{
	char tail[8];
	snprintf(tail, sizeof tail, "%02u", idx % 100);
	size_t len = strlen(m->serial);
	size_t keep = len >= 2 ? len - 2 : 0;
	snprintf(out, n, "%.*s%s", (int)keep, m->serial, tail);
}

static int
add_drive(struct inventory *inv, const struct sim_drive_model *m, unsigned idx, int ctrl,
	  unsigned port)
{
	struct drive *d = inventory_add_drive(inv);
	if (!d)
		return -ENOMEM;
	snprintf(d->name, sizeof d->name, "sim%u", idx);
	snprintf(d->path, sizeof d->path, DEV_SIM_PREFIX "sim%u", idx);
	snprintf(d->vendor, sizeof d->vendor, "ATA");
	d->transport = TR_SIM;
	d->virtual_dev = true;
	d->access = ACC_OK;
	d->controller = ctrl;
	snprintf(d->port, sizeof d->port, "port%u", port);
	snprintf(d->syspath, sizeof d->syspath, DEV_SIM_PREFIX "%s", m->file);
	KNOWN_SET(d->rotational, m->ssd ? 0 : 1);
	/* Linux shows drive-managed as none */
	snprintf(d->zoned, sizeof d->zoned, "%s", m->zoned == 3 ? "host-managed" : "none");
	snprintf(d->write_cache, sizeof d->write_cache, "write back");
	KNOWN_SET(d->min_io, m->physical_reported);
	KNOWN_SET(d->alignment_offset, m->align_offset);
	KNOWN_SET(d->discard_granularity, m->trim ? m->physical_reported : 0);

	char serial[24];
	drive_serial(m, idx, serial, sizeof serial);
	uint16_t w[256];
	sim_identify_words(m, serial, w);
	d->ata.state = ATA_OK;
	snprintf(d->ata.via, sizeof d->ata.via, "sim");
	ata_identify_decode(w, &d->ata.id);
	sim_smart_info(m, &d->ata.smart);
	sim_provenance_info(m, &d->ata.id, &d->ata.farm, &d->ata.hidden);
	ata_apply_identify(d);
	/* what the kernel would have said from the same IDENTIFY */
	if (!d->logical.known) {
		KNOWN_SET(d->logical, m->logical);
		KNOWN_SET(d->physical, m->sector_sizes_reported ? m->physical_reported : m->logical);
		snprintf(d->sector_source, sizeof d->sector_source, "sysfs");
	}
	KNOWN_SET(d->capacity_bytes, m->capacity);
	if (m->scsi) {	/* a SAS drive answers INQUIRY and log pages, not ATA */
		sim_scsi_info(m, serial, false, &d->scsi);
		snprintf(d->vendor, sizeof d->vendor, "%s", d->scsi.vendor);
		d->ata.state = ATA_NOT_ATA;
		d->ata.smart.known = false;
		snprintf(d->ata.smart.reason, sizeof d->ata.smart.reason, "not an ATA drive (SAS)");
	} else {
		snprintf(d->scsi.reason, sizeof d->scsi.reason, "not a SCSI drive");
	}
	snprintf(d->id, sizeof d->id, "%s", d->serial[0] ? d->serial : d->name);
	snprintf(d->id_source, sizeof d->id_source, "%s", d->serial[0] ? "serial" : "name");
	smr_assess(d);
	return 0;
}

int
sim_model_inventory(struct inventory *inv, const struct sim_drive_model *m)
{
	return add_drive(inv, m, (unsigned)inv->n_drv, -1, 0);
}

int
sim_inventory_source(struct inventory *inv, const struct inventory_opts *o, char *err, size_t errlen)
{
	return sim_inventory_add(inv, o->demo_rig, o->sim_models, o->n_sim_models, err, errlen);
}

int
sim_inventory_add(struct inventory *inv, const char *rig_file, const char *const *extra_models,
		  size_t n_extra, char *err, size_t errlen)
{
	int r = sim_load_models(extra_models, n_extra, err, errlen);
	if (r)
		return r;
	if ((r = sim_use_rig(rig_file, err, errlen)))
		return r;
	const struct sim_rig *rig;
	struct sim_ctrl *ctrls;
	if ((r = sim_rig_get(&rig, &ctrls, err, errlen)))
		return r;
	unsigned idx = 0;
	for (size_t i = 0; i < rig->n_ctrl; i++) {
		const struct sim_hba_model *h = ctrls[i].hba;
		struct controller *c = inventory_add_controller(inv);
		if (!c)
			return -ENOMEM;
		int ci = (int)(inv->n_ctrl - 1);
		KNOWN_SET(ctrls[i].inv_index, (uint64_t)ci);
		snprintf(c->id, sizeof c->id, "ctrl%d", ci);
		snprintf(c->address, sizeof c->address, "%s", ctrls[i].address);
		c->vendor_id = h->vendor_id;
		c->device_id = h->device_id;
		c->class_code = h->class_code;
		snprintf(c->name, sizeof c->name, "%s", h->title);
		snprintf(c->class_name, sizeof c->class_name, "%s", h->class_name);
		snprintf(c->driver, sizeof c->driver, "%s", h->driver);
		c->simulated = true;
		fill_link(c, h);
		for (size_t j = 0; j < rig->ctrl[i].n_drives; j++, idx++) {
			const struct sim_drive_model *m = sim_find_drive_model(rig->ctrl[i].drives[j]);
			if (!m) {
				snprintf(err, errlen, "%s: no drive model '%s'", rig->file,
					 rig->ctrl[i].drives[j]);
				return -ENOENT;
			}
			if ((r = add_drive(inv, m, idx, ci, (unsigned)j)))
				return r;
			strlist_addf(&inv->ctrl[ci].drives, "sim%u", idx);
		}
	}
	return 0;
}
