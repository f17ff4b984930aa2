/* ui-frame.c - frame render cost of the dashboard: the live view of a
 * saturate run with 24 drives, all active, at 200x60 (and the home screen),
 * drawn by curses into /dev/null.  The fake backend's snapshot is timed on
 * its own and left out of the render figure.  Built and run by
 * tests/bench/ui-frame.sh; it measures, it does not judge. */
#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "internal.h"
#include "test_ui_fake.h"

static double
cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* One frame without the backend: lay out, draw, refresh (kept as a
 * function of its own so callgrind can count it: --toggle-collect). */
__attribute__((noinline)) void
bench_render(struct ui *u)
{
	ui_frame(u);
}

/* The timed live frames and the snapshot-only loop, apart for callgrind. */
__attribute__((noinline)) void
bench_live(struct ui *u)
{
	ui_frame(u);
}

__attribute__((noinline)) void
bench_snap(const struct ui_backend *be)
{
	struct run_snapshot s;

	be->snapshot(be->ctx, &s);
	free(s.t);
}

int
main(int argc, char **argv)
{
	long frames = argc > 1 ? atol(argv[1]) : 500;
	int cols = 200, rows = 60;
	struct inventory inv;
	struct ui_backend be;
	struct fake_backend f;
	struct ui_opts o = { 0 };
	char err[256];
	const char *targets[] = { "ctrl:0" };

	setenv("COLUMNS", "200", 1);
	setenv("LINES", "60", 1);
	setenv("TERM", "xterm-256color", 1);
	setlocale(LC_ALL, "C.UTF-8");
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr = newterm("xterm-256color", out, in);

	if (!scr) {
		printf("SKIP: no xterm-256color terminfo\n");
		return 77;
	}
	set_term(scr);
	start_color();
	use_default_colors();
	fake_inventory(&inv, 24);
	fake_backend_init(&be, &f);
	f.n_targets = 24;
	f.ticks_per_step = 1000000;
	f.start_tick = 23 * f.ticks_per_step;	/* the last step: all 24 drives active */
	o.start_test = "saturate";
	o.start_targets = targets;
	o.n_start_targets = 1;
	struct ui *u = ui_create(&inv, &be, &o, err, sizeof(err));

	if (!u) {
		fprintf(stderr, "ui_create: %s\n", err);
		return 1;
	}
	u->cols = cols;
	u->rows = rows;
	u->gl = GL_BRAILLE;
	u->utf8 = true;
	color_apply(&u->theme, false);

	/* Home screen first (no run yet). */
	for (int i = 0; i < 20; i++)
		bench_render(u);
	double t0 = cpu_ms();

	for (long i = 0; i < frames; i++)
		bench_render(u);
	double home = (cpu_ms() - t0) / frames;

	ui_begin(u);
	/* Fill the one-minute rings before timing. */
	for (int i = 0; i < SNAP_SAMPLES; i++)
		bench_render(u);
	t0 = cpu_ms();
	for (long i = 0; i < frames; i++)
		bench_live(u);
	double live = (cpu_ms() - t0) / frames;
	/* The fake backend's share of that: snapshots alone. */
	t0 = cpu_ms();
	for (long i = 0; i < frames; i++)
		bench_snap(&be);
	double snap = (cpu_ms() - t0) / frames;

	endwin();
	printf("ui-frame: %dx%d, 24 drives, %ld frames each\n", cols, rows, frames);
	printf("ui-frame: home screen      %.3f ms/frame\n", home);
	printf("ui-frame: live (saturate)  %.3f ms/frame render (%.3f ms total, %.3f ms fake snapshot)\n",
	       live - snap, live, snap);
	ui_destroy(u);
	delscreen(scr);
	return 0;
}
