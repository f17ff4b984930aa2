/* draw.c - clipped UTF-8 text, frames and number formats for every panel. */
#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include "internal.h"

int
attr_of(enum theme_el e)
{
	return color_attr(e);
}

/* Bytes of s that fit in w columns; *cols gets the columns they take. */
static size_t
fit(const char *s, int w, int *cols)
{
	mbstate_t st;
	size_t off = 0, len = strlen(s);
	int used = 0;

	memset(&st, 0, sizeof(st));
	while (off < len) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s + off, len - off, &st);
		int cw;

		if (k == (size_t)-1 || k == (size_t)-2) {
			/* Not valid in this locale: count the byte as one column. */
			memset(&st, 0, sizeof(st));
			k = 1;
			cw = 1;
		} else {
			if (k == 0)
				break;
			cw = wcwidth(wc);
			if (cw < 0)
				cw = 1;
		}
		if (used + cw > w)
			break;
		used += cw;
		off += k;
	}
	*cols = used;
	return off;
}

int
text_width(const char *s)
{
	int cols;

	fit(s, 1 << 20, &cols);
	return cols;
}

int
draw_text(int y, int x, int w, int attr, const char *s)
{
	int cols;

	if (w <= 0 || y < 0 || x < 0)
		return 0;
	size_t n = fit(s, w, &cols);

	attrset(attr);
	mvaddnstr(y, x, s, (int)n);
	attrset(A_NORMAL);
	return cols;
}

int
draw_textf(int y, int x, int w, int attr, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return draw_text(y, x, w, attr, buf);
}

void
draw_fill(int y, int x, int w, int attr)
{
	if (w <= 0)
		return;
	attrset(attr);
	mvhline(y, x, ' ', w);
	attrset(A_NORMAL);
}

void
draw_box(struct ui *u, const struct rect *r, const char *title, bool focus)
{
	int a = attr_of(focus ? EL_FOCUS : EL_BORDER);

	if (r->w < 2 || r->h < 2)
		return;
	attrset(a);
	if (u->gl == GL_ASCII) {
		/* Plain characters: a non-UTF-8 terminal may lack line drawing. */
		mvhline(r->y, r->x, '-', r->w);
		mvhline(r->y + r->h - 1, r->x, '-', r->w);
		mvvline(r->y, r->x, '|', r->h);
		mvvline(r->y, r->x + r->w - 1, '|', r->h);
		mvaddch(r->y, r->x, '+');
		mvaddch(r->y, r->x + r->w - 1, '+');
		mvaddch(r->y + r->h - 1, r->x, '+');
		mvaddch(r->y + r->h - 1, r->x + r->w - 1, '+');
	} else {
		mvhline(r->y, r->x + 1, ACS_HLINE, r->w - 2);
		mvhline(r->y + r->h - 1, r->x + 1, ACS_HLINE, r->w - 2);
		mvvline(r->y + 1, r->x, ACS_VLINE, r->h - 2);
		mvvline(r->y + 1, r->x + r->w - 1, ACS_VLINE, r->h - 2);
		mvaddch(r->y, r->x, ACS_ULCORNER);
		mvaddch(r->y, r->x + r->w - 1, ACS_URCORNER);
		mvaddch(r->y + r->h - 1, r->x, ACS_LLCORNER);
		mvaddch(r->y + r->h - 1, r->x + r->w - 1, ACS_LRCORNER);
	}
	attrset(A_NORMAL);
	if (title && r->w > 6) {
		char t[128];

		snprintf(t, sizeof(t), " %s ", title);
		draw_text(r->y, r->x + 2, r->w - 4, attr_of(focus ? EL_FOCUS : EL_TITLE), t);
	}
}

void
draw_canvas(struct ui *u, const struct canvas *c, int y, int x, const int *layer_el)
{
	char g[8];

	for (int row = 0; row < c->h; row++)
		for (int col = 0; col < c->w; col++) {
			size_t i = (size_t)row * (size_t)c->w + (size_t)col;

			if (!c->mask[i])
				continue;
			canvas_glyph(c->g, c->mask[i], g);
			attrset(attr_of((enum theme_el)layer_el[c->layer[i]]));
			mvaddstr(y + row, x + col, g);
		}
	attrset(A_NORMAL);
}

const char *
sym_warn(const struct ui *u)
{
	return u->utf8 ? "\u26a0" : "!";
}

const char *
sym_mark(const struct ui *u)
{
	return u->utf8 ? "\u25cf" : "*";
}

const char *
sym_check(const struct ui *u, bool on)
{
	return on ? "[x]" : "[ ]";
}

void
fmt_bytes(char *b, size_t n, double v)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB", "PB" };
	int i = 0;

	while (v >= 1000 && i < 5) {
		v /= 1000;
		i++;
	}
	snprintf(b, n, i == 0 ? "%.0f %s" : v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s",
		 v, unit[i]);
}

void
fmt_rate(char *b, size_t n, double mbps)
{
	if (!isfinite(mbps))
		snprintf(b, n, "-");
	else if (mbps >= 10000)
		snprintf(b, n, "%.1f GB/s", mbps / 1000);
	else if (mbps >= 100)
		snprintf(b, n, "%.0f MB/s", mbps);
	else
		snprintf(b, n, "%.1f MB/s", mbps);
}

void
fmt_known_us(char *b, size_t n, const struct known_dbl *us)
{
	if (us->known)
		fmt_us(b, n, us->v);
	else
		snprintf(b, n, "-");
}

void
fmt_us(char *b, size_t n, double us)
{
	if (!isfinite(us) || us < 0)
		snprintf(b, n, "-");
	else if (us < 1000)
		snprintf(b, n, "%.0f us", us);
	else if (us < 1e6)
		snprintf(b, n, "%.1f ms", us / 1000);
	else
		snprintf(b, n, "%.2f s", us / 1e6);
}

void
fmt_secs(char *b, size_t n, double s)
{
	if (!isfinite(s) || s < 0)
		snprintf(b, n, "-");
	else if (s < 60)
		snprintf(b, n, "%.1fs", s);
	else if (s < 3600)
		snprintf(b, n, "%dm%02ds", (int)s / 60, (int)s % 60);
	else
		snprintf(b, n, "%dh%02dm", (int)s / 3600, (int)s / 60 % 60);
}
