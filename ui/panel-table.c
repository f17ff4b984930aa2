/* panel-table.c - the running test's own table (PANEL_TABLE), drawn from its
 * column types whatever the test: the quick grid fills cell by cell as its
 * steps finish.  Columns that do not fit are left off at the right and
 * counted, never squeezed into misleading widths. */
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

#define TBL_COLS 16

void
panel_table_draw(struct ui *u, const struct rect *r)
{
	const struct run_snapshot *s = ui_view_snapshot(u);
	const struct result_table *t = s ? s->table : NULL;
	char title[96], cell[64], row[512];
	int cw[TBL_COLS];

	snprintf(title, sizeof(title), "%s", t && t->title[0] ? t->title : "Table");
	draw_box(u, r, title, u->focus == AR_TABLE);
	int x = r->x + 2, w = r->w - 4, y = r->y + 1, ih = r->h - 2;

	if (!t) {
		draw_text(y, x, w, attr_of(EL_DIM), "the table fills as the steps finish");
		return;
	}
	size_t nc = t->n_cols < TBL_COLS ? t->n_cols : TBL_COLS, fit = 0;
	int used = 0;

	for (size_t c = 0; c < nc; c++) {
		const struct result_col *k = &t->cols[c];

		cw[c] = text_width(k->title[0] ? k->title : k->name);
		for (size_t j = 0; j < t->n_rows; j++) {
			table_cell_text(t, j, c, cell, sizeof(cell));
			if (text_width(cell) > cw[c])
				cw[c] = text_width(cell);
		}
		if (used + (c ? 2 : 0) + cw[c] > w)
			break;
		used += (c ? 2 : 0) + cw[c];
		fit++;
	}
	/* the header (titles, then units when there is room), one line per
	 * row; a cell not measured yet is "-" */
	int hdr = ih >= (int)t->n_rows + 3 ? 2 : 1;

	for (int j = -hdr; j < (int)t->n_rows && j + hdr < ih - 1; j++) {
		size_t o = 0;

		for (size_t c = 0; c < fit && o < sizeof(row); c++) {
			const struct result_col *k = &t->cols[c];

			if (j == -hdr)
				snprintf(cell, sizeof(cell), "%s", k->title[0] ? k->title : k->name);
			else if (j < 0)
				snprintf(cell, sizeof(cell), "%s", k->unit);
			else
				table_cell_text(t, (size_t)j, c, cell, sizeof(cell));
			/* text left, numbers right, as a technician reads a grid */
			o += (size_t)snprintf(row + o, sizeof(row) - o, "%s%*s", c ? "  " : "",
					      k->type == COL_STR ? -cw[c] : cw[c], cell);
		}
		draw_text(y + hdr + j, x, w, attr_of(j < 0 ? EL_DIM : EL_TEXT), row);
	}
	/* the bottom line: what runs now, and what did not fit */
	char foot[160];
	size_t o = 0;

	foot[0] = 0;
	if (s->cur_label[0] && (s->state == RUN_RUNNING || s->state == RUN_STARTING))
		o += (size_t)snprintf(foot, sizeof(foot), "now: %s (%u/%u)", s->cur_label, s->step, s->n_steps);
	if (fit < t->n_cols && o < sizeof(foot))
		snprintf(foot + o, sizeof(foot) - o, "%s%zu column%s off screen (the result view has all)",
			 o ? "   " : "", t->n_cols - fit, t->n_cols - fit == 1 ? "" : "s");
	if (foot[0] && ih >= 2)
		draw_text(r->y + r->h - 2, x, w, attr_of(EL_DIM), foot);
}
