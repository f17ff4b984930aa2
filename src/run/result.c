/* result.c - building and freeing a run_result: verdicts, tables, the run id,
 * and the error verdicts every test gets. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "run/runner.h"

static void
target_result_free(struct target_result *t)
{
	free(t->series.mbps);
	free(t->series.iops);
	free(t->series.p99_us);
	free(t->series.pos);
	free(t->hist.upper_us);
	free(t->hist.count);
	free(t->by_pos.mbps);
	free(t->by_pos.max_lat_us);
}

void
result_table_free(struct result_table *t)
{
	for (size_t i = 0; i < t->n_rows * t->n_cols; i++)
		free(t->cells[i].s);
	free(t->cells);
	free(t->cols);
	memset(t, 0, sizeof(*t));
}

int
result_table_copy(struct result_table *dst, const struct result_table *src)
{
	*dst = *src;
	size_t n = src->n_rows * src->n_cols;
	dst->cols = calloc(src->n_cols ? src->n_cols : 1, sizeof(*dst->cols));
	dst->cells = calloc(n ? n : 1, sizeof(*dst->cells));
	if (dst->cols && dst->cells) {
		memcpy(dst->cols, src->cols, src->n_cols * sizeof(*dst->cols));
		if (n)	/* a table with no rows yet has no cells (NULL) */
			memcpy(dst->cells, src->cells, n * sizeof(*dst->cells));
		bool ok = true;
		for (size_t i = 0; i < n; i++)
			if (src->cells[i].s && !(dst->cells[i].s = strdup(src->cells[i].s)))
				ok = false;
		if (ok)
			return 0;
		for (size_t i = 0; i < n; i++)
			if (src->cells[i].s)
				free(dst->cells[i].s);
	}
	free(dst->cols);
	free(dst->cells);
	memset(dst, 0, sizeof(*dst));
	return -ENOMEM;
}

void
run_result_free(struct run_result *r)
{
	if (!r)
		return;
	strlist_free(&r->targets);
	for (size_t i = 0; i < r->n_steps; i++) {
		for (size_t j = 0; j < r->steps[i].n_res; j++)
			target_result_free(&r->steps[i].res[j]);
		free(r->steps[i].res);
		strlist_free(&r->steps[i].active);
	}
	free(r->steps);
	for (size_t i = 0; i < r->n_solo; i++)
		target_result_free(&r->solo[i]);
	free(r->solo);
	for (size_t i = 0; i < r->n_verdicts; i++)
		strlist_free(&r->verdicts[i].evidence);
	free(r->verdicts);
	strlist_free(&r->notes);
	free(r->ident);
	strlist_free(&r->ident_targets);
	for (size_t i = 0; i < r->n_tables; i++)
		result_table_free(&r->tables[i]);
	free(r->tables);
	memset(r, 0, sizeof(*r));
}

/* ---- verdicts ---- */

struct verdict *
result_verdict(struct run_result *r, enum verdict_level lv, const char *kind, const char *fmt, ...)
{
	struct verdict *nv = realloc(r->verdicts, (r->n_verdicts + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	r->verdicts = nv;
	struct verdict *v = &nv[r->n_verdicts++];
	memset(v, 0, sizeof(*v));
	v->level = lv;
	snprintf(v->kind, sizeof(v->kind), "%s", kind);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->text, sizeof(v->text), fmt, ap);
	va_end(ap);
	return v;
}

int
verdict_evidence(struct verdict *v, const char *fmt, ...)
{
	char b[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	return strlist_add(&v->evidence, b);
}

static const char *const level_names[] = { [VL_INFO] = "info", [VL_PASS] = "pass",
					   [VL_WARN] = "warn", [VL_FAIL] = "fail" };

const char *
verdict_level_name(enum verdict_level lv)
{
	return (unsigned)lv < ARRAY_SIZE(level_names) ? level_names[lv] : "info";
}

int
verdict_level_parse(const char *s, enum verdict_level *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(level_names); i++)
		if (s && !strcmp(s, level_names[i])) {
			*out = (enum verdict_level)i;
			return 0;
		}
	return -EINVAL;
}

/* ---- tables ---- */

/* The schema's name of each column role: the one table of them. */
static const char *const role_keys[CR_COUNT] = {
	[CR_TARGET] = "target", [CR_VERDICT] = "verdict", [CR_REASONS] = "reasons",
	[CR_TEMP_C] = "temp_c", [CR_REALLOCATED] = "reallocated", [CR_PENDING] = "pending",
	[CR_AVG_MBPS] = "avg_mbps", [CR_MODE] = "mode", [CR_AT_GB] = "at_gb", [CR_MBPS] = "mbps",
	[CR_MAX_MS] = "max_ms", [CR_FAILED_BLOCKS] = "failed_blocks",
};

const char *
col_role_key(enum col_role role)
{
	return (unsigned)role < CR_COUNT && role_keys[role] ? role_keys[role] : "";
}

int
table_col_named(const struct result_table *t, const char *name)
{
	for (size_t i = 0; t && *name && i < t->n_cols; i++)
		if (!strcmp(t->cols[i].name, name))
			return (int)i;
	return -1;
}

int
table_col(const struct result_table *t, enum col_role role)
{
	return table_col_named(t, col_role_key(role));
}

const struct result_cell *
table_role_cell(const struct result_table *t, size_t row, enum col_role role)
{
	int c = table_col(t, role);
	return c >= 0 && row < t->n_rows ? &t->cells[row * t->n_cols + (size_t)c] : NULL;
}

/* A table's role from the roles of its columns (the first that fits). */
static enum table_role
role_of_cols(const struct result_table *t)
{
	static const struct {
		enum table_role role;
		enum col_role need[5];
	} fits[] = {
		{ TR_VERDICTS, { CR_TARGET, CR_VERDICT } },
		{ TR_SURFACE_MAP, { CR_TARGET, CR_AT_GB, CR_MBPS, CR_MAX_MS, CR_FAILED_BLOCKS } },
		{ TR_DRIVE_RATES, { CR_TARGET, CR_AVG_MBPS } },
	};
	for (size_t f = 0; f < ARRAY_SIZE(fits); f++) {
		bool all = true;
		for (size_t k = 0; all && k < ARRAY_SIZE(fits[f].need) && fits[f].need[k]; k++)
			all = table_col(t, fits[f].need[k]) >= 0;
		if (all)
			return fits[f].role;
	}
	return TR_NONE;
}

const struct result_table *
result_table_next(const struct run_result *r, enum table_role role, const struct result_table *after)
{
	size_t i = after ? (size_t)(after - r->tables) + 1 : 0;
	for (; r && i < r->n_tables; i++)
		if (r->tables[i].role == role)
			return &r->tables[i];
	return NULL;
}

struct result_table *
result_table_add(struct run_result *r, const char *name, const char *title,
		 const struct result_col *cols, size_t n_cols)
{
	struct result_table *nt = realloc(r->tables, (r->n_tables + 1) * sizeof(*nt));
	if (!nt)
		return NULL;
	r->tables = nt;
	struct result_table *t = &nt[r->n_tables];
	memset(t, 0, sizeof(*t));
	t->cols = calloc(n_cols ? n_cols : 1, sizeof(*t->cols));
	if (!t->cols)
		return NULL;
	memcpy(t->cols, cols, n_cols * sizeof(*cols));
	t->n_cols = n_cols;
	snprintf(t->name, sizeof(t->name), "%s", name);
	snprintf(t->title, sizeof(t->title), "%s", title ? title : "");
	t->role = role_of_cols(t);
	r->n_tables++;
	return t;
}

int
table_add_row(struct result_table *t)
{
	size_t n = (t->n_rows + 1) * t->n_cols;
	struct result_cell *c = realloc(t->cells, (n ? n : 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	t->cells = c;
	memset(&c[t->n_rows * t->n_cols], 0, t->n_cols * sizeof(*c));
	t->n_rows++;
	return 0;
}

struct result_cell *
table_cell(struct result_table *t, size_t row, size_t col)
{
	return row < t->n_rows && col < t->n_cols ? &t->cells[row * t->n_cols + col] : NULL;
}

void
table_set_dbl(struct result_table *t, size_t row, size_t col, double v)
{
	struct result_cell *c = table_cell(t, row, col);
	if (c)
		c->d = isfinite(v) ? known_dbl_of(v) : (struct known_dbl){ 0 };
}

void
table_set_known_dbl(struct result_table *t, size_t row, size_t col, struct known_dbl v)
{
	struct result_cell *c = table_cell(t, row, col);
	if (c)
		c->d = v.known && isfinite(v.v) ? v : (struct known_dbl){ 0 };
}

void
table_set_int(struct result_table *t, size_t row, size_t col, int64_t v)
{
	struct result_cell *c = table_cell(t, row, col);
	if (c)
		c->i = known_i64_of(v);
}

int
table_set_str(struct result_table *t, size_t row, size_t col, const char *s)
{
	struct result_cell *c = table_cell(t, row, col);
	if (!c)
		return -EINVAL;
	free(c->s);
	c->s = s ? strdup(s) : NULL;
	return s && !c->s ? -ENOMEM : 0;
}

void
table_cell_text(const struct result_table *t, size_t row, size_t col, char *buf, size_t n)
{
	const struct result_cell *c = row < t->n_rows && col < t->n_cols ?
		&t->cells[row * t->n_cols + col] : NULL;
	if (!c || !cell_known(c)) {
		snprintf(buf, n, "-");
		return;
	}
	const struct result_col *k = &t->cols[col];
	switch (k->type) {
	case COL_STR:
		snprintf(buf, n, "%s", c->s ? c->s : "-");
		break;
	case COL_INT:
	case COL_LBA:
		snprintf(buf, n, "%" PRId64, c->i.v);
		break;
	case COL_BYTES:
		if (c->i.v >= (1 << 20) && c->i.v % (1 << 20) == 0)
			snprintf(buf, n, "%" PRId64 "M", c->i.v >> 20);
		else if (c->i.v >= 1024 && c->i.v % 1024 == 0)
			snprintf(buf, n, "%" PRId64 "k", c->i.v >> 10);
		else
			snprintf(buf, n, "%" PRId64, c->i.v);
		break;
	case COL_DBL:
		snprintf(buf, n, "%.*f%s%s", k->prec, c->d.v, k->unit[0] && !strcmp(k->unit, "%") ? " " : "",
			 !strcmp(k->unit, "%") ? "%" : "");
		break;
	}
}

/* ---- identity ---- */

void
result_new_id(char *buf, size_t n)
{
	uint8_t b[16];
	ssize_t got = getrandom(b, sizeof(b), GRND_NONBLOCK);
	if (got != (ssize_t)sizeof(b)) {	/* no entropy yet: time, pid and address */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t x = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		uint64_t y = ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)buf;
		memcpy(b, &x, 8);
		memcpy(b + 8, &y, 8);
	}
	size_t o = 0;
	for (size_t i = 0; i < sizeof(b) && o + 2 < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%02x", b[i]);
}

/* ---- the error verdicts ---- */

static void
errors_text(const struct err_summary *e, char *by, size_t len)
{
	size_t o = 0;
	by[0] = 0;
	for (size_t k = 0; k < e->n_errno && o < len; k++) {
		char tmp[24];
		o += (size_t)snprintf(by + o, len - o, "%s%llu %s", k ? ", " : "",
				      (unsigned long long)e->by_errno[k].count,
				      errno_name(e->by_errno[k].err, tmp, sizeof(tmp)));
	}
}

/* One "errors" verdict for a target result with I/O errors; where names the
 * step or the solo pass.  Ramp-up errors are said apart. */
static void
verdict_target_errors(struct run_result *r, const struct target_result *t, const char *where)
{
	char by[128];
	if (t->err.count) {
		errors_text(&t->err, by, sizeof(by));
		struct verdict *v = result_verdict(r, VL_FAIL, "errors",
			"%s%s: %llu I/O error%s (%s), first at byte %llu, last at byte %llu",
			t->target, where, (unsigned long long)t->err.count,
			t->err.count == 1 ? "" : "s", by,
			(unsigned long long)t->err.first_offset,
			(unsigned long long)t->err.last_offset);
		if (v)
			v->problem = true;
		if (v && t->note[0])
			verdict_evidence(v, "%s", t->note);
	}
	if (t->ramp_err.count) {
		errors_text(&t->ramp_err, by, sizeof(by));
		struct verdict *v = result_verdict(r, VL_FAIL, "errors",
			"%s%s: %llu I/O error%s during ramp-up (%s), first at byte %llu, last at byte %llu",
			t->target, where, (unsigned long long)t->ramp_err.count,
			t->ramp_err.count == 1 ? "" : "s", by,
			(unsigned long long)t->ramp_err.first_offset,
			(unsigned long long)t->ramp_err.last_offset);
		if (v)
			v->problem = true;
	}
}

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
