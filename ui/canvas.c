/* canvas.c - the dot-to-cell encoders and a small dot canvas.
 * Braille: U+2800 + mask, dots down the left column are bits 0,1,2, down the
 * right 3,4,5, bottom row 6 (left) and 7 (right). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "canvas.h"

static const char *const glyph_names[] = { "braille", "block", "ascii" };

int
glyphs_parse(const char *s, enum glyphs *g)
{
	for (size_t i = 0; i < sizeof(glyph_names) / sizeof(glyph_names[0]); i++)
		if (s && strcmp(s, glyph_names[i]) == 0) {
			*g = (enum glyphs)i;
			return 0;
		}
	return -EINVAL;
}

const char *
glyphs_name(enum glyphs g)
{
	return glyph_names[g];
}

enum glyphs
glyphs_auto(const char *codeset, const char *term)
{
	bool utf8 = codeset && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);

	if (!utf8)
		return GL_ASCII;
	/* The console fonts have block elements but no braille. */
	if (term && strcmp(term, "linux") == 0)
		return GL_BLOCK;
	return GL_BRAILLE;
}

void
canvas_dots(enum glyphs g, int *dx, int *dy)
{
	*dx = g == GL_BRAILLE ? 2 : 1;
	*dy = g == GL_BRAILLE ? 4 : 2;
}

unsigned
canvas_bit(enum glyphs g, int x, int y)
{
	if (g == GL_BRAILLE)
		return 1u << (y < 3 ? y + 3 * x : 6 + x);
	return 1u << y;		/* 0 = upper half, 1 = lower half */
}

/* Encode a code point as UTF-8. */
static void
utf8(unsigned cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		out[1] = 0;
	} else if (cp < 0x800) {
		out[0] = (char)(0xC0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3F));
		out[2] = 0;
	} else {
		out[0] = (char)(0xE0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		out[3] = 0;
	}
}

void
canvas_glyph(enum glyphs g, unsigned mask, char *out)
{
	static const unsigned blocks[4] = { ' ', 0x2580, 0x2584, 0x2588 };	/* ▀ ▄ █ */
	static const char ascii[4] = { ' ', '\'', '.', ':' };

	switch (g) {
	case GL_BRAILLE:
		utf8(mask & 0xFF ? 0x2800 + (mask & 0xFF) : ' ', out);
		break;
	case GL_BLOCK:
		utf8(blocks[mask & 3], out);
		break;
	case GL_ASCII:
		out[0] = ascii[mask & 3];
		out[1] = 0;
		break;
	}
}

void
canvas_hbar(enum glyphs g, int cells, double frac, char *out, size_t n)
{
	int steps = g == GL_BRAILLE ? 8 : g == GL_BLOCK ? 2 : 1;
	size_t len = 0;
	char cell[5];

	if (frac < 0 || frac != frac)
		frac = 0;
	if (frac > 1)
		frac = 1;
	int units = (int)(frac * cells * steps + 0.5);

	out[0] = 0;
	for (int i = 0; i < cells && units > 0; i++) {
		int u = units >= steps ? steps : units;

		units -= u;
		if (g == GL_ASCII)
			strcpy(cell, "#");
		else if (u == steps)
			utf8(0x2588, cell);				/* █ */
		else if (g == GL_BLOCK)
			utf8(0x258C, cell);				/* ▌ */
		else
			utf8(0x2590 - u, cell);				/* ▏..▉ = U+258F..U+2589 */
		size_t cl = strlen(cell);

		if (len + cl + 1 > n)
			break;
		memcpy(out + len, cell, cl + 1);
		len += cl;
	}
}

void
canvas_spark(enum glyphs g, double level, char *out)
{
	static const char ascii[] = " _.-=*#";

	if (level < 0 || level != level)
		level = 0;
	if (level > 1)
		level = 1;
	switch (g) {
	case GL_BRAILLE: {
		int k = (int)(level * 8 + 0.5);

		utf8(k == 0 ? ' ' : 0x2580 + k, out);		/* ▁..█ = U+2581..U+2588 */
		break;
	}
	case GL_BLOCK: {
		int k = (int)(level * 2 + 0.5);

		utf8(k == 0 ? ' ' : k == 1 ? 0x2584 : 0x2588, out);
		break;
	}
	case GL_ASCII: {
		int k = (int)(level * 6 + 0.5);

		out[0] = ascii[k];
		out[1] = 0;
		break;
	}
	}
}

int
canvas_init(struct canvas *c, enum glyphs g, int w, int h)
{
	memset(c, 0, sizeof(*c));
	c->g = g;
	c->w = w > 0 ? w : 0;
	c->h = h > 0 ? h : 0;
	canvas_dots(g, &c->dx, &c->dy);
	size_t n = (size_t)c->w * (size_t)c->h;

	c->mask = calloc(n ? n : 1, 1);
	c->layer = calloc(n ? n : 1, 1);
	if (!c->mask || !c->layer) {
		canvas_free(c);
		return -ENOMEM;
	}
	return 0;
}

void
canvas_free(struct canvas *c)
{
	free(c->mask);
	free(c->layer);
	c->mask = c->layer = NULL;
}

void
canvas_clear(struct canvas *c)
{
	size_t n = (size_t)c->w * (size_t)c->h;

	memset(c->mask, 0, n);
	memset(c->layer, 0, n);
}

void
canvas_set(struct canvas *c, int px, int py, int layer)
{
	if (px < 0 || py < 0 || px >= canvas_pw(c) || py >= canvas_ph(c))
		return;
	size_t i = (size_t)(py / c->dy) * (size_t)c->w + (size_t)(px / c->dx);

	c->mask[i] |= (uint8_t)canvas_bit(c->g, px % c->dx, py % c->dy);
	c->layer[i] = (uint8_t)layer;
}

void
canvas_line(struct canvas *c, int x0, int y0, int x1, int y1, int layer)
{
	int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
	int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
	int err = dx + dy;

	for (;;) {
		canvas_set(c, x0, y0, layer);
		if (x0 == x1 && y0 == y1)
			break;
		int e2 = 2 * err;

		if (e2 >= dy) {
			err += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			err += dx;
			y0 += sy;
		}
	}
}

void
canvas_vfill(struct canvas *c, int px, int py_from, int py_to, int layer)
{
	if (py_from > py_to) {
		int t = py_from;

		py_from = py_to;
		py_to = t;
	}
	for (int y = py_from; y <= py_to; y++)
		canvas_set(c, px, y, layer);
}
