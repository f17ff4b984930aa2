/* main-tui.h - the dashboard side of main (main-tui.c). */
#ifndef DS_MAIN_TUI_H
#define DS_MAIN_TUI_H
#include <stddef.h>
#include "cli/cli.h"

struct run_result;
/* The dashboard: argv = TEST TARGET... [options] to start at once (argc 0:
 * none); show: saved results to display instead.  An exit code. */
int tui_main(struct global_opts *g, int argc, char **argv, const struct run_result *const *show,
	     size_t n_show);
/* `diskscope show RESULT.json [RESULT2.json]`.  An exit code. */
int tui_show(int argc, char **argv, struct global_opts *g);
#endif
