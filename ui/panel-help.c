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
	int w = u->cols - 4 < 72 ? u->cols - 4 : 72;
	int h = n + 6 < u->rows - 2 ? n + 6 : u->rows - 2;
	struct rect r = { (u->cols - w) / 2, (u->rows - h) / 2, w, h, true };
	int y = r.y + 1;
	char thm[96];

	for (int k = 0; k < h; k++)
		draw_fill(r.y + k, r.x, w, attr_of(EL_OVERLAY));
	draw_box(u, &r, "Help: keys (any key closes)", true);
	for (size_t i = 0; i < n_key_table && y < r.y + h - 3; i++) {
		const struct key_binding *k = &key_table[i];

		if (!k->help)
			continue;
		draw_text(y, r.x + 2, 12, attr_of(EL_KEY), k->label);
		draw_text(y, r.x + 15, w - 17, attr_of(EL_OVERLAY), k->help);
		y++;
	}
	draw_text(r.y + h - 3, r.x + 2, w - 4, attr_of(EL_DIM), "Mouse: click a panel or a line to select it.");
	snprintf(thm, sizeof(thm), "Theme %s, glyphs %s%s.", u->theme.name, glyphs_name(u->gl),
		 color_is_mono() ? ", no colour" : "");
	draw_text(r.y + h - 2, r.x + 2, w - 4, attr_of(EL_DIM), thm);
}
