/* scsi-text.c - the words `list` and the details panel show under a SCSI
 * drive: its block format (and the command that fixes a 520/528-byte one),
 * rotation and temperature, then the health pages' counters.  One source
 * for both views, so that they say the same thing. */
#include <stdio.h>
#include <string.h>
#include "inventory/scsi.h"

#define U(k) ((unsigned long long)(k).v)

static void
u64_or(char *buf, size_t n, const struct known_u64 *k)
{
	if (k->known)
		snprintf(buf, n, "%llu", (unsigned long long)k->v);
	else
		snprintf(buf, n, "unknown");
}

static void
format_line(const struct scsi_info *s, const char *node, struct scsi_line *l)
{
	char rot[32] = "rotation unknown", temp[40] = "temperature unknown";
	const struct scsi_health *h = &s->health;
	if (s->rotation_rpm.known)
		snprintf(rot, sizeof rot, s->rotation_rpm.v ? "%llu rpm" : "non-rotating",
			 U(s->rotation_rpm));
	if (h->temperature_c.known && h->trip_temperature_c.known)
		snprintf(temp, sizeof temp, "%lld C (trip %lld C)", (long long)h->temperature_c.v,
			 (long long)h->trip_temperature_c.v);
	else if (h->temperature_c.known)
		snprintf(temp, sizeof temp, "%lld C", (long long)h->temperature_c.v);
	char fmt[200];
	l->level = SCSI_LINE_OK;
	switch (s->format) {
	case SCSI_FMT_NEEDS_FORMAT:
		snprintf(fmt, sizeof fmt, "%llu-byte blocks: %s: sg_format --format --size=512 %s",
			 U(s->logical_bytes), scsi_format_text(s->format), node && *node ? node : "DEVICE");
		l->level = SCSI_LINE_FAIL;
		break;
	case SCSI_FMT_PI:
		snprintf(fmt, sizeof fmt, "%llu-byte blocks with protection type %llu, %s",
			 U(s->logical_bytes), U(s->protection_type), scsi_format_text(s->format));
		break;
	case SCSI_FMT_OK:
		if (s->physical_exp.known && s->physical_exp.v)
			snprintf(fmt, sizeof fmt, "%llu-byte blocks (%llu-byte physical), %s",
				 U(s->logical_bytes), U(s->logical_bytes) << (s->physical_exp.v & 15),
				 scsi_format_text(s->format));
		else
			snprintf(fmt, sizeof fmt, "%llu-byte blocks, %s", U(s->logical_bytes),
				 scsi_format_text(s->format));
		break;
	default:
		snprintf(fmt, sizeof fmt, "format unknown");
	}
	snprintf(l->text, sizeof l->text, "%s; %s; %s", fmt, rot, temp);
}

static void
health_line(const struct scsi_info *s, struct scsi_line *l)
{
	const struct scsi_health *h = &s->health;
	char g[24], r[24], w[24], v[24], ie[140], st[96];
	u64_or(g, sizeof g, &h->grown_defects);
	u64_or(r, sizeof r, &h->read_uncorrected);
	u64_or(w, sizeof w, &h->write_uncorrected);
	u64_or(v, sizeof v, &h->verify_uncorrected);
	bool errs = (h->read_uncorrected.known && h->read_uncorrected.v) ||
		    (h->write_uncorrected.known && h->write_uncorrected.v) ||
		    (h->verify_uncorrected.known && h->verify_uncorrected.v);
	bool raised = h->ie_asc.known && h->ie_asc.v;
	bool failed = h->selftest_failed.known && h->selftest_failed.v;
	if (!h->ie_asc.known)
		snprintf(ie, sizeof ie, "IE unknown");
	else if (!raised)
		snprintf(ie, sizeof ie, "IE none");
	else
		snprintf(ie, sizeof ie, "IE %s (ASC %02llx/%02llx)", h->ie_text[0] ? h->ie_text : "raised",
			 U(h->ie_asc), U(h->ie_ascq));
	if (!h->selftest_entries.known)
		snprintf(st, sizeof st, "self-test unknown");
	else if (!h->selftest_last_result.known)
		snprintf(st, sizeof st, "no self-test run");
	else if (h->selftest_last_lba.known)
		snprintf(st, sizeof st, "self-test %s at LBA %llu (%llu failed)",
			 scsi_selftest_result_text(h->selftest_last_result.v), U(h->selftest_last_lba),
			 U(h->selftest_failed));
	else
		snprintf(st, sizeof st, "self-test %s (%llu failed)",
			 scsi_selftest_result_text(h->selftest_last_result.v), U(h->selftest_failed));
	snprintf(l->text, sizeof l->text,
		 "grown defects %s, uncorrected errors read %s write %s verify %s, %s, %s",
		 g, r, w, v, ie, st);
	l->level = raised || failed ? SCSI_LINE_FAIL :
		   errs || (h->grown_defects.known && h->grown_defects.v) ? SCSI_LINE_WARN :
		   SCSI_LINE_OK;
}

size_t
scsi_text_lines(const struct scsi_info *s, const char *node, struct scsi_line *out, size_t max)
{
	size_t n = 0;
	if (max < 2)
		return 0;
	if (!s->known) {
		snprintf(out[n].text, sizeof out[n].text, "SCSI: unknown (%s)",
			 s->reason[0] ? s->reason : "not read");
		out[n++].level = SCSI_LINE_UNKNOWN;
		return n;
	}
	format_line(s, node, &out[n++]);
	if (s->health.known) {
		health_line(s, &out[n++]);
	} else {
		snprintf(out[n].text, sizeof out[n].text, "health unknown (%s)",
			 s->health.reason[0] ? s->health.reason : "not read");
		out[n++].level = SCSI_LINE_UNKNOWN;
	}
	return n;
}
