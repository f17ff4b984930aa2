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
#include "history/view.h"
#include "report/doc.h"

struct hq {
	const char *drive, *model, *csv;
	time_t since;
	bool json;
	bool quiet;	/* no text on stdout: --json prints the document, --csv writes its file */
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

/* The drive's SMART 5 and 197 as triage recorded them after each run. */
struct smart_trend {
	struct { bool known; int64_t first, last; } v[2];
	int runs;
	time_t t0, t1;
};

static void
smart_trend_add(struct smart_trend *s, const struct history_run_row *r)
{
	const struct known_i64 *k[2] = { &r->reallocated, &r->pending };
	if (!k[0]->known && !k[1]->known)
		return;
	for (int i = 0; i < 2; i++)
		if (k[i]->known) {
			if (!s->v[i].known)
				s->v[i].first = k[i]->v;
			s->v[i].known = true;
			s->v[i].last = k[i]->v;
		}
	if (!s->runs++)
		s->t0 = r->started;
	s->t1 = r->started;
}

static struct json_object *
smart_trend_out(const struct smart_trend *s, bool quiet)
{
	if (s->runs < 1 || (!s->v[0].known && !s->v[1].known))
		return NULL;
	double days = (double)(s->t1 - s->t0) / 86400.0;
	struct json_object *js = json_object_new_object();
	const char *k[2] = { "reallocated", "pending" };
	char txt[2][64];
	for (int i = 0; i < 2; i++) {
		struct json_object *a = NULL;
		snprintf(txt[i], sizeof txt[i], "%s unknown", k[i]);
		if (s->v[i].known) {
			a = json_object_new_object();
			json_object_object_add(a, "first", json_object_new_int64(s->v[i].first));
			json_object_object_add(a, "last", json_object_new_int64(s->v[i].last));
			snprintf(txt[i], sizeof txt[i], "%s %lld -> %lld%s", k[i], (long long)s->v[i].first,
				 (long long)s->v[i].last, s->v[i].last > s->v[i].first ? " (GREW)" : "");
		}
		json_object_object_add(js, k[i], a);
	}
	json_object_object_add(js, "runs", json_object_new_int(s->runs));
	json_object_object_add(js, "days", json_object_new_double(days));
	if (!quiet)
		printf("  SMART (after each triage): %s, %s over %d run%s in %.1f days\n", txt[0], txt[1],
		       s->runs, s->runs == 1 ? "" : "s", days);
	return js;
}

/* One run: a line, a CSV row, a JSON object. */
static struct json_object *
run_out(const struct history_run_row *r, const struct history_drive_row *d, const char *name,
	const struct hq *q, FILE *csv)
{
	char when[32];
	strftime(when, sizeof when, "%Y-%m-%d %H:%M", localtime(&r->started));
	if (!q->quiet) {
		char rate[32];
		known_fmt_dbl(&r->mbps, "%.1f MB/s", "-", rate, sizeof rate);
		printf("  %s  %-8.8s  %-10s %-12s %6lld errors%s%s%s%s%s\n", when, r->run_id, r->test, rate,
		       (long long)r->errors, r->verdict[0] ? "  " : "", r->verdict, r->reason[0] ? ": " : "",
		       r->reason, r->interrupted ? "  (interrupted)" : r->failed ? "  (failed)" : "");
		if (r->health_class[0])
			printf("      health (%s): %s\n", r->health_class, r->health[0] ? r->health : "recorded");
	}
	if (csv) {	/* an unknown rate is an empty field, never 0 */
		char rate[32], when_s[24], errs[24];
		known_fmt_dbl(&r->mbps, "%.3f", "", rate, sizeof rate);
		snprintf(when_s, sizeof when_s, "%lld", (long long)r->started);
		snprintf(errs, sizeof errs, "%lld", (long long)r->errors);
		const char *f[] = { name, d->model, d->serial, d->wwn, r->run_id, when_s, r->test,
				    r->target, rate, errs };
		for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
			csv_field(csv, f[k], k + 1 == sizeof f / sizeof f[0]);
	}
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "run_id", json_object_new_string(r->run_id));
	json_object_object_add(o, "started", json_object_new_int64((int64_t)r->started));
	json_object_object_add(o, "test", json_object_new_string(r->test));
	json_object_object_add(o, "target", json_object_new_string(r->target));
	json_object_object_add(o, "mbps", r->mbps.known ? json_object_new_double(r->mbps.v) : NULL);
	json_object_object_add(o, "errors", json_object_new_int64(r->errors));
	json_object_object_add(o, "interrupted", json_object_new_boolean(r->interrupted));
	json_object_object_add(o, "failed", json_object_new_boolean(r->failed));
	json_object_object_add(o, "verdict", r->verdict[0] ? json_object_new_string(r->verdict) : NULL);
	json_object_object_add(o, "reasons", r->reason[0] ? json_object_new_string(r->reason) : NULL);
	json_object_object_add(o, "reallocated", r->reallocated.known ? json_object_new_int64(r->reallocated.v) : NULL);
	json_object_object_add(o, "pending", r->pending.known ? json_object_new_int64(r->pending.v) : NULL);
	json_object_object_add(o, "health", r->health_json[0] ? json_tokener_parse(r->health_json) : NULL);
	return o;
}

/* The drive against the others of its model: its latest reference read. */
static struct json_object *
peers_out(struct history_view *v, const struct history_drive_row *d, const char *name, double rate, bool quiet)
{
	struct known_dbl pct;
	int others = history_view_peers(v, d->model, rate, &pct);
	if (others < 0)
		return NULL;
	struct json_object *jp = json_object_new_object();
	json_object_object_add(jp, "mbps", json_object_new_double(rate));
	json_object_object_add(jp, "others", json_object_new_int(others));
	json_object_object_add(jp, "percentile", pct.known ? json_object_new_double(round(pct.v)) : NULL);
	if (!quiet && pct.known)
		printf("  %s reads %.0f MB/s: %d%s percentile of %d %s tested here\n", name, rate,
		       (int)round(pct.v), ordinal((int)round(pct.v)), others, d->model);
	else if (!quiet)
		printf("  %s reads %.0f MB/s: no other %s tested here\n", name, rate, d->model);
	return jp;
}

/* One drive: its runs, its place among its model, its trend. */
static int
report_drive(struct history_view *v, const struct history_drive_row *d, const struct hq *q,
	     struct json_object *arr, FILE *csv)
{
	struct json_object *jd = json_object_new_object(), *runs = json_object_new_array();
	struct history_run_row r;
	struct known_dbl first = { 0 }, last = { 0 };
	time_t t_first = 0, t_last = 0;
	struct smart_trend sm = { 0 };
	char name[160] = "";
	int n = 0, reads = 0;

	if (!jd || !runs) {
		json_object_put(jd);
		json_object_put(runs);
		return -ENOMEM;
	}
	while (history_view_run(v, &r) > 0) {
		if (!name[0])
			snprintf(name, sizeof name, "%s", r.target);
		if (!n++ && !q->quiet)
			printf("%s  model %s  serial %s  wwn %s\n", name, *d->model ? d->model : "unknown",
			       *d->serial ? d->serial : "unknown", *d->wwn ? d->wwn : "unknown");
		smart_trend_add(&sm, &r);
		json_object_array_add(runs, run_out(&r, d, name, q, csv));
		if (!r.interrupted && !r.failed && r.mbps.known && (r.flags & TEST_REF_READ)) {
			if (!first.known) {
				first = r.mbps;
				t_first = r.started;
			}
			last = r.mbps;
			reads++;
			t_last = r.started;
		}
	}
	if (!n) {
		json_object_put(jd);
		json_object_put(runs);
		return 0;
	}
	json_object_object_add(jd, "target", json_object_new_string(name));
	json_object_object_add(jd, "model", doc_str(d->model));
	json_object_object_add(jd, "serial", doc_str(d->serial));
	json_object_object_add(jd, "wwn", doc_str(d->wwn));
	json_object_object_add(jd, "firmware", doc_str(d->firmware));
	json_object_object_add(jd, "runs", runs);
	struct json_object *jp = NULL, *jt = NULL;
	if (*d->model && last.known)
		jp = peers_out(v, d, name, last.v, q->quiet);
	if (reads >= 2) {
		double days = (double)(t_last - t_first) / 86400.0;
		double chg = 100.0 * (last.v - first.v) / first.v;
		jt = json_object_new_object();
		json_object_object_add(jt, "first_mbps", json_object_new_double(first.v));
		json_object_object_add(jt, "last_mbps", json_object_new_double(last.v));
		json_object_object_add(jt, "change_pct", json_object_new_double(chg));
		json_object_object_add(jt, "days", json_object_new_double(days));
		json_object_object_add(jt, "runs", json_object_new_int(reads));
		if (!q->quiet)
			printf("  trend: %.1f -> %.1f MB/s (%+.1f%%) over %d runs in %.1f days\n", first.v, last.v,
			       chg, reads, days);
	}
	json_object_object_add(jd, "peers", jp);
	json_object_object_add(jd, "trend", jt);
	json_object_object_add(jd, "smart_trend", smart_trend_out(&sm, q->quiet));
	json_object_array_add(arr, jd);
	return 1;
}

int
history_cli(int argc, char **argv)
{
	struct hq q = { 0 };
	struct history_view *v;
	struct history_drive_row d;
	char err[512] = "";
	int rc = parse_args(argc, argv, &q), found = 0;

	if (rc)
		return rc > 0 ? usage(stdout, 0) : EXIT_USAGE;	/* the one line is printed */
	q.quiet = q.json || q.csv;
	struct doc_out co = { 0 };
	if (q.csv && ((rc = doc_out_check(q.csv, err, sizeof err)) || (rc = doc_out_open(&co, q.csv)))) {
		fprintf(stderr, "diskscope: history: --csv %s\n", err[0] ? err : strerror(-rc));
		return EXIT_USAGE;
	}
	if (history_view_open(&v, q.drive, q.model, q.since, err, sizeof err)) {
		fprintf(stderr, "diskscope: history: %s\n", err);
		if (q.csv)
			doc_out_abort(&co);
		return EXIT_USAGE;
	}
	if (q.csv)
		fprintf(co.f, "target,model,serial,wwn,run_id,started,test,run_target,mbps,errors\n");
	struct json_object *doc = doc_new(), *arr = json_object_new_array();
	while ((rc = history_view_drive(v, &d)) > 0)
		if (report_drive(v, &d, &q, arr, q.csv ? co.f : NULL) > 0)
			found++;
	history_view_close(v);
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
		fprintf(q.csv ? stderr : stdout, "no runs recorded%s%s\n", q.drive ? " for " : "", q.drive ? q.drive : "");
	else if (q.csv && strcmp(q.csv, "-"))
		fprintf(stderr, "history: %s\n", q.csv);	/* where it went, as `report` says */
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
