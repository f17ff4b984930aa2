/* theme.h - colour themes: semantic keys from an INI file (inih), colours as
 * names, 0..255 or #rrggbb.  Parsing is curses-free (color.c applies). */
#ifndef DS_UI_THEME_H
#define DS_UI_THEME_H
#include <stdbool.h>
#include <stddef.h>

/* The semantic elements every panel draws with. */
enum theme_el {
	EL_BACKGROUND, EL_TEXT, EL_DIM, EL_BORDER, EL_FOCUS, EL_TITLE, EL_HEADER,
	EL_FOOTER, EL_KEY, EL_SELECTED, EL_INPUT, EL_OVERLAY, EL_MARK,
	EL_OK, EL_WARN, EL_FAIL, EL_UNKNOWN,
	EL_READ, EL_WRITE, EL_IDEAL, EL_CEILING, EL_AXIS, EL_KNEE,
	EL_BAR_FILL, EL_BAR_EMPTY, EL_BAR_SPARK,
	EL_HIST_BAR, EL_HIST_MARK,
	EL_COUNT
};

/* Colour value: COLOR_DEFAULT, 0..255, or COLOR_RGB | 0xRRGGBB. */
#define COLOR_DEFAULT (-1)
#define COLOR_UNSET (-2)
#define COLOR_RGB 0x1000000

enum { TA_BOLD = 1, TA_DIM = 2, TA_UNDERLINE = 4, TA_REVERSE = 8, TA_ITALIC = 16 };

struct theme_style {
	bool set;		/* given by the file (or its parents) */
	int fg, bg;		/* COLOR_*; COLOR_UNSET: the background element's */
	unsigned attrs;		/* TA_* */
};

struct theme {
	char name[64];		/* from [theme] name, else the file's base name */
	char source[256];	/* the file it came from ("themes/x.theme (built-in)") */
	struct theme_style st[EL_COUNT];
};

/* "ui.text" etc. */
const char *theme_key_name(enum theme_el e);
/* Attributes an element keeps in monochrome (NO_COLOR, mono terminals). */
unsigned theme_mono_attrs(enum theme_el e);

/* Parse a colour word: 0 / -EINVAL. */
int theme_parse_color(const char *s, int *color);
/* Parse a style value "FG [on BG] [bold|dim|underline|reverse|italic]...". */
int theme_parse_style(const char *s, struct theme_style *st, char *err, size_t errlen);

/* Parse theme text (from a file or a built-in copy).  `source` names it in
 * messages; err gets "source:line: message".  0 or -EINVAL / -errno. */
int theme_parse_string(const char *text, const char *source, struct theme *t,
		       char *err, size_t errlen);
/* Load by NAME or FILE: --theme, $XDG_CONFIG_HOME/diskscope/themes,
 * DS_DATADIR/themes, then the built-in copy.  NULL = "default". */
int theme_load(const char *spec, struct theme *t, char *err, size_t errlen);
/* `diskscope --check-theme FILE`: 0, or -EINVAL with "file:line: message". */
int theme_check_file(const char *file, char *err, size_t errlen);

/* Built-in theme names, in the order `T` cycles through them. */
size_t theme_builtin_count(void);
const char *theme_builtin_name(size_t i, char *buf, size_t n);
#endif
