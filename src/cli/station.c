/* station.c (cli) - `diskscope station [PROFILE] --headless [options]`:
 * argv into station_opts; the station itself is src/station/. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/internal.h"
#include "run/test.h"
#include "station/station.h"

static void
station_usage(FILE *f)
{
	fprintf(f,
	    "usage: diskscope station [PROFILE] --headless [options]   test each drive as it is plugged in\n"
	    "  PROFILE                  a profile (default quick-check; --list-profiles)\n"
	    "  --headless               no board: one JSON line per event (stdout or --events)\n"
	    "  --events FILE            append the events to FILE instead of stdout\n"
	    "  --slots FILE             the bays: slots.ini (label -> port, by-path or pattern)\n"
	    "  --profiles FILE          more profiles (after the built-in and installed ones)\n"
	    "  --out DIR                results by serial under DIR (default ./station)\n"
	    "  --io-timeout DURATION    a drive without progress this long is hung (default 30s)\n"
	    "  --max-per-controller N   jobs at once per controller (default no limit)\n"
	    "  --stagger DURATION       at least this between two starts (default 0)\n"
	    "  --quit-timeout DURATION  quitting waits at most this for the drives (default 5s)\n"
	    "  --list-profiles          the profiles found, then exit\n");
}

static int
station_duration(const char *opt, const char *v, double *out)
{
	if (!v || parse_seconds(v, out) || !(*out >= 0)) {
		fprintf(stderr, "diskscope: %s %s: a duration (30s, 2m)\n", opt, v ? v : "");
		return -EINVAL;
	}
	return 0;
}

static int
station_args(int argc, char **argv, struct station_opts *o, bool *headless, bool *list)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int rc = 0, used = 1;
		if (!strcmp(a, "--headless")) {
			*headless = true;
			used = 0;
		} else if (!strcmp(a, "--list-profiles")) {
			*list = true;
			used = 0;
		} else if (!strcmp(a, "--events")) {
			o->events = v;
		} else if (!strcmp(a, "--slots")) {
			o->slots_file = v;
		} else if (!strcmp(a, "--profiles")) {
			o->profiles_file = v;
		} else if (!strcmp(a, "--out")) {
			o->out_dir = v;
		} else if (!strcmp(a, "--io-timeout")) {
			rc = station_duration(a, v, &o->io_timeout_s);
		} else if (!strcmp(a, "--stagger")) {
			rc = station_duration(a, v, &o->stagger_s);
		} else if (!strcmp(a, "--quit-timeout")) {
			rc = station_duration(a, v, &o->quit_s);
		} else if (!strcmp(a, "--max-per-controller")) {
			char *end = NULL;
			long n = v ? strtol(v, &end, 10) : -1;
			if (!v || *end || n < 0 || n > 1024) {
				fprintf(stderr, "diskscope: --max-per-controller %s: a count 0 .. 1024\n", v ? v : "");
				rc = -EINVAL;
			}
			o->max_per_ctrl = (unsigned)(n > 0 ? n : 0);
		} else if (a[0] != '-' && !o->profile) {
			o->profile = a;
			used = 0;
		} else {
			fprintf(stderr, "diskscope: station: unknown option '%s' (station --help)\n", a);
			return -EINVAL;
		}
		if (used && !v) {
			fprintf(stderr, "diskscope: %s needs a value\n", a);
			return -EINVAL;
		}
		if (rc)
			return rc;
		i += used;
	}
	if (o->io_timeout_s <= 0) {
		fprintf(stderr, "diskscope: --io-timeout: more than 0\n");
		return -EINVAL;
	}
	return 0;
}

int
station_cli(int argc, char **argv, struct global_opts *g)
{
	struct station_opts o;
	bool headless = false, list = false;
	char err[512] = "";
	station_opts_default(&o);
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			station_usage(stdout);
			return EXIT_OK_;
		}
	if (station_args(argc, argv, &o, &headless, &list))
		return EXIT_USAGE;
	if (list) {
		if (station_list_profiles(o.profiles_file, stdout, err, sizeof(err))) {
			fprintf(stderr, "diskscope: %s\n", err);
			return EXIT_USAGE;
		}
		return EXIT_OK_;
	}
	if (!headless) {
		fprintf(stderr, "diskscope: station: the board is not built yet: use --headless\n");
		return EXIT_USAGE;
	}
	o.inv = &g->inv;
	o.history_rates = cli_history_rates;
	o.stop_requested = signals_caught;
	struct sig_saved saved;
	signals_take(&saved);
	int rc = station_run(&o, err, sizeof(err));
	int sig = signals_caught();
	signals_restore(&saved);
	if (rc) {
		fprintf(stderr, "diskscope: station: %s\n", err);
		return rc == -ENOENT || rc == -EINVAL ? EXIT_USAGE : EXIT_PROBLEMS;
	}
	return sig ? 128 + sig : EXIT_OK_;
}
