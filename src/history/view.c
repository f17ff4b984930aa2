/* view.c - the rows `diskscope history` prints; see view.h.  The only place
 * that knows the columns of the drive and run queries. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "history/history.h"
#include "history/internal.h"
#include "history/view.h"

#define ALL_DRIVES_SQL \
	"SELECT d.id, d.model, d.serial, d.wwn, d.firmware FROM drive d" \
	" WHERE ?1 IS NULL OR d.model = ?1 ORDER BY d.model, d.id"

struct history_view {
	struct hdb *db;
	struct hst drives, runs;
	bool runs_open;
	time_t since;
	int64_t drive;		/* the drive whose runs history_view_run reads */
};

int
history_view_open(struct history_view **out, const char *key, const char *model, time_t since,
		  char *err, size_t n)
{
	struct history_view *v = calloc(1, sizeof(*v));
	if (!v) {
		snprintf(err, n, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	int rc = history_open_default(&v->db, err, n);
	if (rc) {
		free(v);
		return rc;
	}
	v->since = since;
	hst_init(&v->drives, v->db, key ? HISTORY_DRIVE_SQL : ALL_DRIVES_SQL);
	hst_text(&v->drives, 1, key ? key : model);
	*out = v;
	return 0;
}

static void
copy(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

int
history_view_drive(struct history_view *v, struct history_drive_row *d)
{
	if (v->runs_open) {
		hst_end(&v->runs);
		v->runs_open = false;
	}
	int rc = hst_step(&v->drives);
	if (rc <= 0)
		return rc;
	memset(d, 0, sizeof(*d));
	d->id = hst_i64(&v->drives, 0);
	copy(d->model, sizeof d->model, hst_str(&v->drives, 1));
	copy(d->serial, sizeof d->serial, hst_str(&v->drives, 2));
	copy(d->wwn, sizeof d->wwn, hst_str(&v->drives, 3));
	copy(d->firmware, sizeof d->firmware, hst_str(&v->drives, 4));
	v->drive = d->id;
	hst_init(&v->runs, v->db, HISTORY_RUN_RATE_SQL);
	hst_int(&v->runs, 1, d->id);
	hst_int(&v->runs, 2, (int64_t)v->since);
	v->runs_open = true;
	return 1;
}

/* The drive's own verdict and SMART counts, from its recorded facts. */
static void
run_verdict(struct history_run_row *r, const char *facts_json)
{
	struct json_object *facts = json_tokener_parse(facts_json), *o;
	struct json_object *row = history_verdict_row(facts, r->flags);
	if (row) {
		if (json_object_object_get_ex(row, col_role_key(CR_VERDICT), &o) &&
		    json_object_is_type(o, json_type_string))
			copy(r->verdict, sizeof r->verdict, json_object_get_string(o));
		if (json_object_object_get_ex(row, col_role_key(CR_REASONS), &o) &&
		    json_object_is_type(o, json_type_string) && strcmp(json_object_get_string(o), "-"))
			copy(r->reason, sizeof r->reason, json_object_get_string(o));
		struct known_i64 *k[2] = { &r->reallocated, &r->pending };
		const char *key[2] = { col_role_key(CR_REALLOCATED), col_role_key(CR_PENDING) };
		for (int i = 0; i < 2; i++)
			if (json_object_object_get_ex(row, key[i], &o) && json_object_is_type(o, json_type_int))
				KNOWN_SET(*k[i], json_object_get_int64(o));
	}
	json_object_put(facts);
}

/* The figures of a class's health record, in the order shown: its key in
 * the "health" table, how it reads.  A new class: a line in classes. */
struct hfig {
	const char *key, *label, *unit;
};
static const struct hfig nvme_figs[] = {
	{ "critical_warning", "critical warning", "" }, { "available_spare", "spare", "%" },
	{ "spare_threshold", "threshold", "%" }, { "percent_used", "used", "%" },
	{ "data_units_written", "data units written", "" }, { "media_errors", "media errors", "" },
	{ "temp_c", "temperature", " C" }, { "power_on_hours", "power on", " h" }, { NULL, NULL, NULL },
};
static const struct hfig ata_figs[] = {
	{ "reallocated", "reallocated", "" }, { "pending", "pending", "" }, { "temp_c", "temperature", " C" },
	{ "wear_pct", "wear", "%" }, { "bytes_written", "bytes written", "" }, { NULL, NULL, NULL },
};
/* SCSI: the keys its "health" columns take once triage reads its pages */
static const struct hfig scsi_figs[] = {
	{ "grown_defects", "grown defects", "" }, { "read_uncorrected", "read uncorrected", "" },
	{ "write_uncorrected", "write uncorrected", "" }, { "verify_uncorrected", "verify uncorrected", "" },
	{ "non_medium_errors", "non-medium errors", "" }, { "temp_c", "temperature", " C" },
	{ "power_on_hours", "power on", " h" }, { NULL, NULL, NULL },
};
static const struct {
	const char *cls;
	const struct hfig *figs;
} classes[] = {
	{ "nvme", nvme_figs }, { "ata", ata_figs }, { "scsi", scsi_figs },
};

static void
health_text(struct history_run_row *r, const char *json)
{
	struct json_object *h = json ? json_tokener_parse(json) : NULL, *o;
	if (!h)
		return;
	copy(r->health_json, sizeof r->health_json, json);
	if (json_object_object_get_ex(h, "class", &o) && json_object_is_type(o, json_type_string))
		copy(r->health_class, sizeof r->health_class, json_object_get_string(o));
	const struct hfig *f = NULL;
	for (size_t c = 0; c < sizeof classes / sizeof classes[0]; c++)
		if (!strcmp(classes[c].cls, r->health_class))
			f = classes[c].figs;
	size_t len = 0;
	for (; f && f->key && len < sizeof r->health; f++) {
		char v[48];
		if (!json_object_object_get_ex(h, f->key, &o) || !o)
			snprintf(v, sizeof v, "unknown");
		else if (!strcmp(f->key, "critical_warning"))
			snprintf(v, sizeof v, "0x%02llx", (unsigned long long)json_object_get_int64(o));
		else
			snprintf(v, sizeof v, "%s%s", json_object_get_string(o), f->unit);
		int k = snprintf(r->health + len, sizeof r->health - len, "%s%s %s", len ? ", " : "", f->label, v);
		len += k > 0 ? (size_t)k : 0;
	}
	json_object_put(h);
}

int
history_view_run(struct history_view *v, struct history_run_row *r)
{
	if (!v->runs_open)
		return 0;
	int rc = hst_step(&v->runs);
	if (rc <= 0)
		return rc;
	struct hst *st = &v->runs;
	memset(r, 0, sizeof(*r));
	copy(r->run_id, sizeof r->run_id, hst_str(st, 0));
	r->started = (time_t)hst_i64(st, 1);
	copy(r->test, sizeof r->test, hst_str(st, 2));
	copy(r->target, sizeof r->target, hst_str(st, 3));
	r->mbps = hst_dbl(st, 4);	/* the backend's NULL: unknown */
	r->errors = hst_i64(st, 5);
	r->interrupted = hst_i64(st, 6);
	r->failed = hst_i64(st, 7);
	r->flags = (unsigned)hst_i64(st, 10);
	run_verdict(r, hst_str(st, 9));
	health_text(r, hst_null(st, 11) ? NULL : hst_str(st, 11));
	return 1;
}

int
history_view_peers(struct history_view *v, const char *model, double rate, struct known_dbl *pct)
{
	KNOWN_CLEAR(*pct);
	return history_peers(v->db, model, v->drive, rate, pct);
}

void
history_view_close(struct history_view *v)
{
	if (!v)
		return;
	if (v->runs_open)
		hst_end(&v->runs);
	hst_end(&v->drives);
	history_close(v->db);
	free(v);
}
