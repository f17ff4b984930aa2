/* loop.c - ui_main and the frame loop: poll the backend at 10 Hz, lay out,
 * draw, read keys until the next tick.  Key handlers return UI_* flags and
 * the loop acts on them. */
#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

#define TICK_MS 100
#define KEY_ESC 27

static void
set_view(struct ui *u, enum view v)
{
	static const enum area first[] = {
		[VIEW_HOME] = AR_INVENTORY, [VIEW_PICKER] = AR_PICKER,
		[VIEW_LIVE] = AR_THROUGHPUT, [VIEW_RESULT] = AR_RESULTS,
	};

	u->view = v;
	u->focus = first[v];
	u->board.focused = false;	/* the board takes the focus once it shows */
}

static void
relayout(struct ui *u)
{
	struct layout_in in = {
		.cols = u->cols, .rows = u->rows, .view = u->view,
		.saturation = ui_is_saturation(u), .compare = u->view == VIEW_RESULT && u->n_res > 1,
		.table = ui_is_table(u),
		.position = ui_is_position(u),
		.board = ui_is_board(u) && (u->view == VIEW_LIVE || u->view == VIEW_RESULT),
		.board_rows = u->have_snap ? (int)u->snap.n_targets : 0,
		.board_detail = board_detail_open(u),
	};

	layout_compute(&in, &u->lay);
	if (u->lay.r[AR_BOARD].visible && !u->board.focused) {
		u->focus = AR_BOARD;
		u->board.focused = true;
	}
	/* Focus may sit on a panel this size hides: move it to a visible one. */
	if (!u->lay.r[u->focus].visible)
		for (size_t i = 0; i < n_panels; i++)
			if (u->lay.r[panels[i].area].visible) {
				u->focus = panels[i].area;
				break;
			}
}

static void
draw_header(struct ui *u, const struct rect *r)
{
	char clock[16], state[96] = "";
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	draw_fill(r->y, r->x, r->w, attr_of(EL_HEADER));
	if (u->have_snap && !u->snap_ui_owned) {
		static const char *const names[] = { "idle", "starting", "running", "stopping",
						     "done", "stopped", "failed" };

		snprintf(state, sizeof(state), " %s%s %s", u->snap.test,
			 u->snap.virtual_time ? " (virtual time)" : "",
			 u->snap.state <= RUN_FAILED ? names[u->snap.state] : "?");
	} else if (u->n_res) {
		snprintf(state, sizeof(state), " saved run: %s", u->res[0]->test);
	}
	int used = draw_textf(r->y, r->x, r->w - 10, attr_of(EL_HEADER), " diskscope %s | %s | %s |%s",
			      DS_VERSION, u->host, u->kernel, state);

	(void)used;
	if (r->w > 40)
		draw_text(r->y, r->x + r->w - 9, 9, attr_of(EL_HEADER), clock);
}

static void
draw_footer(struct ui *u, const struct rect *r)
{
	int x = r->x;

	draw_fill(r->y, r->x, r->w, attr_of(EL_FOOTER));
	if (u->ov == OV_FILTER) {
		x += draw_text(r->y, x, r->w, attr_of(EL_KEY), " / ");
		x += draw_textf(r->y, x, r->x + r->w - x, attr_of(EL_INPUT), " %s_ ", u->input);
		draw_text(r->y, x, r->x + r->w - x, attr_of(EL_FOOTER),
			  "  Enter keep, Esc clear");
		return;
	}
	for (size_t i = 0; i < n_key_table && x < r->x + r->w - 8; i++) {
		const struct key_binding *k = &key_table[i];
		char lab[16];

		if (!k->hint || (k->views && !(k->views & (1u << u->view))))
			continue;
		snprintf(lab, sizeof(lab), "%.*s", (int)strcspn(k->label, " "), k->label);
		x += draw_text(r->y, x, r->x + r->w - x, attr_of(EL_KEY), lab);
		x += draw_textf(r->y, x, r->x + r->w - x, attr_of(EL_FOOTER), " %s  ", k->hint);
	}
	if (u->msg[0] && x < r->x + r->w - 4)
		draw_text(r->y, x + 1, r->x + r->w - x - 1, attr_of((enum theme_el)u->msg_el), u->msg);
}

static void
draw_quit_overlay(struct ui *u)
{
	int w = 52, h = 5;
	struct rect r = { (u->cols - w) / 2, (u->rows - h) / 2, w, h, true };

	for (int y = 0; y < h; y++)
		draw_fill(r.y + y, r.x, w, attr_of(EL_OVERLAY));
	draw_box(u, &r, "Quit", true);
	draw_text(r.y + 1, r.x + 2, w - 4, attr_of(EL_WARN), "A test is running.");
	draw_text(r.y + 2, r.x + 2, w - 4, attr_of(EL_OVERLAY), "Stop it and quit?  y = yes, n = no");
}

static void
draw_frame(struct ui *u)
{
	erase();
	bkgdset((chtype)(' ' | attr_of(EL_BACKGROUND)));
	if (u->lay.too_small) {
		char b[96];

		snprintf(b, sizeof(b), "terminal too small: %dx%d (need %dx%d)", u->cols, u->rows,
			 LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
		if (text_width(b) > u->cols)
			snprintf(b, sizeof(b), "too small: %dx%d", u->cols, u->rows);
		draw_text(0, 0, u->cols, attr_of(EL_WARN), b);
		return;
	}
	draw_header(u, &u->lay.r[AR_HEADER]);
	for (size_t i = 0; i < n_panels; i++) {
		const struct rect *r = &u->lay.r[panels[i].area];

		if (r->visible)
			panels[i].draw(u, r);
	}
	draw_footer(u, &u->lay.r[AR_FOOTER]);
	if (u->ov == OV_HELP)
		panel_help_draw(u);
	else if (u->ov == OV_QUIT)
		draw_quit_overlay(u);
	else if (u->ov == OV_CONFIRM)
		picker_confirm_draw(u);
}

/* Take a fresh snapshot while a run is live; switch to the result view when
 * it has finished. */
static void
poll_backend(struct ui *u)
{
	if (!u->be || !u->be->snapshot || u->view == VIEW_RESULT || u->snap_ui_owned)
		return;
	if (!ui_test_running(u) && u->view != VIEW_LIVE)
		return;
	struct run_snapshot s;

	memset(&s, 0, sizeof(s));
	if (u->be->snapshot(u->be->ctx, &s) < 0)
		return;
	ui_snapshot_release(u);
	u->snap = s;
	u->have_snap = true;
	if (u->snap.state == RUN_FAILED && u->view == VIEW_LIVE) {
		ui_notice(u, EL_FAIL, "test failed: %s", u->snap.message);
	} else if ((u->snap.state == RUN_DONE || u->snap.state == RUN_STOPPED) &&
		   u->view == VIEW_LIVE && u->be->result) {
		const struct run_result *r = u->be->result(u->be->ctx);

		if (r) {
			u->res[0] = r;
			u->n_res = 1;
			u->runs_finished++;
			u->results.top = 0;
			set_view(u, VIEW_RESULT);
			ui_notice(u, EL_OK, "%s %s: e exports JSON and CSV", r->test,
				  u->snap.state == RUN_STOPPED ? "stopped" : "finished");
		}
	}
}

static void
stop_and_wait(struct ui *u)
{
	if (!u->be || !u->be->stop)
		return;
	u->be->stop(u->be->ctx);
	/* Stopping is cooperative and quick; wait a few seconds at most so
	 * workers never outlive the dashboard unnoticed. */
	for (int i = 0; i < 50 && u->be->snapshot; i++) {
		struct run_snapshot s;

		memset(&s, 0, sizeof(s));
		if (u->be->snapshot(u->be->ctx, &s) < 0)
			break;
		bool live = s.state == RUN_STARTING || s.state == RUN_RUNNING || s.state == RUN_STOPPING;

		snapshot_free(&s);
		if (!live)
			break;
		usleep(100 * 1000);
	}
}

static void
cycle_theme(struct ui *u)
{
	size_t n = theme_builtin_count();
	char name[64], err[512];
	struct theme t;

	if (!n)
		return;
	u->theme_idx = (u->theme_idx + 1) % n;
	if (!theme_builtin_name(u->theme_idx, name, sizeof(name)) ||
	    theme_load(name, &t, err, sizeof(err)) < 0) {
		ui_notice(u, EL_FAIL, "%s", err);
		return;
	}
	u->theme = t;
	color_apply(&u->theme, u->nocolor);
	ui_notice(u, EL_OK, "theme: %s", u->theme.name);
}

static void
focus_next(struct ui *u, int dir)
{
	int n = (int)n_panels, cur = 0;

	for (int i = 0; i < n; i++)
		if (panels[i].area == u->focus)
			cur = i;
	for (int k = 1; k <= n; k++) {
		int i = ((cur + dir * k) % n + n) % n;

		if (u->lay.r[panels[i].area].visible) {
			u->focus = panels[i].area;
			return;
		}
	}
}

static int
filter_key(struct ui *u, int ch)
{
	if (ch == KEY_ESC) {
		u->input[0] = 0;
		u->input_len = 0;
		u->ov = OV_NONE;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		u->ov = OV_NONE;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (u->input_len)
			u->input[--u->input_len] = 0;
	} else if (ch >= 32 && ch < 127 && u->input_len + 1 < sizeof(u->tree.filter)) {
		u->input[u->input_len++] = (char)ch;
		u->input[u->input_len] = 0;
	} else {
		return UI_HANDLED;
	}
	snprintf(u->tree.filter, sizeof(u->tree.filter), "%s", u->input);
	inventory_rows_build(u);
	return UI_HANDLED | UI_REDRAW;
}

static int
mouse_key(struct ui *u)
{
	MEVENT ev;

	if (getmouse(&ev) != OK || u->ov != OV_NONE || u->lay.too_small)
		return UI_HANDLED;
	for (size_t i = 0; i < n_panels; i++) {
		const struct rect *r = &u->lay.r[panels[i].area];

		if (!rect_contains(r, ev.x, ev.y))
			continue;
		u->focus = panels[i].area;
		if (panels[i].click)
			panels[i].click(u, r, ev.x, ev.y);
		return UI_HANDLED | UI_REDRAW;
	}
	return UI_HANDLED;
}

static int
handle_key(struct ui *u, int ch)
{
	if (ch == KEY_RESIZE) {
		getmaxyx(stdscr, u->rows, u->cols);
		return UI_RELAYOUT | UI_REDRAW;
	}
	if (ch == KEY_MOUSE)
		return mouse_key(u);
	switch (u->ov) {
	case OV_HELP:
		u->ov = OV_NONE;
		return UI_REDRAW;
	case OV_QUIT:
		if (ch == 'y' || ch == 'Y') {
			stop_and_wait(u);
			u->exit_code = 130;	/* as an interrupted headless run */
			return UI_QUIT;
		}
		if (ch == 'n' || ch == 'N' || ch == KEY_ESC || ch == 'q')
			u->ov = OV_NONE;
		return UI_REDRAW;
	case OV_CONFIRM:
		return picker_confirm_key(u, ch) | UI_REDRAW;
	case OV_FILTER:
		return filter_key(u, ch);
	case OV_NONE:
		break;
	}
	if (u->view == VIEW_PICKER && u->pk.edit)	/* every key is text then */
		return picker_edit_key(u, ch) | UI_REDRAW;
	/* Esc closes a board detail first (live, Esc otherwise stops the run). */
	if (ch == KEY_ESC && u->focus == AR_BOARD && board_detail_open(u))
		return panel_board_key(u, ACT_BACK, ch);
	enum action a = keys_lookup(ch, u->view);

	switch (a) {
	case ACT_HELP:
		u->ov = OV_HELP;
		return UI_REDRAW;
	case ACT_QUIT:
		if (ui_test_running(u)) {
			u->ov = OV_QUIT;
			return UI_REDRAW;
		}
		return UI_QUIT;
	case ACT_TAB:
	case ACT_BTAB:
		if (u->view == VIEW_PICKER)
			break;	/* the picker walks its own sections */
		focus_next(u, a == ACT_TAB ? 1 : -1);
		return UI_REDRAW;
	case ACT_PICKER:
		if (ui_test_running(u)) {
			ui_notice(u, EL_WARN, "a test is running: stop it first (s)");
			return UI_REDRAW;
		}
		if (!u->be || !u->be->n_tests) {
			ui_notice(u, EL_WARN, "no tests available here");
			return UI_REDRAW;
		}
		picker_open(u);
		set_view(u, VIEW_PICKER);
		return UI_RELAYOUT | UI_REDRAW;
	case ACT_FILTER:
		snprintf(u->input, sizeof(u->input), "%s", u->tree.filter);
		u->input_len = strlen(u->input);
		u->ov = OV_FILTER;
		return UI_REDRAW;
	case ACT_THEME:
		cycle_theme(u);
		return UI_REDRAW;
	case ACT_STOP:
		if (ui_test_running(u) && u->be && u->be->stop) {
			u->be->stop(u->be->ctx);
			ui_notice(u, EL_WARN, "stopping...");
		}
		return UI_REDRAW;
	case ACT_BACK:
		if (u->view == VIEW_HOME) {
			u->tree.filter[0] = 0;
			inventory_rows_build(u);
		} else if (!(u->view == VIEW_RESULT && u->o && u->o->n_show && !u->inv)) {
			set_view(u, VIEW_HOME);
			u->msg[0] = 0;
		}
		return UI_RELAYOUT | UI_REDRAW;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		return UI_REDRAW;
	case ACT_SORT:		/* the board's order, wherever the focus is */
		return ui_is_board(u) ? panel_board_key(u, a, ch) : 0;
	default:
		break;
	}
	const struct panel *p = panel_for(u->focus);

	if (p && p->key && a != ACT_NONE)
		return p->key(u, a, ch) | UI_REDRAW;
	if (p && p->key && a == ACT_NONE)
		return p->key(u, a, ch);
	return 0;
}

int
ui_key(struct ui *u, int ch)
{
	int flags = handle_key(u, ch);

	if (flags & UI_QUIT)
		u->quit = true;
	return flags;
}

static long
elapsed_ms(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a->tv_sec) * 1000 + (b.tv_nsec - a->tv_nsec) / 1000000;
}

void
ui_destroy(struct ui *u)
{
	if (!u)
		return;
	ui_snapshot_release(u);
	free(u->tree.row);
	free(u->pk.drive);
	free(u);
}

struct ui *
ui_create(struct inventory *inv, const struct ui_backend *be, const struct ui_opts *o,
	  char *err, size_t errlen)
{
	static const struct ui_opts none;
	struct ui *u = calloc(1, sizeof(*u));
	struct utsname un;

	if (!u) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	u->inv = inv;
	u->be = be;
	u->o = o ? o : &none;
	if (theme_load(u->o->theme, &u->theme, err, errlen) < 0) {
		free(u);
		return NULL;
	}
	for (size_t i = 0; i < theme_builtin_count(); i++) {
		char n[64];

		if (theme_builtin_name(i, n, sizeof(n)) && strcmp(n, u->theme.name) == 0)
			u->theme_idx = i;
	}
	if (uname(&un) == 0) {
		snprintf(u->host, sizeof(u->host), "%s", un.nodename);
		snprintf(u->kernel, sizeof(u->kernel), "%s %s", un.sysname, un.release);
	}
	autoscale_init(&u->tp.scale, 10, 30);
	autoscale_init(&u->scaling.scale, 10, 30);
	autoscale_init(&u->sat.scale, 10, 30);
	u->pk.drive = calloc(inv && inv->n_drv ? inv->n_drv : 1, sizeof(bool));
	u->pk.ctrl = -1;
	inventory_rows_build(u);
	set_view(u, VIEW_HOME);
	return u;
}

/* What the command line asked for first: a saved run, or a test at once. */
void
ui_begin(struct ui *u)
{
	if (u->o->n_show) {
		for (size_t i = 0; i < u->o->n_show && i < 2; i++)
			u->res[u->n_res++] = u->o->show[i];
		result_to_snapshot(u->res[0], &u->snap);
		u->have_snap = u->snap_ui_owned = true;
		set_view(u, VIEW_RESULT);
	} else if (u->o->start_test) {
		if (picker_start_from_opts(u) == 0)
			set_view(u, VIEW_LIVE);
	}
}

void
ui_frame(struct ui *u)
{
	if (u->be && u->be->poll_inventory)
		u->be->poll_inventory(u->be->ctx, u->inv);
	poll_backend(u);
	relayout(u);
	draw_frame(u);
	refresh();
	u->frame++;
}

int
ui_main(struct inventory *inv, const struct ui_backend *be, const struct ui_opts *o)
{
	char err[512];
	struct ui *u = ui_create(inv, be, o, err, sizeof(err));
	int rc;

	if (!u) {
		fprintf(stderr, "diskscope: theme: %s\n", err);
		return 2;
	}
	if (term_start(u) < 0) {
		fprintf(stderr, "diskscope: %s\n", u->msg);
		ui_destroy(u);
		return 2;
	}
	color_apply(&u->theme, u->nocolor);
	ui_begin(u);

	struct timespec tick;

	while (!u->quit) {
		clock_gettime(CLOCK_MONOTONIC, &tick);
		ui_frame(u);
		if (u->o->frames > 0 && u->frame >= u->o->frames)
			break;
		/* Input until the next tick; a key redraws at once. */
		for (;;) {
			long left = TICK_MS - elapsed_ms(&tick);
			int flags;

			if (term_signal_exit()) {
				u->quit = true;
				break;
			}
			if (left <= 0)
				break;
			timeout((int)left);
			int ch = getch();

			if (ch == ERR)
				continue;
			flags = handle_key(u, ch);
			if (flags & UI_QUIT) {
				u->quit = true;
				break;
			}
			if (flags & UI_RELAYOUT)
				break;
			if (flags & UI_REDRAW) {
				relayout(u);
				draw_frame(u);
				refresh();
			}
		}
	}
	rc = term_signal_exit();
	if (rc && ui_test_running(u))
		stop_and_wait(u);
	if (!rc)
		rc = u->exit_code;
	term_stop();
	ui_destroy(u);
	return rc;
}
