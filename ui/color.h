/* color.h - a theme onto the terminal: degrade 256 -> 16 -> 8 -> monochrome
 * (attributes only).  The palette is never redefined (no init_color). */
#ifndef DS_UI_COLOR_H
#define DS_UI_COLOR_H
#include <stdbool.h>
#include "theme.h"

/* Pure: a theme colour for a terminal with `ncolors` colours.  Returns
 * COLOR_DEFAULT, or an index < ncolors; -1 (COLOR_DEFAULT) too when ncolors < 8.
 * *bold is set when a bright colour became its dark twin (8 colours). */
int color_degrade(int color, int ncolors, bool *bold);
/* Nearest xterm-256 index of an RGB value (the 6x6x6 cube or the grey ramp). */
int color_rgb_to_256(unsigned rgb);
/* RGB of an xterm index 0..255. */
unsigned color_256_to_rgb(int idx);

/* Curses side: set up pairs for every element (after start_color).
 * mono: NO_COLOR or a terminal without colour. */
void color_apply(const struct theme *t, bool mono);
/* The curses attributes (pair + attrs) of an element. */
int color_attr(enum theme_el e);
bool color_is_mono(void);
#endif
