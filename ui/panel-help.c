/* panel-help.c - the help overlay, made from the key table so it can never
 * disagree with what the keys do. */
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

void
panel_help_draw(struct ui *u)
{
	int n = 0;

	for (size_t i = 0; i < n_key_table; i++)
		n += key_table[i].help != NULL;
	/* One column when it fits, else two side by side (80x24 holds every
	 * key that way); a line says so when even that is cut. */
	int avail = u->rows - 2 - 5;
	int ncol = n > avail && u->cols >= 70 ? 2 : 1;
	int lines = (n + ncol - 1) / ncol;
	int w = ncol == 1 ? (u->cols - 4 < 72 ? u->cols - 4 : 72) : (u->cols - 4 < 120 ? u->cols - 4 : 120);
	int h = lines + 6 < u->rows - 2 ? lines + 6 : u->rows - 2;
	struct rect r = { (u->cols - w) / 2, (u->rows - h) / 2, w, h, true };
	int cw = (w - 4) / ncol, kw = ncol == 1 ? 12 : 8;
	char thm[96];

	for (int k = 0; k < h; k++)
		draw_fill(r.y + k, r.x, w, attr_of(EL_OVERLAY));
	draw_box(u, &r, "Help: keys (any key closes)", true);
	int shown = 0, slot = 0;

	for (size_t i = 0; i < n_key_table; i++) {
		const struct key_binding *k = &key_table[i];

		if (!k->help)
			continue;
		int col = slot / lines, row = slot % lines;

		slot++;
		if (r.y + 1 + row >= r.y + h - 3)
			continue;
		int x = r.x + 2 + col * cw;

		draw_text(r.y + 1 + row, x, kw, attr_of(EL_KEY), k->label);
		draw_text(r.y + 1 + row, x + kw + 1, cw - kw - 2, attr_of(EL_OVERLAY), k->help);
		shown++;
	}
	if (shown < n)
		draw_textf(r.y + h - 3, r.x + 2, w - 4, attr_of(EL_WARN),
			   "%d more keys: enlarge the terminal to see them", n - shown);
	else
		draw_text(r.y + h - 3, r.x + 2, w - 4, attr_of(EL_DIM),
			  "Mouse: click a panel or a line to select it.");
	snprintf(thm, sizeof(thm), "Theme %s, glyphs %s%s.", u->theme.name, glyphs_name(u->gl),
		 color_is_mono() ? ", no colour" : "");
	draw_text(r.y + h - 2, r.x + 2, w - 4, attr_of(EL_DIM), thm);
}
