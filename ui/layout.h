/* layout.h - where every panel goes: a pure function of the terminal size,
 * the view and the running test.  No curses here, so it is unit-tested over
 * every size. */
#ifndef DS_UI_LAYOUT_H
#define DS_UI_LAYOUT_H
#include <stdbool.h>

#define LAYOUT_MIN_COLS 60
#define LAYOUT_MIN_ROWS 16

struct rect {
	int x, y, w, h;
	bool visible;		/* false: deliberately hidden at this size */
};

enum view { VIEW_HOME, VIEW_PICKER, VIEW_LIVE, VIEW_RESULT };

enum area {
	AR_HEADER, AR_FOOTER, AR_TOO_SMALL,
	AR_INVENTORY, AR_DETAILS,		/* home */
	AR_PICKER,				/* picker */
	AR_THROUGHPUT, AR_SCALING, AR_SATURATION, AR_LATENCY, AR_STATS,	/* live */
	AR_TABLE,				/* live: the test's table so far */
	AR_RESULTS, AR_RESULTS2,		/* result view (and compare) */
	AR_POSITION,				/* live and result: rate by position, block map */
	AR_BOARD,				/* live and result: the bench board, a row per drive */
	AR_COUNT
};

struct layout_in {
	int cols, rows;
	enum view view;
	bool saturation;	/* the test has steps over drive counts (PANEL_SATURATION) */
	bool compare;		/* result view of two saved runs */
	bool table;		/* the test fills a table live (PANEL_TABLE); wins over saturation */
	bool position;		/* a positional test without a time plot: AR_POSITION in its place */
	bool board;		/* the bench board (PANEL_BOARD): on top, full width; wins over table */
	int board_rows;		/* its drives (the board's height follows, up to a share) */
	bool board_detail;	/* a drive's detail is open: the board takes more room */
};

struct layout {
	bool too_small;		/* only AR_TOO_SMALL is visible */
	struct rect r[AR_COUNT];
};

void layout_compute(const struct layout_in *in, struct layout *out);
const char *layout_area_name(enum area a);
bool rect_contains(const struct rect *r, int x, int y);
#endif
