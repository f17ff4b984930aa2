/* options.c (cli) - `diskscope run --help`: the usage text around the
 * option table (bench/plan-options.c), and the output formats the table's
 * parser may name (the report's writers). */
#include <stdio.h>
#include <string.h>
#include "bench/bench.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "report/writer.h"
#include "util/util.h"

/* out->path[] is indexed by the writer's place in the registry. */
_Static_assert(WRITER_MAX <= PLAN_OUTPUTS_MAX, "run_outputs holds one path per writer");

int
cli_output_find(const char *name, const char **arg)
{
	size_t i;
	const struct writer *w = writer_find(name, &i);
	if (!w || i >= WRITER_MAX)
		return -1;
	if (arg)
		*arg = w->arg;
	return (int)i;
}

/* With a test: its summary and its own parameters first. */
void
options_usage(FILE *f, const struct bench_test *t)
{
	fprintf(f, "usage: diskscope run %s TARGET... [options]\n"
		   "TARGET: /dev/sdb, sdb, a directory (scratch file), sim:MODEL, ctrl:N or ctrl:ADDRESS\n",
		t ? t->name : "TEST");
	if (t) {
		fprintf(f, "%s: %s%s\n%s options:\n", t->name, t->summary, t->writes ? " (writes)" : "",
			t->name);
		bench_params_usage(t, f);
	} else {
		fprintf(f, "tests:\n");
		for (size_t i = 0; i < bench_count; i++)
			fprintf(f, "  %-10s %s%s\n", bench_table[i]->name, bench_table[i]->summary,
				bench_table[i]->writes ? " (writes)" : "");
		/* every test parameter once (defaults differ: diskscope run TEST --help) */
		fprintf(f, "test options (defaults per test: diskscope run TEST --help):\n");
		for (size_t i = 0; i < bench_count; i++)
			for (size_t k = 0; bench_table[i]->params && bench_table[i]->params[k]; k++) {
				const struct bench_param *bp = bench_table[i]->params[k];
				bool seen = false;
				for (size_t j = 0; j < i && !seen; j++)
					seen = bench_param_find(bench_table[j], bp->name, NULL) != NULL;
				if (seen)
					continue;
				char lhs[64];
				snprintf(lhs, sizeof(lhs), "--%s %s", bp->name, bp->arg ? bp->arg : "VALUE");
				fprintf(f, "  %-36s %s\n", lhs, bp->help);
			}
	}
	fprintf(f, "options:\n");
	plan_options_usage(f);
	for (size_t i = 0; i < writer_count; i++) {	/* one option per output format */
		char lhs[64];
		snprintf(lhs, sizeof(lhs), "--%s %s", writer_table[i].name, writer_table[i].arg);
		fprintf(f, "  %-36s %s\n", lhs, writer_table[i].help);
	}
	fprintf(f, "exit: 0 ok, 1 problems found, 2 usage or output not written, 3 refused by the guard,\n"
		   "      128+signal interrupted (129 HUP, 130 INT, 143 TERM)\n");
}

void
run_cli_usage(FILE *f)
{
	options_usage(f, NULL);
}

