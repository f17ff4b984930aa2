/* fuzz_cli.c - the command line: the input split at NUL bytes into argv,
 * through the global options (cli/globals.c, globals_extract) and then the
 * run option table (plan_parse_args), as
 * `diskscope [GLOBAL...] run TEST TARGET... [OPTIONS]` takes them. */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/options.h"
#include "fuzz.h"

#define MAX_ARGS 64

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	char *argv[MAX_ARGS + 2];
	int argc = 0;
	if (!text)
		return 0;
	argv[argc++] = "diskscope";
	for (size_t i = 0; i <= size && argc < MAX_ARGS;) {
		argv[argc++] = text + i;
		i += strlen(text + i) + 1;
	}
	argv[argc] = NULL;
	struct global_opts g;
	memset(&g, 0, sizeof g);
	int n = globals_extract(argc, argv, &g);
	if (n > 1) {
		struct plan p;
		struct run_outputs o;
		char err[512];
		plan_parse_args(&p, n - 1, argv + 1, cli_output_find, &o, err, sizeof err);
		plan_free(&p);
	}
	free(text);
	return 0;
}
