/* panel-surface.c - the surface scan: the read rate against the position on
 * the drive (outer edge left), growing left to right as the scan goes, the
 * position axis in % and GB, and below it the block map: each column the
 * slowest block time seen there, in WHDD's classes, failed blocks marked.
 * Live it is fed from the snapshot while a step that maps the surface runs
 * (plan_step.maps); in the result view from the result's TR_SURFACE_MAP table. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

#define CELLS SURF_CELLS

enum { L_NONE, L_RATE };

static void
acc_reset(struct pos_acc *acc, const char *test)
{
	memset(acc, 0, sizeof(*acc));
	snprintf(acc->test, sizeof(acc->test), "%s", test);
	acc->pos = NAN;
	acc->ncell = CELLS;
}

static bool
scanning(const struct run_snapshot *s)
{
	if (s->state != RUN_RUNNING || !s->step || s->step > SNAP_STEPS)
		return false;
	return s->step_maps[s->step - 1];
}

/* Live: one observation per frame of the first target. */
static void
acc_live(struct pos_acc *acc, const struct run_snapshot *s)
{
	if (strcmp(acc->test, s->test) || s->elapsed_s < acc->last_elapsed)
		acc_reset(acc, s->test);
	acc->last_elapsed = s->elapsed_s;
	if (!s->n_targets)
		return;
	const struct snap_target *t = &s->t[0];
	acc->size = t->size;
	if (!scanning(s) || !t->active) {
		acc->last_err = t->errors;
		return;
	}
	size_t k = (size_t)(t->pos * CELLS);
	k = k < CELLS ? k : CELLS - 1;
	acc->pos = t->pos;
	if (t->read_mbps > 0) {
		/* the scan went through the cells since the last frame at this rate */
		size_t from = acc->have_k && acc->last_k < k && k - acc->last_k < CELLS / 10 ? acc->last_k + 1 : k;
		for (size_t j = from; j < k; j++)
			if (!acc->cnt[j]) {
				acc->sum[j] = t->read_mbps;
				acc->cnt[j] = 1;
			}
		acc->sum[k] += t->read_mbps;
		acc->cnt[k]++;
		acc->last_k = k;
		acc->have_k = true;
	}
	if (t->p99_us.known && t->p99_us.v / 1e3 > acc->worst_ms[k])
		acc->worst_ms[k] = (float)(t->p99_us.v / 1e3);
	if (t->errors > acc->last_err)
		acc->err[k] += (unsigned)(t->errors - acc->last_err);
	acc->last_err = t->errors;
}

/* A result: its surface map (TR_SURFACE_MAP, the first target's rows). */
static void
acc_result(struct pos_acc *acc, const struct run_result *r)
{
	acc_reset(acc, r->test);
	acc->last_elapsed = -1;	/* a live run starts afresh */
	const struct result_table *t = NULL;
	for (const struct result_table *m = NULL; (m = result_table_next(r, TR_SURFACE_MAP, m));)
		t = m;	/* the last, as before */
	int cm = table_col(t, CR_MBPS), cx = table_col(t, CR_MAX_MS);
	int cf = table_col(t, CR_FAILED_BLOCKS), cg = table_col(t, CR_AT_GB);
	int ct = table_col(t, CR_TARGET);
	if (cm < 0 || cx < 0 || cf < 0 || cg < 0 || ct < 0 || !t->n_rows)
		return;
	const struct result_cell *first = &t->cells[(size_t)ct];
	size_t n = 0;
	for (size_t row = 0; row < t->n_rows && n < CELLS; row++) {
		const struct result_cell *c = &t->cells[row * t->n_cols];
		if (first->s && c[ct].s && strcmp(first->s, c[ct].s))
			break;
		if (c[cm].d.known && c[cm].d.v > 0) {
			acc->sum[n] = c[cm].d.v;
			acc->cnt[n] = 1;
		}
		acc->worst_ms[n] = c[cx].d.known ? (float)c[cx].d.v : 0;
		acc->err[n] = c[cf].i.known ? (unsigned)c[cf].i.v : 0;
		if (row == 0)
			acc->gb0 = c[cg].d.v;
		acc->gb1 = c[cg].d.v;
		n++;
	}
	acc->ncell = n;
	/* the last row starts one cell before the end */
	if (n > 1)
		acc->gb1 += (acc->gb1 - acc->gb0) / (double)(n - 1);
	acc->pos = 1;
}

/* The block map's mark for a cell: WHDD's classes. */
static void
map_mark(const struct pos_acc *acc, size_t k, char *ch, int *el)
{
	float ms = acc->worst_ms[k];
	if (acc->err[k]) {
		*ch = 'X';
		*el = EL_FAIL;
	} else if (!acc->cnt[k]) {
		*ch = ' ';
		*el = EL_DIM;
	} else if (ms < 10) {
		*ch = '.';
		*el = EL_DIM;
	} else if (ms < 50) {
		*ch = ':';
		*el = EL_OK;
	} else if (ms < 150) {
		*ch = '+';
		*el = EL_WARN;
	} else if (ms < 500) {
		*ch = '#';
		*el = EL_WARN;
	} else {
		*ch = '#';
		*el = EL_FAIL;
	}
}

void
panel_surface_draw(struct ui *u, const struct rect *r)
{
	static const int layer_el[] = { EL_TEXT, EL_READ };
	struct pos_acc *acc = &u->surf.acc;
	struct autoscale *scale = &u->surf.scale;
	const struct run_snapshot *s = ui_view_snapshot(u);
	const struct run_result *res = ui_current_result(u, 0);
	char title[128], a[32];
	struct canvas c;

	if (s && ui_test_running(u))
		acc_live(acc, s);
	else if (res && (strcmp(acc->test, res->test) || acc->last_elapsed >= 0))
		acc_result(acc, res);
	double now = NAN;
	if (isfinite(acc->pos)) {
		size_t k = (size_t)(acc->pos * (double)acc->ncell);
		k = k < acc->ncell ? k : acc->ncell - 1;
		now = acc->cnt[k] ? acc->sum[k] / acc->cnt[k] : NAN;
	}
	fmt_rate(a, sizeof(a), isfinite(now) ? now : 0);
	if (isfinite(acc->pos) && ui_test_running(u))
		snprintf(title, sizeof(title), "Surface  %.0f %%  %s", acc->pos * 100, a);
	else
		snprintf(title, sizeof(title), "Surface  rate by position");
	draw_box(u, r, title, u->focus == AR_POSITION);
	int lw = 6, cw = r->w - 2 - lw, ch = r->h - 4;	/* axis row, map row, borders */

	if (cw < 10 || ch < 1 || canvas_init(&c, u->gl, cw, ch) < 0)
		return;
	int pw = canvas_pw(&c), ph = canvas_ph(&c);
	double vmax = 0;
	for (size_t k = 0; k < acc->ncell; k++)
		if (acc->cnt[k])
			vmax = fmax(vmax, acc->sum[k] / acc->cnt[k]);
	if (!scale->hold)
		autoscale_init(scale, 1, 30);
	double top = autoscale_update(scale, vmax * 1.05);
	for (int px = 0; px < pw; px++) {
		size_t k = (size_t)px * acc->ncell / (size_t)pw;
		if (!acc->cnt[k])
			continue;
		int h = (int)lround(acc->sum[k] / acc->cnt[k] / top * ph);
		if (h > 0)
			canvas_vfill(&c, px, ph - h, ph - 1, L_RATE);
	}
	draw_canvas(u, &c, r->y + 1, r->x + 1 + lw, layer_el);
	canvas_free(&c);
	draw_textf(r->y + 1, r->x + 1, lw, attr_of(EL_AXIS), "%5.0f", top);
	draw_text(r->y + ch, r->x + 1, lw, attr_of(EL_AXIS), "    0");
	/* the position axis: % and, when the size is known, GB */
	int ty = r->y + 1 + ch;
	draw_fill(ty, r->x + 1, r->w - 2, attr_of(EL_AXIS));
	draw_text(ty, r->x + 1, lw, attr_of(EL_AXIS), "MB/s");
	double gb0 = acc->gb1 > 0 ? acc->gb0 : 0, gb1 = acc->gb1 > 0 ? acc->gb1 : (double)acc->size / 1e9;
	for (int k = 0; k <= 4; k++) {
		char lab[32];
		int x = r->x + 1 + lw + (cw - 1) * k / 4;
		if (gb1 > 0 && cw >= 40)
			snprintf(lab, sizeof(lab), "%d%% %.0fG", k * 25, gb0 + (gb1 - gb0) * k / 4);
		else
			snprintf(lab, sizeof(lab), "%d%%", k * 25);
		int lx = x - (k == 4 ? (int)strlen(lab) - 1 : k == 0 ? 0 : (int)strlen(lab) / 2);
		draw_text(ty, lx, r->x + r->w - 1 - lx, attr_of(EL_AXIS), lab);
	}
	/* the block map: a column's slowest cell */
	int my = ty + 1;
	draw_text(my, r->x + 1, lw, attr_of(EL_AXIS), "map");
	for (int x = 0; x < cw; x++) {
		size_t k0 = (size_t)x * acc->ncell / (size_t)cw, k1 = (size_t)(x + 1) * acc->ncell / (size_t)cw;
		size_t worst = k0;
		for (size_t k = k0; k < k1 && k < acc->ncell; k++)
			if (acc->err[k] > acc->err[worst] || (!acc->err[worst] && acc->worst_ms[k] > acc->worst_ms[worst]))
				worst = k;
		char m[2] = { ' ', 0 };
		int el = EL_DIM;
		if (worst < acc->ncell)
			map_mark(acc, worst, &m[0], &el);
		draw_text(my, r->x + 1 + lw + x, 1, attr_of((enum theme_el)el), m);
	}
}
