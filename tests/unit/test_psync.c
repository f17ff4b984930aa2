/* test_psync.c - psync at queue depth N keeps N reads in flight, and gives
 * up on reads stuck in the kernel without waiting for them.  A read that
 * never returns is made with userfaultfd: pread into a buffer whose pages
 * are missing blocks in the kernel until this test resolves the fault, and
 * each blocked read shows up as one fault message (so we can count how many
 * are in flight at once without any timing).  Needs userfaultfd for kernel
 * faults (root, or vm.unprivileged_userfaultfd=1), else SKIP. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "io/engine.h"
#include "io/target.h"

#define QD 8
#define BS 4096u

static char path[64];
static int ffd = -1;

static int
setup(void **state)
{
	snprintf(path, sizeof path, "/tmp/ds-test-psync-XXXXXX");
	ffd = mkstemp(path);
	if (ffd < 0)
		return -1;
	char buf[BS];
	for (unsigned i = 0; i < 64; i++) {
		memset(buf, 'a' + (int)(i % 26), sizeof buf);
		if (write(ffd, buf, sizeof buf) != (ssize_t)sizeof buf)
			return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	if (ffd >= 0)
		close(ffd);
	unlink(path);
	return 0;
}

/* Queue depth 32 is 32, every read lands at its own offset. */
static void
t_qd_honoured(void **s)
{
	struct target t = { .name = "f", .fd = ffd, .size = 64 * BS, .logical = 512 };
	struct engine e = { .ops = engine_find("psync"), .t = &t, .qd = 32, .wait_ns = 1000000000ull };
	assert_int_equal(e.ops->init(&e, NULL, 0, 0), 0);
	assert_int_equal(e.qd, 32);
	assert_false(e.blocking);
	static char bufs[32][BS];
	struct io_u u[33];
	for (unsigned i = 0; i < 33; i++)
		u[i] = (struct io_u){ .buf = bufs[i % 32], .len = BS, .offset = (uint64_t)i * BS, .index = i };
	for (unsigned i = 0; i < 32; i++)
		assert_int_equal(e.ops->queue(&e, &u[i]), 0);
	assert_int_equal(e.ops->queue(&e, &u[32]), -EBUSY);
	assert_int_equal(e.ops->commit(&e), 32);
	struct io_u *done[32];
	unsigned got = 0;
	while (got < 32) {
		int n = e.ops->getevents(&e, 1, 32, done + got);
		assert_true(n >= 0);
		got += (unsigned)n;
	}
	for (unsigned i = 0; i < 32; i++) {
		assert_int_equal(done[i]->result, BS);
		assert_int_equal(((char *)done[i]->buf)[0], 'a' + (int)(done[i]->index % 26));
	}
	e.ops->cleanup(&e);
	assert_false(e.stalled);
}

/* QD reads blocked in the kernel at once; cleanup gives up on them. */
static void
t_stuck_in_kernel(void **s)
{
	int uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0)
		skip();
	struct uffdio_api api = { .api = UFFD_API };
	if (ioctl(uffd, UFFDIO_API, &api) < 0) {
		close(uffd);
		skip();
	}
	size_t len = QD * BS;
	char *mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(mem != MAP_FAILED);
	struct uffdio_register reg = { .range = { .start = (uintptr_t)mem, .len = len },
				       .mode = UFFDIO_REGISTER_MODE_MISSING };
	assert_int_equal(ioctl(uffd, UFFDIO_REGISTER, &reg), 0);

	struct target t = { .name = "f", .fd = ffd, .size = 64 * BS, .logical = 512 };
	struct engine e = { .ops = engine_find("psync"), .t = &t, .qd = QD, .wait_ns = 50000000ull };
	assert_int_equal(e.ops->init(&e, NULL, 0, 0), 0);
	static struct io_u u[QD];
	for (unsigned i = 0; i < QD; i++) {
		u[i] = (struct io_u){ .buf = mem + (size_t)i * BS, .len = BS, .offset = (uint64_t)i * BS, .index = i };
		assert_int_equal(e.ops->queue(&e, &u[i]), 0);
	}
	assert_int_equal(e.ops->commit(&e), QD);
	/* one fault per read, all pending together */
	unsigned faults = 0;
	uint64_t seen = 0;
	while (faults < QD) {
		struct pollfd pf = { .fd = uffd, .events = POLLIN };
		if (poll(&pf, 1, 10000) <= 0)
			break;
		struct uffd_msg m;
		while (read(uffd, &m, sizeof m) == (ssize_t)sizeof m)
			if (m.event == UFFD_EVENT_PAGEFAULT) {
				unsigned k = (unsigned)((m.arg.pagefault.address - (uintptr_t)mem) / BS);
				if (!(seen & (1ull << k))) {
					seen |= 1ull << k;
					faults++;
				}
			}
	}
	assert_int_equal(faults, QD);
	/* a bounded wait comes back empty */
	struct io_u *done[QD];
	assert_int_equal(e.ops->getevents(&e, 1, QD, done), 0);
	/* the worker gives up: cleanup returns at once and says the buffers
	 * are still in use */
	e.abandoned = QD;
	e.ops->cleanup(&e);
	assert_true(e.stalled);
	/* let the reads finish: the threads free their block themselves */
	struct uffdio_zeropage z = { .range = { .start = (uintptr_t)mem, .len = len } };
	ioctl(uffd, UFFDIO_ZEROPAGE, &z);
	close(uffd);
	usleep(100000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_qd_honoured),
		cmocka_unit_test(t_stuck_in_kernel),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
