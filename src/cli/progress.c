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
	double eta = s->eta_s.v;
	bool have = s->eta_s.known && s->elapsed_s + eta > 0;
	double frac = have ? s->elapsed_s / (s->elapsed_s + eta) : 0;
	char bar[24];
	int w = (int)sizeof(bar) - 1;
	for (int i = 0; i < w; i++)
		bar[i] = have && i < (int)(frac * w + 0.5) ? '#' : have ? '.' : '-';
	bar[w] = 0;
	char left[24] = "?";
	if (s->eta_s.known)
		snprintf(left, sizeof(left), "%d:%02d", (int)eta / 60, (int)eta % 60);
	/* a test's own work (a self-test): what each drive is doing, no rate */
	char own[160] = "";
	for (size_t i = 0, o = 0; i < s->n_targets && o < sizeof(own); i++)
		if (s->t[i].activity[0])
			o += (size_t)snprintf(own + o, sizeof(own) - o, "%s%s %s", o ? ", " : "", s->t[i].name,
					      s->t[i].activity);
	if (own[0]) {
		fprintf(stderr, "\r[%s] %s: %s\033[K", bar, s->test, own);
		fflush(stderr);
		return;
	}
	fprintf(stderr, "\r[%s] %s step %u/%u %8.1f MB/s %8.0f IOPS  ETA %s%s\033[K", bar, s->test,
		s->step, s->n_steps, s->total_mbps.v, s->total_iops, left,
		s->total_errors ? "  errors!" : "");
	fflush(stderr);
}
