/* model.c - what the panels draw from: the live snapshot, or one built from a
 * saved result, so `show` and the result view reuse the live panels. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "internal.h"

/* Bucket k of the snapshot's histogram holds (2^(k+6), 2^(k+7)] ns. */
static int
bucket_of_us(double us)
{
	double ns = us * 1000;
	int k = 0;

	while (k < SNAP_HIST - 1 && ns > ldexp(1, k + 7))
		k++;
	return k;
}

/* The whole saved series into the ring: a long run is averaged down (k
 * intervals per point), never cut to its last minute. */
static void
copy_ring(float *dst, const float *src, size_t n, size_t *out_n)
{
	size_t k = (n + SNAP_SAMPLES - 1) / SNAP_SAMPLES, m = 0;

	if (k < 1)
		k = 1;
	for (size_t i = 0; i < n; i += k, m++) {
		double sum = 0;
		size_t c = 0;

		for (size_t j = i; j < n && j < i + k; j++, c++)
			sum += isfinite(src[j]) ? src[j] : 0;
		dst[m] = c ? (float)(sum / (double)c) : 0;
	}
	if (m > *out_n)
		*out_n = m;
}

void
result_to_snapshot(const struct run_result *r, struct run_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->test, sizeof(s->test), "%s", r->test);
	const struct bench_test *bt = bench_find(r->test);
	s->panels = bt ? bt->panels : 0;
	s->state = r->interrupted ? RUN_STOPPED : RUN_DONE;
	s->virtual_time = r->virtual_time;
	s->interval_ms = 100;
	s->step = s->n_steps = (unsigned)r->n_steps;
	s->elapsed_s = r->seconds;
	s->eta_s = known_dbl_of(0);
	s->ceiling_mbps = r->ceiling_mbps;
	s->lat_p50_us = s->lat_p99_us = s->lat_p999_us = (struct known_dbl){ 0 };
	for (size_t v = 0; v < r->n_verdicts; v++)
		if (r->verdicts[v].knee_drives > 0)
			s->knee_drives = r->verdicts[v].knee_drives;
	/* One target per name, from the last step it appears in (the curves
	 * of the widest step are the interesting ones). */
	size_t cap = 0;

	for (size_t i = 0; i < r->n_steps; i++)
		cap += r->steps[i].n_res;
	s->t = calloc(cap ? cap : 1, sizeof(*s->t));
	if (!s->t)
		return;
	for (size_t i = 0; i < r->n_steps && i < SNAP_STEPS; i++) {
		const struct step_result *st = &r->steps[i];

		s->steps[i] = (struct snap_step){ st->index, (unsigned)st->active.n,
						  st->aggregate_mbps, st->ideal_mbps, true };
		strtrimcpy(s->step_label[i], sizeof(s->step_label[i]), st->label);
		s->n_steps_done = i + 1;
		for (size_t k = 0; k < st->n_res; k++) {
			const struct target_result *tr = &st->res[k];
			size_t j;

			for (j = 0; j < s->n_targets; j++)
				if (strcmp(s->t[j].name, tr->target) == 0)
					break;
			if (j == s->n_targets) {
				s->n_targets++;
				snprintf(s->t[j].name, sizeof(s->t[j].name), "%s", tr->target);
				s->t[j].controller = -1;
			}
			struct snap_target *t = &s->t[j];

			t->mbps = tr->mbps;
			t->read_mbps = tr->read_mbps;
			t->write_mbps = tr->write_mbps;
			t->iops = tr->iops;
			t->p50_us = (struct known_dbl){ tr->lat.known, tr->lat.p50 };
			t->p99_us = (struct known_dbl){ tr->lat.known, tr->lat.p99 };
			t->bytes = tr->bytes;
			t->errors = tr->err.count;
			t->pos = 1;
			t->active = true;
			if (tr->series.n && tr->series.mbps) {
				bool wr = tr->write_mbps > tr->read_mbps;

				t->n = 0;
				memset(t->read_hist, 0, sizeof(t->read_hist));
				memset(t->write_hist, 0, sizeof(t->write_hist));
				copy_ring(wr ? t->write_hist : t->read_hist, tr->series.mbps,
					  tr->series.n, &t->n);
				s->interval_ms = (tr->series.interval_ms ? tr->series.interval_ms : 100) *
					(unsigned)((tr->series.n + SNAP_SAMPLES - 1) / SNAP_SAMPLES);
			}
			/* The board's strip from the saved series (its step, as live). */
			if (tr->series.n && tr->series.mbps && tr->series.pos) {
				double iv = (tr->series.interval_ms ? tr->series.interval_ms : 100) / 1e3;

				strip_reset(&t->strip);
				for (size_t j = 0; j < tr->series.n; j++)
					if (isfinite(tr->series.mbps[j]))
						strip_add(&t->strip, tr->series.pos[j],
							  (uint64_t)(tr->series.mbps[j] * 1e6 * iv), (uint64_t)(iv * 1e9));
			}
			for (size_t h = 0; h < tr->hist.n; h++)
				s->lat_hist[bucket_of_us(tr->hist.upper_us[h])] += tr->hist.count[h];
			s->total_errors += tr->err.count;
		}
	}
	if (r->n_steps) {
		const struct step_result *last = &r->steps[r->n_steps - 1];
		double sum50 = 0, sum99 = 0, sum999 = 0, iops = 0;
		int n = 0;

		for (size_t k = 0; k < last->n_res; k++) {
			const struct target_result *tr = &last->res[k];

			iops += tr->iops;
			if (tr->lat.known) {
				sum50 += tr->lat.p50;
				sum99 += tr->lat.p99;
				sum999 += tr->lat.p999;
				n++;
			}
		}
		s->total_mbps = last->aggregate_mbps;
		s->total_iops = iops;
		if (n) {
			s->lat_p50_us = known_dbl_of(sum50 / n);
			s->lat_p99_us = known_dbl_of(sum99 / n);
			s->lat_p999_us = known_dbl_of(sum999 / n);
		}
	}
}

void
ui_snapshot_release(struct ui *u)
{
	if (!u->have_snap)
		return;
	if (u->snap_ui_owned)
		free(u->snap.t);
	else
		snapshot_free(&u->snap);
	memset(&u->snap, 0, sizeof(u->snap));
	u->have_snap = false;
	u->snap_ui_owned = false;
}

bool
ui_test_running(const struct ui *u)
{
	if (!u->have_snap || u->snap_ui_owned)
		return false;
	return u->snap.state == RUN_STARTING || u->snap.state == RUN_RUNNING ||
	       u->snap.state == RUN_STOPPING;
}

bool
ui_is_position(const struct ui *u)
{
	return u->have_snap && (u->snap.panels & PANEL_POSITION) && !(u->snap.panels & PANEL_THROUGHPUT);
}

bool
ui_is_board(const struct ui *u)
{
	return u->have_snap && (u->snap.panels & PANEL_BOARD);
}

bool
ui_is_saturation(const struct ui *u)
{
	if (!u->have_snap)
		return false;
	/* a test that declares its panels gets those; a multi-step result of an
	 * unknown test (panels 0) still gets the steps plot */
	return (u->snap.panels & PANEL_SATURATION) || (!u->snap.panels && u->snap.n_steps > 1);
}

bool
ui_is_table(const struct ui *u)
{
	return u->have_snap && (u->snap.panels & PANEL_TABLE);
}

const struct run_snapshot *
ui_view_snapshot(struct ui *u)
{
	return u->have_snap ? &u->snap : NULL;
}

const struct run_result *
ui_current_result(struct ui *u, size_t i)
{
	return i < u->n_res ? u->res[i] : NULL;
}

void
ui_notice(struct ui *u, enum theme_el el, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->msg, sizeof(u->msg), fmt, ap);
	va_end(ap);
	u->msg_el = el;
}
