/* plan-options.c (bench) - the run options as one table, parsed into a
 * plan for every start: argv (`diskscope run`, the dashboard's command line)
 * through plan_parse_args, the picker's typed fields through plan_set_option
 * and its words through plan_from_words.  Here, not in cli/, so the CLI and
 * the dashboard accept exactly the same values; in bench/ because argv's
 * first word is a test of the registry (bench -> run, not back).  The output
 * formats (--json FILE) are the report's writers: the caller names them
 * (plan_output_find_fn), the core does not know them. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "bench/plan-options.h"
#include "util/util.h"

/* ---- the options table ---- */

typedef int (*opt_parser)(struct plan *p, struct run_outputs *o, const char *v, char *err, size_t n);

struct plan_opt {
	const char *name;
	const char *arg;	/* NULL: a flag */
	const char *help;
	opt_parser parse;
};

#define BAD(fmt, ...) (snprintf(err, n, fmt, __VA_ARGS__), -EINVAL)

static int
o_size(struct plan *p, struct run_outputs *o, const char *v, char *err, size_t n)
{
	uint64_t b;
	if (parse_size(v, &b) || b == 0)
		return BAD("--size %s: bytes per target above 0 (e.g. 1G, 512M)", v);
	p->params.size = b;
	if (!p->set_time)	/* --time (a test parameter) set before wins */
		p->params.seconds = 0;	/* bounded by size */
	return 0;
}

/* One side of --region: "N%" (fraction) or an LBA. */
static int
region_side(const char *s, size_t len, bool *pct, double *frac, uint64_t *lba)
{
	char b[64];
	if (len == 0 || len >= sizeof(b))
		return -EINVAL;
	memcpy(b, s, len);
	b[len] = 0;
	char *end;
	if (b[len - 1] == '%') {
		b[len - 1] = 0;
		double f;
		if (str_to_double(b, &f, NULL) || f < 0 || f > 100)	/* "nan%" too */
			return -EINVAL;
		*pct = true;
		*frac = f / 100;
		return 0;
	}
	if (!isdigit((unsigned char)b[0]))
		return -EINVAL;
	errno = 0;
	unsigned long long l = strtoull(b, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*pct = false;
	*lba = l;
	return 0;
}

static int
o_region(struct plan *p, struct run_outputs *o, const char *v, char *err, size_t n)
{
	const char *c = strchr(v, ':');
	bool ps = true, pe = true;
	double fs = 0, fe = 1;
	uint64_t ls = 0, le = 0;
	if (!c || region_side(v, (size_t)(c - v), &ps, &fs, &ls) ||
	    region_side(c + 1, strlen(c + 1), &pe, &fe, &le))
		return BAD("--region %s: START:END, each a percentage (10%%) or an LBA (e.g. 0%%:50%% or 0:2097152)", v);
	if (ps != pe)
		return BAD("--region %s: give both ends as percentages or both as LBAs", v);
	if (ps ? fs >= fe : ls >= le)
		return BAD("--region %s: the start must lie before the end", v);
	p->region_lba = !ps;
	if (ps) {
		p->params.region_start = fs;
		p->params.region_end = fe;
	} else {
		p->region_lba_start = ls;
		p->region_lba_end = le;
	}
	/* the result records what was tested, in the unit the user gave */
	p->params.region_lba = p->region_lba;
	p->params.region_lba_start = ls;
	p->params.region_lba_end = le;
	return 0;
}

static int
o_stride(struct plan *p, struct run_outputs *o, const char *v, char *err, size_t n)
{
	uint64_t b;
	if (parse_size(v, &b) || b == 0 || b % 512)
		return BAD("--stride %s: a step in multiples of 512 bytes (e.g. 64k)", v);
	p->params.stride = b;
	return 0;
}

static int
o_engine(struct plan *p, struct run_outputs *o, const char *v, char *err, size_t n)
{
	if (!engine_find(v))
		return BAD("--engine %s: one of uring, psync, sim", v);
	snprintf(p->params.engine, sizeof(p->params.engine), "%s", v);
	p->engine_explicit = true;
	return 0;
}

static int
o_seed(struct plan *p, struct run_outputs *o, const char *v, char *err, size_t n)
{
	char *end;
	errno = 0;
	unsigned long long s = strtoull(v, &end, 0);
	if (errno || *end || end == v || v[0] == '-')
		return BAD("--seed %s: a non-negative integer", v);
	p->params.seed = s;
	return 0;
}

static int
o_destroy(struct plan *p, struct run_outputs *o, const char *v, char *err, size_t n)
{
	struct guard_confirm c;
	char e[256];
	if (!*v)
		return BAD("--destroy-data: name the device, e.g. --destroy-data=/dev/sdX%s", "");
	/* The drive as it is now: the guard compares it with the one it opens. */
	if (guard_confirm_capture(&c, v, NULL, e, sizeof e) < 0 ||
	    guard_confirms_add(&p->topts.confirms, &c, e, sizeof e) < 0)
		return BAD("--destroy-data: %s", e);
	return 0;
}

static int
o_keep(struct plan *p, struct run_outputs *o, const char *v, char *err, size_t n)
{
	p->topts.keep = true;
	return 0;
}

static int
o_file_size(struct plan *p, struct run_outputs *o, const char *v, char *err, size_t n)
{
	uint64_t b;
	if (parse_size(v, &b) || b < (1u << 20))
		return BAD("--file-size %s: scratch file size of at least 1M (e.g. 1G)", v);
	p->topts.file_size = b;
	return 0;
}

static int
o_io_timeout(struct plan *p, struct run_outputs *o, const char *v, char *err, size_t n)
{
	double s;
	if (parse_seconds(v, &s) || s < 0.001 || s > 86400)
		return BAD("--io-timeout %s: a duration from 1ms to 24h (default 30s)", v);
	p->io_timeout_s = s;
	return 0;
}

static int
o_help(struct plan *p, struct run_outputs *o, const char *v, char *err, size_t n)
{
	o->help = true;
	return 0;
}

static const struct plan_opt run_opts[] = {
	{ "size", "SIZE", "bytes per target instead of a time", o_size },
	{ "region", "START:END", "part of the target, as % (0%:10%) or LBA (0:2097152)", o_region },
	{ "stride", "SIZE", "step of --pattern stride (default: the block size)", o_stride },
	{ "engine", "uring|psync|sim", "how bytes move (default uring, psync fallback)", o_engine },
	{ "seed", "N", "random offsets and data (same seed, same sequence)", o_seed },
	{ "destroy-data", "DEV", "confirm writing to block device DEV (data is lost); once per device", o_destroy },
	{ "keep", NULL, "keep the scratch file", o_keep },
	{ "file-size", "SIZE", "scratch file size in a directory target (default 1G)", o_file_size },
	{ "io-timeout", "DURATION", "give up on a target after one I/O outstanding this long (default 30s)", o_io_timeout },
	{ "help", NULL, "this text", o_help },
};

int
plan_set_options(struct plan *p, const char *text, char *err, size_t errlen)
{
	char buf[512];
	if (strlen(text) >= sizeof(buf)) {
		snprintf(err, errlen, "options: too long (at most %zu characters)", sizeof(buf) - 1);
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	char *save = NULL;
	for (char *w = strtok_r(buf, " ,\t", &save); w; w = strtok_r(NULL, " ,\t", &save)) {
		char *eq = strchr(w, '=');
		if (!eq || eq == w || !eq[1]) {
			snprintf(err, errlen, "options: %.60s: not NAME=VALUE (e.g. write-verify=on)", w);
			return -EINVAL;
		}
		*eq = 0;
		int rc = plan_set_option(p, w[0] == '-' && w[1] == '-' ? w + 2 : w, eq + 1, err, errlen);
		if (rc)
			return rc < 0 ? rc : -EINVAL;
	}
	return 0;
}

/* The test's parameters first (its table: kind, range, default), then the
 * run options; never a confirmation, an output file (the core knows no
 * output format: not one of these) or a flag. */
int
plan_set_option(struct plan *p, const char *name, const char *value, char *err, size_t errlen)
{
	static const char *const not_here[] = { "destroy-data", "keep", "help" };
	struct run_outputs out = { 0 };
	for (size_t k = 0; k < ARRAY_SIZE(not_here); k++)
		if (!strcmp(name, not_here[k]))
			goto unknown;
	if (bench_param_find(p->test, name, NULL)) {
		int rc = plan_set_param(p, name, value, err, errlen);
		if (!rc && plan_writes(p))	/* as plan_parse_args does */
			p->topts.write = true;
		return rc;
	}
	for (size_t k = 0; k < ARRAY_SIZE(run_opts); k++)
		if (!strcmp(run_opts[k].name, name) && run_opts[k].arg)
			return run_opts[k].parse(p, &out, value, err, errlen);
unknown:
	snprintf(err, errlen, "no option --%s here", name);
	return -EINVAL;
}

/* The run options' lines of --help (cli/options.c prints the rest). */
void
plan_options_usage(FILE *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(run_opts); i++) {
		char lhs[64];
		snprintf(lhs, sizeof(lhs), "--%s%s%s", run_opts[i].name, run_opts[i].arg ? " " : "",
			 run_opts[i].arg ? run_opts[i].arg : "");
		fprintf(f, "  %-36s %s\n", lhs, run_opts[i].help);
	}
}

/* What every set of words must add up to, argv or the picker's. */
static int
words_done(struct plan *p, char *err, size_t errlen)
{
	if (!p->user_targets.n) {
		snprintf(err, errlen, "run %s: name at least one target (/dev/sdb, a directory, sim:MODEL, ctrl:N)",
			 p->test->name);
		return -EINVAL;
	}
	if (p->params.stride && p->pat != OFS_STRIDE) {
		snprintf(err, errlen, "--stride needs --pattern stride");
		return -EINVAL;
	}
	if (plan_writes(p))	/* --rw, or a parameter that makes the test write */
		p->topts.write = true;
	return 0;
}

int
plan_parse_args(struct plan *p, int argc, char **argv, plan_output_find_fn outputs,
		struct run_outputs *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (argc < 1 || !argv[0] || argv[0][0] == '-') {
		plan_init(p, NULL);
		if (argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
			out->help = true;
			return 0;
		}
		snprintf(err, errlen, "run: name a test (%s)", bench_names());
		return -EINVAL;
	}
	const struct bench_test *t = bench_find(argv[0]);
	plan_init(p, t);
	if (!t) {
		snprintf(err, errlen, "run: unknown test '%s' (%s)", argv[0], bench_names());
		return -EINVAL;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h"))
			a = "--help";
		if (a[0] != '-' || !strcmp(a, "-")) {
			if (strlist_add(&p->user_targets, a))
				return -ENOMEM;
			continue;
		}
		if (a[1] != '-') {
			snprintf(err, errlen, "run: unknown option '%s' (see --help)", a);
			return -EINVAL;
		}
		const char *name = a + 2, *eq = strchr(name, '=');
		size_t nl = eq ? (size_t)(eq - name) : strlen(name);
		const struct plan_opt *o = NULL;
		for (size_t k = 0; k < ARRAY_SIZE(run_opts); k++)
			if (strlen(run_opts[k].name) == nl && !strncmp(run_opts[k].name, name, nl))
				o = &run_opts[k];
		/* the test's own parameters (its table: kind, range, default),
		 * and the output formats (the caller's: outputs) */
		char pname[32];
		snprintf(pname, sizeof(pname), "%.*s", (int)nl, name);
		const char *warg = NULL;
		int wi = !o && nl < sizeof(pname) && outputs ? outputs(pname, &warg) : -1;
		if (wi >= 0) {
			const char *val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
			if (!val) {
				snprintf(err, errlen, "run: --%s needs a value (%s)", pname, warg ? warg : "FILE");
				return -EINVAL;
			}
			if (wi < PLAN_OUTPUTS_MAX)
				out->path[wi] = val;
			continue;
		}
		if (!o && nl < sizeof(pname) && bench_param_find(t, pname, NULL)) {
			const char *val;
			if (eq)
				val = eq + 1;
			else if (i + 1 < argc)
				val = argv[++i];
			else {
				const struct bench_param *bp = bench_param_find(t, pname, NULL);
				snprintf(err, errlen, "run: --%s needs a value (%s)", bp->name, bp->arg);
				return -EINVAL;
			}
			int rc = plan_set_param(p, pname, val, err, errlen);
			if (rc)
				return rc;
			continue;
		}
		for (size_t k = 0; !o && nl < sizeof(pname) && k < bench_count; k++)
			if (bench_param_find(bench_table[k], pname, NULL)) {
				snprintf(err, errlen, "run %s: --%s is not an option of this test (see diskscope run %s --help)",
					 t->name, pname, t->name);
				return -EINVAL;
			}
		if (!o) {
			snprintf(err, errlen, "run: unknown option '--%.*s' (see --help)", (int)nl, name);
			return -EINVAL;
		}
		const char *val = "";
		if (o->arg) {
			if (eq)
				val = eq + 1;
			else if (i + 1 < argc)
				val = argv[++i];
			else {
				snprintf(err, errlen, "run: --%s needs a value (%s)", o->name, o->arg);
				return -EINVAL;
			}
		} else if (eq) {
			snprintf(err, errlen, "run: --%s takes no value", o->name);
			return -EINVAL;
		}
		int rc = o->parse(p, out, val, err, errlen);
		if (rc)
			return rc;
	}
	if (out->help)
		return 0;
	return words_done(p, err, errlen);
}

int
plan_from_words(struct plan *p, const struct bench_test *t, const char *const *targets, size_t n,
		const char *words, char *err, size_t errlen)
{
	plan_init(p, t);
	if (!t) {
		snprintf(err, errlen, "no test");
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++)
		if (strlist_add(&p->user_targets, targets[i]))
			return -ENOMEM;
	int rc = words && words[0] ? plan_set_options(p, words, err, errlen) : 0;
	return rc ? rc : words_done(p, err, errlen);
}

