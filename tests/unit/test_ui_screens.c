/* test_ui_screens.c - the whole dashboard on a fake bench (test_ui_fake.h:
 * a virtual clock that advances one sample per frame), drawn by curses into
 * /dev/null and read back from the screen: every view at sizes from the
 * minimum to 300x100, the picker starting a run, the saturation plot filling
 * to its knee, the result view, a saved run and a comparison. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include "internal.h"
#include "test_ui_fake.h"

static SCREEN *scr;
static FILE *devnull_out, *devnull_in;

static int
setup(void **state)
{
	setlocale(LC_ALL, "C.UTF-8");
	setenv("TERM", "xterm-256color", 1);
	devnull_out = fopen("/dev/null", "w");
	devnull_in = fopen("/dev/null", "r");
	scr = newterm("xterm-256color", devnull_out, devnull_in);
	if (!scr)
		return -1;
	set_term(scr);
	start_color();
	use_default_colors();
	return 0;
}

static int
teardown(void **state)
{
	endwin();
	delscreen(scr);
	fclose(devnull_out);
	fclose(devnull_in);
	return 0;
}

static void
resize(struct ui *u, int cols, int rows)
{
	resizeterm(rows, cols);
	u->cols = cols;
	u->rows = rows;
}

/* Does the screen show `s` anywhere? */
static bool
shows(const wchar_t *s)
{
	wchar_t line[512];
	int rows, cols;

	getmaxyx(stdscr, rows, cols);
	for (int y = 0; y < rows; y++) {
		if (mvwinnwstr(stdscr, y, 0, line, cols < 511 ? cols : 511) == ERR)
			continue;
		if (wcsstr(line, s))
			return true;
	}
	return false;
}

struct bench {
	struct inventory inv;
	struct ui_backend be;
	struct fake_backend f;
	struct ui_opts o;
	struct ui *u;
};

static void
bench_open(struct bench *b, unsigned drives, int cols, int rows)
{
	char err[256];

	memset(b, 0, sizeof(*b));
	fake_inventory(&b->inv, drives);
	fake_backend_init(&b->be, &b->f);
	b->f.ticks_per_step = 5;
	b->o.theme = "default";
	b->u = ui_create(&b->inv, &b->be, &b->o, err, sizeof(err));
	assert_non_null(b->u);
	b->u->gl = GL_BRAILLE;
	b->u->utf8 = true;
	color_apply(&b->u->theme, false);
	resize(b->u, cols, rows);
}

static void
bench_close(struct bench *b)
{
	ui_destroy(b->u);
	inventory_free(&b->inv);
	if (b->f.have_result)
		run_result_free(&b->f.result);
}

static void
test_home_every_size(void **state)
{
	struct bench b;

	bench_open(&b, 10, 80, 24);
	for (int cols = 20; cols <= 300; cols += 7)
		for (int rows = 6; rows <= 100; rows += 5) {
			resize(b.u, cols, rows);
			ui_frame(b.u);
			if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
				assert_true(shows(L"too small"));
			} else {
				assert_true(shows(L"diskscope"));
				assert_true(shows(L"88SE9485"));
				assert_true(shows(L"Details"));
			}
		}
	bench_close(&b);
}

static void
test_picker_to_knee(void **state)
{
	struct bench b;

	bench_open(&b, 10, 120, 40);
	ui_frame(b.u);
	assert_true(shows(L"sim0"));
	/* The first row is the Marvell: the picker takes the whole controller. */
	ui_key(b.u, 't');
	ui_frame(b.u);
	assert_true(shows(L"Test picker"));
	assert_true(shows(L"[x] Marvell 88SE9485"));
	assert_true(shows(L"writes"));			/* seqwrite is marked */
	ui_key(b.u, '\n');				/* saturate -> targets */
	ui_key(b.u, '\n');				/* start */
	assert_int_equal(b.f.starts, 1);
	ui_frame(b.u);
	assert_true(shows(L"Controller saturation"));
	assert_true(shows(L"Per drive"));
	assert_false(shows(L"knee:"));
	/* Five steps of five samples: the knee at 4 drives is known after step 5. */
	for (int i = 0; i < 26; i++)
		ui_frame(b.u);
	assert_true(shows(L"knee: 4 drives"));
	assert_true(shows(L"step 6/8"));
	/* Resizing keeps the run and its plot. */
	resize(b.u, 61, 17);
	ui_frame(b.u);
	resize(b.u, 40, 10);
	ui_frame(b.u);
	assert_true(shows(L"too small"));
	resize(b.u, 200, 60);
	ui_frame(b.u);
	assert_true(shows(L"knee: 4 drives"));
	/* q asks while it runs; n keeps running. */
	ui_key(b.u, 'q');
	ui_frame(b.u);
	assert_true(shows(L"Stop it and quit?"));
	ui_key(b.u, 'n');
	assert_false(b.u->quit);
	for (int i = 0; i < 20; i++)
		ui_frame(b.u);
	/* Finished: the result view with the verdict, export through the backend. */
	assert_true(shows(L"Result: saturate"));
	assert_true(shows(L"saturates at 4 drives"));
	ui_key(b.u, 'e');
	ui_frame(b.u);
	assert_true(shows(L"saved /tmp/fake-result.json"));
	ui_key(b.u, 'q');
	assert_true(b.u->quit);
	bench_close(&b);
}

static void
test_stop_key(void **state)
{
	struct bench b;

	bench_open(&b, 10, 100, 30);
	ui_frame(b.u);
	ui_key(b.u, 't');
	ui_key(b.u, '\n');
	ui_key(b.u, '\n');
	ui_frame(b.u);
	ui_key(b.u, 's');
	assert_int_equal(b.f.stops, 1);
	ui_frame(b.u);
	assert_true(shows(L"Result: saturate"));
	bench_close(&b);
}

static void
test_live_every_size(void **state)
{
	struct bench b;

	bench_open(&b, 24, 120, 40);
	ui_key(b.u, 't');
	ui_key(b.u, '\n');
	ui_key(b.u, '\n');
	b.f.ticks_per_step = 100000;	/* stay live */
	for (int cols = 60; cols <= 300; cols += 11)
		for (int rows = 16; rows <= 100; rows += 7) {
			resize(b.u, cols, rows);
			ui_frame(b.u);
			assert_true(shows(L"Throughput"));
			assert_true(shows(L"Stats"));
			assert_true(shows(L"Controller saturation"));
		}
	bench_close(&b);
}

static void
test_show_and_compare(void **state)
{
	struct bench b, src;
	char err[256];

	/* A finished fake run is the "saved" result. */
	bench_open(&src, 10, 100, 30);
	src.f.ticks_per_step = 1;
	fake_start(&src.f, "saturate", (const char *const[]){ "ctrl:0" }, 1, NULL, NULL, 0, err, sizeof(err));
	struct run_snapshot s;

	for (int i = 0; i < 12; i++) {
		fake_snapshot(&src.f, &s);
		free(s.t);
	}
	assert_true(src.f.have_result);
	bench_open(&b, 0, 120, 40);
	ui_destroy(b.u);
	b.o.show[0] = &src.f.result;
	b.o.n_show = 1;
	b.u = ui_create(&b.inv, NULL, &b.o, err, sizeof(err));
	assert_non_null(b.u);
	resize(b.u, 120, 40);
	color_apply(&b.u->theme, true);		/* and monochrome */
	ui_begin(b.u);
	ui_frame(b.u);
	assert_true(shows(L"Result: saturate"));
	assert_true(shows(L"saved run: saturate"));
	assert_true(shows(L"knee: 4 drives"));
	ui_destroy(b.u);
	b.o.show[1] = &src.f.result;
	b.o.n_show = 2;
	b.u = ui_create(&b.inv, NULL, &b.o, err, sizeof(err));
	resize(b.u, 120, 40);
	ui_begin(b.u);
	ui_frame(b.u);
	assert_true(shows(L"Result 1: saturate"));
	assert_true(shows(L"Result 2: saturate"));
	ui_key(b.u, 'e');	/* a saved run is a file already: no crash, a notice */
	ui_frame(b.u);
	assert_true(shows(L"already a file"));
	bench_close(&b);
	bench_close(&src);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_home_every_size),
		cmocka_unit_test(test_picker_to_knee),
		cmocka_unit_test(test_stop_key),
		cmocka_unit_test(test_live_every_size),
		cmocka_unit_test(test_show_and_compare),
	};

	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", "/nonexistent", 1);
	return cmocka_run_group_tests(tests, setup, teardown);
}
