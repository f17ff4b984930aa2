/* registry.c - the explicit table of tests, and what they share. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"

const struct bench_test *const bench_table[] = {
	&bench_seqread, &bench_seqwrite, &bench_randread, &bench_randwrite, &bench_saturate,
};
const size_t bench_count = ARRAY_SIZE(bench_table);

const struct bench_test *
bench_find(const char *name)
{
	for (size_t i = 0; i < bench_count; i++)
		if (!strcmp(bench_table[i]->name, name))
			return bench_table[i];
	return NULL;
}

int
bench_build_single(struct plan *p, char *err, size_t errlen)
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

int
result_add_verdict(struct run_result *r, const char *kind, int knee, double ceiling,
		   const char *fmt, ...)
{
	struct verdict *nv = realloc(r->verdicts, (r->n_verdicts + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	r->verdicts = nv;
	struct verdict *v = &nv[r->n_verdicts++];
	memset(v, 0, sizeof(*v));
	snprintf(v->kind, sizeof(v->kind), "%s", kind);
	v->knee_drives = knee;
	v->ceiling_mbps = ceiling;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->text, sizeof(v->text), fmt, ap);
	va_end(ap);
	return 0;
}

static const char *
errno_name(int e)
{
	switch (e) {
	case EIO: return "EIO";
	case ENOSPC: return "ENOSPC";
	case ENXIO: return "ENXIO";
	case ENODEV: return "ENODEV";
	case EROFS: return "EROFS";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case ENODATA: return "ENODATA";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EBADF: return "EBADF";
	case EFBIG: return "EFBIG";
	case EAGAIN: return "EAGAIN";
	}
	return NULL;
}

/* One "errors" verdict for a target result with I/O errors; where names the
 * step or the solo pass. */
static void
verdict_target_errors(struct run_result *r, const struct target_result *t, const char *where)
{
	if (!t->err.count)
		return;
	char by[128] = "";
	size_t o = 0;
	for (size_t k = 0; k < t->err.n_errno && o < sizeof(by); k++) {
		const char *n = errno_name(t->err.by_errno[k].err);
		char tmp[24];
		if (!n) {
			snprintf(tmp, sizeof(tmp), "errno %d", t->err.by_errno[k].err);
			n = tmp;
		}
		o += (size_t)snprintf(by + o, sizeof(by) - o, "%s%llu %s", k ? ", " : "",
				      (unsigned long long)t->err.by_errno[k].count, n);
	}
	result_add_verdict(r, "errors", 0, 0,
		"%s%s: %llu I/O error%s (%s), first at byte %llu, last at byte %llu",
		t->target, where, (unsigned long long)t->err.count,
		t->err.count == 1 ? "" : "s", by,
		(unsigned long long)t->err.first_offset,
		(unsigned long long)t->err.last_offset);
}

/* One sentence per target that had errors (every step it ran in). */
void
bench_verdict_errors(const struct plan *p, struct run_result *r)
{
	/* the solo passes feed the ideal line: their errors count too */
	for (size_t i = 0; i < r->n_solo; i++)
		verdict_target_errors(r, &r->solo[i], " (solo pass)");
	for (size_t s = 0; s < r->n_steps; s++) {
		const struct step_result *st = &r->steps[s];
		char where[24] = "";
		if (r->n_steps > 1)
			snprintf(where, sizeof(where), " (step %u)", st->index);
		for (size_t i = 0; i < st->n_res; i++)
			verdict_target_errors(r, &st->res[i], where);
	}
}
