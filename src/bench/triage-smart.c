/* triage-smart.c - what the triage test asks the inventory, before and after
 * its reads: SMART (temperature, the attributes that predict failure) and
 * the drive's inventory checks (link below capability, SATA link below the
 * drive's maximum, a 4K drive reporting 512, an SMR family).  One inventory
 * scan per snapshot, ATA queries on; each target's facts name the source
 * of its SMART (the inventory's readers; a sim drive's model, its [smart]
 * section).  Unknown stays unknown: a loop device has no SMART. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/triage-int.h"
#include "inventory/facts.h"
#include "inventory/inventory.h"
#include "util/util.h"

const uint8_t triage_smart_ids[TRI_SMART_N] = { 5, 187, 188, 196, 197, 198, 199 };

static void
snap_drive(struct tri_snap *s, const struct drive *d, const struct inventory *inv)
{
	s->found = true;
	triage_prov_snap(s, d);
	if (d->ata.state != ATA_OK || !d->ata.smart.known) {
		snprintf(s->reason, sizeof(s->reason), "%s",
			 d->ata.state == ATA_NOT_ATA && d->transport != TR_USB ? "not an ATA device" :
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
			const struct known_u64 *f = triage_smart_ids[k] == 5 ? &m->reallocated :
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

/* The self-test log, from the target's source (an ATA drive's over SG_IO,
 * a sim drive's model with its "during" entries in the snapshot after),
 * through the parser. */
static void
snap_selftest(struct tri_snap *s, const struct target *tg, bool after)
{
	uint8_t log[ATA_SELFTEST_SIZE];
	const struct dev_source *src = tg->facts.source;
	if (!src || !src->selftest_log) {
		snprintf(s->st_reason, sizeof(s->st_reason), "no SMART");
		return;
	}
	if (src->selftest_log(&tg->facts, tg->path, after, s->smart, log, s->st_reason,
			      sizeof(s->st_reason)))
		return;
	s->st_known = !ata_selftest_parse(log, &s->st, s->st_reason, sizeof(s->st_reason));
}

static void
selftest_line(char *buf, size_t n, const struct ata_selftest *e, unsigned lbs)
{
	size_t o = (size_t)snprintf(buf, n, "%s, %s, at %u h", ata_selftest_type_name(e->type),
				    ata_selftest_status_name(e->status), e->hours);
	if (e->lba_known && o < n)
		snprintf(buf + o, n - o, ", first failing LBA %u (%.3f GB)", e->lba, (double)e->lba * lbs / 1e9);
}

void
triage_selftest_judge(const struct tri_snap *b, const struct tri_snap *a, unsigned lbs,
		      enum verdict_level *lv, char *why, size_t wn, struct strlist *ev)
{
	if (!b->st_known || !a->st_known) {
		if (b->smart && a->smart)
			strlist_addf(ev, "SMART self-test log: not read (%s)", !b->st_known ? b->st_reason : a->st_reason);
		return;
	}
	char line[200];
	size_t fresh = ata_selftest_new(&b->st, &a->st);
	/* running at the start, ended since: it ended during the run */
	if (b->st.n && b->st.e[0].status == 15 && fresh < a->st.n && a->st.e[fresh].status != 15)
		fresh++;
	for (size_t k = 0; k < fresh; k++) {
		const struct ata_selftest *e = &a->st.e[k];
		selftest_line(line, sizeof(line), e, lbs);
		strlist_addf(ev, "self-test logged during the run: %s", line);
		if (!ata_selftest_failed(e))
			continue;
		*lv = VL_FAIL;
		if (e->lba_known)
			triage_add_reason(why, wn, "new failed self-test at LBA %u (%.3f GB): %s", e->lba,
					  (double)e->lba * lbs / 1e9, ata_selftest_status_name(e->status));
		else
			triage_add_reason(why, wn, "new failed self-test: %s", ata_selftest_status_name(e->status));
	}
	if (!fresh && b->st.n) {
		selftest_line(line, sizeof(line), &b->st.e[0], lbs);
		strlist_addf(ev, "SMART self-test log: no new entry; the last: %s", line);
	} else if (!fresh) {
		strlist_add(ev, "SMART self-test log: empty");
	}
}

/* The snapshot after the reads: SMART as the target's source says it reads
 * once they ran (a sim drive's sectors remapped or marked, its warming
 * meanwhile), on a copy: the drive may be another target's too. */
static void
snap_drive_after(struct tri_snap *s, struct drive *d, const struct inventory *inv,
		 const struct target *tg)
{
	const struct dev_source *src = tg->facts.source;
	struct smart_info keep = d->ata.smart;
	struct smart_attr *a = NULL;
	if (src && src->smart_after &&
	    (!keep.n_attrs || (a = malloc(keep.n_attrs * sizeof(*a))))) {
		if (a) {
			memcpy(a, keep.attrs, keep.n_attrs * sizeof(*a));
			d->ata.smart.attrs = a;
		}
		src->smart_after(&tg->facts, &d->ata.smart);
	}
	snap_drive(s, d, inv);
	d->ata.smart = keep;
	free(a);
}

/* Whether a drive's health must be read: a physical one (ata, scsi, nvme,
 * usb), not a virtual, loop, zram or sim device nor a scratch file. */
bool
triage_drive_physical(const struct drive *d, const struct target *tg)
{
	enum dev_kind k = tg->facts.kind;
	if (tg->facts.simulated || k == DEV_LOOP || k == DEV_ZRAM || k == DEV_FILE || k == DEV_SIM)
		return false;
	switch (d->transport) {
	case TR_SATA: case TR_IDE: case TR_SAS: case TR_SCSI: case TR_NVME: case TR_USB:
		return true;
	default:
		return false;
	}
}

/* The NVMe health log, from the target's source (the inventory's read, a
 * sim drive's model). */
static void
snap_nvme(struct tri_snap *s, const struct drive *d, const struct target *tg, bool after)
{
	const struct dev_source *src = tg->facts.source;
	s->physical = triage_drive_physical(d, tg);
	if (!src || !src->nvme_health) {
		snprintf(s->nh.reason, sizeof(s->nh.reason), "no NVMe health source");
		return;
	}
	s->nvme = !src->nvme_health(&tg->facts, d, after, &s->nh) && s->nh.known;
}

/* The SCSI health pages and the block format, from the target's source
 * (the inventory's read, a sim drive's model). */
static void
snap_scsi(struct tri_snap *s, const struct drive *d, const struct target *tg, bool after)
{
	const struct dev_source *src = tg->facts.source;
	s->fmt = d->scsi.known ? d->scsi.format : SCSI_FMT_UNKNOWN;
	s->block_bytes = d->scsi.logical_bytes;
	snprintf(s->sg_node, sizeof(s->sg_node), "%s", d->scsi.known ? d->scsi.sg_node : "");
	if (!src || !src->scsi_health) {
		snprintf(s->sh.reason, sizeof(s->sh.reason), "no SCSI health source");
		return;
	}
	s->scsi = !src->scsi_health(&tg->facts, d, after, &s->sh) && s->sh.known;
}

/* The wear from what the snapshot read: the NVMe log, else SMART's
 * attributes (a drive that says it is an SSD). */
static void
snap_wear(struct tri_snap *s, const struct drive *d)
{
	if (s->nvme)
		wear_from_nvme(&s->nh, &s->wear);
	else if (d && s->smart)
		wear_from_smart(d->ata.smart.attrs, d->ata.smart.n_attrs, d->ata.id.ssd ||
				(d->rotation_rpm.known && !d->rotation_rpm.v), &s->wear);
	else
		wear_unknown(&s->wear, !d ? s->reason : d->transport == TR_NVME ? s->nh.reason :
			     "no SMART or NVMe health read");
}

int
triage_snapshot(const struct plan *p, const struct target *tg, size_t n, bool after, struct tri_snap *out)
{
	struct inventory_opts o;
	inventory_opts_default(&o);
	/* a scan that shows every target (a sim drive: its rig) */
	for (size_t t = 0; t < n; t++)
		if (tg[t].facts.source && tg[t].facts.source->scan_opts)
			tg[t].facts.source->scan_opts(&tg[t].facts, &o);
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
		if (d && after)
			snap_drive_after(s, d, &inv, &tg[t]);
		else if (d)
			snap_drive(s, d, &inv);
		else if (rc)
			snprintf(s->reason, sizeof(s->reason), "the inventory could not be read: %s", strerror(-rc));
		else
			snprintf(s->reason, sizeof(s->reason), "not a drive the inventory shows");
		if (d || tg[t].facts.simulated)
			snap_selftest(s, &tg[t], after);
		if (d) {
			snap_nvme(s, d, &tg[t], after);
			snap_scsi(s, d, &tg[t], after);
		}
		snap_wear(s, d);
	}
	inventory_free(&inv);
	return rc;
}

void
triage_snap_free(struct tri_snap *s)
{
	strlist_free(&s->checks);
}


/* SMART before and after, and the inventory's checks: evidence, reasons and
 * the rules (too warm: fail; new reallocated or pending sectors: fail; any
 * other predictor that grew, a link below capability: warn). */
void
triage_smart_judge(const struct tri_snap *b, const struct tri_snap *a, struct known_dbl temp_peak, double max_temp,
		   const char *ns_rule, enum verdict_level *lv, char *why, size_t wn, struct strlist *ev)
{
	const struct tri_snap *any = a->taken ? a : b;
	for (size_t k = 0; k < any->checks.n; k++)
		strlist_addf(ev, "inventory: %s", any->checks.v[k]);
	if (any->link_low) {
		triage_raise(lv, VL_WARN);
		triage_add_reason(why, wn, "link below capability");
	}
	if (!b->smart || !a->smart) {
		const char *r = !b->smart ? b->reason : a->reason;
		if (a->nvme || b->nvme)	/* judged by its NVMe health instead */
			return;
		strlist_addf(ev, "SMART: not available (%s): no SMART rule applied", r[0] ? r : "not read");
		return;
	}
	bool temp_known = a->temp_known || b->temp_known;
	double temp = a->temp_known ? a->temp_c : b->temp_c;
	if (temp_known && isfinite(temp)) {
		strlist_addf(ev, "temperature: %.0f C (limit %.0f C)", temp, max_temp);
		if (temp_peak.known)
			strlist_addf(ev, "temperature while reading: up to %.0f C", temp_peak.v);
		if (temp > max_temp) {
			triage_raise(lv, VL_FAIL);
			triage_add_reason(why, wn, "too warm: %.0f C (limit %.0f C)", temp, max_temp);
		}
	} else {
		strlist_add(ev, "temperature: not reported");
	}
	char line[256];
	size_t o = (size_t)snprintf(line, sizeof(line), "SMART before -> after (raw):");
	bool grew = false;
	for (size_t k = 0; k < TRI_SMART_N && o < sizeof(line); k++) {
		const struct known_u64 *x = &b->attr[k], *y = &a->attr[k];
		if (!x->known || !y->known)
			continue;
		o += (size_t)snprintf(line + o, sizeof(line) - o, " %u: %llu->%llu", triage_smart_ids[k],
				      (unsigned long long)x->v, (unsigned long long)y->v);
		if (y->v <= x->v)
			continue;
		grew = true;
		bool sectors = triage_smart_ids[k] == 5 || triage_smart_ids[k] == 197;
		/* new reallocated or pending sectors: --new-sectors fail|warn|off
		 * (off: in the evidence only) */
		if (sectors && !strcmp(ns_rule, "off"))
			continue;
		triage_raise(lv, sectors && !strcmp(ns_rule, "fail") ? VL_FAIL : VL_WARN);
		triage_add_reason(why, wn, "SMART %u grew by %llu during the test%s%s", triage_smart_ids[k],
				  (unsigned long long)(y->v - x->v),
				  triage_smart_ids[k] == 5 ? " (reallocated sectors)" :
				  triage_smart_ids[k] == 197 ? " (pending sectors)" : "",
				  sectors ? " (--new-sectors)" : "");
	}
	strlist_add(ev, line);
	if (!grew)
		strlist_add(ev, "SMART delta: none of 5, 187, 188, 196, 197, 198, 199 grew");
	for (size_t k = 0; k < TRI_SMART_N; k++) {
		uint8_t id = triage_smart_ids[k];
		if ((id == 5 || id == 197 || id == 198) && a->attr[k].known && a->attr[k].v) {
			triage_raise(lv, VL_WARN);
			triage_add_reason(why, wn, "SMART %u is %llu (%s)", id, (unsigned long long)a->attr[k].v,
				   id == 5 ? "reallocated sectors" : id == 197 ? "pending sectors" :
				   "offline uncorrectable");
		}
	}
	if (a->overall[0])
		strlist_addf(ev, "SMART overall: %s", a->overall);
}
