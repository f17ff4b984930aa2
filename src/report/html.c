/* html.c - `diskscope report`: one self-contained HTML5 page for saved runs.
 * Inline CSS (with print rules: white paper, a page per drive) and inline
 * SVG (html-svg.c); a Content-Security-Policy that allows nothing else, so a
 * browser refuses (and says so) any script or outside resource.  Unknown
 * values are "unknown" or "—", never 0. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include "report/doc.h"
#include "report/html.h"
#include "report/html-int.h"


static const char css[] =
	"body{font:14px/1.4 sans-serif;color:#1a1a1a;background:#fff;margin:0 auto;max-width:1140px;padding:12px 20px}\n"
	"h1{font-size:22px;margin:8px 0}h2{font-size:18px;border-bottom:2px solid #444;margin-top:28px}\n"
	"h3{font-size:15px;margin:18px 0 6px}\n"
	"table{border-collapse:collapse;margin:6px 0 12px}th,td{border:1px solid #ccc;padding:2px 7px;vertical-align:top}\n"
	"th{background:#eef0f3;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"table.kv th{width:11em}.unknown{color:#888}\n"
	".lvl{display:inline-block;min-width:3.4em;text-align:center;font-weight:bold;border-radius:3px;padding:0 4px;color:#fff}\n"
	".l-pass{background:#2b8a3e}.l-warn{background:#c77700}.l-fail{background:#c92a2a}.l-info{background:#5c6b7a}.l-none{background:#999}\n"
	"ul.verdicts{list-style:none;padding:0}ul.verdicts>li{margin:6px 0;padding:4px 8px;border-left:5px solid #5c6b7a;background:#f6f7f9}\n"
	"ul.verdicts>li.v-pass{border-color:#2b8a3e}ul.verdicts>li.v-warn{border-color:#c77700}ul.verdicts>li.v-fail{border-color:#c92a2a}\n"
	"ul.evidence{margin:3px 0 0 1em;padding-left:1em;color:#333;font-size:13px}\n"
	".charts{display:flex;flex-wrap:wrap;gap:10px}.charts>p{flex-basis:100%;margin:0}figure.chart{margin:0;break-inside:avoid}\n"
	"figcaption{font-weight:bold;font-size:13px}figure.chart p.note{max-width:540px;margin:2px 0 0 10px;font-size:12px}\n"
	"svg{display:block;font:11px sans-serif}svg rect.plot{fill:#fff}svg rect.frame{fill:none;stroke:#555a60;stroke-width:3}\n"
	"svg .grid line{stroke:#e2e4e8;stroke-width:1}svg .mark line{stroke:#777;stroke-dasharray:3 3}svg .mark text{fill:#555}svg .ticks text,svg text.axis{fill:#333}\n"
	"svg g.series polyline{fill:none;stroke-width:1.6;stroke-linejoin:round}svg g.series rect{stroke:none}\n"
	"ul.legend{list-style:none;padding:0;margin:2px 0 0 56px;font-size:12px;display:flex;flex-wrap:wrap;gap:4px 14px;max-width:480px}\n"
	".swatch{display:inline-block;width:14px;height:4px;margin-right:5px;vertical-align:middle}\n"
	"section.drive{border-top:1px solid #bbb;margin-top:18px}\n"
	".meta{color:#555}.tok{white-space:nowrap}\n"
	"table.wrapped{font-size:12px}table.wrapped th,table.wrapped td{padding:2px 4px}\n"
	"table.wrapped tbody.row td.wrap{border-top:none;padding-left:2em}\n"
	"table.wrapped tbody.row tr:first-child td{border-bottom:none}table.wrapped th.wrap{padding-left:2em}\n"
	"@page{size:A4;margin:12mm}@page wide{size:A4 landscape;margin:12mm}\n"
	"@media print{body{max-width:none;padding:0;background:#fff;color:#000;font-size:12px}"
	"table.result,table.steps,table.summary{font-size:9px}th,td{padding:1px 3px}"
	"table.wrapped{page:wide;font-size:9px}table.wrapped tbody.row{break-inside:avoid}"
	"figure.chart svg{width:330px;height:auto}ul.legend{margin-left:34px;max-width:300px}"
	"section.drive,section.run{break-before:page}header+section.run{break-before:auto}h2,h3{break-after:avoid}"
	"table{break-inside:auto}tr{break-inside:avoid}th{background:#eee}"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}\n";

/* ---- escaping ---- */

/* The length of the valid UTF-8 sequence at s, 0 when invalid. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
	if (s[0] >= 0xf5 || s[0] < 0xc2)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||	/* overlong, surrogate */
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

void
html_escape(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p;) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\t': case '\n': fputc(' ', f); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				break;		/* a control character: nothing a page shows */
			if (*p < 0x80) {
				fputc(*p, f);
				break;
			}
			size_t n = utf8_len(p);
			if (!n) {
				fputs("\xef\xbf\xbd", f);	/* U+FFFD */
				p++;
				continue;
			}
			/* bidi overrides and isolates (U+202A-202E, U+2066-2069)
			 * would turn the text after them around: a drive's
			 * string must not reorder the page */
			if (n == 3 && p[0] == 0xe2 && ((p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) ||
						      (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9))) {
				p += n;
				continue;
			}
			fwrite(p, 1, n, f);
			p += n;
			continue;
		}
		p++;
	}
}

void
html_esc_or(FILE *f, const char *s, const char *unknown)
{
	if (s && s[0])
		html_escape(f, s);
	else
		fprintf(f, "<span class=\"unknown\">%s</span>", unknown);
}

/* Identity strings (a model, a serial, a WWN, a port) are not broken:
 * "WD-WCC4ESIM0000" stays whole (a browser would break after its hyphen);
 * ATA bounds them (40 characters a model, 20 a serial). */
void
html_tokens(FILE *f, const char *s)
{
	fputs("<span class=\"tok\">", f);
	html_escape(f, s);
	fputs("</span>", f);
}

static void
tok_or(FILE *f, const char *s, const char *unknown)
{
	if (s && s[0])
		html_tokens(f, s);
	else
		fprintf(f, "<span class=\"unknown\">%s</span>", unknown);
}

/* ---- verdicts per drive ---- */

static int
level_rank(enum verdict_level lv)
{
	return lv == VL_FAIL ? 3 : lv == VL_WARN ? 2 : lv == VL_PASS ? 1 : 0;
}

/* Does verdict v speak of target t ("sim:sim4: FAIL ...", "sda (step 7): ...")? */
static bool
verdict_of(const struct verdict *v, const char *t)
{
	size_t n = strlen(t);
	return n && !strncmp(v->text, t, n) && (v->text[n] == ':' || v->text[n] == ' ');
}

static bool
verdict_of_any(const struct run_result *r, const struct verdict *v)
{
	for (size_t i = 0; i < r->targets.n; i++)
		if (verdict_of(v, r->targets.v[i]))
			return true;
	for (size_t i = 0; i < r->ident_targets.n; i++)
		if (verdict_of(v, r->ident_targets.v[i]))
			return true;
	return false;
}

/* The worst verdict about target t: its own, else (one drive, or verdicts
 * about no drive in particular: a saturation) the run's worst. */
static const struct verdict *
drive_verdict(const struct run_result *r, const char *t)
{
	const struct verdict *best = NULL;
	for (int pass = 0; pass < 2 && !best; pass++)
		for (size_t i = 0; i < r->n_verdicts; i++) {
			const struct verdict *v = &r->verdicts[i];
			bool mine = pass == 0 ? verdict_of(v, t) : !verdict_of_any(r, v) && !v->tally;
			if (mine && (!best || level_rank(v->level) > level_rank(best->level)))
				best = v;
		}
	return best;
}

/* The first reason: the sentence without "target: " and "LEVEL: ", else its
 * first evidence line. */
static const char *
first_reason(const struct verdict *v, const char *t)
{
	const char *s = v->text;
	if (verdict_of(v, t)) {
		s += strlen(t);
		s += strspn(s, ": ");
	}
	static const char *const lv[] = { "PASS", "WARN", "FAIL", "INFO" };
	for (size_t i = 0; i < ARRAY_SIZE(lv); i++)
		if (!strncmp(s, lv[i], 4) && (s[4] == ':' || !s[4])) {
			s += 4;
			s += strspn(s, ": ");
			break;
		}
	if (!*s && v->evidence.n)
		s = v->evidence.v[0];
	return s;
}

static void
level_badge(FILE *f, const struct verdict *v)
{
	if (!v) {
		fputs("<span class=\"lvl l-none\">" DASH "</span>", f);
		return;
	}
	const char *n = verdict_level_name(v->level);
	fprintf(f, "<span class=\"lvl l-%s\">", n);
	for (const char *c = n; *c; c++)
		fputc(*c - 'a' + 'A', f);
	fputs("</span>", f);
}

/* ---- pieces ---- */

static const char *
drive_name(const struct run_result *r, size_t i)
{
	return i < r->ident_targets.n ? r->ident_targets.v[i] : i < r->targets.n ? r->targets.v[i] : "";
}

static size_t
drive_count(const struct run_result *r)
{
	return r->n_ident ? r->n_ident : r->targets.n;
}

static const struct target_ident *
drive_ident(const struct run_result *r, size_t i)
{
	return r->n_ident && i < r->n_ident ? &r->ident[i] : NULL;
}

static void
time_text(time_t t, char *buf, size_t n)
{
	struct tm tm;
	if (t <= 0 || !gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, n, "unknown");
}

static void
bytes_text(uint64_t b, char *buf, size_t n)
{
	if (b >= 1000000000ULL)
		snprintf(buf, n, "%.1f GB (%" PRIu64 " bytes)", b / 1e9, b);
	else if (b >= 1048576 && b % 1048576 == 0)
		snprintf(buf, n, "%" PRIu64 " MiB", b >> 20);
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, n, "%" PRIu64 " KiB", b >> 10);
	else
		snprintf(buf, n, "%" PRIu64 " bytes", b);
}

static void
kv_row(FILE *f, const char *k, const char *v)
{
	fprintf(f, "<tr><th>%s</th><td>", k);
	html_esc_or(f, v, "unknown");
	fputs("</td></tr>\n", f);
}

/* A row of identity tokens (model, serial): broken at spaces only. */
static void
kv_tok_row(FILE *f, const char *k, const char *v)
{
	fprintf(f, "<tr><th>%s</th><td>", k);
	tok_or(f, v, "unknown");
	fputs("</td></tr>\n", f);
}

static void
run_header(FILE *f, const struct run_result *r)
{
	char b[400], b2[64];
	fputs("<table class=\"kv\">\n", f);
	kv_row(f, "run id", r->run_id);
	kv_row(f, "test", r->test);
	kv_row(f, "host", r->host);
	time_text(r->started, b, sizeof b);
	kv_row(f, "started", b);
	if (r->seconds > 0)
		snprintf(b, sizeof b, "%.1f s%s", r->seconds, r->virtual_time ? " (simulated clock)" : "");
	else
		b[0] = 0;
	kv_row(f, "duration", b);
	kv_row(f, "diskscope version", r->version);
	fputs("<tr><th>targets</th><td>", f);
	for (size_t i = 0; i < r->targets.n; i++) {
		fputs(i ? ", " : "", f);
		html_escape(f, r->targets.v[i]);
	}
	fputs(r->targets.n ? "" : "<span class=\"unknown\">unknown</span>", f);
	fputs("</td></tr>\n", f);
	const struct run_params *p = &r->params;
	b2[0] = 0;
	if (p->bs)
		bytes_text(p->bs, b2, sizeof b2);
	int o = snprintf(b, sizeof b, "block %s, queue depth %u, %s, %d %% reads", p->bs ? b2 : "unknown", p->qd,
			 p->pattern[0] ? p->pattern : "pattern unknown", p->rw_mix);
	if (p->seconds > 0)
		o += snprintf(b + o, sizeof b - o, ", %.0f s per step", p->seconds);
	if (p->size) {
		bytes_text(p->size, b2, sizeof b2);
		o += snprintf(b + o, sizeof b - o, ", %s per target", b2);
	}
	if (p->region_lba)
		o += snprintf(b + o, sizeof b - o, ", LBA %" PRIu64 "-%" PRIu64, p->region_lba_start,
			      p->region_lba_end);
	else if (p->region_start > 0 || (p->region_end > 0 && p->region_end < 1))
		o += snprintf(b + o, sizeof b - o, ", region %.0f-%.0f %%", p->region_start * 100,
			      p->region_end * 100);
	if (p->engine[0])
		o += snprintf(b + o, sizeof b - o, ", engine %s", p->engine);
	snprintf(b + o, sizeof b - o, ", seed %" PRIu64, p->seed);
	kv_row(f, "parameters", b);
	if (r->ceiling_mbps.known) {
		snprintf(b, sizeof b, "%.0f MB/s%s%s", r->ceiling_mbps.v, r->ceiling_text[0] ? ", " : "", r->ceiling_text);
		kv_row(f, "link ceiling", b);
	}
	if (r->refused_rule[0]) {
		snprintf(b, sizeof b, "refused by the guard (rule: %s): %s", r->refused_rule, r->refused_evidence);
		kv_row(f, "state", b);
	} else if (r->interrupted || r->failed) {
		kv_row(f, "state", r->interrupted ? "interrupted: partial result"
			: r->n_steps ? "a step could not run (see notes)" : "not started (see notes)");
	}
	fputs("</table>\n", f);
}

static void
evidence_list(FILE *f, const struct verdict *v)
{
	if (!v->evidence.n)
		return;
	fputs("<ul class=\"evidence\">", f);
	for (size_t j = 0; j < v->evidence.n; j++) {
		fputs("<li>", f);
		html_escape(f, v->evidence.v[j]);
		fputs("</li>", f);
	}
	fputs("</ul>", f);
}

static bool
has_line(const struct verdict *v, const char *line)
{
	for (size_t j = 0; j < v->evidence.n; j++)
		if (!strcmp(v->evidence.v[j], line))
			return true;
	return false;
}

/* PASS verdicts of one kind about drives (8 healthy drives of a triage)
 * say mostly the same: one block, the lines every one of them has once,
 * then one line per drive with what is its own. */
static bool
groupable(const struct run_result *r, const struct verdict *v)
{
	return v->level == VL_PASS && !v->tally && verdict_of_any(r, v);
}

static void
verdict_group(FILE *f, const struct run_result *r, size_t first, bool *done)
{
	const struct verdict *v0 = &r->verdicts[first];
	size_t n = 0;
	for (size_t i = first; i < r->n_verdicts; i++)
		n += !done[i] && groupable(r, &r->verdicts[i]) && !strcmp(r->verdicts[i].kind, v0->kind);
	fprintf(f, "<li class=\"v-pass group\">");
	level_badge(f, v0);
	fputs(" <b>", f);
	html_escape(f, v0->kind);
	fprintf(f, "</b>: %zu drives pass", n);
	bool *common = calloc(v0->evidence.n ? v0->evidence.n : 1, sizeof *common);
	size_t nc = 0;
	for (size_t j = 0; common && j < v0->evidence.n; j++) {
		common[j] = true;
		for (size_t i = first + 1; i < r->n_verdicts && common[j]; i++)
			if (!done[i] && groupable(r, &r->verdicts[i]) && !strcmp(r->verdicts[i].kind, v0->kind))
				common[j] = has_line(&r->verdicts[i], v0->evidence.v[j]);
		nc += common[j];
	}
	if (nc) {
		fputs("; each of them:", f);
		fputs("<ul class=\"evidence\">", f);
		for (size_t j = 0; j < v0->evidence.n; j++)
			if (common[j]) {
				fputs("<li>", f);
				html_escape(f, v0->evidence.v[j]);
				fputs("</li>", f);
			}
		fputs("</ul>", f);
	}
	fputs("<ul class=\"evidence per-drive\">", f);
	for (size_t i = first; i < r->n_verdicts; i++) {
		const struct verdict *v = &r->verdicts[i];
		if (done[i] || !groupable(r, v) || strcmp(v->kind, v0->kind))
			continue;
		done[i] = true;
		fputs("<li>", f);
		html_escape(f, v->text);
		bool sep = false;
		for (size_t j = 0; j < v->evidence.n; j++) {
			bool shared = false;
			for (size_t c = 0; common && c < v0->evidence.n && !shared; c++)
				shared = common[c] && !strcmp(v0->evidence.v[c], v->evidence.v[j]);
			if (shared)
				continue;
			fputs(sep ? "; " : " — ", f);
			sep = true;
			html_escape(f, v->evidence.v[j]);
		}
		fputs("</li>", f);
	}
	fputs("</ul></li>\n", f);
	free(common);
}

static void
verdict_list(FILE *f, const struct run_result *r)
{
	if (!r->n_verdicts) {
		fputs("<p class=\"unknown\">no verdicts</p>\n", f);
		return;
	}
	bool *done = calloc(r->n_verdicts, sizeof *done);
	fputs("<ul class=\"verdicts\">\n", f);
	for (size_t i = 0; i < r->n_verdicts; i++) {
		const struct verdict *v = &r->verdicts[i];
		if (done && done[i])
			continue;
		size_t same = 0;
		for (size_t k = i; done && k < r->n_verdicts; k++)
			same += groupable(r, &r->verdicts[k]) && !strcmp(r->verdicts[k].kind, v->kind);
		if (done && groupable(r, v) && same >= 2) {
			verdict_group(f, r, i, done);
			continue;
		}
		fprintf(f, "<li class=\"v-%s\">", verdict_level_name(v->level));
		level_badge(f, v);
		fputs(" <b>", f);
		html_escape(f, v->kind);
		fputs("</b>: ", f);
		html_escape(f, v->text);
		evidence_list(f, v);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
	free(done);
}

static void
ident_table(FILE *f, const struct target_ident *id)
{
	char b[96];
	fputs("<table class=\"kv ident\">\n", f);
	kv_tok_row(f, "model", id ? id->model : NULL);
	kv_tok_row(f, "serial", id ? id->serial : NULL);
	kv_tok_row(f, "WWN", id ? id->wwn : NULL);
	kv_tok_row(f, "firmware", id ? id->firmware : NULL);
	b[0] = 0;
	if (id && id->capacity.known)
		bytes_text(id->capacity.v, b, sizeof b);
	kv_row(f, "capacity", b);
	b[0] = 0;
	if (id && id->logical.known && id->physical.known)
		snprintf(b, sizeof b, "%" PRIu64 " logical, %" PRIu64 " physical%s%s", id->logical.v, id->physical.v,
			 id->sector_source[0] ? " (from " : "", id->sector_source[0] ? id->sector_source : "");
	else if (id && id->logical.known)
		snprintf(b, sizeof b, "%" PRIu64 " logical, physical unknown", id->logical.v);
	if (b[0] && id->sector_source[0])
		strncat(b, ")", sizeof b - strlen(b) - 1);
	kv_row(f, "sector sizes", b);
	kv_tok_row(f, "controller", id ? id->controller : NULL);
	kv_tok_row(f, "port", id ? id->port : NULL);
	fputs("</table>\n", f);
}

static void
drive_section(FILE *f, const struct run_result *r, size_t ri, size_t i)
{
	const char *t = drive_name(r, i);
	const struct target_ident *id = drive_ident(r, i);
	const struct verdict *v = drive_verdict(r, t);

	fprintf(f, "<section class=\"drive\" id=\"d%zu-%zu\">\n<h3>", ri, i);
	level_badge(f, v);
	fputc(' ', f);
	html_escape(f, t);
	if (id && id->model[0]) {
		fputs(" — ", f);
		html_escape(f, id->model);
	}
	fputs("</h3>\n", f);
	if (v && verdict_of(v, t)) {	/* the run's verdict: once, in Verdicts */
		fputs("<p>", f);
		html_escape(f, v->text);
		fputs("</p>\n", f);
	}
	ident_table(f, id);
	fputs("<div class=\"charts\">\n", f);
	double cap = id && id->capacity.known ? (double)id->capacity.v : 0;
	bool any = svg_rate_charts(f, r, t, cap);
	any |= svg_hist_chart(f, r, t);
	if (!any)
		fputs("<p class=\"unknown\">no samples to chart for this drive</p>\n", f);
	fputs("</div>\n</section>\n", f);
}

static void
run_section(FILE *f, const struct run_result *r, size_t ri)
{
	fprintf(f, "<section class=\"run\" id=\"r%zu\">\n<h2>", ri);
	html_esc_or(f, r->test, "unknown test");
	fputs(" <span class=\"meta\">run ", f);
	html_esc_or(f, r->run_id, "unknown");
	fputs("</span></h2>\n", f);
	run_header(f, r);
	/* the charts first; the verdicts' evidence after (the summary leads
	 * with every drive's verdict) */
	if (r->n_steps > 1) {
		fputs("<div class=\"charts\">\n", f);
		svg_saturation_chart(f, r);
		svg_steps_chart(f, r);
		fputs("</div>\n", f);
	}
	for (size_t i = 0; i < drive_count(r); i++)
		drive_section(f, r, ri, i);
	fputs("<h3>Verdicts</h3>\n", f);
	verdict_list(f, r);
	fputs("<section class=\"tables\">\n<h3>Results</h3>\n", f);
	html_steps_table(f, r);
	for (size_t i = 0; i < r->n_tables; i++)
		html_result_table(f, &r->tables[i]);
	if (r->notes.n) {
		fputs("<h3>Notes</h3>\n<ul class=\"notes\">\n", f);
		for (size_t i = 0; i < r->notes.n; i++) {
			fputs("<li>", f);
			html_escape(f, r->notes.v[i]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	fputs("</section>\n</section>\n", f);
}

/* The summary's reason: its first clause, before a "; " or " (" (the whole
 * sentence is in the run's verdicts), so a drive is one line of the
 * one-page summary. */
static void
reason_short(FILE *f, const char *s)
{
	const char *e = strstr(s, "; "), *p = strstr(s, " (");
	if (p && p - s >= 12 && (!e || p < e))
		e = p;	/* "alone: 149.9 MB/s, 100 % of its peers' median (8 on the bench, ...)" */
	if (!e || e - s < 12) {
		html_escape(f, s);
		return;
	}
	char b[512];
	snprintf(b, sizeof b, "%.*s", (int)(e - s < (int)sizeof b - 1 ? e - s : (int)sizeof b - 1), s);
	html_escape(f, b);
	fputs(" …", f);
}

/* "14 drives: 9 pass, 2 warn, 2 fail, 1 info" over every run. */
static void
summary_counts(FILE *f, const struct run_result *const *runs, size_t n)
{
	size_t c[5] = { 0 }, all = 0;	/* none, pass, warn, fail, info */
	for (size_t ri = 0; ri < n; ri++)
		for (size_t i = 0; i < drive_count(runs[ri]); i++) {
			const struct verdict *v = drive_verdict(runs[ri], drive_name(runs[ri], i));
			c[!v ? 0 : v->level == VL_PASS ? 1 : v->level == VL_WARN ? 2 : v->level == VL_FAIL ? 3 : 4]++;
			all++;
		}
	fprintf(f, "<p class=\"counts\"><b>%zu drive%s</b>: %zu pass, %zu warn, %zu fail", all, all == 1 ? "" : "s",
		c[1], c[2], c[3]);
	if (c[4])
		fprintf(f, ", %zu info (a run-wide result)", c[4]);
	if (c[0])
		fprintf(f, ", %zu without a verdict", c[0]);
	fputs("</p>\n", f);
}

/* Every drive of every run: its verdict and first reason. */
static void
summary_table(FILE *f, const struct run_result *const *runs, size_t n)
{
	fputs("<h2>Summary</h2>\n", f);
	summary_counts(f, runs, n);
	fputs("<table class=\"summary\">\n<tr><th>test</th><th>run</th><th>drive</th>"
	      "<th>model</th><th>serial</th><th>verdict</th><th>first reason</th></tr>\n", f);
	for (size_t ri = 0; ri < n; ri++) {
		const struct run_result *r = runs[ri];
		const struct verdict *said = NULL;	/* the run's verdict, said on its first row */
		for (size_t i = 0; i < drive_count(r); i++) {
			const char *t = drive_name(r, i);
			const struct target_ident *id = drive_ident(r, i);
			const struct verdict *v = drive_verdict(r, t);
			fputs("<tr><td>", f);
			html_esc_or(f, r->test, "unknown");
			fputs("</td><td>", f);
			if (r->run_id[0])
				fprintf(f, "%.8s", r->run_id);	/* hex: nothing to escape */
			else
				fputs("<span class=\"unknown\">unknown</span>", f);
			fprintf(f, "</td><td><a href=\"#d%zu-%zu\">", ri, i);
			html_escape(f, t);
			fputs("</a></td><td>", f);
			tok_or(f, id ? id->model : NULL, "unknown");
			fputs("</td><td>", f);
			tok_or(f, id ? id->serial : NULL, "unknown");
			fputs("</td><td>", f);
			level_badge(f, v);
			fputs("</td><td>", f);
			if (v && v == said)
				fputs("<span class=\"meta\">the run's verdict, as above</span>", f);
			else if (v)
				reason_short(f, first_reason(v, t));
			else
				html_esc_or(f, NULL, DASH);
			if (v && !verdict_of(v, t))
				said = v;
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

void
html_report_print(FILE *f, const struct run_result *const *runs, size_t n)
{
	html_report_print_h(f, runs, n, NULL);
}

void
html_report_print_h(FILE *f, const struct run_result *const *runs, size_t n, const struct html_header *h)
{
	size_t drives = 0;
	time_t first = 0, last = 0;
	for (size_t i = 0; i < n; i++) {
		drives += drive_count(runs[i]);
		if (runs[i]->started > 0 && (!first || runs[i]->started < first))
			first = runs[i]->started;
		if (runs[i]->started > last)
			last = runs[i]->started;
	}
	const char *title = h && h->title && h->title[0] ? h->title : NULL;
	const char *bench = h && h->bench && h->bench[0] ? h->bench : n ? runs[0]->host : "";
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
	if (title) {
		html_escape(f, title);
		fputs(" — ", f);
	}
	fputs("diskscope report", f);
	if (n == 1) {
		fputs(": ", f);
		html_escape(f, runs[0]->test);
		fputs(" ", f);
		html_escape(f, runs[0]->run_id);
	}
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n<h1>", css);
	html_escape(f, title ? title : "diskscope report");
	fputs("</h1>\n<table class=\"kv head\">\n", f);
	kv_row(f, "bench", bench);
	char d1[40], d2[40], b[128];
	time_text(first, d1, sizeof d1);
	time_text(last, d2, sizeof d2);
	if (first && strncmp(d1, d2, 10))
		snprintf(b, sizeof b, "%s to %s", d1, d2);
	else
		snprintf(b, sizeof b, "%s", d1);
	kv_row(f, n == 1 ? "run date" : "run dates", first ? b : NULL);
	time_text(time(NULL), d1, sizeof d1);
	kv_row(f, "written", d1);
	snprintf(b, sizeof b, "diskscope %s", DS_VERSION);
	kv_row(f, "by", b);
	snprintf(b, sizeof b, "%zu run%s, %zu drive%s", n, n == 1 ? "" : "s", drives, drives == 1 ? "" : "s");
	kv_row(f, "contents", b);
	fputs("</table>\n</header>\n", f);
	if (drives > 1 || n > 1) {
		fputs("<section class=\"summary-page\">\n", f);
		summary_table(f, runs, n);
		fputs("</section>\n", f);
	}
	for (size_t i = 0; i < n; i++)
		run_section(f, runs[i], i);
	fputs("</body>\n</html>\n", f);
}

int
html_report_write(const struct run_result *const *runs, size_t n, const char *path, const struct html_header *h)
{
	struct doc_out o;
	int rc = doc_out_open(&o, path);
	if (rc)
		return rc;
	html_report_print_h(o.f, runs, n, h);
	return doc_out_commit(&o);
}
