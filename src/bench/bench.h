/* bench.h - the tests a user picks: one const table, one file per test. */
#ifndef DS_BENCH_H
#define DS_BENCH_H
#include <stdbool.h>
#include <stddef.h>
#include "run/result.h"
#include "run/runner.h"

struct bench_test {
	const char *name;
	const char *summary;
	bool writes;
	struct run_params defaults;
	/* Steps for the plan (targets and params already set).  0 / -errno + err. */
	int (*build)(struct plan *p, char *err, size_t errlen);
	/* Verdict sentences into r->verdicts (NULL: none beyond errors). */
	void (*verdict)(const struct plan *p, struct run_result *r);
};

extern const struct bench_test *const bench_table[];
extern const size_t bench_count;
const struct bench_test *bench_find(const char *name);

/* Shared by the tests. */
int bench_build_single(struct plan *p, char *err, size_t errlen);	/* all targets, one step */
int result_add_verdict(struct run_result *r, const char *kind, int knee, double ceiling,
		       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void bench_verdict_errors(const struct plan *p, struct run_result *r);

extern const struct bench_test bench_seqread, bench_seqwrite, bench_randread,
	bench_randwrite, bench_saturate;
#endif
