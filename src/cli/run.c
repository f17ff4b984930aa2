/* run.c - the headless `diskscope run`: options (bench/plan-options.c), the plan
 * (run/plan-build.c, as the dashboard makes it), signals, the progress
 * line, and the result on stdout / --json / --csv. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "history/history.h"
#include "cli/internal.h"
#include "cli/options.h"
#include "report/doc.h"
#include "report/run.h"
#include "report/writer.h"
#include "util/util.h"

/* Errors, a failed link check (verdicts that are a problem whatever their
 * level), a target that measured nothing: exit 1. */
bool
run_has_problems(const struct run_result *r)
{
	for (size_t i = 0; i < r->n_verdicts; i++)
		if (r->verdicts[i].problem || r->verdicts[i].level == VL_FAIL)
			return true;
	for (size_t k = 0; k < r->n_solo; k++)
		if (r->solo[k].err.count || r->solo[k].note[0])
			return true;
	for (size_t s = 0; s < r->n_steps; s++)
		for (size_t k = 0; k < r->steps[s].n_res; k++)
			if (r->steps[s].res[k].err.count || r->steps[s].res[k].note[0] ||
			    (r->steps[s].res[k].seconds <= 0 && !r->steps[s].own))
				return true;
	return r->n_steps == 0 || r->failed;
}

/* argv to a plan, its outputs checked: 0, 1 (--help printed) or the exit code. */
static int
run_plan(struct plan *p, struct run_outputs *out, int argc, char **argv, const struct global_opts *g)
{
	char err[512] = "";
	int rc = plan_parse_args(p, argc, argv, cli_output_find, out, err, sizeof(err));
	if (!rc && out->help) {
		options_usage(stdout, p->test);
		plan_free(p);
		return 1;
	}
	for (size_t i = 0; !rc && i < writer_count && i < WRITER_MAX; i++) {
		char opt[32];
		snprintf(opt, sizeof(opt), "--%s", writer_table[i].name);
		rc = output_check(out->path[i], opt, err, sizeof(err));
	}
	if (!rc)
		rc = output_check_distinct(out, err, sizeof(err));
	/* the one plan builder the dashboard uses too; sim drives on the
	 * virtual clock unless --sim-speed (then paced like the dashboard) */
	if (!rc)
		rc = plan_make(p, &(struct plan_env){ .inv_opts = g ? &g->inv : NULL,
						      .history_rates = cli_history_rates,
						      .sim_speed_set = g && g->sim_speed_set,
						      .sim_speed = g ? g->sim_speed : 0 },
			       err, sizeof(err));
	if (rc) {
		fprintf(stderr, "diskscope: %s\n", err);
		plan_free(p);
		return EXIT_USAGE;
	}
	return 0;
}

/* The targets could not be opened (or a signal came): the outputs record
 * that nothing ran, and why; the exit code says what kind of failure. */
static int
run_open_failed(struct plan *p, const struct run_outputs *out, int rc, const char *err)
{
	int sig = signals_caught();
	/* -EPERM on a write is the guard's refusal; on a read it is the
	 * device refusing the open: a target that cannot be used, like a
	 * missing one, is bad input */
	bool refused = !sig && rc == -EPERM && p->topts.write;
	fprintf(stderr, "diskscope: %s\n", err);
	(void)output_failed(p, out, err, sig != 0, refused);
	if (sig)
		return 128 + sig;
	if (refused)
		return EXIT_REFUSED;
	return rc == -ENOENT || rc == -EINVAL || rc == -ENOTBLK || rc == -ENODEV ||
		rc == -ENXIO || rc == -EPERM || rc == -EACCES ? EXIT_USAGE : EXIT_PROBLEMS;
}

/* Until the run ends: a signal stops it; at a terminal, the progress line
 * and notices (e.g. the psync fallback) as they happen, above it. */
static void
run_watch(struct runner *r)
{
	bool tty = isatty(2), stopped = false;
	char last_msg[192] = "";
	while (!runner_wait(r, 200)) {
		if (signals_caught() && !stopped) {
			runner_stop(r);
			stopped = true;
		}
		struct run_snapshot s;
		if (runner_snapshot(r, &s) == 0) {
			if (tty && s.message[0] && strcmp(s.message, last_msg)) {
				progress_line(&s, true);
				snprintf(last_msg, sizeof(last_msg), "%s", s.message);
				fprintf(stderr, "diskscope: %s\n", s.message);
			}
			if (tty)
				progress_line(&s, false);
			snapshot_free(&s);
		}
	}
	if (tty)
		progress_line(NULL, true);
}

/* The table goes to stdout unless stdout carries a writer's output.  An
 * output that cannot be written (ENOSPC, EPIPE, EIO) is exit 2, never a
 * silent 0: the result is lost. */
static int
run_write(const struct run_result *res, const struct run_outputs *out)
{
	bool to_stdout = false;
	int rc;
	for (size_t i = 0; i < writer_count && i < WRITER_MAX; i++)
		to_stdout |= out->path[i] && !strcmp(out->path[i], "-");
	run_text_print(to_stdout ? stderr : stdout, res);
	int exit_code = run_has_problems(res) ? EXIT_PROBLEMS : EXIT_OK_;
	if (!to_stdout && (rc = doc_flush(stdout))) {
		fprintf(stderr, "diskscope: writing the result to stdout: %s\n", strerror(-rc));
		exit_code = EXIT_OUTPUT;
	}
	for (size_t i = 0; i < writer_count && i < WRITER_MAX; i++) {
		if (!out->path[i])
			continue;
		rc = writer_table[i].write(res, out->path[i]);
		if (rc) {
			fprintf(stderr, "diskscope: --%s %s: %s\n", writer_table[i].name, out->path[i], strerror(-rc));
			exit_code = EXIT_OUTPUT;
		}
	}
	return exit_code;
}

int
run_cli(int argc, char **argv, const struct global_opts *g)
{
	if (argc > 0 && !strcmp(argv[0], "run")) {
		argc--;
		argv++;
	}
	struct plan p;
	struct run_outputs out;
	char err[512] = "";
	int rc = run_plan(&p, &out, argc, argv, g);
	if (rc)
		return rc == 1 ? EXIT_OK_ : rc;
	/* Signals are ours before any target opens: a Ctrl-C while a scratch
	 * file is being filled must still remove it (target_close). */
	struct sig_saved saved;
	signals_take(&saved);
	struct runner *r;
	int bad = -1;
	rc = runner_create(&p, &r, &bad, err, sizeof(err));
	if (!rc && signals_caught()) {	/* interrupted while opening: nothing measured */
		runner_destroy(r);
		rc = -EINTR;
		snprintf(err, sizeof(err), "interrupted before the test started");
	}
	if (rc) {
		int code = run_open_failed(&p, &out, rc, err);
		signals_restore(&saved);
		plan_free(&p);
		return code;
	}
	rc = runner_start(r);
	if (rc) {
		fprintf(stderr, "diskscope: cannot start the run: %s\n", strerror(-rc));
		runner_destroy(r);
		signals_restore(&saved);
		plan_free(&p);
		return EXIT_PROBLEMS;
	}
	run_watch(r);
	int sig = signals_caught();
	struct run_result res;
	runner_result(r, &res);
	if (sig)
		res.interrupted = true;
	int exit_code = run_write(&res, &out);
	history_record(&res, NULL);	/* never changes the exit code: a notice at most */
	run_result_free(&res);
	runner_destroy(r);	/* the scratch file goes here, whatever happened above */
	plan_free(&p);
	signals_restore(&saved);
	return sig ? 128 + sig : exit_code;
}
