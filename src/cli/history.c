/* history.c - `diskscope history`: runs per drive, the drive against the others
 * of its model, and its rate over re-tests. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>
#include "cli/cli.h"
#include "history/history.h"
#include "report/doc.h"

/* A drive's rate in one run: the mean over its step results. */
#define RUN_RATE_SQL \
	"SELECT r.run_id, r.started, r.test, rt.target, avg(s.mbps), sum(s.errors), r.interrupted, r.failed" \
	" FROM run r JOIN run_target rt ON rt.run = r.id" \
	" LEFT JOIN step_result s ON s.run = r.id AND s.target = rt.target" \
	" WHERE rt.drive = ? AND r.started >= ? GROUP BY r.id ORDER BY r.started, r.id"

/* Latest seqread/surface rate of each drive of a model. */
#define PEERS_SQL \
	"SELECT rt.drive, (SELECT avg(s.mbps) FROM step_result s WHERE s.run = r.id AND s.target = rt.target)" \
	" FROM run r JOIN run_target rt ON rt.run = r.id JOIN drive d ON d.id = rt.drive" \
	" WHERE d.model = ? AND r.test IN ('seqread', 'surface') AND NOT r.interrupted AND NOT r.failed" \
	" AND r.id = (SELECT max(r2.id) FROM run r2 JOIN run_target t2 ON t2.run = r2.id" \
	"  WHERE t2.drive = rt.drive AND r2.test IN ('seqread', 'surface') AND NOT r2.interrupted AND NOT r2.failed)"

struct hq {
	const char *drive, *model, *csv;
	time_t since;
	bool json;
};

static int
usage(FILE *f, int rc)
{
	fprintf(f, "usage: diskscope history [DRIVE|--model M|--since YYYY-MM-DD] [--json] [--csv FILE] [--db FILE]\n"
		   "  DRIVE is a serial, a WWN or a target name as recorded (sda, sim:WD40EZRX)\n");
	return rc;
}

static int
parse_args(int argc, char **argv, struct hq *q)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help"))
			return 1;
		if (!strcmp(a, "--json"))
			q->json = true;
		else if (!strcmp(a, "--model") || !strcmp(a, "--since") || !strcmp(a, "--csv")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "diskscope: history: %s needs a value\n", a);
				return -EINVAL;
			}
			const char *v = argv[++i];
			if (a[2] == 'm')
				q->model = v;
			else if (a[2] == 'c')
				q->csv = v;
			else {
				struct tm tm = { 0 };
				const char *e = strptime(v, "%Y-%m-%d", &tm);
				if (!e || *e) {
					fprintf(stderr, "diskscope: history: --since '%s': not a date (YYYY-MM-DD)\n", v);
					return -EINVAL;
				}
				tm.tm_isdst = -1;
				q->since = mktime(&tm);
			}
		} else if (a[0] == '-' || q->drive) {
			fprintf(stderr, "diskscope: history: unexpected '%s'\n", a);
			return -EINVAL;
		} else
			q->drive = a;
	}
	if (q->drive && q->model) {
		fprintf(stderr, "diskscope: history: give a DRIVE or --model, not both\n");
		return -EINVAL;
	}
	return 0;
}

static double
col_dbl(sqlite3_stmt *st, int c)
{
	return sqlite3_column_type(st, c) == SQLITE_NULL ? NAN : sqlite3_column_double(st, c);
}

static const char *
col_str(sqlite3_stmt *st, int c)
{
	const char *s = (const char *)sqlite3_column_text(st, c);
	return s ? s : "";
}

/* Percentile of rate among the latest rates of the other drives of model:
 * the share of them below it, ties counted half (equal drives: 50th).  Returns how many others, -1 on error. */
static int
peers(sqlite3 *db, const char *model, sqlite3_int64 self, double rate, double *pct)
{
	sqlite3_stmt *st;
	int n = 0;
	double below = 0;

	if (sqlite3_prepare_v2(db, PEERS_SQL, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, model, -1, SQLITE_TRANSIENT);
	while (sqlite3_step(st) == SQLITE_ROW) {
		double v = col_dbl(st, 1);
		if (sqlite3_column_int64(st, 0) == self || isnan(v))
			continue;
		n++;
		below += v < rate ? 1 : v == rate ? 0.5 : 0;	/* ties count half */
	}
	sqlite3_finalize(st);
	*pct = n ? 100.0 * below / n : NAN;
	return n;
}

static const char *
ordinal(int n)
{
	int t = n % 100;
	if (t >= 11 && t <= 13)
		return "th";
	return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

/* One drive: its runs, its place among its model, its trend. */
static int
report_drive(sqlite3 *db, sqlite3_stmt *d, const struct hq *q, struct json_object *arr, FILE *csv)
{
	sqlite3_int64 id = sqlite3_column_int64(d, 0);
	const char *model = col_str(d, 1), *serial = col_str(d, 2), *wwn = col_str(d, 3);
	struct json_object *jd = json_object_new_object(), *runs = json_object_new_array();
	sqlite3_stmt *st;
	double first = NAN, last = NAN, latest_read = NAN;
	time_t t_first = 0, t_last = 0;
	char name[160] = "";
	int n = 0, reads = 0;

	if (!jd || !runs || sqlite3_prepare_v2(db, RUN_RATE_SQL, -1, &st, NULL) != SQLITE_OK) {
		json_object_put(jd);
		json_object_put(runs);
		return -ENOMEM;
	}
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)q->since);
	while (sqlite3_step(st) == SQLITE_ROW) {
		time_t t = (time_t)sqlite3_column_int64(st, 1);
		const char *test = col_str(st, 2);
		double mbps = col_dbl(st, 4);
		bool ok = !sqlite3_column_int(st, 6) && !sqlite3_column_int(st, 7);
		char when[32];
		strftime(when, sizeof when, "%Y-%m-%d %H:%M", localtime(&t));
		if (!name[0])
			snprintf(name, sizeof name, "%s", col_str(st, 3));
		if (!n++ && !q->json)
			printf("%s  model %s  serial %s  wwn %s\n", name, *model ? model : "unknown",
			       *serial ? serial : "unknown", *wwn ? wwn : "unknown");
		if (!q->json) {
			char rate[32] = "-";
			if (!isnan(mbps))
				snprintf(rate, sizeof rate, "%.1f MB/s", mbps);
			printf("  %s  %-8.8s  %-10s %-12s %6lld errors%s\n", when, col_str(st, 0), test, rate,
			       (long long)sqlite3_column_int64(st, 5),
			       sqlite3_column_int(st, 6) ? "  (interrupted)" : sqlite3_column_int(st, 7) ? "  (failed)" : "");
		}
		if (csv) {	/* an unknown rate is an empty field, never 0 */
			char rate[32] = "";
			if (!isnan(mbps))
				snprintf(rate, sizeof rate, "%.3f", mbps);
			fprintf(csv, "%s,%s,%s,%s,%s,%lld,%s,%s,%s,%lld\n", name, model, serial, wwn,
				col_str(st, 0), (long long)t, test, col_str(st, 3), rate,
				(long long)sqlite3_column_int64(st, 5));
		}
		struct json_object *r = json_object_new_object();
		json_object_object_add(r, "run_id", json_object_new_string(col_str(st, 0)));
		json_object_object_add(r, "started", json_object_new_int64((int64_t)t));
		json_object_object_add(r, "test", json_object_new_string(test));
		json_object_object_add(r, "target", json_object_new_string(col_str(st, 3)));
		json_object_object_add(r, "mbps", isnan(mbps) ? NULL : json_object_new_double(mbps));
		json_object_object_add(r, "errors", json_object_new_int64(sqlite3_column_int64(st, 5)));
		json_object_object_add(r, "interrupted", json_object_new_boolean(sqlite3_column_int(st, 6)));
		json_object_object_add(r, "failed", json_object_new_boolean(sqlite3_column_int(st, 7)));
		json_object_array_add(runs, r);
		if (ok && !isnan(mbps) && (!strcmp(test, "seqread") || !strcmp(test, "surface"))) {
			if (isnan(first)) {
				first = mbps;
				t_first = t;
			}
			last = latest_read = mbps;
			reads++;
			t_last = t;
		}
	}
	sqlite3_finalize(st);
	if (!n) {
		json_object_put(jd);
		json_object_put(runs);
		return 0;
	}
	json_object_object_add(jd, "target", json_object_new_string(name));
	json_object_object_add(jd, "model", doc_str(model));
	json_object_object_add(jd, "serial", doc_str(serial));
	json_object_object_add(jd, "wwn", doc_str(wwn));
	json_object_object_add(jd, "firmware", doc_str(col_str(d, 4)));
	json_object_object_add(jd, "runs", runs);
	struct json_object *jp = NULL, *jt = NULL;
	double pct;
	int others = *model && !isnan(latest_read) ? peers(db, model, id, latest_read, &pct) : -1;
	if (others >= 0) {
		jp = json_object_new_object();
		json_object_object_add(jp, "mbps", json_object_new_double(latest_read));
		json_object_object_add(jp, "others", json_object_new_int(others));
		json_object_object_add(jp, "percentile", others ? json_object_new_double(round(pct)) : NULL);
		if (!q->json && others)
			printf("  %s reads %.0f MB/s: %d%s percentile of %d %s tested here\n", name, latest_read,
			       (int)round(pct), ordinal((int)round(pct)), others, model);
		else if (!q->json)
			printf("  %s reads %.0f MB/s: no other %s tested here\n", name, latest_read, model);
	}
	if (reads >= 2) {
		double days = (double)(t_last - t_first) / 86400.0;
		jt = json_object_new_object();
		json_object_object_add(jt, "first_mbps", json_object_new_double(first));
		json_object_object_add(jt, "last_mbps", json_object_new_double(last));
		json_object_object_add(jt, "change_pct", json_object_new_double(100.0 * (last - first) / first));
		json_object_object_add(jt, "days", json_object_new_double(days));
		json_object_object_add(jt, "runs", json_object_new_int(reads));
		if (!q->json)
			printf("  trend: %.1f -> %.1f MB/s (%+.1f%%) over %d runs in %.1f days\n", first, last,
			       100.0 * (last - first) / first, reads, days);
	}
	json_object_object_add(jd, "peers", jp);
	json_object_object_add(jd, "trend", jt);
	json_object_array_add(arr, jd);
	return 1;
}

int
history_cli(int argc, char **argv)
{
	struct hq q = { 0 };
	sqlite3 *db;
	sqlite3_stmt *d;
	char err[512] = "";
	int rc = parse_args(argc, argv, &q), found = 0;

	if (rc)
		return rc > 0 ? usage(stdout, 0) : EXIT_USAGE;	/* the one line is printed */
	struct doc_out co = { 0 };
	if (q.csv && ((rc = doc_out_check(q.csv, err, sizeof err)) || (rc = doc_out_open(&co, q.csv)))) {
		fprintf(stderr, "diskscope: history: --csv %s\n", err[0] ? err : strerror(-rc));
		return EXIT_USAGE;
	}
	if (history_open_default(&db, err, sizeof err)) {
		fprintf(stderr, "diskscope: history: %s\n", err);
		if (q.csv)
			doc_out_abort(&co);
		return EXIT_USAGE;
	}
	if (q.csv)
		fprintf(co.f, "target,model,serial,wwn,run_id,started,test,run_target,mbps,errors\n");
	rc = sqlite3_prepare_v2(db, q.drive ?
		"SELECT DISTINCT d.id, d.model, d.serial, d.wwn, d.firmware FROM drive d JOIN run_target rt"
		" ON rt.drive = d.id WHERE d.serial = ?1 OR d.wwn = ?1 OR rt.target IN (?1, 'sim:' || ?1, '/dev/' || ?1) ORDER BY d.id" :
		"SELECT d.id, d.model, d.serial, d.wwn, d.firmware FROM drive d"
		" WHERE ?1 IS NULL OR d.model = ?1 ORDER BY d.model, d.id", -1, &d, NULL);
	if (rc != SQLITE_OK) {
		fprintf(stderr, "diskscope: history: %s\n", sqlite3_errmsg(db));
		sqlite3_close(db);
		if (q.csv)
			doc_out_abort(&co);
		return EXIT_USAGE;
	}
	if (q.drive || q.model)
		sqlite3_bind_text(d, 1, q.drive ? q.drive : q.model, -1, SQLITE_TRANSIENT);
	struct json_object *doc = doc_new(), *arr = json_object_new_array();
	while (sqlite3_step(d) == SQLITE_ROW)
		if (report_drive(db, d, &q, arr, q.csv ? co.f : NULL) > 0)
			found++;
	sqlite3_finalize(d);
	sqlite3_close(db);
	rc = 0;
	if (q.json) {
		struct json_object *h = json_object_new_object();
		json_object_object_add(h, "drives", arr);
		json_object_object_add(doc, "history", h);
		rc = doc_write(doc, "-");
	} else
		json_object_put(arr);
	json_object_put(doc);
	if (q.csv && !rc)
		rc = doc_out_commit(&co);
	else if (q.csv)
		doc_out_abort(&co);
	if (rc) {
		fprintf(stderr, "diskscope: history: writing the output: %s\n", strerror(-rc));
		return EXIT_OUTPUT;
	}
	if (!found && !q.json)
		printf("no runs recorded%s%s\n", q.drive ? " for " : "", q.drive ? q.drive : "");
	return 0;
}
