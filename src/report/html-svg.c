/* html-svg.c - the report's inline SVG charts: rate by position, rate over
 * time, latency histogram, saturation curve.  Every chart has the same
 * frame (W x H, the plot area inside), so the page and the tests know where
 * to look; lines are <polyline>s, one <g class="series"> per line with its
 * point count in data-points. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/html.h"
#include "report/html-int.h"

#define W 552		/* PX1 + room for half a last x label ("100 ms") */
#define H 250
#define PX0 56		/* plot area: x from PX0 to PX1, y from PY0 to PY1 */
#define PX1 528
#define PY0 14
#define PY1 206

/* Line colours: saturated, so a chart's ink is told from its grey frame. */
static const char *const palette[] = {
	"#1f6fd1", "#d9480f", "#2b8a3e", "#c2255c", "#7048e8", "#e67700", "#0c8599", "#5c940d",
};

void
svg_num(FILE *f, double v)
{
	long t = lround(v * 10);	/* tenths: "%f" would follow LC_NUMERIC */
	if (t < 0) {
		fputc('-', f);
		t = -t;
	}
	if (t % 10)
		fprintf(f, "%ld.%ld", t / 10, t % 10);
	else
		fprintf(f, "%ld", t / 10);
}

/* A round step for about n ticks over [0, max]. */
static double
nice_step(double max, int n)
{
	double raw = max / n, mag = pow(10, floor(log10(raw)));
	double m = raw / mag;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * mag;
}

static void
tick_label(FILE *f, double v)
{
	if (fabs(v) >= 100 || fabs(v - round(v)) < 1e-9)
		fprintf(f, "%.0f", v);
	else
		svg_num(f, v);
}

/* The frame: title, plot area, y grid and ticks 0..ymax, x ticks over
 * [x0, x1] (xlog: decades of a log axis), axis titles. */
struct axes {
	double x0, x1, ymax;
	bool xlog;
};

static double
ax_x(const struct axes *a, double x)
{
	if (a->xlog)
		x = log10(x);
	return PX0 + (x - a->x0) / (a->x1 - a->x0) * (PX1 - PX0);
}

static double
ax_y(const struct axes *a, double y)
{
	return PY1 - y / a->ymax * (PY1 - PY0);
}

static void
frame_open(FILE *f, const char *cls, const char *title, const struct axes *a, const char *xtitle,
	   const char *ytitle)
{
	fprintf(f, "<figure class=\"chart %s\"><figcaption>", cls);
	html_escape(f, title);
	fprintf(f, "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
		   " viewBox=\"0 0 %d %d\" role=\"img\">\n", W, H, W, H);
	fprintf(f, "<rect class=\"plot\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
		PX0, PY0, PX1 - PX0, PY1 - PY0);
	double ys = nice_step(a->ymax, 5);
	fputs("<g class=\"grid\">", f);
	for (double y = ys; y < a->ymax * 0.999; y += ys) {
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"", PX0 + 2, PX1 - 2);
		svg_num(f, ax_y(a, y));
		fputs("\" y2=\"", f);
		svg_num(f, ax_y(a, y));
		fputs("\"/>", f);
	}
	fputs("</g>\n<g class=\"ticks\">", f);
	for (double y = 0; y <= a->ymax * 1.0001; y += ys) {
		fprintf(f, "<text x=\"%d\" y=\"", PX0 - 5);
		svg_num(f, ax_y(a, y) + 4);
		fputs("\" text-anchor=\"end\">", f);
		tick_label(f, y);
		fputs("</text>", f);
	}
	if (a->xlog) {
		/* decades; 2 and 5 between them when the axis spans few */
		static const double sub[] = { 1, 2, 5 };
		size_t nsub = a->x1 - a->x0 < 2.5 ? 3 : 1;
		for (double d = floor(a->x0); d <= a->x1; d++)
			for (size_t k = 0; k < nsub; k++) {
				double us = sub[k] * pow(10, d);
				if (log10(us) < a->x0 || log10(us) > a->x1)
					continue;
				fputs("<text x=\"", f);
				svg_num(f, ax_x(a, us));
				fprintf(f, "\" y=\"%d\" text-anchor=\"middle\">", PY1 + 15);
				if (us >= 1000)
					fprintf(f, "%.0f ms", us / 1000);
				else
					fprintf(f, "%.0f µs", us);
				fputs("</text>", f);
			}
	} else {
		double xs = nice_step(a->x1 - a->x0, 6);
		for (double x = ceil(a->x0 / xs) * xs; x <= a->x1 * 1.0001; x += xs) {
			fputs("<text x=\"", f);
			svg_num(f, ax_x(a, x));
			fprintf(f, "\" y=\"%d\" text-anchor=\"middle\">", PY1 + 15);
			tick_label(f, x);
			fputs("</text>", f);
		}
	}
	fputs("</g>\n", f);
	fprintf(f, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (PX0 + PX1) / 2, H - 8);
	html_escape(f, xtitle);
	fprintf(f, "</text><text class=\"axis\" transform=\"translate(13 %d) rotate(-90)\" text-anchor=\"middle\">",
		(PY0 + PY1) / 2);
	html_escape(f, ytitle);
	fputs("</text>\n", f);
}

/* The frame is drawn last, over the lines and bars: its edges stay whole
 * (the tests find a chart by them). */
static void
frame_close(FILE *f)
{
	fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n</svg>\n",
		PX0, PY0, PX1 - PX0, PY1 - PY0);
}

/* One line: the known points of (x[i], y[i]); a gap (NAN) ends a polyline
 * and starts the next, so an unknown stretch is never drawn as a value. */
struct line {
	const char *label;
	const char *target;	/* "" for a run-wide line */
	unsigned step;
	const char *source;	/* "by_position", "series", "aggregate", "ideal" */
	double *x, *y;
	size_t n;
	bool dashed;
};

static size_t
line_known(const struct line *l)
{
	size_t k = 0;
	for (size_t i = 0; i < l->n; i++)
		k += isfinite(l->x[i]) && isfinite(l->y[i]);
	return k;
}

static void
line_draw(FILE *f, const struct axes *a, const struct line *l, const char *colour)
{
	fputs("<g class=\"series\" data-target=\"", f);
	html_escape(f, l->target ? l->target : "");
	fprintf(f, "\" data-step=\"%u\" data-source=\"%s\" data-points=\"%zu\" stroke=\"%s\"%s>",
		l->step, l->source, line_known(l), colour, l->dashed ? " stroke-dasharray=\"6 4\"" : "");
	bool open = false;
	for (size_t i = 0; i < l->n; i++) {
		bool ok = isfinite(l->x[i]) && isfinite(l->y[i]);
		if (!ok) {
			if (open)
				fputs("\"/>", f);
			open = false;
			continue;
		}
		fputs(open ? " " : "<polyline points=\"", f);
		open = true;
		/* a value off the axes (a hand-edited file) stays on the frame */
		svg_num(f, fmin(fmax(ax_x(a, l->x[i]), PX0), PX1));
		fputc(',', f);
		svg_num(f, ax_y(a, fmin(fmax(l->y[i], 0), a->ymax)));
	}
	if (open)
		fputs("\"/>", f);
	/* a single known point has no length: mark it */
	fputs("</g>\n", f);
}

static void
legend(FILE *f, const struct line *ls, size_t n)
{
	fputs("<ul class=\"legend\">", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "<li><span class=\"swatch\" style=\"background:%s\"></span>",
			palette[i % ARRAY_SIZE(palette)]);
		html_escape(f, ls[i].label);
		fputs("</li>", f);
	}
	fputs("</ul>", f);
}

/* A vertical mark at x (NAN: none), grey: not a line of data; or, with
 * dot, a point at (x, y) with its label (the drive's solo rate). */
struct mark {
	double x;
	const char *label;
	bool dot;
	double y;
};

static void
lines_chart(FILE *f, const char *cls, const char *title, struct line *ls, size_t n,
	    struct axes *a, const char *xtitle, const char *ytitle, const struct mark *m, const char *note)
{
	double ymax = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < ls[i].n; j++)
			if (isfinite(ls[i].x[j]) && isfinite(ls[i].y[j]))
				ymax = fmax(ymax, ls[i].y[j]);
	if (m && m->dot && isfinite(m->y))
		ymax = fmax(ymax, m->y);
	a->ymax = ymax > 0 ? ymax * 1.1 : 1;
	frame_open(f, cls, title, a, xtitle, ytitle);
	for (size_t i = 0; i < n; i++)
		line_draw(f, a, &ls[i], palette[i % ARRAY_SIZE(palette)]);
	if (m && m->dot && isfinite(m->x) && isfinite(m->y)) {
		fputs("<g class=\"solo\"><circle r=\"4.5\" fill=\"#111\" cx=\"", f);
		svg_num(f, fmin(fmax(ax_x(a, m->x), PX0 + 5), PX1));
		fputs("\" cy=\"", f);
		svg_num(f, ax_y(a, m->y));
		fputs("\"/><text x=\"", f);
		svg_num(f, fmin(fmax(ax_x(a, m->x), PX0 + 5), PX1) + 8);
		fputs("\" y=\"", f);
		svg_num(f, ax_y(a, m->y) + 4);
		fputs("\">", f);
		html_escape(f, m->label);
		fputs("</text></g>\n", f);
	} else if (m && isfinite(m->x)) {
		fputs("<g class=\"mark\"><line x1=\"", f);
		svg_num(f, ax_x(a, m->x));
		fputs("\" x2=\"", f);
		svg_num(f, ax_x(a, m->x));
		fprintf(f, "\" y1=\"%d\" y2=\"%d\"/><text x=\"", PY0 + 2, PY1 - 2);
		svg_num(f, ax_x(a, m->x) + 4);
		fprintf(f, "\" y=\"%d\">", PY0 + 14);
		html_escape(f, m->label);
		fputs("</text></g>\n", f);
	}
	frame_close(f);
	legend(f, ls, n);
	if (note && note[0]) {
		fputs("<p class=\"meta note\">", f);
		html_escape(f, note);
		fputs("</p>", f);
	}
	fputs("</figure>\n", f);
}

static void
lines_free(struct line *ls, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(ls[i].x);
		free(ls[i].y);
	}
	free(ls);
}

static const struct target_result *
step_target(const struct step_result *s, const char *target)
{
	for (size_t i = 0; i < s->n_res; i++)
		if (!strcmp(s->res[i].target, target))
			return &s->res[i];
	return NULL;
}

static size_t
known_f(const float *v, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; v && i < n; i++)
		k += isfinite(v[i]);
	return k;
}

/* A series crosses the drive when its positions span a quarter of it:
 * then rate by position says more than rate over time. */
static bool
series_positional(const struct saved_series *s)
{
	float lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; s->pos && i < s->n; i++)
		if (isfinite(s->pos[i])) {
			lo = fminf(lo, s->pos[i]);
			hi = fmaxf(hi, s->pos[i]);
		}
	return hi - lo >= 0.25f;
}

static int
line_alloc(struct line *l, size_t n)
{
	l->x = calloc(n ? n : 1, sizeof(double));
	l->y = calloc(n ? n : 1, sizeof(double));
	l->n = n;
	return l->x && l->y ? 0 : -1;
}

/* The step-by-step chart stands for the drives' rate-over-time lines when
 * a run reads several drives over several timed steps (saturate): every
 * step's own series, not crossing the drive. */
static bool
step_timed(const struct step_result *s)
{
	for (size_t i = 0; i < s->n_res; i++)
		if (!s->failed && s->res[i].series.n >= 2 && !series_positional(&s->res[i].series) &&
		    known_f(s->res[i].series.mbps, s->res[i].series.n) >= 2)
			return true;
	return false;
}

bool
svg_steps_wanted(const struct run_result *r)
{
	size_t timed = 0, multi = 0;
	for (size_t i = 0; i < r->n_steps; i++)
		if (step_timed(&r->steps[i])) {
			timed++;
			multi += r->steps[i].n_res > 1;
		}
	return timed >= 3 && multi >= 1;
}

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Sample j of step s over its drives: the median, slowest and fastest. */
static size_t
step_sample(const struct step_result *s, size_t j, double *v, double *med, double *lo, double *hi)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n_res; i++) {
		const struct saved_series *ss = &s->res[i].series;
		if (j < ss->n && ss->mbps && isfinite(ss->mbps[j]) && !series_positional(ss))
			v[k++] = ss->mbps[j];
	}
	if (!k)
		return 0;
	qsort(v, k, sizeof *v, cmp_dbl);
	*med = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	*lo = v[0];
	*hi = v[k - 1];
	return k;
}

bool
svg_steps_chart(FILE *f, const struct run_result *r)
{
	if (!svg_steps_wanted(r))
		return false;
	size_t most = 1, nl = 0;
	double tend = 0, ymax = 0, med, lo, hi;
	for (size_t i = 0; i < r->n_steps; i++) {
		const struct step_result *s = &r->steps[i];
		most = s->n_res > most ? s->n_res : most;
		if (!step_timed(s))
			continue;
		size_t m = 0;
		for (size_t t = 0; t < s->n_res; t++)
			m = s->res[t].series.n > m ? s->res[t].series.n : m;
		tend += m * s->res[0].series.interval_ms / 1000.0;
		nl++;
	}
	double *v = calloc(most, sizeof *v);
	struct line *ls = calloc(nl ? nl : 1, sizeof *ls);
	double *t0 = calloc(nl ? nl : 1, sizeof *t0);
	bool drawn = false;
	size_t k = 0;
	double off = 0;
	if (!v || !ls || !t0)
		goto out;
	for (size_t i = 0; i < r->n_steps && k < nl; i++) {
		const struct step_result *s = &r->steps[i];
		if (!step_timed(s))
			continue;
		size_t m = 0;
		for (size_t t = 0; t < s->n_res; t++)
			m = s->res[t].series.n > m ? s->res[t].series.n : m;
		double iv = s->res[0].series.interval_ms / 1000.0;
		struct line *l = &ls[k];
		if (line_alloc(l, m))
			goto out;
		*l = (struct line){ s->label[0] ? s->label : "step", "", s->index, "median", l->x, l->y, m, false };
		for (size_t j = 0; j < m; j++) {
			l->x[j] = off + (j + 1) * iv;
			l->y[j] = step_sample(s, j, v, &med, &lo, &hi) ? med : NAN;
			if (isfinite(l->y[j]))
				ymax = fmax(ymax, hi);
		}
		t0[k++] = off;
		off += m * iv;
	}
	struct axes a = { .x0 = 0, .x1 = tend > 0 ? tend : 1, .ymax = ymax > 0 ? ymax * 1.1 : 1 };
	frame_open(f, "rate-steps", "Rate over time, step by step: each drive's rate (median line, slowest to fastest band)",
		   &a, "time (s), the steps one after another", "MB/s per drive");
	k = 0;
	for (size_t i = 0; i < r->n_steps && k < nl; i++) {
		const struct step_result *s = &r->steps[i];
		if (!step_timed(s))
			continue;
		/* the band: fastest forwards, slowest back */
		const struct line *l = &ls[k];
		fprintf(f, "<polygon class=\"band\" fill=\"%s\" fill-opacity=\"0.25\" points=\"", palette[0]);
		for (int back = 0; back < 2; back++)
			for (size_t jj = 0; jj < l->n; jj++) {
				size_t j = back ? l->n - 1 - jj : jj;
				if (!step_sample(s, j, v, &med, &lo, &hi))
					continue;
				svg_num(f, ax_x(&a, l->x[j]));
				fputc(',', f);
				svg_num(f, ax_y(&a, back ? lo : hi));
				fputc(' ', f);
			}
		fputs("\"/>\n", f);
		line_draw(f, &a, l, palette[0]);
		fputs("<g class=\"mark\"><line x1=\"", f);
		svg_num(f, ax_x(&a, t0[k]));
		fputs("\" x2=\"", f);
		svg_num(f, ax_x(&a, t0[k]));
		fprintf(f, "\" y1=\"%d\" y2=\"%d\"/><text font-size=\"10\" x=\"", PY0 + 2, PY1 - 2);
		svg_num(f, ax_x(&a, t0[k]) + 3);
		fprintf(f, "\" y=\"%d\">", PY0 + 12 + (int)(k % 2) * 12);
		html_escape(f, l->label);
		fputs("</text></g>\n", f);
		k++;
	}
	frame_close(f);
	fputs("<p class=\"meta note\">One segment per step, labelled with its drives; the line is the median"
	      " drive's rate, the band from the slowest to the fastest drive.</p></figure>\n", f);
	drawn = true;
out:
	if (ls)
		lines_free(ls, nl);	/* calloc'd: the ones not reached hold NULL */
	free(v);
	free(t0);
	return drawn;
}

/* Rate by position of target, saying which curve is the drive's own: own
 * lines read alone, shared ones with other drives; the solo samples' mean
 * (solo_rate at solo_pos, NAN none) a dot when no own line crosses it. */
static void
rate_pos_chart(FILE *f, const char *target, struct line *pos, size_t np, size_t own, size_t shared,
	       double solo_pos, double solo_rate)
{
	struct axes a = { .x0 = 0, .x1 = 100 };
	char title[160], ml[64], note[400];
	snprintf(title, sizeof title, "Rate by position: %s", target);
	struct mark m = { NAN, "", false, NAN };
	if (isfinite(solo_rate) && !own) {
		m = (struct mark){ solo_pos * 100, ml, true, solo_rate };
		snprintf(ml, sizeof ml, "alone: %.1f MB/s", m.y);
	}
	snprintf(note, sizeof note, "%s%s%s", own ? "Solid: the drive read alone, its own curve. " : "",
		 m.dot ? "The dot: its solo samples, read alone (their mean, where they were read). " : "",
		 shared ? "Dashed: read together with other drives, a rate set by their shared controller"
			  " and link, not by this drive." : "");
	lines_chart(f, "rate-pos", title, pos, np, &a, "position (% of the drive)", "MB/s", &m, note);
}

bool
svg_rate_charts(FILE *f, const struct run_result *r, const char *target, double capacity)
{
	size_t ns = r->n_steps;
	struct line *pos = calloc(ns + 1, sizeof *pos), *tim = calloc(ns + 1, sizeof *tim);
	size_t np = 0, nt = 0, shared = 0, own = 0;
	double tmax = 0;
	/* the drive's solo samples that stay in one place (triage's first
	 * seconds): their mean, a point on the position chart */
	double solo_sum = 0, solo_pos = 0;
	size_t solo_n = 0;
	char labels[64][96];	/* "quick read, all drives (with 7 others)" */
	bool drawn = false;

	if (!pos || !tim)
		goto out;
	/* a short step beside a scan (a re-read, the seeks of an access time)
	 * would be a flat line at 0: steps under 5 % of the target's most
	 * bytes are left to the steps table */
	uint64_t most = 0;
	size_t skipped = 0;
	for (size_t i = 0; i < ns; i++) {
		const struct target_result *t = step_target(&r->steps[i], target);
		if (t && t->bytes > most)
			most = t->bytes;
	}
	for (size_t i = 0; i < ns; i++) {
		const struct step_result *s = &r->steps[i];
		const struct target_result *t = step_target(s, target);
		if (!t)
			continue;
		if (t->bytes * 20 < most) {
			skipped += t->series.n >= 2;
			continue;
		}
		const char *label = s->label[0] ? s->label : "step";
		/* read together with others, its rate is the controller's share:
		 * drawn dashed, and said; alone it is the drive's own curve */
		size_t with = s->active.n ? s->active.n : s->n_res;
		bool dash = with > 1;
		if (dash && np < ARRAY_SIZE(labels)) {
			snprintf(labels[np], sizeof labels[np], "%s (shared with %zu other drive%s)", label, with - 1,
				 with == 2 ? "" : "s");
		} else if (np < ARRAY_SIZE(labels))
			snprintf(labels[np], sizeof labels[np], "%s (this drive alone)", label);
		const char *plabel = np < ARRAY_SIZE(labels) ? labels[np] : label;
		if (t->by_pos.n && known_f(t->by_pos.mbps, t->by_pos.n) >= 2) {
			/* slices of [start, end) bytes; as % of the drive */
			struct line *l = &pos[np];
			double cap = capacity > 0 ? capacity : (double)t->by_pos.end;
			if (cap <= 0 || line_alloc(l, t->by_pos.n))
				continue;
			np++;
			*l = (struct line){ plabel, target, s->index, "by_position", l->x, l->y, l->n, dash };
			shared += dash;
			own += !dash;
			double w = (double)(t->by_pos.end - t->by_pos.start) / t->by_pos.n;
			for (size_t j = 0; j < l->n; j++) {
				l->x[j] = ((double)t->by_pos.start + (j + 0.5) * w) / cap * 100;
				l->y[j] = t->by_pos.mbps[j];
			}
		} else if (t->series.n >= 2 && known_f(t->series.mbps, t->series.n) >= 2) {
			bool p = series_positional(&t->series);
			struct line *l = p ? &pos[np] : &tim[nt];
			if (line_alloc(l, t->series.n))
				continue;
			*l = (struct line){ p ? plabel : label, target, s->index, "series", l->x, l->y, l->n, p && dash };
			if (p) {
				np++;
				shared += dash;
				own += !dash;
			} else
				nt++;
			for (size_t j = 0; !p && !dash && j < l->n; j++)
				if (isfinite(t->series.mbps[j]) && t->series.pos && isfinite(t->series.pos[j])) {
					solo_sum += t->series.mbps[j];
					solo_pos += t->series.pos[j];
					solo_n++;
				}
			for (size_t j = 0; j < l->n; j++) {
				l->x[j] = p ? t->series.pos[j] * 100.0 : (j + 1) * t->series.interval_ms / 1000.0;
				l->y[j] = t->series.mbps[j];
			}
			if (!p)
				tmax = fmax(tmax, l->n * t->series.interval_ms / 1000.0);
		}
	}
	if (np) {
		rate_pos_chart(f, target, pos, np, own, shared, solo_n ? solo_pos / solo_n : NAN,
			       solo_n ? solo_sum / solo_n : NAN);
		drawn = true;
	}
	if (nt && svg_steps_wanted(r)) {	/* not as spaghetti: the run's step-by-step chart */
		fprintf(f, "<p class=\"meta\">Rate over time in %zu steps: see the run's step-by-step chart.</p>\n", nt);
		drawn = true;
	} else if (nt) {
		struct axes a = { .x0 = 0, .x1 = tmax > 0 ? tmax : 1 };
		char title[160];
		snprintf(title, sizeof title, "Rate over time: %s", target);
		lines_chart(f, "rate-time", title, tim, nt, &a, "time (s)", "MB/s", NULL, NULL);
		drawn = true;
	}
	if (drawn && skipped)
		fprintf(f, "<p class=\"meta\">%zu short step%s (under 5 %% of the bytes) not charted: see the steps table.</p>\n",
			skipped, skipped == 1 ? "" : "s");
out:
	if (pos)
		lines_free(pos, np);
	if (tim)
		lines_free(tim, nt);
	return drawn;
}

bool
svg_hist_chart(FILE *f, const struct run_result *r, const char *target)
{
	const struct target_result *best = NULL;
	const struct step_result *bs = NULL;
	uint64_t most = 0;

	for (size_t i = 0; i < r->n_steps; i++) {
		const struct target_result *t = step_target(&r->steps[i], target);
		uint64_t c = 0;
		for (size_t j = 0; t && j < t->hist.n; j++)
			c += t->hist.count[j];
		if (t && c > most) {
			most = c;
			best = t;
			bs = &r->steps[i];
		}
	}
	if (!best)
		return false;
	const struct saved_hist *h = &best->hist;
	/* the buckets are log-spaced: the smallest ratio between neighbours is
	 * the resolution, and a bucket is drawn from upper/ratio to upper */
	double ratio = 2, lo = INFINITY, hi = 0;
	uint64_t cmax = 0;
	for (size_t j = 0; j < h->n; j++) {
		if (h->upper_us[j] <= 0)
			continue;
		lo = fmin(lo, h->upper_us[j]);
		hi = fmax(hi, h->upper_us[j]);
		if (h->count[j] > cmax)
			cmax = h->count[j];
		if (j && h->upper_us[j - 1] > 0 && h->upper_us[j] > h->upper_us[j - 1])
			ratio = fmin(ratio, h->upper_us[j] / h->upper_us[j - 1]);
	}
	if (!isfinite(lo) || !cmax)
		return false;
	struct axes a = { .x0 = floor(log10(lo / ratio) * 4) / 4, .x1 = ceil(log10(hi) * 4) / 4, .xlog = true };
	if (a.x1 - a.x0 < 1) {	/* at least one decade, centred */
		double mid = (a.x0 + a.x1) / 2;
		a.x0 = mid - 0.5;
		a.x1 = mid + 0.5;
	}
	a.ymax = cmax * 1.1;
	char title[200];
	snprintf(title, sizeof title, "Latency histogram: %s, %s (%llu I/Os)", target,
		 bs->label[0] ? bs->label : "step", (unsigned long long)most);
	frame_open(f, "hist", title, &a, "completion latency (log scale)", "I/Os");
	size_t nb = 0;
	for (size_t j = 0; j < h->n; j++)
		nb += h->upper_us[j] > 0;
	fputs("<g class=\"series bars\" data-target=\"", f);
	html_escape(f, target);
	fprintf(f, "\" data-step=\"%u\" data-source=\"hist\" data-points=\"%zu\" fill=\"%s\">",
		bs->index, nb, palette[0]);
	for (size_t j = 0; j < h->n; j++) {
		if (h->upper_us[j] <= 0)
			continue;
		double x0 = ax_x(&a, h->upper_us[j] / ratio), x1 = ax_x(&a, h->upper_us[j]);
		double y = ax_y(&a, (double)h->count[j]);
		if (x1 - x0 < 2)	/* a visible bar at any resolution */
			x0 = x1 - 2;
		if (PY1 - y < 1.5 && h->count[j])
			y = PY1 - 1.5;
		fputs("<rect x=\"", f);
		svg_num(f, x0);
		fputs("\" y=\"", f);
		svg_num(f, y);
		fputs("\" width=\"", f);
		svg_num(f, x1 - x0);
		fputs("\" height=\"", f);
		svg_num(f, PY1 - y);
		fprintf(f, "\"><title>≤ %.0f µs: %llu</title></rect>", h->upper_us[j],
			(unsigned long long)h->count[j]);
	}
	fputs("</g>\n", f);
	frame_close(f);
	fputs("</figure>\n", f);
	return true;
}

bool
svg_saturation_chart(FILE *f, const struct run_result *r)
{
	size_t n = 0, maxd = 0;
	for (size_t i = 0; i < r->n_steps; i++)
		if (!r->steps[i].failed && r->steps[i].ideal_mbps > 0)
			n++;
	if (n < 2)
		return false;
	struct line ls[2] = { { .label = "aggregate", .source = "aggregate" },
			      { .label = "ideal (sum of the drives alone)", .source = "ideal", .dashed = true } };
	bool drawn = false;
	if (line_alloc(&ls[0], n) || line_alloc(&ls[1], n))
		goto out;
	size_t k = 0;
	for (size_t i = 0; i < r->n_steps; i++) {
		const struct step_result *s = &r->steps[i];
		if (s->failed || s->ideal_mbps <= 0)
			continue;
		size_t d = s->active.n ? s->active.n : s->n_res;
		maxd = d > maxd ? d : maxd;
		ls[0].x[k] = ls[1].x[k] = (double)d;
		ls[0].y[k] = s->aggregate_mbps.known && s->aggregate_mbps.v > 0 ? s->aggregate_mbps.v : NAN;
		ls[1].y[k] = s->ideal_mbps;
		k++;
	}
	struct axes a = { .x0 = 0, .x1 = (double)maxd };
	struct mark m = { NAN, "knee", false, NAN };
	char knee[32];
	for (size_t i = 0; i < r->n_verdicts; i++)
		if (r->verdicts[i].knee_drives > 0) {	/* only a saturation verdict has a knee */
			m.x = r->verdicts[i].knee_drives;
			snprintf(knee, sizeof knee, "knee: %d drives", r->verdicts[i].knee_drives);
			m.label = knee;
		}
	lines_chart(f, "saturation", "Saturation: aggregate against ideal by drive count", ls, 2, &a,
		    "drives", "MB/s", &m, NULL);
	drawn = true;
out:
	free(ls[0].x);
	free(ls[0].y);
	free(ls[1].x);
	free(ls[1].y);
	return drawn;
}
