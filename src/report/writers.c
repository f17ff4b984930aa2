/* writers.c - the registry of result formats, and the atomic file write
 * they share. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "report/run.h"
#include "report/doc.h"
#include "report/writer.h"

static int
text_write(const struct run_result *r, const char *path)
{
	return writer_to_path(path, run_text_print, r);
}

const struct writer writer_table[] = {
	{ "json", "FILE|-", "write the result document (schema 1)", run_json_write },
	{ "csv", "FILE|-", "write one row per step and target, then the test's tables", run_csv_write },
	{ "text", "FILE|-", "write the result table as printed", text_write },
};
const size_t writer_count = sizeof(writer_table) / sizeof(writer_table[0]);

const struct writer *
writer_find(const char *name, size_t *idx)
{
	for (size_t i = 0; name && i < writer_count; i++)
		if (!strcmp(writer_table[i].name, name)) {
			if (idx)
				*idx = i;
			return &writer_table[i];
		}
	return NULL;
}

int
writer_to_path(const char *path, void (*print)(FILE *, const struct run_result *),
	       const struct run_result *r)
{
	struct doc_out o;
	int rc = doc_out_open(&o, path);
	if (rc)
		return rc;
	print(o.f, r);
	return doc_out_commit(&o);	/* the stream's own errno: ENOSPC, EPIPE */
}
