/* canvas.h - dots to terminal cells: braille (2x4 dots a cell), block
 * elements (1x2, for the Linux console) or ASCII (1x2).  Pure: no curses. */
#ifndef DS_UI_CANVAS_H
#define DS_UI_CANVAS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum glyphs { GL_BRAILLE, GL_BLOCK, GL_ASCII };

/* "braille" | "block" | "ascii" -> 0 and *g, or -EINVAL. */
int glyphs_parse(const char *s, enum glyphs *g);
const char *glyphs_name(enum glyphs g);
/* Automatic choice: UTF-8 locale -> braille (block on TERM=linux), else ASCII. */
enum glyphs glyphs_auto(const char *codeset, const char *term);

/* Dots per cell. */
void canvas_dots(enum glyphs g, int *dx, int *dy);
/* The bit that dot (x, y) of a cell sets (x < dx, y < dy, y down). */
unsigned canvas_bit(enum glyphs g, int x, int y);
/* The glyph of a cell with those bits set, as UTF-8 in out (>= 5 bytes);
 * an empty cell is a space. */
void canvas_glyph(enum glyphs g, unsigned mask, char *out);

/* Horizontal bar of `cells` cells filled to frac (0..1): eighth blocks in
 * braille mode, halves in block mode, '#' in ASCII.  out >= cells*3+1. */
void canvas_hbar(enum glyphs g, int cells, double frac, char *out, size_t n);
/* One sparkline cell for level 0..1 (8 levels; fewer in block/ascii). */
void canvas_spark(enum glyphs g, double level, char *out);

#define CANVAS_LAYERS 8
struct canvas {
	enum glyphs g;
	int w, h;		/* cells */
	int dx, dy;		/* dots per cell */
	uint8_t *mask;		/* w*h */
	uint8_t *layer;		/* w*h: the last layer that drew in the cell */
};

int canvas_init(struct canvas *c, enum glyphs g, int w, int h);	/* 0 / -ENOMEM */
void canvas_free(struct canvas *c);
void canvas_clear(struct canvas *c);
static inline int canvas_pw(const struct canvas *c) { return c->w * c->dx; }
static inline int canvas_ph(const struct canvas *c) { return c->h * c->dy; }
/* Set dot (px, py), origin top left; off-canvas dots are ignored. */
void canvas_set(struct canvas *c, int px, int py, int layer);
void canvas_line(struct canvas *c, int x0, int y0, int x1, int y1, int layer);
/* Fill from dot py down to the bottom of the canvas (area plots). */
void canvas_vfill(struct canvas *c, int px, int py_from, int py_to, int layer);
#endif
