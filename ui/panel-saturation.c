/* panel-saturation.c - the controller saturation plot: aggregate MB/s
 * against the number of active drives, the measured points, the ideal
 * linear line (sum of single-drive rates) and the link ceiling, the knee
 * labelled; it fills step by step as the runner's steps finish. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

enum { L_NONE, L_CEIL, L_IDEAL, L_MEAS };

static void sat_legend(struct ui *u, const struct rect *r, const struct run_snapshot *s, bool ceil_drawn);

/* x runs over 1..N drives (returned); N is the plan's step count when
 * known.  *ns: the steps to draw, the finished ones and the running one
 * (so far). */
static unsigned
sat_span(const struct run_snapshot *s, size_t *ns)
{
	unsigned N = s->n_steps;

	for (size_t i = 0; i < s->n_steps_done; i++)
		if (s->steps[i].n_active > N)
			N = s->steps[i].n_active;
	if ((size_t)N < s->n_targets && s->n_steps > 1)
		N = (unsigned)s->n_targets;
	if (N < 1)
		N = 1;
	*ns = s->n_steps_done;
	if (*ns < SNAP_STEPS && s->step > *ns && s->steps[*ns].n_active && s->state == RUN_RUNNING)
		(*ns)++;
	return N;
}

/* A polyline's next point: a line from the last one (*lx < 0: none yet). */
static void
line_to(struct canvas *c, int *lx, int *ly, int x, int y, int layer)
{
	if (*lx >= 0)
		canvas_line(c, *lx, *ly, x, y, layer);
	else
		canvas_set(c, x, y, layer);
	*lx = x;
	*ly = y;
}

void
panel_saturation_draw(struct ui *u, const struct rect *r)
{
	const struct run_snapshot *s = ui_view_snapshot(u);
	static const int layer_el[] = { EL_TEXT, EL_CEILING, EL_IDEAL, EL_READ };
	char title[128];
	struct canvas c;

	snprintf(title, sizeof(title), "Controller saturation");
	draw_box(u, r, title, u->focus == AR_SATURATION);
	if (!s)
		return;
	size_t ns;
	unsigned N = sat_span(s, &ns);
	double vmax = 0;

	for (size_t i = 0; i < ns; i++)
		vmax = fmax(vmax, fmax(s->steps[i].aggregate_mbps.known ? s->steps[i].aggregate_mbps.v : 0,
				       s->steps[i].ideal_mbps));
	/* A ceiling far above the data would flatten it: then it is named, not drawn. */
	bool ceil_drawn = s->ceiling_mbps.known && (s->ceiling_mbps.v <= autoscale_nice(vmax * 1.05) ||
						  s->ceiling_mbps.v <= vmax * 1.6);

	if (ceil_drawn)
		vmax = fmax(vmax, s->ceiling_mbps.v);
	double top = autoscale_update(&u->sat.scale, vmax * 1.05);
	int lw = 6, cw = r->w - 2 - lw, ch = r->h - 4;

	if (cw < 6 || ch < 2 || canvas_init(&c, u->gl, cw, ch) < 0)
		return;
	int pw = canvas_pw(&c), ph = canvas_ph(&c);
#define PX(k) (N > 1 ? (int)lround((double)((k) - 1) * (pw - 1) / (N - 1)) : pw / 2)
#define PY(v) (ph - 1 - (int)lround((v) / top * (ph - 1)))
	if (ceil_drawn)
		for (int x = 0; x < pw; x += 2)
			canvas_set(&c, x, PY(s->ceiling_mbps.v), L_CEIL);
	int px = -1, py = -1, ix = -1, iy = -1;

	for (size_t i = 0; i < ns; i++) {
		const struct snap_step *st = &s->steps[i];
		unsigned k = st->n_active ? st->n_active : st->index;
		int x = PX(k);

		if (!st->aggregate_mbps.known)
			continue;	/* not measured (interrupted): no point */

		if (st->ideal_mbps > 0)
			line_to(&c, &ix, &iy, x, PY(st->ideal_mbps), L_IDEAL);
		line_to(&c, &px, &py, x, PY(st->aggregate_mbps.v), L_MEAS);
	}
	int ox = r->x + 1 + lw, oy = r->y + 1;

	draw_canvas(u, &c, oy, ox, layer_el);
	/* Measured points as markers on top of the lines. */
	for (size_t i = 0; i < ns; i++) {
		const struct snap_step *st = &s->steps[i];
		unsigned k = st->n_active ? st->n_active : st->index;

		if (!st->aggregate_mbps.known)
			continue;
		int cx = PX(k) / c.dx, cy = PY(st->aggregate_mbps.v) / c.dy;
		bool knee = s->knee_drives > 0 && (int)k == s->knee_drives;

		draw_text(oy + cy, ox + cx, 1, attr_of(knee ? EL_KNEE : EL_READ),
			  st->done ? sym_mark(u) : "o");
	}
	if (s->knee_drives > 0 && (size_t)s->knee_drives <= N) {
		double kv = 0;

		for (size_t i = 0; i < ns; i++)
			if ((int)s->steps[i].n_active == s->knee_drives && s->steps[i].aggregate_mbps.known)
				kv = s->steps[i].aggregate_mbps.v;
		char lab[64];
		int cx = PX((unsigned)s->knee_drives) / c.dx, cy = PY(kv) / c.dy;

		snprintf(lab, sizeof(lab), "knee: %d drive%s, %.0f MB/s", s->knee_drives,
			 s->knee_drives == 1 ? "" : "s", kv);
		int lx = cx + 2, ly = cy + 1 < ch ? cy + 1 : cy - 1;

		if (lx + (int)strlen(lab) > cw)
			lx = cw - (int)strlen(lab);
		if (lx < 0)
			lx = 0;
		draw_text(oy + ly, ox + lx, cw - lx, attr_of(EL_KNEE), lab);
	}
	/* Axes. */
	draw_textf(oy, r->x + 1, lw, attr_of(EL_AXIS), "%5.0f", top);
	draw_text(oy + ch - 1, r->x + 1, lw, attr_of(EL_AXIS), "    0");
	int ay = oy + ch;

	for (unsigned k = 1; k <= N; k++) {
		if (N > 12 && k % 2 == 0 && k != N)
			continue;
		draw_textf(ay, ox + PX(k) / c.dx, 3, attr_of(EL_AXIS), "%u", k);
	}
	draw_text(ay, r->x + 1, lw, attr_of(EL_AXIS), "MB/s");
#undef PX
#undef PY
	canvas_free(&c);
	sat_legend(u, r, s, ceil_drawn);
}

static void
sat_legend(struct ui *u, const struct rect *r, const struct run_snapshot *s, bool ceil_drawn)
{
	/* Legend. */
	int ly = r->y + r->h - 2, lx = r->x + 2;
	char ceil[64];

	lx += draw_text(ly, lx, r->x + r->w - 2 - lx, attr_of(EL_READ), "measured  ");
	lx += draw_text(ly, lx, r->x + r->w - 2 - lx, attr_of(EL_IDEAL), "ideal  ");
	if (s->ceiling_mbps.known)
		snprintf(ceil, sizeof(ceil), "ceiling %.0f MB/s%s", s->ceiling_mbps.v,
			 ceil_drawn ? "" : " (off scale)");
	else
		snprintf(ceil, sizeof(ceil), "ceiling unknown");
	lx += draw_text(ly, lx, r->x + r->w - 2 - lx, attr_of(EL_CEILING), ceil);
	draw_textf(ly, lx, r->x + r->w - 2 - lx, attr_of(EL_DIM), "   drives: step %u/%u", s->step, s->n_steps);
}
