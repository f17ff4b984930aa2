/* globals.c - the options before (or around) the command word, shared by
 * every command: a table drives parsing and help (tmux style). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "sim/sim.h"
#include "util/util.h"

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
	g->sim_speed_set = true;
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
	{ "--sim-speed", true, "N", "sim drives N times real time (headless: virtual time unless given); 0 = virtual time", set_simspeed },
	{ "--theme", true, "NAME|FILE", "dashboard colour theme", set_theme },
	{ "--glyphs", true, "braille|block|ascii", "plot glyphs (default: from locale and TERM)", set_glyphs },
	{ "--frames", true, "N", "exit the dashboard after N frames", set_frames },
	{ "--sysfs-root", true, "DIR", "read block devices from DIR instead of /sys", set_sysfs },
	{ "--pci-dump", true, "FILE", "read PCI devices from a libpci dump (lspci -xxx output)", set_pcidump },
	{ "--ata-blob", true, "NAME=FILE", "decode a saved ATA blob (skdump --save) as drive NAME", set_blob },
	{ "--save-blobs", true, "DIR", "write each ATA drive's IDENTIFY/SMART blob (NVMe: its pages) to DIR", set_saveblobs },
	{ "--no-ata", false, NULL, "skip ATA IDENTIFY/SMART and NVMe queries", set_noata },
	{ "--ata-timeout", true, "SECONDS", "bound for each drive's ATA query (default 5)", set_atatimeout },
};

/* The whole usage text: the commands, then the global options from the table. */
void
globals_usage(FILE *f)
{
	fprintf(f,
	    "usage: diskscope [GLOBAL...] [TEST TARGET... [OPTIONS]]   the dashboard\n"
	    "       diskscope [GLOBAL...] list [--json] [--strict]   the bench inventory\n"
	    "       diskscope [GLOBAL...] run TEST TARGET... [OPTIONS] headless test (run --help)\n"
	    "       diskscope show RESULT.json [RESULT2.json]          a saved run in the dashboard\n"
	    "       diskscope [GLOBAL...] triage TARGET... [OPTIONS]  every drive, one verdict each\n"
	    "       diskscope [GLOBAL...] selftest TARGET... [--kind short|long]  the drives' own self-tests\n"
	    "       diskscope estimate RESULT.json [--layout L] [--drives N]  the array estimate (no I/O)\n"
	    "       diskscope history [DRIVE|--model M|--since DATE] [--json] [--csv FILE]  the bench history\n"
	    "       diskscope report RESULT.json|RUN-ID... [--batch DATE] [--title TEXT] [-o FILE.html|-]\n"
	    "                                                   an HTML report (printable)\n"
	    "       diskscope [GLOBAL...] station [PROFILE] --headless  test drives as they are plugged in\n"
	    "       diskscope --check-model FILE | --check-theme FILE | --version | --help\n"
	    "global options:\n");
	for (size_t i = 0; i < ARRAY_SIZE(gopts); i++) {
		char left[48];
		snprintf(left, sizeof left, "%s%s%s", gopts[i].name, gopts[i].arg ? " " : "",
			 gopts[i].arg ? gopts[i].arg : "");
		fprintf(f, "  %-26s %s\n", left, gopts[i].help);
	}
	fprintf(f, "exit: 0 ok, 1 problems found, 2 usage, 3 refused by the write guard, "
		   "128+signal interrupted\n");
}

/* Take global options out of argv wherever they stand (before `--` only);
 * the rest is compacted in place.  Returns the new argc or -1 (message printed). */
int
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
	g->inv.extra_drives = sim_inventory_source;	/* the inventory does not know sim */
	return out;
}


int
globals_load_sim(const struct global_opts *g)
{
	char err[512] = "";
	int rc = g->n_sim_models ? sim_load_models(g->sim_models, g->n_sim_models, err, sizeof err) : 0;
	if (!rc && g->rig)
		rc = sim_use_rig(g->rig, err, sizeof err);
	if (rc)
		fprintf(stderr, "diskscope: %s\n", err[0] ? err : strerror(-rc));
	return rc;
}

int
globals_check_model(const char *file, char *err, size_t errlen)
{
	return sim_check_file(file, err, errlen);
}
