/* html.h - one self-contained HTML5 report (inline CSS and SVG, no scripts, no
 * external resources) for one or more saved runs: `diskscope report`. */
#ifndef DS_REPORT_HTML_H
#define DS_REPORT_HTML_H
#include <stdio.h>
#include "run/result.h"

/* The page's header: the title the user set (`report --title`, a ticket or
 * a customer; NULL: "diskscope report") and the bench's name (the config's
 * [history] bench, else the runs' host; NULL: the runs' host). */
struct html_header {
	const char *title;
	const char *bench;
};

/* The whole document for runs[0..n) into f.  Two or more drives (or runs)
 * get a one-page summary first: every drive, its verdict and first reason. */
void html_report_print(FILE *f, const struct run_result *const *runs, size_t n);
void html_report_print_h(FILE *f, const struct run_result *const *runs, size_t n, const struct html_header *h);
/* The same into path ("-" = stdout), replacing the file only when complete
 * (a temporary beside it, renamed).  0 / -errno.  h may be NULL. */
int html_report_write(const struct run_result *const *runs, size_t n, const char *path,
		      const struct html_header *h);

/* s as HTML text or attribute value: & < > " ' escaped, control characters
 * and bidi overrides dropped, invalid UTF-8 bytes as U+FFFD.  NULL prints
 * nothing. */
void html_escape(FILE *f, const char *s);
#endif
