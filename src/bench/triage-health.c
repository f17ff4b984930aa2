/* triage-health.c - the triage rules on a drive's health beyond ATA SMART:
 * the NVMe health log (critical warning, spare below its threshold, wear,
 * media errors that grew, temperature), and a physical drive whose health
 * could not be read at all, which is said and warned of: a drive triage
 * knows nothing about is never a silent PASS. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "bench/triage-int.h"



static void
nvme_evidence(const struct nvme_health *h, struct strlist *ev)
{
	char cw[160], sp[24], th[24], pu[24], me[24];
	if (h->critical_warning.known) {
		char names[128];
		nvme_crit_text(h->critical_warning.v, names, sizeof(names));
		snprintf(cw, sizeof(cw), "0x%02" PRIx64 "%s%s%s", h->critical_warning.v,
			 names[0] ? " (" : " (none)", names, names[0] ? ")" : "");
	} else {
		snprintf(cw, sizeof(cw), "unknown");
	}
	strlist_addf(ev, "NVMe health: critical warning %s, available spare %s (threshold %s), percentage used %s, "
		     "media errors %s", cw, known_fmt_u64(&h->available_spare, "%llu%%", NULL, sp, sizeof(sp)),
		     known_fmt_u64(&h->spare_threshold, "%llu%%", NULL, th, sizeof(th)),
		     known_fmt_u64(&h->percent_used, "%llu%%", NULL, pu, sizeof(pu)),
		     known_fmt_u64(&h->media_errors, "%llu", NULL, me, sizeof(me)));
}

/* The NVMe rules on the health after the reads (y), with the one before
 * (x, NULL unread) for what grew. */
static void
nvme_judge(const struct nvme_health *x, const struct nvme_health *y, const struct tri_health_rules *r,
	   bool smart_temp, enum verdict_level *lv, char *why, size_t wn, struct strlist *ev)
{
	nvme_evidence(y, ev);
	enum verdict_level to;
	if (y->critical_warning.known && y->critical_warning.v && (to = triage_rule_level(r->critical))) {
		char names[128];
		nvme_crit_text(y->critical_warning.v, names, sizeof(names));
		triage_raise(lv, to);
		triage_add_reason(why, wn, "NVMe critical warning 0x%02" PRIx64 ": %s (--nvme-critical)",
				  y->critical_warning.v, names[0] ? names : "reserved bits");
	}
	if (y->available_spare.known && y->spare_threshold.known &&
	    y->available_spare.v < y->spare_threshold.v && (to = triage_rule_level(r->spare))) {
		triage_raise(lv, to);
		triage_add_reason(why, wn, "NVMe available spare %" PRIu64 "%% below its threshold %" PRIu64
				  "%% (--nvme-spare)", y->available_spare.v, y->spare_threshold.v);
	}
	if (r->max_wear > 0 && y->percent_used.known && (double)y->percent_used.v >= r->max_wear) {
		triage_raise(lv, VL_WARN);
		triage_add_reason(why, wn, "NVMe percentage used %" PRIu64 "%% (--max-wear %.0f%%)",
				  y->percent_used.v, r->max_wear);
	}
	if (x && x->media_errors.known && y->media_errors.known)
		strlist_addf(ev, "NVMe media errors before -> after: %" PRIu64 "->%" PRIu64, x->media_errors.v,
			     y->media_errors.v);
	if ((to = triage_rule_level(r->media)) && y->media_errors.known) {
		if (x && x->media_errors.known && y->media_errors.v > x->media_errors.v) {
			triage_raise(lv, to);
			triage_add_reason(why, wn, "NVMe media errors grew by %" PRIu64 " during the test (--nvme-media-errors)",
					  y->media_errors.v - x->media_errors.v);
		} else if (y->media_errors.v) {
			triage_raise(lv, VL_WARN);
			triage_add_reason(why, wn, "NVMe media errors: %" PRIu64, y->media_errors.v);
		}
	}
	if (smart_temp)		/* ATA SMART judged it already */
		return;
	if (y->temperature_c.known) {
		strlist_addf(ev, "temperature: %" PRId64 " C (limit %.0f C)", y->temperature_c.v, r->max_temp);
		if ((double)y->temperature_c.v > r->max_temp) {
			triage_raise(lv, VL_FAIL);
			triage_add_reason(why, wn, "too warm: %" PRId64 " C (limit %.0f C)", y->temperature_c.v,
					  r->max_temp);
		}
	} else {
		strlist_add(ev, "temperature: not reported");
	}
}

void
triage_health_judge(const struct tri_snap *b, const struct tri_snap *a, const struct tri_health_rules *r,
		    enum verdict_level *lv, char *why, size_t wn, struct strlist *ev)
{
	bool smart = b->smart && a->smart;
	if (a->nvme || b->nvme) {
		const struct tri_snap *y = a->nvme ? a : b;
		nvme_judge(y == a && b->nvme ? &b->nh : NULL, &y->nh, r, smart, lv, why, wn, ev);
		return;
	}
	if (a->scsi || b->scsi) {
		const struct tri_snap *y = a->scsi ? a : b;
		triage_scsi_judge(y == a && b->scsi ? &b->sh : NULL, &y->sh, r, lv, why, wn, ev);
		return;
	}
	if (smart || r->optional || !(a->physical || b->physical))
		return;
	/* the NVMe or SCSI reader's reason for such a drive, else ATA SMART's */
	const struct tri_snap *s = !b->smart ? b : a;
	const char *rs = s->nh.reason[0] && strcmp(s->nh.reason, "not an NVMe drive") ? s->nh.reason :
			 s->sh.reason[0] && strcmp(s->sh.reason, "not a SCSI drive") &&
				 strcmp(s->sh.reason, "no SCSI health source") ? s->sh.reason :
			 s->reason[0] ? s->reason : "not read";
	triage_raise(lv, VL_WARN);
	triage_add_reason(why, wn, "health not read: %s (--health-optional on: no warning)", rs);
}
