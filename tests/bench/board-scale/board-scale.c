/* board-scale.c - the bench board's data path at scale: a run as the
 * dashboard drives it (the runner, a snapshot every 100 ms), then per target
 * the series samples the sampler took against those the run measured (its
 * measured seconds at the sample interval: 10 Hz), the samples lost to a
 * ring overwrite, and the process RSS along the run.  Usage as `run`:
 *   board-scale [GLOBAL OPTIONS] TEST TARGET... [OPTIONS]
 * --sim-speed N runs sim drives in real time x N (the dashboard's way);
 * without it they run on their virtual clock (a day in seconds).  Built and
 * run by tests/bench/board-scale.sh; it measures, it does not judge. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/options.h"

static double
rss_mib(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long size = 0, res = 0;

	if (!f)
		return NAN;
	if (fscanf(f, "%lu %lu", &size, &res) != 2)
		res = 0;
	fclose(f);
	return (double)res * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

static double
now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Intervals a target measured over the run: its measured seconds in every
 * step and solo pass, at the sample interval. */
static double
expected_samples(const struct run_result *r, const char *name, unsigned interval_ms)
{
	double n = 0;

	for (size_t s = 0; s < r->n_steps; s++)
		for (size_t k = 0; k < r->steps[s].n_res; k++)
			if (!strcmp(r->steps[s].res[k].target, name))
				n += floor(r->steps[s].res[k].seconds * 1000 / interval_ms + 0.5);
	for (size_t k = 0; k < r->n_solo; k++)
		if (!strcmp(r->solo[k].target, name))
			n += floor(r->solo[k].seconds * 1000 / interval_ms + 0.5);
	return n;
}

int
main(int argc, char **argv)
{
	struct global_opts g;
	struct plan p;
	struct run_outputs out;
	char err[512] = "";

	memset(&g, 0, sizeof(g));
	argc = globals_extract(argc, argv, &g);
	if (argc < 3 || globals_load_sim(&g)) {
		fprintf(stderr, "usage: board-scale [--sim-speed N] [--sim-model F] TEST TARGET... [options]\n");
		return 2;
	}
	int rc = plan_parse_args(&p, argc - 1, argv + 1, cli_output_find, &out, err, sizeof(err));

	/* the plan as the dashboard makes it: real time x N, 0 virtual */
	if (!rc)
		rc = plan_make(&p, &(struct plan_env){ .inv_opts = &g.inv, .history_rates = cli_history_rates,
						       .sim_speed_set = true, .sim_speed = g.sim_speed },
			       err, sizeof(err));
	struct runner *r = NULL;
	int bad = -1;

	if (!rc)
		rc = runner_create(&p, &r, &bad, err, sizeof(err));
	if (!rc)
		rc = runner_start(r);
	if (rc) {
		fprintf(stderr, "board-scale: %s\n", err[0] ? err : "cannot start the run");
		return 1;
	}
	double t0 = now_s(), rss0 = rss_mib(), rss_max = rss0, rss_first = NAN, next_rss = 1;
	double rss10 = NAN, rss90 = NAN;
	struct run_snapshot last;
	size_t polls = 0;

	memset(&last, 0, sizeof(last));
	while (!runner_wait(r, 100)) {	/* the dashboard's 10 Hz poll */
		struct run_snapshot s;

		if (runner_snapshot(r, &s))
			continue;
		polls++;
		snapshot_free(&last);
		last = s;
		double el = now_s() - t0, m = rss_mib();

		if (m > rss_max)
			rss_max = m;
		/* the last step's growth: RSS at 10 % and 90 % of its pass */
		double pos = s.n_targets ? s.t[0].pos : 0;
		if (s.step == s.n_steps && s.n_steps && pos >= 0.1 && isnan(rss10))
			rss10 = m;
		if (s.step == s.n_steps && s.n_steps && pos >= 0.9 && isnan(rss90))
			rss90 = m;
		if (getenv("BOARD_SCALE_PROGRESS") && el >= next_rss && (int)el % 5 == 0)
			fprintf(stderr, "board-scale: %.0f s: step %u/%u %s\n", el, s.step, s.n_steps, s.cur_label);
		if (el >= next_rss) {
			if (isnan(rss_first) && el >= 2)
				rss_first = m;
			next_rss += 1;
		}
	}
	struct run_snapshot fin;

	if (runner_snapshot(r, &fin) == 0) {
		snapshot_free(&last);
		last = fin;
	}
	double wall = now_s() - t0, rss_end = rss_mib();
	struct run_result res;

	runner_result(r, &res);
	unsigned iv = last.interval_ms ? last.interval_ms : 100;
	uint64_t got = 0, lost = 0;
	double want = 0, virt = 0;

	for (size_t i = 0; i < last.n_targets; i++) {
		const struct snap_target *t = &last.t[i];
		double e = expected_samples(&res, t->name, iv);

		printf("board-scale: %-24s samples %7llu  expected %7.0f  lost %llu\n", t->name,
		       (unsigned long long)t->samples, e, (unsigned long long)t->lost);
		got += t->samples;
		lost += t->lost;
		want += e;
	}
	virt = last.n_targets ? want / (double)last.n_targets * iv / 1e3 : 0;
	printf("board-scale: %zu targets, %s, %.1f %s measured per target (%s clock), %.1f s wall, %zu snapshots\n",
	       last.n_targets, res.test, virt >= 3600 ? virt / 3600 : virt, virt >= 3600 ? "h" : "s",
	       res.virtual_time ? "virtual" : "real", wall, polls);
	printf("board-scale: samples %llu of %.0f expected at %u ms (%.2f %%), lost %llu\n",
	       (unsigned long long)got, want, iv, want > 0 ? 100.0 * (double)got / want : 0,
	       (unsigned long long)lost);
	printf("board-scale: RSS start %.1f MiB, after 2 s %.1f MiB, last step at 10 %% %.1f MiB, "
	       "at 90 %% %.1f MiB, end %.1f MiB, peak %.1f MiB\n", rss0, isnan(rss_first) ? rss0 : rss_first,
	       rss10, rss90, rss_end, rss_max);
	snapshot_free(&last);
	run_result_free(&res);
	runner_destroy(r);
	plan_free(&p);
	return 0;
}
