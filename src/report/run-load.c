/* run-load.c - the "run" section of a schema-1 document -> run_result
 * (writing it: run-json.c). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "report/doc.h"
#include "report/run.h"
#include "util/util.h"

/* json-c asserts on array calls with anything else: check first. */
static bool
is_array(struct json_object *o)
{
	return o && json_object_is_type(o, json_type_array);
}

/* ---- loading ----
 * A saved result is input: every number is checked (a number where one is
 * expected, finite, not negative, not absurd), the first bad field is named
 * and the file refused, so `show` never draws nan or negative MB/s. */

#define LD_MAX 1e12	/* past any rate, IOPS, latency (us) or duration here */

struct ld {
	char where[64];		/* "steps[2].results[0]" */
	char err[320];		/* the first bad field; "" = none */
};

static int
ld_bad(struct ld *L, const char *k, const char *why)
{
	if (!L->err[0])
		snprintf(L->err, sizeof L->err, "%s%s%s: %s", L->where, L->where[0] ? "." : "", k, why);
	return -EINVAL;
}

static struct json_object *
get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;
	return o && json_object_is_type(o, json_type_object) &&
	       json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* Why number v (d as read) is refused, naming it as written: a huge one is
 * valid JSON, only out of range (1e308, or 1e309 that a double cannot
 * hold); NaN and Infinity are no JSON numbers at all. */
static void
ld_range(struct ld *L, const char *k, struct json_object *v, double d, const char *want)
{
	char why[128];
	const char *txt = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
	bool literal = txt && (isdigit((unsigned char)txt[0]) ||
			       (txt[0] == '-' && isdigit((unsigned char)txt[1])));

	if (!literal || isnan(d))
		snprintf(why, sizeof why, "%.24s is not a finite number (want %s)", txt ? txt : "?", want);
	else if (d < 0)
		snprintf(why, sizeof why, "%.24s is negative (want %s)", txt, want);
	else
		snprintf(why, sizeof why, "%.24s is out of range: valid JSON, but not a plausible value (want %s)",
			 txt, want);
	ld_bad(L, k, why);
}

/* A number 0 .. LD_MAX, or `dflt` when absent or null. */
static double
num(struct ld *L, struct json_object *v, const char *k, double dflt)
{
	if (!v)
		return dflt;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)) {
		ld_bad(L, k, "not a number");
		return dflt;
	}
	double d = json_object_get_double(v);
	if (!isfinite(d) || d < 0 || d > LD_MAX) {
		ld_range(L, k, v, d, "a number 0 .. 1e12");
		return dflt;
	}
	return d;
}

static double
gd(struct ld *L, struct json_object *o, const char *k)
{
	return num(L, get(o, k), k, 0);
}

/* A rate that a document writes as null when unknown (an older one as 0). */
static struct known_dbl
gd_rate(struct ld *L, struct json_object *o, const char *k)
{
	double d = num(L, get(o, k), k, 0);
	return d > 0 ? known_dbl_of(d) : (struct known_dbl){ 0 };
}

/* A value a document writes as null when unknown (a number, 0 too, is known). */
static struct known_dbl
gd_known(struct ld *L, struct json_object *o, const char *k)
{
	struct json_object *v = get(o, k);
	double d = num(L, v, k, 0);
	return v ? known_dbl_of(d) : (struct known_dbl){ 0 };
}

static double
gdn(struct ld *L, struct json_object *o, const char *k)	/* null -> NaN */
{
	return num(L, get(o, k), k, NAN);
}

/* A whole number written as a double (1e3 is one, 1e308 one out of range):
 * true and *out, or false with the reason. */
static bool
dbl_whole(struct ld *L, const char *k, struct json_object *v, uint64_t max, uint64_t *out)
{
	double d = json_object_get_double(v);
	char want[48];

	if (isfinite(d) && d >= 0 && d == floor(d) && d <= 9007199254740992.0 && d <= (double)max) {
		*out = (uint64_t)d;
		return true;
	}
	if (max == UINT64_MAX)
		snprintf(want, sizeof want, "a whole number 0 or more");
	else
		snprintf(want, sizeof want, "a whole number 0 .. %llu", (unsigned long long)max);
	if (!isfinite(d) || d < 0 || d == floor(d))
		ld_range(L, k, v, d, want);
	else
		ld_bad(L, k, "not a whole number");
	return false;
}

/* A whole number 0 .. max; 0 when absent or null. */
static uint64_t
gum(struct ld *L, struct json_object *o, const char *k, uint64_t max)
{
	struct json_object *v = get(o, k);
	if (!v)
		return 0;
	if (json_object_is_type(v, json_type_double)) {
		uint64_t u = 0;
		dbl_whole(L, k, v, max, &u);
		return u;
	}
	if (!json_object_is_type(v, json_type_int)) {
		ld_bad(L, k, "not a whole number");
		return 0;
	}
	if (json_object_get_int64(v) < 0) {
		ld_bad(L, k, "negative");
		return 0;
	}
	uint64_t u = json_object_get_uint64(v);
	if (u > max) {
		char why[96];
		snprintf(why, sizeof why, "%llu is out of range (too large: want a whole number 0 .. %llu)",
			 (unsigned long long)u, (unsigned long long)max);
		ld_bad(L, k, why);
		return 0;
	}
	return u;
}

static uint64_t
gu(struct ld *L, struct json_object *o, const char *k)
{
	return gum(L, o, k, UINT64_MAX);
}

static void
gs(struct ld *L, struct json_object *o, const char *k, char *dst, size_t n)
{
	struct json_object *v = get(o, k);
	if (v && !json_object_is_type(v, json_type_string))
		ld_bad(L, k, "not a string");
	strtrimcpy(dst, n, v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "");
}

static int
glist(struct ld *L, struct json_object *o, const char *k, struct strlist *l)
{
	struct json_object *a = get(o, k);
	if (!a)
		return 0;
	if (!is_array(a))
		return ld_bad(L, k, "not a list");
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *s = json_object_array_get_idx(a, i);
		if (!s || !json_object_is_type(s, json_type_string))
			return ld_bad(L, k, "a list item is not a string");
		if (strlist_add(l, json_object_get_string(s)))
			return -ENOMEM;
	}
	return 0;
}

static float *
gfloats(struct ld *L, struct json_object *a, size_t n, const char *k)
{
	float *v = calloc(n ? n : 1, sizeof(float));
	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++)
		v[i] = (float)num(L, json_object_array_get_idx(a, i), k, NAN);
	return v;
}

static void
err_load(struct ld *L, struct json_object *e, struct err_summary *x)
{
	if (!e || !json_object_is_type(e, json_type_object))
		return;
	x->count = gu(L, e, "count");
	struct json_object *f = get(e, "first_offset");
	if (f) {
		x->have_offsets = true;
		x->first_offset = gu(L, e, "first_offset");
		x->last_offset = gu(L, e, "last_offset");
	}
	struct json_object *by = get(e, "by_errno");
	if (by && json_object_is_type(by, json_type_object)) {
		json_object_object_foreach(by, key, val) {
			(void)val;
			if (x->n_errno >= ARRAY_SIZE(x->by_errno))
				break;
			x->by_errno[x->n_errno].err = run_errno_parse(key);
			x->by_errno[x->n_errno++].count = gu(L, by, key);
		}
	}
}

/* A whole number or null (unknown). */
static struct known_u64
gk(struct ld *L, struct json_object *o, const char *k)
{
	struct known_u64 r = { false, 0 };
	if (get(o, k)) {
		r.v = gu(L, o, k);
		r.known = !L->err[0];
	}
	return r;
}

/* The identity block and the tables (added in schema 1; absent in older
 * saved runs, which load without them). */
static int
identity_load(struct ld *L, struct json_object *id, struct run_result *r)
{
	if (!id || !json_object_is_type(id, json_type_object))
		return 0;
	gs(L, id, "run_id", r->run_id, sizeof(r->run_id));
	gs(L, id, "host", r->host, sizeof(r->host));
	gs(L, id, "version", r->version, sizeof(r->version));
	struct json_object *a = get(id, "targets");
	size_t n = is_array(a) ? json_object_array_length(a) : 0;
	if (!n)
		return 0;
	r->ident = calloc(n, sizeof(*r->ident));
	if (!r->ident)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *t = json_object_array_get_idx(a, i);
		struct target_ident *d = &r->ident[i];
		char name[64];
		gs(L, t, "target", name, sizeof(name));
		if (strlist_add(&r->ident_targets, name))
			return -ENOMEM;
		r->n_ident = i + 1;
		gs(L, t, "drive_id", d->drive_id, sizeof(d->drive_id));
		gs(L, t, "model", d->model, sizeof(d->model));
		gs(L, t, "serial", d->serial, sizeof(d->serial));
		gs(L, t, "wwn", d->wwn, sizeof(d->wwn));
		gs(L, t, "firmware", d->firmware, sizeof(d->firmware));
		d->capacity = gk(L, t, "capacity_bytes");
		struct json_object *sec = get(t, "sectors");
		d->logical = gk(L, sec, "logical");
		d->physical = gk(L, sec, "physical");
		gs(L, sec, "source", d->sector_source, sizeof(d->sector_source));
		gs(L, t, "controller", d->controller, sizeof(d->controller));
		gs(L, t, "port", d->port, sizeof(d->port));
	}
	return 0;
}

static int
tables_load(struct ld *L, struct json_object *a, struct run_result *r)
{
	size_t n = is_array(a) ? json_object_array_length(a) : 0;
	for (size_t i = 0; i < n; i++) {
		struct json_object *to = json_object_array_get_idx(a, i);
		struct json_object *cols = get(to, "columns"), *rows = get(to, "rows");
		size_t nc = is_array(cols) ? json_object_array_length(cols) : 0;
		if (!nc || nc > 64 || !is_array(rows))
			continue;	/* not a table this reader understands: skip it */
		struct result_col *c = calloc(nc, sizeof(*c));
		if (!c)
			return -ENOMEM;
		for (size_t k = 0; k < nc; k++) {
			struct json_object *co = json_object_array_get_idx(cols, k);
			char type[16];
			gs(L, co, "name", c[k].name, sizeof(c[k].name));
			gs(L, co, "title", c[k].title, sizeof(c[k].title));
			gs(L, co, "unit", c[k].unit, sizeof(c[k].unit));
			gs(L, co, "type", type, sizeof(type));
			c[k].type = COL_STR;
			for (size_t y = 0; y < ARRAY_SIZE(run_col_types); y++)
				if (!strcmp(type, run_col_types[y]))
					c[k].type = (enum col_type)y;
			uint64_t dec = gu(L, co, "decimals");
			c[k].prec = c[k].type == COL_DBL ? (dec <= 6 ? (int)dec : 1) : 0;
		}
		char name[32], title[80];
		gs(L, to, "name", name, sizeof(name));
		gs(L, to, "title", title, sizeof(title));
		struct result_table *t = result_table_add(r, name, title, c, nc);
		free(c);
		if (!t)
			return -ENOMEM;
		for (size_t y = 0; y < json_object_array_length(rows); y++) {
			struct json_object *row = json_object_array_get_idx(rows, y);
			if (!is_array(row) || json_object_array_length(row) != nc)
				continue;
			if (table_add_row(t))
				return -ENOMEM;
			for (size_t k = 0; k < nc; k++) {
				struct json_object *v = json_object_array_get_idx(row, k);
				if (!v)
					continue;
				if (t->cols[k].type == COL_STR) {
					if (json_object_is_type(v, json_type_string) &&
					    table_set_str(t, t->n_rows - 1, k, json_object_get_string(v)))
						return -ENOMEM;
				} else if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) {
					if (!isfinite(json_object_get_double(v)))
						return ld_bad(L, t->cols[k].name, "not a finite number");
					if (t->cols[k].type == COL_DBL)
						table_set_dbl(t, t->n_rows - 1, k, json_object_get_double(v));
					else
						table_set_int(t, t->n_rows - 1, k, json_object_get_int64(v));
				}
			}
		}
	}
	return 0;
}

static int
target_load(struct ld *L, struct json_object *o, struct target_result *t)
{
	memset(t, 0, sizeof(*t));
	if (!o || !json_object_is_type(o, json_type_object))
		return ld_bad(L, "result", "not an object");
	gs(L, o, "target", t->target, sizeof(t->target));
	gs(L, o, "drive_id", t->drive_id, sizeof(t->drive_id));
	gs(L, o, "model", t->model, sizeof(t->model));
	gs(L, o, "serial", t->serial, sizeof(t->serial));
	gs(L, o, "engine", t->engine, sizeof(t->engine));
	gs(L, o, "note", t->note, sizeof(t->note));
	t->mbps = gd(L, o, "mbps");
	t->read_mbps = gd(L, o, "read_mbps");
	t->write_mbps = gd(L, o, "write_mbps");
	t->iops = gd(L, o, "iops");
	t->bytes = gu(L, o, "bytes");
	t->ios = gu(L, o, "ios");
	t->seconds = gd(L, o, "seconds");
	struct json_object *lat = get(o, "lat_us");
	if (lat && json_object_is_type(lat, json_type_object)) {
		t->lat.known = true;
		t->lat.min = gdn(L, lat, "min");
		t->lat.mean = gdn(L, lat, "mean");
		t->lat.stddev = gdn(L, lat, "stddev");
		t->lat.p50 = gdn(L, lat, "p50");
		t->lat.p90 = gdn(L, lat, "p90");
		t->lat.p99 = gdn(L, lat, "p99");
		t->lat.p999 = gdn(L, lat, "p999");
		t->lat.max = gdn(L, lat, "max");
	}
	err_load(L, get(o, "errors"), &t->err);
	err_load(L, get(o, "ramp_errors"), &t->ramp_err);
	struct json_object *se = get(o, "stopped_early");
	t->stopped_early = se && json_object_is_type(se, json_type_boolean) && json_object_get_boolean(se);
	struct json_object *s = get(o, "series");
	if (s) {
		t->series.interval_ms = (unsigned)gum(L, s, "interval_ms", UINT32_MAX);
		struct json_object *m = get(s, "mbps"), *i = get(s, "iops"), *p = get(s, "p99_us"),
				   *pos = get(s, "pos");
		size_t n = is_array(m) ? json_object_array_length(m) : 0;
		if (n) {
			if (!is_array(i) || json_object_array_length(i) != n ||
			    !is_array(p) || json_object_array_length(p) != n)
				return ld_bad(L, "series", "lengths differ");
			t->series.n = n;
			t->series.mbps = gfloats(L, m, n, "series.mbps");
			t->series.iops = gfloats(L, i, n, "series.iops");
			t->series.p99_us = gfloats(L, p, n, "series.p99_us");
			if (is_array(pos) && json_object_array_length(pos) == n)
				t->series.pos = gfloats(L, pos, n, "series.pos");
			if (!t->series.mbps || !t->series.iops || !t->series.p99_us)
				return -ENOMEM;
		}
	}
	struct json_object *bp = get(o, "by_position");
	struct json_object *bm = get(bp, "mbps"), *bl = get(bp, "max_lat_us");
	size_t nbp = is_array(bm) ? json_object_array_length(bm) : 0;
	if (nbp && is_array(bl) && json_object_array_length(bl) == nbp) {
		t->by_pos.start = gu(L, bp, "start_byte");
		t->by_pos.end = gu(L, bp, "end_byte");
		t->by_pos.mbps = gfloats(L, bm, nbp, "by_position.mbps");
		t->by_pos.max_lat_us = gfloats(L, bl, nbp, "by_position.max_lat_us");
		if (!t->by_pos.mbps || !t->by_pos.max_lat_us)
			return -ENOMEM;
		t->by_pos.n = nbp;
	}
	struct json_object *h = get(o, "hist");
	if (h) {
		struct json_object *u = get(h, "upper_us"), *c = get(h, "count");
		size_t n = is_array(u) ? json_object_array_length(u) : 0;
		if (n && is_array(c) && json_object_array_length(c) == n) {
			t->hist.upper_us = calloc(n, sizeof(double));
			t->hist.count = calloc(n, sizeof(uint64_t));
			if (!t->hist.upper_us || !t->hist.count)
				return -ENOMEM;
			for (size_t k = 0; k < n; k++) {
				struct json_object *cv = json_object_array_get_idx(c, k);
				t->hist.upper_us[k] = num(L, json_object_array_get_idx(u, k), "hist.upper_us", 0);
				if (cv && json_object_is_type(cv, json_type_double))
					dbl_whole(L, "hist.count", cv, UINT64_MAX, &t->hist.count[k]);
				else if (!cv || !json_object_is_type(cv, json_type_int) || json_object_get_int64(cv) < 0)
					ld_bad(L, "hist.count", "not a whole number 0 or more");
				else
					t->hist.count[k] = json_object_get_uint64(cv);
			}
			t->hist.n = n;
		}
	}
	return L->err[0] ? -EINVAL : 0;
}

/* A saved saturation verdict must agree with the steps beside it: a knee at
 * N drives needs a step with N drives.  One that does not is kept, visibly
 * marked, without its knee (the steps are the measurement; the sentence is
 * only a reading of them). */
static void
verdicts_check(struct run_result *r)
{
	for (size_t i = 0; i < r->n_verdicts; i++) {
		struct verdict *v = &r->verdicts[i];
		bool found = false;
		int knee = v->knee_drives;
		if (knee <= 0 && sscanf(v->text, "saturates at %d drive", &knee) != 1)
			continue;
		for (size_t s = 0; s < r->n_steps && !found; s++)
			found = r->steps[s].active.n == (size_t)knee;
		if (found)
			continue;
		char old[sizeof v->text];
		snprintf(old, sizeof old, "%s", v->text);
		snprintf(v->text, sizeof v->text, "IGNORED, contradicts the %zu saved step%s: \"%.240s\"",
			 r->n_steps, r->n_steps == 1 ? "" : "s", old);
		v->knee_drives = 0;
	}
}

/* "refused": null, or the guard's rule (never empty) and sentence. */
static int
refused_load(struct ld *L, struct json_object *ref, struct run_result *r)
{
	if (!ref)
		return 0;
	if (!json_object_is_type(ref, json_type_object))
		return ld_bad(L, "refused", "not an object or null");
	snprintf(L->where, sizeof L->where, "refused");
	gs(L, ref, "rule", r->refused_rule, sizeof(r->refused_rule));
	gs(L, ref, "evidence", r->refused_evidence, sizeof(r->refused_evidence));
	int rc = L->err[0] ? -EINVAL : !r->refused_rule[0] ? ld_bad(L, "rule", "missing or empty") : 0;
	L->where[0] = 0;
	return rc;
}

/* "params": what the run was asked to do (absent in a bare document). */
static void
params_load(struct ld *L, struct json_object *p, struct run_result *r)
{
	if (!p)
		return;
	snprintf(L->where, sizeof L->where, "params");
	r->params.bs = (uint32_t)gum(L, p, "bs", UINT32_MAX);
	r->params.qd = (unsigned)gum(L, p, "qd", UINT32_MAX);
	r->params.seconds = gd(L, p, "seconds");
	r->params.size = gu(L, p, "size");
	r->params.ramp_s = gd(L, p, "ramp_s");
	struct json_object *reg = get(p, "region");
	char unit[16] = "";
	if (reg)
		gs(L, reg, "unit", unit, sizeof(unit));
	r->params.region_lba = strcmp(unit, "lba") == 0;
	if (r->params.region_lba) {
		r->params.region_lba_start = gu(L, reg, "start");
		r->params.region_lba_end = gu(L, reg, "end");
		r->params.region_start = 0;
		r->params.region_end = 1;
	} else {
		r->params.region_start = reg ? gd(L, reg, "start") : 0;
		r->params.region_end = reg ? gd(L, reg, "end") : 1;
		if (r->params.region_start > 1 || r->params.region_end > 1)
			ld_bad(L, "region", "a fraction above 1");
	}
	gs(L, p, "pattern", r->params.pattern, sizeof(r->params.pattern));
	r->params.stride = gu(L, p, "stride");
	gs(L, p, "data", r->params.data, sizeof(r->params.data));
	r->params.rw_mix = (int)gum(L, p, "read_pct", 100);
	gs(L, p, "engine", r->params.engine, sizeof(r->params.engine));
	r->params.seed = gu(L, p, "seed");
	L->where[0] = 0;
}

/* "solo": each drive alone before the steps; L->where stays at the last. */
static int
solo_load(struct ld *L, struct json_object *solo, struct run_result *r)
{
	size_t ns = is_array(solo) ? json_object_array_length(solo) : 0;
	int rc = 0;
	if (ns) {
		r->solo = calloc(ns, sizeof(*r->solo));
		if (!r->solo)
			rc = -ENOMEM;
		for (size_t i = 0; !rc && i < ns; i++, r->n_solo++) {
			snprintf(L->where, sizeof L->where, "solo[%zu]", i);
			rc = target_load(L, json_object_array_get_idx(solo, i), &r->solo[i]);
		}
	}
	return rc;
}

/* Step i: its settings, CPU time and per-target results. */
static int
step_load(struct ld *L, struct json_object *so, struct step_result *s, size_t i)
{
	if (!so || !json_object_is_type(so, json_type_object))
		return ld_bad(L, "step", "not an object");
	s->index = (unsigned)gum(L, so, "index", UINT32_MAX);
	int rc = glist(L, so, "active", &s->active);
	s->aggregate_mbps = gd_known(L, so, "aggregate_mbps");
	s->ideal_mbps = gd(L, so, "ideal_mbps");
	s->seconds = gd(L, so, "seconds");
	gs(L, so, "label", s->label, sizeof(s->label));
	s->bs = (uint32_t)gum(L, so, "bs", UINT32_MAX);
	s->qd = (unsigned)gum(L, so, "qd", UINT32_MAX);
	s->rw_mix = (int)gum(L, so, "read_pct", 100);
	gs(L, so, "pattern", s->pattern, sizeof(s->pattern));
	s->window_s = gd(L, so, "window_s");
	struct json_object *fl = get(so, "failed");
	s->failed = fl && json_object_is_type(fl, json_type_boolean) && json_object_get_boolean(fl);
	struct json_object *cpu = get(so, "cpu");
	s->cpu_usr_s = gd(L, cpu, "usr_s");
	s->cpu_sys_s = gd(L, cpu, "sys_s");
	struct json_object *res = get(so, "results");
	size_t m = is_array(res) ? json_object_array_length(res) : 0;
	s->res = calloc(m ? m : 1, sizeof(*s->res));
	if (!s->res)
		return -ENOMEM;
	for (size_t k = 0; !rc && k < m; k++, s->n_res++) {
		snprintf(L->where, sizeof L->where, "steps[%zu].results[%zu]", i, k);
		rc = target_load(L, json_object_array_get_idx(res, k), &s->res[k]);
	}
	return rc;
}

/* "steps": a list, each step loaded until the first that fails. */
static int
steps_load(struct ld *L, struct json_object *steps, struct run_result *r)
{
	if (!is_array(steps))
		return ld_bad(L, "steps", "not a list");
	size_t n = json_object_array_length(steps);
	int rc = 0;
	r->steps = calloc(n ? n : 1, sizeof(*r->steps));
	if (!r->steps)
		return -ENOMEM;
	for (size_t i = 0; !rc && i < n; i++) {
		r->n_steps++;
		snprintf(L->where, sizeof L->where, "steps[%zu]", i);
		rc = step_load(L, json_object_array_get_idx(steps, i), &r->steps[i], i);
	}
	return rc;
}

/* "verdicts": level, text, evidence; an unknown level reads as info. */
static int
verdicts_load(struct ld *L, struct json_object *v, struct run_result *r)
{
	size_t nv = is_array(v) ? json_object_array_length(v) : 0;
	int rc = 0;
	if (nv) {
		r->verdicts = calloc(nv, sizeof(*r->verdicts));
		if (!r->verdicts)
			rc = -ENOMEM;
		for (size_t i = 0; !rc && i < nv; i++) {
			struct json_object *vo = json_object_array_get_idx(v, i);
			struct verdict *x = &r->verdicts[r->n_verdicts++];
			snprintf(L->where, sizeof L->where, "verdicts[%zu]", i);
			gs(L, vo, "kind", x->kind, sizeof(x->kind));
			gs(L, vo, "text", x->text, sizeof(x->text));
			x->knee_drives = (int)gum(L, vo, "knee_drives", 4096);
			x->ceiling_mbps = gd_rate(L, vo, "ceiling_mbps");
			char lv[8];
			gs(L, vo, "level", lv, sizeof(lv));
			if (verdict_level_parse(lv, &x->level))
				x->level = VL_INFO;
			struct json_object *ty = get(vo, "tally");
			x->tally = ty && json_object_is_type(ty, json_type_boolean) && json_object_get_boolean(ty);
			rc = glist(L, vo, "evidence", &x->evidence);
		}
	}
	return rc;
}

int
run_json_from_object(struct json_object *o, struct run_result *r, char *err, size_t errlen)
{
	struct ld L = { "", "" };
	memset(r, 0, sizeof(*r));
	if (!o || !json_object_is_type(o, json_type_object) || !get(o, "test") || !get(o, "steps")) {
		snprintf(err, errlen, "not a diskscope run (no \"run\" section with \"test\" and \"steps\")");
		return -EINVAL;
	}
	gs(&L, o, "test", r->test, sizeof(r->test));
	int rc = glist(&L, o, "targets", &r->targets);
	params_load(&L, get(o, "params"), r);
	char ts[32];
	gs(&L, o, "started", ts, sizeof(ts));
	struct tm tm = { 0 };
	if (strptime(ts, "%Y-%m-%dT%H:%M:%SZ", &tm))
		r->started = timegm(&tm);
	r->seconds = gd(&L, o, "seconds");
	struct json_object *b = get(o, "interrupted");
	r->interrupted = b && json_object_get_boolean(b);
	b = get(o, "virtual_time");
	r->virtual_time = b && json_object_get_boolean(b);
	r->ceiling_mbps = gd_rate(&L, o, "ceiling_mbps");
	gs(&L, o, "ceiling_text", r->ceiling_text, sizeof(r->ceiling_text));
	/* each part only while the ones before it loaded: the first error is
	 * the one named */
	if (!rc)
		rc = solo_load(&L, get(o, "solo"), r);
	if (!rc)
		rc = steps_load(&L, get(o, "steps"), r);
	if (!rc)
		rc = verdicts_load(&L, get(o, "verdicts"), r);
	L.where[0] = 0;
	if (!rc)
		rc = glist(&L, o, "notes", &r->notes);
	if (!rc) {
		struct json_object *fl = get(o, "failed");
		r->failed = fl && json_object_is_type(fl, json_type_boolean) && json_object_get_boolean(fl);
		rc = refused_load(&L, get(o, "refused"), r);
		if (!rc)
			rc = identity_load(&L, get(o, "identity"), r);
	}
	if (!rc)
		rc = tables_load(&L, get(o, "tables"), r);
	if (!rc && L.err[0])
		rc = -EINVAL;
	if (rc) {
		snprintf(err, errlen, "run section malformed: %s", rc == -ENOMEM ? "out of memory" : L.err);
		run_result_free(r);
		return rc;
	}
	verdicts_check(r);
	return 0;
}

/* The whole file, parsed strictly: a truncated document, bytes after it or
 * a syntax error each name the byte offset. */
static struct json_object *
load_doc(const char *path, char *err, size_t errlen, int *rcp)
{
	char *buf;
	size_t len;
	*rcp = input_read(path, 256u << 20, &buf, &len, err, errlen);	/* a FIFO must not block */
	if (*rcp)
		return NULL;
	*rcp = -EINVAL;
	struct json_tokener *tok = json_tokener_new();
	struct json_object *doc = NULL;
	size_t end = len;
	while (end > 0 && strchr(" \t\r\n", buf[end - 1]))
		end--;
	if (!tok)
		snprintf(err, errlen, "%s: out of memory", path);
	else if (end == 0)
		snprintf(err, errlen, "%s: empty file", path);
	else {
		json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
		doc = json_tokener_parse_ex(tok, buf, (int)end);
		enum json_tokener_error je = json_tokener_get_error(tok);
		size_t at = json_tokener_get_parse_end(tok);
		if (!doc && je == json_tokener_continue)
			snprintf(err, errlen, "%s: truncated JSON at byte %zu", path, end);
		else if (!doc)
			snprintf(err, errlen, "%s: not valid JSON at byte %zu (%s)", path, at,
				 json_tokener_error_desc(je));
		else if (at < end) {
			snprintf(err, errlen, "%s: trailing data after the JSON document at byte %zu", path, at);
			json_object_put(doc);
			doc = NULL;
		}
	}
	if (tok)
		json_tokener_free(tok);
	free(buf);
	return doc;
}

int
run_json_load(const char *path, struct run_result *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	int rc;
	struct json_object *doc = load_doc(path, err, errlen, &rc);
	if (!doc)
		return rc;
	struct json_object *sch = get(doc, "schema");
	if (sch && (!json_object_is_type(sch, json_type_int) || json_object_get_int(sch) != DS_SCHEMA)) {
		snprintf(err, errlen, "%s: schema %.20s, this diskscope reads schema %d", path,
			 json_object_to_json_string(sch), DS_SCHEMA);
		json_object_put(doc);
		return -EINVAL;
	}
	struct json_object *run = get(doc, "run");
	char e2[256] = "";
	rc = run_json_from_object(run ? run : doc, out, e2, sizeof(e2));
	if (rc)
		snprintf(err, errlen, "%s: %s", path, e2);
	json_object_put(doc);
	return rc;
}
