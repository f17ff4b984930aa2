/* board-frame.c - frame render cost of the bench board: a triage run over
 * 32 drives (24 sim drives in the fake inventory, 8 loop devices it does not
 * know), every one reading with a full strip, one failed and one with read
 * errors, at 200x60, drawn by curses into /dev/null; and the same board
 * with a drive's detail open.  The synthetic snapshot is timed on its own
 * and left out of the render figure.  Built and run by
 * tests/bench/board-scale.sh; it measures, it does not judge. */
#include <curses.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "internal.h"
#include "run/test.h"
#include "test_ui_fake.h"

#define N_TGT 32

static const struct ui_test_info board_tests[] = {
	{ "triage", "bench triage", false, { .bs = 1 << 20, .qd = 1, .pattern = "seq" } },
};

static struct snap_target proto[N_TGT];
static unsigned tick;

/* Every drive reading near the middle: the strips full up to there, the
 * outer-to-inner slowdown, a slow band on sim5, a stall on loop3. */
static void
proto_init(void)
{
	for (int i = 0; i < N_TGT; i++) {
		struct snap_target *t = &proto[i];

		if (i < 24)
			snprintf(t->name, sizeof(t->name), "sim:sim%d", i);
		else
			snprintf(t->name, sizeof(t->name), "/dev/loop%d", i - 24);
		t->controller = -1;
		t->active = true;
		t->phase = SNAP_PH_MEASURE;
		t->size = 4000787030016ULL;
		t->pos = 0.5 + 0.01 * i;
		t->p50_us = t->p99_us = (struct known_dbl){ 0 };
		strip_reset(&t->strip);
		for (int k = 1; k <= 3000; k++) {
			double pos = t->pos * k / 3000, mbps = 150 - 80 * pos;

			if (i == 5 && pos > 0.2 && pos < 0.23)
				mbps = 8;
			strip_add(&t->strip, (float)pos, (uint64_t)(mbps * 1e5), 100000000u);
		}
		if (i == 27)
			strip_add(&t->strip, (float)(t->pos + 0.01), 0, 3000000000u);
		t->n = SNAP_SAMPLES;
		for (int k = 0; k < SNAP_SAMPLES; k++)
			t->read_hist[k] = (float)(120 + 10 * sin(k * 0.1 + i));
		t->mbps = t->read_mbps = 120;
		t->samples = 6000;
	}
	proto[7].ended = SNAP_END_FAILED;
	snprintf(proto[7].why, sizeof(proto[7].why), "gave up after 256 failed reads in a row");
	proto[7].active = true;
	proto[12].errors = 3;
}

static int
board_start(void *ctx, const char *test, const char *const *targets, size_t n,
	    const char *words, const struct drive *const *confirmed, size_t n_confirmed,
	    char *err, size_t errlen)
{
	return 0;
}

static int
board_snapshot(void *ctx, struct run_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->test, sizeof(s->test), "triage");
	s->panels = PANEL_THROUGHPUT | PANEL_LATENCY | PANEL_BOARD;
	s->state = RUN_RUNNING;
	s->virtual_time = false;
	s->interval_ms = 100;
	s->step = s->n_steps = 1;
	s->elapsed_s = ++tick / 10.0;
	s->eta_s = (struct known_dbl){ 0 };	/* unknown */
	s->lat_p50_us = known_dbl_of(900);
	s->lat_p99_us = known_dbl_of(9000);
	s->lat_p999_us = known_dbl_of(30000);
	s->t = malloc(sizeof(proto));
	if (!s->t)
		return -12;
	memcpy(s->t, proto, sizeof(proto));
	s->n_targets = N_TGT;
	s->sample_now = tick;
	for (int i = 0; i < N_TGT; i++) {	/* figures change every frame, as live */
		s->t[i].ring_end = tick;
		s->t[i].mbps = s->t[i].read_mbps = 100 + (tick * 7 + (unsigned)i * 13) % 50;
		s->t[i].pos += (tick % 100) * 1e-3;
		KNOWN_SET(s->total_mbps, s->total_mbps.v + s->t[i].mbps);
	}
	for (int k = 8; k < 20; k++)
		s->lat_hist[k] = (uint64_t)(1000 * exp(-0.5 * (k - 13) * (k - 13))) + 1;
	return 0;
}

static double
cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Apart so callgrind can count them (--toggle-collect). */
__attribute__((noinline)) void
bench_board(struct ui *u)
{
	ui_frame(u);
}

__attribute__((noinline)) void
bench_bsnap(const struct ui_backend *be)
{
	struct run_snapshot s;

	be->snapshot(be->ctx, &s);
	free(s.t);
}

int
main(int argc, char **argv)
{
	long frames = argc > 1 ? atol(argv[1]) : 500;
	struct inventory inv;
	struct ui_backend be;
	struct ui_opts o = { 0 };
	char err[256];
	const char *targets[] = { "sim0" };

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
	proto_init();
	fake_inventory(&inv, 24);
	memset(&be, 0, sizeof(be));
	be.tests = board_tests;
	be.n_tests = 1;
	be.start = board_start;
	be.snapshot = board_snapshot;
	o.start_test = "triage";
	o.start_targets = targets;
	o.n_start_targets = 1;
	struct ui *u = ui_create(&inv, &be, &o, err, sizeof(err));

	if (!u) {
		fprintf(stderr, "ui_create: %s\n", err);
		return 1;
	}
	u->cols = 200;
	u->rows = 60;
	u->gl = GL_BRAILLE;
	u->utf8 = true;
	color_apply(&u->theme, false);
	ui_begin(u);
	for (int i = 0; i < 50; i++)
		bench_board(u);
	if (!u->lay.r[AR_BOARD].visible || u->lay.r[AR_BOARD].h < N_TGT + 3) {
		fprintf(stderr, "board-frame: the board is not shown with its %d rows\n", N_TGT);
		return 1;
	}
	double t0 = cpu_ms();

	for (long i = 0; i < frames; i++)
		bench_board(u);
	double board = (cpu_ms() - t0) / frames;

	if (argc > 2 && !strcmp(argv[2], "board")) {	/* callgrind: the board alone */
		endwin();
		ui_destroy(u);
		delscreen(scr);
		return 0;
	}
	ui_key(u, '\n');	/* the first row's detail */
	for (int i = 0; i < 20; i++)
		bench_board(u);
	t0 = cpu_ms();
	for (long i = 0; i < frames; i++)
		bench_board(u);
	double detail = (cpu_ms() - t0) / frames;

	t0 = cpu_ms();
	for (long i = 0; i < frames; i++)
		bench_bsnap(&be);
	double snap = (cpu_ms() - t0) / frames;

	endwin();
	printf("board-frame: 200x60, %d drives on the board, %ld frames each\n", N_TGT, frames);
	printf("board-frame: board          %.3f ms/frame render (%.3f ms with the %.3f ms synthetic snapshot)\n",
	       board - snap, board, snap);
	printf("board-frame: drive detail   %.3f ms/frame render\n", detail - snap);
	ui_destroy(u);
	delscreen(scr);
	return 0;
}
