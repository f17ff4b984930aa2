/* test_util_input.c - the two helpers every user input goes through:
 * str_to_double (no NaN, no infinity, nothing trailing) and input_open /
 * input_read (a FIFO, a directory or a device is refused at once, never
 * waited on). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/util.h"

static void
test_doubles(void **state)
{
	(void)state;
	double v;
	const char *rest;
	static const char *const bad[] = { "nan", "NaN", "-nan", "inf", "-Infinity", "1e400",
					   "", " ", "x", "1x", "1.5 2", "0x", "nan(1)" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (str_to_double(bad[i], &v, NULL) != -EINVAL)
			fail_msg("'%s' accepted as %g", bad[i], v);
	assert_int_equal(str_to_double("2.5", &v, NULL), 0);
	assert_true(v == 2.5);
	assert_int_equal(str_to_double(" 1e-300 ", &v, NULL), 0);
	assert_int_equal(str_to_double("1e-400", &v, NULL), 0);	/* underflow: tiny, finite */
	assert_true(v >= 0 && v < 1e-300);
	assert_int_equal(str_to_double("500ms", &v, &rest), 0);
	assert_true(v == 500);
	assert_string_equal(rest, "ms");
	assert_int_equal(str_to_double("nan%", &v, &rest), -EINVAL);
}

static void
test_inputs(void **state)
{
	(void)state;
	char dir[] = "/tmp/ds-input-XXXXXX", path[128], err[256];
	char *buf;
	size_t len;
	assert_non_null(mkdtemp(dir));

	snprintf(path, sizeof path, "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(input_open(path, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "/fifo: not a regular file (fifo)"));
	assert_int_equal(input_read(path, 100, &buf, &len, err, sizeof err), -EINVAL);
	assert_null(buf);

	assert_int_equal(input_open(dir, err, sizeof err), -EISDIR);
	assert_non_null(strstr(err, ": is a directory"));
	assert_int_equal(input_open("/dev/null", err, sizeof err), -EINVAL);
	assert_string_equal(err, "/dev/null: not a regular file (character device)");
	snprintf(path, sizeof path, "%s/none", dir);
	assert_int_equal(input_open(path, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, strerror(ENOENT)));

	snprintf(path, sizeof path, "%s/file", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < 1000; i++)
		fputs("0123456789", f);
	fclose(f);
	int fd = input_open(path, err, sizeof err);
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);	/* blocking again */
	close(fd);
	assert_int_equal(input_read(path, 1 << 20, &buf, &len, err, sizeof err), 0);
	assert_int_equal(len, 10000);
	assert_int_equal(buf[len], '\0');
	free(buf);
	assert_int_equal(input_read(path, 9999, &buf, &len, err, sizeof err), -EFBIG);
	assert_null(buf);
	assert_non_null(strstr(err, "larger than 9999 bytes"));
	assert_int_equal(input_read(path, 10000, &buf, &len, err, sizeof err), 0);
	free(buf);

	/* the first line too long or unterminated, named */
	char where[128];
	assert_int_equal(text_line_check(path, 10000, where, sizeof where), 1);
	assert_string_equal(where, "line 1: no newline at the end of the file");
	assert_int_equal(text_line_check(path, 9999, where, sizeof where), 1);
	assert_string_equal(where, "line 1: 10000 characters, at most 9999 are read");
	f = fopen(path, "w");
	fputs("ok\nfine\n", f);
	fclose(f);
	assert_int_equal(text_line_check(path, 4, where, sizeof where), 0);
	assert_int_equal(text_line_check(path, 3, where, sizeof where), 1);
	assert_string_equal(where, "line 2: 4 characters, at most 3 are read");
	assert_int_equal(text_line_check(dir, 3, where, sizeof where), -EISDIR);

	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doubles),
		cmocka_unit_test(test_inputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
