/* test_layout.c - the layout over every terminal size from 20x6 to 300x100,
 * for every view: nothing overlaps, everything visible is on screen, the
 * panels a view needs are there (or the one-line "too small" is). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "layout.h"

static bool
overlap(const struct rect *a, const struct rect *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static void
check_one(const struct layout_in *in)
{
	struct layout l, l2;
	char what[96];

	snprintf(what, sizeof(what), "%dx%d view %d sat %d cmp %d board %d/%d%s", in->cols, in->rows,
		 in->view, in->saturation, in->compare, in->board, in->board_rows,
		 in->board_detail ? " detail" : "");
	layout_compute(in, &l);
	layout_compute(in, &l2);
	if (memcmp(&l, &l2, sizeof(l)) != 0)
		fail_msg("%s: not deterministic", what);
	bool small = in->cols < LAYOUT_MIN_COLS || in->rows < LAYOUT_MIN_ROWS;

	if (small != l.too_small)
		fail_msg("%s: too_small = %d", what, l.too_small);
	if (small) {
		for (int a = 0; a < AR_COUNT; a++)
			if (a != AR_TOO_SMALL && l.r[a].visible)
				fail_msg("%s: %s visible on a too-small screen", what, layout_area_name(a));
		const struct rect *t = &l.r[AR_TOO_SMALL];

		if (!t->visible || t->h != 1 || t->x != 0 || t->y != 0 || t->w != in->cols)
			fail_msg("%s: too-small line not one full row", what);
		return;
	}
	if (l.r[AR_TOO_SMALL].visible)
		fail_msg("%s: too-small shown on a big enough screen", what);
	for (int a = 0; a < AR_COUNT; a++) {
		const struct rect *r = &l.r[a];

		if (!r->visible)
			continue;
		if (r->x < 0 || r->y < 0 || r->x + r->w > in->cols || r->y + r->h > in->rows)
			fail_msg("%s: %s off screen (%d,%d %dx%d)", what, layout_area_name(a), r->x, r->y,
				 r->w, r->h);
		if (a != AR_HEADER && a != AR_FOOTER && (r->w < 12 || r->h < 3))
			fail_msg("%s: %s visible but too small to draw (%dx%d)", what, layout_area_name(a),
				 r->w, r->h);
		for (int b = a + 1; b < AR_COUNT; b++)
			if (l.r[b].visible && overlap(r, &l.r[b]))
				fail_msg("%s: %s overlaps %s", what, layout_area_name(a), layout_area_name(b));
	}
	if (l.r[AR_HEADER].y != 0 || l.r[AR_HEADER].w != in->cols ||
	    l.r[AR_FOOTER].y != in->rows - 1 || l.r[AR_FOOTER].w != in->cols)
		fail_msg("%s: header/footer not on the first/last row", what);
	/* What each view must show at every size it supports. */
	enum area need[4] = { AR_COUNT, AR_COUNT, AR_COUNT, AR_COUNT };

	switch (in->view) {
	case VIEW_HOME:
		need[0] = AR_INVENTORY;
		need[1] = AR_DETAILS;
		break;
	case VIEW_PICKER:
		need[0] = AR_PICKER;
		break;
	case VIEW_LIVE:
		if (in->board) {	/* the board first; the plots below only with room */
			need[0] = AR_BOARD;
			break;
		}
		need[0] = in->position ? AR_POSITION : AR_THROUGHPUT;
		need[1] = AR_STATS;
		need[2] = in->table ? AR_TABLE : in->saturation ? AR_SATURATION : AR_COUNT;
		break;
	case VIEW_RESULT:
		need[0] = AR_RESULTS;
		need[1] = in->compare ? AR_RESULTS2 : AR_COUNT;
		need[2] = in->board && !in->compare ? AR_BOARD : AR_COUNT;
		break;
	}
	for (int i = 0; i < 4; i++)
		if (need[i] != AR_COUNT && !l.r[need[i]].visible)
			fail_msg("%s: %s hidden", what, layout_area_name(need[i]));
	/* Panels of other views never show. */
	static const enum area home_only[] = { AR_INVENTORY, AR_DETAILS };

	if (in->view != VIEW_HOME)
		for (size_t i = 0; i < 2; i++)
			if (l.r[home_only[i]].visible)
				fail_msg("%s: %s shown outside home", what, layout_area_name(home_only[i]));
}

static void
test_every_size(void **state)
{
	long n = 0;

	for (int cols = 20; cols <= 300; cols++)
		for (int rows = 6; rows <= 100; rows++)
			for (int v = VIEW_HOME; v <= VIEW_RESULT; v++)
				for (int f = 0; f < 16; f++) {
					struct layout_in in = { cols, rows, (enum view)v, f & 1, (f & 2) != 0,
								(f & 4) != 0, (f & 8) != 0, false, 0, false };

					check_one(&in);
					n++;
				}
	assert_int_equal(n, 281L * 95 * 4 * 16);
}

/* The bench board at every size, for boards of 0 to 40 drives, with and
 * without a drive's detail open: the same rules, the board always shown,
 * and never in the views that have no run. */
static void
test_board_every_size(void **state)
{
	static const int drives[] = { 0, 1, 5, 24, 32, 40 };

	for (int cols = 20; cols <= 300; cols += 3)
		for (int rows = 6; rows <= 100; rows++)
			for (int v = VIEW_HOME; v <= VIEW_RESULT; v++)
				for (size_t d = 0; d < sizeof(drives) / sizeof(drives[0]); d++)
					for (int f = 0; f < 8; f++) {
						struct layout_in in = { cols, rows, (enum view)v, f & 1, false,
									(f & 2) != 0, (f & 4) != 0, true,
									drives[d], d & 1 };
						struct layout l;

						check_one(&in);
						layout_compute(&in, &l);
						if ((v == VIEW_HOME || v == VIEW_PICKER) && l.r[AR_BOARD].visible)
							fail_msg("%dx%d: board outside a run", cols, rows);
					}
}

/* At 200x60 a 32-drive board shows every row, with the rate plot and the
 * stats under it; at 80x24 a 5-drive board keeps the plot too. */
static void
test_board_rows_fit(void **state)
{
	struct layout_in in = { 200, 60, VIEW_LIVE, false, false, false, false, true, 32, false };
	struct layout l;

	layout_compute(&in, &l);
	assert_true(l.r[AR_BOARD].visible);
	assert_true(l.r[AR_BOARD].h >= 32 + 3);
	assert_true(l.r[AR_THROUGHPUT].visible);
	assert_true(l.r[AR_STATS].visible);
	in.cols = 80;
	in.rows = 24;
	in.board_rows = 5;
	layout_compute(&in, &l);
	assert_int_equal(l.r[AR_BOARD].h, 5 + 3);
	assert_true(l.r[AR_THROUGHPUT].visible);
	in.view = VIEW_RESULT;
	layout_compute(&in, &l);
	assert_true(l.r[AR_BOARD].visible && l.r[AR_RESULTS].visible);
}

static void
test_live_uses_room(void **state)
{
	/* At 80x24 and larger every live panel of a saturate run is on screen. */
	struct layout_in in = { 80, 24, VIEW_LIVE, true, false, false, false, false, 0, false };
	struct layout l;

	layout_compute(&in, &l);
	assert_true(l.r[AR_THROUGHPUT].visible);
	assert_true(l.r[AR_SCALING].visible);
	assert_true(l.r[AR_SATURATION].visible);
	assert_true(l.r[AR_STATS].visible);
	in.cols = 250;
	in.rows = 70;
	layout_compute(&in, &l);
	for (int a = AR_THROUGHPUT; a <= AR_STATS; a++)
		assert_true(l.r[a].visible);
}

static void
test_contains(void **state)
{
	struct rect r = { 10, 5, 4, 2, true };

	assert_true(rect_contains(&r, 10, 5));
	assert_true(rect_contains(&r, 13, 6));
	assert_false(rect_contains(&r, 14, 6));
	assert_false(rect_contains(&r, 13, 7));
	assert_false(rect_contains(&r, 9, 5));
	r.visible = false;
	assert_false(rect_contains(&r, 10, 5));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_size),
		cmocka_unit_test(test_live_uses_room),
		cmocka_unit_test(test_board_every_size),
		cmocka_unit_test(test_board_rows_fit),
		cmocka_unit_test(test_contains),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
