/* panel-board.c - the bench board: one row per drive of a run that feeds it
 * (PANEL_BOARD), the screen a technician leaves open all day.  A
 * row: the slot (controller address and port, from the inventory), model,
 * serial, progress, MB/s now, temperature, a strip of block time by
 * position (the snapshot's strip, filled by the core's sampler) and the
 * verdict: live from the worker's state, after the run from the result's
 * per-drive verdicts (TR_VERDICTS: target, verdict, reasons).  Failing and slow
 * rows take the fail / warn colours.  o orders by verdict or by slot, Enter
 * opens a drive's detail (its rate by position, its row and evidence), Esc
 * closes it. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "bench/triage.h"
#include "inventory/wear.h"

/* Verdict ranks, in the order "by verdict" sorts. */
enum { BV_FAIL, BV_WARN, BV_RUN, BV_PASS, BV_NONE };

struct brow {
	int t;				/* index into the snapshot's targets */
	int rank;			/* BV_* */
	const struct drive *d;		/* the inventory's drive, NULL unknown */
	const struct target_ident *id;	/* the result's identity, NULL none */
	int tab_row;			/* the result table's row, -1 none */
	char verdict[160];
};

/* The result table the board reads after a run: the per-drive verdicts
 * (TR_VERDICTS), of whichever test. */
struct btab {
	const struct result_table *tb;
	int c_tgt, c_verdict, c_reasons, c_temp;
};

static const struct run_result *
board_result(struct ui *u)
{
	const struct run_result *r = ui_current_result(u, 0);

	if (!r || ui_test_running(u) || !u->have_snap || strcmp(r->test, u->snap.test))
		return NULL;
	return r;
}

static void
find_table(const struct run_result *r, struct btab *b)
{
	memset(b, 0, sizeof(*b));
	b->c_tgt = b->c_verdict = b->c_reasons = b->c_temp = -1;
	const struct result_table *t = r ? result_table_next(r, TR_VERDICTS, NULL) : NULL;

	if (t)
		*b = (struct btab){ t, table_col(t, CR_TARGET), table_col(t, CR_VERDICT),
				    table_col(t, CR_REASONS), table_col(t, CR_TEMP_C) };
}

/* The same drive under two spellings: "sim0" and "sim:sim0", "/dev/sdb"
 * and "sdb". */
static bool
same_target(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');

	a = sa ? sa + 1 : a;
	b = sb ? sb + 1 : b;
	return !strcmp(a, b);
}

static const char *
cell_str(const struct result_table *t, int row, int col)
{
	if (!t || row < 0 || col < 0)
		return NULL;
	const struct result_cell *c = &t->cells[(size_t)row * t->n_cols + (size_t)col];
	return c->s;
}

static int
rank_of_word(const char *w)
{
	if (!w)
		return BV_NONE;
	if (!strcmp(w, "FAIL"))
		return BV_FAIL;
	if (!strcmp(w, "WARN"))
		return BV_WARN;
	if (!strcmp(w, "PASS"))
		return BV_PASS;
	return BV_NONE;
}

/* A row's verdict: the result's when the run is over, else the worker's
 * state (a worker that ended early fails, with its reason). */
static void
row_verdict(struct ui *u, const struct snap_target *t, const struct btab *b, struct brow *row)
{
	const char *w = cell_str(b->tb, row->tab_row, b->c_verdict);

	if (w) {
		const char *why = cell_str(b->tb, row->tab_row, b->c_reasons);
		size_t n = why ? strcspn(why, ";") : 0;	/* the first reason */

		row->rank = rank_of_word(w);
		if (why && strcmp(why, "-"))
			snprintf(row->verdict, sizeof(row->verdict), "%s: %.*s", w, (int)n, why);
		else
			snprintf(row->verdict, sizeof(row->verdict), "%s", w);
		return;
	}
	bool live = ui_test_running(u);

	if (t->ended == SNAP_END_FAILED || t->ended == SNAP_END_STOPPED) {
		row->rank = BV_FAIL;
		snprintf(row->verdict, sizeof(row->verdict), "FAIL: %s", t->why[0] ? t->why : "its read stopped early");
	} else if (t->errors) {
		row->rank = BV_WARN;
		snprintf(row->verdict, sizeof(row->verdict), "read errors: %llu", (unsigned long long)t->errors);
	} else if (!live) {
		row->rank = BV_NONE;
		snprintf(row->verdict, sizeof(row->verdict), "-");
	} else {
		row->rank = BV_RUN;
		snprintf(row->verdict, sizeof(row->verdict), "%s",
			 t->ended == SNAP_END_DONE ? "read done" : !t->active ? "waiting" :
			 t->activity[0] ? "self-testing" : t->phase == SNAP_PH_MEASURE ? "reading" : "starting");
	}
}

static void
slot_text(const struct ui *u, const struct brow *r, char *b, size_t n)
{
	const char *addr = NULL, *port = NULL;

	if (r->d && u->inv && r->d->controller >= 0 && (size_t)r->d->controller < u->inv->n_ctrl)
		addr = u->inv->ctrl[r->d->controller].address;
	if (r->d && r->d->port[0])
		port = r->d->port;
	if (!addr && r->id && r->id->controller[0])
		addr = r->id->controller;
	if (!port && r->id && r->id->port[0])
		port = r->id->port;
	if (addr && !strncmp(addr, "0000:", 5))	/* the usual PCI domain says nothing */
		addr += 5;
	if (addr || port)
		snprintf(b, n, "%s%s%s", addr ? addr : "?", port ? " " : "", port ? port : "");
	else
		snprintf(b, n, "-");
}

/* Slot order: controller, then port, then name, numbers by value. */
static int
cmp_slot(const struct ui *u, const struct brow *a, const struct brow *b)
{
	int ca = a->d ? a->d->controller : -1, cb = b->d ? b->d->controller : -1;

	if (ca != cb)
		return ca < 0 ? 1 : cb < 0 ? -1 : ca - cb;
	int c = strverscmp(a->d ? a->d->port : "", b->d ? b->d->port : "");

	return c ? c : strverscmp(u->snap.t[a->t].name, u->snap.t[b->t].name);
}

static int
cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct brow *a = pa, *b = pb;
	const struct ui *u = arg;

	if (u->board.by_verdict && a->rank != b->rank)
		return a->rank - b->rank;
	return cmp_slot(u, a, b);
}

/* The rows in display order (n = the snapshot's targets). */
static struct brow *
build_rows(struct ui *u, size_t *out_n)
{
	const struct run_snapshot *s = &u->snap;
	const struct run_result *res = board_result(u);
	struct btab b;
	struct brow *rows = calloc(s->n_targets ? s->n_targets : 1, sizeof(*rows));

	*out_n = 0;
	if (!rows)
		return NULL;
	find_table(res, &b);
	for (size_t i = 0; i < s->n_targets; i++) {
		struct brow *r = &rows[i];
		const char *name = s->t[i].name;

		r->t = (int)i;
		r->tab_row = -1;
		r->d = u->inv ? inventory_match_drive(u->inv, name) : NULL;
		for (size_t k = 0; res && k < res->n_ident && k < res->ident_targets.n; k++)
			if (same_target(res->ident_targets.v[k], name))
				r->id = &res->ident[k];
		for (size_t k = 0; b.tb && k < b.tb->n_rows; k++) {
			const char *tn = cell_str(b.tb, (int)k, b.c_tgt);

			if (tn && same_target(tn, name))
				r->tab_row = (int)k;
		}
		if (r->tab_row < 0 && b.tb && b.tb->n_rows == s->n_targets)
			r->tab_row = (int)i;	/* plan order */
		row_verdict(u, &s->t[i], &b, r);
	}
	qsort_r(rows, s->n_targets, sizeof(*rows), cmp_rows, u);	/* the order's state is u's */
	*out_n = s->n_targets;
	return rows;
}

/* The strip's columns: each the block time of its share of the buckets. */
static double
strip_col(const struct strip *st, int x, int w)
{
	int k0 = x * STRIP_N / w, k1 = (x + 1) * STRIP_N / w;
	uint64_t ns = 0, by = 0;

	if (k1 <= k0)
		k1 = k0 + 1;
	for (int k = k0; k < k1 && k < STRIP_N; k++) {
		ns += st->ns[k];
		by += st->bytes[k];
	}
	if (!by)
		return ns ? INFINITY : NAN;
	return (double)ns / (double)by;	/* ms per MB: ns / bytes */
}

static double
row_median(const struct strip *st)
{
	double v[STRIP_N];
	int n = 0;

	for (int k = 0; k < STRIP_N; k++) {
		double x = strip_ms_per_mb(st, k);

		if (isfinite(x))
			v[n++] = x;
	}
	if (!n)
		return NAN;
	for (int i = 1; i < n; i++)	/* 64 at most: insertion sort */
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[n / 2];
}

/* Height: log2 of the block time over the board's fastest, 8x = full, so
 * the outer-to-inner slowdown is a gentle slope and a bad band a spike.
 * Colour: twice the drive's own median warns, five times (or a stall)
 * fails. */
static void
draw_strip(struct ui *u, const struct strip *st, double lo, int y, int x, int w, bool sel)
{
	double med = row_median(st);

	for (int i = 0; i < w; i++) {
		double v = strip_col(st, i, w);
		char g[8] = " ";
		enum theme_el el = EL_READ;

		if (isnan(v)) {
			el = EL_DIM;	/* not read there (yet): blank */
		} else {
			double lev = isinf(v) || !(lo > 0) ? 1 : log2(v / lo) / 3;
			/* a known bucket is never blank: the lowest glyph up */
			double m = u->gl == GL_BRAILLE ? 1.0 / 8 : u->gl == GL_BLOCK ? 0.5 : 1.0 / 6;

			lev = lev < 0 ? 0 : lev > 1 ? 1 : lev;
			canvas_spark(u->gl, m + (1 - m) * lev, g);
			if (isinf(v) || (isfinite(med) && v > 5 * med))
				el = EL_FAIL;
			else if (isfinite(med) && v > 2 * med)
				el = EL_WARN;
		}
		draw_text(y, x + i, 1, attr_of(sel ? EL_SELECTED : el), g);
	}
}

static enum theme_el
rank_el(int rank)
{
	return rank == BV_FAIL ? EL_FAIL : rank == BV_WARN ? EL_WARN : rank == BV_PASS ? EL_OK : EL_TEXT;
}

static void
temp_text(const struct ui *u, const struct brow *r, const struct btab *b, char *out, size_t n)
{
	double c = NAN;

	if (r->d && r->d->ata.smart.temperature_c.known)
		c = r->d->ata.smart.temperature_c.v;
	if (b->tb && r->tab_row >= 0 && b->c_temp >= 0) {
		const struct result_cell *cl = &b->tb->cells[(size_t)r->tab_row * b->tb->n_cols + (size_t)b->c_temp];

		if (cl->d.known)
			c = cl->d.v;
	}
	if (isfinite(c))
		snprintf(out, n, u->utf8 ? "%.0f\u00b0C" : "%.0fC", c);
	else
		snprintf(out, n, "?");	/* unknown, never 0 */
}

/* A row with its verdict in the result has read its pass, unless the run
 * was stopped. */
static void
progress_text(struct ui *u, const struct snap_target *t, const struct brow *r, char *out, size_t n)
{
	const struct run_result *res = board_result(u);

	if (r->tab_row >= 0 && res && !res->interrupted)
		snprintf(out, n, "100%%");
	else if (t->ended == SNAP_END_DONE)
		snprintf(out, n, "100%%");
	else if (t->active && ui_test_running(u))
		snprintf(out, n, "%.0f%%", t->pos * 100);
	else
		snprintf(out, n, "-");
}

/* Columns: which fit at this width (the strip and the verdict always). */
struct bcols {
	int slot, name, model, serial, prog, rate, temp, strip, verdict;
};

static void
plan_cols(int w, struct bcols *c)
{
	*c = (struct bcols){ 20, 10, 22, 18, 4, 9, 5, 0, 0 };
	int fixed = 2 + c->slot + c->name + c->model + c->serial + c->prog + c->rate + c->temp + 8;

	if (w - fixed < 8 + 16) {	/* narrow: model, then serial, then slot go */
		fixed -= c->model + 1;
		c->model = 0;
	}
	if (w - fixed < 8 + 16) {
		fixed -= c->serial + 1;
		c->serial = 0;
	}
	if (w - fixed < 8 + 16) {
		fixed -= c->slot + 1;
		c->slot = 0;
	}
	int room = w - fixed;

	c->strip = room - 24 > STRIP_N ? STRIP_N : room - 24 > 16 ? room - 24 : room / 2;
	if (c->strip < 4)
		c->strip = 4;
	c->verdict = room - c->strip;
}

static int
col(int y, int x, int w, int attr, const char *s)
{
	if (w <= 0)
		return x;
	draw_text(y, x, w, attr, s);
	return x + w + 1;
}

static void
draw_row(struct ui *u, const struct brow *r, const struct btab *b, const struct bcols *c, double lo,
	 int y, int x, bool sel)
{
	const struct snap_target *t = &u->snap.t[r->t];
	enum theme_el el = rank_el(r->rank);
	int a = attr_of(sel ? EL_SELECTED : (r->rank == BV_FAIL || r->rank == BV_WARN) ? el : EL_TEXT);
	char slot[112], prog[16], rate[24], temp[16];
	const char *model = r->d && r->d->model[0] ? r->d->model : r->id && r->id->model[0] ? r->id->model : "?";
	const char *serial = r->d && r->d->serial[0] ? r->d->serial : r->id && r->id->serial[0] ? r->id->serial : "?";

	if (sel)
		draw_fill(y, x, c->slot + c->name + c->model + c->serial + c->prog + c->rate + c->temp + 16, a);
	slot_text(u, r, slot, sizeof(slot));
	progress_text(u, t, r, prog, sizeof(prog));
	if (t->active && ui_test_running(u) && t->phase == SNAP_PH_MEASURE && !t->ended && !t->activity[0])
		fmt_rate(rate, sizeof(rate), t->mbps);
	else
		snprintf(rate, sizeof(rate), "-");
	temp_text(u, r, b, temp, sizeof(temp));
	draw_text(y, x, 2, attr_of(el), r->rank == BV_FAIL || r->rank == BV_WARN ? sym_warn(u) : " ");
	x += 2;
	x = col(y, x, c->slot, a, slot);
	x = col(y, x, c->name, a, t->name);
	x = col(y, x, c->model, a, model);
	x = col(y, x, c->serial, a, serial);
	x = col(y, x, c->prog, a, prog);
	x = col(y, x, c->rate, a, rate);
	x = col(y, x, c->temp, a, temp);
	if (t->activity[0] && t->active && ui_test_running(u))	/* a self-test: no blocks to draw */
		draw_text(y, x, c->strip, a, t->activity);
	else
		draw_strip(u, &t->strip, lo, y, x, c->strip, false);
	x += c->strip + 1;
	draw_text(y, x, c->verdict, attr_of(sel ? EL_SELECTED : el), r->verdict);
}

/* The board's fastest block time: the strips' common floor. */
static double
board_floor(const struct run_snapshot *s)
{
	double lo = INFINITY;

	for (size_t i = 0; i < s->n_targets; i++)
		for (int k = 0; k < STRIP_N; k++) {
			double v = strip_ms_per_mb(&s->t[i].strip, k);

			if (isfinite(v) && v > 0 && v < lo)
				lo = v;
		}
	return isfinite(lo) ? lo : NAN;
}

/* ---- a drive's detail ---- */

static void
detail_curve(struct ui *u, const struct strip *st, int y, int x, int w, int h)
{
	static const int layer_el[] = { EL_TEXT, EL_READ };
	struct canvas c;
	int lw = 6, cw = w - lw;
	double v[STRIP_N], top = 0;

	if (cw < 8 || h < 3)
		return;
	for (int k = 0; k < STRIP_N; k++) {
		double ms = strip_ms_per_mb(st, k);

		v[k] = isfinite(ms) && ms > 0 ? 1000 / ms : isinf(ms) ? 0 : NAN;	/* MB/s */
		if (isfinite(v[k]) && v[k] > top)
			top = v[k];
	}
	draw_text(y, x, w, attr_of(EL_TITLE), "Read rate by position (outer edge left)");
	if (canvas_init(&c, u->gl, cw, h - 2) < 0)
		return;
	int pw = canvas_pw(&c), ph = canvas_ph(&c);

	top = top > 0 ? top * 1.05 : 1;
	for (int px = 0; px < pw; px++) {
		double r = v[px * STRIP_N / pw];

		if (!isfinite(r))
			continue;
		int hh = (int)lround(r / top * ph);
		if (hh > 0)
			canvas_vfill(&c, px, ph - hh, ph - 1, 1);
	}
	draw_canvas(u, &c, y + 1, x + lw, layer_el);
	canvas_free(&c);
	draw_textf(y + 1, x, lw, attr_of(EL_AXIS), "%5.0f", top);
	draw_text(y + h - 2, x, lw, attr_of(EL_AXIS), "    0");
	draw_fill(y + h - 1, x, w, attr_of(EL_AXIS));
	draw_text(y + h - 1, x, lw, attr_of(EL_AXIS), "MB/s");
	draw_text(y + h - 1, x + lw, 4, attr_of(EL_AXIS), "0%");
	draw_text(y + h - 1, x + lw + cw / 2 - 1, 4, attr_of(EL_AXIS), "50%");
	draw_text(y + h - 1, x + w - 4, 4, attr_of(EL_AXIS), "100%");
}

/* The drive's facts, then (after the run) its row of the result table and
 * its verdict's evidence: SMART delta, unreadable extents, slow ranges. */
static void
detail_text(struct ui *u, const struct brow *r, const struct btab *b, int y, int x, int w, int h)
{
	const struct snap_target *t = &u->snap.t[r->t];
	const struct run_result *res = board_result(u);
	int line = 0;
	char s1[112], s2[24];

#define LINE(el, ...) do { if (line < h) draw_textf(y + line++, x, w, attr_of(el), __VA_ARGS__); } while (0)
	slot_text(u, r, s1, sizeof(s1));
	LINE(EL_TEXT, "slot %s", s1);
	LINE(EL_TEXT, "model %s, serial %s", r->d && r->d->model[0] ? r->d->model : r->id ? r->id->model : "?",
	     r->d && r->d->serial[0] ? r->d->serial : r->id ? r->id->serial : "?");
	temp_text(u, r, b, s1, sizeof(s1));
	fmt_rate(s2, sizeof(s2), t->mbps);
	LINE(EL_TEXT, "temperature %s; now %s; %llu samples (%llu lost)", s1,
	     ui_test_running(u) && t->active ? s2 : "-", (unsigned long long)t->samples,
	     (unsigned long long)t->lost);
	/* SSD wear, computed in the core: as the run recorded it, else the inventory's */
	struct drive_wear wr;
	char ws[200];
	if (!triage_recorded_wear(res, t->name, &wr) || r->d) {
		if (wr.reason[0] && !strcmp(wr.reason, "not recorded"))
			wear_of_drive(r->d, &wr);
		LINE(wr.percent_used.known ? EL_TEXT : EL_DIM, "wear %s", wear_text(&wr, ws, sizeof(ws)));
	}
	LINE(rank_el(r->rank), "%s", r->verdict);
	if (b->tb && r->tab_row >= 0)
		for (size_t k = 0; k < b->tb->n_cols; k++) {
			char v[96];

			if ((int)k == b->c_tgt || (int)k == b->c_verdict || (int)k == b->c_reasons)
				continue;
			const struct result_col *col = &b->tb->cols[k];
			const char *un = col->type == COL_DBL && strcmp(col->unit, "%") ? col->unit : "";

			table_cell_text(b->tb, (size_t)r->tab_row, k, v, sizeof(v));
			bool deg = !strcmp(un, "C");	/* as the row writes it: 31°C */

			if (deg)
				un = u->utf8 ? "\u00b0C" : "C";
			/* the cell has "%" only: the other units follow the number */
			LINE(EL_DIM, "%s: %s%s%s", col->title, v, un[0] && !deg && strcmp(v, "-") ? " " : "",
			     strcmp(v, "-") ? un : "");
		}
	for (size_t k = 0; res && k < res->n_verdicts; k++) {
		const struct verdict *vd = &res->verdicts[k];
		size_t nl = strlen(t->name);

		if (strncmp(vd->text, t->name, nl) || vd->text[nl] != ':')
			continue;
		LINE(rank_el(vd->level == VL_FAIL ? BV_FAIL : vd->level == VL_WARN ? BV_WARN : BV_PASS), "%s",
		     vd->text);
		for (size_t e = 0; e < vd->evidence.n; e++)
			LINE(EL_TEXT, "  %s", vd->evidence.v[e]);
	}
	if (!res && ui_test_running(u))
		LINE(EL_DIM, "the verdict, SMART delta and extents come when the run ends");
#undef LINE
}

static void
draw_detail(struct ui *u, const struct rect *rc, const struct brow *r, const struct btab *b)
{
	const struct snap_target *t = &u->snap.t[r->t];
	char title[160];

	snprintf(title, sizeof(title), "Board: %s  (Esc back)", t->name);
	draw_box(u, rc, title, u->focus == AR_BOARD);
	int iw = rc->w - 2, ih = rc->h - 2;
	int cw = iw >= 90 ? iw / 2 : iw, ch = iw >= 90 ? ih : ih / 2;

	detail_curve(u, &t->strip, rc->y + 1, rc->x + 1, cw - 1, ch);
	if (iw >= 90)
		detail_text(u, r, b, rc->y + 1, rc->x + 1 + cw + 1, iw - cw - 1, ih);
	else
		detail_text(u, r, b, rc->y + 1 + ch, rc->x + 1, iw, ih - ch);
}

/* ---- the panel ---- */

static int
sel_pos(const struct ui *u, const struct brow *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].t == u->board.sel)
			return (int)i;
	return 0;
}

void
panel_board_draw(struct ui *u, const struct rect *rc)
{
	size_t n = 0;
	struct brow *rows = u->have_snap ? build_rows(u, &n) : NULL;
	struct btab b;
	char title[96];

	find_table(board_result(u), &b);
	if (rows && u->board.detail > 0 && (size_t)u->board.detail <= n) {
		for (size_t i = 0; i < n; i++)
			if (rows[i].t == u->board.detail - 1)
				draw_detail(u, rc, &rows[i], &b);
		free(rows);
		return;
	}
	u->board.detail = 0;
	snprintf(title, sizeof(title), "Board  %zu drives, by %s  (o order, Enter detail)", n,
		 u->board.by_verdict ? "verdict" : "slot");
	draw_box(u, rc, title, u->focus == AR_BOARD);
	if (!rows || !n) {
		draw_text(rc->y + 1, rc->x + 2, rc->w - 4, attr_of(EL_DIM), "no drives yet");
		free(rows);
		return;
	}
	struct bcols c;

	plan_cols(rc->w - 2, &c);
	int y = rc->y + 1, x = rc->x + 1, vis = rc->h - 3;
	int hx = x + 2;

	hx = col(y, hx, c.slot, attr_of(EL_TITLE), "Slot");
	hx = col(y, hx, c.name, attr_of(EL_TITLE), "Drive");
	hx = col(y, hx, c.model, attr_of(EL_TITLE), "Model");
	hx = col(y, hx, c.serial, attr_of(EL_TITLE), "Serial");
	hx = col(y, hx, c.prog, attr_of(EL_TITLE), "Done");
	hx = col(y, hx, c.rate, attr_of(EL_TITLE), "Now");
	hx = col(y, hx, c.temp, attr_of(EL_TITLE), "Temp");
	hx = col(y, hx, c.strip, attr_of(EL_TITLE), c.strip >= 17 ? "ms/MB by position" : "ms/MB");
	col(y, hx, c.verdict, attr_of(EL_TITLE), "Verdict");
	int sp = sel_pos(u, rows, n);

	u->board.sel = rows[sp].t;
	if (vis < 1)
		vis = 1;
	if (sp < u->board.top)
		u->board.top = sp;
	if (sp >= u->board.top + vis)
		u->board.top = sp - vis + 1;
	if (u->board.top > (int)n - vis)
		u->board.top = (int)n - vis > 0 ? (int)n - vis : 0;
	double lo = board_floor(&u->snap);

	for (int i = 0; i < vis && u->board.top + i < (int)n; i++) {
		int k = u->board.top + i;

		draw_row(u, &rows[k], &b, &c, lo, y + 1 + i, x, k == sp && u->focus == AR_BOARD);
	}
	if ((int)n > vis)
		draw_textf(rc->y + rc->h - 1, rc->x + rc->w - 14, 12, attr_of(EL_DIM), " %d-%d/%zu ",
			   u->board.top + 1, u->board.top + vis < (int)n ? u->board.top + vis : (int)n, n);
	free(rows);
}

int
panel_board_key(struct ui *u, enum action a, int ch)
{
	size_t n = 0;
	struct brow *rows = NULL;

	if (a == ACT_BACK) {
		if (!u->board.detail)
			return 0;
		u->board.detail = 0;
		return UI_HANDLED | UI_REDRAW | UI_RELAYOUT;
	}
	if (a == ACT_SORT) {
		u->board.by_verdict = !u->board.by_verdict;
		ui_notice(u, EL_OK, "board: by %s", u->board.by_verdict ? "verdict (FAIL first)" : "slot");
		return UI_HANDLED | UI_REDRAW;
	}
	if (u->have_snap)
		rows = build_rows(u, &n);
	if (!rows || !n) {
		free(rows);
		return 0;
	}
	int sp = sel_pos(u, rows, n), last = (int)n - 1, page = u->lay.r[AR_BOARD].h - 3;
	int flags = UI_HANDLED | UI_REDRAW;

	switch (a) {
	case ACT_UP:
		sp = sp > 0 ? sp - 1 : 0;
		break;
	case ACT_DOWN:
		sp = sp < last ? sp + 1 : last;
		break;
	case ACT_PGUP:
		sp = sp - page > 0 ? sp - page : 0;
		break;
	case ACT_PGDN:
		sp = sp + page < last ? sp + page : last;
		break;
	case ACT_HOME:
		sp = 0;
		break;
	case ACT_END:
		sp = last;
		break;
	case ACT_ENTER:
		u->board.detail = rows[sp].t + 1;
		flags |= UI_RELAYOUT;
		break;
	default:
		flags = 0;
		break;
	}
	u->board.sel = rows[sp].t;
	free(rows);
	(void)ch;
	return flags;
}

/* A click on a row selects it (the header and frame do nothing). */
int
panel_board_click(struct ui *u, const struct rect *r, int x, int y)
{
	size_t n = 0;
	struct brow *rows = NULL;
	int k = u->board.top + (y - (r->y + 2));

	(void)x;
	if (u->board.detail || y < r->y + 2 || y >= r->y + r->h - 1 || !u->have_snap ||
	    !(rows = build_rows(u, &n)))
		return 0;
	if (k >= 0 && k < (int)n)
		u->board.sel = rows[k].t;
	free(rows);
	return UI_HANDLED | UI_REDRAW;
}

bool
board_detail_open(const struct ui *u)
{
	return u->board.detail > 0;
}
