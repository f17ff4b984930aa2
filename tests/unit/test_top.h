/* test_top.h - where the repository is, for tests that read fixtures or
 * ../shared: the current directory when it is the top, else three levels up
 * from the test program (build/tests/test_x -> top), so tests also run from
 * elsewhere. */
#ifndef DS_TEST_TOP_H
#define DS_TEST_TOP_H
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static inline int
test_top(char *buf, size_t n)
{
	if (access("src/inventory/inventory.h", R_OK) == 0)
		return getcwd(buf, n) ? 0 : -errno;
	ssize_t r = readlink("/proc/self/exe", buf, n - 1);
	if (r <= 0)
		return -ENOENT;
	buf[r] = '\0';
	for (int up = 0; up < 3; up++) {
		char *sl = strrchr(buf, '/');
		if (!sl)
			return -ENOENT;
		*sl = '\0';
	}
	return 0;
}

/* buf = TOP/tests/fixtures/SUB, readable: 0, -ENOENT (not there),
 * -ENAMETOOLONG. */
static inline int
test_fixture_dir(char *buf, size_t n, const char *sub)
{
	char top[PATH_MAX];
	int rc = test_top(top, sizeof top);
	if (rc)
		return rc;
	if ((size_t)snprintf(buf, n, "%.*s/tests/fixtures/%s", PATH_MAX - 64, top, sub) >= n)
		return -ENAMETOOLONG;
	return access(buf, R_OK) == 0 ? 0 : -ENOENT;
}
#endif
