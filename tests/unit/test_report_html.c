/* test_report_html.c - the HTML report: every string the drives or a result
 * file bring (model names, evidence, table cells) is escaped, so none can
 * open a tag or a script; each chart's <g class="series"> says its point
 * count and holds exactly that many points (gaps split a line, never drawn
 * as values); unknowns read "unknown", not 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "report/html.h"

#define HOSTILE "<script>alert(\"x\")</script><img src=http://e.invalid/x onerror='y'>&amp;"
#define HOSTILE_S "<svg onload='z'>\"&</svg>"	/* for the short fields */

static char *
escaped(const char *s)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	html_escape(f, s);
	fclose(f);
	return buf;
}

static void
test_escape(void **state)
{
	(void)state;
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "WDC WD40EZRX", "WDC WD40EZRX" },
		{ "<b>&\"'>", "&lt;b&gt;&amp;&quot;&#39;&gt;" },
		{ "a\tb\nc", "a b c" },
		{ "bell\a esc\x1b[31m del\x7f", "bell esc[31m del" },
		{ "µs — ok", "µs — ok" },				/* valid UTF-8 kept */
		{ "bad \xff\xfe", "bad \xef\xbf\xbd\xef\xbf\xbd" },	/* invalid bytes: U+FFFD */
		{ "overlong \xc0\xbc", "overlong \xef\xbf\xbd\xef\xbf\xbd" },	/* not a hidden '<' */
		{ "surrogate \xed\xa0\x80", "surrogate \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "cut \xe2\x80", "cut \xef\xbf\xbd\xef\xbf\xbd" },
		{ "rtl \xe2\x80\xaegpj.exe", "rtl gpj.exe" },		/* U+202E dropped */
		{ "iso \xe2\x81\xa6x\xe2\x81\xa9", "iso x" },
		{ "", "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = escaped(cases[i].in);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
	char *got = escaped(NULL);
	assert_string_equal(got, "");
	free(got);
}

/* ---- a run built in memory ---- */

static void
series(struct target_result *t, size_t n, bool positional, size_t gap_at)
{
	t->series.interval_ms = 100;
	t->series.n = n;
	t->series.mbps = calloc(n, sizeof(float));
	t->series.iops = calloc(n, sizeof(float));
	t->series.p99_us = calloc(n, sizeof(float));
	t->series.pos = calloc(n, sizeof(float));
	for (size_t i = 0; i < n; i++) {
		t->series.mbps[i] = 100 + (float)(i % 7);
		t->series.pos[i] = positional ? (float)i / n : 0.001f * i / n;
	}
	for (size_t i = gap_at; gap_at && i < gap_at + 3 && i < n; i++)
		t->series.mbps[i] = NAN;	/* three unknown samples */
}

static void
fill(struct run_result *r, bool hostile)
{
	memset(r, 0, sizeof *r);
	snprintf(r->test, sizeof r->test, "saturate");
	snprintf(r->run_id, sizeof r->run_id, "0123456789abcdef0123456789abcdef");
	snprintf(r->host, sizeof r->host, "%s", hostile ? HOSTILE_S : "bench1");
	strlist_add(&r->targets, "sim:a");
	strlist_add(&r->targets, hostile ? HOSTILE_S : "sim:b");
	r->params.bs = 1 << 20;
	r->params.qd = 8;
	r->n_steps = 3;
	r->steps = calloc(3, sizeof *r->steps);
	for (unsigned k = 0; k < 3; k++) {
		struct step_result *s = &r->steps[k];
		s->index = k + 1;
		snprintf(s->label, sizeof s->label, "%s", hostile && k == 1 ? HOSTILE_S : "step");
		s->n_res = k ? 2 : 1;
		s->res = calloc(s->n_res, sizeof *s->res);
		for (size_t j = 0; j < s->n_res; j++) {
			struct target_result *t = &s->res[j];
			snprintf(t->target, sizeof t->target, "%s", r->targets.v[j]);
			strlist_add(&s->active, t->target);
			t->bytes = 1000000000;
			t->ios = 1000;
			t->mbps = 100;
			/* sim:a crosses the drive in step 1 (positional) and
			 * has a 3-sample gap at 20; the others run over time */
			series(t, 50 + 10 * k, k == 0, k == 0 && j == 0 ? 20 : 0);
		}
		s->aggregate_mbps = known_dbl_of(100.0 * s->n_res);
		s->ideal_mbps = 100.0 * s->n_res;
	}
	/* a histogram of 5 buckets for sim:a in step 1 */
	struct saved_hist *h = &r->steps[0].res[0].hist;
	h->n = 5;
	h->upper_us = calloc(5, sizeof(double));
	h->count = calloc(5, sizeof(uint64_t));
	for (size_t i = 0; i < 5; i++) {
		h->upper_us[i] = 1000 * pow(1.5, i);
		h->count[i] = 10 * (i + 1);
	}
	r->n_ident = 2;
	r->ident = calloc(2, sizeof *r->ident);
	strlist_add(&r->ident_targets, r->targets.v[0]);
	strlist_add(&r->ident_targets, r->targets.v[1]);
	snprintf(r->ident[0].model, sizeof r->ident[0].model, "%s", hostile ? "<i>WD</i>" : "WDC WD40EZRX");
	r->ident[0].capacity = (struct known_u64){ true, 4000787030016ULL };
	struct verdict *v = result_verdict(r, VL_FAIL, "errors", "%s: unreadable", r->targets.v[1]);
	verdict_evidence(v, "%s", hostile ? HOSTILE : "LBA 5-9");
	static const struct result_col cols[] = { { "serial", "Serial", COL_STR, "", 0 },
						  { "mbps", "Rate", COL_DBL, "MB/s", 1 } };
	struct result_table *t = result_table_add(r, "triage", hostile ? HOSTILE : "Triage", cols, 2);
	table_add_row(t);
	table_set_str(t, 0, 0, hostile ? HOSTILE : "S1");	/* rate left unknown */
	strlist_add(&r->notes, hostile ? HOSTILE : "a note");
}

static char *
render(const struct run_result *r)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	const struct run_result *rp[] = { r };
	html_report_print(f, rp, 1);
	fclose(f);
	return buf;
}

static size_t
count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void
test_hostile_strings(void **state)
{
	(void)state;
	struct run_result r;
	fill(&r, true);
	char *html = render(&r);
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<img"));
	assert_null(strstr(html, "<i>WD"));
	assert_null(strstr(html, "onerror='"));
	assert_null(strstr(html, "<svg onload"));
	assert_non_null(strstr(html, "&lt;svg onload=&#39;z&#39;&gt;&quot;&amp;&lt;/svg&gt;"));
	assert_non_null(strstr(html, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"));
	assert_non_null(strstr(html, "&amp;amp;"));
	/* the one URL the page holds is the SVG namespace (an identifier, never fetched) */
	assert_int_equal(count(html, "http://") + count(html, "https://"),
			 count(html, "http://www.w3.org/2000/svg") + count(html, "&lt;img src=http://e.invalid/x"));
	assert_null(strstr(html, "src=\""));
	assert_null(strstr(html, "href=\"http"));
	free(html);
	run_result_free(&r);
}

/* Each <g class="series ... data-points="N">: N, and the points inside
 * (pairs in its polylines, or its rects) counted. */
struct grp {
	char source[24], target[80];
	unsigned step;
	size_t said, points, polylines;
};

static size_t
groups(const char *html, struct grp *g, size_t max)
{
	size_t n = 0;
	for (const char *p = html; n < max && (p = strstr(p, "<g class=\"series")); n++) {
		const char *end = strstr(p, "</g>");
		assert_non_null(end);
		memset(&g[n], 0, sizeof g[n]);
		const char *t = strstr(p, "data-target=\"") + strlen("data-target=\"");
		if (*t != '"')	/* "" for a run-wide line */
			assert_int_equal(sscanf(t, "%79[^\"]", g[n].target), 1);
		assert_int_equal(sscanf(strstr(p, "data-step=\""), "data-step=\"%u\"", &g[n].step), 1);
		assert_int_equal(sscanf(strstr(p, "data-source=\""), "data-source=\"%23[^\"]\"", g[n].source), 1);
		assert_int_equal(sscanf(strstr(p, "data-points=\""), "data-points=\"%zu\"", &g[n].said), 1);
		for (const char *q = p; (q = strstr(q, "<polyline points=\"")) && q < end; q++) {
			g[n].polylines++;
			const char *a = q + strlen("<polyline points=\""), *z = strchr(a, '"');
			for (const char *c = a; c < z; c++)
				g[n].points += *c == ',';
		}
		for (const char *q = p; (q = strstr(q, "<rect ")) && q < end; q++)
			g[n].points++;
		p = end;
	}
	return n;
}

static const struct grp *
find(const struct grp *g, size_t n, const char *target, unsigned step, const char *source)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(g[i].target, target) && g[i].step == step && !strcmp(g[i].source, source))
			return &g[i];
	return NULL;
}

static void
test_svg_points(void **state)
{
	(void)state;
	struct run_result r;
	fill(&r, false);
	char *html = render(&r);
	struct grp g[32];
	size_t n = groups(html, g, 32);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(g[i].said, g[i].points);
	/* sim:a step 1: 50 samples across the drive, 3 unknown: two lines, 47 points */
	const struct grp *a1 = find(g, n, "sim:a", 1, "series");
	assert_non_null(a1);
	assert_int_equal(a1->said, 47);
	assert_int_equal(a1->polylines, 2);
	assert_non_null(find(g, n, "sim:a", 2, "series"));
	assert_int_equal(find(g, n, "sim:a", 3, "series")->said, 70);
	assert_int_equal(find(g, n, "sim:b", 2, "series")->said, 60);
	assert_int_equal(find(g, n, "sim:a", 1, "hist")->said, 5);
	assert_int_equal(find(g, n, "", 0, "aggregate")->said, 3);
	assert_int_equal(find(g, n, "", 0, "ideal")->said, 3);
	/* charts: sim:a by position and over time, sim:b over time, a histogram, saturation */
	assert_int_equal(count(html, "<figure class=\"chart rate-pos\""), 1);
	assert_int_equal(count(html, "<figure class=\"chart rate-time\""), 2);
	assert_int_equal(count(html, "<figure class=\"chart hist\""), 1);
	assert_int_equal(count(html, "<figure class=\"chart saturation\""), 1);
	/* lines: sim:a 3 steps, sim:b 2, the histogram's bars, aggregate and ideal */
	assert_int_equal(n, 3 + 2 + 1 + 2);
	free(html);
	run_result_free(&r);
}

static void
test_unknown_not_zero(void **state)
{
	(void)state;
	struct run_result r;
	fill(&r, false);
	char *html = render(&r);
	/* sim:b has no identity: its facts read unknown; the unknown rate cell a dash */
	assert_true(count(html, ">unknown<") >= 8);
	assert_non_null(strstr(html, "<td class=\"n\"><span class=\"unknown\">—</span></td>"));
	assert_null(strstr(html, "0 bytes"));
	assert_non_null(strstr(html, "4000.8 GB"));
	/* the summary: both drives, sim:b with its FAIL and first reason */
	assert_non_null(strstr(html, "<h2>Summary</h2>"));
	assert_non_null(strstr(html, "<span class=\"lvl l-fail\">FAIL</span></td><td>unreadable</td>"));
	assert_null(strstr(html, "<script"));
	assert_non_null(strstr(html, "@media print"));
	free(html);
	run_result_free(&r);
}

/* A triage of four drives: two PASS saying the same but their rate, two
 * with no verdict of their own under a run-wide INFO, a table of 12 columns. */
static void
fill_bench(struct run_result *r)
{
	memset(r, 0, sizeof *r);
	snprintf(r->test, sizeof r->test, "triage");
	snprintf(r->run_id, sizeof r->run_id, "00112233445566778899aabbccddeeff");
	static const char *const names[] = { "sim:a", "sim:b", "sim:c", "sim:d" };
	r->n_ident = 4;
	r->ident = calloc(4, sizeof *r->ident);
	for (size_t i = 0; i < 4; i++) {
		strlist_add(&r->targets, names[i]);
		strlist_add(&r->ident_targets, names[i]);
		snprintf(r->ident[i].serial, sizeof r->ident[i].serial, "WD-WCC4E000%zu", i);
	}
	for (size_t i = 0; i < 2; i++) {
		struct verdict *v = result_verdict(r, VL_PASS, "triage", "%s: PASS", names[i]);
		verdict_evidence(v, "alone: %zu0 MB/s", i + 14);
		verdict_evidence(v, "temperature: 31 C (limit 55 C)");
	}
	result_verdict(r, VL_INFO, "saturation", "saturates at 2 drives: the chip is the limit");
	struct result_col cols[12];
	memset(cols, 0, sizeof cols);
	for (size_t c = 0; c < 12; c++) {
		snprintf(cols[c].name, sizeof cols[c].name, c == 0 ? "target" : c == 1 ? "serial" : c == 11 ? "reasons" : "n%zu", c);
		snprintf(cols[c].title, sizeof cols[c].title, c == 5 ? "Solo/peers" : c == 11 ? "Reasons" : "C%zu", c);
		cols[c].type = c < 2 || c == 11 ? COL_STR : COL_INT;
	}
	struct result_table *t = result_table_add(r, "triage", "Bench triage", cols, 12);
	for (size_t row = 0; row < 4; row++) {
		table_add_row(t);
		table_set_str(t, row, 0, names[row]);
		table_set_str(t, row, 1, r->ident[row].serial);
		table_set_str(t, row, 11, row == 2 ? "SLOW alone" : "-");
	}
}

static void
test_bench_layout(void **state)
{
	(void)state;
	struct run_result r;
	fill_bench(&r);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	const struct run_result *rp[] = { &r };
	struct html_header h = { "RMA <4711>", "bench-7" };
	html_report_print_h(f, rp, 1, &h);
	fclose(f);
	/* the header: the title escaped, the bench, the version */
	assert_non_null(strstr(buf, "<h1>RMA &lt;4711&gt;</h1>"));
	assert_non_null(strstr(buf, "<tr><th>bench</th><td>bench-7</td></tr>"));
	assert_non_null(strstr(buf, "<tr><th>by</th><td>diskscope "));
	/* 12 columns: the reasons on a second line of each row, across 11 */
	assert_non_null(strstr(buf, "<tr><th colspan=\"11\" class=\"wrap\">Reasons</th></tr>"));
	assert_int_equal(count(buf, "<tbody class=\"row\">"), 4);
	assert_non_null(strstr(buf, "<td colspan=\"11\" class=\"wrap\">SLOW alone</td>"));
	assert_non_null(strstr(buf, "<th>Solo/<wbr>peers</th>"));
	/* a serial never breaks after its hyphen */
	assert_non_null(strstr(buf, "<td><span class=\"tok\">WD-WCC4E0002</span></td>"));
	/* the two PASS in one block: the shared line once, each drive's rate on its line */
	assert_non_null(strstr(buf, "2 drives pass"));
	assert_int_equal(count(buf, "temperature: 31 C (limit 55 C)"), 1);
	assert_non_null(strstr(buf, "<li>sim:a: PASS — alone: 140 MB/s</li>"));
	assert_non_null(strstr(buf, "<li>sim:b: PASS — alone: 150 MB/s</li>"));
	/* the run-wide verdict: once in the summary (sim:c), then "as above";
	 * and once in the verdicts, not in each drive's section */
	assert_int_equal(count(buf, "saturates at 2 drives"), 2);
	assert_int_equal(count(buf, "the run's verdict, as above"), 1);
	/* charts first: the verdicts after the drives' sections */
	assert_true(strstr(buf, "<h3>Verdicts</h3>") > strstr(buf, "id=\"d0-3\""));
	free(buf);
	run_result_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_svg_points),
		cmocka_unit_test(test_unknown_not_zero),
		cmocka_unit_test(test_bench_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
