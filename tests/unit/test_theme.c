/* test_theme.c - theme files: colours and styles, file:line messages, unknown
 * keys named, inheritance, the search path, every shipped theme complete; and
 * colour degradation 256 -> 16 -> 8 -> monochrome. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "color.h"
#include "theme.h"

static void
test_colors(void **state)
{
	int c;

	assert_int_equal(theme_parse_color("default", &c), 0);
	assert_int_equal(c, COLOR_DEFAULT);
	assert_int_equal(theme_parse_color("Red", &c), 0);
	assert_int_equal(c, 1);
	assert_int_equal(theme_parse_color("bright-white", &c), 0);
	assert_int_equal(c, 15);
	assert_int_equal(theme_parse_color("0", &c), 0);
	assert_int_equal(c, 0);
	assert_int_equal(theme_parse_color("255", &c), 0);
	assert_int_equal(c, 255);
	assert_int_equal(theme_parse_color("#5fafff", &c), 0);
	assert_int_equal(c, COLOR_RGB | 0x5fafff);
	static const char *const bad[] = { "256", "-1", "#12345", "#1234567", "#gg0000", "purpel", "", "12a" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(theme_parse_color(bad[i], &c), -EINVAL);
}

static void
test_styles(void **state)
{
	struct theme_style st;
	char err[128];

	assert_int_equal(theme_parse_style("231 on 24 bold", &st, err, sizeof(err)), 0);
	assert_int_equal(st.fg, 231);
	assert_int_equal(st.bg, 24);
	assert_int_equal(st.attrs, TA_BOLD);
	assert_int_equal(theme_parse_style("#ff0000 underline reverse", &st, err, sizeof(err)), 0);
	assert_int_equal(st.fg, COLOR_RGB | 0xff0000);
	assert_int_equal(st.bg, COLOR_UNSET);
	assert_int_equal(st.attrs, TA_UNDERLINE | TA_REVERSE);
	assert_int_equal(theme_parse_style("bold", &st, err, sizeof(err)), 0);
	assert_int_equal(st.fg, COLOR_DEFAULT);
	assert_true(theme_parse_style("red blue", &st, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "blue"));
	assert_true(theme_parse_style("red on", &st, err, sizeof(err)) < 0);
	assert_true(theme_parse_style("red on bold", &st, err, sizeof(err)) < 0);
	assert_true(theme_parse_style("red blink", &st, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "blink"));
}

static void
test_parse_and_messages(void **state)
{
	struct theme t;
	char err[512];

	assert_int_equal(theme_parse_string("[theme]\nname = x\n[ui]\ntext = 252\n[state]\nfail = red bold\n",
					    "x.theme", &t, err, sizeof(err)), 0);
	assert_string_equal(t.name, "x");
	assert_int_equal(t.st[EL_TEXT].fg, 252);
	assert_int_equal(t.st[EL_FAIL].fg, 1);
	assert_true(t.st[EL_FAIL].attrs & TA_BOLD);
	assert_false(t.st[EL_READ].set);

	assert_int_equal(theme_parse_string("[ui]\ntext = 252\nbogus = red\n", "a.theme", &t, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "a.theme:3: unknown key 'ui.bogus'");
	assert_int_equal(theme_parse_string("[plot]\n\nread = purpel\n", "b.theme", &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "b.theme:3: plot.read: bad colour 'purpel'"));
	assert_int_equal(theme_parse_string("[ui]\ntext 252\n", "c.theme", &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "c.theme:2: "));
	assert_int_equal(theme_parse_string("[colours]\nread = red\n", "d.theme", &t, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "d.theme:2: unknown key 'colours.read'");
	/* The first error is the one reported. */
	assert_int_equal(theme_parse_string("[ui]\nx = 1\ny = 2\n", "e.theme", &t, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "e.theme:2: unknown key 'ui.x'");
}

static void
test_inherit(void **state)
{
	struct theme t, mono;
	char err[512];

	assert_int_equal(theme_load("mono", &mono, err, sizeof(err)), 0);
	assert_int_equal(theme_parse_string("[theme]\ninherit = mono\n[ui]\ntext = red\n", "i.theme", &t, err,
					    sizeof(err)), 0);
	assert_int_equal(t.st[EL_TEXT].fg, 1);
	/* Everything else comes from the parent. */
	assert_int_equal(t.st[EL_FAIL].attrs, mono.st[EL_FAIL].attrs);
	assert_int_equal(t.st[EL_SELECTED].attrs, mono.st[EL_SELECTED].attrs);
	assert_true(t.st[EL_FAIL].set);
	assert_int_equal(theme_parse_string("[theme]\ninherit = nosuch\n", "j.theme", &t, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "j.theme"));
	assert_non_null(strstr(err, "nosuch"));
}

static void
test_builtin_complete(void **state)
{
	static const char *const need[] = { "default", "light", "high-contrast", "mono", "tty" };
	char name[64], err[512];
	struct theme t;

	assert_true(theme_builtin_count() >= 5);
	assert_string_equal(theme_builtin_name(0, name, sizeof(name)), "default");
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		bool found = false;

		for (size_t k = 0; k < theme_builtin_count(); k++)
			found |= strcmp(theme_builtin_name(k, name, sizeof(name)), need[i]) == 0;
		assert_true(found);
	}
	/* Every shipped theme sets every key, and tty uses only the 8 colours. */
	for (size_t k = 0; k < theme_builtin_count(); k++) {
		theme_builtin_name(k, name, sizeof(name));
		if (theme_load(name, &t, err, sizeof(err)) != 0)
			fail_msg("%s: %s", name, err);
		for (int e = 0; e < EL_COUNT; e++)
			if (!t.st[e].set)
				fail_msg("theme %s lacks %s", name, theme_key_name((enum theme_el)e));
		if (strcmp(name, "tty") == 0 || strcmp(name, "mono") == 0)
			for (int e = 0; e < EL_COUNT; e++) {
				int lim = strcmp(name, "mono") == 0 ? 0 : 8;

				if (t.st[e].fg >= lim || t.st[e].bg >= lim)
					fail_msg("%s: %s uses colour beyond %d", name,
						 theme_key_name((enum theme_el)e), lim);
			}
	}
}

static void
test_search_path_and_check(void **state)
{
	char dir[] = "/tmp/ds-theme-XXXXXX", path[256], err[512];
	struct theme t;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/diskscope", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/diskscope/themes", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/diskscope/themes/mine.theme", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("[theme]\ninherit = default\n[plot]\nread = 46\n", f);
	fclose(f);
	setenv("XDG_CONFIG_HOME", dir, 1);
	assert_int_equal(theme_load("mine", &t, err, sizeof(err)), 0);
	assert_string_equal(t.name, "mine");
	assert_int_equal(t.st[EL_READ].fg, 46);
	assert_true(t.st[EL_TITLE].set);		/* from default */
	/* A user theme of a built-in name wins over the built-in copy. */
	snprintf(path, sizeof(path), "%s/diskscope/themes/tty.theme", dir);
	f = fopen(path, "w");
	fputs("[theme]\nname = my tty\n[ui]\ntext = green\n", f);
	fclose(f);
	assert_int_equal(theme_load("tty", &t, err, sizeof(err)), 0);
	assert_string_equal(t.name, "my tty");
	/* A path is a file; --check-theme reports file:line. */
	snprintf(path, sizeof(path), "%s/bad.theme", dir);
	f = fopen(path, "w");
	fputs("# comment\n[ui]\ntext = 252\ntitle = 75 on\n", f);
	fclose(f);
	assert_int_equal(theme_check_file(path, err, sizeof(err)), -EINVAL);
	char want[300];

	snprintf(want, sizeof(want), "%s:4: ui.title: ", path);
	assert_memory_equal(err, want, strlen(want));
	assert_int_equal(theme_load(path, &t, err, sizeof(err)), -EINVAL);
	snprintf(path, sizeof(path), "%s/none.theme", dir);
	assert_int_equal(theme_check_file(path, err, sizeof(err)), -ENOENT);
	assert_int_equal(theme_load("no-such-theme", &t, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no-such-theme"));
	unsetenv("XDG_CONFIG_HOME");
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}


/* Hostile theme files (issue 10): a comment past inih's 200-character line
 * is one comment, not a comment and a setting; an inherit loop names the
 * whole chain; a directory or a FIFO is refused at once with what it is. */
static void
test_hostile_files(void **state)
{
	char dir[] = "/tmp/ds-theme-hostile-XXXXXX", path[256], err[512], text[1024];
	struct theme t;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	/* 250 characters of comment, then what looks like a setting */
	snprintf(text, sizeof(text), "; %0250d ui.text = red\n[ui]\ntext = green\n", 0);
	assert_int_equal(theme_parse_string(text, "c.theme", &t, err, sizeof(err)), 0);
	assert_int_equal(t.st[EL_TEXT].fg, 2);
	snprintf(text, sizeof(text), "[ui]\n# %0300d\ntext = blue\n", 0);
	assert_int_equal(theme_parse_string(text, "c.theme", &t, err, sizeof(err)), 0);
	assert_int_equal(t.st[EL_TEXT].fg, 4);
	/* a setting that long is an error on its line, not two halves */
	snprintf(text, sizeof(text), "[ui]\ntext = red %0300d\n", 0);
	assert_int_equal(theme_parse_string(text, "l.theme", &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "l.theme:2: line longer than"));

	setenv("XDG_CONFIG_HOME", dir, 1);
	snprintf(path, sizeof(path), "%s/diskscope", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/diskscope/themes", dir);
	mkdir(path, 0700);
	static const char *const loop[][2] = { { "a", "b" }, { "b", "c" }, { "c", "a" } };
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/diskscope/themes/%s.theme", dir, loop[i][0]);
		f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "[theme]\ninherit = %s\n", loop[i][1]);
		fclose(f);
	}
	assert_int_equal(theme_load("a", &t, err, sizeof(err)), -ELOOP);
	printf("%s\n", err);
	assert_non_null(strstr(err, "inherit loop: a -> b -> c -> a"));
	/* a theme that inherits itself */
	snprintf(path, sizeof(path), "%s/diskscope/themes/self.theme", dir);
	f = fopen(path, "w");
	fputs("[theme]\ninherit = self\n", f);
	fclose(f);
	assert_int_equal(theme_check_file(path, err, sizeof(err)), -ELOOP);
	assert_non_null(strstr(err, "inherit loop: "));
	assert_non_null(strstr(err, " -> self"));
	unsetenv("XDG_CONFIG_HOME");

	snprintf(path, sizeof(path), "%s/d.theme", dir);
	mkdir(path, 0700);
	assert_int_equal(theme_check_file(path, err, sizeof(err)), -EISDIR);
	assert_non_null(strstr(err, "d.theme: is a directory"));
	assert_int_equal(theme_load(path, &t, err, sizeof(err)), -EISDIR);
	snprintf(path, sizeof(path), "%s/f.theme", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	/* no writer: a blocking open() would wait forever */
	assert_int_equal(theme_check_file(path, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "f.theme: not a regular file (fifo)"));

	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void
test_degrade(void **state)
{
	bool bold;

	assert_int_equal(color_degrade(COLOR_DEFAULT, 256, &bold), COLOR_DEFAULT);
	assert_int_equal(color_degrade(196, 256, &bold), 196);
	assert_int_equal(color_degrade(196, 16, &bold), 9);	/* #ff0000 = bright red */
	assert_int_equal(color_degrade(196, 8, &bold), 1);
	assert_true(bold);
	assert_int_equal(color_degrade(9, 8, &bold), 1);
	assert_true(bold);
	assert_int_equal(color_degrade(2, 8, &bold), 2);
	assert_false(bold);
	assert_int_equal(color_degrade(8, 8, &bold), 7);	/* dark grey stays visible */
	assert_int_equal(color_degrade(COLOR_RGB | 0xff0000, 256, &bold), 196);
	assert_int_equal(color_degrade(COLOR_RGB | 0x000000, 256, &bold), 16);
	assert_int_equal(color_degrade(COLOR_RGB | 0x808080, 256, &bold), 244);
	assert_int_equal(color_degrade(COLOR_RGB | 0x00ff00, 16, &bold), 10);
	assert_int_equal(color_degrade(252, 16, &bold), 7);	/* light grey text */
	assert_int_equal(color_degrade(24, 0, &bold), COLOR_DEFAULT);	/* monochrome */
	assert_int_equal(color_degrade(24, 2, &bold), COLOR_DEFAULT);
	/* Whatever goes in fits the terminal. */
	static const int counts[] = { 8, 16, 88, 256 };

	for (size_t k = 0; k < 4; k++)
		for (int c = 0; c < 256; c++) {
			int r = color_degrade(c, counts[k], &bold);

			assert_true(r >= 0 && r < counts[k]);
			r = color_degrade(COLOR_RGB | (c * 0x010305 & 0xffffff), counts[k], &bold);
			assert_true(r >= 0 && r < counts[k]);
		}
	assert_int_equal(color_rgb_to_256(0x5fafff), 75);
	assert_int_equal(color_256_to_rgb(75), 0x5fafff);
	assert_int_equal(color_256_to_rgb(232), 0x080808);
}

static void
test_mono_attrs(void **state)
{
	/* Without colour, states and selection must still read differently. */
	assert_true(theme_mono_attrs(EL_SELECTED) & TA_REVERSE);
	assert_true(theme_mono_attrs(EL_FAIL) & (TA_REVERSE | TA_BOLD));
	assert_true(theme_mono_attrs(EL_WARN) & TA_BOLD);
	assert_int_equal(theme_mono_attrs(EL_TEXT), 0);
	assert_string_equal(theme_key_name(EL_CEILING), "plot.ceiling");
	assert_string_equal(theme_key_name(EL_HIST_MARK), "hist.mark");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_colors),
		cmocka_unit_test(test_styles),
		cmocka_unit_test(test_parse_and_messages),
		cmocka_unit_test(test_inherit),
		cmocka_unit_test(test_builtin_complete),
		cmocka_unit_test(test_search_path_and_check),
		cmocka_unit_test(test_hostile_files),
		cmocka_unit_test(test_degrade),
		cmocka_unit_test(test_mono_attrs),
	};

	/* Only the built-in copies and what a test writes: no user's themes. */
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", "/nonexistent", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
