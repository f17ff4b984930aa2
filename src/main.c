/* main.c - argument parsing and dispatch: tui | list | run | show.  The only
 * file that knows both the core (src/) and the dashboard (ui/). */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include "cli.h"
#include "bench/bench.h"
#include "inventory/inventory.h"
#include "io/guard.h"
#include "report/doc.h"
#include "report/estimate.h"
#include "report/run.h"
#include "report/writer.h"
#include "report/text.h"
#include "run/cli.h"
#include "run/runner.h"
#include "sim/sim.h"
#include "theme.h"
#include "ui.h"

/* ---- global options: a table drives parsing and help (tmux style) ---- */
struct gopt {
	const char *name;
	bool has_arg;
	const char *arg;
	const char *help;
	int (*set)(struct global_opts *g, const char *v);
};

static int
parse_double(const char *v, double *out)
{
	return str_to_double(v, out, NULL);	/* refuses NaN and infinities */
}

static int set_demo(struct global_opts *g, const char *v) { g->demo = true; g->inv.demo = true; return 0; }
static int set_rig(struct global_opts *g, const char *v) { g->rig = v; g->inv.demo_rig = v; g->demo = g->inv.demo = true; return 0; }
static int set_theme(struct global_opts *g, const char *v) { g->theme = v; return 0; }
static int set_sysfs(struct global_opts *g, const char *v) { g->inv.sysfs_root = v; return 0; }
static int set_pcidump(struct global_opts *g, const char *v) { g->inv.pci_dump = v; return 0; }
static int set_saveblobs(struct global_opts *g, const char *v) { g->inv.save_blobs = v; return 0; }
static int set_noata(struct global_opts *g, const char *v) { g->inv.no_ata = true; return 0; }

static int
set_glyphs(struct global_opts *g, const char *v)
{
	if (strcmp(v, "braille") && strcmp(v, "block") && strcmp(v, "ascii"))
		return -EINVAL;
	g->glyphs = v;
	return 0;
}

static int
set_simmodel(struct global_opts *g, const char *v)
{
	if (g->n_sim_models >= ARRAY_SIZE(g->sim_models))
		return -E2BIG;
	g->sim_models[g->n_sim_models++] = v;
	return 0;
}

static int
set_simspeed(struct global_opts *g, const char *v)
{
	if (parse_double(v, &g->sim_speed) || g->sim_speed < 0 || g->sim_speed > 1e6)
		return -EINVAL;
	/* a crawling clock looks like a hang: 0 (virtual time) or at least 0.01 */
	if (g->sim_speed > 0 && g->sim_speed < 0.01) {
		fprintf(stderr, "diskscope: --sim-speed %s: 0 (virtual time) or 0.01 .. 1000000\n", v);
		return -ECANCELED;
	}
	return 0;
}

static int
set_frames(struct global_opts *g, const char *v)
{
	char *end;
	g->frames = strtol(v, &end, 10);
	return (*end || g->frames <= 0) ? -EINVAL : 0;
}

static int
set_atatimeout(struct global_opts *g, const char *v)
{
	double s;
	if (parse_double(v, &s) || s <= 0 || s > 600)
		return -EINVAL;
	if (s < 0.01) {	/* would round to 0 ms, which means "the default" */
		fprintf(stderr, "diskscope: --ata-timeout %s: 0.01 .. 600 seconds\n", v);
		return -ECANCELED;
	}
	g->inv.ata_timeout_ms = (unsigned)(s * 1000);
	return 0;
}

static int
set_blob(struct global_opts *g, const char *v)
{
	const char *eq = strchr(v, '=');
	size_t i = g->inv.n_blobs;
	if (!eq || eq == v || !eq[1])
		return -EINVAL;
	if (i >= ARRAY_SIZE(g->blobs)) {
		fprintf(stderr, "diskscope: --ata-blob %s: at most %zu --ata-blob options\n", v,
			ARRAY_SIZE(g->blobs));
		return -ECANCELED;
	}
	for (size_t k = 0; k < i; k++)
		if (strlen(g->blobs[k].name) == (size_t)(eq - v) &&
		    strncmp(g->blobs[k].name, v, (size_t)(eq - v)) == 0) {
			fprintf(stderr, "diskscope: --ata-blob %s: drive %s already has a blob (%s)\n",
				v, g->blobs[k].name, g->blobs[k].file);
			return -ECANCELED;
		}
	if ((size_t)(eq - v) >= sizeof g->blobs[i].name || strlen(eq + 1) >= sizeof g->blobs[i].file)
		return -ENAMETOOLONG;
	memcpy(g->blobs[i].name, v, (size_t)(eq - v));
	g->blobs[i].name[eq - v] = '\0';
	strcpy(g->blobs[i].file, eq + 1);
	g->inv.blobs = g->blobs;
	g->inv.n_blobs = i + 1;
	return 0;
}

static const struct gopt gopts[] = {
	{ "--demo", false, NULL, "add the simulated demo rig (seed-bench.rig)", set_demo },
	{ "--rig", true, "FILE", "use this rig file for --demo", set_rig },
	{ "--sim-model", true, "FILE", "load an extra sim drive/controller model", set_simmodel },
	{ "--sim-speed", true, "N", "dashboard: sim drives N times real time; 0 = virtual time", set_simspeed },
	{ "--theme", true, "NAME|FILE", "dashboard colour theme", set_theme },
	{ "--glyphs", true, "braille|block|ascii", "plot glyphs (default: from locale and TERM)", set_glyphs },
	{ "--frames", true, "N", "exit the dashboard after N frames", set_frames },
	{ "--sysfs-root", true, "DIR", "read block devices from DIR instead of /sys", set_sysfs },
	{ "--pci-dump", true, "FILE", "read PCI devices from a libpci dump (lspci -xxx output)", set_pcidump },
	{ "--ata-blob", true, "NAME=FILE", "decode a saved ATA blob (skdump --save) as drive NAME", set_blob },
	{ "--save-blobs", true, "DIR", "write each ATA drive's IDENTIFY/SMART blob to DIR", set_saveblobs },
	{ "--no-ata", false, NULL, "skip ATA IDENTIFY/SMART queries", set_noata },
	{ "--ata-timeout", true, "SECONDS", "bound for each drive's ATA query (default 5)", set_atatimeout },
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: diskscope [GLOBAL...] [TEST TARGET... [OPTIONS]]   the dashboard\n"
	    "       diskscope [GLOBAL...] list [--json] [--strict]   the bench inventory\n"
	    "       diskscope [GLOBAL...] run TEST TARGET... [OPTIONS] headless test (run --help)\n"
	    "       diskscope show RESULT.json [RESULT2.json]          a saved run in the dashboard\n"
	    "       diskscope estimate RESULT.json [--layout L] [--drives N]  the array estimate (no I/O)\n"
	    "       diskscope --check-model FILE | --check-theme FILE | --version | --help\n"
	    "global options:\n");
	for (size_t i = 0; i < ARRAY_SIZE(gopts); i++) {
		char left[48];
		snprintf(left, sizeof left, "%s%s%s", gopts[i].name, gopts[i].arg ? " " : "",
			 gopts[i].arg ? gopts[i].arg : "");
		fprintf(f, "  %-26s %s\n", left, gopts[i].help);
	}
	fprintf(f, "exit: 0 ok, 1 problems found, 2 usage, 3 refused by the write guard, "
		   "130/143 interrupted\n");
}

/* Take global options out of argv wherever they stand (before `--` only);
 * the rest is compacted in place.  Returns the new argc or -1 (message printed). */
static int
globals_extract(int argc, char **argv, struct global_opts *g)
{
	int out = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		const struct gopt *o = NULL;
		if (strcmp(a, "--") == 0) {
			while (i < argc)
				argv[out++] = argv[i++];
			break;
		}
		for (size_t k = 0; k < ARRAY_SIZE(gopts); k++) {
			size_t n = strlen(gopts[k].name);
			if (strncmp(a, gopts[k].name, n) == 0 && (a[n] == '\0' || (a[n] == '=' && gopts[k].has_arg))) {
				o = &gopts[k];
				val = a[n] == '=' ? a + n + 1 : NULL;
				break;
			}
		}
		if (!o) {
			argv[out++] = argv[i];
			continue;
		}
		if (o->has_arg && !val) {
			if (i + 1 >= argc) {
				fprintf(stderr, "diskscope: %s needs %s\n", o->name, o->arg);
				return -1;
			}
			val = argv[++i];
		}
		int rc = o->set(g, val);
		if (rc == -ECANCELED)	/* the setter said why */
			return -1;
		if (rc) {
			fprintf(stderr, "diskscope: %s: bad value '%s' (%s%s)\n", o->name, val ? val : "",
				rc == -EINVAL ? "expected " : strerror(-rc), rc == -EINVAL ? o->arg : "");
			return -1;
		}
	}
	argv[out] = NULL;
	g->inv.sim_models = g->sim_models;
	g->inv.n_sim_models = g->n_sim_models;
	return out;
}

/* ---- commands ---- */
static int
scan(struct inventory *inv, const struct global_opts *g)
{
	int rc = inventory_scan(inv, &g->inv);
	if (rc) {
		fprintf(stderr, "diskscope: %s\n", inv->error[0] ? inv->error : strerror(-rc));
		inventory_free(inv);
		return EXIT_USAGE;
	}
	return 0;
}

static int
cmd_list(int argc, char **argv, struct global_opts *g)
{
	bool json = false, strict = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else if (strcmp(argv[i], "--strict") == 0)
			strict = true;
		else if (strcmp(argv[i], "--help") == 0) {
			printf("usage: diskscope [GLOBAL...] list [--json] [--strict]\n");
			return 0;
		} else {
			fprintf(stderr, "diskscope: list: unknown option '%s'\n", argv[i]);
			return EXIT_USAGE;
		}
	}
	struct inventory inv = { 0 };
	int rc = scan(&inv, g);
	if (rc)
		return rc;
	if (json) {
		struct json_object *doc = doc_new();
		if (!doc) {
			inventory_free(&inv);
			return EXIT_PROBLEMS;
		}
		json_object_object_add(doc, "inventory", doc_inventory(&inv));
		rc = doc_write(doc, "-");
		json_object_put(doc);
	} else {
		inventory_print(stdout, &inv);
		rc = doc_flush(stdout);		/* > /dev/full: say so, never exit 0 */
		/* what could not be read, and why: diagnostics, not table rows */
		for (size_t i = 0; i < inv.notes.n; i++)
			fprintf(stderr, "diskscope: note: %s\n", inv.notes.v[i]);
	}
	bool incomplete = inv.incomplete;
	inventory_free(&inv);
	if (rc) {
		fprintf(stderr, "diskscope: list: writing to stdout: %s\n", strerror(-rc));
		return EXIT_OUTPUT;
	}
	return (strict && incomplete) ? EXIT_PROBLEMS : 0;
}


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
	int cmdline_exit;		/* the command line's test could not start: as `run` exits */
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

static int
tui_start(void *ctx, const char *test, const char *const *targets, size_t n,
	  const struct run_params *params, const struct drive *const *confirmed, size_t n_confirmed,
	  char *err, size_t errlen)
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
	 * a later start from the picker uses what the picker chose. */
	bool cmdline = c->have_pending && targets == (const char *const *)c->pending.user_targets.v;
	if (cmdline) {
		plan = c->pending;
		c->have_pending = false;
	} else {
		plan_init(&plan, t);
		for (size_t i = 0; i < n; i++)
			if (strlist_add(&plan.user_targets, targets[i])) {
				plan_free(&plan);
				return -ENOMEM;
			}
		if (params) {	/* the picker's form (it starts from the test's defaults) */
			struct run_params *pp = &plan.params;
			pp->bs = params->bs ? params->bs : pp->bs;
			pp->qd = params->qd ? params->qd : pp->qd;
			if (params->seconds > 0)
				pp->seconds = params->seconds;
			if (params->region_lba) {
				plan.region_lba = pp->region_lba = true;
				plan.region_lba_start = pp->region_lba_start = params->region_lba_start;
				plan.region_lba_end = pp->region_lba_end = params->region_lba_end;
			} else if (params->region_end > params->region_start) {
				pp->region_start = params->region_start;
				pp->region_end = params->region_end;
			}
			if (params->data[0] && data_mode_parse(params->data, &plan.data) == 0)
				snprintf(pp->data, sizeof pp->data, "%s", data_mode_name(plan.data));
			if (params->pattern[0] && offsets_parse_pattern(params->pattern, &plan.pat) == 0) {
				snprintf(pp->pattern, sizeof pp->pattern, "%s", params->pattern);
				plan.set_pattern = true;
			}
			plan.set_bs = plan.set_qd = true;
			plan.set_time = params->seconds > 0;
		}
	}
	/* The typed names: each drive as the inventory showed it (a pending
	 * plan keeps its --destroy-data confirmations). */
	rc = 0;
	for (size_t i = 0; i < n_confirmed && !rc; i++)
		rc = tui_confirm(&plan.topts.confirms, confirmed[i], err, errlen);
	if (rc) {
		plan_free(&plan);
		return rc;
	}
	rc = plan_resolve_targets(&plan, c->g, err, errlen);
	if (!rc)
		rc = plan_build(&plan, err, errlen);
	if (!rc)
		rc = runner_create(&plan, &r, &bad, err, errlen);
	if (rc) {	/* the previous result stays, still shown and exportable */
		if (cmdline)	/* run's codes: the guard's refusal 3, a bad target 2 */
			c->cmdline_exit = rc == -EPERM && plan.topts.write ? EXIT_REFUSED :
					  rc == -ENOMEM || rc == -EAGAIN ? EXIT_PROBLEMS : EXIT_USAGE;
		plan_free(&plan);
		return rc;
	}
	tui_drop_run(c);
	c->plan = plan;
	c->have_plan = true;
	c->r = r;
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
	if (!c->have_res && runner_result(c->r, &c->res) == 0)
		c->have_res = true;
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
	snprintf(out, outlen, "diskscope-%s-%s.%s", r->test, stamp, fmt);
	(void)c;
	const struct writer *w = writer_find(fmt, NULL);	/* the writer registry */
	return w ? w->write(r, out) : -EINVAL;
}

static size_t
tui_poll_inventory(void *ctx, struct inventory *inv)
{
	return inventory_poll(inv);
}

static int
tui(struct global_opts *g, int argc, char **argv, const struct run_result *const *show, size_t n_show)
{
	struct tui_ctx c = { .g = g };
	struct ui_backend be = { .ctx = &c, .tests = c.tests, .start = tui_start, .stop = tui_stop,
				 .snapshot = tui_snapshot, .result = tui_result,
				 .export_result = tui_export, .poll_inventory = tui_poll_inventory };
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
		struct run_outputs out;
		rc = plan_parse_args(&c.pending, argc, argv, &out, err, sizeof err);
		if (rc || out.help) {
			if (out.help)
				run_cli_usage(stdout);
			else
				fprintf(stderr, "diskscope: %s\n", err);
			plan_free(&c.pending);
			return out.help ? 0 : EXIT_USAGE;
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
	if ((rc = scan(&inv, g))) {
		if (c.have_pending)
			plan_free(&c.pending);
		return rc;
	}
	/* The dashboard runs sim drives in real time (times --sim-speed); 0 asks
	 * for the virtual clock, so a run ends at once and repeats exactly. */
	sim_set_clock(g->sim_speed == 0, g->sim_speed > 0 ? g->sim_speed : 1);
	rc = ui_main(&inv, &be, &uo);
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
	tui_drop_run(&c);
	if (c.have_pending)
		plan_free(&c.pending);
	inventory_free(&inv);
	return rc;
}

static int
cmd_run(int argc, char **argv, struct global_opts *g)
{
	return run_cli(argc, argv, g);
}

/* `diskscope triage`: the dashboard in a terminal, headless in a script. */
static int
cmd_triage(int argc, char **argv, struct global_opts *g)
{
	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
		return tui(g, argc, argv, NULL, 0);
	return run_cli(argc, argv, g);
}

static int
cmd_show(int argc, char **argv, struct global_opts *g)
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
	rc = tui(g, 0, NULL, ptr, (size_t)n);
	while (n > 0)
		run_result_free(&res[--n]);
	return rc;
}

static int
cmd_estimate(int argc, char **argv, struct global_opts *g)
{
	(void)g;
	return estimate_cli(argc, argv);
}

struct command {
	const char *name;
	int (*fn)(int argc, char **argv, struct global_opts *g);
};

static const struct command commands[] = {
	{ "list", cmd_list },
	{ "run", cmd_run },
	{ "show", cmd_show },
	{ "estimate", cmd_estimate },
	{ "triage", cmd_triage },
};

int
main(int argc, char **argv)
{
	struct global_opts g = { .sim_speed = 1.0 };

	setlocale(LC_ALL, "");
	inventory_opts_default(&g.inv);
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("diskscope %s\n", DS_VERSION);
		return 0;
	}
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	argc = globals_extract(argc, argv, &g);
	if (argc < 0)
		return EXIT_USAGE;
	if (g.n_sim_models || g.rig) {	/* sim:MODEL targets need them without --demo too */
		char err[512] = "";
		int rc = g.n_sim_models ? sim_load_models(g.sim_models, g.n_sim_models, err, sizeof err) : 0;
		if (!rc && g.rig)
			rc = sim_use_rig(g.rig, err, sizeof err);
		if (rc) {
			fprintf(stderr, "diskscope: %s\n", err[0] ? err : strerror(-rc));
			return EXIT_USAGE;
		}
	}
	if (argc >= 2 && (strcmp(argv[1], "--check-model") == 0 || strcmp(argv[1], "--check-theme") == 0)) {
		char err[512] = "";
		bool model = strcmp(argv[1], "--check-model") == 0;
		if (argc != 3) {
			fprintf(stderr, "usage: diskscope %s FILE\n", argv[1]);
			return EXIT_USAGE;
		}
		int rc = model ? sim_check_file(argv[2], err, sizeof err)
			       : theme_check_file(argv[2], err, sizeof err);
		if (rc) {
			fprintf(stderr, "%s\n", err[0] ? err : strerror(-rc));
			return EXIT_USAGE;
		}
		printf("%s: ok\n", argv[2]);
		return 0;
	}
	if (argc < 2)
		return tui(&g, 0, NULL, NULL, 0);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1, &g);
	if (argv[1][0] != '-' && bench_find(argv[1]))
		return tui(&g, argc - 1, argv + 1, NULL, 0);
	fprintf(stderr, "diskscope: unknown command or test '%s' (try --help)\n", argv[1]);
	return EXIT_USAGE;
}
