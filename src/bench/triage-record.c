/* triage-record.c - each drive's health as triage last read it, in one
 * class-tagged "health" table (a row per drive: its class, the NVMe health
 * log's figures or ATA SMART's, the wear), which the run document and the
 * bench history keep (history/store.c: drive_health).  A class adds its
 * columns here; a figure the class has not is unknown (null). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "bench/triage-int.h"

enum { H_TGT, H_CLASS, H_CW, H_SPARE, H_SPARE_TH, H_USED, H_DUW, H_MEDIA, H_TEMP, H_POH,
       H_REALLOC, H_PENDING, H_WEAR, H_WEAR_SRC, H_WRITTEN, H_GROWN, H_RUNC, H_WUNC, H_VUNC, H_NONMED,
       N_HCOLS };

static const struct result_col hcols[N_HCOLS] = {
	{ "target", "Drive", COL_STR, "", 0 },
	{ "class", "Class", COL_STR, "", 0 },
	{ "critical_warning", "Crit warn", COL_INT, "", 0 },
	{ "available_spare", "Spare", COL_INT, "%", 0 },
	{ "spare_threshold", "Spare thr", COL_INT, "%", 0 },
	{ "percent_used", "Used", COL_INT, "%", 0 },
	{ "data_units_written", "Units written", COL_INT, "", 0 },
	{ "media_errors", "Media err", COL_INT, "", 0 },
	{ "temp_c", "Temp", COL_DBL, "C", 0 },
	{ "power_on_hours", "Power on", COL_INT, "h", 0 },
	{ "reallocated", "Realloc", COL_INT, "", 0 },
	{ "pending", "Pending", COL_INT, "", 0 },
	{ "wear_pct", "Wear", COL_INT, "%", 0 },
	{ "wear_source", "Wear from", COL_STR, "", 0 },
	{ "bytes_written", "Written", COL_BYTES, "", 0 },
	{ "grown_defects", "Grown defects", COL_INT, "", 0 },
	{ "read_uncorrected", "Read uncorr", COL_INT, "", 0 },
	{ "write_uncorrected", "Write uncorr", COL_INT, "", 0 },
	{ "verify_uncorrected", "Verify uncorr", COL_INT, "", 0 },
	{ "non_medium_errors", "Non-medium", COL_INT, "", 0 },
};

static void
set_u64(struct result_table *tb, size_t row, size_t col, struct known_u64 v)
{
	if (v.known && v.v <= INT64_MAX)
		table_set_int(tb, row, col, (int64_t)v.v);
}

/* The class a snapshot read: "nvme", "scsi", "ata", NULL nothing read. */
static const char *
snap_class(const struct tri_snap *s)
{
	return s->nvme ? "nvme" : s->scsi ? "scsi" : s->smart ? "ata" : NULL;
}

static int
health_row(struct result_table *tb, const char *name, const struct tri_snap *s)
{
	if (table_add_row(tb))
		return -1;
	size_t row = tb->n_rows - 1;
	table_set_str(tb, row, H_TGT, name);
	const char *cls = snap_class(s);
	if (cls)
		table_set_str(tb, row, H_CLASS, cls);
	if (s->nvme) {
		const struct nvme_health *h = &s->nh;
		set_u64(tb, row, H_CW, h->critical_warning);
		set_u64(tb, row, H_SPARE, h->available_spare);
		set_u64(tb, row, H_SPARE_TH, h->spare_threshold);
		set_u64(tb, row, H_USED, h->percent_used);
		set_u64(tb, row, H_DUW, h->data_units_written);
		set_u64(tb, row, H_MEDIA, h->media_errors);
		set_u64(tb, row, H_POH, h->power_on_hours);
		if (h->temperature_c.known)
			table_set_dbl(tb, row, H_TEMP, (double)h->temperature_c.v);
	} else if (s->scsi) {
		const struct scsi_health *h = &s->sh;
		set_u64(tb, row, H_GROWN, h->grown_defects);
		set_u64(tb, row, H_RUNC, h->read_uncorrected);
		set_u64(tb, row, H_WUNC, h->write_uncorrected);
		set_u64(tb, row, H_VUNC, h->verify_uncorrected);
		set_u64(tb, row, H_NONMED, h->non_medium_errors);
		if (h->power_on_minutes.known)
			table_set_int(tb, row, H_POH, (int64_t)(h->power_on_minutes.v / 60));
		if (h->temperature_c.known)
			table_set_dbl(tb, row, H_TEMP, (double)h->temperature_c.v);
	} else if (s->smart) {
		set_u64(tb, row, H_REALLOC, s->attr[0]);	/* triage_smart_ids: 5 */
		set_u64(tb, row, H_PENDING, s->attr[4]);	/* 197 */
		if (s->temp_known)
			table_set_dbl(tb, row, H_TEMP, s->temp_c);
	}
	set_u64(tb, row, H_WEAR, s->wear.percent_used);
	if (s->wear.percent_used.known)
		table_set_str(tb, row, H_WEAR_SRC, s->wear.source);
	set_u64(tb, row, H_WRITTEN, s->wear.bytes_written);
	return 0;
}

int
triage_health_table(struct bench_ctx *c, struct run_result *r)
{
	struct tri_state *S = c->state;
	struct result_table *tb = result_table_add(r, "health", "Drive health as last read: one row per drive",
						   hcols, N_HCOLS);
	if (!tb)
		return -1;
	for (size_t t = 0; t < c->n_targets; t++) {
		const struct tri_snap *s = S->after[t].taken ? &S->after[t] : &S->before[t];
		if (health_row(tb, triage_name(c, t), s))
			return -1;
	}
	return 0;
}

void
triage_wear_evidence(const struct tri_snap *b, const struct tri_snap *a, struct strlist *ev)
{
	const struct tri_snap *s = a->taken ? a : b;
	char t[200];
	if (!s->nvme && !s->smart)
		return;		/* nothing read: the health rules say so */
	strlist_addf(ev, "wear: %s", wear_text(&s->wear, t, sizeof(t)));
}

int
triage_recorded_wear(const struct run_result *r, const char *target, struct drive_wear *w)
{
	wear_unknown(w, "not recorded");
	for (size_t i = 0; r && i < r->n_tables; i++) {
		struct result_table *t = &r->tables[i];
		int ct = table_col(t, CR_TARGET), cw = table_col_named(t, "wear_pct");
		int cs = table_col_named(t, "wear_source");
		int cb = table_col_named(t, "bytes_written");
		if (strcmp(t->name, "health") || ct < 0 || cw < 0 || cs < 0 || cb < 0)
			continue;
		for (size_t row = 0; row < t->n_rows; row++) {
			const struct result_cell *c = table_cell(t, row, (size_t)ct);
			if (!c->s || strcmp(c->s, target))
				continue;
			c = table_cell(t, row, (size_t)cw);
			if (c->i.known && c->i.v >= 0) {
				KNOWN_SET(w->percent_used, (uint64_t)c->i.v);
				w->reason[0] = 0;
				c = table_cell(t, row, (size_t)cs);
				snprintf(w->source, sizeof(w->source), "%s", c->s ? c->s : "recorded");
			} else {
				snprintf(w->reason, sizeof(w->reason), "the drive reported no wear");
			}
			c = table_cell(t, row, (size_t)cb);
			if (c->i.known && c->i.v >= 0)
				KNOWN_SET(w->bytes_written, (uint64_t)c->i.v);
			return 0;
		}
	}
	return -ENOENT;
}
