/* panel-latency.c - the latency histogram on a log time axis (decade ticks
 * in µs, ms, s; completions per column; p50/p99/p99.9 marked) and the stats
 * box beside it. */
#include <curses.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static int
bin_cmp(const void *x, const void *y)
{
	const struct lbin *a = x, *b = y;

	return a->hi < b->hi ? -1 : a->hi > b->hi;
}

static void
view_from_result(const struct run_result *r, struct lat_view *v)
{
	const struct step_result *st = &r->steps[r->n_steps - 1];

	v->last_step = r->n_steps > 1;
	for (size_t k = 0; k < st->n_res; k++) {
		const struct target_result *t = &st->res[k];

		for (size_t h = 0; h < t->hist.n && v->n < sizeof(v->b) / sizeof(v->b[0]); h++) {
			double hi = t->hist.upper_us[h];
			/* log-linear buckets: 64 per power of two */
			double w = ldexp(1, (int)floor(log2(hi > 0 ? hi : 1e-3))) / 64;

			v->b[v->n++] = (struct lbin){ hi - w > 0 ? hi - w : hi / 2, hi, (double)t->hist.count[h] };
		}
		if (t->lat.known && (!v->max.known || t->lat.max > v->max.v))
			v->max = known_dbl_of(t->lat.max);
	}
	qsort(v->b, v->n, sizeof(v->b[0]), bin_cmp);
	for (size_t i = 0; i < v->n; i++)
		v->total += v->b[i].n;
	if (st->n_res == 1 && st->res[0].lat.known) {
		v->p[0] = known_dbl_of(st->res[0].lat.p50);
		v->p[1] = known_dbl_of(st->res[0].lat.p99);
		v->p[2] = known_dbl_of(st->res[0].lat.p999);
		return;
	}
	/* several targets: percentiles of the merged histogram */
	static const double q[3] = { 50, 99, 99.9 };

	for (int i = 0; i < 3; i++) {
		double rank = q[i] / 100 * v->total, cum = 0;

		for (size_t k = 0; k < v->n; k++) {
			cum += v->b[k].n;
			if (cum >= rank && v->total > 0) {
				v->p[i] = known_dbl_of((v->b[k].lo + v->b[k].hi) / 2);
				break;
			}
		}
	}
}

static void
view_from_snapshot(const struct run_snapshot *s, struct lat_view *v)
{
	for (int k = 0; k < SNAP_HIST; k++) {
		if (!s->lat_hist[k])
			continue;
		/* bucket k holds (2^(k+6), 2^(k+7)] ns */
		v->b[v->n++] = (struct lbin){ ldexp(1, k + 6) / 1e3, ldexp(1, k + 7) / 1e3, (double)s->lat_hist[k] };
		v->total += (double)s->lat_hist[k];
	}
	v->p[0] = s->lat_p50_us;
	v->p[1] = s->lat_p99_us;
	v->p[2] = s->lat_p999_us;
}

/* "100µs", "1ms", "10s": a decade's tick label. */
static void
decade_label(const struct ui *u, int d, char *b, size_t n)
{
	static const char *const unit[] = { "ns", "\u00b5s", "ms", "s" };
	int g = (int)floor((d + 3) / 3.0);	/* -3..-1 ns, 0..2 µs, ... */

	if (g < 0)
		g = 0;
	if (g > 3)
		g = 3;
	double val = pow(10, d - (g - 1) * 3);

	if (g == 1 && !u->utf8)
		snprintf(b, n, "%gus", val);
	else
		snprintf(b, n, "%g%s", val, unit[g]);
}

static void
fmt_count(char *b, size_t n, double c)
{
	if (c >= 1e6)
		snprintf(b, n, "%.1fM", c / 1e6);
	else if (c >= 1e4)
		snprintf(b, n, "%.0fk", c / 1e3);
	else
		snprintf(b, n, "%.0f", c);
}

/* The bins spread over cw columns of the log axis (decades d0 .. d0 +
 * span): a bin's completions split by how much of each column it covers. */
static void
lat_columns(const struct lat_view *v, int d0, double span, int cw, double *col)
{
	for (size_t i = 0; i < v->n; i++) {
		double L = (log10(v->b[i].lo) - d0) / span * cw, H = (log10(v->b[i].hi) - d0) / span * cw;

		if (H - L < 1e-9) {	/* a point: its column */
			int c = (int)H;

			col[c < 0 ? 0 : c >= cw ? cw - 1 : c] += v->b[i].n;
			continue;
		}
		for (int c = (int)floor(L); c <= (int)ceil(H) && c < cw; c++) {
			double ov = fmin(H, c + 1) - fmax(L, c);

			if (c >= 0 && ov > 0)
				col[c] += v->b[i].n * ov / (H - L);
		}
	}
}

/* The percentiles' names under their marks (pc: their columns, -1 none),
 * then the figures and the maximum. */
static void
draw_figures(const struct lat_view *v, const struct rect *r, const int pc[3], int ly, int x0, int cw)
{
	char a[32];
	int next;
	static const char *const pname[3] = { "p50", "p99", "p99.9" };
	int mx = r->x + 2;

	next = 0;
	for (int i = 0; i < 3; i++) {
		if (pc[i] < 0 || pc[i] < next)
			continue;
		draw_text(ly + 1, x0 + pc[i], cw - pc[i] + 1, attr_of(EL_HIST_MARK), pname[i]);
		next = pc[i] + (int)strlen(pname[i]) + 1;
	}
	for (int i = 0; i < 3; i++) {
		fmt_known_us(a, sizeof(a), &v->p[i]);
		mx += draw_textf(ly + 2, mx, r->x + r->w - 2 - mx, attr_of(EL_HIST_MARK), "%s %s  ", pname[i], a);
	}
	if (v->max.known) {
		fmt_us(a, sizeof(a), v->max.v);
		draw_textf(ly + 2, mx, r->x + r->w - 2 - mx, attr_of(EL_TEXT), "max %s", a);
	}
}

void
panel_latency_draw(struct ui *u, const struct rect *r)
{
	struct lat_view *v = &u->lat.v;
	const struct run_snapshot *s = ui_view_snapshot(u);
	const struct run_result *res = u->view == VIEW_RESULT ? ui_current_result(u, 0) : NULL;
	char g[8], a[32], title[96];

	memset(v, 0, sizeof(*v));	/* every figure unknown */
	if (res && res->n_steps)
		view_from_result(res, v);
	if (v->total <= 0 && s) {	/* no saved histogram: the live one */
		memset(v, 0, sizeof(*v));
		view_from_snapshot(s, v);
	}
	fmt_count(a, sizeof(a), v->total);
	snprintf(title, sizeof(title), v->total > 0 ? "Latency  %s I/Os%s" : "Latency", a,
		 v->last_step ? " (last step)" : "");
	draw_box(u, r, title, u->focus == AR_LATENCY);
	if (v->total <= 0) {
		if (s || res)
			draw_text(r->y + 1, r->x + 2, r->w - 4, attr_of(EL_DIM), "no completed I/O yet");
		return;
	}
	/* x: log10 of µs over whole decades; y: completions per column. */
	double lo = v->b[0].lo, hi = v->b[0].hi;

	for (size_t i = 0; i < v->n; i++) {
		lo = fmin(lo, v->b[i].lo);
		hi = fmax(hi, v->b[i].hi);
	}
	if (v->max.known)
		hi = fmax(hi, v->max.v);
	int d0 = (int)floor(log10(lo)), d1 = (int)ceil(log10(hi));

	if (d1 <= d0)
		d1 = d0 + 1;
	int lw = 5, x0 = r->x + 1 + lw, cw = r->w - 3 - lw, ch = r->h - 5, y0 = r->y + 1;

	if (cw < 8 || ch < 1)
		return;
	double col[512] = { 0 }, cmax = 0;

	if (cw > 512)
		cw = 512;
	double span = d1 - d0;

	lat_columns(v, d0, span, cw, col);
	for (int c = 0; c < cw; c++)
		cmax = fmax(cmax, col[c]);
	/* percentile columns, marked through the plot where no bar stands */
	int pc[3];

	for (int i = 0; i < 3; i++) {
		pc[i] = v->p[i].known && v->p[i].v > 0 ? (int)((log10(v->p[i].v) - d0) / span * cw) : -1;
		if (pc[i] >= cw)
			pc[i] = cw - 1;
	}
	for (int c = 0; c < cw; c++) {
		double h = cmax > 0 ? col[c] / cmax * ch : 0;
		bool mark = c == pc[0] || c == pc[1] || c == pc[2];

		for (int row = 0; row < ch; row++) {
			double lvl = h - (ch - 1 - row);

			if (lvl > 0) {
				canvas_spark(u->gl, lvl > 1 ? 1 : lvl, g);
				draw_text(y0 + row, x0 + c, 1, attr_of(EL_HIST_BAR), g);
			} else if (mark) {
				draw_text(y0 + row, x0 + c, 1, attr_of(EL_HIST_MARK), u->utf8 ? "\u2502" : "|");
			}
		}
	}
	/* y: the tallest column's count at the top, 0 at the bottom */
	fmt_count(a, sizeof(a), cmax);
	draw_textf(y0, r->x + 1, lw, attr_of(EL_AXIS), "%*s", lw - 1, a);
	draw_textf(y0 + ch - 1, r->x + 1, lw, attr_of(EL_AXIS), "%*s", lw - 1, "0");
	/* x: decade ticks with their labels (µs, ms, s), skipped when crowded */
	int ly = y0 + ch, next = 0;

	for (int d = d0; d <= d1; d++) {
		int c = (int)lround((double)(d - d0) / span * cw);
		char lab[16];

		decade_label(u, d, lab, sizeof(lab));
		int lx = c - (d == d1 ? text_width(lab) - 1 : 0);

		if (lx < next || lx < 0)
			continue;
		draw_text(ly, x0 + lx, cw - lx + 1, attr_of(EL_AXIS), lab);
		next = lx + text_width(lab) + 1;
	}
	draw_figures(v, r, pc, ly, x0, cw);
}

void
panel_stats_draw(struct ui *u, const struct rect *r)
{
	const struct run_snapshot *s = ui_view_snapshot(u);
	char a[32], b[32];
	int x = r->x + 2, w = r->w - 4, y = r->y + 1, end = r->y + r->h - 1;

	draw_box(u, r, "Stats", u->focus == AR_STATS);
	if (!s)
		return;
	double pos = 0;
	int npos = 0;

	for (size_t i = 0; i < s->n_targets; i++)
		if (s->t[i].active) {
			pos += s->t[i].pos;
			npos++;
		}
	if (s->total_mbps.known)
		fmt_rate(a, sizeof(a), s->total_mbps.v);
	else
		snprintf(a, sizeof(a), "-");
	if (y < end)
		draw_textf(y++, x, w, attr_of(EL_TEXT), "MB/s     %s", a);
	if (y < end)
		draw_textf(y++, x, w, attr_of(EL_TEXT), "IOPS     %.0f", s->total_iops);
	fmt_known_us(a, sizeof(a), &s->lat_p50_us);
	fmt_known_us(b, sizeof(b), &s->lat_p99_us);
	if (y < end)
		draw_textf(y++, x, w, attr_of(EL_TEXT), "p50/p99  %s / %s", a, b);
	if (y < end)
		draw_textf(y++, x, w, attr_of(s->total_errors ? EL_FAIL : EL_OK), "errors   %llu",
			   (unsigned long long)s->total_errors);
	fmt_secs(a, sizeof(a), s->elapsed_s);
	fmt_secs(b, sizeof(b), s->eta_s.v);
	if (y < end)
		draw_textf(y++, x, w, attr_of(EL_TEXT), "elapsed  %s%s   ETA %s", a,
			   s->virtual_time ? " (virtual)" : "", s->eta_s.known ? b : "?");
	/* Position means progress only where the test sweeps the drive. */
	if (y < end && ui_positional(u) && npos)
		draw_textf(y++, x, w, attr_of(EL_TEXT), "position %.1f %%  step %u/%u", 100 * pos / npos,
			   s->step, s->n_steps);
	else if (y < end)
		draw_textf(y++, x, w, attr_of(EL_TEXT), "step %u/%u", s->step, s->n_steps);
	if (y < end && s->message[0])
		draw_text(y++, x, w, attr_of(s->state == RUN_FAILED ? EL_FAIL : EL_DIM), s->message);
}
