/* run.h - a run_result as JSON (schema 1 "run" section), CSV and a text table,
 * and back from JSON (for `diskscope show`). */
#ifndef DS_REPORT_RUN_H
#define DS_REPORT_RUN_H
#include <stdio.h>
#include <json-c/json.h>
#include "run/result.h"

/* The "run" object. NULL on ENOMEM. */
struct json_object *run_json(const struct run_result *r);
/* A whole document (doc_new() + "run") written to path ("-" = stdout). 0 / -errno. */
int run_json_write(const struct run_result *r, const char *path);
/* Load a saved document (or a bare "run" object).  0, or -errno / -EINVAL with
 * one line in err. */
int run_json_load(const char *path, struct run_result *out, char *err, size_t errlen);
int run_json_from_object(struct json_object *run, struct run_result *out, char *err, size_t errlen);

/* CSV: a header, then one row per step x target (solo passes as step 0). */
int run_csv_write(const struct run_result *r, const char *path);	/* "-" = stdout */
void run_csv_print(FILE *f, const struct run_result *r);

/* The text table for stdout, then verdicts and notes. */
void run_text_print(FILE *f, const struct run_result *r);

/* errno <-> name ("EIO"); unknown numbers as "E123". */
const char *run_errno_name(int e, char *buf, size_t n);
int run_errno_parse(const char *name);		/* 0 when unknown */

/* A result table column's type as the JSON names it (enum col_type order):
 * run-json.c writes them, run-load.c reads them. */
#define RUN_COL_TYPES 5
extern const char *const run_col_types[RUN_COL_TYPES];
#endif
