/* test_scratch_prep.c - filling a read test's scratch file is a phase of the
 * run, on the runner's thread: runner_create (which the dashboard calls on
 * its own thread) returns with the file created but not yet filled; the run
 * fills it (progress in the snapshot message), then measures; a stop during
 * the fill ends the run with the file removed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/bench.h"
#include "cli/options.h"
#include "run/runner.h"

static char dir[64];

static int
setup(void **state)
{
	snprintf(dir, sizeof(dir), "/var/tmp/ds-test-prep-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **state)
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
	rmdir(dir);
	return 0;
}

/* The scratch file in dir, "" when none: a named one, or one made with
 * O_TMPFILE that this process holds open ("DIR/#INODE (deleted)"), as the
 * /proc/self/fd/N that reopens it. */
static void
scratch_path(char *out, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	out[0] = 0;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			snprintf(out, n, "%s/%s", dir, e->d_name);
	if (d)
		closedir(d);
	if (out[0] || !(d = opendir("/proc/self/fd")))
		return;
	while ((e = readdir(d))) {
		char p[300], l[600];
		snprintf(p, sizeof p, "/proc/self/fd/%s", e->d_name);
		ssize_t k = readlink(p, l, sizeof l - 1);
		if (k <= 0)
			continue;
		l[k] = 0;
		if (!strncmp(l, dir, strlen(dir)) && l[strlen(dir)] == '/')
			snprintf(out, n, "%s", p);
	}
	closedir(d);
}

static struct runner *
create(const char *size)
{
	const char *args[] = { "seqread", dir, "--time", "0.3", "--file-size", size, "--bs", "128k" };
	struct plan p;
	struct run_outputs out;
	char err[512] = "";
	assert_int_equal(plan_parse_args(&p, 8, (char **)args, cli_output_find, &out, err, sizeof(err)), 0);
	assert_int_equal(plan_resolve_targets(&p, NULL, err, sizeof(err)), 0);
	assert_int_equal(plan_build(&p, err, sizeof(err)), 0);
	struct runner *r;
	int rc = runner_create(&p, &r, NULL, err, sizeof(err));
	if (rc)
		fail_msg("create: %s", err);
	plan_free(&p);
	return r;
}

static void
test_fill_in_runner(void **state)
{
	struct runner *r = create("32M");
	/* created, not filled: its blocks still read as zeros */
	char path[600];
	scratch_path(path, sizeof path);
	assert_true(path[0]);
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	static uint64_t b[512];
	assert_int_equal(pread(fd, b, sizeof b, 16 << 20), (ssize_t)sizeof b);
	close(fd);
	for (size_t i = 0; i < 512; i++)
		assert_int_equal(b[i], 0);
	assert_int_equal(runner_start(r), 0);
	runner_wait(r, -1);
	struct run_result res;
	assert_int_equal(runner_result(r, &res), 0);
	assert_int_equal(res.n_steps, 1);
	assert_true(res.steps[0].res[0].ios > 0);
	assert_int_equal(res.steps[0].res[0].err.count, 0);
	run_result_free(&res);
	runner_destroy(r);
	scratch_path(path, sizeof path);
	assert_false(path[0]);
}

/* A stop during the fill: nothing measured, the file removed. */
static void
test_stop_during_fill(void **state)
{
	struct runner *r = create("512M");
	runner_stop(r);
	assert_int_equal(runner_start(r), 0);
	runner_wait(r, -1);
	struct run_result res;
	assert_int_equal(runner_result(r, &res), 0);
	assert_true(res.interrupted);
	assert_int_equal(res.n_steps, 0);
	run_result_free(&res);
	runner_destroy(r);
	char path[600];
	scratch_path(path, sizeof path);
	assert_false(path[0]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_in_runner),
		cmocka_unit_test(test_stop_during_fill),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
