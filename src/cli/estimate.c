/* estimate.c - the `estimate` command: the array estimate of a saved
 * result (report/estimate-cmd.c does the work; no I/O of its own). */
#include "cli/cli.h"
#include "report/estimate.h"

int
cli_estimate(int argc, char **argv, struct global_opts *g)
{
	(void)g;
	return estimate_cli(argc, argv);
}
