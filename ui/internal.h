/* internal.h - the dashboard's state and what its files share.  Only ui/
 * includes this (and curses). */
#ifndef DS_UI_INTERNAL_H
#define DS_UI_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include "ui.h"
#include "autoscale.h"
#include "canvas.h"
#include "color.h"
#include "layout.h"
#include "theme.h"

/* Flags key handlers return; the loop acts on them (htop's way). */
enum {
	UI_HANDLED = 1,		/* key consumed */
	UI_REDRAW = 2,
	UI_QUIT = 4,
	UI_RELAYOUT = 8,
};

enum action {
	ACT_NONE, ACT_HELP, ACT_QUIT, ACT_UP, ACT_DOWN, ACT_LEFT, ACT_RIGHT, ACT_PGUP,
	ACT_PGDN, ACT_HOME, ACT_END, ACT_ENTER, ACT_SPACE, ACT_TAB, ACT_BTAB, ACT_PICKER,
	ACT_FILTER, ACT_THEME, ACT_STOP, ACT_BACK, ACT_EXPORT, ACT_CTRL, ACT_REDRAW,
	ACT_SORT,
};

enum overlay { OV_NONE, OV_HELP, OV_QUIT, OV_CONFIRM, OV_FILTER };

/* One line of the inventory tree: a controller (drive < 0), a drive, or the
 * "other drives" group (ctrl < 0, drive < 0). */
struct inv_row {
	int ctrl, drive;
};

enum { PK_TESTS, PK_PARAMS, PK_TARGETS, PK_START, PK_NFOCUS };
#define PK_NPARAMS 7
#define PK_OPTS 6		/* the test's own options, "NAME=VALUE ..." typed */

/* Per-panel state: each panel keeps its own fields here, grouped, so one
 * panel's state reads as its own (u->pk.test, u->tree.sel). */
struct inv_tree_state {
	char filter[96];
	struct inv_row *row;
	size_t n_row, row_cap;
	int sel, top;			/* the selected drive/controller row, the first shown */
};
#define DET_HIST_LINES 8
#define DET_MAX_LINES 512
struct det_lines {			/* the panel's text, rebuilt each draw */
	size_t n;
	int wrap;			/* the panel's text width, set before each draw */
	int el[DET_MAX_LINES];
	char s[DET_MAX_LINES][160];
};
struct details_state {
	int top;			/* scroll */
	/* the selected drive's history lines, asked again when the drive or
	 * the number of finished runs changes */
	const struct drive *hist_drive;
	unsigned hist_runs;
	size_t n_hist;
	char hist[DET_HIST_LINES][128];
	struct det_lines text;		/* big: not on the stack */
};
struct picker_state {
	int focus, test, param, target, top;
	int val[PK_NPARAMS];		/* index into each parameter's choices */
	char typed[PK_NPARAMS][48];	/* a typed value ("" = the preset) */
	bool edit;			/* typing into the field param (u->input) */
	bool *drive;			/* per inventory drive */
	int ctrl;			/* whole controller chosen, -1 none */
	int confirm_step;		/* confirmation: device names typed so far */
	bool defaults_loaded;		/* the form's presets, at the first opening */
};
struct results_state {
	int top;			/* scroll */
	int max_top;			/* the last full page, from the last draw (-1: unknown) */
};
struct board_state {
	int sel;			/* the selected drive: a snapshot target index */
	int top;			/* the first row shown (in display order) */
	bool by_verdict;		/* order: FAIL, WARN, running, PASS; else by slot */
	int detail;			/* the drive whose detail is open: target index + 1, 0 none */
	bool focused;			/* took the focus in this view already */
};
#define SURF_CELLS 200
/* panel-surface.c: what the panel has gathered: by cell, the rate's sum
 * and count, the slowest latency (ms) and the failed I/Os. */
struct pos_acc {
	char test[24];
	double last_elapsed;
	double sum[SURF_CELLS];
	unsigned cnt[SURF_CELLS];
	float worst_ms[SURF_CELLS];
	unsigned err[SURF_CELLS];
	uint64_t last_err;
	uint64_t size;		/* bytes, 0 unknown */
	double gb0, gb1;	/* the result view: the region in GB */
	double pos;		/* 0..1, NAN none */
	size_t ncell;		/* cells in use (SURF_CELLS live, the map's rows in a result) */
	size_t last_k;		/* live: the cell of the last observation */
	bool have_k;
};
struct surface_state {
	struct pos_acc acc;		/* kept across frames: live, it grows as the scan goes */
	struct autoscale scale;
};
/* panel-latency.c: a latency bin in µs: (lo, hi], n completions. */
struct lbin {
	double lo, hi, n;
};
/* What the latency panel plots: the live histogram (power-of-two buckets),
 * or in the result view the result's own fine histogram of its last step,
 * with the table's exact percentiles when one target ran (the panel and the
 * table then say the same p99). */
struct lat_view {
	struct lbin b[16384];
	size_t n;
	double total;
	struct known_dbl p[3];	/* p50, p99, p99.9 (µs) */
	struct known_dbl max;	/* µs */
	bool last_step;		/* of several: the figures are the last step's */
};
struct latency_state {
	struct lat_view v;		/* rebuilt each frame; big, so not on the stack */
};
#define TP_CURVE_MAX 1024		/* a result's curve: at most this many pixels */
struct throughput_state {		/* panel-throughput.c: each frame's sums, not on the stack */
	double sum[TP_CURVE_MAX], cnt[TP_CURVE_MAX], tsum[TP_CURVE_MAX], tcnt[TP_CURVE_MAX];
	float curve[TP_CURVE_MAX];
	float rd[SNAP_SAMPLES], wr[SNAP_SAMPLES];
};
struct autoscale_state {		/* a plot panel's y axis */
	struct autoscale scale;
};

struct ui {
	struct inventory *inv;
	const struct ui_backend *be;
	const struct ui_opts *o;
	/* look */
	struct theme theme;
	size_t theme_idx;
	bool nocolor;
	enum glyphs gl;
	bool utf8;
	/* screen */
	int cols, rows;
	struct layout lay;
	enum view view;
	enum area focus;
	enum overlay ov;
	long frame;
	int exit_code;
	bool quit;
	char host[80], kernel[160];
	char msg[256];			/* footer notice */
	int msg_el;			/* theme element of the notice */
	/* text input (filter, confirmation) */
	char input[96];
	size_t input_len;
	/* each panel's own state (the panel's file owns it) */
	struct inv_tree_state tree;	/* panel-inventory.c */
	struct details_state det;	/* panel-details.c */
	struct picker_state pk;		/* panel-picker.c */
	char run_pattern[16];		/* the started run's --pattern (seq, rand...) */
	/* running / results */
	bool have_snap;
	struct run_snapshot snap;	/* from the backend (live) */
	bool snap_ui_owned;		/* built by us from a result: free our way */
	const struct run_result *res[2];
	size_t n_res;
	unsigned runs_finished;		/* runs that ended in this session (the history grew) */
	struct results_state results;	/* panel-results.c */
	struct board_state board;	/* panel-board.c */
	struct surface_state surf;	/* panel-surface.c */
	struct latency_state lat;	/* panel-latency.c */
	struct throughput_state tput;	/* panel-throughput.c */
	struct autoscale_state tp, scaling, sat;	/* throughput, scaling, saturation */
};

/* loop.c: the dashboard without the terminal set-up (the frame bench and
 * ui_main share these). */
struct ui *ui_create(struct inventory *inv, const struct ui_backend *be, const struct ui_opts *o,
		     char *err, size_t errlen);
void ui_begin(struct ui *u);		/* --show / start a test at once */
void ui_frame(struct ui *u);		/* poll, lay out, draw, refresh */
int ui_key(struct ui *u, int ch);	/* one key as the loop handles it: UI_* flags */
void ui_destroy(struct ui *u);

/* Panels: one file each, listed in one const table (panels.c). */
struct panel {
	enum area area;
	const char *title;
	void (*draw)(struct ui *u, const struct rect *r);
	int (*key)(struct ui *u, enum action a, int ch);		/* UI_* flags */
	int (*click)(struct ui *u, const struct rect *r, int x, int y);
};
extern const struct panel panels[];
extern const size_t n_panels;
const struct panel *panel_for(enum area a);

void panel_inventory_draw(struct ui *u, const struct rect *r);
int panel_inventory_key(struct ui *u, enum action a, int ch);
int panel_inventory_click(struct ui *u, const struct rect *r, int x, int y);
void inventory_rows_build(struct ui *u);	/* after a filter change */
/* Inventory facts as short text (panel-inventory.c), shared with details. */
void link_text(const struct ui *u, const struct pci_link *l, char *b, size_t n);
void short_ctrl_name(const char *in, char *out, size_t n);	/* no "Corporation" */
const char *sector_text(const struct drive *d);		/* 512e / 4Kn / 512n / ? */
void rpm_text(const struct drive *d, char *b, size_t n);
struct known_bool trim_state(const struct drive *d);	/* TRIM yes/no, when known */
enum theme_el smart_el(const struct drive *d);
enum theme_el smr_el(const struct drive *d);
void panel_details_draw(struct ui *u, const struct rect *r);
int panel_details_key(struct ui *u, enum action a, int ch);
void panel_picker_draw(struct ui *u, const struct rect *r);
int panel_picker_key(struct ui *u, enum action a, int ch);
int panel_picker_click(struct ui *u, const struct rect *r, int x, int y);
void picker_open(struct ui *u);
int picker_confirm_key(struct ui *u, int ch);	/* OV_CONFIRM input */
void picker_confirm_draw(struct ui *u);
int picker_start_from_opts(struct ui *u);
int picker_edit_key(struct ui *u, int ch);	/* typing a parameter's value */	/* --start: ui_opts.start_test */
void panel_throughput_draw(struct ui *u, const struct rect *r);
void panel_surface_draw(struct ui *u, const struct rect *r);
void panel_scaling_draw(struct ui *u, const struct rect *r);
void panel_saturation_draw(struct ui *u, const struct rect *r);
void panel_latency_draw(struct ui *u, const struct rect *r);
void panel_stats_draw(struct ui *u, const struct rect *r);
void panel_table_draw(struct ui *u, const struct rect *r);
void panel_results_draw(struct ui *u, const struct rect *r);
void panel_results2_draw(struct ui *u, const struct rect *r);
int panel_results_key(struct ui *u, enum action a, int ch);
void panel_board_draw(struct ui *u, const struct rect *r);
int panel_board_key(struct ui *u, enum action a, int ch);
int panel_board_click(struct ui *u, const struct rect *r, int x, int y);
bool board_detail_open(const struct ui *u);
void panel_help_draw(struct ui *u);

/* keys.c: the key table (the help overlay and footer come from it). */
struct key_binding {
	int key;
	unsigned views;		/* 1 << VIEW_*; 0 = every view */
	enum action act;
	const char *label;	/* how the help shows the key */
	const char *help;	/* what it does; NULL: an alias not listed twice */
	const char *hint;	/* short footer hint, NULL none */
};
extern const struct key_binding key_table[];
extern const size_t n_key_table;
enum action keys_lookup(int ch, enum view v);

/* term.c */
int term_start(struct ui *u);
void term_stop(void);
void term_flush_stderr(void);
int term_signal_exit(void);		/* 0, or 128+sig: SIGINT/TERM/HUP/QUIT arrived */

/* draw.c: clipped, themed drawing and number formatting. */
void draw_box(struct ui *u, const struct rect *r, const char *title, bool focus);
/* Text at (x, y) clipped to w columns; returns the columns used. */
int draw_text(int y, int x, int w, int attr, const char *s);
int draw_textf(int y, int x, int w, int attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void draw_fill(int y, int x, int w, int attr);
int text_width(const char *s);
void draw_canvas(struct ui *u, const struct canvas *c, int y, int x, const int *layer_el);
const char *sym_warn(const struct ui *u);	/* "⚠" or "!" */
const char *sym_mark(const struct ui *u);	/* "●" or "*" */
const char *sym_check(const struct ui *u, bool on);	/* "[x]" */
void fmt_bytes(char *b, size_t n, double bytes);	/* "2.00 TB" */
void fmt_rate(char *b, size_t n, double mbps);		/* "544 MB/s" */
void fmt_us(char *b, size_t n, double us);		/* "850 µs", "12.3 ms" */
void fmt_known_us(char *b, size_t n, const struct known_dbl *us);	/* fmt_us, "-" unknown */
void fmt_secs(char *b, size_t n, double s);		/* "1m23s" */
int attr_of(enum theme_el e);

/* model.c: views of the data the panels share. */
void result_to_snapshot(const struct run_result *r, struct run_snapshot *s);
void ui_snapshot_release(struct ui *u);
bool ui_test_running(const struct ui *u);
bool ui_is_saturation(const struct ui *u);
bool ui_is_table(const struct ui *u);	/* the test fills a table live (PANEL_TABLE) */
bool ui_is_position(const struct ui *u);
bool ui_is_board(const struct ui *u);	/* the bench board (PANEL_BOARD) */	/* AR_POSITION instead of the time plot */
const struct run_snapshot *ui_view_snapshot(struct ui *u);
const struct run_result *ui_current_result(struct ui *u, size_t i);
/* The run shown sweeps its targets (a sequential pattern): position means
 * progress and plots go by position. */
bool ui_positional(struct ui *u);
void ui_notice(struct ui *u, enum theme_el el, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#endif
