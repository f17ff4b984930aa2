/* doc.h - the JSON document every command shares (schema 1): schema, tool, host. */
#ifndef DS_DOC_H
#define DS_DOC_H
#include <json-c/json.h>
#include "inventory/inventory.h"

#define DS_SCHEMA 1

/* A new document with "schema", "tool" and "host" filled.  NULL on ENOMEM. */
struct json_object *doc_new(void);
/* Helpers: a known value or JSON null. */
struct json_object *doc_u64(const struct ds_u64 *v);
struct json_object *doc_dbl(const struct ds_dbl *v);
struct json_object *doc_str(const char *s);	/* "" -> null */
/* Write the document to a file ("-" = stdout), pretty; 0 or -errno.  Written to
 * FILE.tmp then renamed, so a reader never sees half a document. */
int doc_write(struct json_object *doc, const char *path);
/* "ok", "no access (EPERM)", "unchecked", "gone". */
void access_text(const struct drive *d, char *buf, size_t n);
/* The inventory section. */
struct json_object *doc_inventory(const struct inventory *inv);
#endif
