/* panel-results.c - a finished (or saved) run: the per-step table, each
 * target's numbers and the verdicts; `e` exports JSON and CSV through the
 * backend.  Two saved runs show side by side. */
#include <curses.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "bench/bench.h"
#include "internal.h"

/* The panel's lines, counted from the top of the content; results.top
 * scrolls: a line above or below the box is counted, not drawn. */
struct rout {
	struct ui *u;
	const struct rect *r;
	int x, w, ih, line;
};

static void rout_line(struct rout *o, int el, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
rout_line(struct rout *o, int el, const char *fmt, ...)
{
	int row = o->line++ - o->u->results.top;
	char buf[512];
	va_list ap;

	if (row < 0 || row >= o->ih)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	draw_text(o->r->y + 1 + row, o->x, o->w, attr_of((enum theme_el)el), buf);
}
#define OUT(el, ...) rout_line(ro, el, __VA_ARGS__)

/* The test's own tables, drawn from their column types whatever the test. */
static void
draw_tables(struct rout *ro, const struct run_result *res)
{
	char a[32];

	for (size_t i = 0; i < res->n_tables; i++) {
		const struct result_table *t = &res->tables[i];
		char row[256];
		int cw[16];
		size_t nc = t->n_cols < 16 ? t->n_cols : 16;

		OUT(EL_TEXT, "%s", "");
		OUT(EL_TITLE, "%s", t->title[0] ? t->title : t->name);
		for (size_t c = 0; c < nc; c++) {
			cw[c] = (int)strlen(t->cols[c].title[0] ? t->cols[c].title : t->cols[c].name);
			for (size_t y = 0; y < t->n_rows; y++) {
				table_cell_text(t, y, c, a, sizeof(a));
				if ((int)strlen(a) > cw[c])
					cw[c] = (int)strlen(a);
			}
		}
		for (int y = -1; y < (int)t->n_rows; y++) {
			size_t o = 0;
			for (size_t c = 0; c < nc && o < sizeof(row); c++) {
				if (y < 0)
					snprintf(a, sizeof(a), "%s", t->cols[c].title[0] ? t->cols[c].title : t->cols[c].name);
				else
					table_cell_text(t, (size_t)y, c, a, sizeof(a));
				o += (size_t)snprintf(row + o, sizeof(row) - o, "%s%*s", c ? "  " : "", cw[c], a);
			}
			OUT(y < 0 ? EL_DIM : EL_TEXT, "%s", row);
		}
	}
}

/* Measured time is the steps' own; the run's wall time says nothing
 * about a virtual-clock run. */
static double
result_measured(const struct run_result *res)
{
	double measured = 0;

	for (size_t i = 0; i < res->n_steps; i++) {
		/* A step lasts as long as its longest target (the targets' own
		 * clock: virtual for sim drives). */
		double m = 0;

		for (size_t k = 0; k < res->steps[i].n_res; k++)
			if (res->steps[i].res[k].seconds > m)
				m = res->steps[i].res[k].seconds;
		measured += m > 0 ? m : res->steps[i].seconds;
	}
	return res->virtual_time || !(res->seconds > 0) ? measured : res->seconds;
}

/* A step row's aggregate, ideal and efficiency ("-" each when unknown). */
static void
step_cells(const struct step_result *st, char *a, char *b, char *c, size_t n)
{
	snprintf(a, n, "-");
	snprintf(b, n, "-");
	snprintf(c, n, "-");
	if (st->aggregate_mbps.known)
		fmt_rate(a, n, st->aggregate_mbps.v);
	if (st->ideal_mbps > 0)
		fmt_rate(b, n, st->ideal_mbps);
	if (st->ideal_mbps > 0 && st->aggregate_mbps.known)
		snprintf(c, n, "%5.0f%%", 100 * st->aggregate_mbps.v / st->ideal_mbps);
}

/* The drives as the inventory saw them (the key for comparing runs). */
static void
draw_idents(struct rout *ro, const struct run_result *res)
{
	char a[32], b[32], c[32];
	for (size_t i = 0; i < res->n_ident; i++) {
		const struct target_ident *id = &res->ident[i];

		if (!id->model[0] && !id->serial[0])
			continue;
		if (id->capacity.known)
			fmt_bytes(a, sizeof(a), (double)id->capacity.v);
		else
			snprintf(a, sizeof(a), "?");
		snprintf(b, sizeof(b), "%s", id->logical.known ? "" : "?");
		if (id->logical.known)
			snprintf(b, sizeof(b), "%llu", (unsigned long long)id->logical.v);
		snprintf(c, sizeof(c), "%s", id->physical.known ? "" : "?");
		if (id->physical.known)
			snprintf(c, sizeof(c), "%llu", (unsigned long long)id->physical.v);
		OUT(EL_DIM, "%s: %s, serial %s, %s, %s/%s, %s %s",
		    i < res->ident_targets.n ? res->ident_targets.v[i] : "?", id->model[0] ? id->model : "?",
		    id->serial[0] ? id->serial : "?", a, b, c, id->controller[0] ? id->controller : "?",
		    id->port[0] ? id->port : "?");
	}
}

static void
draw_result(struct ui *u, const struct rect *r, const struct run_result *res, const char *title,
	    bool focus)
{
	char a[32], b[32], c[32], d[32];
	struct rout out = { u, r, r->x + 2, r->w - 4, r->h - 2, 0 }, *ro = &out;
	int w = out.w, ih = out.ih;

	draw_box(u, r, title, focus);
	if (!res) {
		draw_text(r->y + 1, out.x, w, attr_of(EL_DIM), "no result");
		return;
	}
	fmt_secs(a, sizeof(a), result_measured(res));
	/* drives, not what the user typed: ctrl:1 is eight of them */
	size_t nt = res->targets.n;

	for (size_t i = 0; i < res->n_steps; i++)
		if (res->steps[i].n_res > nt)
			nt = res->steps[i].n_res;
	OUT(EL_TITLE, "%s on %zu target%s: %zu step%s, %s%s%s", res->test, nt,
	    nt == 1 ? "" : "s", res->n_steps, res->n_steps == 1 ? "" : "s", a,
	    res->virtual_time ? " measured (virtual time)" : "", res->interrupted ? ", INTERRUPTED" : "");
	if (res->ceiling_mbps.known)
		OUT(EL_DIM, "link ceiling %.0f MB/s (%s)", res->ceiling_mbps.v, res->ceiling_text);
	if (res->refused_rule[0])	/* a saved refusal: nothing ran, and why */
		OUT(EL_FAIL, "refused by the guard (rule: %s): %s", res->refused_rule, res->refused_evidence);
	OUT(EL_TITLE, "%s", res->n_verdicts ? "Verdicts" : "No verdicts");
	/* a test whose table is its result (the quick grid): the table first */
	const struct bench_test *bt = bench_find(res->test);
	bool tables_first = bt && (bt->panels & PANEL_TABLE);
	for (size_t i = 0; i < res->n_verdicts; i++) {
		const struct verdict *v = &res->verdicts[i];
		enum theme_el el = v->level == VL_FAIL ? EL_FAIL : v->knee_drives > 0 ? EL_KNEE :
				   v->level == VL_PASS ? EL_OK : EL_WARN;

		OUT(el, "%s %s: %s", sym_mark(u), v->kind, v->text);
	}
	if (tables_first)
		draw_tables(ro, res);
	OUT(EL_TEXT, "%s", "");
	/* ideal and eff only where a step has an ideal (saturate): else the
	 * step's label, what it was */
	bool ideal = false, what = false;
	for (size_t i = 0; i < res->n_steps; i++) {
		ideal |= res->steps[i].ideal_mbps > 0;
		what |= res->steps[i].label[0] != 0;
	}
	if (ideal)
		OUT(EL_DIM, "%-5s %-6s %11s %11s %6s", "step", "drives", "aggregate", "ideal", "eff");
	else
		OUT(EL_DIM, "%-5s %-6s %11s  %s", "step", "drives", "aggregate", what ? "what" : "");
	for (size_t i = 0; i < res->n_steps; i++) {
		const struct step_result *st = &res->steps[i];

		step_cells(st, a, b, c, sizeof(a));
		if (ideal)
			OUT(EL_TEXT, "%-5u %-6zu %11s %11s %6s", st->index, st->active.n, a, b, c);
		else
			OUT(EL_TEXT, "%-5u %-6zu %11s  %s", st->index, st->active.n, a, st->label);
		if (res->n_steps > 1 && i + 1 < res->n_steps)
			continue;
		/* The per-target detail of the last (widest) step. */
		/* p99.9 and max: the only figures that show a multi-second stall;
		 * a narrow panel (two runs side by side) gives up p50 for them */
		bool narrow = w < 81;	/* the wide row is 81 columns */

		if (narrow)
			OUT(EL_DIM, "  %-10s %10s %7s %8s %8s %8s %6s", "target", "MB/s", "IOPS", "p99",
			    "p99.9", "max", "errors");
		else
			OUT(EL_DIM, "  %-12s %10s %8s %9s %9s %9s %9s %6s", "target", "MB/s", "IOPS", "p50",
			    "p99", "p99.9", "max", "errors");
		for (size_t k = 0; k < st->n_res; k++) {
			const struct target_result *t = &st->res[k];
			char e[32], f[32];

			fmt_rate(a, sizeof(a), t->mbps);
			fmt_us(b, sizeof(b), t->lat.known ? t->lat.p50 : -1);
			fmt_us(d, sizeof(d), t->lat.known ? t->lat.p99 : -1);
			fmt_us(e, sizeof(e), t->lat.known ? t->lat.p999 : -1);
			fmt_us(f, sizeof(f), t->lat.known ? t->lat.max : -1);
			if (narrow)
				OUT(t->err.count ? EL_FAIL : EL_TEXT, "  %-10.10s %10s %7.0f %8s %8s %8s %6llu%s",
				    t->target, a, t->iops, d, e, f, (unsigned long long)t->err.count,
				    t->stopped_early ? "  stopped early" : "");
			else
				OUT(t->err.count ? EL_FAIL : EL_TEXT, "  %-12.12s %10s %8.0f %9s %9s %9s %9s %6llu%s",
				    t->target, a, t->iops, b, d, e, f, (unsigned long long)t->err.count,
				    t->stopped_early ? "  stopped early" : "");
		}
	}
	draw_idents(ro, res);
	/* What the test said beyond one sentence, and its own tables: drawn
	 * from their types, whatever the test. */
	for (size_t i = 0; i < res->n_verdicts; i++)
		for (size_t k = 0; k < res->verdicts[i].evidence.n; k++)
			OUT(EL_DIM, "%s: %s", res->verdicts[i].kind, res->verdicts[i].evidence.v[k]);
	if (!tables_first)
		draw_tables(ro, res);
	if (out.line > ih)
		draw_textf(r->y + r->h - 1, r->x + r->w - 14, 12, attr_of(EL_DIM), " %d lines ", out.line);
	/* scrolling stops at the last full page, not on an empty panel */
	u->results.max_top = out.line > ih ? out.line - ih : 0;
}

void
panel_results_draw(struct ui *u, const struct rect *r)
{
	char title[96];
	const struct run_result *res = ui_current_result(u, 0);

	snprintf(title, sizeof(title), u->n_res > 1 ? "Result 1: %s" : "Result: %s", res ? res->test : "-");
	draw_result(u, r, res, title, u->focus == AR_RESULTS);
}

void
panel_results2_draw(struct ui *u, const struct rect *r)
{
	char title[96];
	const struct run_result *res = ui_current_result(u, 1);

	snprintf(title, sizeof(title), "Result 2: %s", res ? res->test : "-");
	draw_result(u, r, res, title, u->focus == AR_RESULTS2);
}

int
panel_results_key(struct ui *u, enum action a, int ch)
{
	char out[512], out2[512];

	switch (a) {
	case ACT_UP:
		if (u->results.top > 0)
			u->results.top--;
		return UI_HANDLED | UI_REDRAW;
	case ACT_DOWN:
		if (u->results.top < u->results.max_top)
			u->results.top++;
		return UI_HANDLED | UI_REDRAW;
	case ACT_HOME:
		u->results.top = 0;
		return UI_HANDLED | UI_REDRAW;
	case ACT_EXPORT: {
		if (!u->be || !u->be->export_result || (u->o && u->o->n_show)) {
			ui_notice(u, EL_WARN, "export: a saved run is already a file");
			return UI_HANDLED | UI_REDRAW;
		}
		int rc = u->be->export_result(u->be->ctx, "json", out, sizeof(out));

		if (rc == 0)
			rc = u->be->export_result(u->be->ctx, "csv", out2, sizeof(out2));
		if (rc < 0)
			ui_notice(u, EL_FAIL, "export failed: %s", strerror(-rc));
		else
			ui_notice(u, EL_OK, "saved %s and %s", out, out2);
		return UI_HANDLED | UI_REDRAW;
	}
	default:
		return 0;
	}
}
