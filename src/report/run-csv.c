/* run-csv.c - one row per step x target (solo passes as step 0); unknown
 * values are empty cells. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "report/doc.h"
#include "report/run.h"

static void
cell(FILE *f, bool known, double v, int prec)
{
	if (known && isfinite(v))
		fprintf(f, ",%.*f", prec, v);
	else
		fputs(",", f);
}

static void
row(FILE *f, const struct run_result *r, unsigned step, size_t active, double agg, double ideal,
    const struct target_result *t)
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
	cell(f, step > 0, agg, 2);
	cell(f, ideal > 0, ideal, 2);
	fprintf(f, ",%u,%u,%s\n", r->params.bs, r->params.qd, r->interrupted ? "true" : "false");
}

void
run_csv_print(FILE *f, const struct run_result *r)
{
	fputs("test,step,active,target,mbps,read_mbps,write_mbps,iops,bytes,ios,seconds,"
	      "lat_min_us,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_p999_us,lat_max_us,"
	      "errors,first_error_offset,last_error_offset,aggregate_mbps,ideal_mbps,bs,qd,interrupted\n", f);
	for (size_t i = 0; i < r->n_solo; i++)
		row(f, r, 0, 1, 0, 0, &r->solo[i]);
	for (size_t s = 0; s < r->n_steps; s++) {
		const struct step_result *st = &r->steps[s];
		for (size_t k = 0; k < st->n_res; k++)
			row(f, r, st->index, st->active.n, st->aggregate_mbps, st->ideal_mbps, &st->res[k]);
	}
}

int
run_csv_write(const struct run_result *r, const char *path)
{
	struct doc_out o;
	int rc = doc_out_open(&o, path);
	if (rc)
		return rc;
	run_csv_print(o.f, r);
	return doc_out_commit(&o);	/* the stream's own errno: ENOSPC, EPIPE */
}
