/* theme.c - theme files: parsed with inih, semantic keys, inheritance, the
 * search path.  Messages are "file:line: message" (btop ignores unknown
 * keys silently; we name them). */
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "theme.h"
#include "util/embedded.h"
#include "util/util.h"

#ifndef DS_DATADIR
#define DS_DATADIR "/usr/local/share/diskscope"
#endif
#define INHERIT_DEPTH 8

static const struct {
	const char *key;
	unsigned mono;		/* attributes that keep it readable without colour */
} elements[EL_COUNT] = {
	[EL_BACKGROUND] = { "ui.background", 0 },
	[EL_TEXT] = { "ui.text", 0 },
	[EL_DIM] = { "ui.dim", TA_DIM },
	[EL_BORDER] = { "ui.border", 0 },
	[EL_FOCUS] = { "ui.focus", TA_BOLD },
	[EL_TITLE] = { "ui.title", TA_BOLD },
	[EL_HEADER] = { "ui.header", TA_REVERSE },
	[EL_FOOTER] = { "ui.footer", 0 },
	[EL_KEY] = { "ui.key", TA_REVERSE },
	[EL_SELECTED] = { "ui.selected", TA_REVERSE },
	[EL_INPUT] = { "ui.input", TA_UNDERLINE },
	[EL_OVERLAY] = { "ui.overlay", 0 },
	[EL_MARK] = { "ui.mark", TA_BOLD },
	[EL_OK] = { "state.ok", 0 },
	[EL_WARN] = { "state.warn", TA_BOLD },
	[EL_FAIL] = { "state.fail", TA_BOLD | TA_REVERSE },
	[EL_UNKNOWN] = { "state.unknown", TA_DIM },
	[EL_READ] = { "plot.read", 0 },
	[EL_WRITE] = { "plot.write", TA_BOLD },
	[EL_IDEAL] = { "plot.ideal", TA_DIM },
	[EL_CEILING] = { "plot.ceiling", TA_BOLD },
	[EL_AXIS] = { "plot.axis", TA_DIM },
	[EL_KNEE] = { "plot.knee", TA_BOLD | TA_UNDERLINE },
	[EL_BAR_FILL] = { "bar.fill", 0 },
	[EL_BAR_EMPTY] = { "bar.empty", TA_DIM },
	[EL_BAR_SPARK] = { "bar.spark", 0 },
	[EL_HIST_BAR] = { "hist.bar", 0 },
	[EL_HIST_MARK] = { "hist.mark", TA_BOLD },
};

const char *
theme_key_name(enum theme_el e)
{
	return e < EL_COUNT ? elements[e].key : "?";
}

unsigned
theme_mono_attrs(enum theme_el e)
{
	return e < EL_COUNT ? elements[e].mono : 0;
}

static const struct {
	const char *name;
	int color;
} color_names[] = {
	{ "default", COLOR_DEFAULT }, { "black", 0 }, { "red", 1 }, { "green", 2 },
	{ "yellow", 3 }, { "blue", 4 }, { "magenta", 5 }, { "cyan", 6 }, { "white", 7 },
	{ "gray", 8 }, { "grey", 8 }, { "bright-black", 8 }, { "bright-red", 9 },
	{ "bright-green", 10 }, { "bright-yellow", 11 }, { "bright-blue", 12 },
	{ "bright-magenta", 13 }, { "bright-cyan", 14 }, { "bright-white", 15 },
};

int
theme_parse_color(const char *s, int *color)
{
	char *end;

	for (size_t i = 0; i < sizeof(color_names) / sizeof(color_names[0]); i++)
		if (strcasecmp(s, color_names[i].name) == 0) {
			*color = color_names[i].color;
			return 0;
		}
	if (s[0] == '#') {
		if (strlen(s) != 7 || strspn(s + 1, "0123456789abcdefABCDEF") != 6)
			return -EINVAL;
		*color = COLOR_RGB | (int)strtol(s + 1, NULL, 16);
		return 0;
	}
	if (s[0] >= '0' && s[0] <= '9') {
		long v = strtol(s, &end, 10);

		if (*end || v > 255)
			return -EINVAL;
		*color = (int)v;
		return 0;
	}
	return -EINVAL;
}

static const struct {
	const char *name;
	unsigned attr;
} attr_names[] = {
	{ "bold", TA_BOLD }, { "dim", TA_DIM }, { "underline", TA_UNDERLINE },
	{ "reverse", TA_REVERSE }, { "italic", TA_ITALIC }, { "normal", 0 },
};

int
theme_parse_style(const char *s, struct theme_style *st, char *err, size_t errlen)
{
	char buf[256], *save = NULL;
	int ncolor = 0;
	bool want_bg = false;

	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "value too long");
		return -EINVAL;
	}
	strcpy(buf, s);
	st->set = true;
	st->fg = COLOR_DEFAULT;
	st->bg = COLOR_UNSET;
	st->attrs = 0;
	for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		size_t i;
		int c;

		if (strcasecmp(w, "on") == 0) {
			if (want_bg || ncolor > 1) {
				snprintf(err, errlen, "'on' must be followed by one background colour");
				return -EINVAL;
			}
			want_bg = true;
			ncolor = 1;
			continue;
		}
		for (i = 0; i < sizeof(attr_names) / sizeof(attr_names[0]); i++)
			if (strcasecmp(w, attr_names[i].name) == 0)
				break;
		if (i < sizeof(attr_names) / sizeof(attr_names[0])) {
			if (want_bg) {
				snprintf(err, errlen, "'on' must be followed by a colour, not '%s'", w);
				return -EINVAL;
			}
			st->attrs |= attr_names[i].attr;
			continue;
		}
		if (theme_parse_color(w, &c) < 0) {
			snprintf(err, errlen, "bad colour '%s' (a name, 0..255 or #rrggbb)", w);
			return -EINVAL;
		}
		if (want_bg) {
			st->bg = c;
			want_bg = false;
			ncolor = 2;
		} else if (ncolor == 0) {
			st->fg = c;
			ncolor = 1;
		} else {
			snprintf(err, errlen, "two foreground colours ('%s'); write FG on BG", w);
			return -EINVAL;
		}
	}
	if (want_bg) {
		snprintf(err, errlen, "'on' without a background colour");
		return -EINVAL;
	}
	return 0;
}

struct parse_ctx {
	struct theme *t;
	const char *source;
	char msg[320];		/* the first error */
	char inherit[64];
	bool failed;
	/* the line reader */
	const char *pos;
	int line;
	bool too_long;
};

/* The themes being read, outermost first: a repeated source is a loop,
 * reported with the whole chain. */
struct chain {
	int n;
	char name[INHERIT_DEPTH + 2][64];
	char source[INHERIT_DEPTH + 2][PATH_MAX + 16];
};

static int load_depth(const char *spec, struct theme *t, struct chain *ch, char *err,
		      size_t errlen);

static int
fail(struct parse_ctx *c, const char *fmt, const char *a, const char *b)
{
	if (!c->failed) {
		snprintf(c->msg, sizeof(c->msg), fmt, a, b);
		c->failed = true;
	}
	return 0;	/* inih: error, report the line */
}

static int
on_key(void *user, const char *section, const char *name, const char *value)
{
	struct parse_ctx *c = user;
	char key[128], msg[160];

	if (strcmp(section, "theme") == 0 || (!*section && strncmp(name, "theme.", 6) == 0)) {
		const char *k = *section ? name : name + 6;

		if (strcmp(k, "name") == 0) {
			snprintf(c->t->name, sizeof(c->t->name), "%s", value);
			return 1;
		}
		if (strcmp(k, "inherit") == 0) {
			if (!*value || strchr(value, '/'))
				return fail(c, "theme.inherit: '%s' is not a theme name%s", value, "");
			snprintf(c->inherit, sizeof(c->inherit), "%s", value);
			return 1;
		}
		return fail(c, "unknown key 'theme.%s'%s", k, "");
	}
	if (*section)
		snprintf(key, sizeof(key), "%s.%s", section, name);
	else
		snprintf(key, sizeof(key), "%s", name);
	for (int e = 0; e < EL_COUNT; e++)
		if (strcmp(key, elements[e].key) == 0) {
			if (theme_parse_style(value, &c->t->st[e], msg, sizeof(msg)) < 0)
				return fail(c, "%s: %s", key, msg);
			return 1;
		}
	return fail(c, "unknown key '%s'%s", key, "");
}

/* One line per call for inih; comment lines are handed over empty, so a
 * long comment is never split into a setting, and a long setting is an
 * error rather than two halves. */
static char *
line_reader(char *str, int num, void *stream)
{
	struct parse_ctx *c = stream;
	if (!*c->pos || c->too_long)
		return NULL;
	const char *nl = strchr(c->pos, '\n');
	size_t len = nl ? (size_t)(nl - c->pos) + 1 : strlen(c->pos);
	const char *start = c->pos, *s = start;
	c->line++;
	c->pos += len;
	while (s < c->pos && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	if (s < c->pos && (*s == ';' || *s == '#')) {
		snprintf(str, (size_t)num, "\n");
		return str;
	}
	if (len >= (size_t)num) {
		char what[32];
		snprintf(what, sizeof(what), "%d", num - 2);
		fail(c, "line longer than %s characters%s", what, "");
		c->too_long = true;
		return NULL;
	}
	memcpy(str, start, len);
	str[len] = '\0';
	return str;
}

static void
chain_text(const struct chain *ch, int from, const char *last, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = from; i < ch->n && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s -> ", ch->name[i]);
	if (k < n)
		snprintf(buf + k, n - k, "%s", last);
}

static int
parse_depth(const char *text, const char *source, const char *name, struct theme *t,
	    struct chain *ch, char *err, size_t errlen)
{
	struct parse_ctx c = { .t = t, .source = source, .pos = text };
	struct theme own;
	int line;

	for (int i = 0; i < ch->n; i++)
		if (strcmp(ch->source[i], source) == 0) {
			char loop[512];

			chain_text(ch, i, name, loop, sizeof(loop));
			snprintf(err, errlen, "%s: inherit loop: %s", ch->source[0], loop);
			return -ELOOP;
		}
	if (ch->n > INHERIT_DEPTH) {
		char deep[512];

		chain_text(ch, 0, name, deep, sizeof(deep));
		snprintf(err, errlen, "%s: theme.inherit nested deeper than %d: %s", ch->source[0],
			 INHERIT_DEPTH, deep);
		return -ELOOP;
	}
	snprintf(ch->name[ch->n], sizeof(ch->name[0]), "%s", name);
	snprintf(ch->source[ch->n], sizeof(ch->source[0]), "%s", source);
	ch->n++;
	memset(&own, 0, sizeof(own));
	c.t = &own;
	line = ini_parse_stream(line_reader, &c, on_key, &c);
	if (line != 0 || c.failed) {
		snprintf(err, errlen, "%s:%d: %s", source, line <= 0 ? c.line : line,
			 c.failed ? c.msg : "syntax error (expected [section] or key = value)");
		ch->n--;
		return -EINVAL;
	}
	memset(t, 0, sizeof(*t));
	if (c.inherit[0]) {
		char perr[384];
		int rc = load_depth(c.inherit, t, ch, perr, sizeof(perr));

		if (rc == -ELOOP) {
			snprintf(err, errlen, "%s", perr);
			ch->n--;
			return rc;
		}
		if (rc < 0) {
			snprintf(err, errlen, "%s: theme.inherit = %s: %s", source, c.inherit, perr);
			ch->n--;
			return rc;
		}
	}
	ch->n--;
	for (int e = 0; e < EL_COUNT; e++)
		if (own.st[e].set)
			t->st[e] = own.st[e];
	/* The name is the file's own, never a parent's. */
	snprintf(t->name, sizeof(t->name), "%s", own.name);
	snprintf(t->source, sizeof(t->source), "%s", source);
	return 0;
}

/* What no theme in the chain set: the terminal's own colours. */
static void
unset_default(struct theme *t)
{
	for (int e = 0; e < EL_COUNT; e++)
		if (!t->st[e].set) {
			t->st[e].fg = COLOR_DEFAULT;
			t->st[e].bg = COLOR_UNSET;
			t->st[e].attrs = 0;
		}
}

int
theme_parse_string(const char *text, const char *source, struct theme *t, char *err, size_t errlen)
{
	struct chain *ch = calloc(1, sizeof(*ch));
	int rc = ch ? parse_depth(text, source, source, t, ch, err, errlen) : -ENOMEM;

	free(ch);
	if (rc == 0)
		unset_default(t);
	return rc;
}

static int
parse_file(const char *path, const char *name, struct theme *t, struct chain *ch, char *err,
	   size_t errlen)
{
	char *text = NULL;
	int rc = input_read(path, 1 << 20, &text, NULL, err, errlen);

	if (rc < 0)
		return rc;
	rc = parse_depth(text, path, name, t, ch, err, errlen);
	free(text);
	if (rc == 0 && !t->name[0]) {
		const char *b = strrchr(path, '/');

		snprintf(t->name, sizeof(t->name), "%.*s", (int)strcspn(b ? b + 1 : path, "."),
			 b ? b + 1 : path);
	}
	return rc;
}

static bool
is_file_spec(const char *spec)
{
	size_t n = strlen(spec);

	return strchr(spec, '/') || (n > 6 && strcmp(spec + n - 6, ".theme") == 0);
}

static int
load_depth(const char *spec, struct theme *t, struct chain *ch, char *err, size_t errlen)
{
	char path[PATH_MAX];
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (!spec || !*spec)
		spec = "default";
	if (is_file_spec(spec))
		return parse_file(spec, spec, t, ch, err, errlen);
	if (xdg && *xdg)
		snprintf(path, sizeof(path), "%s/diskscope/themes/%s.theme", xdg, spec);
	else if (home && *home)
		snprintf(path, sizeof(path), "%s/.config/diskscope/themes/%s.theme", home, spec);
	else
		path[0] = 0;
	if (path[0] && access(path, R_OK) == 0)
		return parse_file(path, spec, t, ch, err, errlen);
	snprintf(path, sizeof(path), "%s/themes/%s.theme", DS_DATADIR, spec);
	if (access(path, R_OK) == 0)
		return parse_file(path, spec, t, ch, err, errlen);
	snprintf(path, sizeof(path), "themes/%s.theme", spec);
	const struct embedded_file *ef = embedded_find(path);

	if (!ef) {
		snprintf(err, errlen, "no theme '%s' (looked in $XDG_CONFIG_HOME/diskscope/themes, "
			 DS_DATADIR "/themes and the built-in themes)", spec);
		return -ENOENT;
	}
	char src[PATH_MAX + 16];

	snprintf(src, sizeof(src), "%s (built-in)", path);
	int rc = parse_depth(ef->data, src, spec, t, ch, err, errlen);

	if (rc == 0 && !t->name[0])
		snprintf(t->name, sizeof(t->name), "%s", spec);
	return rc;
}

int
theme_load(const char *spec, struct theme *t, char *err, size_t errlen)
{
	struct chain *ch = calloc(1, sizeof(*ch));
	int rc = ch ? load_depth(spec, t, ch, err, errlen) : -ENOMEM;

	free(ch);
	if (rc == 0)
		unset_default(t);
	return rc;
}

int
theme_check_file(const char *file, char *err, size_t errlen)
{
	struct theme t;
	struct chain *ch = calloc(1, sizeof(*ch));
	int rc = ch ? parse_file(file, file, &t, ch, err, errlen) : -ENOMEM;

	free(ch);
	return rc;
}

size_t
theme_builtin_count(void)
{
	size_t n = 0;

	for (const struct embedded_file *f = embedded_files; f->path; f++)
		if (strncmp(f->path, "themes/", 7) == 0)
			n++;
	return n;
}

const char *
theme_builtin_name(size_t i, char *buf, size_t n)
{
	/* "default" first, then the rest in table (sorted) order. */
	const struct embedded_file *f;
	size_t k = 0;

	if (i == 0 && embedded_find("themes/default.theme")) {
		snprintf(buf, n, "default");
		return buf;
	}
	if (embedded_find("themes/default.theme"))
		i--;
	for (f = embedded_files; f->path; f++) {
		if (strncmp(f->path, "themes/", 7) != 0 || strcmp(f->path, "themes/default.theme") == 0)
			continue;
		if (k++ == i) {
			snprintf(buf, n, "%.*s", (int)strcspn(f->path + 7, "."), f->path + 7);
			return buf;
		}
	}
	buf[0] = 0;
	return NULL;
}
