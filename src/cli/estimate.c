/* estimate.c - `diskscope estimate`: the array estimate of a saved
 * saturate/surface (or any) result, for the layout and drive count asked. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "cli/cli.h"
#include "report/run.h"
#include "run/estimate.h"

/* A result of a test that probes for DM-SMR (its flags in the registry: a
 * loaded document names its test). */
static bool
smr_probe(const struct run_result *r)
{
	const struct bench_test *t = bench_find(r->test);
	return ((t ? t->flags : 0) | r->test_flags) & TEST_SMR_PROBE;
}

static int
usage(FILE *f, int rc)
{
	fprintf(f, "usage: diskscope estimate RESULT.json [SMR.json] [--layout raid0|raid1|raid10|raid5|raid6|raidz1|raidz2]\n"
		   "                          [--drives N] [--json FILE]\n");
	return rc;
}

static void
print_table(FILE *f, const struct result_table *t)
{
	fprintf(f, "%s:\n", t->title);
	for (size_t c = 0; c < t->n_cols; c++) {
		char h[40];
		snprintf(h, sizeof(h), "%s%s%s%s", t->cols[c].title, t->cols[c].unit[0] ? " (" : "",
			 t->cols[c].unit, t->cols[c].unit[0] ? ")" : "");
		fprintf(f, c ? "  %-16s" : "  %-9s", h);
	}
	fputc('\n', f);
	for (size_t r = 0; r < t->n_rows; r++) {
		for (size_t c = 0; c < t->n_cols; c++) {
			char x[96];
			table_cell_text(t, r, c, x, sizeof(x));
			fprintf(f, c ? "  %-16s" : "  %-9s", x);
		}
		fputc('\n', f);
	}
}

int
estimate_cli(int argc, char **argv)
{
	const char *files[2] = { NULL, NULL }, *json = NULL;
	int only = -1;
	unsigned drives = 0;
	size_t nf = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help"))
			return usage(stdout, 0);
		if (!strcmp(a, "--layout") || !strcmp(a, "--drives") || !strcmp(a, "--json")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "diskscope estimate: %s needs a value\n", a);
				return EXIT_USAGE;
			}
			const char *v = argv[++i];
			if (!strcmp(a, "--layout")) {
				enum est_layout l;
				if (estimate_layout_parse(v, &l)) {
					fprintf(stderr, "diskscope estimate: --layout %s: not one of raid0, raid1, raid10, "
							"raid5, raid6, raidz1, raidz2\n", v);
					return EXIT_USAGE;
				}
				only = (int)l;
			} else if (!strcmp(a, "--drives")) {
				char *end;
				errno = 0;
				unsigned long n = strtoul(v, &end, 10);
				if (errno || end == v || *end || n < 1 || n > EST_MAX_DRIVES * 4) {
					fprintf(stderr, "diskscope estimate: --drives %s: a count from 1 to %d\n", v,
						EST_MAX_DRIVES * 4);
					return EXIT_USAGE;
				}
				drives = (unsigned)n;
			} else {
				json = v;
			}
		} else if (a[0] == '-') {
			fprintf(stderr, "diskscope estimate: %s: unknown option\n", a);
			return usage(stderr, EXIT_USAGE);
		} else if (nf < 2) {
			files[nf++] = a;
		} else {
			fprintf(stderr, "diskscope estimate: %s: at most two results (a rate result and an smr result)\n", a);
			return EXIT_USAGE;
		}
	}
	if (!nf)
		return usage(stderr, EXIT_USAGE);
	struct run_result res[2];
	memset(res, 0, sizeof(res));
	char err[512] = "";
	int rc = EXIT_USAGE;
	for (size_t i = 0; i < nf; i++)
		if (run_json_load(files[i], &res[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "diskscope estimate: %s\n", err[0] ? err : files[i]);
			goto out;
		}
	/* the smr result may come first or second */
	struct run_result *rates = &res[0], *smr = nf > 1 ? &res[1] : NULL;
	if (smr && smr_probe(rates) && !smr_probe(smr)) {
		rates = &res[1];
		smr = &res[0];
	}
	if (smr && !smr_probe(smr)) {
		fprintf(stderr, "diskscope estimate: %s: a %s result, not an smr result\n",
			smr == &res[1] ? files[1] : files[0], smr->test);
		goto out;
	}
	struct est_input *in = malloc(sizeof(*in));
	struct run_result out;
	memset(&out, 0, sizeof(out));
	if (!in || estimate_input(rates, smr, in)) {
		fprintf(stderr, "diskscope estimate: %s: no drive rate measured in it: no estimate\n",
			rates == &res[0] ? files[0] : files[1]);
		free(in);
		goto out;
	}
	char why[256];
	if (estimate_check(in, drives, why, sizeof(why))) {
		fprintf(stderr, "diskscope estimate: %s: no estimate: %s\n", rates == &res[0] ? files[0] : files[1],
			why);
		free(in);
		goto out;
	}
	snprintf(out.test, sizeof(out.test), "estimate");
	out.started = rates->started;
	for (size_t i = 0; i < rates->targets.n; i++)
		strlist_add(&out.targets, rates->targets.v[i]);
	int e = estimate_add_table(&out, in, only, drives);
	if (!e && !out.tables[0].n_rows) {
		fprintf(stderr, "diskscope estimate: --drives %u: too few drives for %s\n", drives,
			estimate_layout_name((enum est_layout)(only >= 0 ? only : 0)));
		rc = EXIT_USAGE;
	} else if (e) {
		fprintf(stderr, "diskscope estimate: %s\n", strerror(-e));
		rc = 1;
	} else {
		printf("drives measured: %zu (%s, %s)%s\n", in->n, rates->test,
		       in->ctrl_cap_mbps.known ? "controller saturated" : "no controller cap",
		       smr ? ", rewrite rates from smr" : "");
		print_table(stdout, &out.tables[0]);
		for (size_t i = 0; i < out.notes.n; i++)
			printf("note: %s\n", out.notes.v[i]);
		rc = 0;
		if (json && (e = run_json_write(&out, json)) < 0) {
			fprintf(stderr, "diskscope estimate: %s: %s\n", json, strerror(-e));
			rc = 1;
		}
	}
	run_result_free(&out);
	free(in);
out:
	for (size_t i = 0; i < nf; i++)
		run_result_free(&res[i]);
	return rc;
}

int
cli_estimate(int argc, char **argv, struct global_opts *g)
{
	(void)g;
	return estimate_cli(argc, argv);
}
