/* query.c - what other parts ask of the history: a run's stored document,
 * the runs of a day, a drive's summary against its model, a model's rates. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>
#include "history/db.h"
#include "history/history.h"
#include "history/internal.h"

/* Latest good reference read rate (?2: TEST_REF_READ) of each drive of a
 * model (?1). */
#define PEERS_SQL \
	"SELECT rt.drive, (SELECT avg(s.mbps) FROM step_result s WHERE s.run = r.id AND s.target = rt.target)" \
	" FROM run r JOIN run_target rt ON rt.run = r.id JOIN drive d ON d.id = rt.drive" \
	" WHERE d.model = ?1 AND (r.flags & ?2) <> 0 AND r.interrupted = 0 AND r.failed = 0" \
	" AND r.id = (SELECT max(r2.id) FROM run r2 JOIN run_target t2 ON t2.run = r2.id" \
	"  WHERE t2.drive = rt.drive AND (r2.flags & ?2) <> 0 AND r2.interrupted = 0 AND r2.failed = 0)"

int
history_peers(struct hdb *db, const char *model, int64_t self, double rate, struct known_dbl *pct)
{
	struct hst st;
	int n = 0, rc;
	double below = 0;

	hst_init(&st, db, PEERS_SQL);
	hst_text(&st, 1, model);
	hst_int(&st, 2, TEST_REF_READ);
	while ((rc = hst_step(&st)) > 0) {
		struct known_dbl v = hst_dbl(&st, 1);
		if (hst_i64(&st, 0) == self || !v.known)
			continue;
		n++;
		below += v.v < rate ? 1 : v.v == rate ? 0.5 : 0;	/* ties count half */
	}
	hst_end(&st);
	*pct = n ? known_dbl_of(100.0 * below / n) : (struct known_dbl){ 0 };
	return rc < 0 ? rc : n;
}

static int
open_db(struct hdb **db, char *err, size_t n)
{
	return history_open_quiet(db, err, n, true);
}

static bool
all_hex(const char *s)
{
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return false;
	return true;
}

int
history_run_json(const char *run_id, struct json_object **out, char *err, size_t n)
{
	struct hdb *db;
	struct hst st;
	int rc, rows = 0;
	char *doc = NULL;

	*out = NULL;
	if (!run_id || !*run_id) {
		snprintf(err, n, "no run id");
		return -EINVAL;
	}
	if ((rc = open_db(&db, err, n)))
		return rc;
	/* exact, or a unique prefix of 8+ hex digits (LIKE is safe: hex only) */
	bool prefix = strlen(run_id) >= 8 && all_hex(run_id);
	hst_init(&st, db, prefix ? "SELECT doc, run_id FROM run WHERE run_id LIKE ?1 || '%' ORDER BY id LIMIT 2" :
		 "SELECT doc, run_id FROM run WHERE run_id = ?1");
	hst_text(&st, 1, run_id);
	while ((rc = hst_step(&st)) > 0)
		if (!rows++ && !hst_null(&st, 0))
			doc = strdup(hst_str(&st, 0));
	hst_end(&st);
	history_close(db);
	if (rc < 0 || rows > 1 || !rows || !doc) {
		free(doc);
		if (rc < 0)
			snprintf(err, n, "run %s: the history could not be read", run_id);
		else if (rows > 1)
			snprintf(err, n, "run %s: more than one run starts so; give more of the id", run_id);
		else
			snprintf(err, n, "run %s: %s", run_id, rows ? "recorded before the history kept documents"
			       " (schema 1)" : "no such run in the history");
		return rc < 0 ? -EIO : rows > 1 ? -EINVAL : -ENOENT;
	}
	*out = json_tokener_parse(doc);
	free(doc);
	if (!*out) {
		snprintf(err, n, "run %s: the stored document is not JSON", run_id);
		return -EIO;
	}
	return 0;
}

int
history_runs_on(const char *date, struct strlist *ids, char *err, size_t n)
{
	struct tm tm = { 0 };
	const char *e = date ? strptime(date, "%Y-%m-%d", &tm) : NULL;
	struct hdb *db;
	struct hst st;
	int rc;

	if (!e || *e) {
		snprintf(err, n, "'%s': not a date (YYYY-MM-DD)", date ? date : "");
		return -EINVAL;
	}
	tm.tm_isdst = -1;
	time_t from = mktime(&tm);
	tm.tm_mday++;	/* the next local midnight: a DST day is 23 or 25 hours */
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	time_t to = mktime(&tm);
	if ((rc = open_db(&db, err, n)))
		return rc;
	hst_init(&st, db, "SELECT run_id FROM run WHERE started >= ? AND started < ? ORDER BY started, id");
	hst_int(&st, 1, (int64_t)from);
	hst_int(&st, 2, (int64_t)to);
	while ((rc = hst_step(&st)) > 0)
		if (strlist_add(ids, hst_str(&st, 0))) {
			rc = -ENOMEM;
			break;
		}
	hst_end(&st);
	history_close(db);
	if (rc < 0)
		snprintf(err, n, "runs on %s: %s", date, rc == -ENOMEM ? "out of memory" : "the history could not be read");
	return rc < 0 ? rc : 0;
}

/* Fill the summary from one drive row's runs (oldest first in the query). */
static int
summarize(struct hdb *db, int64_t id, struct history_drive_summary *o)
{
	struct hst st;
	int rc;

	hst_init(&st, db, HISTORY_RUN_RATE_SQL);
	hst_int(&st, 1, id);
	hst_int(&st, 2, 0);
	while ((rc = hst_step(&st)) > 0) {
		/* shift: the newest first, the last 5 kept */
		memmove(&o->runs[1], &o->runs[0], sizeof o->runs[0] * (HISTORY_SUMMARY_RUNS - 1));
		struct history_run_brief *b = &o->runs[0];
		time_t t = (time_t)hst_i64(&st, 1);
		memset(b, 0, sizeof *b);
		snprintf(b->run_id, sizeof b->run_id, "%s", hst_str(&st, 0));
		b->started = t;
		strftime(b->date, sizeof b->date, "%Y-%m-%d %H:%M", localtime(&t));
		snprintf(b->test, sizeof b->test, "%s", hst_str(&st, 2));
		b->mbps = hst_dbl(&st, 4);
		b->level = hst_null(&st, 8) ? -1 : (int)hst_i64(&st, 8);
		b->flags = (unsigned)hst_i64(&st, 10);
		if (o->n_runs < HISTORY_SUMMARY_RUNS)
			o->n_runs++;
		if (!o->target[0])
			snprintf(o->target, sizeof o->target, "%s", hst_str(&st, 3));
		bool ok = !hst_i64(&st, 6) && !hst_i64(&st, 7);
		if (ok && b->mbps.known && (b->flags & TEST_REF_READ))
			o->mbps = b->mbps;
	}
	hst_end(&st);
	return rc;
}

int
history_drive_summary(const char *key, struct history_drive_summary *out, char *err, size_t n)
{
	struct hdb *db;
	struct hst st;
	int64_t id = 0;
	int rc;

	memset(out, 0, sizeof *out);
	if (!key || !*key) {
		snprintf(err, n, "no drive named");
		return -EINVAL;
	}
	if ((rc = open_db(&db, err, n)))
		return rc;
	/* the first drive row the key names (a serial names one drive) */
	hst_init(&st, db, HISTORY_DRIVE_SQL);
	hst_text(&st, 1, key);
	if ((rc = hst_step(&st)) > 0) {
		id = hst_i64(&st, 0);
		snprintf(out->model, sizeof out->model, "%s", hst_str(&st, 1));
		snprintf(out->serial, sizeof out->serial, "%s", hst_str(&st, 2));
		snprintf(out->wwn, sizeof out->wwn, "%s", hst_str(&st, 3));
	}
	hst_end(&st);
	if (rc > 0)
		rc = summarize(db, id, out);
	if (!rc && !out->n_runs)
		rc = -ENOENT;
	else if (!rc && out->model[0] && out->mbps.known) {
		int k = history_peers(db, out->model, id, out->mbps.v, &out->percentile);
		rc = k < 0 ? k : 0;
		out->peers = k > 0 ? k : 0;
	}
	history_close(db);
	if (rc == -ENOENT)
		snprintf(err, n, "%s: no run of that drive in the history", key);
	else if (rc < 0)
		snprintf(err, n, "%s: the history could not be read", key);
	return rc < 0 ? rc : 0;
}

int
history_model_rates(const char *model, const char *test, const struct strlist *skip_serials,
		    double *rates, size_t max, size_t *n, char *err, size_t en)
{
	struct hdb *db;
	struct hst st;
	int rc;

	*n = 0;
	if (!model || !*model) {
		snprintf(err, en, "no model named");
		return -EINVAL;
	}
	if ((rc = open_db(&db, err, en)))
		return rc;
	/* each drive's best run: the mean of its steps in that run */
	hst_init(&st, db, "SELECT x.drive, max(x.mbps), min(x.serial) FROM (SELECT rt.drive AS drive,"
		 " avg(s.mbps) AS mbps, min(d.serial) AS serial"
		 " FROM run r JOIN run_target rt ON rt.run = r.id JOIN drive d ON d.id = rt.drive"
		 " JOIN step_result s ON s.run = r.id AND s.target = rt.target"
		 " WHERE d.model = ?1 AND r.interrupted = 0 AND r.failed = 0"
		 " AND (r.test = ?2 OR (?2 IS NULL AND (r.flags & ?3) <> 0))"
		 " GROUP BY r.id, rt.drive, rt.target) x WHERE x.mbps IS NOT NULL GROUP BY x.drive ORDER BY x.drive");
	hst_text(&st, 1, model);
	hst_text(&st, 2, test);
	hst_int(&st, 3, TEST_REF_READ);
	while ((rc = hst_step(&st)) > 0 && *n < max) {
		const char *serial = hst_str(&st, 2);
		if (skip_serials && serial && *serial && strlist_has(skip_serials, serial))
			continue;
		rates[(*n)++] = hst_dbl(&st, 1).v;	/* the query keeps known rates only */
	}
	hst_end(&st);
	history_close(db);
	if (rc < 0)
		snprintf(err, en, "rates of %s: the history could not be read", model);
	return rc < 0 ? rc : 0;
}

struct json_object *
history_verdict_row(struct json_object *facts, unsigned flags)
{
	struct json_object *tabs, *o;

	if (!(flags & TEST_JUDGES) || !facts || !json_object_object_get_ex(facts, "tables", &tabs) ||
	    !json_object_is_type(tabs, json_type_object))
		return NULL;
	/* facts keep a table's row by the table's name: the one with a
	 * verdict column is the drive's verdict table */
	json_object_object_foreach(tabs, name, row) {
		(void)name;
		if (json_object_is_type(row, json_type_object) &&
		    json_object_object_get_ex(row, col_role_key(CR_VERDICT), &o))
			return row;
	}
	return NULL;
}
