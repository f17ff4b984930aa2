/* html-table.c - the report's tables: every step's figures, and each
 * result table as the page shows it (a wide one with its reasons on a second
 * line of each row, identity strings unbroken). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "report/html.h"
#include "report/html-int.h"

/* Every step's figures for every target, as `run` prints them. */
void
html_steps_table(FILE *f, const struct run_result *r)
{
	fputs("<table class=\"steps\"><caption>Steps</caption>\n<tr><th>step</th><th>what</th><th>target</th>"
	      "<th>MB/s</th><th>IOPS</th><th>p99 latency</th><th>errors</th><th>note</th></tr>\n", f);
	for (size_t i = 0; i < r->n_steps; i++) {
		const struct step_result *s = &r->steps[i];
		for (size_t j = 0; j < s->n_res; j++) {
			const struct target_result *t = &s->res[j];
			fprintf(f, "<tr><td class=\"n\">%u</td><td>", s->index);
			html_esc_or(f, s->label, DASH);
			fputs("</td><td>", f);
			html_escape(f, t->target);
			if (t->ios)
				fprintf(f, "</td><td class=\"n\">%.1f</td><td class=\"n\">%.0f</td>", t->mbps, t->iops);
			else
				fputs("</td><td class=\"n\">" DASH "</td><td class=\"n\">" DASH "</td>", f);
			if (t->lat.known)
				fprintf(f, "<td class=\"n\">%.2f ms</td>", t->lat.p99 / 1000);
			else
				fputs("<td class=\"n\">" DASH "</td>", f);
			fprintf(f, "<td class=\"n\">%" PRIu64 "</td><td>", t->err.count);
			html_escape(f, t->note);
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

/* A column whose values are identity tokens, not prose. */
static bool
col_is_ident(const struct result_col *c)
{
	static const char *const names[] = { "target", "controller", "port", "model", "serial", "wwn", "firmware" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(c->name, names[i]))
			return true;
	return false;
}

static void
col_header(FILE *f, const struct result_col *c, const char *attr)
{
	fprintf(f, "<th%s>", attr);
	/* "Shared/peers" may break after its slash: a narrow column */
	const char *t = c->title[0] ? c->title : c->name, *sl = strchr(t, '/');
	if (sl && sl[1]) {
		char b[sizeof c->title];
		snprintf(b, sizeof b, "%.*s", (int)(sl + 1 - t), t);
		html_escape(f, b);
		fputs("<wbr>", f);
		t = sl + 1;
	}
	html_escape(f, t);
	if (c->unit[0] && strcmp(c->unit, "%")) {
		fputs(" (", f);
		html_escape(f, c->unit);
		fputs(")", f);
	}
	fputs("</th>", f);
}

static void
cell_print(FILE *f, const struct result_table *t, size_t row, size_t c)
{
	char b[256];
	const struct result_cell *cell = &t->cells[row * t->n_cols + c];
	if (!cell_known(cell)) {
		fputs("<span class=\"unknown\">" DASH "</span>", f);
		return;
	}
	table_cell_text(t, row, c, b, sizeof b);
	if (col_is_ident(&t->cols[c]))
		html_tokens(f, b);
	else
		html_escape(f, b);
}

/* A table of many columns (the triage's 17) would not fit a page: its
 * reasons, the one long text, go on a second line of each row, across the
 * whole width, so every other column keeps its place on screen and paper. */
#define WRAP_COLS 10

/* A wide table with no reasons to wrap (the health table: every drive
 * class's figures) leaves out the columns no row has a value in (the NVMe
 * columns on a bench of SAS drives), so the rest fit; the caption names
 * them.  Any other table shows an unknown cell as unknown. */
static bool
col_shown(const struct result_table *t, size_t c)
{
	if (t->n_cols <= WRAP_COLS || table_col(t, CR_REASONS) >= 0)
		return true;
	for (size_t row = 0; row < t->n_rows; row++)
		if (cell_known(&t->cells[row * t->n_cols + c]))
			return true;
	return t->n_rows == 0;
}

void
html_result_table(FILE *f, const struct result_table *t)
{
	bool show[t->n_cols ? t->n_cols : 1];
	size_t n_shown = 0;
	for (size_t c = 0; c < t->n_cols; c++)
		n_shown += (show[c] = col_shown(t, c));
	int wrap = n_shown > WRAP_COLS ? table_col(t, CR_REASONS) : -1;
	if (wrap >= 0 && !show[wrap])
		wrap = -1;
	fprintf(f, "<table class=\"result%s\" data-name=\"", wrap >= 0 ? " wrapped" : "");
	html_escape(f, t->name);
	fputs("\"><caption>", f);
	html_esc_or(f, t->title[0] ? t->title : t->name, DASH);
	for (size_t c = 0, k = 0; c < t->n_cols; c++)
		if (!show[c]) {
			fputs(k++ ? ", " : " (no drive reported: ", f);
			html_escape(f, t->cols[c].title);
		}
	if (n_shown < t->n_cols)
		fputs(")", f);
	fputs("</caption>\n<thead><tr>", f);
	for (size_t c = 0; c < t->n_cols; c++)
		if ((int)c != wrap && show[c])
			col_header(f, &t->cols[c], "");
	fputs("</tr>\n", f);
	char span[48];
	snprintf(span, sizeof span, " colspan=\"%zu\" class=\"wrap\"", n_shown - 1);
	if (wrap >= 0) {
		fputs("<tr>", f);
		col_header(f, &t->cols[wrap], span);
		fputs("</tr>\n", f);
	}
	fputs("</thead>\n", f);
	for (size_t row = 0; row < t->n_rows; row++) {
		fputs(wrap >= 0 ? "<tbody class=\"row\"><tr>" : "<tr>", f);
		for (size_t c = 0; c < t->n_cols; c++) {
			if ((int)c == wrap || !show[c])
				continue;
			fputs(t->cols[c].type == COL_STR ? "<td>" : "<td class=\"n\">", f);
			cell_print(f, t, row, c);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
		if (wrap >= 0) {
			fprintf(f, "<tr><td%s>", span);
			cell_print(f, t, row, (size_t)wrap);
			fputs("</td></tr></tbody>\n", f);
		}
	}
	fputs("</table>\n", f);
}
