/* triage-health-scsi.c - triage's rules on a SCSI/SAS drive's health as its
 * log pages and defect list say it (inventory/scsi.h): the grown defect list
 * (what grew during the test, and an absolute limit: 500 grown defects are
 * bad even when none grew today), uncorrected read/write/verify errors, an
 * informational exception the drive raised, the newest self-test, the
 * temperature; and a drive formatted to 520/528-byte blocks, which no host
 * can use until it is low-level formatted to 512. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "bench/triage-int.h"



static void
scsi_evidence(const struct scsi_health *h, struct strlist *ev)
{
	char gd[24], ru[24], wu[24], vu[24], ie[160];
	if (h->ie_asc.known && (h->ie_asc.v || h->ie_ascq.v))
		snprintf(ie, sizeof ie, "ASC/ASCQ 0x%02" PRIx64 "/0x%02" PRIx64 "%s%s", h->ie_asc.v, h->ie_ascq.v,
			 h->ie_text[0] ? " " : "", h->ie_text);
	else
		snprintf(ie, sizeof ie, "%s", h->ie_asc.known ? "none" : "unknown");
	strlist_addf(ev, "SCSI health: grown defects %s, uncorrected errors read %s write %s verify %s, "
		     "informational exception %s",
		     known_fmt_u64(&h->grown_defects, "%llu", NULL, gd, sizeof gd),
		     known_fmt_u64(&h->read_uncorrected, "%llu", NULL, ru, sizeof ru),
		     known_fmt_u64(&h->write_uncorrected, "%llu", NULL, wu, sizeof wu),
		     known_fmt_u64(&h->verify_uncorrected, "%llu", NULL, vu, sizeof vu), ie);
}

/* grown defects: what grew (x before, y after), and too many at all */
static void
defects_judge(const struct scsi_health *x, const struct scsi_health *y, const struct tri_health_rules *r,
	      enum verdict_level *lv, char *why, size_t wn, struct strlist *ev)
{
	enum verdict_level to;
	bool grew = false;
	if (!y->grown_defects.known)
		return;
	if (x && x->grown_defects.known) {
		strlist_addf(ev, "SCSI grown defects before -> after: %" PRIu64 "->%" PRIu64, x->grown_defects.v,
			     y->grown_defects.v);
		if (y->grown_defects.v > x->grown_defects.v && (to = triage_rule_level(r->defects))) {
			triage_raise(lv, to);
			grew = true;
			triage_add_reason(why, wn, "grown defects +%" PRIu64 " during the test, now %" PRIu64
					  " (--scsi-defects)", y->grown_defects.v - x->grown_defects.v,
					  y->grown_defects.v);
		}
	}
	if (r->max_defects > 0 && (double)y->grown_defects.v > r->max_defects) {
		triage_raise(lv, VL_WARN);
		if (grew)	/* the reason says the count already */
			strlist_addf(ev, "SCSI grown defects %" PRIu64 " over --max-grown-defects %.0f",
				     y->grown_defects.v, r->max_defects);
		else
			triage_add_reason(why, wn, "%" PRIu64 " grown defects (--max-grown-defects %.0f)",
					  y->grown_defects.v, r->max_defects);
	}
}

/* uncorrected errors of one counter page: grew (rule), or any at all (WARN) */
static void
errors_judge(const char *what, const struct known_u64 *x, const struct known_u64 *y,
	     const struct tri_health_rules *r, enum verdict_level *lv, char *why, size_t wn)
{
	enum verdict_level to = triage_rule_level(r->uncorrected);
	if (!y->known || !to)
		return;
	if (x && x->known && y->v > x->v) {
		triage_raise(lv, to);
		triage_add_reason(why, wn, "uncorrected %s errors +%" PRIu64 " during the test (--scsi-errors)",
				  what, y->v - x->v);
	} else if (y->v) {
		triage_raise(lv, VL_WARN);
		triage_add_reason(why, wn, "%" PRIu64 " uncorrected %s errors", y->v, what);
	}
}

void
triage_scsi_judge(const struct scsi_health *x, const struct scsi_health *y, const struct tri_health_rules *r,
		  enum verdict_level *lv, char *why, size_t wn, struct strlist *ev)
{
	enum verdict_level to;
	scsi_evidence(y, ev);
	if (y->ie_asc.known && y->ie_ascq.known && (y->ie_asc.v || y->ie_ascq.v) && (to = triage_rule_level(r->ie))) {
		triage_raise(lv, to);
		triage_add_reason(why, wn, "informational exception %02" PRIX64 "/%02" PRIX64 ": %s (--scsi-ie)",
				  y->ie_asc.v, y->ie_ascq.v, y->ie_text[0] ? y->ie_text : "raised");
	}
	defects_judge(x, y, r, lv, why, wn, ev);
	errors_judge("read", x ? &x->read_uncorrected : NULL, &y->read_uncorrected, r, lv, why, wn);
	errors_judge("write", x ? &x->write_uncorrected : NULL, &y->write_uncorrected, r, lv, why, wn);
	errors_judge("verify", x ? &x->verify_uncorrected : NULL, &y->verify_uncorrected, r, lv, why, wn);
	if (y->selftest_last_result.known && y->selftest_last_result.v >= 3 && y->selftest_last_result.v <= 7) {
		char lba[32];
		triage_raise(lv, VL_FAIL);
		triage_add_reason(why, wn, "SCSI self-test failed (result %" PRIu64 ") at LBA %s",
				  y->selftest_last_result.v,
				  known_fmt_u64(&y->selftest_last_lba, "%llu", NULL, lba, sizeof lba));
	}
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

/* A FORMAT UNIT writes every block: the estimate is capacity at 150 MB/s,
 * a 7200 rpm drive's average sustained write; sg_format shows the progress. */
#define FORMAT_EST_MBPS 150.0

void
triage_format_judge(enum scsi_format fmt, const struct known_u64 *block_bytes,
		    const struct known_u64 *capacity_bytes, const char *name, const char *sg_node,
		    enum verdict_level *lv, char *why, size_t wn, struct strlist *ev)
{
	char bb[24], dev[64];
	known_fmt_u64(block_bytes, "%llu", NULL, bb, sizeof bb);
	if (fmt == SCSI_FMT_PI) {
		strlist_addf(ev, "format: %s-byte blocks with protection information: usable", bb);
		return;
	}
	if (fmt != SCSI_FMT_NEEDS_FORMAT)
		return;
	char est[64] = "unknown (capacity not known)";
	if (capacity_bytes->known) {
		double h = (double)capacity_bytes->v / (FORMAT_EST_MBPS * 1e6) / 3600.0;
		snprintf(est, sizeof est, "about %.1f h (capacity at %.0f MB/s)", h, FORMAT_EST_MBPS);
	}
	if (sg_node && sg_node[0])
		snprintf(dev, sizeof dev, "%s", sg_node);
	else
		snprintf(dev, sizeof dev, "on %s's sg device", name);
	triage_raise(lv, VL_WARN);
	triage_add_reason(why, wn, "%s-byte logical blocks: needs a low-level format to 512 before use", bb);
	strlist_addf(ev, "format: %s-byte logical blocks (READ CAPACITY(16)): no host file system or write test "
		     "can use it; fix: sg_format --format --size=512 %s (erases it), %s", bb, dev, est);
}
