/* panel-picker.c - choose a test, its parameters and its targets, then start
 * it through the backend.  A test that writes on real devices first shows
 * exactly what will be destroyed (every device, its model and serial) and
 * wants each device name typed; the guard in the core still has the last
 * word, comparing each drive it opens with the one shown here. */
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "internal.h"
#include "bench/plan-options.h"

#define KEY_ESC 27

/* Parameters: presets to walk with Left/Right, or a typed value (Enter)
 * that goes through the command line's own option parser, so the form and
 * `diskscope run --OPT` accept and refuse the same things. */
struct param_def {
	const char *label;
	const char *opt;		/* the run option it sets (without "--") */
	const char *example;		/* what may be typed */
	int def;
	int n;
	const char *names[12];		/* shown */
	const char *cli[12];		/* the option's value */
	double v[12];			/* numeric, to find the test's default */
};

static const struct param_def params[PK_NPARAMS] = {
	{ "block size", "bs", "4k, 12k, 1M, 8M", 7, 10,
	  { "4 KiB", "8 KiB", "16 KiB", "64 KiB", "128 KiB", "256 KiB", "512 KiB", "1 MiB", "4 MiB", "16 MiB" },
	  { "4k", "8k", "16k", "64k", "128k", "256k", "512k", "1M", "4M", "16M" },
	  { 4096, 8192, 16384, 65536, 131072, 262144, 524288, 1048576, 4194304, 16777216 } },
	{ "queue depth", "qd", "1 .. 256", 3, 8, { "1", "2", "4", "8", "16", "32", "64", "128" },
	  { "1", "2", "4", "8", "16", "32", "64", "128" }, { 1, 2, 4, 8, 16, 32, 64, 128 } },
	{ "duration", "time", "20, 90s, 500ms, 2m", 1, 8,
	  { "5 s", "10 s", "20 s", "30 s", "1 min", "2 min", "5 min", "10 min" },
	  { "5", "10", "20", "30", "60", "120", "300", "600" }, { 5, 10, 20, 30, 60, 120, 300, 600 } },
	{ "region", "region", "0%:25% or LBA 0:2097152", 0, 4,
	  { "whole disk", "outer 10 %", "middle 10 %", "inner 10 %" },
	  { "0%:100%", "0%:10%", "45%:55%", "90%:100%" }, { 0 } },
	{ "access", "pattern", "seq, rand", 0, 2, { "sequential", "random" }, { "seq", "rand" }, { 0 } },
	{ "data pattern", "data", "random, zeros, compressible", 0, 3, { "random", "zeros", "compressible" },
	  { "random", "zeros", "compressible" }, { 0 } },
	/* PK_OPTS: the test's own parameters as `run TEST --help` lists them */
	{ "test options", NULL, "write-verify=on mode=full", 0, 1, { "defaults" }, { "" }, { 0 } },
};

/* The option value a field holds now: typed, else its preset. */
static const char *
param_value(const struct ui *u, int i)
{
	return u->pk.typed[i][0] ? u->pk.typed[i] : params[i].cli[u->pk.val[i]];
}

/* Target rows: controllers and their drives, unfiltered. */
static size_t
target_rows(const struct ui *u, struct inv_row *out, size_t max)
{
	size_t n = 0;

	if (!u->inv)
		return 0;
	for (int ci = 0; ci <= (int)u->inv->n_ctrl; ci++) {
		int c = ci < (int)u->inv->n_ctrl ? ci : -1;	/* loose drives last */
		bool any = false;

		for (size_t d = 0; d < u->inv->n_drv; d++)
			any |= u->inv->drv[d].controller == c;
		if (!any)
			continue;
		if (n < max)
			out[n++] = (struct inv_row){ c, -1 };
		for (size_t d = 0; d < u->inv->n_drv; d++)
			if (u->inv->drv[d].controller == c && n < max)
				out[n++] = (struct inv_row){ c, (int)d };
	}
	return n;
}

/* Whole controllers pick only the drives a test can use (not the root
 * disk, not one that cannot be opened). */
static void
select_ctrl(struct ui *u, int c, bool on)
{
	for (size_t d = 0; d < u->inv->n_drv; d++)
		if (u->inv->drv[d].controller == c)
			u->pk.drive[d] = on && drive_testable(&u->inv->drv[d], NULL);
	u->pk.ctrl = on && c >= 0 ? c : -1;
}

/* The form's choice nearest to v (by ratio: sizes and depths are powers). */
static int
nearest(const struct param_def *d, double v)
{
	int best = d->def;
	double bd = INFINITY;

	for (int i = 0; i < d->n; i++) {
		double dist = fabs(log((d->v[i] + 1) / (v + 1)));

		if (dist < bd) {
			bd = dist;
			best = i;
		}
	}
	return best;
}

/* The preset the form starts a field at for the selected test: its own
 * default (a random read: 4 KiB, QD 32, random), so what the form shows is
 * what will run. */
static int
default_val(const struct ui *u, int i)
{
	const struct run_params *d = &u->be->tests[u->pk.test].defaults;

	if (i == 0 && d->bs)
		return nearest(&params[0], d->bs);
	if (i == 1 && d->qd)
		return nearest(&params[1], d->qd);
	if (i == 2 && d->seconds > 0)
		return nearest(&params[2], d->seconds);
	if (i == 4)
		return strcmp(d->pattern, "rand") == 0 || strcmp(d->pattern, "random") == 0;
	return params[i].def;
}

static void
load_defaults(struct ui *u)
{
	if (!u->be || u->pk.test < 0 || u->pk.test >= (int)u->be->n_tests)
		return;
	for (int i = 0; i < PK_NPARAMS; i++) {
		u->pk.val[i] = default_val(u, i);
		u->pk.typed[i][0] = 0;
	}
}

void
picker_open(struct ui *u)
{
	if (!u->pk.defaults_loaded) {
		load_defaults(u);
		u->pk.defaults_loaded = true;
	}
	u->pk.focus = PK_TESTS;
	u->pk.edit = false;
	u->msg[0] = 0;
	if (!u->inv || !u->tree.n_row || u->tree.sel >= (int)u->tree.n_row)
		return;
	/* Start from what is selected on the home screen. */
	const struct inv_row *r = &u->tree.row[u->tree.sel];

	memset(u->pk.drive, 0, u->inv->n_drv * sizeof(bool));
	u->pk.ctrl = -1;
	const char *why;

	if (r->drive >= 0 && !drive_testable(&u->inv->drv[r->drive], &why))
		ui_notice(u, EL_WARN, "%s %s: not pre-selected", u->inv->drv[r->drive].name, why);
	else if (r->drive >= 0)
		u->pk.drive[r->drive] = true;
	else if (r->ctrl >= 0)
		select_ctrl(u, r->ctrl, true);	/* never the loose drives as a group */
	struct inv_row rows[256];
	size_t n = target_rows(u, rows, 256);

	for (size_t i = 0; i < n; i++)
		if (rows[i].ctrl == r->ctrl && rows[i].drive == r->drive)
			u->pk.target = (int)i;
}

/* A scratch plan of the chosen test: its parameter table checks the
 * fields (bs, qd, time, pattern, data...) as `run TEST --OPT` would. */
static void
scratch_plan(const struct ui *u, struct plan *sc)
{
	plan_init(sc, bench_find(u->be->tests[u->pk.test].name));
}

/* The form as option words ("bs=12k time=20 mode=full ..."): only the
 * fields the user changed (typed, or walked off the test's default), then
 * the typed test options.  The backend parses them with the run option
 * table, as `diskscope run TEST TARGET --bs 12k ...` would be: an untouched
 * field is the test's own default there too, never "set by the user". */
static void
form_words(const struct ui *u, char *out, size_t len)
{
	size_t n = 0;

	out[0] = 0;
	for (int i = 0; i < PK_NPARAMS && n < len; i++) {
		bool changed = u->pk.typed[i][0] || u->pk.val[i] != default_val(u, i);

		if (params[i].opt && changed)
			n += (size_t)snprintf(out + n, len - n, "%s=%s ", params[i].opt, param_value(u, i));
	}
	if (n < len)
		snprintf(out + n, len - n, "%s", u->pk.typed[PK_OPTS]);
}

static void
started(struct ui *u)
{
	u->view = VIEW_LIVE;
	u->focus = AR_THROUGHPUT;
	u->n_res = 0;
	autoscale_init(&u->tp.scale, 10, 30);
	autoscale_init(&u->scaling.scale, 10, 30);
	autoscale_init(&u->sat.scale, 10, 30);
	ui_snapshot_release(u);
	/* A first snapshot now, so the layout knows the test at once. */
	if (u->be->snapshot) {
		memset(&u->snap, 0, sizeof(u->snap));
		if (u->be->snapshot(u->be->ctx, &u->snap) == 0)
			u->have_snap = true;
	}
}

static int
do_start(struct ui *u, const struct drive *const *confirmed, size_t n_confirmed)
{
	const struct ui_test_info *t = &u->be->tests[u->pk.test];
	const char *targets[256];
	size_t n = 0;
	char err[256] = "", spec[32], words[512];
	bool whole = u->pk.ctrl >= 0;

	for (size_t d = 0; d < u->inv->n_drv; d++) {
		if (u->pk.drive[d] != (u->inv->drv[d].controller == u->pk.ctrl))
			whole = false;
	}
	if (whole) {
		snprintf(spec, sizeof(spec), "ctrl:%d", u->pk.ctrl);
		targets[n++] = spec;
	} else {
		for (size_t d = 0; d < u->inv->n_drv && n < 256; d++)
			if (u->pk.drive[d])
				targets[n++] = u->inv->drv[d].path[0] ? u->inv->drv[d].path : u->inv->drv[d].name;
	}
	if (!n) {
		ui_notice(u, EL_WARN, "select at least one target (Space)");
		return -EINVAL;
	}
	form_words(u, words, sizeof(words));
	snprintf(u->run_pattern, sizeof(u->run_pattern), "%.15s", param_value(u, 4));
	int rc = u->be->start(u->be->ctx, t->name, targets, n, words, confirmed, n_confirmed, err,
			      sizeof(err));

	if (rc < 0) {
		ui_notice(u, EL_FAIL, "%s", err[0] ? err : strerror(-rc));
		return rc;
	}
	if (whole)
		ui_notice(u, EL_OK, "%s started on every drive of %s", t->name, spec);
	else
		ui_notice(u, EL_OK, "%s started on %zu target%s", t->name, n, n == 1 ? "" : "s");
	started(u);
	return 0;
}

/* The real (non-simulated) drives a writing test would destroy, in
 * inventory order: their indexes in v (at most max), how many in all. */
static size_t
real_targets(const struct ui *u, int *v, size_t max)
{
	size_t n = 0;

	for (size_t d = 0; d < u->inv->n_drv; d++)
		if (u->pk.drive[d] && u->inv->drv[d].transport != TR_SIM) {
			if (n < max)
				v[n] = (int)d;
			n++;
		}
	return n;
}

#define CONFIRM_MAX 64	/* the guard's limit (GUARD_MAX_CONFIRMS) */

/* The chosen test writes: always, or with the test options typed (triage
 * write-verify=on), asked as the command line asks (plan_writes). */
static bool
picker_writes(const struct ui *u, const struct ui_test_info *t)
{
	struct plan sc;
	char err[256];
	bool w;

	if (t->writes)
		return true;
	scratch_plan(u, &sc);
	sc.params.rw_mix = 100;	/* the form has no read/write mix */
	w = !plan_set_options(&sc, u->pk.typed[PK_OPTS], err, sizeof(err)) && plan_writes(&sc);
	plan_free(&sc);
	return w;
}

static int
try_start(struct ui *u)
{
	if (!u->be || !u->be->start || !u->be->n_tests)
		return UI_HANDLED;
	const struct ui_test_info *t = &u->be->tests[u->pk.test];

	if (picker_writes(u, t)) {
		int v[CONFIRM_MAX];
		size_t n = real_targets(u, v, CONFIRM_MAX);

		if (n > CONFIRM_MAX) {
			ui_notice(u, EL_WARN, "%s writes: at most %d real devices at once", t->name,
				  CONFIRM_MAX);
			return UI_HANDLED | UI_REDRAW;
		}
		if (n) {	/* one confirmation, every name typed */
			u->pk.confirm_step = 0;
			u->input[0] = 0;
			u->input_len = 0;
			u->ov = OV_CONFIRM;
			return UI_HANDLED | UI_REDRAW;
		}
	}
	do_start(u, NULL, 0);
	return UI_HANDLED | UI_RELAYOUT | UI_REDRAW;
}

int
picker_start_from_opts(struct ui *u)
{
	const struct ui_opts *o = u->o;
	char err[256] = "";

	if (!u->be || !u->be->start)
		return -ENOTSUP;
	for (size_t i = 0; i < u->be->n_tests; i++)
		if (strcmp(u->be->tests[i].name, o->start_test) == 0)
			u->pk.test = (int)i;
	snprintf(u->run_pattern, sizeof(u->run_pattern), "%s",
		 o->start_params ? o->start_params->pattern : "");
	int rc = u->be->start(u->be->ctx, o->start_test, o->start_targets, o->n_start_targets,
			      NULL, NULL, 0, err, sizeof(err));

	if (rc < 0) {
		ui_notice(u, EL_FAIL, "%s: %s", o->start_test, err[0] ? err : strerror(-rc));
		return rc;
	}
	started(u);
	return 0;
}

int
picker_confirm_key(struct ui *u, int ch)
{
	int v[CONFIRM_MAX];
	size_t n = real_targets(u, v, CONFIRM_MAX);

	if (ch == KEY_ESC || n == 0 || n > CONFIRM_MAX) {
		u->ov = OV_NONE;
		ui_notice(u, EL_OK, "cancelled: nothing was written");
		return UI_HANDLED;
	}
	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		size_t k = (size_t)u->pk.confirm_step < n ? (size_t)u->pk.confirm_step : n - 1;
		const struct drive *d = &u->inv->drv[v[k]];

		if (strcmp(u->input, d->name) != 0 && strcmp(u->input, d->path) != 0) {
			ui_notice(u, EL_WARN, "type %s exactly to confirm, or Esc", d->name);
			return UI_HANDLED;
		}
		u->input[0] = 0;
		u->input_len = 0;
		if (++k < n) {
			u->pk.confirm_step = (int)k;
			return UI_HANDLED;
		}
		const struct drive *conf[CONFIRM_MAX];
		for (size_t i = 0; i < n; i++)
			conf[i] = &u->inv->drv[v[i]];
		u->ov = OV_NONE;
		do_start(u, conf, n);
		return UI_HANDLED | UI_RELAYOUT;
	}
	if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && u->input_len)
		u->input[--u->input_len] = 0;
	else if (ch >= 32 && ch < 127 && u->input_len + 1 < sizeof(u->input)) {
		u->input[u->input_len++] = (char)ch;
		u->input[u->input_len] = 0;
	}
	return UI_HANDLED;
}

/* Two lines per device: path and model, then serial, size, partitions
 * and mounts (what a technician checks against the drive's label). */
static void
confirm_drive(struct ui *u, int y, int x, int w, const struct drive *d, int state)
{
	char cap[16] = "?", parts[128] = "none", mnt[160] = "none";

	if (d->capacity_bytes.known)
		fmt_bytes(cap, sizeof(cap), (double)d->capacity_bytes.v);
	for (size_t i = 0; i < d->partitions.n; i++)
		snprintf(parts + (i ? strlen(parts) : 0), sizeof(parts) - (i ? strlen(parts) : 0), "%s%s",
			 i ? " " : "", d->partitions.v[i]);
	for (size_t i = 0; i < d->mounts.n; i++)
		snprintf(mnt + (i ? strlen(mnt) : 0), sizeof(mnt) - (i ? strlen(mnt) : 0), "%s%s",
			 i ? ", " : "", d->mounts.v[i]);
	/* a loop device has no model: its backing file says which one it is */
	draw_textf(y, x, w, attr_of(state == 0 ? EL_FAIL : EL_OVERLAY), "%s %s  %s%s",
		   state < 0 ? "ok" : state == 0 ? "> " : "  ", d->path,
		   d->model[0] || !d->backing[0] ? "" : "backing file ",
		   d->model[0] ? d->model : d->backing);
	draw_textf(y + 1, x + 3, w - 3, attr_of(d->mounts.n ? EL_WARN : EL_OVERLAY),
		   "serial %s  size %s  partitions %s  mounted %s", d->serial[0] ? d->serial : "unknown",
		   cap, parts, mnt);
}

void
picker_confirm_draw(struct ui *u)
{
	int v[CONFIRM_MAX];
	size_t n = real_targets(u, v, CONFIRM_MAX);

	if (n == 0 || n > CONFIRM_MAX)
		return;
	size_t k = (size_t)u->pk.confirm_step < n ? (size_t)u->pk.confirm_step : n - 1;
	int w = u->cols - 8 < 76 ? u->cols - 8 : 76;
	int fit = (u->rows - 8) / 2 < (int)n ? (u->rows - 8) / 2 : (int)n;
	if (fit < 1)
		fit = 1;
	int h = 2 * fit + 6;
	struct rect r = { (u->cols - w) / 2, (u->rows - h) / 2, w, h, true };
	const struct drive *cur = &u->inv->drv[v[k]];
	/* a window of devices that keeps the one being typed in view */
	size_t first = k + 1 > (size_t)fit ? k + 1 - (size_t)fit : 0;

	for (int y = 0; y < h; y++)
		draw_fill(r.y + y, r.x, w, attr_of(EL_OVERLAY));
	draw_box(u, &r, "This test DESTROYS the data on", true);
	int x = r.x + 2, iw = w - 4, y = r.y + 1;

	for (size_t i = first; i < n && i < first + (size_t)fit; i++, y += 2)
		confirm_drive(u, y, x, iw, &u->inv->drv[v[i]], i < k ? -1 : i == k ? 0 : 1);
	y++;
	if (n > 1)
		draw_textf(y++, x, iw, attr_of(EL_OVERLAY),
			   "Device %zu of %zu: type %s and Enter, Esc to cancel:", k + 1, n, cur->name);
	else
		draw_textf(y++, x, iw, attr_of(EL_OVERLAY), "Type %s and Enter to go on, Esc to cancel:",
			   cur->name);
	draw_textf(y, x, iw, attr_of(EL_INPUT), " %s_ ", u->input);
}

static void
draw_tests(struct ui *u, int y, int x, int w, int h)
{
	bool f = u->pk.focus == PK_TESTS;

	draw_text(y++, x, w, attr_of(f ? EL_FOCUS : EL_TITLE), "Test");
	for (size_t i = 0; i < u->be->n_tests && (int)i < h - 1; i++) {
		const struct ui_test_info *t = &u->be->tests[i];
		bool sel = (int)i == u->pk.test;
		int a = sel ? attr_of(f ? EL_SELECTED : EL_MARK) : attr_of(EL_TEXT);

		if (sel && f)
			draw_fill(y, x, w, a);
		draw_textf(y, x, 12, a, "%s %s", sel ? ">" : " ", t->name);
		if (t->writes)
			draw_text(y, x + 12, 7, sel && f ? a : attr_of(EL_WARN), "writes");
		draw_text(y, x + 19, w - 19, a, t->summary ? t->summary : "");
		y++;
	}
}

static void
draw_params(struct ui *u, int y, int x, int w)
{
	bool f = u->pk.focus == PK_PARAMS;

	draw_text(y++, x, w, attr_of(f ? EL_FOCUS : EL_TITLE), "Parameters (Left/Right, Enter: type)");
	for (int i = 0; i < PK_NPARAMS; i++, y++) {
		bool sel = f && i == u->pk.param;

		draw_textf(y, x, 16, attr_of(EL_TEXT), "  %s", params[i].label);
		if (sel && u->pk.edit)
			draw_textf(y, x + 16, w - 16, attr_of(EL_INPUT), " [%s_] %s", u->input, params[i].example);
		else if (u->pk.typed[i][0])
			draw_textf(y, x + 16, w - 16, attr_of(sel ? EL_SELECTED : EL_INPUT), " [%s] ", u->pk.typed[i]);
		else
			draw_textf(y, x + 16, w - 16, attr_of(sel ? EL_SELECTED : EL_INPUT), " < %s > ",
				   params[i].names[u->pk.val[i]]);
	}
}

/* Enter (or a first character) on a field: type its value. */
static void
edit_begin(struct ui *u, int ch)
{
	u->pk.edit = true;
	u->input_len = 0;
	u->input[0] = 0;
	if (ch > 32 && ch < 127) {
		u->input[u->input_len++] = (char)ch;
		u->input[u->input_len] = 0;
	}
	ui_notice(u, EL_OK, "%s: type e.g. %s; Enter sets, Esc keeps it", params[u->pk.param].label,
		  params[u->pk.param].example);
}

int
picker_edit_key(struct ui *u, int ch)
{
	const struct param_def *d = &params[u->pk.param];

	if (ch == KEY_ESC) {
		u->pk.edit = false;
		u->msg[0] = 0;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		struct plan sc;
		char err[256] = "";
		int rc;

		if (!u->input_len) {	/* nothing typed: back to the presets */
			u->pk.typed[u->pk.param][0] = 0;
			u->pk.edit = false;
			u->msg[0] = 0;
			return UI_HANDLED;
		}
		scratch_plan(u, &sc);
		rc = d->opt ? plan_set_option(&sc, d->opt, u->input, err, sizeof(err))
			    : plan_set_options(&sc, u->input, err, sizeof(err));
		plan_free(&sc);
		if (rc < 0 || strlen(u->input) >= sizeof(u->pk.typed[0])) {
			ui_notice(u, EL_FAIL, "%s", err[0] ? err : "too long");
			return UI_HANDLED;	/* stay: fix it or Esc */
		}
		snprintf(u->pk.typed[u->pk.param], sizeof(u->pk.typed[0]), "%.*s", (int)sizeof(u->pk.typed[0]) - 1, u->input);
		u->pk.edit = false;
		ui_notice(u, EL_OK, "%s %s", d->label, u->input);
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (u->input_len)
			u->input[--u->input_len] = 0;
	} else if (ch >= 32 && ch < 127 && u->input_len + 2 < sizeof(u->pk.typed[0])) {
		u->input[u->input_len++] = (char)ch;
		u->input[u->input_len] = 0;
	}
	return UI_HANDLED;
}

static void
draw_targets(struct ui *u, int y, int x, int w, int h)
{
	struct inv_row rows[256];
	size_t n = target_rows(u, rows, 256);
	bool f = u->pk.focus == PK_TARGETS;

	draw_text(y++, x, w, attr_of(f ? EL_FOCUS : EL_TITLE),
		  "Targets (Space: drive or whole controller, c: controller)");
	h--;
	if (u->pk.target >= (int)n)
		u->pk.target = n ? (int)n - 1 : 0;
	if (u->pk.target < u->pk.top)
		u->pk.top = u->pk.target;
	if (u->pk.target >= u->pk.top + h)
		u->pk.top = u->pk.target - h + 1;
	for (int i = 0; i < h && u->pk.top + i < (int)n; i++) {
		const struct inv_row *r = &rows[u->pk.top + i];
		bool sel = f && u->pk.top + i == u->pk.target;
		int a = attr_of(sel ? EL_SELECTED : EL_TEXT);

		if (sel)
			draw_fill(y, x, w, a);
		if (r->drive < 0) {
			bool all = true, any = false;

			for (size_t d = 0; d < u->inv->n_drv; d++)
				if (u->inv->drv[d].controller == r->ctrl) {
					all &= u->pk.drive[d];
					any |= u->pk.drive[d];
				}
			char nm[160];

			short_ctrl_name(r->ctrl >= 0 ? u->inv->ctrl[r->ctrl].name : "other drives", nm, sizeof(nm));
			draw_textf(y, x, w, sel ? a : attr_of(EL_TITLE), "%s %s", all ? "[x]" : any ? "[-]" : "[ ]", nm);
		} else {
			const struct drive *d = &u->inv->drv[r->drive];
			char cap[16] = "?";

			if (d->capacity_bytes.known)
				fmt_bytes(cap, sizeof(cap), (double)d->capacity_bytes.v);
			draw_textf(y, x, w, a, "    %s %-8s %-28.28s %9s%s", sym_check(u, u->pk.drive[r->drive]),
				   d->name, d->model, cap, d->transport == TR_SIM ? "  sim" : "");
		}
		y++;
	}
}

void
panel_picker_draw(struct ui *u, const struct rect *r)
{
	draw_box(u, r, "Test picker", true);
	if (!u->be || !u->be->n_tests)
		return;
	int x = r->x + 2, w = r->w - 4, y = r->y + 1;
	int th = (int)u->be->n_tests + 1;
	bool two = r->w >= 110;

	if (two) {
		/* Tests and parameters side by side, targets beneath. */
		int lw = w * 55 / 100;

		draw_tests(u, y, x, lw - 2, th);
		draw_params(u, y, x + lw, w - lw);
		y += (th > PK_NPARAMS + 1 ? th : PK_NPARAMS + 1) + 1;
	} else {
		draw_tests(u, y, x, w, th);
		y += th + 1;
		draw_params(u, y, x, w);
		y += PK_NPARAMS + 2;
	}
	int left = r->y + r->h - 1 - y - 2;

	if (left >= 2)
		draw_targets(u, y, x, w, left);
	int by = r->y + r->h - 2;
	bool f = u->pk.focus == PK_START;

	draw_text(by, x, 20, attr_of(f ? EL_SELECTED : EL_KEY), "[ Start (Enter) ]");
	draw_text(by, x + 19, w - 19, attr_of(EL_DIM), " Tab: next section   Esc: back");
}

static int
targets_key(struct ui *u, enum action a, int ch)
{
	struct inv_row rows[256];
	size_t n = target_rows(u, rows, 256);

	if (!n)
		return UI_HANDLED;
	const struct inv_row *r = &rows[u->pk.target < (int)n ? u->pk.target : 0];

	switch (a) {
	case ACT_UP:
		if (u->pk.target > 0)
			u->pk.target--;
		break;
	case ACT_DOWN:
		if (u->pk.target + 1 < (int)n)
			u->pk.target++;
		break;
	case ACT_SPACE:
		if (r->drive >= 0) {
			const struct drive *dv = &u->inv->drv[r->drive];
			const char *why;

			if (!u->pk.drive[r->drive] && !drive_testable(dv, &why)) {
				ui_notice(u, EL_WARN, "%s %s%s", dv->name, why,
					  dv->access == ACC_OK || dv->access == ACC_UNCHECKED ?
					  ": reads only, the guard refuses writes" : ": a test cannot use it");
				if (dv->access == ACC_DENIED || dv->access == ACC_GONE)
					break;
			}
			u->pk.drive[r->drive] = !u->pk.drive[r->drive];
			if (!u->pk.drive[r->drive] || u->pk.ctrl != r->ctrl)
				u->pk.ctrl = -1;
		} else if (r->ctrl < 0) {
			ui_notice(u, EL_WARN, "these drives share no controller: choose them one by one");
		} else {
			bool all = true;

			for (size_t d = 0; d < u->inv->n_drv; d++)
				if (u->inv->drv[d].controller == r->ctrl)
					all &= u->pk.drive[d];
			select_ctrl(u, r->ctrl, !all);
		}
		break;
	case ACT_CTRL:
		if (r->ctrl < 0) {
			ui_notice(u, EL_WARN, "these drives share no controller: choose them one by one");
			break;
		}
		memset(u->pk.drive, 0, u->inv->n_drv * sizeof(bool));
		select_ctrl(u, r->ctrl, true);
		break;
	case ACT_ENTER:
		return try_start(u);
	default:
		return 0;
	}
	return UI_HANDLED | UI_REDRAW;
}

int
panel_picker_key(struct ui *u, enum action a, int ch)
{
	if (!u->be || !u->be->n_tests)
		return 0;
	if (a == ACT_TAB || a == ACT_BTAB) {
		u->pk.focus = (u->pk.focus + (a == ACT_TAB ? 1 : PK_NFOCUS - 1)) % PK_NFOCUS;
		return UI_HANDLED | UI_REDRAW;
	}
	switch (u->pk.focus) {
	case PK_TESTS:
		if (a == ACT_UP && u->pk.test > 0) {
			u->pk.test--;
			load_defaults(u);
		} else if (a == ACT_DOWN && u->pk.test + 1 < (int)u->be->n_tests) {
			u->pk.test++;
			load_defaults(u);
		} else if (a == ACT_HOME || a == ACT_END) {
			u->pk.test = a == ACT_HOME ? 0 : (int)u->be->n_tests - 1;
			load_defaults(u);
		} else if (a == ACT_ENTER) {
			/* start at once when targets are chosen; else show where */
			for (size_t d = 0; u->inv && d < u->inv->n_drv; d++)
				if (u->pk.drive[d])
					return try_start(u);
			u->pk.focus = PK_TARGETS;
			ui_notice(u, EL_WARN, "choose a target: Space, then Enter starts");
		} else
			return 0;
		return UI_HANDLED | UI_REDRAW;
	case PK_PARAMS: {
		int *v = &u->pk.val[u->pk.param];

		if (a == ACT_UP && u->pk.param > 0)
			u->pk.param--;
		else if (a == ACT_DOWN && u->pk.param + 1 < PK_NPARAMS)
			u->pk.param++;
		else if (a == ACT_LEFT || a == ACT_RIGHT || a == ACT_SPACE) {
			int n = params[u->pk.param].n;

			if (!u->pk.typed[u->pk.param][0])	/* from a typed value: its preset */
				*v = (*v + (a == ACT_LEFT ? n - 1 : 1)) % n;
			u->pk.typed[u->pk.param][0] = 0;
		} else if (a == ACT_ENTER)
			edit_begin(u, 0);
		else if (a == ACT_NONE && ((ch >= '0' && ch <= '9') || ch == '.'))
			edit_begin(u, ch);
		else
			return 0;
		return UI_HANDLED | UI_REDRAW;
	}
	case PK_TARGETS:
		return targets_key(u, a, ch);
	case PK_START:
		if (a == ACT_ENTER)
			return try_start(u);
		return 0;
	}
	return 0;
}

int
panel_picker_click(struct ui *u, const struct rect *r, int x, int y)
{
	/* Clicking the tests list picks a test; the rest is keyboard-first. */
	int i = y - (r->y + 2);

	if (u->be && i >= 0 && i < (int)u->be->n_tests && x < r->x + r->w * 55 / 100) {
		u->pk.test = i;
		load_defaults(u);
		u->pk.focus = PK_TESTS;
	} else if (y == r->y + r->h - 2 && x < r->x + 22) {
		return try_start(u);
	}
	return UI_HANDLED | UI_REDRAW;
}
