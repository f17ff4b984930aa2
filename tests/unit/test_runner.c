/* test_runner.c - the whole core on a scratch file in /tmp: plan from the
 * same option parser the CLI uses, runner, result; numbers consistent with
 * each other; data written is data read back (every sector stamped with its
 * own offset, every block written exactly once by a random pass). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/bench.h"
#include "report/run.h"
#include "cli/options.h"
#include "run/runner.h"

static char dir[64];

static int
setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/ds-test-runner-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

/* Remove every file in dir: a test that failed (longjmp past its unlink)
 * must not leave a kept scratch file for the next test to pick up. */
static void
clear_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char p[512];
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
}

static int
teardown(void **state)
{
	clear_dir();
	rmdir(dir);
	return 0;
}

/* Parse argv like the CLI, run to the end, return the result. */
static void
run_args(const char **args, int n, struct run_result *res)
{
	struct plan p;
	struct run_outputs out;
	char err[512] = "";
	int rc = plan_parse_args(&p, n, (char **)args, cli_output_find, &out, err, sizeof(err));
	if (rc)
		fail_msg("parse: %s", err);
	rc = plan_resolve_targets(&p, NULL, err, sizeof(err));
	if (rc)
		fail_msg("resolve: %s", err);
	assert_int_equal(plan_build(&p, err, sizeof(err)), 0);
	struct runner *r;
	rc = runner_create(&p, &r, NULL, err, sizeof(err));
	if (rc)
		fail_msg("create: %s", err);
	assert_int_equal(runner_start(r), 0);
	runner_wait(r, -1);
	struct run_snapshot s;
	assert_int_equal(runner_snapshot(r, &s), 0);
	assert_int_equal(s.state, RUN_DONE);
	assert_int_equal(s.n_targets, 1);
	assert_int_equal(runner_result(r, res), 0);
	/* what the live panels drew is what the result says: every interval
	 * (up to the ring's 600) and the whole-run latency histogram */
	const struct target_result *t = &res->steps[0].res[0];
	size_t ns = t->series.n < SNAP_SAMPLES ? t->series.n : SNAP_SAMPLES;
	assert_int_equal(s.t[0].n, ns);
	for (size_t i = 0; i < ns; i++) {
		size_t j = t->series.n - ns + i;
		double both = (double)s.t[0].read_hist[i] + (double)s.t[0].write_hist[i];
		assert_true(fabs(both - t->series.mbps[j]) <= 1e-3 * t->series.mbps[j] + 1e-3);
	}
	uint64_t hn = 0;
	for (int k = 0; k < SNAP_HIST; k++)
		hn += s.lat_hist[k];
	assert_int_equal(hn, t->ios);
	assert_int_equal(s.t[0].bytes, t->bytes);
	assert_int_equal(s.n_steps_done, 1);
	assert_true(s.steps[0].done);
	snapshot_free(&s);
	runner_destroy(r);
	plan_free(&p);
}

static void
check_sane(const struct run_result *res, uint32_t bs)
{
	assert_int_equal(res->n_steps, 1);
	assert_false(res->interrupted);
	const struct target_result *t = &res->steps[0].res[0];
	assert_int_equal(t->err.count, 0);
	assert_true(t->ios > 0);
	assert_int_equal(t->bytes, t->ios * bs);
	assert_true(t->seconds > 0);
	assert_true(fabs(t->mbps - (double)t->bytes / t->seconds / 1e6) < 1e-6 * t->mbps + 1e-9);
	assert_true(fabs(t->iops - (double)t->ios / t->seconds) < 1e-6 * t->iops + 1e-9);
	assert_true(t->lat.known);
	assert_true(t->lat.min <= t->lat.p50 && t->lat.p50 <= t->lat.p90 && t->lat.p90 <= t->lat.p99 &&
		    t->lat.p99 <= t->lat.p999 && t->lat.p999 <= t->lat.max);
	assert_true(t->lat.min <= t->lat.mean && t->lat.mean <= t->lat.max);
	/* the series adds up to the totals: full intervals, then the last one
	 * over its own (possibly shorter) length */
	assert_true(t->series.n >= 1);
	double iv = t->series.interval_ms / 1000.0, ios = 0, bytes = 0;
	for (size_t i = 0; i < t->series.n; i++) {
		double len = i + 1 < t->series.n ? iv : t->seconds - iv * (double)(t->series.n - 1);
		ios += t->series.iops[i] * len;
		bytes += t->series.mbps[i] * 1e6 * len;
	}
	assert_true(fabs(ios - (double)t->ios) <= 1e-3 * (double)t->ios + 1);
	assert_true(fabs(bytes - (double)t->bytes) <= 1e-3 * (double)t->bytes + bs);
	uint64_t hn = 0;
	for (size_t i = 0; i < t->hist.n; i++)
		hn += t->hist.count[i];
	/* the histogram also holds the I/Os that completed after the time
	 * limit (the drain, at most one queue's worth) */
	assert_true(hn >= t->ios && hn <= t->ios + 256);
	assert_true(res->steps[0].aggregate_mbps.known);
	assert_int_equal(res->steps[0].aggregate_mbps.v, t->mbps);
	assert_true(res->params.engine[0]);
}

static void
test_seqread(void **state)
{
	const char *args[] = { "seqread", dir, "--time", "1", "--file-size", "32M", "--bs", "128k", "--qd", "4" };
	struct run_result res;
	run_args(args, 10, &res);
	check_sane(&res, 128 << 10);
	/* JSON round trip: what `show` will read */
	char path[128];
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(run_json_write(&res, path), 0);
	struct run_result back;
	char err[256];
	int rc = run_json_load(path, &back, err, sizeof(err));
	if (rc)
		fail_msg("%s", err);
	assert_string_equal(back.test, "seqread");
	assert_int_equal(back.n_steps, 1);
	assert_int_equal(back.steps[0].res[0].ios, res.steps[0].res[0].ios);
	assert_int_equal(back.steps[0].res[0].series.n, res.steps[0].res[0].series.n);
	assert_true(fabs(back.steps[0].res[0].lat.p99 - res.steps[0].res[0].lat.p99) < 0.1);
	run_result_free(&back);
	unlink(path);
	run_result_free(&res);
}

static void
test_randwrite_data(void **state)
{
	/* one random pass over a 8 MiB file (size = file size): every 4 KiB block
	 * written exactly once, each sector carrying its own offset */
	const char *args[] = { "randwrite", dir, "--size", "8M", "--file-size", "8M", "--keep",
			       "--qd", "8", "--seed", "5" };
	struct run_result res;
	clear_dir();
	run_args(args, 11, &res);
	check_sane(&res, 4096);
	assert_int_equal(res.steps[0].res[0].bytes, 8u << 20);
	run_result_free(&res);
	/* find the kept scratch file */
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512] = "";
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "diskscope-scratch-", 18))
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
	closedir(d);
	assert_true(path[0]);
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	static unsigned char buf[8 << 20];
	assert_int_equal(pread(fd, buf, sizeof(buf), 0), (ssize_t)sizeof(buf));
	close(fd);
	for (uint64_t o = 0; o < sizeof(buf); o += 512) {
		uint64_t stamp;
		memcpy(&stamp, buf + o, 8);
		if (stamp != o)
			fail_msg("sector at %llu carries %llu", (unsigned long long)o, (unsigned long long)stamp);
	}
	/* random data, not zeros: the bytes after the stamps vary */
	size_t zeros = 0;
	for (size_t i = 0; i < sizeof(buf); i++)
		zeros += buf[i] == 0;
	assert_true(zeros < sizeof(buf) / 50);
	unlink(path);
}

/* seqwrite one pass over a 4 MiB scratch file with --data MODE; the file's
 * share of zero bytes says what the data was. */
static double
zero_share(const char *mode)
{
	const char *args[] = { "seqwrite", dir, "--size", "4M", "--file-size", "4M", "--keep",
			       "--bs", "64k", "--data", mode };
	struct run_result res;
	clear_dir();
	run_args(args, 11, &res);
	check_sane(&res, 64 << 10);
	run_result_free(&res);
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512] = "";
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "diskscope-scratch-", 18))
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
	closedir(d);
	assert_true(path[0]);
	static unsigned char buf[4 << 20];
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, sizeof(buf), 0), (ssize_t)sizeof(buf));
	close(fd);
	unlink(path);
	size_t z = 0;
	for (size_t i = 0; i < sizeof(buf); i++)
		z += buf[i] == 0;
	return (double)z / sizeof(buf);
}

static void
test_data_modes(void **state)
{
	assert_true(zero_share("zeros") == 1.0);
	/* half of every 4 KiB is zeros, less the 16-byte sector stamps */
	double c = zero_share("compressible");
	assert_true(c > 0.45 && c < 0.5);
	assert_true(zero_share("random") < 0.02);
}

static void
test_bad_options(void **state)
{
	struct plan p;
	struct run_outputs out;
	char err[512];
	const char *a1[] = { "seqread", dir, "--bs", "3000" };
	assert_int_equal(plan_parse_args(&p, 4, (char **)a1, cli_output_find, &out, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--bs"));
	plan_free(&p);
	const char *a2[] = { "nosuch", dir };
	assert_int_equal(plan_parse_args(&p, 2, (char **)a2, cli_output_find, &out, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "nosuch"));
	plan_free(&p);
	const char *a3[] = { "seqread", dir, "--region", "50%:10%" };
	assert_int_equal(plan_parse_args(&p, 4, (char **)a3, cli_output_find, &out, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--region"));
	plan_free(&p);
	const char *a4[] = { "seqread", dir, "--qd", "0" };
	assert_int_equal(plan_parse_args(&p, 4, (char **)a4, cli_output_find, &out, err, sizeof(err)), -EINVAL);
	plan_free(&p);
	uint64_t v;
	assert_int_equal(parse_size("4k", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(parse_size("1M", &v), 0);
	assert_int_equal(v, 1 << 20);
	assert_int_equal(parse_size("512", &v), 0);
	assert_int_equal(v, 512);
	assert_int_equal(parse_size("2GiB", &v), 0);
	assert_int_equal(v, 2ull << 30);
	assert_int_equal(parse_size("4q", &v), -EINVAL);
	assert_int_equal(parse_size("-4k", &v), -EINVAL);
	double s;
	assert_int_equal(parse_seconds("500ms", &s), 0);
	assert_true(fabs(s - 0.5) < 1e-12);
	assert_int_equal(parse_seconds("2m", &s), 0);
	assert_true(s == 120);
}

/* The verdict sentences on the seed figures (DESIGN.md): a Marvell 88SE9485
 * on x8 5 GT/s saturating at 4 drives; two 88SE9230 that do not saturate; a
 * card trained at x1. */
static void
fake_steps(struct run_result *r, const double *agg, size_t n)
{
	memset(r, 0, sizeof(*r));
	r->steps = calloc(n, sizeof(*r->steps));
	r->n_steps = n;
	for (size_t i = 0; i < n; i++) {
		r->steps[i].index = (unsigned)i + 1;
		for (size_t k = 0; k <= i; k++)
			strlist_addf(&r->steps[i].active, "sd%c", (char)('a' + k));
		r->steps[i].aggregate_mbps = known_dbl_of(agg[i]);
		r->steps[i].ideal_mbps = 150.0 * (double)(i + 1);
	}
}

static void
test_saturate_verdict(void **state)
{
	const struct bench_test *t = bench_find("saturate");
	assert_non_null(t);
	struct plan p;
	plan_init(&p, t);
	p.ceiling_mbps = known_dbl_of(4000);
	snprintf(p.ceiling_text, sizeof(p.ceiling_text), "x8 5GT/s");
	const double marvell[] = { 150, 273, 430, 544, 573, 593, 623, 640 };
	struct run_result r;
	fake_steps(&r, marvell, 8);
	bench_finish(&p, &r);
	assert_int_equal(r.n_verdicts, 1);
	assert_string_equal(r.verdicts[0].kind, "saturation");
	assert_int_equal(r.verdicts[0].knee_drives, 4);
	assert_string_equal(r.verdicts[0].text,
		"saturates at 4 drives, 544 MB/s = 14 % of the x8 5GT/s link: the chip, not the slot, is the limit");
	run_result_free(&r);

	const double two9230[] = { 150, 300, 460, 620, 770, 913, 1100, 1240 };
	fake_steps(&r, two9230, 8);
	bench_finish(&p, &r);
	assert_int_equal(r.verdicts[0].knee_drives, 0);
	assert_non_null(strstr(r.verdicts[0].text, "no saturation up to 8 drives"));
	run_result_free(&r);

	/* trained at x1: the link sentence first, and the plateau is the link */
	p.ceiling_mbps = known_dbl_of(500);
	p.link_downgraded = true;
	snprintf(p.ceiling_text, sizeof(p.ceiling_text), "x1 5GT/s");
	snprintf(p.link_text, sizeof(p.link_text), "x1");
	const double x1[] = { 150, 300, 440, 480, 490 };
	fake_steps(&r, x1, 5);
	bench_finish(&p, &r);
	assert_int_equal(r.n_verdicts, 2);
	assert_string_equal(r.verdicts[0].kind, "link");
	assert_true(r.verdicts[0].problem);	/* exit 1 at its warn level */
	assert_false(r.verdicts[1].problem);
	assert_string_equal(r.verdicts[0].text,
		"link trained at x1: 500 MB/s ceiling — reseat the card or use a wider slot");
	assert_int_equal(r.verdicts[1].knee_drives, 3);
	assert_non_null(strstr(r.verdicts[1].text, "the link (slot) is the limit"));
	run_result_free(&r);
	plan_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_seqread),
		cmocka_unit_test(test_randwrite_data),
		cmocka_unit_test(test_saturate_verdict),
		cmocka_unit_test(test_data_modes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
