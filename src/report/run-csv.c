/* run-csv.c - one row per step x target (solo passes as step 0); unknown
 * values are empty cells. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "report/doc.h"
#include "report/run.h"
#include "report/writer.h"

static void
cell(FILE *f, bool known, double v, int prec)
{
	if (known && isfinite(v))
		fprintf(f, ",%.*f", prec, v);
	else
		fputs(",", f);
}

static void
row(FILE *f, const struct run_result *r, const struct step_result *st, unsigned step, size_t active,
    struct known_dbl agg, double ideal, const struct target_result *t)
{
	fprintf(f, "%s,%u,%zu,\"%s\"", r->test, step, active, t->target);
	bool ran = t->seconds > 0;
	cell(f, ran, t->mbps, 2);
	cell(f, ran, t->read_mbps, 2);
	cell(f, ran, t->write_mbps, 2);
	cell(f, ran, t->iops, 1);
	fprintf(f, ",%llu,%llu,%.3f", (unsigned long long)t->bytes, (unsigned long long)t->ios, t->seconds);
	const struct lat_summary *l = &t->lat;
	cell(f, l->known, l->min, 1);
	cell(f, l->known, l->mean, 1);
	cell(f, l->known, l->p50, 1);
	cell(f, l->known, l->p90, 1);
	cell(f, l->known, l->p99, 1);
	cell(f, l->known, l->p999, 1);
	cell(f, l->known, l->max, 1);
	fprintf(f, ",%llu", (unsigned long long)t->err.count);
	if (t->err.have_offsets)
		fprintf(f, ",%llu,%llu", (unsigned long long)t->err.first_offset,
			(unsigned long long)t->err.last_offset);
	else
		fputs(",,", f);
	cell(f, step > 0 && agg.known, agg.v, 2);
	cell(f, ideal > 0, ideal, 2);
	bool own = st && st->bs;	/* the step's own parameters when recorded */
	fprintf(f, ",%u,%u,%s", own ? st->bs : r->params.bs, own ? st->qd : r->params.qd,
		r->interrupted ? "true" : "false");
	fprintf(f, ",%s,%llu\n", t->stopped_early ? "true" : "false", (unsigned long long)t->ramp_err.count);
}

/* A test's table: a blank line, "table,NAME", its header, its rows. */
static void
table_csv(FILE *f, const struct result_table *t)
{
	fprintf(f, "\ntable,%s\n", t->name);
	for (size_t c = 0; c < t->n_cols; c++)
		fprintf(f, "%s%s", c ? "," : "", t->cols[c].name);
	fputc('\n', f);
	for (size_t r = 0; r < t->n_rows; r++) {
		for (size_t c = 0; c < t->n_cols; c++) {
			const struct result_cell *x = &t->cells[r * t->n_cols + c];
			if (c)
				fputc(',', f);
			if (!cell_known(x))
				continue;
			if (t->cols[c].type == COL_STR) {
				fputc('"', f);
				for (const char *p = x->s ? x->s : ""; *p; p++)
					fprintf(f, *p == '"' ? "\"\"" : "%c", *p);
				fputc('"', f);
			} else if (t->cols[c].type == COL_DBL)
				fprintf(f, "%.*f", t->cols[c].prec + 1, x->d.v);
			else
				fprintf(f, "%lld", (long long)x->i.v);
		}
		fputc('\n', f);
	}
}

void
run_csv_print(FILE *f, const struct run_result *r)
{
	fputs("test,step,active,target,mbps,read_mbps,write_mbps,iops,bytes,ios,seconds,"
	      "lat_min_us,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_p999_us,lat_max_us,"
	      "errors,first_error_offset,last_error_offset,aggregate_mbps,ideal_mbps,bs,qd,interrupted,"
	      "stopped_early,ramp_errors\n", f);
	for (size_t i = 0; i < r->n_solo; i++)
		row(f, r, NULL, 0, 1, (struct known_dbl){ 0 }, 0, &r->solo[i]);
	for (size_t s = 0; s < r->n_steps; s++) {
		const struct step_result *st = &r->steps[s];
		for (size_t k = 0; k < st->n_res; k++)
			row(f, r, st, st->index, st->active.n, st->aggregate_mbps, st->ideal_mbps, &st->res[k]);
	}
	for (size_t i = 0; i < r->n_tables; i++)
		table_csv(f, &r->tables[i]);
	if (r->refused_rule[0]) {	/* as a table: the guard's rule and sentence */
		fprintf(f, "\ntable,refused\nrule,evidence\n\"%s\",\"", r->refused_rule);
		for (const char *p = r->refused_evidence; *p; p++)
			fprintf(f, *p == '"' ? "\"\"" : "%c", *p);
		fputs("\"\n", f);
	}
}

int
run_csv_write(const struct run_result *r, const char *path)
{
	return writer_to_path(path, run_csv_print, r);
}
