/* triage-smart.c - what the triage test asks the inventory, before and after
 * its reads: SMART (temperature, the attributes that predict failure) and
 * the drive's inventory checks (link below capability, SATA link below the
 * drive's maximum, a 4K drive reporting 512, an SMR family).  One inventory
 * scan per snapshot, ATA queries on; sim drives answer from their model's
 * [smart] section.  Unknown stays unknown: a loop device has no SMART. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench/triage.h"
#include "inventory/inventory.h"
#include "sim/drive.h"
#include "sim/model.h"
#include "sim/sim.h"

const uint8_t triage_smart_ids[TRI_SMART_N] = { 5, 187, 188, 196, 197, 198, 199 };

static void
snap_drive(struct tri_snap *s, const struct drive *d, const struct inventory *inv)
{
	s->found = true;
	if (d->ata.state != ATA_OK || !d->ata.smart.known) {
		snprintf(s->reason, sizeof(s->reason), "%s",
			 d->ata.state == ATA_NOT_ATA ? "not an ATA device" :
			 d->ata.reason[0] ? d->ata.reason :
			 d->ata.smart.reason[0] ? d->ata.smart.reason : "not read");
	} else {
		const struct smart_info *m = &d->ata.smart;
		s->smart = true;
		snprintf(s->overall, sizeof(s->overall), "%s", m->overall);
		if (m->temperature_c.known) {
			s->temp_known = true;
			s->temp_c = m->temperature_c.v;
		}
		for (size_t k = 0; k < TRI_SMART_N; k++) {
			for (size_t a = 0; a < m->n_attrs; a++)
				if (m->attrs[a].id == triage_smart_ids[k]) {
					s->attr[k] = (struct known_u64){ true, m->attrs[a].raw };
					break;
				}
			/* a drive without the attribute table (sim) still has these */
			if (s->attr[k].known)
				continue;
			const struct ds_u64 *f = triage_smart_ids[k] == 5 ? &m->reallocated :
				triage_smart_ids[k] == 197 ? &m->pending :
				triage_smart_ids[k] == 198 ? &m->offline_uncorrectable : NULL;
			if (f && f->known)
				s->attr[k] = (struct known_u64){ true, f->v };
		}
	}
	/* inventory checks: the drive's own warnings, its link, its SMR verdict */
	for (size_t w = 0; w < d->warnings.n; w++)
		strlist_add(&s->checks, d->warnings.v[w]);
	if (d->ata.state == ATA_OK && d->ata.id.sata_max_gbps.known && d->link_gbps.known &&
	    d->link_gbps.v + 0.01 < d->ata.id.sata_max_gbps.v) {
		char t[128];
		snprintf(t, sizeof(t), "SATA link at %.1f Gb/s, the drive supports %.1f Gb/s",
			 d->link_gbps.v, d->ata.id.sata_max_gbps.v);
		strlist_add(&s->checks, t);
		s->link_low = true;
	}
	if (d->controller >= 0 && (size_t)d->controller < inv->n_ctrl) {
		const struct pci_link *l = &inv->ctrl[d->controller].link;
		if (l->known && l->downgraded) {
			char t[160];
			snprintf(t, sizeof(t), "controller link trained below capability: x%u %.1f GT/s (capable of x%u %.1f GT/s)",
				 l->sta_width, l->sta_gts, l->cap_width, l->cap_gts);
			strlist_add(&s->checks, t);
			s->link_low = true;
		}
	}
	if (d->smr.verdict == SMR_LIKELY || d->smr.verdict == SMR_ZONED) {
		char t[96];
		snprintf(t, sizeof(t), "SMR family (%s): sustained writes stall; reads are judged as usual",
			 smr_verdict_name(d->smr.verdict));
		strlist_add(&s->checks, t);
	}
}

int
triage_snapshot(const struct plan *p, const struct target *tg, size_t n, struct tri_snap *out)
{
	struct inventory_opts o;
	inventory_opts_default(&o);
	bool sim = false;
	for (size_t t = 0; t < n; t++)
		sim |= tg[t].kind == TGT_SIM;
	const struct sim_rig *rig = NULL;
	struct sim_ctrl *ctrls = NULL;
	char err[256] = "";
	if (sim && !sim_rig_get(&rig, &ctrls, err, sizeof(err)) && rig) {
		o.demo = true;
		o.demo_rig = rig->file;	/* the rig loaded now: kept as it is */
		o.extra_drives = sim_inventory_source;	/* else no sim drive, no SMART: ENOSYS */
	}
	struct inventory inv = { 0 };
	int rc = inventory_scan(&inv, &o);
	for (size_t t = 0; t < n; t++) {
		struct tri_snap *s = &out[t];
		strlist_free(&s->checks);
		memset(s, 0, sizeof(*s));
		s->taken = true;
		struct drive *d = rc ? NULL : inventory_match_drive(&inv, p->targets.v[t]);
		if (!d && !rc && tg[t].path[0])
			d = inventory_find_drive(&inv, tg[t].path);
		if (d)
			snap_drive(s, d, &inv);
		else if (rc)
			snprintf(s->reason, sizeof(s->reason), "the inventory could not be read: %s", strerror(-rc));
		else
			snprintf(s->reason, sizeof(s->reason), "not a drive the inventory shows");
	}
	inventory_free(&inv);
	return rc;
}

void
triage_snap_free(struct tri_snap *s)
{
	strlist_free(&s->checks);
}
