/* wear.c - the SSD wear figure of a drive (wear.h): one percentage used,
 * known or unknown with the reason, and the bytes written. */
#include <stdio.h>
#include <string.h>
#include "inventory/inventory.h"
#include "inventory/nvme.h"
#include "inventory/wear.h"

#define NVME_DATA_UNIT 512000ULL	/* 1000 x 512 bytes */

void
wear_unknown(struct drive_wear *w, const char *reason)
{
	memset(w, 0, sizeof *w);
	snprintf(w->reason, sizeof w->reason, "%s", reason);
}

void
wear_from_nvme(const struct nvme_health *h, struct drive_wear *w)
{
	wear_unknown(w, h->known ? "no percentage used in the health log" :
		     h->reason[0] ? h->reason : "health log not read");
	if (!h->known)
		return;
	if (h->percent_used.known) {
		w->percent_used = h->percent_used;
		snprintf(w->source, sizeof w->source, "NVMe percentage used");
		w->reason[0] = 0;
	}
	if (h->data_units_written.known && h->data_units_written.v <= UINT64_MAX / NVME_DATA_UNIT) {
		KNOWN_SET(w->bytes_written, h->data_units_written.v * NVME_DATA_UNIT);
		snprintf(w->written_source, sizeof w->written_source, "NVMe data units written");
	}
}

/* The wear attributes by preference: the ones that mean life left on most
 * drives first.  Each counts down from 100 in its normalized value. */
static const struct {
	unsigned id;
	const char *name;
} wear_attrs[] = {
	{ 231, "SSD life left" }, { 233, "media wearout indicator" }, { 177, "wear leveling count" },
};

void
wear_from_smart(const struct smart_attr *a, size_t n, bool ssd, struct drive_wear *w)
{
	wear_unknown(w, ssd ? "no SMART wear attribute (177, 231, 233)" : "not an SSD");
	if (!ssd)
		return;
	for (size_t k = 0; k < sizeof wear_attrs / sizeof wear_attrs[0] && !w->percent_used.known; k++)
		for (size_t i = 0; i < n; i++) {
			if (a[i].id != wear_attrs[k].id || !a[i].value.known || a[i].value.v > 100)
				continue;
			KNOWN_SET(w->percent_used, 100 - a[i].value.v);
			snprintf(w->source, sizeof w->source, "SMART %u %s", wear_attrs[k].id, wear_attrs[k].name);
			w->reason[0] = 0;
			break;
		}
	/* 241 Total LBAs Written: most vendors count 512-byte sectors (some
	 * count larger units: the source says what was assumed) */
	for (size_t i = 0; i < n; i++)
		if (a[i].id == 241 && a[i].raw <= UINT64_MAX / 512) {
			KNOWN_SET(w->bytes_written, a[i].raw * 512);
			snprintf(w->written_source, sizeof w->written_source, "SMART 241 x 512 bytes");
		}
}

const char *
wear_text(const struct drive_wear *w, char *buf, size_t n)
{
	char wr[48] = "";
	if (w->bytes_written.known) {
		double b = (double)w->bytes_written.v;
		snprintf(wr, sizeof wr, ", %.1f %s written", b >= 1e12 ? b / 1e12 : b / 1e9, b >= 1e12 ? "TB" : "GB");
	}
	if (w->percent_used.known)
		snprintf(buf, n, "%llu%% used (%s)%s", (unsigned long long)w->percent_used.v, w->source, wr);
	else
		snprintf(buf, n, "unknown (%s)%s", w->reason[0] ? w->reason : "not read", wr);
	return buf;
}

void
wear_of_drive(const struct drive *d, struct drive_wear *w)
{
	if (d->transport == TR_NVME)
		wear_from_nvme(&d->nvme.health, w);
	else if (d->ata.state == ATA_OK && d->ata.smart.known)
		wear_from_smart(d->ata.smart.attrs, d->ata.smart.n_attrs,
				d->ata.id.ssd || (d->rotation_rpm.known && !d->rotation_rpm.v), w);
	else
		wear_unknown(w, d->ata.state == ATA_NOT_ATA ? "not an ATA or NVMe drive" :
			     d->ata.smart.reason[0] ? d->ata.smart.reason : "SMART not read");
}
