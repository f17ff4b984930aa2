/* dash-outputs.c (cli) - the run's output options (--json, --csv: one per
 * writer) when a test given on the command line opens the dashboard:
 * checked before the dashboard starts, as `run` checks them, and written
 * when that run ends, the document `run` writes. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli/internal.h"
#include "report/writer.h"

int
dash_outputs_check(const struct run_outputs *o, char *err, size_t errlen)
{
	int rc = 0;
	for (size_t i = 0; !rc && i < writer_count && i < WRITER_MAX; i++) {
		char opt[32];
		snprintf(opt, sizeof(opt), "--%s", writer_table[i].name);
		if (o->path[i] && !strcmp(o->path[i], "-")) {
			/* curses draws on stdout: a document there would be torn */
			snprintf(err, errlen, "%s -: the dashboard draws on stdout; name a file, or run "
				 "headless (diskscope run ... %s -)", opt, opt);
			return -EINVAL;
		}
		rc = output_check(o->path[i], opt, err, errlen);
	}
	return rc ? rc : output_check_distinct(o, err, errlen);
}

bool
dash_outputs_any(const struct run_outputs *o)
{
	for (size_t i = 0; i < writer_count && i < WRITER_MAX; i++)
		if (o->path[i])
			return true;
	return false;
}

int
dash_outputs_write(const struct run_result *r, const struct run_outputs *o, char *err, size_t errlen)
{
	int first = 0;
	for (size_t i = 0; i < writer_count && i < WRITER_MAX; i++) {
		if (!o->path[i])
			continue;
		int rc = writer_table[i].write(r, o->path[i]);
		if (rc && !first) {	/* the first failure is the line shown */
			snprintf(err, errlen, "--%s %s: %s", writer_table[i].name, o->path[i], strerror(-rc));
			first = rc;
		}
	}
	return first;
}

void
dash_outputs_failed(const struct plan *p, const struct run_outputs *o, const char *why, bool refused)
{
	/* as run does: every output records that nothing ran, and why (the
	 * guard's rule when it refused) */
	(void)output_failed(p, o, why, false, refused);
}
