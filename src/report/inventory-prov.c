/* inventory-prov.c - a drive's provenance (FARM log against SMART) and
 * hidden capacity (HPA, DCO) in the inventory's JSON and text (farm.h).
 * null where the drive was not asked (not an ATA drive, no answer); an
 * unknown answer is {"known": false, "reason": ...}. */
#include <stdio.h>
#include "report/doc.h"
#include "report/text.h"

/* whether there is anything to say: an ATA drive that answered (a sim
 * model without [provenance] says nothing) */
static bool
asked(const struct drive *d)
{
	const struct ata_info *a = &d->ata;
	return a->state == ATA_OK && (a->farm.known || a->farm.reason[0] || a->hidden.known ||
				      a->hidden.reason[0]);
}

struct json_object *
doc_provenance(const struct drive *d)
{
	if (!asked(d))
		return NULL;
	const struct farm_info *f = &d->ata.farm;
	struct json_object *o = json_object_new_object(), *h;
	json_object_object_add(o, "known", json_object_new_boolean(f->known));
	if (!f->known) {
		json_object_object_add(o, "reason", doc_str(f->reason[0] ? f->reason : "not read"));
		return o;
	}
	char msg[256];
	const struct known_u64 *s9 = d->ata.smart.known ? &d->ata.smart.power_on_hours : NULL;
	const char *serial = d->ata.id.serial[0] ? d->ata.id.serial : d->serial;
	int c = farm_compare(f, s9, "SMART 9", serial, msg, sizeof msg);
	json_object_object_add(o, "source", doc_str(f->source));
	json_object_object_add(o, "serial", doc_str(f->serial));
	json_object_object_add(o, "model", doc_str(f->model));
	json_object_object_add(o, "firmware", doc_str(f->firmware));
	json_object_object_add(o, "assembly_yyww", doc_str(f->assembly));
	json_object_object_add(o, "power_on_hours", doc_known_u64(&f->power_on_hours));
	json_object_object_add(o, "spindle_hours", doc_known_u64(&f->spindle_hours));
	json_object_object_add(o, "head_flight_hours", doc_known_u64(&f->head_flight_hours));
	json_object_object_add(o, "power_cycles", doc_known_u64(&f->power_cycles));
	json_object_object_add(o, "heads", doc_known_u64(&f->heads));
	h = json_object_new_array();
	for (unsigned i = 0; i < f->n_head_hours; i++)
		json_object_array_add(h, doc_known_u64(&f->head_hours[i]));
	json_object_object_add(o, "head_hours", h);
	json_object_object_add(o, "smart_power_on_hours", s9 ? doc_known_u64(s9) : NULL);
	json_object_object_add(o, "mismatch", c ? doc_str(msg) : NULL);
	return o;
}

struct json_object *
doc_hidden_capacity(const struct drive *d)
{
	if (!asked(d))
		return NULL;
	const struct hidden_capacity *h = &d->ata.hidden;
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "known", json_object_new_boolean(h->known));
	json_object_object_add(o, "reason", doc_str(h->reason));
	json_object_object_add(o, "reported_sectors", doc_known_u64(&h->reported));
	json_object_object_add(o, "native_sectors", doc_known_u64(&h->native));
	json_object_object_add(o, "dco_sectors", doc_known_u64(&h->dco));
	json_object_object_add(o, "hidden_sectors", doc_known_u64(&h->hidden));
	json_object_object_add(o, "source", doc_str(h->source));
	return o;
}

void
inventory_print_prov(FILE *f, const struct drive *d)
{
	if (!asked(d))
		return;
	char line[400];
	const struct known_u64 *s9 = d->ata.smart.known ? &d->ata.smart.power_on_hours : NULL;
	farm_text(&d->ata.farm, s9, d->ata.id.serial[0] ? d->ata.id.serial : d->serial, line, sizeof line);
	fprintf(f, "    %s\n", line);
	fprintf(f, "    %s\n", hpa_text(&d->ata.hidden, line, sizeof line));
}
