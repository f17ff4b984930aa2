/* inventory-text.c - `diskscope list`: controllers with their drives beneath,
 * in 100 columns.  Unknown is "?", never 0; warnings marked with "!". */
#include <stdio.h>
#include <string.h>
#include "report/doc.h"
#include "report/text.h"

void
fmt_capacity(const struct known_u64 *b, char *buf, size_t n)
{
	if (!b->known) {
		snprintf(buf, n, "?");
		return;
	}
	double v = (double)b->v;
	if (v >= 1e12)
		snprintf(buf, n, "%.2f TB", v / 1e12);
	else if (v >= 1e9)
		snprintf(buf, n, "%.0f GB", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, n, "%.0f MB", v / 1e6);
	else
		snprintf(buf, n, "%llu B", (unsigned long long)b->v);
}

const char *
sector_label(const struct drive *d)
{
	if (!d->logical.known || !d->physical.known)
		return "?";
	if (strcmp(d->sector_source, "ata-default") == 0)
		return "512?";	/* 512/512 assumed: the drive reports no sizes */
	if (d->logical.v == 512 && d->physical.v == 512)
		return "512n";
	if (d->logical.v == 512 && d->physical.v == 4096)
		return "512e";
	if (d->logical.v == 4096 && d->physical.v == 4096)
		return "4Kn";
	static __thread char buf[24];
	snprintf(buf, sizeof buf, "%llu/%llu", (unsigned long long)d->logical.v,
		 (unsigned long long)d->physical.v);
	return buf;
}

void
fmt_rotation(const struct drive *d, char *buf, size_t n)
{
	if (d->rotation_rpm.known)
		snprintf(buf, n, d->rotation_rpm.v == 0 ? "SSD" : "%llu rpm",
			 (unsigned long long)d->rotation_rpm.v);
	else if (d->rotational.known && !d->rotational.v)
		snprintf(buf, n, "non-rot");
	else if (d->rotational.known)
		snprintf(buf, n, "rotating");
	else
		snprintf(buf, n, "?");
}

const char *
trim_label(const struct drive *d)
{
	struct known_u64 t = drive_trim(d, NULL);
	return !t.known ? "?" : t.v ? "yes" : "no";
}

/* Short enough for the table: libatasmart's overall names are long. */
static const char *
smart_short(const char *overall)
{
	static const struct { const char *from, *to; } map[] = {
		{ "good", "good" }, { "bad_attribute_in_the_past", "old-fail" },
		{ "bad_sector", "bad-sect" }, { "bad_sector_many", "bad-sects" },
		{ "bad_attribute_now", "FAILING" }, { "bad_status", "FAILING" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (strcmp(overall, map[i].from) == 0)
			return map[i].to;
	return overall[0] ? overall : "?";
}

void
fmt_smart(const struct drive *d, char *buf, size_t n)
{
	if (d->transport == TR_NVME) {	/* the NVMe health log, not ATA SMART */
		const struct nvme_health *h = &d->nvme.health;
		if (!h->known)
			snprintf(buf, n, "no data");
		else
			snprintf(buf, n, "%s", h->critical_warning.v ? "CRIT-WARN" : "good");
		return;
	}
	if (drive_scsi_class(d)) {
		const struct scsi_health *h = &d->scsi.health;	/* the log pages, not ATA SMART */
		bool bad = (h->ie_asc.known && h->ie_asc.v) ||
			   (h->selftest_failed.known && h->selftest_failed.v);
		snprintf(buf, n, "%s", !h->known ? "no data" : bad ? "FAILING" : "good");
		return;
	}
	switch (d->ata.state) {
	case ATA_NOT_ATA: snprintf(buf, n, "n/a"); return;
	case ATA_PENDING: snprintf(buf, n, "..."); return;
	case ATA_NO_ANSWER: snprintf(buf, n, "no answer"); return;
	case ATA_FAILED: snprintf(buf, n, "no data"); return;	/* not a failing drive */
	case ATA_OK: break;
	}
	const struct smart_info *s = &d->ata.smart;
	if (!s->known)
		snprintf(buf, n, "?");
	else if (s->status_good.known && !s->status_good.v)
		snprintf(buf, n, "FAILING");
	else
		snprintf(buf, n, "%s", smart_short(s->overall));
}

void
fmt_link(const struct pci_link *l, char *buf, size_t n)
{
	if (!l->known) {
		snprintf(buf, n, "link n/a");
		return;
	}
	if (l->sta_gts == l->cap_gts && l->sta_width == l->cap_width)
		snprintf(buf, n, "%gGT/s x%u", l->sta_gts, l->sta_width);
	else
		snprintf(buf, n, "%gGT/s x%u of %gGT/s x%u", l->sta_gts, l->sta_width,
			 l->cap_gts, l->cap_width);
}

/* "LEAD text", folded at word boundaries to stay within 100 columns. */
static void
print_folded(FILE *f, const char *lead, const char *text)
{
	int col = fprintf(f, "%s", lead), indent = 4;
	while (*text) {
		text += strspn(text, " ");
		size_t w = strcspn(text, " ");
		if (!w)
			break;
		if (col + 1 + (int)w > 100 && col > indent)
			col = fprintf(f, "\n%*s%.*s", indent, "", (int)w, text) - 1;
		else
			col += fprintf(f, " %.*s", (int)w, text);
		text += w;
	}
	fputc('\n', f);
}

/* "  ! sda: text", folded likewise. */
static void
print_wrapped(FILE *f, const char *who, const char *text)
{
	char lead[48];
	snprintf(lead, sizeof lead, "  ! %.32s:", who);
	print_folded(f, lead, text);
}

static const char *
model_text(const struct drive *d)
{
	return d->model[0] ? d->model : (d->backing[0] ? d->backing : "?");
}

/* The model column is as wide as the longest model up to 20 (the table fits
 * 100 columns; most ATA models fit, "WDC WD40EZRX-00SPEB0" is 20).  A longer
 * one is cut with a '~' where it was cut, a backing file's path keeps its
 * end (the file name); `list --json` has them whole. */
#define MODEL_MAX 20
static int
model_width(const struct inventory *inv)
{
	int w = 5;
	for (size_t i = 0; i < inv->n_drv; i++) {
		int l = (int)strlen(model_text(&inv->drv[i]));
		if (l > w)
			w = l;
	}
	return w > MODEL_MAX ? MODEL_MAX : w;
}

static void
model_cell(const struct drive *d, int mw, char *buf, size_t n)
{
	const char *m = model_text(d);
	int l = (int)strlen(m);
	if (l <= mw)
		snprintf(buf, n, "%.*s", mw, m);
	else if (!d->model[0] && d->backing[0])
		snprintf(buf, n, "~%s", m + l - (mw - 1));
	else
		snprintf(buf, n, "%.*s~", mw - 1, m);
}

/* A controller's name after its id and address, folded at a space so the
 * line stays within 100 columns (never cut inside a word). */
static void
print_ctrl_name(FILE *f, int col, const char *name)
{
	int room = 100 - col;
	while ((int)strlen(name) > room) {
		int cut = room;
		while (cut > 0 && name[cut] != ' ')
			cut--;
		if (cut == 0)
			break;	/* one word longer than the line: printed whole */
		fprintf(f, "%.*s\n%*s", cut, name, 7, "");
		name += cut + 1;
		room = 100 - 7;
	}
	fprintf(f, "%s\n", name);
}

/* An NVMe drive's health log and limits, on one line under its row. */
static void
print_nvme(FILE *f, const struct drive *d)
{
	const struct nvme_info *nv = &d->nvme;
	const struct nvme_health *h = &nv->health;
	char a[24], b[24], c[24], e[24], u[24], p[24], w[24], k[24], line[400];
	if (!h->known) {
		snprintf(line, sizeof line, "NVMe health: %s", h->reason[0] ? h->reason : "not read");
		print_wrapped(f, d->name, line);
		return;
	}
	snprintf(w, sizeof w, "unknown");
	if (nv->warning_temp_c.known)
		snprintf(w, sizeof w, "%lldC", (long long)nv->warning_temp_c.v);
	snprintf(k, sizeof k, "unknown");
	if (nv->critical_temp_c.known)
		snprintf(k, sizeof k, "%lldC", (long long)nv->critical_temp_c.v);
	/* two lines: the table stays within 100 columns */
	fprintf(f, "    nvme health: spare %s%% (threshold %s%%), used %s%%, media errors %s, "
		"unsafe shutdowns %s, %s h\n"
		"    nvme limits: warning %s, critical %s; self-test %s\n",
		known_fmt_u64(&h->available_spare, "%llu", NULL, a, sizeof a),
		known_fmt_u64(&h->spare_threshold, "%llu", NULL, b, sizeof b),
		known_fmt_u64(&h->percent_used, "%llu", NULL, c, sizeof c),
		known_fmt_u64(&h->media_errors, "%llu", NULL, e, sizeof e),
		known_fmt_u64(&h->unsafe_shutdowns, "%llu", NULL, u, sizeof u),
		known_fmt_u64(&h->power_on_hours, "%llu", NULL, p, sizeof p), w, k,
		!nv->selftest_supported.known ? "unknown" :
		nv->selftest_supported.v ? "supported" : "not supported (OACS)");
	if (h->critical_warning.known && h->critical_warning.v) {
		char t[160];
		snprintf(line, sizeof line, "NVMe critical warning 0x%02llx: %s",
			 (unsigned long long)h->critical_warning.v,
			 nvme_crit_text(h->critical_warning.v, t, sizeof t));
		print_wrapped(f, d->name, line);
	}
	const struct nvme_st_entry *st = nvme_st_failed(nv);
	if (st) {
		char at[80];
		snprintf(line, sizeof line, "NVMe self-test %s at %llu h: %s (%u in the log)",
			 nvme_st_result_text(st->result), (unsigned long long)st->power_on_hours,
			 nvme_st_where(st, at, sizeof at), nv->n_selftest);
		print_wrapped(f, d->name, line);
	}
}

/* A SCSI drive's format and health lines (inventory/scsi-text.c); a line
 * that calls for action is a "!" line. */
static void
print_scsi(FILE *f, const struct drive *d)
{
	struct scsi_line l[2];
	size_t n = scsi_text_lines(&d->scsi, d->scsi.sg_node[0] ? d->scsi.sg_node : d->path, l, 2);
	for (size_t i = 0; i < n; i++) {
		if (l[i].level == SCSI_LINE_FAIL || l[i].level == SCSI_LINE_WARN)
			print_wrapped(f, d->name, l[i].text);
		else
			print_folded(f, "    scsi:", l[i].text);
	}
}

static void
print_drive(FILE *f, const struct drive *d, int mw)
{
	char cap[16], rot[16], smart[16], temp[8] = "", acc[48], model[MODEL_MAX + 2];
	fmt_capacity(&d->capacity_bytes, cap, sizeof cap);
	fmt_rotation(d, rot, sizeof rot);
	fmt_smart(d, smart, sizeof smart);
	if (d->ata.smart.known && d->ata.smart.temperature_c.known)
		snprintf(temp, sizeof temp, "%.0fC", d->ata.smart.temperature_c.v);
	else if (d->transport == TR_NVME && d->nvme.health.temperature_c.known)
		snprintf(temp, sizeof temp, "%lldC", (long long)d->nvme.health.temperature_c.v);
	else if (d->scsi.health.temperature_c.known && d->transport != TR_SATA)
		snprintf(temp, sizeof temp, "%lldC", (long long)d->scsi.health.temperature_c.v);
	access_text(d, acc, sizeof acc);
	model_cell(d, mw, model, sizeof model);
	fprintf(f, "  %-8.8s %-*.*s %7s %-4s %-8s %-4s %-8s %-9s %3s",
		d->name, mw, mw, model, cap, sector_label(d), rot, trim_label(d),
		smr_verdict_name(d->smr.verdict), smart, temp);
	if (d->access != ACC_OK && d->access != ACC_UNCHECKED)
		fprintf(f, " %s", acc);
	else if (d->virtual_dev)
		fprintf(f, " virtual");
	fputc('\n', f);
	if (d->transport == TR_NVME)
		print_nvme(f, d);
	else if (drive_scsi_class(d))
		print_scsi(f, d);
	inventory_print_prov(f, d);
	for (size_t i = 0; i < d->warnings.n; i++)
		print_wrapped(f, d->name, d->warnings.v[i]);
}

static void
print_header(FILE *f, int mw)
{
	/* ACCESS: what the row ends with (virtual, or why it could not be opened) */
	fprintf(f, "  %-8s %-*s %7s %-4s %-8s %-4s %-8s %-9s %3s %s\n", "DRIVE", mw, "MODEL", "SIZE",
		"SECT", "ROTATION", "TRIM", "SMR", "SMART", "TMP", "ACCESS");
}

void
inventory_print(FILE *f, const struct inventory *inv)
{
	bool *shown = inv->n_drv ? calloc(inv->n_drv, sizeof *shown) : NULL;
	int mw = model_width(inv);
	for (size_t c = 0; c < inv->n_ctrl; c++) {
		const struct controller *k = &inv->ctrl[c];
		char link[48];
		fmt_link(&k->link, link, sizeof link);
		print_ctrl_name(f, fprintf(f, "%s  %s  ", k->id, k->address), k->name[0] ? k->name : "?");
		fprintf(f, "       %s, %s", k->class_name[0] ? k->class_name : "?",
			k->driver[0] ? k->driver : k->driver_known ? "no driver" : "driver unknown");
		fprintf(f, ", %s", link);
		if (k->link.known)
			fprintf(f, ", ceiling %.0f MB/s", k->link.ceiling_mbps);
		if (k->narrowest.known && k->narrowest_at[0] && strcmp(k->narrowest_at, k->address) &&
		    k->narrowest.ceiling_mbps < k->link.ceiling_mbps)
			fprintf(f, ", narrowest on path %.0f MB/s at %s", k->narrowest.ceiling_mbps,
				k->narrowest_at);
		fputc('\n', f);
		if (k->link.known && k->link.downgraded)
			fprintf(f, "  ! %s: link downgraded: trained at %gGT/s x%u, capable of %gGT/s x%u\n",
				k->id, k->link.sta_gts, k->link.sta_width, k->link.cap_gts,
				k->link.cap_width);
		bool any = false;
		for (size_t i = 0; i < inv->n_drv; i++) {
			if (inv->drv[i].controller != (int)c)
				continue;
			if (!any)
				print_header(f, mw);
			any = true;
			print_drive(f, &inv->drv[i], mw);
			if (shown)
				shown[i] = true;
		}
		if (!any)
			fprintf(f, "  (no drives)\n");
		fputc('\n', f);
	}
	bool any = false;
	for (size_t i = 0; i < inv->n_drv; i++) {
		if (shown && shown[i])
			continue;
		if (!any) {
			fprintf(f, "%s\n", inv->n_ctrl ? "other drives (no PCI controller found)" : "drives");
			print_header(f, mw);
		}
		any = true;
		print_drive(f, &inv->drv[i], mw);
	}
	if (!inv->n_drv)
		fprintf(f, "no drives found\n");
	free(shown);

}
