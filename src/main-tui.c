/* main-tui.c - the dashboard's backend: the runner behind ui/ui.h's
 * callbacks, and `diskscope show`.  Part of main (the one bridge between
 * src/ and ui/), compiled with it, -Iui. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/options.h"
#include "bench/bench.h"
#include "history/history.h"
#include "inventory/inventory.h"
#include "io/guard.h"
#include "report/doc.h"
#include "report/run.h"
#include "report/writer.h"
#include "run/runner.h"
#include "main-tui.h"
#include "ui.h"
#include "util/util.h"

/* ---- the dashboard's backend: the runner behind ui/ui.h's callbacks ---- */
struct tui_ctx {
	const struct global_opts *g;
	struct runner *r;
	struct plan plan;
	bool have_plan;
	struct plan pending;		/* parsed from the command line: start at once */
	bool have_pending;
	struct run_result res;
	bool have_res;
	struct ui_test_info tests[16];
	struct inventory *inv;		/* the dashboard's, the one the user chooses from */
	int cmdline_exit;		/* the command line's test could not start: as `run` exits */
	/* The command line's --json/--csv: for its own run, written when it
	 * ends (out_rc, out_err: a write that failed, told after curses). */
	struct run_outputs out;
	bool cmdline_run, out_done;
	int out_rc;
	char out_err[512];
};

static void
tui_drop_run(struct tui_ctx *c)
{
	if (c->r) {
		runner_stop(c->r);
		runner_wait(c->r, -1);
		runner_destroy(c->r);
		c->r = NULL;
	}
	if (c->have_res)
		run_result_free(&c->res);
	c->have_res = false;
	if (c->have_plan)
		plan_free(&c->plan);
	c->have_plan = false;
}

/* A confirmation from the inventory the user looked at; the device number
 * is the one its node has now, when the name was typed. */
static int
tui_confirm(struct guard_confirms *l, const struct drive *d, char *err, size_t errlen)
{
	struct guard_confirm c = { .exact = false };
	struct stat st;

	snprintf(c.path, sizeof c.path, "%s", d->path[0] ? d->path : d->name);
	if (stat(c.path, &st) == 0 && S_ISBLK(st.st_mode))
		c.devt = st.st_rdev;
	snprintf(c.serial, sizeof c.serial, "%s", d->serial);
	snprintf(c.wwn, sizeof c.wwn, "%s", d->wwn);
	snprintf(c.backing, sizeof c.backing, "%s", d->backing);
	c.capacity = d->capacity_bytes.known ? d->capacity_bytes.v : 0;
	return guard_confirms_add(l, &c, err, errlen);
}

static const struct run_result *tui_result(void *ctx);

static int
tui_start(void *ctx, const char *test, const char *const *targets, size_t n, const char *words,
	  const struct drive *const *confirmed, size_t n_confirmed, char *err, size_t errlen)
{
	struct tui_ctx *c = ctx;
	const struct bench_test *t = bench_find(test);
	struct plan plan;
	struct runner *r = NULL;
	int rc, bad = -1;

	if (!t) {
		snprintf(err, errlen, "unknown test '%s'", test);
		return -EINVAL;
	}
	if (c->r && !runner_wait(c->r, 0)) {
		snprintf(err, errlen, "a test is running: stop it first (s)");
		return -EBUSY;
	}
	/* The command line's plan (every option it gave, --destroy-data too)
	 * serves the start it asked for, recognised by its own target list;
	 * a later start from the picker parses the picker's words with the
	 * same option table.  Either way plan_make does the rest, as for
	 * `diskscope run`. */
	bool cmdline = c->have_pending && targets == (const char *const *)c->pending.user_targets.v;
	if (cmdline) {
		plan = c->pending;
		c->have_pending = false;
	} else if ((rc = plan_from_words(&plan, t, targets, n, words, err, errlen))) {
		plan_free(&plan);
		return rc;
	}
	/* The typed names: each drive as the inventory showed it (a pending
	 * plan keeps its --destroy-data confirmations). */
	rc = 0;
	for (size_t i = 0; i < n_confirmed && !rc; i++)
		rc = tui_confirm(&plan.topts.confirms, confirmed[i], err, errlen);
	/* The inventory the user chose from names the drives and gives their
	 * identities.  Sim drives run in real time (times --sim-speed); 0
	 * asks for the virtual clock, so a run ends at once and repeats
	 * exactly. */
	if (!rc)
		rc = plan_make(&plan, &(struct plan_env){ .inv = c->inv, .inv_opts = &c->g->inv,
							  .history_rates = cli_history_rates,
							  .sim_speed_set = true, .sim_speed = c->g->sim_speed },
			       err, errlen);
	if (!rc)
		rc = runner_create(&plan, &r, &bad, err, errlen);
	if (rc) {	/* the previous result stays, still shown and exportable */
		if (cmdline) {	/* run's codes: the guard's refusal 3, a bad target 2 */
			c->cmdline_exit = rc == -EPERM && plan.topts.write ? EXIT_REFUSED :
					  rc == -ENOMEM || rc == -EAGAIN ? EXIT_PROBLEMS : EXIT_USAGE;
			dash_outputs_failed(&plan, &c->out, err, c->cmdline_exit == EXIT_REFUSED);
			c->out_done = true;
		}
		plan_free(&plan);
		return rc;
	}
	if (c->cmdline_run && !c->out_done)
		tui_result(c);	/* the command line's run is over: its outputs first */
	tui_drop_run(c);
	c->plan = plan;
	c->have_plan = true;
	c->r = r;
	c->cmdline_run = cmdline;
	if ((rc = runner_start(c->r)) < 0) {
		snprintf(err, errlen, "cannot start: %s", strerror(-rc));
		tui_drop_run(c);
	}
	return rc;
}

static void
tui_stop(void *ctx)
{
	struct tui_ctx *c = ctx;
	if (c->r)
		runner_stop(c->r);
}

static int
tui_snapshot(void *ctx, struct run_snapshot *s)
{
	struct tui_ctx *c = ctx;
	if (!c->r)
		return -ENOENT;
	return runner_snapshot(c->r, s);
}

static const struct run_result *
tui_result(void *ctx)
{
	struct tui_ctx *c = ctx;
	if (!c->r || !runner_wait(c->r, 0))
		return NULL;
	if (!c->have_res && runner_result(c->r, &c->res) == 0) {
		c->have_res = true;
		if (c->cmdline_run && !c->out_done) {	/* the command line's outputs, as run writes them */
			c->out_done = true;
			c->out_rc = dash_outputs_write(&c->res, &c->out, c->out_err, sizeof c->out_err);
		}
		history_record(&c->res, &(struct history_opts){ .quiet = true });	/* a finished dashboard run */
	}
	return c->have_res ? &c->res : NULL;
}

static int
tui_export(void *ctx, const char *fmt, char *out, size_t outlen)
{
	struct tui_ctx *c = ctx;
	const struct run_result *r = tui_result(ctx);
	char stamp[32];
	struct tm tm;
	if (!r)
		return -ENOENT;
	localtime_r(&r->started, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	/* the full path: the notice says where the file went */
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		snprintf(cwd, sizeof cwd, ".");
	snprintf(out, outlen, "%s/diskscope-%s-%s.%s", strcmp(cwd, "/") ? cwd : "", r->test, stamp, fmt);
	(void)c;
	const struct writer *w = writer_find(fmt, NULL);	/* the writer registry */
	return w ? w->write(r, out) : -EINVAL;
}

static const char *
ordinal_suffix(int n)
{
	if (n % 100 >= 11 && n % 100 <= 13)
		return "th";
	return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

/* The details panel's history lines: the drive by serial (else WWN, else
 * name), its last runs and its rate among the drives of its model. */
static size_t
tui_drive_history(void *ctx, const struct drive *d, char (*lines)[128], size_t max)
{
	struct history_drive_summary h;
	char err[256] = "";
	(void)ctx;
	if (!max)
		return 0;
	if (history_off()) {
		snprintf(lines[0], 128, "History: off (--no-history)");
		return 1;
	}
	const char *key = d->serial[0] ? d->serial : d->wwn[0] ? d->wwn : d->name;
	int rc = history_drive_summary(key, &h, err, sizeof err);
	if (rc == -ENOENT) {
		snprintf(lines[0], 128, "History: no run of this drive recorded yet");
		return 1;
	}
	if (rc) {
		snprintf(lines[0], 128, "History: not available (%.100s)", err);
		return 1;
	}
	size_t n = 0;
	if (!h.mbps.known)
		snprintf(lines[n++], 128, "History: no read rate recorded yet");
	else if (!h.percentile.known || h.peers < 1)
		snprintf(lines[n++], 128, "History: reads %.0f MB/s; no other %.40s tested here", h.mbps.v,
			 h.model[0] ? h.model : "drive of its size");
	else {
		int p = (int)lround(h.percentile.v);
		snprintf(lines[n++], 128, "History: reads %.0f MB/s, %d%s percentile of %d %.40s tested here",
			 h.mbps.v, p, ordinal_suffix(p), h.peers, h.model);
	}
	for (size_t i = 0; i < h.n_runs && n < max; i++) {
		const struct history_run_brief *b = &h.runs[i];
		char rate[24];
		known_fmt_dbl(&b->mbps, "%.1f MB/s", "rate unknown", rate, sizeof rate);
		snprintf(lines[n++], 128, "  %s %s %s%s%s", b->date, b->test, rate, b->level > 0 ? " " : "",
			 b->level > 0 ? verdict_level_name((enum verdict_level)b->level) : "");
	}
	return n;
}

static size_t
tui_poll_inventory(void *ctx, struct inventory *inv)
{
	return inventory_poll(inv);
}

int
tui_main(struct global_opts *g, int argc, char **argv, const struct run_result *const *show, size_t n_show)
{
	struct tui_ctx c = { .g = g };
	struct ui_backend be = { .ctx = &c, .tests = c.tests, .start = tui_start, .stop = tui_stop,
				 .snapshot = tui_snapshot, .result = tui_result,
				 .export_result = tui_export, .poll_inventory = tui_poll_inventory,
				 .drive_history = tui_drive_history };
	struct ui_opts uo = { .theme = g->theme, .glyphs = g->glyphs, .frames = g->frames };
	struct inventory inv = { 0 };
	char err[512] = "";
	int rc;

	for (size_t i = 0; i < bench_count && i < ARRAY_SIZE(c.tests); i++) {
		c.tests[i].name = bench_table[i]->name;
		c.tests[i].summary = bench_table[i]->summary;
		c.tests[i].writes = bench_table[i]->writes;
		c.tests[i].defaults = bench_table[i]->defaults;
		be.n_tests++;
	}
	if (argc > 0) {		/* TEST TARGET... [options]: check it all before curses */
		struct run_outputs *out = &c.out;
		rc = plan_parse_args(&c.pending, argc, argv, cli_output_find, out, err, sizeof err);
		if (!rc && !out->help)
			rc = dash_outputs_check(out, err, sizeof err);
		if (rc || out->help) {
			if (out->help)
				run_cli_usage(stdout);
			else
				fprintf(stderr, "diskscope: %s\n", err);
			plan_free(&c.pending);
			return out->help ? 0 : EXIT_USAGE;
		}
		c.have_pending = true;
		uo.start_test = c.pending.test->name;
		uo.start_targets = (const char *const *)c.pending.user_targets.v;
		uo.n_start_targets = c.pending.user_targets.n;
		uo.start_params = &c.pending.params;
	}
	uo.n_show = n_show;
	for (size_t i = 0; i < n_show; i++)
		uo.show[i] = show[i];
	g->inv.ata_async = true;	/* sysfs facts at once, ATA/SMART as they arrive */
	c.inv = &inv;
	if ((rc = cli_scan(&inv, g))) {
		if (c.have_pending)
			plan_free(&c.pending);
		return rc;
	}
	rc = ui_main(&inv, &be, &uo);
	/* Quit while the command line's run went on: it stops, and its
	 * outputs get the partial result, as an interrupted `run` writes. */
	if (c.cmdline_run && !c.out_done && c.r && dash_outputs_any(&c.out)) {
		runner_stop(c.r);
		runner_wait(c.r, -1);
		tui_result(&c);
	}
	if (c.out_rc)
		fprintf(stderr, "diskscope: %s\n", c.out_err);
	/* The last run decides, as it would headless: problems found 1,
	 * stopped before its end 130. */
	if (rc == 0 && n_show == 0) {
		const struct run_result *last = tui_result(&c);
		if (last && last->interrupted)
			rc = EXIT_SIGINT;
		else if (last && run_has_problems(last))
			rc = EXIT_PROBLEMS;
		else if (!last)
			rc = c.cmdline_exit;
	}
	if (c.out_rc)	/* a result not written is never a silent 0 (run: exit 2) */
		rc = EXIT_OUTPUT;
	tui_drop_run(&c);
	if (c.have_pending)
		plan_free(&c.pending);
	inventory_free(&inv);
	return rc;
}

int
tui_show(int argc, char **argv, struct global_opts *g)
{
	struct run_result res[2];
	const struct run_result *ptr[2];
	char err[512];
	int n = 0, rc;

	if (argc < 2 || argc > 3 || argv[1][0] == '-') {
		fprintf(stderr, "usage: diskscope show RESULT.json [RESULT2.json]\n");
		return (argc == 2 && strcmp(argv[1], "--help") == 0) ? 0 : EXIT_USAGE;
	}
	for (int i = 1; i < argc; i++) {
		memset(&res[n], 0, sizeof res[n]);
		if ((rc = run_json_load(argv[i], &res[n], err, sizeof err)) < 0) {
			fprintf(stderr, "diskscope: %s\n", err[0] ? err : strerror(-rc));
			while (n > 0)
				run_result_free(&res[--n]);
			return EXIT_USAGE;
		}
		ptr[n] = &res[n];
		n++;
	}
	rc = tui_main(g, 0, NULL, ptr, (size_t)n);
	while (n > 0)
		run_result_free(&res[--n]);
	return rc;
}

