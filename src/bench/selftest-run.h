/* selftest-run.h - drive self-tests orchestrated across drives: started on
 * every drive at once, polled (percent, time left as each drive reports
 * it), each bounded in time, aborted on every drive on a stop, the result
 * and failing LBA read from each drive's log.  The class-specific work is
 * the target's source's (inventory/facts.h selftest_* hooks); `run
 * selftest` and triage --self-test both run it. */
#ifndef DS_SELFTEST_RUN_H
#define DS_SELFTEST_RUN_H
#include <stdbool.h>
#include <stddef.h>
#include "inventory/selftest.h"
#include "run/runner.h"

struct inventory;
struct drive;

struct st_drive {
	const struct target *t;
	const struct drive *d;		/* as the inventory shows it; NULL: none (a sim drive needs none) */
	struct selftest_drive s;
	double speed;			/* its clock: 0 virtual (a sim drive headless), else x real time */
	double bound_s;			/* on its clock: past this it is aborted (STS_TIMEOUT) */
	double ran_s;			/* how long it ran, on its clock */
	unsigned poll_errors;		/* failed polls in a row (ST_POLL_ERRORS: given up) */
	unsigned lbs;			/* logical sector bytes (the LBA in GB), 0 unknown */
};

#define ST_POLL_ERRORS 3

struct st_run {
	enum selftest_kind kind;
	double timeout_s;		/* --self-test-timeout, 0: per kind (selftest_bound_s) */
	double poll_s;			/* between polls of a real drive, 0: 5 s */
	size_t n;
	struct st_drive dr[PLAN_MAX_TARGETS];
	struct inventory *inv;		/* the scan the drives point into (st_run_free) */
	/* the caller's: the run is stopping; a drive's progress changed */
	bool (*stopping)(void *arg);
	void (*progress)(void *arg, size_t i, const struct st_drive *d);
	void *arg;
	/* the wall clock (seconds) and a wait; NULL: the real ones (unit tests
	 * give fakes) */
	double (*wall)(void *arg);
	void (*wait)(void *arg, double s);
};

/* The drives of targets [0, n) (specs as the plan opened them) from one
 * inventory scan their sources ask for.  0, or -errno (the drives are then
 * NULL: the sources say why). */
int st_run_setup(struct st_run *o, const struct plan *p, const struct target *t, size_t n);
/* Start every drive's self-test, poll them all till each is over, its bound
 * passed (aborted, STS_TIMEOUT) or the run stops (every running one aborted,
 * STS_ABORTED); each drive's result is in dr[i].s.st.  0 / -errno. */
int st_run_all(struct st_run *o);
void st_run_free(struct st_run *o);

/* A drive's verdict: FAIL for a failed self-test (with its LBA in LBA and
 * GB), WARN for one that could not finish (timed out, interrupted, an
 * error), INFO for one the drive cannot run or that was aborted, PASS.
 * The sentence into why. */
enum verdict_level st_drive_verdict(const struct st_drive *d, enum selftest_kind kind, char *why, size_t n);
/* For a test's own step: the self-tests of kind on every target of c,
 * bounded by timeout_s (0: per kind), progress shown, aborted on a stop;
 * each drive's result into out[0 .. c->n_targets) (out[i].d NULL) and a
 * the time each ran into sr (may be NULL).  0 / -errno.  selftest.c. */
struct bench_ctx;
int selftest_run_step(struct bench_ctx *c, enum selftest_kind kind, double timeout_s, struct st_drive *out,
		      struct step_result *sr);
/* The kind a plan's choice parameter param says (NONE: off / not set). */
enum selftest_kind selftest_plan_kind(const struct plan *p, const char *param);
/* The --self-test-timeout parameter (selftest.c), for triage too. */
extern const struct bench_param bp_selftest_timeout;
/* "short self-test 42%", "long self-test: passed" into buf. */
void st_drive_activity(const struct st_drive *d, enum selftest_kind kind, char *buf, size_t n);
#endif
