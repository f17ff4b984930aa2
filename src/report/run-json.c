/* run-json.c - run_result <-> the "run" section of a schema-1 document.
 * Unknown values are null (never 0); floats are rounded so a saved run reads
 * like a table, not like noise. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "report/doc.h"
#include "report/run.h"

const char *
run_errno_name(int e, char *buf, size_t n)
{
	const char *s = e > 0 ? strerrorname_np(e) : NULL;
	if (s)
		return s;
	snprintf(buf, n, "E%d", e);
	return buf;
}

int
run_errno_parse(const char *name)
{
	for (int e = 1; e < 200; e++) {
		const char *s = strerrorname_np(e);
		if (s && !strcmp(s, name))
			return e;
	}
	if (name[0] == 'E' && name[1] >= '0' && name[1] <= '9')
		return atoi(name + 1);
	return 0;
}

/* A double with `prec` significant decimals; NaN/inf -> null. */
/* json-c asserts on array calls with anything else: check first. */
static bool
is_array(struct json_object *o)
{
	return o && json_object_is_type(o, json_type_array);
}

static struct json_object *
jd(double v, int prec)
{
	if (!isfinite(v))
		return NULL;
	char b[48];
	snprintf(b, sizeof(b), "%.*f", prec, v);
	if (strchr(b, '.')) {		/* trim trailing zeros: 150.20 -> 150.2 */
		char *e = b + strlen(b) - 1;
		while (*e == '0')
			*e-- = 0;
		if (*e == '.')
			*e = 0;
	}
	if (!strcmp(b, "-0"))
		strcpy(b, "0");
	return json_object_new_double_s(v, b);
}

static struct json_object *
ju64(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

static struct json_object *
jlist(const struct strlist *l)
{
	struct json_object *a = json_object_new_array();
	for (size_t i = 0; i < l->n; i++)
		json_object_array_add(a, json_object_new_string(l->v[i]));
	return a;
}

static struct json_object *
jfloats(const float *v, size_t n, int prec)
{
	struct json_object *a = json_object_new_array_ext((int)n);
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, jd(v[i], prec));
	return a;
}

static struct json_object *
errors_json(const struct err_summary *x)
{
	struct json_object *e = json_object_new_object();
	json_object_object_add(e, "count", ju64(x->count));
	json_object_object_add(e, "first_offset", x->have_offsets ? ju64(x->first_offset) : NULL);
	json_object_object_add(e, "last_offset", x->have_offsets ? ju64(x->last_offset) : NULL);
	struct json_object *by = json_object_new_object();
	for (size_t i = 0; i < x->n_errno; i++) {
		char b[16];
		json_object_object_add(by, run_errno_name(x->by_errno[i].err, b, sizeof(b)),
				       ju64(x->by_errno[i].count));
	}
	json_object_object_add(e, "by_errno", by);
	return e;
}

static struct json_object *
known_json(const struct known_u64 *k)
{
	return k->known ? ju64(k->v) : NULL;
}

/* The identity block: the run, the host, each target's drive. */
static struct json_object *
identity_json(const struct run_result *r)
{
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "run_id", doc_str(r->run_id));
	json_object_object_add(o, "host", doc_str(r->host));
	json_object_object_add(o, "version", doc_str(r->version));
	struct json_object *a = json_object_new_array();
	for (size_t i = 0; i < r->n_ident; i++) {
		const struct target_ident *d = &r->ident[i];
		struct json_object *t = json_object_new_object();
		json_object_object_add(t, "target", doc_str(i < r->ident_targets.n ? r->ident_targets.v[i] : ""));
		json_object_object_add(t, "drive_id", doc_str(d->drive_id));
		json_object_object_add(t, "model", doc_str(d->model));
		json_object_object_add(t, "serial", doc_str(d->serial));
		json_object_object_add(t, "wwn", doc_str(d->wwn));
		json_object_object_add(t, "firmware", doc_str(d->firmware));
		json_object_object_add(t, "capacity_bytes", known_json(&d->capacity));
		struct json_object *sec = json_object_new_object();
		json_object_object_add(sec, "logical", known_json(&d->logical));
		json_object_object_add(sec, "physical", known_json(&d->physical));
		json_object_object_add(sec, "source", doc_str(d->sector_source));
		json_object_object_add(t, "sectors", sec);
		json_object_object_add(t, "controller", doc_str(d->controller));
		json_object_object_add(t, "port", doc_str(d->port));
		json_object_array_add(a, t);
	}
	json_object_object_add(o, "targets", a);
	return o;
}

static const char *const col_types[] = { [COL_STR] = "string", [COL_INT] = "int", [COL_DBL] = "double",
					 [COL_LBA] = "lba", [COL_BYTES] = "bytes" };

static struct json_object *
table_json(const struct result_table *t)
{
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "name", json_object_new_string(t->name));
	json_object_object_add(o, "title", doc_str(t->title));
	struct json_object *cols = json_object_new_array();
	for (size_t c = 0; c < t->n_cols; c++) {
		struct json_object *co = json_object_new_object();
		json_object_object_add(co, "name", json_object_new_string(t->cols[c].name));
		json_object_object_add(co, "title", doc_str(t->cols[c].title));
		json_object_object_add(co, "type", json_object_new_string(col_types[t->cols[c].type]));
		json_object_object_add(co, "unit", doc_str(t->cols[c].unit));
		json_object_object_add(co, "decimals", json_object_new_int(t->cols[c].prec));
		json_object_array_add(cols, co);
	}
	json_object_object_add(o, "columns", cols);
	struct json_object *rows = json_object_new_array();
	for (size_t r = 0; r < t->n_rows; r++) {
		struct json_object *row = json_object_new_array();
		for (size_t c = 0; c < t->n_cols; c++) {
			const struct result_cell *x = &t->cells[r * t->n_cols + c];
			struct json_object *v = NULL;
			if (x->known)
				switch (t->cols[c].type) {
				case COL_STR: v = doc_str(x->s ? x->s : ""); break;
				case COL_DBL: v = jd(x->d, t->cols[c].prec + 1); break;
				default: v = json_object_new_int64(x->i); break;
				}
			json_object_array_add(row, v);
		}
		json_object_array_add(rows, row);
	}
	json_object_object_add(o, "rows", rows);
	return o;
}

static struct json_object *
target_json(const struct target_result *t)
{
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "target", json_object_new_string(t->target));
	json_object_object_add(o, "drive_id", doc_str(t->drive_id));
	json_object_object_add(o, "model", doc_str(t->model));
	json_object_object_add(o, "serial", doc_str(t->serial));
	json_object_object_add(o, "engine", doc_str(t->engine));
	bool ran = t->seconds > 0;
	json_object_object_add(o, "mbps", ran ? jd(t->mbps, 2) : NULL);
	json_object_object_add(o, "read_mbps", ran ? jd(t->read_mbps, 2) : NULL);
	json_object_object_add(o, "write_mbps", ran ? jd(t->write_mbps, 2) : NULL);
	json_object_object_add(o, "iops", ran ? jd(t->iops, 1) : NULL);
	json_object_object_add(o, "bytes", ju64(t->bytes));
	json_object_object_add(o, "ios", ju64(t->ios));
	json_object_object_add(o, "seconds", jd(t->seconds, 3));
	struct json_object *lat = NULL;
	if (t->lat.known) {
		lat = json_object_new_object();
		json_object_object_add(lat, "min", jd(t->lat.min, 1));
		json_object_object_add(lat, "mean", jd(t->lat.mean, 1));
		json_object_object_add(lat, "stddev", jd(t->lat.stddev, 1));
		json_object_object_add(lat, "p50", jd(t->lat.p50, 1));
		json_object_object_add(lat, "p90", jd(t->lat.p90, 1));
		json_object_object_add(lat, "p99", jd(t->lat.p99, 1));
		json_object_object_add(lat, "p999", jd(t->lat.p999, 1));
		json_object_object_add(lat, "max", jd(t->lat.max, 1));
	}
	json_object_object_add(o, "lat_us", lat);
	json_object_object_add(o, "errors", errors_json(&t->err));
	json_object_object_add(o, "ramp_errors", errors_json(&t->ramp_err));
	json_object_object_add(o, "stopped_early", json_object_new_boolean(t->stopped_early));
	struct json_object *s = json_object_new_object();
	json_object_object_add(s, "interval_ms", json_object_new_int((int)t->series.interval_ms));
	json_object_object_add(s, "mbps", jfloats(t->series.mbps, t->series.n, 2));
	json_object_object_add(s, "iops", jfloats(t->series.iops, t->series.n, 1));
	json_object_object_add(s, "p99_us", jfloats(t->series.p99_us, t->series.n, 1));
	json_object_object_add(s, "pos", t->series.pos ? jfloats(t->series.pos, t->series.n, 4) : NULL);
	json_object_object_add(o, "series", s);
	struct json_object *bp = NULL;
	if (t->by_pos.n) {
		bp = json_object_new_object();
		json_object_object_add(bp, "start_byte", ju64(t->by_pos.start));
		json_object_object_add(bp, "end_byte", ju64(t->by_pos.end));
		json_object_object_add(bp, "mbps", jfloats(t->by_pos.mbps, t->by_pos.n, 2));
		json_object_object_add(bp, "max_lat_us", jfloats(t->by_pos.max_lat_us, t->by_pos.n, 1));
	}
	json_object_object_add(o, "by_position", bp);
	struct json_object *h = json_object_new_object();
	struct json_object *hu = json_object_new_array_ext((int)t->hist.n);
	struct json_object *hc = json_object_new_array_ext((int)t->hist.n);
	for (size_t i = 0; i < t->hist.n; i++) {
		json_object_array_add(hu, jd(t->hist.upper_us[i], 3));
		json_object_array_add(hc, ju64(t->hist.count[i]));
	}
	json_object_object_add(h, "upper_us", hu);
	json_object_object_add(h, "count", hc);
	json_object_object_add(o, "hist", h);
	json_object_object_add(o, "note", doc_str(t->note));
	return o;
}

struct json_object *
run_json(const struct run_result *r)
{
	struct json_object *o = json_object_new_object();
	if (!o)
		return NULL;
	const struct run_params *p = &r->params;
	json_object_object_add(o, "test", json_object_new_string(r->test));
	json_object_object_add(o, "targets", jlist(&r->targets));
	struct json_object *pj = json_object_new_object();
	json_object_object_add(pj, "bs", ju64(p->bs));
	json_object_object_add(pj, "qd", json_object_new_int((int)p->qd));
	json_object_object_add(pj, "seconds", p->seconds > 0 ? jd(p->seconds, 3) : NULL);
	json_object_object_add(pj, "size", p->size ? ju64(p->size) : NULL);
	json_object_object_add(pj, "ramp_s", jd(p->ramp_s, 3));
	struct json_object *reg = json_object_new_object();
	if (p->region_lba) {
		json_object_object_add(reg, "unit", json_object_new_string("lba"));
		json_object_object_add(reg, "start", ju64(p->region_lba_start));
		json_object_object_add(reg, "end", p->region_lba_end ? ju64(p->region_lba_end) : NULL);
	} else {
		json_object_object_add(reg, "unit", json_object_new_string("fraction"));
		json_object_object_add(reg, "start", jd(p->region_start, 6));
		json_object_object_add(reg, "end", jd(p->region_end, 6));
	}
	json_object_object_add(pj, "region", reg);
	json_object_object_add(pj, "pattern", json_object_new_string(p->pattern));
	json_object_object_add(pj, "stride", p->stride ? ju64(p->stride) : NULL);
	json_object_object_add(pj, "data", json_object_new_string(p->data));
	json_object_object_add(pj, "read_pct", json_object_new_int(p->rw_mix));
	json_object_object_add(pj, "engine", doc_str(p->engine));
	json_object_object_add(pj, "seed", ju64(p->seed));
	json_object_object_add(o, "params", pj);
	char ts[32];
	struct tm tm;
	gmtime_r(&r->started, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(o, "started", json_object_new_string(ts));
	json_object_object_add(o, "seconds", jd(r->seconds, 3));
	json_object_object_add(o, "interrupted", json_object_new_boolean(r->interrupted));
	json_object_object_add(o, "virtual_time", json_object_new_boolean(r->virtual_time));
	json_object_object_add(o, "ceiling_mbps", r->ceiling_mbps > 0 ? jd(r->ceiling_mbps, 0) : NULL);
	json_object_object_add(o, "ceiling_text", doc_str(r->ceiling_text));
	struct json_object *solo = json_object_new_array();
	for (size_t i = 0; i < r->n_solo; i++)
		json_object_array_add(solo, target_json(&r->solo[i]));
	json_object_object_add(o, "solo", solo);
	struct json_object *steps = json_object_new_array();
	for (size_t i = 0; i < r->n_steps; i++) {
		const struct step_result *s = &r->steps[i];
		struct json_object *so = json_object_new_object();
		json_object_object_add(so, "index", json_object_new_int((int)s->index));
		json_object_object_add(so, "active", jlist(&s->active));
		struct json_object *res = json_object_new_array();
		for (size_t k = 0; k < s->n_res; k++)
			json_object_array_add(res, target_json(&s->res[k]));
		json_object_object_add(so, "results", res);
		json_object_object_add(so, "aggregate_mbps", jd(s->aggregate_mbps, 2));
		json_object_object_add(so, "ideal_mbps", s->ideal_mbps > 0 ? jd(s->ideal_mbps, 2) : NULL);
		struct json_object *cpu = json_object_new_object();
		json_object_object_add(cpu, "usr_s", jd(s->cpu_usr_s, 3));
		json_object_object_add(cpu, "sys_s", jd(s->cpu_sys_s, 3));
		json_object_object_add(so, "cpu", cpu);
		json_object_object_add(so, "seconds", jd(s->seconds, 3));
		json_object_object_add(so, "label", doc_str(s->label));
		if (s->bs) {	/* the step's own parameters */
			json_object_object_add(so, "bs", json_object_new_int64(s->bs));
			json_object_object_add(so, "qd", json_object_new_int64(s->qd));
			json_object_object_add(so, "read_pct", json_object_new_int(s->rw_mix));
			json_object_object_add(so, "pattern", doc_str(s->pattern));
		}
		json_object_object_add(so, "window_s", s->window_s > 0 ? jd(s->window_s, 3) : NULL);
		json_object_object_add(so, "failed", json_object_new_boolean(s->failed));
		json_object_array_add(steps, so);
	}
	json_object_object_add(o, "steps", steps);
	struct json_object *v = json_object_new_array();
	for (size_t i = 0; i < r->n_verdicts; i++) {
		const struct verdict *x = &r->verdicts[i];
		struct json_object *vo = json_object_new_object();
		json_object_object_add(vo, "kind", json_object_new_string(x->kind));
		json_object_object_add(vo, "text", json_object_new_string(x->text));
		json_object_object_add(vo, "knee_drives", json_object_new_int(x->knee_drives));
		json_object_object_add(vo, "ceiling_mbps", x->ceiling_mbps > 0 ? jd(x->ceiling_mbps, 0) : NULL);
		json_object_object_add(vo, "level", json_object_new_string(verdict_level_name(x->level)));
		json_object_object_add(vo, "evidence", jlist(&x->evidence));
		json_object_array_add(v, vo);
	}
	json_object_object_add(o, "verdicts", v);
	json_object_object_add(o, "notes", jlist(&r->notes));
	json_object_object_add(o, "failed", json_object_new_boolean(r->failed));
	struct json_object *tabs = json_object_new_array();
	for (size_t i = 0; i < r->n_tables; i++)
		json_object_array_add(tabs, table_json(&r->tables[i]));
	json_object_object_add(o, "tables", tabs);
	json_object_object_add(o, "identity", identity_json(r));
	return o;
}

int
run_json_write(const struct run_result *r, const char *path)
{
	struct json_object *doc = doc_new();
	struct json_object *run = run_json(r);
	if (!doc || !run) {
		json_object_put(doc);
		json_object_put(run);
		return -ENOMEM;
	}
	json_object_object_add(doc, "run", run);
	int rc = doc_write(doc, path);
	json_object_put(doc);
	return rc;
}

/* ---- loading ---- */

static struct json_object *
get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;
	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static double
gd(struct json_object *o, const char *k)
{
	struct json_object *v = get(o, k);
	return v ? json_object_get_double(v) : 0;
}

static double
gdn(struct json_object *o, const char *k)	/* null -> NaN */
{
	struct json_object *v = get(o, k);
	return v ? json_object_get_double(v) : NAN;
}

static uint64_t
gu(struct json_object *o, const char *k)
{
	struct json_object *v = get(o, k);
	return v ? (uint64_t)json_object_get_int64(v) : 0;
}

static void
gs(struct json_object *o, const char *k, char *dst, size_t n)
{
	struct json_object *v = get(o, k);
	strtrimcpy(dst, n, v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "");
}

static int
glist(struct json_object *o, const char *k, struct strlist *l)
{
	struct json_object *a = get(o, k);
	if (!a || !json_object_is_type(a, json_type_array))
		return 0;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *s = json_object_array_get_idx(a, i);
		if (s && strlist_add(l, json_object_get_string(s)))
			return -ENOMEM;
	}
	return 0;
}

static float *
gfloats(struct json_object *a, size_t n)
{
	float *v = calloc(n ? n : 1, sizeof(float));
	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(a, i);
		v[i] = x ? (float)json_object_get_double(x) : NAN;
	}
	return v;
}

static void
err_load(struct json_object *e, struct err_summary *x)
{
	if (!e || !json_object_is_type(e, json_type_object))
		return;
	x->count = gu(e, "count");
	struct json_object *f = get(e, "first_offset");
	if (f) {
		x->have_offsets = true;
		x->first_offset = (uint64_t)json_object_get_int64(f);
		x->last_offset = gu(e, "last_offset");
	}
	struct json_object *by = get(e, "by_errno");
	if (by && json_object_is_type(by, json_type_object)) {
		json_object_object_foreach(by, key, val) {
			if (x->n_errno >= ARRAY_SIZE(x->by_errno))
				break;
			x->by_errno[x->n_errno].err = run_errno_parse(key);
			x->by_errno[x->n_errno++].count = (uint64_t)json_object_get_int64(val);
		}
	}
}

static struct known_u64
gk(struct json_object *o, const char *k)
{
	struct json_object *v = get(o, k);
	struct known_u64 r = { false, 0 };
	if (v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))) {
		r.known = true;
		r.v = (uint64_t)json_object_get_int64(v);
	}
	return r;
}

/* The identity block and the tables (added in schema 1; absent in older
 * saved runs, which load without them). */
static int
identity_load(struct json_object *id, struct run_result *r)
{
	if (!id || !json_object_is_type(id, json_type_object))
		return 0;
	gs(id, "run_id", r->run_id, sizeof(r->run_id));
	gs(id, "host", r->host, sizeof(r->host));
	gs(id, "version", r->version, sizeof(r->version));
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
		gs(t, "target", name, sizeof(name));
		if (strlist_add(&r->ident_targets, name))
			return -ENOMEM;
		r->n_ident = i + 1;
		gs(t, "drive_id", d->drive_id, sizeof(d->drive_id));
		gs(t, "model", d->model, sizeof(d->model));
		gs(t, "serial", d->serial, sizeof(d->serial));
		gs(t, "wwn", d->wwn, sizeof(d->wwn));
		gs(t, "firmware", d->firmware, sizeof(d->firmware));
		d->capacity = gk(t, "capacity_bytes");
		struct json_object *sec = get(t, "sectors");
		d->logical = gk(sec, "logical");
		d->physical = gk(sec, "physical");
		gs(sec, "source", d->sector_source, sizeof(d->sector_source));
		gs(t, "controller", d->controller, sizeof(d->controller));
		gs(t, "port", d->port, sizeof(d->port));
	}
	return 0;
}

static int
tables_load(struct json_object *a, struct run_result *r)
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
			gs(co, "name", c[k].name, sizeof(c[k].name));
			gs(co, "title", c[k].title, sizeof(c[k].title));
			gs(co, "unit", c[k].unit, sizeof(c[k].unit));
			gs(co, "type", type, sizeof(type));
			c[k].type = COL_STR;
			for (size_t y = 0; y < ARRAY_SIZE(col_types); y++)
				if (!strcmp(type, col_types[y]))
					c[k].type = (enum col_type)y;
			uint64_t dec = gu(co, "decimals");
			c[k].prec = c[k].type == COL_DBL ? (dec <= 6 ? (int)dec : 1) : 0;
		}
		char name[32], title[80];
		gs(to, "name", name, sizeof(name));
		gs(to, "title", title, sizeof(title));
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
target_load(struct json_object *o, struct target_result *t)
{
	memset(t, 0, sizeof(*t));
	gs(o, "target", t->target, sizeof(t->target));
	gs(o, "drive_id", t->drive_id, sizeof(t->drive_id));
	gs(o, "model", t->model, sizeof(t->model));
	gs(o, "serial", t->serial, sizeof(t->serial));
	gs(o, "engine", t->engine, sizeof(t->engine));
	gs(o, "note", t->note, sizeof(t->note));
	t->mbps = gd(o, "mbps");
	t->read_mbps = gd(o, "read_mbps");
	t->write_mbps = gd(o, "write_mbps");
	t->iops = gd(o, "iops");
	t->bytes = gu(o, "bytes");
	t->ios = gu(o, "ios");
	t->seconds = gd(o, "seconds");
	struct json_object *lat = get(o, "lat_us");
	if (lat && json_object_is_type(lat, json_type_object)) {
		t->lat.known = true;
		t->lat.min = gdn(lat, "min");
		t->lat.mean = gdn(lat, "mean");
		t->lat.stddev = gdn(lat, "stddev");
		t->lat.p50 = gdn(lat, "p50");
		t->lat.p90 = gdn(lat, "p90");
		t->lat.p99 = gdn(lat, "p99");
		t->lat.p999 = gdn(lat, "p999");
		t->lat.max = gdn(lat, "max");
	}
	err_load(get(o, "errors"), &t->err);
	err_load(get(o, "ramp_errors"), &t->ramp_err);
	struct json_object *se = get(o, "stopped_early");
	t->stopped_early = se && json_object_is_type(se, json_type_boolean) && json_object_get_boolean(se);
	struct json_object *s = get(o, "series");
	if (s) {
		t->series.interval_ms = (unsigned)gu(s, "interval_ms");
		struct json_object *m = get(s, "mbps"), *i = get(s, "iops"), *p = get(s, "p99_us"),
				   *pos = get(s, "pos");
		size_t n = m && json_object_is_type(m, json_type_array) ? json_object_array_length(m) : 0;
		if (n) {
			if (!is_array(i) || json_object_array_length(i) != n ||
			    !is_array(p) || json_object_array_length(p) != n)
				return -EINVAL;
			t->series.n = n;
			t->series.mbps = gfloats(m, n);
			t->series.iops = gfloats(i, n);
			t->series.p99_us = gfloats(p, n);
			if (pos && json_object_is_type(pos, json_type_array) && json_object_array_length(pos) == n)
				t->series.pos = gfloats(pos, n);
			if (!t->series.mbps || !t->series.iops || !t->series.p99_us)
				return -ENOMEM;
		}
	}
	struct json_object *bp = get(o, "by_position");
	struct json_object *bm = get(bp, "mbps"), *bl = get(bp, "max_lat_us");
	size_t nbp = is_array(bm) ? json_object_array_length(bm) : 0;
	if (nbp && is_array(bl) && json_object_array_length(bl) == nbp) {
		t->by_pos.start = gu(bp, "start_byte");
		t->by_pos.end = gu(bp, "end_byte");
		t->by_pos.mbps = gfloats(bm, nbp);
		t->by_pos.max_lat_us = gfloats(bl, nbp);
		if (!t->by_pos.mbps || !t->by_pos.max_lat_us)
			return -ENOMEM;
		t->by_pos.n = nbp;
	}
	struct json_object *h = get(o, "hist");
	if (h) {
		struct json_object *u = get(h, "upper_us"), *c = get(h, "count");
		size_t n = u && json_object_is_type(u, json_type_array) ? json_object_array_length(u) : 0;
		if (n && is_array(c) && json_object_array_length(c) == n) {
			t->hist.upper_us = calloc(n, sizeof(double));
			t->hist.count = calloc(n, sizeof(uint64_t));
			if (!t->hist.upper_us || !t->hist.count)
				return -ENOMEM;
			for (size_t k = 0; k < n; k++) {
				t->hist.upper_us[k] = json_object_get_double(json_object_array_get_idx(u, k));
				t->hist.count[k] = (uint64_t)json_object_get_int64(json_object_array_get_idx(c, k));
			}
			t->hist.n = n;
		}
	}
	return 0;
}

int
run_json_from_object(struct json_object *o, struct run_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	if (!o || !json_object_is_type(o, json_type_object) || !get(o, "test") || !get(o, "steps")) {
		snprintf(err, errlen, "not a diskscope run (no \"run\" section with \"test\" and \"steps\")");
		return -EINVAL;
	}
	gs(o, "test", r->test, sizeof(r->test));
	int rc = glist(o, "targets", &r->targets);
	struct json_object *p = get(o, "params");
	if (p) {
		r->params.bs = (uint32_t)gu(p, "bs");
		r->params.qd = (unsigned)gu(p, "qd");
		r->params.seconds = gd(p, "seconds");
		r->params.size = gu(p, "size");
		r->params.ramp_s = gd(p, "ramp_s");
		struct json_object *reg = get(p, "region");
		char unit[16] = "";
		if (reg)
			gs(reg, "unit", unit, sizeof(unit));
		r->params.region_lba = strcmp(unit, "lba") == 0;
		if (r->params.region_lba) {
			r->params.region_lba_start = gu(reg, "start");
			r->params.region_lba_end = gu(reg, "end");
			r->params.region_start = 0;
			r->params.region_end = 1;
		} else {
			r->params.region_start = reg ? gd(reg, "start") : 0;
			r->params.region_end = reg ? gd(reg, "end") : 1;
		}
		gs(p, "pattern", r->params.pattern, sizeof(r->params.pattern));
		r->params.stride = gu(p, "stride");
		gs(p, "data", r->params.data, sizeof(r->params.data));
		r->params.rw_mix = (int)gu(p, "read_pct");
		gs(p, "engine", r->params.engine, sizeof(r->params.engine));
		r->params.seed = gu(p, "seed");
	}
	char ts[32];
	gs(o, "started", ts, sizeof(ts));
	struct tm tm = { 0 };
	if (strptime(ts, "%Y-%m-%dT%H:%M:%SZ", &tm))
		r->started = timegm(&tm);
	r->seconds = gd(o, "seconds");
	struct json_object *b = get(o, "interrupted");
	r->interrupted = b && json_object_get_boolean(b);
	b = get(o, "virtual_time");
	r->virtual_time = b && json_object_get_boolean(b);
	r->ceiling_mbps = gd(o, "ceiling_mbps");
	gs(o, "ceiling_text", r->ceiling_text, sizeof(r->ceiling_text));
	struct json_object *solo = get(o, "solo");
	size_t ns = solo && json_object_is_type(solo, json_type_array) ? json_object_array_length(solo) : 0;
	if (ns) {
		r->solo = calloc(ns, sizeof(*r->solo));
		if (!r->solo)
			rc = -ENOMEM;
		for (size_t i = 0; !rc && i < ns; i++, r->n_solo++)
			rc = target_load(json_object_array_get_idx(solo, i), &r->solo[i]);
	}
	struct json_object *steps = get(o, "steps");
	size_t n = json_object_is_type(steps, json_type_array) ? json_object_array_length(steps) : 0;
	r->steps = calloc(n ? n : 1, sizeof(*r->steps));
	if (!r->steps)
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < n; i++) {
		struct json_object *so = json_object_array_get_idx(steps, i);
		struct step_result *s = &r->steps[i];
		r->n_steps++;
		s->index = (unsigned)gu(so, "index");
		rc = glist(so, "active", &s->active);
		s->aggregate_mbps = gd(so, "aggregate_mbps");
		s->ideal_mbps = gd(so, "ideal_mbps");
		s->seconds = gd(so, "seconds");
		gs(so, "label", s->label, sizeof(s->label));
		s->bs = (uint32_t)gu(so, "bs");
		s->qd = (unsigned)gu(so, "qd");
		s->rw_mix = (int)gu(so, "read_pct");
		gs(so, "pattern", s->pattern, sizeof(s->pattern));
		s->window_s = gd(so, "window_s");
		struct json_object *fl = get(so, "failed");
		s->failed = fl && json_object_is_type(fl, json_type_boolean) && json_object_get_boolean(fl);
		struct json_object *cpu = get(so, "cpu");
		s->cpu_usr_s = gd(cpu, "usr_s");
		s->cpu_sys_s = gd(cpu, "sys_s");
		struct json_object *res = get(so, "results");
		size_t m = res && json_object_is_type(res, json_type_array) ? json_object_array_length(res) : 0;
		s->res = calloc(m ? m : 1, sizeof(*s->res));
		if (!s->res) {
			rc = -ENOMEM;
			break;
		}
		for (size_t k = 0; !rc && k < m; k++, s->n_res++)
			rc = target_load(json_object_array_get_idx(res, k), &s->res[k]);
	}
	struct json_object *v = get(o, "verdicts");
	size_t nv = !rc && v && json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0;
	if (nv) {
		r->verdicts = calloc(nv, sizeof(*r->verdicts));
		if (!r->verdicts)
			rc = -ENOMEM;
		for (size_t i = 0; !rc && i < nv; i++) {
			struct json_object *vo = json_object_array_get_idx(v, i);
			struct verdict *x = &r->verdicts[r->n_verdicts++];
			gs(vo, "kind", x->kind, sizeof(x->kind));
			gs(vo, "text", x->text, sizeof(x->text));
			x->knee_drives = (int)gu(vo, "knee_drives");
			x->ceiling_mbps = gd(vo, "ceiling_mbps");
			char lv[8];
			gs(vo, "level", lv, sizeof(lv));
			if (verdict_level_parse(lv, &x->level))
				x->level = VL_INFO;
			rc = glist(vo, "evidence", &x->evidence);
		}
	}
	if (!rc)
		rc = glist(o, "notes", &r->notes);
	if (!rc) {
		struct json_object *fl = get(o, "failed");
		r->failed = fl && json_object_is_type(fl, json_type_boolean) && json_object_get_boolean(fl);
		rc = identity_load(get(o, "identity"), r);
	}
	if (!rc)
		rc = tables_load(get(o, "tables"), r);
	if (rc) {
		snprintf(err, errlen, "run section malformed (%s)", rc == -ENOMEM ? "out of memory" : "series lengths differ");
		run_result_free(r);
	}
	return rc;
}

int
run_json_load(const char *path, struct run_result *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	struct json_object *doc = json_object_from_file(path);
	if (!doc) {
		FILE *f = fopen(path, "r");
		if (!f) {
			int e = errno;
			snprintf(err, errlen, "%s: %s", path, strerror(e));
			return -e;
		}
		fclose(f);
		snprintf(err, errlen, "%s: not valid JSON (%s)", path, json_util_get_last_err());
		return -EINVAL;
	}
	struct json_object *sch = get(doc, "schema");
	if (sch && json_object_get_int(sch) != DS_SCHEMA) {
		snprintf(err, errlen, "%s: schema %d, this diskscope reads schema %d", path,
			 json_object_get_int(sch), DS_SCHEMA);
		json_object_put(doc);
		return -EINVAL;
	}
	struct json_object *run = get(doc, "run");
	char e2[192] = "";
	int rc = run_json_from_object(run ? run : doc, out, e2, sizeof(e2));
	if (rc)
		snprintf(err, errlen, "%s: %s", path, e2);
	json_object_put(doc);
	return rc;
}
