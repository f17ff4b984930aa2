/* triage-provenance.c - the triage rules on where a drive has been: its
 * FARM log against SMART (a used drive sold as new: SMART 9 reset, FARM
 * still counting; a FARM serial that is not the drive's), and the sectors
 * an HPA or DCO hides (a test scans only what the drive shows).  Both WARN
 * with their figures (--provenance warn|off); an unknown one is said in the
 * evidence with its reason. */
#include <stdio.h>
#include <string.h>
#include "bench/triage-int.h"
#include "inventory/inventory.h"

static const char *const warn_off[] = { "warn", "off", NULL };
const struct bench_param triage_bp_provenance = {
	.name = "provenance", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "warn|off",
	.help = "FARM log against SMART (hours, serial) and hidden capacity (HPA, DCO): warn or off",
	.bad = "one of warn, off", .choices = warn_off, .def = 0,
};

void
triage_prov_snap(struct tri_snap *s, const struct drive *d)
{
	s->prov = d->ata.state == ATA_OK;
	if (!s->prov)
		return;
	s->farm = d->ata.farm;
	s->hidden = d->ata.hidden;
	s->smart_poh = d->ata.smart.known ? d->ata.smart.power_on_hours : (struct known_u64){ 0 };
	snprintf(s->serial, sizeof s->serial, "%s", d->ata.id.serial[0] ? d->ata.id.serial : d->serial);
}

/* "23,114 h", "unknown" */
static const char *
hours(const struct known_u64 *h, char *buf, size_t n)
{
	char d[32];
	if (!h->known)
		snprintf(buf, n, "unknown");
	else
		snprintf(buf, n, "%s h", farm_thousands(h->v, d, sizeof d));
	return buf;
}

static void
farm_line(const struct farm_info *f, struct strlist *ev)
{
	char poh[32], sp[32], hf[32];
	strlist_addf(ev, "FARM (%s): power-on %s, spindle %s, head flight %s, serial %s, model %s%s%s",
		     f->source, hours(&f->power_on_hours, poh, sizeof poh),
		     hours(&f->spindle_hours, sp, sizeof sp), hours(&f->head_flight_hours, hf, sizeof hf),
		     f->serial[0] ? f->serial : "not in the log", f->model[0] ? f->model : "not in the log",
		     f->assembly[0] ? ", assembled (YYWW) " : "", f->assembly);
}

void
triage_prov_judge(const struct tri_snap *b, const char *rule, enum verdict_level *lv, char *why, size_t wn,
		  struct strlist *ev)
{
	if (!b->prov)
		return;
	bool on = strcmp(rule, "off") != 0;
	if (b->farm.known) {
		char msg[256];
		farm_line(&b->farm, ev);
		if (farm_compare(&b->farm, &b->smart_poh, "SMART 9", b->serial, msg, sizeof msg)) {
			strlist_addf(ev, "FARM mismatch: %s", msg);
			if (on) {
				if (*lv < VL_WARN)
					*lv = VL_WARN;
				triage_add_reason(why, wn, "FARM mismatch: %s (--provenance)", msg);
			}
		}
	} else if (b->farm.reason[0]) {	/* a sim model without [provenance] says nothing */
		strlist_addf(ev, "FARM: unknown (%s)", b->farm.reason);
	}
	char hc[256];
	if (b->hidden.known || b->hidden.reason[0])
		strlist_add(ev, hpa_text(&b->hidden, hc, sizeof hc));
	if (b->hidden.known && b->hidden.hidden.v && on) {
		if (*lv < VL_WARN)
			*lv = VL_WARN;
		triage_add_reason(why, wn, "%s: the test scans only the %llu sectors the drive shows (--provenance)", hc,
				  (unsigned long long)b->hidden.reported.v);
	}
}
