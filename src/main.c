/* main.c - dispatch: tui | list | run | show | estimate | a test, after the global options
 * (cli/globals.c).  main.c and main-tui.c are the only files that know both
 * the core (src/) and the dashboard (ui/): the part main of tools/layers.txt. */
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "bench/bench.h"
#include "main-tui.h"
#include "history/history.h"
#include "run/worker.h"
#include "theme.h"
#include "util/util.h"

/* ---- commands: a table, as tmux's cmd_table ---- */

static int
cmd_run(int argc, char **argv, struct global_opts *g)
{
	return run_cli(argc, argv, g);
}

struct command {
	const char *name;
	int (*fn)(int argc, char **argv, struct global_opts *g);
};

static int
cmd_history(int argc, char **argv, struct global_opts *g)
{
	(void)g;
	return history_cli(argc, argv);
}

static const struct command commands[] = {
	{ "list", cli_list },
	{ "run", cmd_run },
	{ "show", tui_show },
	{ "estimate", cli_estimate },
	{ "history", cmd_history },
	{ "report", report_cli },
	{ "station", station_cli },
};

int
main(int argc, char **argv)
{
	struct global_opts g = { .sim_speed = 1.0 };

	setlocale(LC_ALL, "");
	worker_watch_pauses();	/* before any thread: SIGCONT blocked in all of them */
	inventory_opts_default(&g.inv);
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("diskscope %s\n", DS_VERSION);
		return 0;
	}
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		globals_usage(stdout);
		return 0;
	}
	history_use_registry(bench_flags_of);	/* the history files runs by their test's flags */
	argc = globals_extract(argc, argv, &g);
	if (argc >= 0)
		argc = history_take_args(argc, argv);	/* --db, --no-history */
	if (argc < 0)
		return EXIT_USAGE;
	if (globals_load_sim(&g))
		return EXIT_USAGE;
	if (argc >= 2 && (strcmp(argv[1], "--check-model") == 0 || strcmp(argv[1], "--check-theme") == 0)) {
		char err[512] = "";
		bool model = strcmp(argv[1], "--check-model") == 0;
		if (argc != 3) {
			fprintf(stderr, "usage: diskscope %s FILE\n", argv[1]);
			return EXIT_USAGE;
		}
		int rc = model ? globals_check_model(argv[2], err, sizeof err)
			       : theme_check_file(argv[2], err, sizeof err);
		if (rc) {
			fprintf(stderr, "%s\n", err[0] ? err : strerror(-rc));
			return EXIT_USAGE;
		}
		printf("%s: ok\n", argv[2]);
		return 0;
	}
	if (argc < 2)
		return tui_main(&g, 0, NULL, NULL, 0);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1, &g);
	const struct bench_test *bt = argv[1][0] != '-' ? bench_find(argv[1]) : NULL;
	/* a test that is also a command (bench_test.command) runs headless in a
	 * script; any test named here starts the dashboard in a terminal */
	if (bt && bt->command && !(isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)))
		return run_cli(argc - 1, argv + 1, &g);
	if (bt)
		return tui_main(&g, argc - 1, argv + 1, NULL, 0);
	fprintf(stderr, "diskscope: unknown command or test '%s' (try --help)\n", argv[1]);
	return EXIT_USAGE;
}
