/* progress.c - the one-line progress on stderr at a terminal. */
#include <stdbool.h>
#include <stdio.h>
#include "cli/internal.h"


void
progress_line(const struct run_snapshot *s, bool final)
{
	if (final) {
		fputs("\r\033[K", stderr);
		return;
	}
	double frac = s->eta_s >= 0 && s->elapsed_s + s->eta_s > 0 ?
		s->elapsed_s / (s->elapsed_s + s->eta_s) : -1;
	char bar[24];
	int w = (int)sizeof(bar) - 1;
	for (int i = 0; i < w; i++)
		bar[i] = frac >= 0 && i < (int)(frac * w + 0.5) ? '#' : frac >= 0 ? '.' : '-';
	bar[w] = 0;
	char eta[24] = "?";
	if (s->eta_s >= 0)
		snprintf(eta, sizeof(eta), "%d:%02d", (int)s->eta_s / 60, (int)s->eta_s % 60);
	fprintf(stderr, "\r[%s] %s step %u/%u %8.1f MB/s %8.0f IOPS  ETA %s%s\033[K", bar, s->test,
		s->step, s->n_steps, s->total_mbps, s->total_iops, eta,
		s->total_errors ? "  errors!" : "");
	fflush(stderr);
}
