/* test_uring_short.c - a short io_uring submit keeps what the kernel did not
 * take.  Rings without SUBMIT_ALL stop a batch at a bad SQE (here a read
 * into a kernel address, refused when the SQE is prepared): the kernel takes
 * that one and leaves the rest in the SQ ring.  They must go with the next
 * enter and complete; when the engine forgot them, they never did.  SKIP
 * when io_uring is unavailable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io/engine.h"
#include "io/target.h"

static void
t_short_submit(void **s)
{
	if (!engine_uring_available())
		skip();
	char path[] = "/tmp/ds-test-uring-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	static char data[16384];
	memset(data, 'x', sizeof data);
	assert_int_equal(write(fd, data, sizeof data), (ssize_t)sizeof data);
	struct target t = { .name = "f", .fd = fd, .size = sizeof data, .logical = 512 };
	engine_uring_test_no_submit_all(true);
	struct engine e = { .ops = engine_find("uring"), .t = &t, .qd = 4, .wait_ns = 200000000ull };
	int rc = e.ops->init(&e, NULL, 0, 0);
	engine_uring_test_no_submit_all(false);
	assert_int_equal(rc, 0);
	static char bufs[3][4096];
	struct io_u u[4] = {
		{ .buf = (void *)(uintptr_t)0xffffffffffff0000ull, .len = 4096, .offset = 0, .index = 0 },
		{ .buf = bufs[0], .len = 4096, .offset = 4096, .index = 1 },
		{ .buf = bufs[1], .len = 4096, .offset = 8192, .index = 2 },
		{ .buf = bufs[2], .len = 4096, .offset = 12288, .index = 3 },
	};
	for (int i = 0; i < 4; i++)
		assert_int_equal(e.ops->queue(&e, &u[i]), 0);
	assert_true(e.ops->commit(&e) >= 0);
	struct io_u *done[4];
	unsigned got = 0, ok = 0;
	for (int tries = 0; tries < 25 && got < 4; tries++) {
		int n = e.ops->getevents(&e, 1, 4 - got, done);
		assert_true(n >= 0);
		for (int i = 0; i < n; i++)
			ok += done[i]->result == 4096;
		got += (unsigned)n;
	}
	assert_int_equal(got, 4);
	assert_int_equal(ok, 3);
	assert_true(u[0].result < 0);
	e.ops->cleanup(&e);
	close(fd);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_short_submit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
