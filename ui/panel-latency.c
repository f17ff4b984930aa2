/* panel-latency.c - the latency histogram (log2 buckets folded to fit the
 * width, p50/p99/p99.9 marked) and the stats box beside it. */
#include <curses.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* Upper bound of bucket k in µs: bucket k holds (2^(k+6), 2^(k+7)] ns. */
static double
bucket_upper_us(int k)
{
	return ldexp(1, k + 7) / 1000.0;
}

static int
bucket_of(double us)
{
	int k = 0;

	while (k < SNAP_HIST - 1 && us > bucket_upper_us(k))
		k++;
	return k;
}

void
panel_latency_draw(struct ui *u, const struct rect *r)
{
	const struct run_snapshot *s = ui_view_snapshot(u);
	char g[8], a[24];

	draw_box(u, r, "Latency", u->focus == AR_LATENCY);
	if (!s)
		return;
	int first = -1, last = -1;

	for (int k = 0; k < SNAP_HIST; k++)
		if (s->lat_hist[k]) {
			if (first < 0)
				first = k;
			last = k;
		}
	if (first < 0) {
		draw_text(r->y + 1, r->x + 2, r->w - 4, attr_of(EL_DIM), "no completed I/O yet");
		return;
	}
	int cw = r->w - 4, ch = r->h - 5;
	int nb = last - first + 1;
	/* Fold adjacent buckets until they fit; each column at least 1 cell. */
	int per = (nb + cw - 1) / cw;
	int ncol = (nb + per - 1) / per;
	int colw = cw / ncol > 8 ? 8 : cw / ncol;
	uint64_t col[SNAP_HIST], cmax = 1;

	if (ch < 1 || colw < 1)
		return;
	for (int c = 0; c < ncol; c++) {
		col[c] = 0;
		for (int k = first + c * per; k < first + (c + 1) * per && k <= last; k++)
			col[c] += s->lat_hist[k];
		if (col[c] > cmax)
			cmax = col[c];
	}
	int x0 = r->x + 2, y0 = r->y + 1;

	for (int c = 0; c < ncol; c++) {
		double h = (double)col[c] / (double)cmax * ch;

		for (int row = 0; row < ch; row++) {
			double lvl = h - (ch - 1 - row);

			if (lvl <= 0)
				continue;
			canvas_spark(u->gl, lvl > 1 ? 1 : lvl, g);
			for (int w = 0; w < colw - (colw > 2 ? 1 : 0); w++)
				draw_text(y0 + row, x0 + c * colw + w, 1, attr_of(EL_HIST_BAR), g);
		}
	}
	/* Bucket bounds under the bars, then the percentile marks. */
	int ly = y0 + ch;

	/* A label is up to 6 columns and wants a gap: every k-th column. */
	for (int c = 0; c < ncol; c += (7 + colw - 1) / colw) {
		fmt_us(a, sizeof(a), bucket_upper_us(first + (c + 1) * per - 1));
		char *sp = strchr(a, ' ');

		if (sp)
			memmove(sp, sp + 1, strlen(sp));
		draw_text(ly, x0 + c * colw, r->x + r->w - 2 - (x0 + c * colw), attr_of(EL_AXIS), a);
	}
	static const struct {
		const char *name;
		size_t off;
	} marks[] = {
		{ "p50", offsetof(struct run_snapshot, lat_p50_us) },
		{ "p99", offsetof(struct run_snapshot, lat_p99_us) },
		{ "p99.9", offsetof(struct run_snapshot, lat_p999_us) },
	};
	int mx = x0;

	for (size_t i = 0; i < 3; i++) {
		double v = *(const double *)((const char *)s + marks[i].off);

		if (!isfinite(v))
			continue;
		int c = (bucket_of(v) - first) / per;

		if (c >= 0 && c < ncol)
			draw_text(ly + 1, x0 + c * colw, 1, attr_of(EL_HIST_MARK), "^");
		fmt_us(a, sizeof(a), v);
		mx += draw_textf(ly + 2, mx, r->x + r->w - 2 - mx, attr_of(EL_HIST_MARK), "%s %s  ",
				 marks[i].name, a);
	}
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
	fmt_rate(a, sizeof(a), s->total_mbps);
	if (y < end)
		draw_textf(y++, x, w, attr_of(EL_TEXT), "MB/s     %s", a);
	if (y < end)
		draw_textf(y++, x, w, attr_of(EL_TEXT), "IOPS     %.0f", s->total_iops);
	fmt_us(a, sizeof(a), s->lat_p50_us);
	fmt_us(b, sizeof(b), s->lat_p99_us);
	if (y < end)
		draw_textf(y++, x, w, attr_of(EL_TEXT), "p50/p99  %s / %s", a, b);
	if (y < end)
		draw_textf(y++, x, w, attr_of(s->total_errors ? EL_FAIL : EL_OK), "errors   %llu",
			   (unsigned long long)s->total_errors);
	fmt_secs(a, sizeof(a), s->elapsed_s);
	fmt_secs(b, sizeof(b), s->eta_s);
	if (y < end)
		draw_textf(y++, x, w, attr_of(EL_TEXT), "elapsed  %s%s   ETA %s", a,
			   s->virtual_time ? " (virtual)" : "", s->eta_s < 0 ? "?" : b);
	/* Position means progress only where the test sweeps the drive. */
	if (y < end && ui_positional(u) && npos)
		draw_textf(y++, x, w, attr_of(EL_TEXT), "position %.1f %%  step %u/%u", 100 * pos / npos,
			   s->step, s->n_steps);
	else if (y < end)
		draw_textf(y++, x, w, attr_of(EL_TEXT), "step %u/%u", s->step, s->n_steps);
	if (y < end && s->message[0])
		draw_text(y++, x, w, attr_of(s->state == RUN_FAILED ? EL_FAIL : EL_DIM), s->message);
}
