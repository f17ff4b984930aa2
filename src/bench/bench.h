/* bench.h - the tests a user picks: one file per test, one const registry
 * table (registry.c).  What a test declares is in run/test.h. */
#ifndef DS_BENCH_H
#define DS_BENCH_H
#include <stdbool.h>
#include <stddef.h>
#include "run/result.h"
#include "run/runner.h"
#include "run/test.h"

extern const struct bench_test *const bench_table[];
extern const size_t bench_count;
const struct bench_test *bench_find(const char *name);
unsigned bench_flags_of(const char *name);	/* its TEST_* flags, 0 no such test */
/* "seqread, seqwrite, ..." from the registry, for messages. */
const char *bench_names(void);

/* Planner shared by the single-step tests: all targets at once, one step. */
int bench_plan_single(struct plan *p, char *err, size_t errlen);

/* Parameters most tests take (params.c); a test lists the ones it uses. */
extern const struct bench_param bp_bs, bp_qd, bp_time, bp_ramp, bp_pattern, bp_rw, bp_data;
/* The usual transfer set, for a test's .params. */
#define BENCH_XFER_PARAMS &bp_bs, &bp_qd, &bp_time, &bp_ramp, &bp_pattern, &bp_rw, &bp_data
#endif
