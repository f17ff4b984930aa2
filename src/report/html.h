/* html.h - one self-contained HTML5 report (inline CSS and SVG, no scripts, no
 * external resources) for one or more saved runs: `diskscope report`. */
#ifndef DS_REPORT_HTML_H
#define DS_REPORT_HTML_H
#include <stdio.h>
#include "run/result.h"

/* The whole document for runs[0..n) into f.  Two or more drives (or runs)
 * get a summary table first: every drive, its verdict and first reason. */
void html_report_print(FILE *f, const struct run_result *const *runs, size_t n);
/* The same into path ("-" = stdout), replacing the file only when complete
 * (a temporary beside it, renamed).  0 / -errno. */
int html_report_write(const struct run_result *const *runs, size_t n, const char *path);

/* s as HTML text or attribute value: & < > " ' escaped, control characters
 * and bidi overrides dropped, invalid UTF-8 bytes as U+FFFD.  NULL prints
 * nothing. */
void html_escape(FILE *f, const char *s);
#endif
