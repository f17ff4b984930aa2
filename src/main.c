/* main.c - argument parsing and dispatch; the only bridge between core and UI. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("diskscope %s\n", DS_VERSION);
		return 0;
	}
	fprintf(stderr, "diskscope: not yet\n");
	return EXIT_USAGE;
}
