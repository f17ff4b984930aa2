/* doc.h - the JSON document every command shares (schema 1): schema, tool, host. */
#ifndef DS_DOC_H
#define DS_DOC_H
#include <stdio.h>
#include <json-c/json.h>
#include "inventory/inventory.h"
#include "util/known.h"

#define DS_SCHEMA 1

/* A new document with "schema", "tool" and "host" filled.  NULL on ENOMEM. */
struct json_object *doc_new(void);
/* A known value or JSON null: the one place an unknown becomes null. */
struct json_object *doc_known_u64(const struct known_u64 *v);
struct json_object *doc_known_i64(const struct known_i64 *v);
struct json_object *doc_known_dbl(const struct known_dbl *v);
struct json_object *doc_known_bool(const struct known_bool *v);
/* With prec decimals, trailing zeros trimmed (150.20 -> 150.2); a value
 * that is not finite is unknown too. */
struct json_object *doc_known_dbl_prec(const struct known_dbl *v, int prec);
struct json_object *doc_str(const char *s);	/* "" -> null */
/* Write the document to a file ("-" = stdout), pretty; 0 or -errno.  Written
 * through doc_out_*, so a reader never sees half a document. */
int doc_write(struct json_object *doc, const char *path);

/* An output file written safely (diskscope runs as root): PATH must be a
 * regular file or a new name; the bytes go to a fresh temporary beside it
 * (O_EXCL|O_NOFOLLOW, a unique name, so nothing planted there is followed),
 * which is fsync'd and renamed over PATH.  "-" is stdout, flushed and checked.
 * Every error is the real errno (ENOSPC, EPIPE, EROFS...). */
struct doc_out {
	FILE *f;
	const char *path;
	char tmp[4096];		/* "" for stdout */
};
/* 0, or -errno with err set ("PATH: a block device, not a regular file"). */
int doc_out_check(const char *path, char *err, size_t n);
int doc_out_open(struct doc_out *o, const char *path);
int doc_out_commit(struct doc_out *o);	/* flush, fsync, rename; 0 or -errno */
void doc_out_abort(struct doc_out *o);	/* close and remove the temporary */
/* Flush and check a stream (stdout): 0 or -errno (EIO when errno is unknown). */
int doc_flush(FILE *f);
/* "ok", "no access (EPERM)", "unchecked", "gone". */
void access_text(const struct drive *d, char *buf, size_t n);
/* The inventory section. */
struct json_object *doc_inventory(const struct inventory *inv);
/* A drive's "provenance" and "hidden_capacity" (inventory-prov.c): NULL
 * where the drive was not asked. */
struct json_object *doc_provenance(const struct drive *d);
struct json_object *doc_hidden_capacity(const struct drive *d);
#endif
