/* report.c - `diskscope report RESULT.json|RUN-ID... [--batch DATE] [-o FILE.html|-]`:
 * [--title TEXT]: saved runs as one self-contained HTML page (report/html.c).  Every input
 * is read before anything is written; a bad one is one line and exit 2 with
 * no file left behind (the page goes to a temporary, renamed when whole). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "history/history.h"
#include "report/doc.h"
#include "report/html.h"
#include "report/run.h"
#include "util/util.h"

static int
usage(FILE *f, int rc)
{
	fputs("usage: diskscope report RESULT.json|RUN-ID... [--batch DATE] [--title TEXT] [-o FILE.html|-]\n"
	      "  one self-contained HTML page (charts, identity, verdicts, tables), printable to PDF;\n"
	      "  --title TEXT heads it (a ticket, a customer), with the bench's name, the dates, the version;\n"
	      "  several results or --batch DATE (a day's runs): a summary of every drive first.\n"
	      "  Default output: the first RESULT.json with .html for .json (RUN-ID.html,\n"
	      "  batch-DATE.html without a file); -o - writes to stdout.\n", f);
	return rc;
}

/* The runs read so far, grown one at a time. */
struct runs {
	struct run_result *v;
	size_t n, cap;
};

/* Room for one more at v[n] (zeroed).  0 / -ENOMEM. */
static int
runs_grow(struct runs *rs)
{
	if (rs->n < rs->cap)
		return 0;
	size_t cap = rs->cap ? rs->cap * 2 : 8;
	struct run_result *v = realloc(rs->v, cap * sizeof *v);
	if (!v)
		return -ENOMEM;
	memset(v + rs->cap, 0, (cap - rs->cap) * sizeof *v);
	rs->v = v;
	rs->cap = cap;
	return 0;
}

/* A run recorded in the history database (--db, the config, the default
 * file), by its id or a unique prefix of 8+ hex digits as `history` prints. */
static int
resolve_run_id(const char *id, struct run_result *out, char *err, size_t n)
{
	struct json_object *doc = NULL, *run;
	char why[384] = "";
	int rc = history_run_json(id, &doc, why, sizeof why);
	if (rc) {
		snprintf(err, n, "%.64s: %s", id, why[0] ? why : rc == -ENOENT ? "no such run in the history"
								    : strerror(-rc));
		return rc;
	}
	if (!json_object_object_get_ex(doc, "run", &run))
		run = doc;
	rc = run_json_from_object(run, out, why, sizeof why);
	if (rc)
		snprintf(err, n, "%.64s: the history's copy: %s", id, why);
	json_object_put(doc);
	return rc;
}

/* Every run of a day (YYYY-MM-DD, local time) from the history database,
 * appended to runs, oldest first. */
static int
resolve_batch(const char *date, struct runs *rs, char *err, size_t len)
{
	struct strlist ids = { 0 };
	char why[384] = "";
	int rc = history_runs_on(date, &ids, why, sizeof why);
	if (!rc && !ids.n) {
		snprintf(why, sizeof why, "no runs recorded on that day");
		rc = -ENOENT;
	}
	if (rc) {
		snprintf(err, len, "--batch %.32s: %s", date, why[0] ? why : strerror(-rc));
		strlist_free(&ids);
		return rc;
	}
	for (size_t i = 0; i < ids.n && !rc; i++) {
		if ((rc = runs_grow(rs))) {
			snprintf(err, len, "--batch %.32s: out of memory", date);
			break;
		}
		rc = resolve_run_id(ids.v[i], &rs->v[rs->n], err, len);
		if (rc)
			run_result_free(&rs->v[rs->n]);
		else
			rs->n++;
	}
	strlist_free(&ids);
	return rc;
}

/* A file, not a run id: it exists, or it looks like a path. */
static bool
is_file_arg(const char *a)
{
	struct stat st;
	size_t n = strlen(a);
	return stat(a, &st) == 0 || strchr(a, '/') || (n > 5 && !strcmp(a + n - 5, ".json"));
}

static bool
same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return strcmp(b, "-") && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* The default output name: X.json -> X.html beside it; a run id -> ID.html. */
static int
default_output(const char *first, const char *batch, bool file, char *buf, size_t n)
{
	if (!first)
		return pathf(buf, n, "batch-%s.html", batch ? batch : "");
	size_t len = strlen(first);
	if (file && len > 5 && !strcmp(first + len - 5, ".json"))
		return pathf(buf, n, "%.*s.html", (int)(len - 5), first);
	return pathf(buf, n, "%s.html", first);
}

int
report_cli(int argc, char **argv, struct global_opts *g)
{
	const char *out = NULL, *batch = NULL, *title = NULL;
	const char **in = calloc(argc > 0 ? argc : 1, sizeof *in);
	size_t n_in = 0;
	int rc = EXIT_USAGE;
	(void)g;

	if (!in)
		return EXIT_USAGE;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			free(in);
			return usage(stdout, 0);
		}
		if (!strcmp(a, "-o") || !strcmp(a, "--batch") || !strcmp(a, "--title")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "diskscope: report: %s needs a value\n", a);
				goto out;
			}
			*(a[2] == 'b' ? &batch : a[2] == 't' ? &title : &out) = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "diskscope: report: unknown option '%s'\n", a);
			goto out;
		} else
			in[n_in++] = a;
	}
	if (!n_in && !batch) {
		usage(stderr, 0);
		goto out;
	}

	struct runs rs = { 0 };
	const struct run_result **rp = NULL;
	char err[512] = "", path[4096];
	for (size_t i = 0; i < n_in; i++) {
		if (runs_grow(&rs)) {
			fprintf(stderr, "diskscope: report: out of memory\n");
			goto done;
		}
		struct run_result *r = &rs.v[rs.n];
		int e = is_file_arg(in[i]) ? run_json_load(in[i], r, err, sizeof err)
					   : resolve_run_id(in[i], r, err, sizeof err);
		if (e) {
			run_result_free(r);
			fprintf(stderr, "diskscope: report: %s\n", err);
			goto done;
		}
		rs.n++;
	}
	if (batch && resolve_batch(batch, &rs, err, sizeof err)) {
		fprintf(stderr, "diskscope: report: %s\n", err);
		goto done;
	}
	if (!out) {
		if (default_output(n_in ? in[0] : NULL, batch, n_in && is_file_arg(in[0]), path, sizeof path)) {
			fprintf(stderr, "diskscope: report: %.200s: name too long for an output (use -o)\n", in[0]);
			goto done;
		}
		out = path;
	}
	if (doc_out_check(out, err, sizeof err)) {
		fprintf(stderr, "diskscope: report: %s\n", err);
		goto done;
	}
	for (size_t i = 0; i < n_in; i++)
		if (same_file(in[i], out)) {
			fprintf(stderr, "diskscope: report: %.256s: is an input, not an output (use -o)\n", out);
			goto done;
		}
	rp = calloc(rs.n ? rs.n : 1, sizeof *rp);
	if (!rp) {
		fprintf(stderr, "diskscope: report: out of memory\n");
		goto done;
	}
	for (size_t i = 0; i < rs.n; i++)
		rp[i] = &rs.v[i];
	struct html_header h = { title, history_bench_name(rs.n ? rs.v[0].host : NULL) };
	int w = html_report_write(rp, rs.n, out, &h);
	if (w) {
		fprintf(stderr, "diskscope: report: %s: %s\n", strcmp(out, "-") ? out : "stdout", strerror(-w));
		goto done;
	}
	if (strcmp(out, "-"))
		fprintf(stderr, "report: %s\n", out);
	rc = 0;
done:
	for (size_t i = 0; i < rs.n; i++)
		run_result_free(&rs.v[i]);
	free(rs.v);
	free(rp);
out:
	free(in);
	return rc;
}
