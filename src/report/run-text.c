/* run-text.c - the result table a technician reads on stdout. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report/run.h"

static void
lat(char *b, size_t n, bool known, double us)
{
	if (!known || !isfinite(us))
		snprintf(b, n, "?");
	else if (us >= 10000)
		snprintf(b, n, "%.1fms", us / 1000);
	else if (us >= 100)
		snprintf(b, n, "%.0fus", us);
	else
		snprintf(b, n, "%.1fus", us);
}

static void
size_str(char *b, size_t n, uint64_t v)
{
	if (v >= (1ull << 20) && v % (1ull << 20) == 0)
		snprintf(b, n, "%lluM", (unsigned long long)(v >> 20));
	else if (v >= 1024 && v % 1024 == 0)
		snprintf(b, n, "%lluk", (unsigned long long)(v >> 10));
	else
		snprintf(b, n, "%llu", (unsigned long long)v);
}

static void
target_row(FILE *f, const char *step, const struct target_result *t)
{
	char p50[16], p99[16], p999[16], mx[16], mbps[16], iops[16];
	lat(p50, sizeof(p50), t->lat.known, t->lat.p50);
	lat(p99, sizeof(p99), t->lat.known, t->lat.p99);
	lat(p999, sizeof(p999), t->lat.known, t->lat.p999);
	lat(mx, sizeof(mx), t->lat.known, t->lat.max);
	bool ran = t->seconds > 0;
	snprintf(mbps, sizeof(mbps), ran ? "%.1f" : "?", t->mbps);
	snprintf(iops, sizeof(iops), ran ? "%.0f" : "?", t->iops);
	fprintf(f, "%-5s %-16s %9s %9s %8s %8s %8s %8s %7.1f %6llu\n", step, t->target, mbps, iops,
		p50, p99, p999, mx, t->seconds, (unsigned long long)t->err.count);
	if (t->note[0])
		fprintf(f, "      note: %s\n", t->note);
	if (t->stopped_early)
		fprintf(f, "      stopped early: not in the aggregate past %.1f s\n", t->seconds);
	if (t->ramp_err.count)
		fprintf(f, "      %llu error%s during ramp-up (not counted above)\n",
			(unsigned long long)t->ramp_err.count, t->ramp_err.count == 1 ? "" : "s");
}

static const char *
q(const char *s)
{
	return s && s[0] ? s : "?";
}

/* The drive behind a target as the inventory saw it (only when it saw it). */
static void
ident_print(FILE *f, const char *target, const struct target_ident *d)
{
	if (!d->model[0] && !d->serial[0])
		return;
	char cap[24] = "?", lg[16] = "?", ph[16] = "?";
	if (d->capacity.known)
		snprintf(cap, sizeof(cap), "%.2f GB", (double)d->capacity.v / 1e9);
	if (d->logical.known)
		snprintf(lg, sizeof(lg), "%llu", (unsigned long long)d->logical.v);
	if (d->physical.known)
		snprintf(ph, sizeof(ph), "%llu", (unsigned long long)d->physical.v);
	fprintf(f, "drive %s: %s, serial %s, wwn %s, firmware %s, %s, sectors %s/%s (%s), controller %s %s\n",
		target, q(d->model), q(d->serial), q(d->wwn), q(d->firmware), cap, lg, ph,
		q(d->sector_source), q(d->controller), q(d->port));
}

/* A named table, columns as wide as their widest cell. */
static void
table_print(FILE *f, const struct result_table *t)
{
	fprintf(f, "%s%s%s:\n", t->name, t->title[0] ? ": " : "", t->title);
	int w[64];
	size_t nc = t->n_cols < 64 ? t->n_cols : 64;
	for (size_t c = 0; c < nc; c++) {
		char b[64];
		snprintf(b, sizeof(b), "%s%s%s%s", t->cols[c].title[0] ? t->cols[c].title : t->cols[c].name,
			 t->cols[c].unit[0] && strcmp(t->cols[c].unit, "%") ? " (" : "",
			 t->cols[c].unit[0] && strcmp(t->cols[c].unit, "%") ? t->cols[c].unit : "",
			 t->cols[c].unit[0] && strcmp(t->cols[c].unit, "%") ? ")" : "");
		w[c] = (int)strlen(b);
		for (size_t r = 0; r < t->n_rows; r++) {
			char x[64];
			table_cell_text(t, r, c, x, sizeof(x));
			if ((int)strlen(x) > w[c])
				w[c] = (int)strlen(x);
		}
		fprintf(f, "%s%*s", c ? "  " : "  ", w[c], b);
	}
	fputc('\n', f);
	for (size_t r = 0; r < t->n_rows; r++) {
		for (size_t c = 0; c < nc; c++) {
			char x[64];
			table_cell_text(t, r, c, x, sizeof(x));
			fprintf(f, "  %*s", w[c], x);
		}
		fputc('\n', f);
	}
}

void
run_text_print(FILE *f, const struct run_result *r)
{
	const struct run_params *p = &r->params;
	char bs[24];
	size_str(bs, sizeof(bs), p->bs);
	/* steps with parameters of their own (quick): the run's would mislead */
	bool own = false;
	for (size_t s = 0; s < r->n_steps; s++)
		own |= r->steps[s].bs && (r->steps[s].bs != p->bs || r->steps[s].qd != p->qd ||
					  strcmp(r->steps[s].pattern, p->pattern));
	char what[96];
	if (own)
		snprintf(what, sizeof(what), "block size, queue depth and pattern per step");
	else
		snprintf(what, sizeof(what), "bs %s, qd %u, %s", bs, p->qd, p->pattern);
	fprintf(f, "%s: %s, %s data, engine %s%s%s\n", r->test, what,
		p->data, p->engine[0] ? p->engine : "?", r->virtual_time ? ", virtual time" : "",
		r->interrupted ? " -- INTERRUPTED (partial result)" : "");
	fprintf(f, "%-5s %-16s %9s %9s %8s %8s %8s %8s %7s %6s\n", "step", "target", "MB/s", "IOPS",
		"p50", "p99", "p99.9", "max", "secs", "errors");
	for (size_t i = 0; i < r->n_solo; i++)
		target_row(f, "solo", &r->solo[i]);
	bool multi = r->n_steps > 1;
	for (size_t s = 0; s < r->n_steps; s++) {
		const struct step_result *st = &r->steps[s];
		char idx[8];
		snprintf(idx, sizeof(idx), "%u", st->index);
		if (st->label[0])	/* what the step is: "4 drives", "SEQ1M Q8T1 read #2" */
			fprintf(f, "%-5s %s\n", idx, st->label);
		for (size_t k = 0; k < st->n_res; k++)
			target_row(f, idx, &st->res[k]);
		if (multi || st->n_res > 1) {
			if (st->aggregate_mbps.known)
				fprintf(f, "%-5s %-16s %9.1f", "", "= aggregate", st->aggregate_mbps.v);
			else
				fprintf(f, "%-5s %-16s %9s", "", "= aggregate", "?");
			if (st->ideal_mbps > 0 && st->aggregate_mbps.known)
				fprintf(f, "   ideal %.1f MB/s (%.0f %%)", st->ideal_mbps,
					100.0 * st->aggregate_mbps.v / st->ideal_mbps);
			if (st->window_s > 0)
				fprintf(f, "   over the %.1f s all ran", st->window_s);
			fputc('\n', f);
		}
		if (st->failed)
			fprintf(f, "%-5s step %u could not run: nothing judged from it\n", "", st->index);
	}
	if (r->ceiling_mbps.known)
		fprintf(f, "link ceiling: %.0f MB/s (%s)\n", r->ceiling_mbps.v, r->ceiling_text);
	for (size_t i = 0; i < r->n_ident; i++)
		ident_print(f, i < r->ident_targets.n ? r->ident_targets.v[i] : "?", &r->ident[i]);
	for (size_t i = 0; i < r->n_tables; i++)
		table_print(f, &r->tables[i]);
	for (size_t i = 0; i < r->n_verdicts; i++) {
		fprintf(f, "%s: %s\n", r->verdicts[i].kind, r->verdicts[i].text);
		for (size_t k = 0; k < r->verdicts[i].evidence.n; k++)
			fprintf(f, "  - %s\n", r->verdicts[i].evidence.v[k]);
	}
	if (r->refused_rule[0])
		fprintf(f, "guard: %s (rule: %s)\n", r->refused_evidence, r->refused_rule);
	for (size_t i = 0; i < r->notes.n; i++)
		fprintf(f, "note: %s\n", r->notes.v[i]);
}
