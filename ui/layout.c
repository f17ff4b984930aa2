/* layout.c - rectangles from the terminal size, the view and the test.
 * Pure: the same input always gives the same rectangles (tests/unit/test_layout.c
 * walks every size from 20x6 to 300x100). */
#include <string.h>
#include "layout.h"

static const char *const area_names[AR_COUNT] = {
	[AR_HEADER] = "header", [AR_FOOTER] = "footer", [AR_TOO_SMALL] = "too-small",
	[AR_INVENTORY] = "inventory", [AR_DETAILS] = "details", [AR_PICKER] = "picker",
	[AR_THROUGHPUT] = "throughput", [AR_SCALING] = "scaling",
	[AR_SATURATION] = "saturation", [AR_LATENCY] = "latency", [AR_STATS] = "stats", [AR_TABLE] = "table",
	[AR_RESULTS] = "results", [AR_RESULTS2] = "results2", [AR_POSITION] = "position",
	[AR_BOARD] = "board",
};

const char *
layout_area_name(enum area a)
{
	return a < AR_COUNT ? area_names[a] : "?";
}

bool
rect_contains(const struct rect *r, int x, int y)
{
	return r->visible && x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

static void
put(struct layout *l, enum area a, int x, int y, int w, int h)
{
	struct rect *r = &l->r[a];

	r->x = x;
	r->y = y;
	r->w = w;
	r->h = h;
	/* A panel smaller than its frame plus one line of content is noise. */
	r->visible = w >= 12 && h >= 3;
}

/* Split a width: the left part gets num/den of it, at least lo, leaving at
 * least lo to the right. */
static int
split(int total, int num, int den, int lo)
{
	int left = total * num / den;

	if (left < lo)
		left = lo;
	if (total - left < lo)
		left = total - lo;
	return left;
}

/* The board's height: its rows plus frame and header, at most num/den of
 * H (all of it with a detail open), leaving at least `keep` rows below. */
static int
board_height(const struct layout_in *in, int H, int num, int den, int keep)
{
	int want = in->board_detail ? H * num / den : (in->board_rows > 0 ? in->board_rows : 1) + 3;
	int cap = H * num / den;

	if (want > cap)
		want = cap;
	if (want < 6)
		want = 6;
	if (H - want < keep)
		want = H - keep;
	return want < H ? want : H;
}

/* Live with the board: the board on top, full width; below it the rate
 * plot and the stats when there is room for them, else the board alone. */
static void
layout_board_live(const struct layout_in *in, struct layout *l, int y0, int W, int H)
{
	if (H < 20) {
		put(l, AR_BOARD, 0, y0, W, H);
		return;
	}
	int bh = board_height(in, H, 2, 3, 8), rest = H - bh;
	int lw = split(W, 3, 5, 24);

	put(l, AR_BOARD, 0, y0, W, bh);
	put(l, in->position ? AR_POSITION : AR_THROUGHPUT, 0, y0 + bh, lw, rest);
	put(l, AR_STATS, lw, y0 + bh, W - lw, rest);
}

static void
layout_live(const struct layout_in *in, struct layout *l, int y0, int W, int H)
{
	bool narrow = W < 80 || H < 20;
	int top = narrow ? H - 9 : (H + 1) / 2;
	int bot = H - top;
	int lw = split(W, 3, 5, 24);

	if (in->table) {	/* the table wants the width: the whole lower half */
		int tw = narrow ? split(W, 2, 3, 24) : W;

		put(l, in->position ? AR_POSITION : AR_THROUGHPUT, 0, y0, narrow ? W : lw, top);
		if (!narrow)
			put(l, AR_STATS, lw, y0, W - lw, top);
		put(l, AR_TABLE, 0, y0 + top, tw, bot);
		if (narrow)
			put(l, AR_STATS, tw, y0 + top, W - tw, bot);
		return;
	}
	if (narrow) {
		int half = split(W, 1, 2, 24);

		put(l, in->position ? AR_POSITION : AR_THROUGHPUT, 0, y0, W, top);
		if (in->saturation)
			put(l, AR_SATURATION, 0, y0 + top, half, bot);
		else
			put(l, AR_SCALING, 0, y0 + top, half, bot);
		put(l, AR_STATS, half, y0 + top, W - half, bot);
		return;
	}
	put(l, in->position ? AR_POSITION : AR_THROUGHPUT, 0, y0, lw, top);
	put(l, AR_SCALING, lw, y0, W - lw, top);
	if (in->saturation) {
		int sh = bot < 9 ? bot : 9;

		put(l, AR_SATURATION, 0, y0 + top, lw, bot);
		if (bot - sh >= 7) {
			put(l, AR_LATENCY, lw, y0 + top, W - lw, bot - sh);
			put(l, AR_STATS, lw, y0 + top + bot - sh, W - lw, sh);
		} else {
			put(l, AR_STATS, lw, y0 + top, W - lw, bot);
		}
	} else {
		put(l, AR_LATENCY, 0, y0 + top, lw, bot);
		put(l, AR_STATS, lw, y0 + top, W - lw, bot);
	}
}

static void
layout_result(const struct layout_in *in, struct layout *l, int y0, int W, int H)
{
	if (in->compare) {	/* two saved runs side by side (no board) */
		int half = split(W, 1, 2, 24);

		put(l, AR_RESULTS, 0, y0, half, H);
		put(l, AR_RESULTS2, half, y0, W - half, H);
		return;
	}
	if (in->board) {	/* the board on top, the verdicts and tables below */
		int bh = board_height(in, H, 3, 5, 6);

		put(l, AR_BOARD, 0, y0, W, bh);
		put(l, AR_RESULTS, 0, y0 + bh, W, H - bh);
		return;
	}
	if (H < 20) {
		put(l, AR_RESULTS, 0, y0, W, H);
		return;
	}
	int top = H / 2;
	int lw = split(W, 1, 2, 24);

	put(l, AR_RESULTS, 0, y0, W, top);
	put(l, in->position ? AR_POSITION : AR_THROUGHPUT, 0, y0 + top, lw, H - top);
	put(l, in->saturation ? AR_SATURATION : AR_LATENCY, lw, y0 + top, W - lw, H - top);
}

void
layout_compute(const struct layout_in *in, struct layout *l)
{
	int W = in->cols, rows = in->rows;

	memset(l, 0, sizeof(*l));
	if (W < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
		l->too_small = true;
		l->r[AR_TOO_SMALL] = (struct rect){ 0, 0, W > 0 ? W : 0, rows > 0 ? 1 : 0, W > 0 && rows > 0 };
		return;
	}
	l->r[AR_HEADER] = (struct rect){ 0, 0, W, 1, true };
	l->r[AR_FOOTER] = (struct rect){ 0, rows - 1, W, 1, true };
	int y0 = 1, H = rows - 2;

	switch (in->view) {
	case VIEW_HOME:
		if (W < 100) {
			/* Narrow: the tree needs the width more than the details do. */
			int ih = H * 3 / 5;

			put(l, AR_INVENTORY, 0, y0, W, ih);
			put(l, AR_DETAILS, 0, y0 + ih, W, H - ih);
		} else {
			int iw = split(W, 3, 5, 30);

			put(l, AR_INVENTORY, 0, y0, iw, H);
			put(l, AR_DETAILS, iw, y0, W - iw, H);
		}
		break;
	case VIEW_PICKER:
		put(l, AR_PICKER, 0, y0, W, H);
		break;
	case VIEW_LIVE:
		if (in->board)
			layout_board_live(in, l, y0, W, H);
		else
			layout_live(in, l, y0, W, H);
		break;
	case VIEW_RESULT:
		layout_result(in, l, y0, W, H);
		break;
	}
}
