/* internal.h (cli) - the pieces `diskscope run` is made of: signals,
 * the progress line, the outputs.  Not for other folders. */
#ifndef DS_CLI_INTERNAL_H
#define DS_CLI_INTERNAL_H
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "cli/options.h"
#include "run/runner.h"

/* signals.c: SIGINT/SIGTERM/SIGHUP end a run alike (caught, see
 * signals_caught); SIGPIPE, SIGUSR1, SIGUSR2 are ignored while it runs. */
struct sig_saved {
	struct sigaction stop[3], quiet[3];
};
void signals_take(struct sig_saved *sv);
void signals_restore(const struct sig_saved *sv);
/* The stopping signal seen since signals_take, or 0. */
int signals_caught(void);

/* progress.c: the progress line on stderr; final clears it. */
void progress_line(const struct run_snapshot *s, bool final);

/* output.c: an output file must be writable (or new) before a long run;
 * two writers must not share one file.  0 or -errno + err. */
int output_check(const char *path, const char *opt, char *err, size_t errlen);
int output_check_distinct(const struct run_outputs *out, char *err, size_t errlen);
/* Every output asked for (--json, --csv, --text) of a run that could not
 * start, and why: failed true; refused: the guard's rule and sentence.
 * 0 or the last writer's -errno (said on stderr). */
int output_failed(const struct plan *p, const struct run_outputs *out, const char *why, bool interrupted,
		  bool refused);
#endif
