/* registry.c - the explicit table of tests.  A new test is one file in
 * src/bench/ and one line here; no test name appears anywhere else
 * (tools/lint-names.sh): consumers ask a test's flags (TEST_*) and its
 * tables' roles, and bench_flags_of is the one map from a name to them
 * (the history's migration, a loaded document). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "bench/bench.h"

/* One line per test, in the order the picker and --help list them; the
 * file src/bench/NAME.c defines bench_NAME. */
#define BENCH_TESTS(X)	\
	X(seqread)	\
	X(seqwrite)	\
	X(randread)	\
	X(randwrite)	\
	X(saturate)	\
	X(smr)		\
	X(quick)	\
	X(surface)	\
	X(align)	\
	X(filemix)	\
	X(triage)	\
	X(selftest)	\
	/* end of the list: every test line above ends in a backslash */

#define BENCH_DECL(n) extern const struct bench_test bench_##n;
#define BENCH_REF(n) &bench_##n,
BENCH_TESTS(BENCH_DECL)
const struct bench_test *const bench_table[] = { BENCH_TESTS(BENCH_REF) };
const size_t bench_count = ARRAY_SIZE(bench_table);

const struct bench_test *
bench_find(const char *name)
{
	for (size_t i = 0; name && i < bench_count; i++)
		if (!strcmp(bench_table[i]->name, name))
			return bench_table[i];
	return NULL;
}

unsigned
bench_flags_of(const char *name)
{
	const struct bench_test *t = bench_find(name);
	return t ? t->flags : 0;
}

const char *
bench_names(void)
{
	static char buf[256];
	if (!buf[0]) {
		size_t o = 0;
		for (size_t i = 0; i < bench_count && o < sizeof(buf); i++)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s", i ? ", " : "",
					      bench_table[i]->name);
	}
	return buf;
}

int
bench_plan_single(struct plan *p, char *err, size_t errlen)
{
	if (!p->targets.n) {
		snprintf(err, errlen, "%s: no target given", p->test ? p->test->name : "run");
		return -EINVAL;
	}
	if (p->targets.n > PLAN_MAX_TARGETS) {
		snprintf(err, errlen, "too many targets (%zu, at most %d)", p->targets.n, PLAN_MAX_TARGETS);
		return -E2BIG;
	}
	return plan_add_step(p, NULL, (unsigned)p->targets.n, p->params.seconds, p->params.ramp_s);
}
