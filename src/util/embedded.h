/* embedded.h - data files compiled into the binary (tools/embed.sh). */
#ifndef DS_EMBEDDED_H
#define DS_EMBEDDED_H
#include <stddef.h>

struct embedded_file {
	const char *path;	/* source path, e.g. "themes/default.theme" */
	const char *data;	/* NUL-terminated contents */
	size_t len;
};

extern const struct embedded_file embedded_files[];	/* ends with path == NULL */

/* The file whose path is `path`, or NULL. */
const struct embedded_file *embedded_find(const char *path);
#endif
