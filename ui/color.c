/* color.c - theme colours to curses pairs, degraded to what the terminal has. */
#include <curses.h>
#include <stdlib.h>
#include "color.h"

/* xterm's first 16 colours. */
static const unsigned ansi16[16] = {
	0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
	0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};
static const int cube[6] = { 0, 95, 135, 175, 215, 255 };

unsigned
color_256_to_rgb(int idx)
{
	if (idx < 0)
		return 0;
	if (idx < 16)
		return ansi16[idx];
	if (idx < 232) {
		int i = idx - 16;

		return (unsigned)(cube[i / 36] << 16 | cube[i / 6 % 6] << 8 | cube[i % 6]);
	}
	int g = 8 + (idx - 232) * 10;

	return (unsigned)(g << 16 | g << 8 | g);
}

static long
dist(unsigned a, unsigned b)
{
	long dr = (long)(a >> 16 & 255) - (long)(b >> 16 & 255);
	long dg = (long)(a >> 8 & 255) - (long)(b >> 8 & 255);
	long db = (long)(a & 255) - (long)(b & 255);

	/* Weighted (green counts most) so greys and skin tones land right. */
	return 3 * dr * dr + 4 * dg * dg + 2 * db * db;
}

static int
nearest(unsigned rgb, int from, int to)
{
	int best = from;
	long bd = -1;

	for (int i = from; i < to; i++) {
		long d = dist(rgb, color_256_to_rgb(i));

		if (bd < 0 || d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}

int
color_rgb_to_256(unsigned rgb)
{
	return nearest(rgb & 0xFFFFFF, 16, 256);	/* cube and greys: fixed on every terminal */
}

int
color_degrade(int color, int ncolors, bool *bold)
{
	*bold = false;
	if (color == COLOR_DEFAULT || color == COLOR_UNSET || ncolors < 8)
		return COLOR_DEFAULT;
	if (color & COLOR_RGB) {
		color = color_rgb_to_256((unsigned)color & 0xFFFFFF);
		if (ncolors >= 256)
			return color;
	}
	if (color < ncolors)
		return color;
	if (color >= 16)
		color = nearest(color_256_to_rgb(color), 0, 16);
	if (color < ncolors)
		return color;
	/* 8 colours: a bright colour is its dark twin in bold; bright black is
	 * dark grey, which reads as white on the console rather than vanishing. */
	if (color == 8)
		return 7;
	*bold = true;
	return color - 8;
}

static int attrs[EL_COUNT];
static bool mono_mode;

static int
ta_to_curses(unsigned ta)
{
	int a = 0;

	if (ta & TA_BOLD)
		a |= A_BOLD;
	if (ta & TA_DIM)
		a |= A_DIM;
	if (ta & TA_UNDERLINE)
		a |= A_UNDERLINE;
	if (ta & TA_REVERSE)
		a |= A_REVERSE;
#ifdef A_ITALIC
	if (ta & TA_ITALIC)
		a |= A_ITALIC;
#endif
	return a;
}

void
color_apply(const struct theme *t, bool mono)
{
	int n = mono ? 0 : COLORS;
	bool b1, b2;

	mono_mode = mono || n < 8;
	int bgdef = t->st[EL_BACKGROUND].bg;

	if (bgdef == COLOR_UNSET)
		bgdef = COLOR_DEFAULT;
	for (int e = 0; e < EL_COUNT; e++) {
		const struct theme_style *s = &t->st[e];

		if (mono_mode) {
			attrs[e] = ta_to_curses(s->attrs | theme_mono_attrs((enum theme_el)e));
			continue;
		}
		int fg = color_degrade(s->fg, n, &b1);
		int bg = color_degrade(s->bg == COLOR_UNSET ? bgdef : s->bg, n, &b2);

		if (e + 1 < COLOR_PAIRS) {
			init_pair((short)(e + 1), (short)fg, (short)bg);
			attrs[e] = (int)COLOR_PAIR(e + 1) | ta_to_curses(s->attrs) | (b1 ? A_BOLD : 0);
		} else {
			attrs[e] = ta_to_curses(s->attrs | theme_mono_attrs((enum theme_el)e));
		}
	}
}

int
color_attr(enum theme_el e)
{
	return e < EL_COUNT ? attrs[e] : 0;
}

bool
color_is_mono(void)
{
	return mono_mode;
}
