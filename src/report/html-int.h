/* html-int.h - what html.c and html-svg.c share; not for other files. */
#ifndef DS_REPORT_HTML_INT_H
#define DS_REPORT_HTML_INT_H
#include <stdbool.h>
#include <stdio.h>
#include "run/result.h"

/* The charts.  Each draws one <figure class="chart"> holding an <svg> with a
 * plot area <rect class="plot">, one <g class="series" data-points="N"> per
 * line or bar set (its polylines or rects hold exactly N points/bars: the
 * tests count them) and last a frame <rect class="frame"> over them (the
 * tests find a chart in a screenshot by its colour).  Each returns false
 * (and draws nothing) when it has nothing to show. */

/* Rate by position (by_position slices or a series that crosses the drive)
 * and rate over time (the other series) of target across the run's steps. */
bool svg_rate_charts(FILE *f, const struct run_result *r, const char *target, double capacity);
/* The latency histogram of target's step with the most completed I/Os. */
bool svg_hist_chart(FILE *f, const struct run_result *r, const char *target);
/* Aggregate against ideal by drive count, over the steps that have an ideal. */
bool svg_saturation_chart(FILE *f, const struct run_result *r);

/* Several drives over several timed steps (saturate): each step's rate of
 * its drives as a median line and a band, the steps one after another; it
 * stands for the drives' own rate-over-time charts (svg_steps_wanted). */
bool svg_steps_chart(FILE *f, const struct run_result *r);
bool svg_steps_wanted(const struct run_result *r);

/* An unknown value on the page. */
#define DASH "—"
/* s escaped, else the unknown word greyed. */
void html_esc_or(FILE *f, const char *s, const char *unknown);
/* An identity string (model, serial) in one unbreakable span. */
void html_tokens(FILE *f, const char *s);
/* html-table.c: every step's figures; one result table. */
void html_steps_table(FILE *f, const struct run_result *r);
void html_result_table(FILE *f, const struct result_table *t);

/* Numbers for SVG coordinates: finite, short, locale-free. */
void svg_num(FILE *f, double v);
#endif
