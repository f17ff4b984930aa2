/* param.c - a test's typed parameters: text <-> value, ranges, defaults,
 * and binding into the plan.  One table per test drives the command line,
 * `run TEST --help`, the picker and the man page. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"
#include "run/runner.h"

int
parse_size(const char *s, uint64_t *out)
{
	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	if (shift && (!strcmp(end, "iB") || !strcmp(end, "B")))
		end += strlen(end);
	else if (!shift && !strcmp(end, "B"))
		end++;
	if (*end)
		return -EINVAL;
	if (shift && v > (~0ull >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

int
parse_seconds(const char *s, double *out)
{
	if (!s || !*s)
		return -EINVAL;
	const char *end;
	double v;
	if (str_to_double(s, &v, &end) || v < 0)	/* no NaN, no infinity */
		return -EINVAL;
	if (!strcmp(end, "") || !strcmp(end, "s"))
		;
	else if (!strcmp(end, "ms"))
		v /= 1000;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		v *= 60;
	else if (!strcmp(end, "h"))
		v *= 3600;
	else
		return -EINVAL;
	*out = v;
	return 0;
}

size_t
bench_param_count(const struct bench_test *t)
{
	size_t n = 0;
	while (t && t->params && t->params[n])
		n++;
	return n;
}

const struct bench_param *
bench_param_find(const struct bench_test *t, const char *name, size_t *idx)
{
	for (size_t i = 0; t && t->params && t->params[i]; i++)
		if (!strcmp(t->params[i]->name, name)) {
			if (idx)
				*idx = i;
			return t->params[i];
		}
	return NULL;
}

static int
number(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || !isfinite(v))
		return -EINVAL;
	if (*end == '%' && !end[1])
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int
bench_param_parse(const struct bench_param *bp, const char *text, struct bench_value *v,
		  char *err, size_t errlen)
{
	memset(v, 0, sizeof(*v));
	double x = 0;
	int rc = -EINVAL;
	for (const struct bench_alias *a = bp->aliases; a && a->word; a++)
		if (!strcmp(text, a->word)) {
			x = a->v;
			rc = 0;
		}
	if (!rc && bp->kind == BP_CHOICE) {	/* another word for a choice */
		snprintf(v->str, sizeof(v->str), "%s", bp->choices[(size_t)x]);
		v->num = x;
		v->set = true;
		return 0;
	}
	if (rc) {
		switch (bp->kind) {
		case BP_SIZE: {
			uint64_t b;
			rc = parse_size(text, &b);
			x = (double)b;
			if (!rc && bp->multiple > 0 && fmod(x, bp->multiple) != 0)
				rc = -EINVAL;
			break;
		}
		case BP_DURATION:
			rc = parse_seconds(text, &x);
			break;
		case BP_COUNT: {
			char *end;
			errno = 0;
			long long q = strtoll(text, &end, 10);
			rc = errno || *end || end == text ? -EINVAL : 0;
			x = (double)q;
			break;
		}
		case BP_PERCENT:
			rc = number(text, &x);
			if (!rc && x != floor(x))
				rc = -EINVAL;
			break;
		case BP_CHOICE:
			for (size_t i = 0; bp->choices && bp->choices[i]; i++)
				if (!strcmp(text, bp->choices[i])) {
					snprintf(v->str, sizeof(v->str), "%s", bp->choices[i]);
					v->num = (double)i;
					v->set = true;
					return 0;
				}
			rc = -EINVAL;
			break;
		}
	}
	if (!rc && bp->kind != BP_CHOICE && (x < bp->min || (bp->max > bp->min && x > bp->max)))
		rc = -EINVAL;
	if (rc) {
		snprintf(err, errlen, "--%s %s: %s", bp->name, text, bp->bad ? bp->bad : "bad value");
		return -EINVAL;
	}
	if (x > 0 && x < bp->min_nonzero) {	/* e.g. a time shorter than one sample */
		snprintf(err, errlen, "--%s %s: at least %g%s (or 0)", bp->name, text, bp->min_nonzero,
			 bp->kind == BP_DURATION ? " s" : "");
		return -EINVAL;
	}
	v->num = x;
	v->set = true;
	return 0;
}

static void
size_text(char *b, size_t n, double v)
{
	uint64_t x = (uint64_t)v;
	if (x >= (1ull << 30) && x % (1ull << 30) == 0)
		snprintf(b, n, "%lluG", (unsigned long long)(x >> 30));
	else if (x >= (1ull << 20) && x % (1ull << 20) == 0)
		snprintf(b, n, "%lluM", (unsigned long long)(x >> 20));
	else if (x >= 1024 && x % 1024 == 0)
		snprintf(b, n, "%lluk", (unsigned long long)(x >> 10));
	else
		snprintf(b, n, "%llu", (unsigned long long)x);
}

void
bench_param_format(const struct bench_param *bp, const struct bench_value *v, char *buf, size_t n)
{
	switch (bp->kind) {
	case BP_SIZE:
		size_text(buf, n, v->num);
		break;
	case BP_COUNT:
		snprintf(buf, n, "%.0f", v->num);
		break;
	case BP_DURATION:
		if (v->num > 0 && v->num < 1)
			snprintf(buf, n, "%.0fms", v->num * 1000);
		else
			snprintf(buf, n, "%gs", v->num);
		break;
	case BP_PERCENT:
		for (const struct bench_alias *a = bp->aliases; a && a->word; a++)
			if (a->v == v->num) {
				snprintf(buf, n, "%s", a->word);
				return;
			}
		snprintf(buf, n, "%.0f%%", v->num);
		break;
	case BP_CHOICE:
		snprintf(buf, n, "%s", v->str);
		break;
	}
}

void
bench_param_default(const struct bench_test *t, const struct bench_param *bp, struct bench_value *v)
{
	memset(v, 0, sizeof(*v));
	const struct run_params *d = &t->defaults;
	switch (bp->bind) {
	case BIND_BS: v->num = d->bs; break;
	case BIND_QD: v->num = d->qd; break;
	case BIND_SECONDS: v->num = d->seconds; break;
	case BIND_RAMP: v->num = d->ramp_s; break;
	case BIND_RW: v->num = d->rw_mix; break;
	case BIND_PATTERN: snprintf(v->str, sizeof(v->str), "%s", d->pattern[0] ? d->pattern : "seq"); break;
	case BIND_DATA: snprintf(v->str, sizeof(v->str), "%s", d->data[0] ? d->data : "random"); break;
	case BIND_NONE:
		v->num = bp->def;
		if (bp->kind == BP_CHOICE && bp->choices)
			snprintf(v->str, sizeof(v->str), "%s", bp->choices[(size_t)bp->def]);
		break;
	}
}

void
bench_params_usage(const struct bench_test *t, FILE *f)
{
	for (size_t i = 0; t->params && t->params[i]; i++) {
		const struct bench_param *bp = t->params[i];
		struct bench_value v;
		char lhs[64], def[32];
		bench_param_default(t, bp, &v);
		bench_param_format(bp, &v, def, sizeof(def));
		snprintf(lhs, sizeof(lhs), "--%s %s", bp->name, bp->arg ? bp->arg : "VALUE");
		fprintf(f, "  %-36s %s (default %s)\n", lhs, bp->help, def);
	}
}

/* Write a value into the plan field it is bound to. */
static void
bind_value(struct plan *p, const struct bench_param *bp, const struct bench_value *v)
{
	switch (bp->bind) {
	case BIND_BS:
		p->params.bs = (uint32_t)v->num;
		p->set_bs = true;
		break;
	case BIND_QD:
		p->params.qd = (unsigned)v->num;
		p->set_qd = true;
		break;
	case BIND_SECONDS:
		p->params.seconds = v->num;
		p->set_time = true;
		break;
	case BIND_RAMP:
		p->params.ramp_s = v->num;
		p->set_ramp = true;
		break;
	case BIND_RW:
		p->params.rw_mix = (int)v->num;
		p->set_rw = true;
		break;
	case BIND_PATTERN:
		offsets_parse_pattern(v->str, &p->pat);
		snprintf(p->params.pattern, sizeof(p->params.pattern), "%s", offsets_pattern_name(p->pat));
		p->set_pattern = true;
		break;
	case BIND_DATA:
		data_mode_parse(v->str, &p->data);
		snprintf(p->params.data, sizeof(p->params.data), "%s", data_mode_name(p->data));
		break;
	case BIND_NONE:
		break;
	}
}

int
plan_set_value(struct plan *p, const char *name, const struct bench_value *v)
{
	size_t i;
	const struct bench_param *bp = bench_param_find(p->test, name, &i);
	if (!bp)
		return -ENOENT;
	if (i >= BENCH_MAX_PARAMS)
		return -E2BIG;
	p->pv[i] = *v;
	p->pv[i].set = true;
	bind_value(p, bp, &p->pv[i]);
	return 0;
}

int
plan_set_param(struct plan *p, const char *name, const char *text, char *err, size_t errlen)
{
	const struct bench_param *bp = bench_param_find(p->test, name, NULL);
	if (!bp)
		return -ENOENT;
	struct bench_value v;
	int rc = bench_param_parse(bp, text, &v, err, errlen);
	return rc ? rc : plan_set_value(p, name, &v);
}

static const struct bench_value *
param_value(const struct plan *p, const char *name, struct bench_value *tmp)
{
	size_t i;
	const struct bench_param *bp = bench_param_find(p->test, name, &i);
	if (!bp || i >= BENCH_MAX_PARAMS)
		return NULL;
	if (p->pv[i].set)
		return &p->pv[i];
	bench_param_default(p->test, bp, tmp);
	return tmp;
}

bool
plan_writes(const struct plan *p)
{
	const struct bench_test *t = p->test;
	if (!t)
		return false;
	if (t->writes || p->params.rw_mix < 100)
		return true;
	for (size_t i = 0; t->params && t->params[i]; i++) {
		const struct bench_param *bp = t->params[i];
		if (bp->kind == BP_CHOICE && bp->writes_when && !strcmp(plan_param_str(p, bp->name), bp->writes_when))
			return true;
	}
	return false;
}

struct known_dbl
plan_param_known(const struct plan *p, const char *name)
{
	struct bench_value tmp;
	const struct bench_value *v = param_value(p, name, &tmp);
	return v ? known_dbl_of(v->num) : (struct known_dbl){ 0 };
}

double
plan_param_num(const struct plan *p, const char *name)
{
	return plan_param_known(p, name).v;
}

const char *
plan_param_str(const struct plan *p, const char *name)
{
	static _Thread_local struct bench_value tmp;
	const struct bench_value *v = param_value(p, name, &tmp);
	return v ? v->str : "";
}
