/* writer.h - the output formats of a run, one registry table (writers.c).
 * A new format is one file with a write function and one line in the table;
 * `diskscope run` takes --NAME FILE|- for every writer. */
#ifndef DS_WRITER_H
#define DS_WRITER_H
#include <stddef.h>
#include "run/result.h"

struct writer {
	const char *name;	/* the option: --json, --csv, --text */
	const char *arg;	/* metavar in --help */
	const char *help;
	/* Write the whole result to path ("-" = stdout), replacing the file
	 * only when complete.  0 / -errno. */
	int (*write)(const struct run_result *r, const char *path);
};

#define WRITER_MAX 8
extern const struct writer writer_table[];
extern const size_t writer_count;
const struct writer *writer_find(const char *name, size_t *idx);

/* Write through f into path atomically (FILE.tmp, then rename); "-" = stdout. */
int writer_to_path(const char *path, void (*print)(FILE *, const struct run_result *),
		   const struct run_result *r);
#endif
