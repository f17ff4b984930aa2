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
#include "history/db.h"
#include "history/history.h"
#include "history/internal.h"
#include "report/doc.h"

struct hq {
	const char *drive, *model, *csv;
	time_t since;
	bool json;
};

static int
usage(FILE *f, int rc)
{
	fprintf(f, "usage: diskscope history [DRIVE|--model M|--since YYYY-MM-DD] [--json] [--csv FILE] [--db FILE|URL]\n"
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

/* One CSV field per RFC 4180: quoted when it holds a comma, a quote or a
 * line break (a model name "ACME, Inc. X1"), quotes doubled. */
static void
csv_field(FILE *f, const char *s, bool last)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else
		fputs(s, f);
	fputc(last ? '\n' : ',', f);
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
report_drive(struct hdb *db, struct hst *d, const struct hq *q, struct json_object *arr, FILE *csv)
{
	int64_t id = hst_i64(d, 0);
	const char *model = hst_str(d, 1), *serial = hst_str(d, 2), *wwn = hst_str(d, 3);
	struct json_object *jd = json_object_new_object(), *runs = json_object_new_array();
	struct hst st;
	struct known_dbl first = { 0 }, last = { 0 }, latest_read = { 0 };
	time_t t_first = 0, t_last = 0;
	/* SMART 5 and 197 as triage recorded them after each run (facts) */
	struct { bool known; int64_t first, last; } sm[2] = { { 0 } };
	int sm_runs = 0;
	time_t sm_t0 = 0, sm_t1 = 0;
	char name[160] = "";
	int n = 0, reads = 0;

	if (!jd || !runs) {
		json_object_put(jd);
		json_object_put(runs);
		return -ENOMEM;
	}
	hst_init(&st, db, HISTORY_RUN_RATE_SQL);
	hst_int(&st, 1, id);
	hst_int(&st, 2, (int64_t)q->since);
	while (hst_step(&st) > 0) {
		time_t t = (time_t)hst_i64(&st, 1);
		const char *test = hst_str(&st, 2);
		struct known_dbl mbps = hst_dbl(&st, 4);
		bool ok = !hst_i64(&st, 6) && !hst_i64(&st, 7);
		char when[32];
		strftime(when, sizeof when, "%Y-%m-%d %H:%M", localtime(&t));
		if (!name[0])
			snprintf(name, sizeof name, "%s", hst_str(&st, 3));
		if (!n++ && !q->json)
			printf("%s  model %s  serial %s  wwn %s\n", name, *model ? model : "unknown",
			       *serial ? serial : "unknown", *wwn ? wwn : "unknown");
		/* this drive's own verdict (its row of a test that judges
		 * drives), else none: a run's worst verdict may be another
		 * drive's */
		char verdict[8] = "", reason[96] = "";
		int64_t smv[2];
		bool smk[2] = { false, false };
		unsigned flags = (unsigned)hst_i64(&st, 10);
		struct json_object *facts = json_tokener_parse(hst_str(&st, 9)), *o;
		struct json_object *row = history_verdict_row(facts, flags);
		if (row) {
			if (json_object_object_get_ex(row, col_role_key(CR_VERDICT), &o) &&
			    json_object_is_type(o, json_type_string))
				snprintf(verdict, sizeof verdict, "%s", json_object_get_string(o));
			if (json_object_object_get_ex(row, col_role_key(CR_REASONS), &o) &&
			    json_object_is_type(o, json_type_string) && strcmp(json_object_get_string(o), "-"))
				snprintf(reason, sizeof reason, "%s", json_object_get_string(o));
			const char *k[2] = { col_role_key(CR_REALLOCATED), col_role_key(CR_PENDING) };
			for (int i = 0; i < 2; i++)
				if (json_object_object_get_ex(row, k[i], &o) && json_object_is_type(o, json_type_int)) {
					smv[i] = json_object_get_int64(o);
					smk[i] = true;
				}
		}
		json_object_put(facts);
		if (smk[0] || smk[1]) {
			for (int i = 0; i < 2; i++)
				if (smk[i]) {
					if (!sm[i].known)
						sm[i].first = smv[i];
					sm[i].known = true;
					sm[i].last = smv[i];
				}
			if (!sm_runs++)
				sm_t0 = t;
			sm_t1 = t;
		}
		if (!q->json) {
			char rate[32];
			known_fmt_dbl(&mbps, "%.1f MB/s", "-", rate, sizeof rate);
			printf("  %s  %-8.8s  %-10s %-12s %6lld errors%s%s%s%s%s\n", when, hst_str(&st, 0), test, rate,
			       (long long)hst_i64(&st, 5), verdict[0] ? "  " : "", verdict, reason[0] ? ": " : "", reason,
			       hst_i64(&st, 6) ? "  (interrupted)" : hst_i64(&st, 7) ? "  (failed)" : "");
		}
		if (csv) {	/* an unknown rate is an empty field, never 0 */
			char rate[32];
			known_fmt_dbl(&mbps, "%.3f", "", rate, sizeof rate);
			char when_s[24], errs[24];
			snprintf(when_s, sizeof when_s, "%lld", (long long)t);
			snprintf(errs, sizeof errs, "%lld", (long long)hst_i64(&st, 5));
			const char *f[] = { name, model, serial, wwn, hst_str(&st, 0), when_s, test,
					    hst_str(&st, 3), rate, errs };
			for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
				csv_field(csv, f[k], k + 1 == sizeof f / sizeof f[0]);
		}
		struct json_object *r = json_object_new_object();
		json_object_object_add(r, "run_id", json_object_new_string(hst_str(&st, 0)));
		json_object_object_add(r, "started", json_object_new_int64((int64_t)t));
		json_object_object_add(r, "test", json_object_new_string(test));
		json_object_object_add(r, "target", json_object_new_string(hst_str(&st, 3)));
		json_object_object_add(r, "mbps", doc_known_dbl(&mbps));
		json_object_object_add(r, "errors", json_object_new_int64(hst_i64(&st, 5)));
		json_object_object_add(r, "interrupted", json_object_new_boolean(hst_i64(&st, 6)));
		json_object_object_add(r, "failed", json_object_new_boolean(hst_i64(&st, 7)));
		json_object_object_add(r, "verdict", verdict[0] ? json_object_new_string(verdict) : NULL);
		json_object_object_add(r, "reasons", reason[0] ? json_object_new_string(reason) : NULL);
		json_object_object_add(r, "reallocated", smk[0] ? json_object_new_int64(smv[0]) : NULL);
		json_object_object_add(r, "pending", smk[1] ? json_object_new_int64(smv[1]) : NULL);
		json_object_array_add(runs, r);
		if (ok && mbps.known && (flags & TEST_REF_READ)) {
			if (!first.known) {
				first = mbps;
				t_first = t;
			}
			last = latest_read = mbps;
			reads++;
			t_last = t;
		}
	}
	hst_end(&st);
	if (!n) {
		json_object_put(jd);
		json_object_put(runs);
		return 0;
	}
	json_object_object_add(jd, "target", json_object_new_string(name));
	json_object_object_add(jd, "model", doc_str(model));
	json_object_object_add(jd, "serial", doc_str(serial));
	json_object_object_add(jd, "wwn", doc_str(wwn));
	json_object_object_add(jd, "firmware", doc_str(hst_str(d, 4)));
	json_object_object_add(jd, "runs", runs);
	struct json_object *jp = NULL, *jt = NULL;
	struct known_dbl pct = { 0 };
	int others = *model && latest_read.known ? history_peers(db, model, id, latest_read.v, &pct) : -1;
	if (others >= 0) {
		jp = json_object_new_object();
		json_object_object_add(jp, "mbps", doc_known_dbl(&latest_read));
		json_object_object_add(jp, "others", json_object_new_int(others));
		json_object_object_add(jp, "percentile", pct.known ? json_object_new_double(round(pct.v)) : NULL);
		if (!q->json && others)
			printf("  %s reads %.0f MB/s: %d%s percentile of %d %s tested here\n", name, latest_read.v,
			       (int)round(pct.v), ordinal((int)round(pct.v)), others, model);
		else if (!q->json)
			printf("  %s reads %.0f MB/s: no other %s tested here\n", name, latest_read.v, model);
	}
	if (reads >= 2) {
		double days = (double)(t_last - t_first) / 86400.0;
		jt = json_object_new_object();
		json_object_object_add(jt, "first_mbps", json_object_new_double(first.v));
		json_object_object_add(jt, "last_mbps", json_object_new_double(last.v));
		json_object_object_add(jt, "change_pct", json_object_new_double(100.0 * (last.v - first.v) / first.v));
		json_object_object_add(jt, "days", json_object_new_double(days));
		json_object_object_add(jt, "runs", json_object_new_int(reads));
		if (!q->json)
			printf("  trend: %.1f -> %.1f MB/s (%+.1f%%) over %d runs in %.1f days\n", first.v, last.v,
			       100.0 * (last.v - first.v) / first.v, reads, days);
	}
	struct json_object *js = NULL;
	if (sm_runs >= 1 && (sm[0].known || sm[1].known)) {
		double days = (double)(sm_t1 - sm_t0) / 86400.0;
		js = json_object_new_object();
		const char *k[2] = { "reallocated", "pending" };
		char txt[2][64];
		for (int i = 0; i < 2; i++) {
			struct json_object *a = NULL;
			snprintf(txt[i], sizeof txt[i], "%s unknown", k[i]);
			if (sm[i].known) {
				a = json_object_new_object();
				json_object_object_add(a, "first", json_object_new_int64(sm[i].first));
				json_object_object_add(a, "last", json_object_new_int64(sm[i].last));
				snprintf(txt[i], sizeof txt[i], "%s %lld -> %lld%s", k[i], (long long)sm[i].first,
					 (long long)sm[i].last, sm[i].last > sm[i].first ? " (GREW)" : "");
			}
			json_object_object_add(js, k[i], a);
		}
		json_object_object_add(js, "runs", json_object_new_int(sm_runs));
		json_object_object_add(js, "days", json_object_new_double(days));
		if (!q->json)
			printf("  SMART (after each triage): %s, %s over %d run%s in %.1f days\n", txt[0], txt[1],
			       sm_runs, sm_runs == 1 ? "" : "s", days);
	}
	json_object_object_add(jd, "peers", jp);
	json_object_object_add(jd, "trend", jt);
	json_object_object_add(jd, "smart_trend", js);
	json_object_array_add(arr, jd);
	return 1;
}

int
history_cli(int argc, char **argv)
{
	struct hq q = { 0 };
	struct hdb *db;
	struct hst d;
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
	hst_init(&d, db, q.drive ? HISTORY_DRIVE_SQL :
		 "SELECT d.id, d.model, d.serial, d.wwn, d.firmware FROM drive d"
		 " WHERE ?1 IS NULL OR d.model = ?1 ORDER BY d.model, d.id");
	hst_text(&d, 1, q.drive ? q.drive : q.model);
	struct json_object *doc = doc_new(), *arr = json_object_new_array();
	while ((rc = hst_step(&d)) > 0)
		if (report_drive(db, &d, &q, arr, q.csv ? co.f : NULL) > 0)
			found++;
	hst_end(&d);
	history_close(db);
	if (rc < 0) {
		fprintf(stderr, "diskscope: history: reading the history failed\n");
		json_object_put(arr);
		if (q.csv)
			doc_out_abort(&co);
		return EXIT_USAGE;
	}
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

/* The plan's history_rates: other drives of a model as the bench history
 * knows them (none with --no-history or when it cannot be read). */
int
cli_history_rates(const char *model, const struct strlist *skip, double *rates, size_t max, size_t *n)
{
	char err[256];
	*n = 0;
	if (history_off())
		return 0;
	return history_model_rates(model, NULL, skip, rates, max, n, err, sizeof err);
}
