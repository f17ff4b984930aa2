/* run-json.c - run_result -> the "run" section of a schema-1 document
 * (loading it back: run-load.c).
 * Unknown values are null (never 0); floats are rounded so a saved run reads
 * like a table, not like noise. */
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

const char *
run_errno_name(int e, char *buf, size_t n)
{
	return errno_name(e, buf, n);
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

/* A measured double with `prec` decimals; not finite (a float series'
 * gap, a rate of nothing) -> null, through doc.c. */
static struct json_object *
jd(double v, int prec)
{
	return doc_known_dbl_prec(&(struct known_dbl){ isfinite(v), v }, prec);
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

const char *const run_col_types[RUN_COL_TYPES] = {
	[COL_STR] = "string", [COL_INT] = "int", [COL_DBL] = "double", [COL_LBA] = "lba",
	[COL_BYTES] = "bytes"
};

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
		json_object_object_add(co, "type", json_object_new_string(run_col_types[t->cols[c].type]));
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
			if (cell_known(x))
				switch (t->cols[c].type) {
				case COL_STR: v = doc_str(x->s ? x->s : ""); break;
				/* by the column's type, as table_cell_text reads it */
				case COL_DBL: v = jd(x->d.v, t->cols[c].prec + 1); break;
				default: v = json_object_new_int64(x->i.v); break;
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
	json_object_object_add(o, "ceiling_mbps", doc_known_dbl_prec(&r->ceiling_mbps, 0));
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
		json_object_object_add(so, "aggregate_mbps", doc_known_dbl_prec(&s->aggregate_mbps, 2));
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
		json_object_object_add(vo, "ceiling_mbps", doc_known_dbl_prec(&x->ceiling_mbps, 0));
		json_object_object_add(vo, "level", json_object_new_string(verdict_level_name(x->level)));
		json_object_object_add(vo, "evidence", jlist(&x->evidence));
		if (x->tally)	/* only then: a count over the drives, no drive's own */
			json_object_object_add(vo, "tally", json_object_new_boolean(true));
		json_object_array_add(v, vo);
	}
	json_object_object_add(o, "verdicts", v);
	json_object_object_add(o, "notes", jlist(&r->notes));
	json_object_object_add(o, "failed", json_object_new_boolean(r->failed));
	struct json_object *ref = NULL;
	if (r->refused_rule[0] && (ref = json_object_new_object())) {
		json_object_object_add(ref, "rule", json_object_new_string(r->refused_rule));
		json_object_object_add(ref, "evidence", json_object_new_string(r->refused_evidence));
	}
	json_object_object_add(o, "refused", ref);	/* null: not refused */
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
