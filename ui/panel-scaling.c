/* panel-scaling.c - one bar per drive: current MB/s at eighth-block
 * resolution, a sparkline of its last minute, and its share of the
 * controller's link ceiling. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "inventory/facts.h"

static struct known_dbl
target_ceiling(struct ui *u, const struct run_snapshot *s, const struct snap_target *t)
{
	if (u->inv && t->controller >= 0 && (size_t)t->controller < u->inv->n_ctrl &&
	    u->inv->ctrl[t->controller].link.known)
		return known_dbl_of(u->inv->ctrl[t->controller].link.ceiling_mbps);
	return s->ceiling_mbps;
}

/* "sim:sim3" -> "sim3", "/dev/sdb" -> "sdb": the column is narrow. */
static const char *
short_name(const char *n)
{
	const char *rest;
	if (dev_spec_simulated(n, &rest) && *rest)
		return rest;
	if (strncmp(n, "/dev/", 5) == 0 && n[5])
		return n + 5;
	return n;
}

/* A worker's reason in w cells: whole if it fits, else the errno text of
 * "stopped after 256 failed I/Os in a row (No such device)", else cut. */
static const char *
why_fit(const char *why, int w, char *buf, size_t len)
{
	const char *o = strrchr(why, '(');
	size_t n = strlen(why);
	if (text_width(why) <= w || !o || n < 2 || why[n - 1] != ')')
		return why;
	snprintf(buf, len, "%.*s", (int)(why + n - 1 - o - 1), o + 1);
	return buf;
}

void
panel_scaling_draw(struct ui *u, const struct rect *r)
{
	const struct run_snapshot *s = ui_view_snapshot(u);
	char bar[512], rate[24], g[8], why[128];

	draw_box(u, r, "Per drive", u->focus == AR_SCALING);
	if (!s || !s->n_targets)
		return;
	double vmax = 0;

	for (size_t i = 0; i < s->n_targets; i++)
		vmax = fmax(vmax, s->t[i].mbps);
	double top = autoscale_update(&u->scaling.scale, vmax);
	int iw = r->w - 4;
	/* name | bar | rate | spark | share */
	int nw = 6, rw = 10, shw = 6;

	for (size_t i = 0; i < s->n_targets; i++)
		if (text_width(short_name(s->t[i].name)) + 1 > nw)
			nw = text_width(short_name(s->t[i].name)) + 1;
	if (nw > iw / 4)
		nw = iw / 4;
	int spw = iw >= 70 ? 20 : iw >= 50 ? 10 : 0;
	int bw = iw - nw - rw - shw - spw - (spw ? 1 : 0);

	if (bw < 4) {
		bw = iw - nw - rw;
		spw = shw = 0;
	}
	int rows = r->h - 2;

	bool live = s->state == RUN_STARTING || s->state == RUN_RUNNING || s->state == RUN_STOPPING;

	for (size_t i = 0; i < s->n_targets && (int)i < rows; i++) {
		const struct snap_target *t = &s->t[i];
		int y = r->y + 1 + (int)i, x = r->x + 2;
		struct known_dbl ceil = target_ceiling(u, s, t);
		/* Not measuring: a state, not a rate (0 MB/s would claim a
		 * measurement of nothing). */
		const char *state = !live ? NULL :
				    !t->active ? "waiting" :
				    t->phase == SNAP_PH_RAMP ? "ramp-up" :
				    t->ended == SNAP_END_FAILED ? "failed" :
				    t->ended == SNAP_END_STOPPED ? "stopped" :
				    t->ended == SNAP_END_DONE ? "done" :
				    t->phase == SNAP_PH_STARTING ? "starting" : NULL;

		draw_text(y, x, nw - 1, attr_of(t->active ? EL_MARK : EL_DIM), short_name(t->name));
		x += nw;
		if (state) {
			draw_fill(y, x, bw, attr_of(EL_BAR_EMPTY));
			if (u->gl == GL_ASCII) {
				attrset(attr_of(EL_BAR_EMPTY));
				mvhline(y, x, '.', bw);
			}
			if (t->ended && t->why[0]) {
				/* an ended worker: its reason over the bar, sparkline
				 * and share columns, and the state at the right */
				int ww = iw - nw - rw;
				draw_fill(y, x, ww, attr_of(EL_BAR_EMPTY));
				draw_text(y, x, ww, attr_of(t->ended == SNAP_END_DONE ? EL_DIM : EL_WARN),
					  why_fit(t->why, ww, why, sizeof(why)));
				draw_textf(y, x + ww, rw, attr_of(EL_WARN), "%*s", rw - 1, state);
				continue;
			}
			draw_textf(y, x + bw, rw, attr_of(EL_DIM), "%*s", rw - 1, state);
			continue;	/* no sparkline, no share */
		}
		canvas_hbar(u->gl, bw, t->mbps / top, bar, sizeof(bar));
		draw_fill(y, x, bw, attr_of(EL_BAR_EMPTY));
		if (u->gl == GL_ASCII) {
			attrset(attr_of(EL_BAR_EMPTY));
			mvhline(y, x, '.', bw);
		}
		draw_text(y, x, bw, attr_of(EL_BAR_FILL), bar);
		x += bw;
		fmt_rate(rate, sizeof(rate), t->mbps);
		draw_textf(y, x, rw, attr_of(EL_TEXT), "%*s", rw - 1, rate);
		x += rw;
		if (spw) {
			/* The last minute squeezed into spw cells, each the mean of its slice. */
			size_t n = t->n;
			double smax = 1;

			for (size_t k = 0; k < n; k++)
				smax = fmax(smax, t->read_hist[k] + t->write_hist[k]);
			for (int c = 0; c < spw && n; c++) {
				size_t a = n * (size_t)c / (size_t)spw, b = n * (size_t)(c + 1) / (size_t)spw;
				double sum = 0;

				if (b <= a)
					b = a + 1;
				for (size_t k = a; k < b && k < n; k++)
					sum += t->read_hist[k] + t->write_hist[k];
				canvas_spark(u->gl, sum / (double)(b - a) / smax, g);
				draw_text(y, x + c, 1, attr_of(EL_BAR_SPARK), g);
			}
			x += spw + 1;
		}
		if (shw) {
			if (ceil.known && ceil.v > 0)
				draw_textf(y, x, shw, attr_of(EL_DIM), "%4.0f%%", 100 * t->mbps / ceil.v);
			else
				draw_text(y, x, shw, attr_of(EL_DIM), "   ?%");
		}
	}
	if ((int)s->n_targets > rows)
		draw_textf(r->y + r->h - 1, r->x + 2, r->w - 4, attr_of(EL_DIM), " +%zu more ",
			   s->n_targets - (size_t)rows);
	else if (s->ceiling_mbps.known && r->w > 40)
		draw_textf(r->y + r->h - 1, r->x + r->w - 26, 24, attr_of(EL_DIM), " %% of %.0f MB/s link ",
			   s->ceiling_mbps.v);
}
