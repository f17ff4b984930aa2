/* panel-throughput.c - MB/s against time for all targets together: a braille
 * area plot, reads above and writes below the axis when both move, the axis
 * maximum autoscaled on the 1-2-5 ladder, the time axis labelled.  A result
 * is drawn whole (downsampled), by drive position where the test sweeps. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "run/test.h"

enum { L_NONE, L_READ, L_WRITE };

/* Sum of the targets' rings over the last `max` ticks.  With the run's
 * sample clock (ring_end, sample_now) every ring lands at its own time; a
 * ring ending earlier (the target idled) leaves zeros after it.  Without it,
 * only the active targets count, aligned at their newest sample. */
static size_t
sum_series(const struct run_snapshot *s, float *rd, float *wr, size_t max)
{
	bool clock = s->sample_now > 0, any_active = false;
	size_t n = 0;

	for (size_t t = 0; t < s->n_targets; t++)
		any_active |= s->t[t].active;
	/* A finished run has no active target: then every ring counts. */
#define COUNTS(st) ((st)->active || !any_active)

	for (size_t t = 0; t < s->n_targets; t++) {
		const struct snap_target *st = &s->t[t];

		if (clock && st->ring_end) {
			uint64_t from = st->ring_end - st->n;
			size_t span = s->sample_now > from ? (size_t)(s->sample_now - from) : 0;

			if (span > n)
				n = span;
		} else if (!clock && COUNTS(st) && st->n > n) {
			n = st->n;
		}
	}
	if (n > max)
		n = max;
	memset(rd, 0, n * sizeof(float));
	memset(wr, 0, n * sizeof(float));
	for (size_t t = 0; t < s->n_targets; t++) {
		const struct snap_target *st = &s->t[t];
		/* Index in rd/wr of ring sample i: i + shift (may be negative). */
		long long shift;

		if (clock && st->ring_end)
			shift = (long long)n - (long long)(s->sample_now - st->ring_end) - (long long)st->n;
		else if (!clock && COUNTS(st))
			shift = (long long)n - (long long)st->n;
		else
			continue;
		for (size_t i = 0; i < st->n; i++) {
			long long k = (long long)i + shift;

			if (k < 0 || k >= (long long)n)
				continue;
			rd[k] += st->read_hist[i];
			wr[k] += st->write_hist[i];
		}
	}
#undef COUNTS
	return n;
}

/* A result's whole run, downsampled to pw pixels (mean of the samples in
 * each; NAN where none).  By position on the drive when the test sweeps it
 * (one step, positions saved): between the lowest and highest position
 * seen; else by time across every step.  -1 when nothing is saved. */
static int
result_curve(struct ui *u, const struct run_result *r, float *out, int pw, bool *by_pos,
	     double *x0, double *x1)
{
	double *sum = u->tput.sum, *cnt = u->tput.cnt, *tsum = u->tput.tsum, *tcnt = u->tput.tcnt;
	const struct step_result *st = r->n_steps ? &r->steps[0] : NULL;
	bool pos = ui_positional(u) && r->n_steps == 1 && st->n_res > 0;
	double pmin = INFINITY, pmax = -INFINITY;

	if (pw > TP_CURVE_MAX)
		pw = TP_CURVE_MAX;
	for (size_t k = 0; pos && k < st->n_res; k++) {
		const struct saved_series *ss = &st->res[k].series;

		if (!ss->pos || ss->n < 2) {
			pos = false;
			break;
		}
		for (size_t i = 0; i < ss->n; i++)
			if (isfinite(ss->pos[i])) {
				pmin = fmin(pmin, ss->pos[i]);
				pmax = fmax(pmax, ss->pos[i]);
			}
	}
	pos = pos && pmax > pmin;
	memset(sum, 0, sizeof(u->tput.sum));
	memset(cnt, 0, sizeof(u->tput.cnt));
	if (pos) {
		for (size_t k = 0; k < st->n_res; k++) {
			const struct saved_series *ss = &st->res[k].series;

			memset(tsum, 0, sizeof(u->tput.tsum));
			memset(tcnt, 0, sizeof(u->tput.tcnt));
			for (size_t i = 0; i < ss->n; i++) {
				double p1 = ss->pos[i], p0 = i ? ss->pos[i - 1] : p1 - (ss->pos[1] - ss->pos[0]);
				float v = ss->mbps[i];

				if (!isfinite(p1) || !isfinite(v))
					continue;
				if (!(p0 < p1))	/* a new pass began: this sample is a point */
					p0 = p1;
				/* the interval swept [p0, p1]: it counts in every pixel it crossed */
				int a = (int)floor((fmax(p0, pmin) - pmin) / (pmax - pmin) * pw);
				int b = (int)ceil((p1 - pmin) / (pmax - pmin) * pw);

				if (b <= a)
					b = a + 1;
				for (int x = a < 0 ? 0 : a; x < b && x < pw; x++) {
					tsum[x] += v;
					tcnt[x]++;
				}
			}
			for (int x = 0; x < pw; x++)
				if (tcnt[x]) {
					sum[x] += tsum[x] / tcnt[x];
					cnt[x] = 1;
				}
		}
		*x0 = pmin;
		*x1 = pmax;
	} else {
		size_t total = 0;

		for (size_t s = 0; s < r->n_steps; s++) {
			size_t m = 0;

			for (size_t k = 0; k < r->steps[s].n_res; k++)
				if (r->steps[s].res[k].series.mbps && r->steps[s].res[k].series.n > m)
					m = r->steps[s].res[k].series.n;
			total += m;
		}
		if (!total)
			return -1;
		size_t g = 0;
		unsigned iv = 100;

		for (size_t s = 0; s < r->n_steps; s++) {
			const struct step_result *sp = &r->steps[s];
			size_t m = 0;

			for (size_t k = 0; k < sp->n_res; k++)
				if (sp->res[k].series.mbps && sp->res[k].series.n > m) {
					m = sp->res[k].series.n;
					iv = sp->res[k].series.interval_ms ? sp->res[k].series.interval_ms : iv;
				}
			for (size_t i = 0; i < m; i++, g++) {
				double agg = 0;

				for (size_t k = 0; k < sp->n_res; k++) {
					const struct saved_series *ss = &sp->res[k].series;

					if (ss->mbps && i < ss->n && isfinite(ss->mbps[i]))
						agg += ss->mbps[i];
				}
				int a = (int)(g * (size_t)pw / total), b = (int)((g + 1) * (size_t)pw / total);

				if (b <= a)
					b = a + 1;
				for (int x = a; x < b && x < pw; x++) {
					sum[x] += agg;
					cnt[x]++;
				}
			}
		}
		*x0 = 0;
		*x1 = (double)total * iv / 1000.0;
	}
	for (int x = 0; x < pw; x++)
		out[x] = cnt[x] ? (float)(sum[x] / cnt[x]) : NAN;
	*by_pos = pos;
	return 0;
}

/* The result view and `show`: the whole run, not the last seconds. */
static bool
draw_result_curve(struct ui *u, const struct rect *r, const struct run_result *res)
{
	float *v = u->tput.curve;
	static const int layer_el[] = { EL_TEXT, EL_READ, EL_WRITE };
	struct canvas c;
	char title[128], a[32];
	int lw = 6, cw = r->w - 2 - lw, ch = r->h - 3;
	bool by_pos = false;
	double x0, x1;

	if (cw < 4 || ch < 1 || canvas_init(&c, u->gl, cw, ch) < 0)
		return false;
	int pw = canvas_pw(&c), ph = canvas_ph(&c);

	if (pw > TP_CURVE_MAX || result_curve(u, res, v, pw, &by_pos, &x0, &x1) < 0) {
		canvas_free(&c);
		return false;
	}
	bool wr = res->params.rw_mix < 50;
	double vmax = 0;

	for (int x = 0; x < pw; x++)
		if (isfinite(v[x]))
			vmax = fmax(vmax, v[x]);
	double top = autoscale_update(&u->tp.scale, vmax);

	for (int x = 0; x < pw; x++) {
		int h = isfinite(v[x]) ? (int)lround(v[x] / top * ph) : 0;

		if (h > 0)
			canvas_vfill(&c, x, ph - h, ph - 1, wr ? L_WRITE : L_READ);
	}
	fmt_secs(a, sizeof(a), by_pos ? 0 : x1);
	if (by_pos)
		snprintf(title, sizeof(title), "Throughput by position  %s, whole run", wr ? "write" : "read");
	else
		snprintf(title, sizeof(title), "Throughput  %s, whole run (%s)", wr ? "write" : "read", a);
	draw_box(u, r, title, u->focus == AR_THROUGHPUT);
	draw_canvas(u, &c, r->y + 1, r->x + 1 + lw, layer_el);
	draw_textf(r->y + 1, r->x + 1, lw, attr_of(EL_AXIS), "%5.0f", top);
	draw_text(r->y + ch, r->x + 1, lw, attr_of(EL_AXIS), "    0");
	int ty = r->y + r->h - 2;

	draw_fill(ty, r->x + 1, r->w - 2, attr_of(EL_AXIS));
	draw_text(ty, r->x + 1, lw, attr_of(EL_AXIS), "MB/s");
	for (int k = 0; k <= 4; k++) {
		int x = r->x + 1 + lw + (cw - 1) * k / 4;
		double val = x0 + (x1 - x0) * k / 4;
		char lab[16];

		if (by_pos)	/* position on the drive, as % of it */
			snprintf(lab, sizeof(lab), x1 - x0 < 0.04 ? "%.2f%%" : "%.0f%%", 100 * val);
		else
			snprintf(lab, sizeof(lab), "%.0fs", val);
		int lx = x - (k == 4 ? text_width(lab) - 1 : k == 0 ? 0 : text_width(lab) / 2);

		draw_text(ty, lx, r->x + r->w - 1 - lx, attr_of(EL_AXIS), lab);
	}
	canvas_free(&c);
	return true;
}

/* A test that looks for stalls (PANEL_STALLS): every stretch of at least
 * 500 ms without a byte moved, after data had moved, gets a '!' under the
 * curve, so a stall stands out from a slow patch. */
static void
mark_stalls(const struct run_snapshot *s, const float *rd, const float *wr, size_t n,
	    size_t shown, int pw, int cw, int y, int x0)
{
	unsigned iv = s->interval_ms ? s->interval_ms : 100;
	size_t min = (500 + iv - 1) / iv, run = 0;
	bool seen = false;

	for (size_t k = 0; k <= shown; k++) {
		bool zero = k < shown && !(rd[n - shown + k] > 0) && !(wr[n - shown + k] > 0);

		if (zero && seen) {
			run++;
			continue;
		}
		for (size_t j = k - run; run >= min && j < k; j++)
			draw_text(y, x0 + (pw - (int)shown + (int)j) * cw / pw, 1, attr_of(EL_WARN), "!");
		run = 0;
		seen |= k < shown && !zero;
	}
}

void
panel_throughput_draw(struct ui *u, const struct rect *r)
{
	float *rd = u->tput.rd, *wr = u->tput.wr;
	const struct run_snapshot *s = ui_view_snapshot(u);
	char title[128], a[32], b[32];
	struct canvas c;
	static const int layer_el[] = { EL_TEXT, EL_READ, EL_WRITE };

	const struct run_result *res = u->view == VIEW_RESULT ? ui_current_result(u, 0) : NULL;

	if (res && draw_result_curve(u, r, res))
		return;
	if (!s) {
		draw_box(u, r, "Throughput", u->focus == AR_THROUGHPUT);
		return;
	}
	size_t n = sum_series(s, rd, wr, SNAP_SAMPLES);
	double rnow = n ? rd[n - 1] : 0, wnow = n ? wr[n - 1] : 0;

	fmt_rate(a, sizeof(a), rnow);
	fmt_rate(b, sizeof(b), wnow);
	snprintf(title, sizeof(title), "Throughput  read %s  write %s", a, b);
	draw_box(u, r, title, u->focus == AR_THROUGHPUT);
	int lw = 6, cw = r->w - 2 - lw, ch = r->h - 3;

	if (cw < 4 || ch < 1 || canvas_init(&c, u->gl, cw, ch) < 0)
		return;
	int pw = canvas_pw(&c), ph = canvas_ph(&c);
	size_t shown = n < (size_t)pw ? n : (size_t)pw;
	bool anyr = false, anyw = false;
	double vmax = 0;

	for (size_t i = n - shown; i < n; i++) {
		anyr |= rd[i] > 0;
		anyw |= wr[i] > 0;
		vmax = fmax(vmax, fmax(rd[i], wr[i]));
	}
	bool both = anyr && anyw;
	double top = autoscale_update(&u->tp.scale, vmax);
	/* Both directions: the axis sits in the middle, reads grow up from it
	 * and writes down; otherwise the whole height is one direction. */
	int axis = both ? ph / 2 : ph;

	for (size_t k = 0; k < shown; k++) {
		size_t i = n - shown + k;
		int px = pw - (int)shown + (int)k;

		if (both) {
			int hr = (int)lround(rd[i] / top * axis);
			int hw = (int)lround(wr[i] / top * (ph - axis));

			if (hr > 0)
				canvas_vfill(&c, px, axis - hr, axis - 1, L_READ);
			if (hw > 0)
				canvas_vfill(&c, px, axis, axis + hw - 1, L_WRITE);
		} else {
			double v = anyw ? wr[i] : rd[i];
			int h = (int)lround(v / top * ph);

			if (h > 0)
				canvas_vfill(&c, px, ph - h, ph - 1, anyw ? L_WRITE : L_READ);
		}
	}
	draw_canvas(u, &c, r->y + 1, r->x + 1 + lw, layer_el);
	if (s->panels & PANEL_STALLS)
		mark_stalls(s, rd, wr, n, shown, pw, cw, r->y + ch, r->x + 1 + lw);
	/* Y labels: the maximum and (both) the axis. */
	draw_textf(r->y + 1, r->x + 1, lw, attr_of(EL_AXIS), "%5.0f", top);
	if (both) {
		draw_text(r->y + 1 + ch / 2, r->x + 1, lw, attr_of(EL_AXIS), "    0");
		draw_textf(r->y + ch, r->x + 1, lw, attr_of(EL_AXIS), "%5.0f", top);
		draw_text(r->y + 1, r->x + 1 + lw, 4, attr_of(EL_READ), "R");
		draw_text(r->y + ch, r->x + 1 + lw, 4, attr_of(EL_WRITE), "W");
	} else {
		draw_text(r->y + ch, r->x + 1, lw, attr_of(EL_AXIS), "    0");
	}
	/* Time axis: seconds before now at a few places. */
	double per = (s->interval_ms ? s->interval_ms : 100) / 1000.0;
	int ty = r->y + r->h - 2;
	double span = pw * per;

	draw_fill(ty, r->x + 1, r->w - 2, attr_of(EL_AXIS));
	draw_text(ty, r->x + 1, lw, attr_of(EL_AXIS), "MB/s");
	for (int k = 0; k <= 4; k++) {
		int x = r->x + 1 + lw + (cw - 1) * k / 4;
		char lab[16];

		if (k == 4)
			snprintf(lab, sizeof(lab), "now");
		else
			snprintf(lab, sizeof(lab), "-%.0fs", span * (4 - k) / 4);
		int lx = x - (k == 4 ? 3 : k == 0 ? 0 : (int)strlen(lab) / 2);

		draw_text(ty, lx, r->x + r->w - 1 - lx, attr_of(EL_AXIS), lab);
	}
	canvas_free(&c);
}

bool
ui_positional(struct ui *u)
{
	const struct run_result *r = u->view == VIEW_RESULT || u->snap_ui_owned ? ui_current_result(u, 0) : NULL;
	const char *pat = r ? r->params.pattern : u->run_pattern;

	return strcmp(pat, "rand") != 0 && strcmp(pat, "random") != 0;
}
