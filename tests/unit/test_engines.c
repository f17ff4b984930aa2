/* test_engines.c - every engine against real targets: loop devices (512 and
 * 4096-byte sectors, direct-io), a zram device of our own, scratch files on
 * ext4 and tmpfs.  Data written through the engine is read back through the
 * engine (in another order) and, independently, with plain O_DIRECT reads of
 * the device or the loop device's backing file.  Needs root and loop support
 * (else SKIP); every resource is ours and removed in every path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "io/engine.h"
#include "io/target.h"
#include "util/util.h"

#define REGION (8u << 20)

static struct {
	char dir[64];
	char img512[128], img4k[128], imgext4[128];
	char loop512[64], loop4k[64], loopext4[64];
	char zram[64];
	int zram_id;
	char ext4mnt[128], tmpfsmnt[128], smallmnt[128], romnt[128];
	bool ext4_mounted, tmpfs_mounted, small_mounted, ro_mounted;
} R = { .zram_id = -1 };

/* Run a shell command; first line of its output in out. Exit status. */
static int
sh(char *out, size_t n, const char *fmt, ...)
{
	char cmd[1024], line[256] = "";
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	if (fgets(line, sizeof line, p))
		line[strcspn(line, "\n")] = '\0';
	while (fgetc(p) != EOF)
		;
	int st = pclose(p);
	if (out)
		strtrimcpy(out, n, line);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void
cleanup(void)
{
	if (R.ro_mounted && sh(NULL, 0, "umount %s 2>&1", R.romnt) == 0)
		R.ro_mounted = false;
	if (R.small_mounted && sh(NULL, 0, "umount %s 2>&1", R.smallmnt) == 0)
		R.small_mounted = false;
	if (R.tmpfs_mounted && sh(NULL, 0, "umount %s 2>&1", R.tmpfsmnt) == 0)
		R.tmpfs_mounted = false;
	if (R.ext4_mounted && sh(NULL, 0, "umount %s 2>&1", R.ext4mnt) == 0)
		R.ext4_mounted = false;
	char *loops[] = { R.loop512, R.loop4k, R.loopext4 };
	for (size_t i = 0; i < 3; i++)
		if (*loops[i] && sh(NULL, 0, "losetup -d %s 2>&1", loops[i]) == 0)
			*loops[i] = '\0';
	if (R.zram_id >= 0) {
		sh(NULL, 0, "echo %d > /sys/class/zram-control/hot_remove 2>&1", R.zram_id);
		R.zram_id = -1;
	}
	if (*R.dir && !R.ext4_mounted && !R.tmpfs_mounted && !R.small_mounted && !R.ro_mounted) {
		sh(NULL, 0, "rm -rf %s", R.dir);
		R.dir[0] = '\0';
	}
}

static void
on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int
setup(void **state)
{
	char out[128];

	strcpy(R.dir, "/tmp/ds-engines-XXXXXX");
	if (!mkdtemp(R.dir))
		return -1;
	snprintf(R.img512, sizeof R.img512, "%s/l512.img", R.dir);
	snprintf(R.img4k, sizeof R.img4k, "%s/l4k.img", R.dir);
	snprintf(R.imgext4, sizeof R.imgext4, "%s/ext4.img", R.dir);
	snprintf(R.ext4mnt, sizeof R.ext4mnt, "%s/ext4", R.dir);
	snprintf(R.tmpfsmnt, sizeof R.tmpfsmnt, "%s/tmpfs", R.dir);
	snprintf(R.smallmnt, sizeof R.smallmnt, "%s/small", R.dir);
	snprintf(R.romnt, sizeof R.romnt, "%s/ro", R.dir);
	if (sh(NULL, 0, "truncate -s 16M %s %s && truncate -s 64M %s && mkdir %s %s %s %s",
	       R.img512, R.img4k, R.imgext4, R.ext4mnt, R.tmpfsmnt, R.smallmnt, R.romnt))
		return -1;
	if (sh(out, sizeof out, "losetup -f --show --direct-io=on %s", R.img512) || !*out)
		return -1;
	strtrimcpy(R.loop512, sizeof R.loop512, out);
	if (sh(out, sizeof out, "losetup -f --show --direct-io=on --sector-size 4096 %s", R.img4k) ||
	    !*out)
		return -1;
	strtrimcpy(R.loop4k, sizeof R.loop4k, out);
	if (sh(NULL, 0, "mkfs.ext4 -q -F %s >/dev/null 2>&1", R.imgext4) ||
	    sh(out, sizeof out, "losetup -f --show --direct-io=on %s", R.imgext4) || !*out)
		return -1;
	strtrimcpy(R.loopext4, sizeof R.loopext4, out);
	if (sh(NULL, 0, "mount -t ext4 %s %s 2>&1", R.loopext4, R.ext4mnt))
		return -1;
	R.ext4_mounted = true;
	if (sh(NULL, 0, "mount -t tmpfs -o size=64m tmpfs %s 2>&1", R.tmpfsmnt))
		return -1;
	R.tmpfs_mounted = true;
	if (sh(NULL, 0, "mount -t tmpfs -o size=4m tmpfs %s 2>&1", R.smallmnt))
		return -1;
	R.small_mounted = true;
	if (sh(NULL, 0, "mount -t tmpfs -o ro,size=1m tmpfs %s 2>&1", R.romnt))
		return -1;
	R.ro_mounted = true;
	/* zram is optional: its tests skip when the module is absent. */
	if (access("/sys/class/zram-control/hot_add", R_OK) == 0 &&
	    sh(out, sizeof out, "cat /sys/class/zram-control/hot_add") == 0 && *out) {
		R.zram_id = atoi(out);
		snprintf(R.zram, sizeof R.zram, "/dev/zram%d", R.zram_id);
		if (sh(NULL, 0, "echo 32M > /sys/block/zram%d/disksize", R.zram_id))
			R.zram[0] = '\0';
	}
	return 0;
}

static int
teardown(void **state)
{
	cleanup();
	return 0;
}

/* The pattern of block b under seed s: splitmix64 per 8-byte word. */
static uint64_t
mix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

static void
pattern(void *buf, uint32_t len, uint64_t seed, uint64_t b)
{
	uint64_t *w = buf;
	for (uint32_t i = 0; i < len / 8; i++)
		w[i] = mix(seed ^ (b << 20) ^ i);
}

static bool
pattern_ok(const void *buf, uint32_t len, uint64_t seed, uint64_t b)
{
	const uint64_t *w = buf;
	for (uint32_t i = 0; i < len / 8; i++)
		if (w[i] != mix(seed ^ (b << 20) ^ i))
			return false;
	return true;
}

/* One pass over blocks in `order`, qd slots, as the worker drives engines:
 * fill the queue until -EBUSY, commit, reap at least one. */
static void
pass(struct engine *e, char *base, uint32_t bs, unsigned qd, const uint64_t *order,
     size_t nblocks, bool write, uint64_t seed)
{
	struct io_u u[256], *done[256];
	unsigned freel[256], nfree = qd, inflight = 0;
	size_t next = 0;

	for (unsigned i = 0; i < qd; i++) {
		u[i] = (struct io_u){ .buf = base + (size_t)i * bs, .index = i };
		freel[i] = qd - 1 - i;
	}
	while (next < nblocks || inflight) {
		unsigned queued = 0;
		while (nfree && next < nblocks) {
			struct io_u *x = &u[freel[nfree - 1]];
			x->offset = order[next] * bs;
			x->len = bs;
			x->write = write;
			x->result = 0;
			if (write)
				pattern(x->buf, bs, seed, order[next]);
			else
				memset(x->buf, 0xA5, bs);
			int rc = e->ops->queue(e, x);
			if (rc == -EBUSY)
				break;
			assert_int_equal(rc, 0);
			nfree--;
			next++;
			queued++;
			inflight++;
		}
		if (queued)
			assert_true(e->ops->commit(e) >= 0);
		int n = e->ops->getevents(e, 1, inflight, done);
		assert_true(n >= 1);
		for (int i = 0; i < n; i++) {
			struct io_u *x = done[i];
			if (x->result != (int)bs)
				fail_msg("%s %s at %llu: result %d", e->ops->name, write ? "write" : "read",
					 (unsigned long long)x->offset, x->result);
			if (!write && !pattern_ok(x->buf, bs, seed, x->offset / bs))
				fail_msg("%s: block at %llu read back differs from what was written",
					 e->ops->name, (unsigned long long)x->offset);
			freel[nfree++] = x->index;
			inflight--;
		}
	}
}

/* Plain O_DIRECT pread of block b from path: the data really is there. */
static void
check_outside(const char *path, uint64_t off_base, uint32_t bs, uint64_t b, uint64_t seed)
{
	void *buf;
	int fd = open(path, O_RDONLY | O_DIRECT);
	assert_true(fd >= 0);
	assert_int_equal(posix_memalign(&buf, 4096, bs), 0);
	assert_int_equal(pread(fd, buf, bs, (off_t)(off_base + b * bs)), (ssize_t)bs);
	if (!pattern_ok(buf, bs, seed, b))
		fail_msg("%s: block %llu differs when read without the engine", path,
			 (unsigned long long)b);
	free(buf);
	close(fd);
}

static void
roundtrip(const char *spec, const char *engine, unsigned qd, uint32_t bs, const char *backing)
{
	struct target t;
	struct target_opts o = { .write = true, .file_size = 16u << 20 };
	struct guard_confirm c;
	char err[256];
	/* a block device needs its --destroy-data confirmation */
	if (guard_confirm_capture(&c, spec, NULL, err, sizeof err) == 0)
		guard_confirms_add(&o.confirms, &c, err, sizeof err);
	int rc = target_open(&t, spec, &o, err, sizeof err);
	if (rc)
		fail_msg("target_open(%s): %d %s", spec, rc, err);
	assert_true(t.writable);
	assert_int_equal(bs % t.offset_align, 0);

	size_t nblocks = (t.size < REGION ? t.size : REGION) / bs;
	uint64_t *order = malloc(nblocks * sizeof *order);
	for (size_t i = 0; i < nblocks; i++)
		order[i] = i;
	char *base;
	assert_int_equal(posix_memalign((void **)&base, t.mem_align > 4096 ? t.mem_align : 4096,
					(size_t)qd * bs), 0);
	void *bufs[256];
	for (unsigned i = 0; i < qd; i++)
		bufs[i] = base + (size_t)i * bs;

	const struct engine_ops *ops = engine_find(engine);
	assert_non_null(ops);
	struct engine e = { .ops = ops, .t = &t, .qd = qd };
	assert_int_equal(ops->init(&e, bufs, qd, bs), 0);
	uint64_t seed = now_ns() ^ ((uint64_t)qd << 40);
	pass(&e, base, bs, qd, order, nblocks, true, seed);
	/* Read back in a shuffled order so a wrong offset cannot pass. */
	for (size_t i = nblocks - 1; i > 0; i--) {
		size_t j = mix(seed + i) % (i + 1);
		uint64_t tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	pass(&e, base, bs, qd, order, nblocks, false, seed);
	ops->cleanup(&e);

	/* a scratch file made with O_TMPFILE has no name: reopened by its fd */
	char fdpath[64];
	snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", t.fd);
	const char *outside = backing ? backing : t.unnamed ? fdpath : t.path;
	check_outside(outside, 0, bs, 0, seed);
	check_outside(outside, 0, bs, nblocks / 2, seed);
	check_outside(outside, 0, bs, nblocks - 1, seed);
	free(base);
	free(order);
	char path[PATH_MAX];
	strtrimcpy(path, sizeof path, t.path);
	bool scratch = t.created;
	target_close(&t);
	if (scratch)
		assert_int_equal(access(path, F_OK), -1);	/* removed on close */
}

static void
both_qd(const char *spec, const char *engine, const char *backing)
{
	roundtrip(spec, engine, 1, 4096, backing);
	roundtrip(spec, engine, 32, 16384, backing);
}

static void t_loop512_uring(void **s) { both_qd(R.loop512, "uring", R.img512); }
static void t_loop512_psync(void **s) { both_qd(R.loop512, "psync", R.img512); }
static void t_loop4k_uring(void **s) { both_qd(R.loop4k, "uring", R.img4k); }
static void t_loop4k_psync(void **s) { both_qd(R.loop4k, "psync", R.img4k); }
static void t_ext4_uring(void **s) { both_qd(R.ext4mnt, "uring", NULL); }
static void t_ext4_psync(void **s) { both_qd(R.ext4mnt, "psync", NULL); }
static void t_tmpfs_uring(void **s) { both_qd(R.tmpfsmnt, "uring", NULL); }
static void t_tmpfs_psync(void **s) { both_qd(R.tmpfsmnt, "psync", NULL); }

static void
t_zram_uring(void **s)
{
	if (!*R.zram)
		skip();
	both_qd(R.zram, "uring", NULL);
}

static void
t_zram_psync(void **s)
{
	if (!*R.zram)
		skip();
	both_qd(R.zram, "psync", NULL);
}

static void
t_registry(void **s)
{
	assert_ptr_equal(engine_find("uring"), engine_table[0]);
	assert_non_null(engine_find("psync"));
	assert_string_equal(engine_find("psync")->name, "psync");
	assert_null(engine_find("nope"));
	assert_null(engine_find(NULL));
}

/* psync runs what is asked: queue depth 32 is 32 I/Os in flight (threads);
 * at queue depth 1 the I/O is done inline (commit blocks). */
static void
t_psync_qd1(void **s)
{
	struct target t;
	char err[256];
	assert_int_equal(target_open(&t, R.loop512, NULL, err, sizeof err), 0);
	struct engine e = { .ops = engine_find("psync"), .t = &t, .qd = 32 };
	assert_int_equal(e.ops->init(&e, NULL, 0, 0), 0);
	assert_int_equal(e.qd, 32);
	assert_false(e.blocking);
	e.ops->cleanup(&e);
	struct engine one = { .ops = engine_find("psync"), .t = &t, .qd = 1 };
	void *buf;
	assert_int_equal(posix_memalign(&buf, 4096, 8192), 0);
	assert_int_equal(one.ops->init(&one, NULL, 0, 0), 0);
	assert_true(one.blocking);
	struct io_u a = { .buf = buf, .len = 4096 }, b = { .buf = (char *)buf + 4096, .len = 4096, .offset = 4096 };
	assert_int_equal(one.ops->queue(&one, &a), 0);
	assert_int_equal(one.ops->queue(&one, &b), -EBUSY);
	one.ops->cleanup(&one);
	free(buf);
	target_close(&t);
}

/* Polling (getevents with min 0) must see a completion eventually, also with
 * DEFER_TASKRUN where completions are posted only when the kernel is entered. */
static void
t_uring_poll(void **s)
{
	struct target t;
	char err[256];
	void *buf;
	assert_int_equal(target_open(&t, R.loop512, NULL, err, sizeof err), 0);
	assert_int_equal(posix_memalign(&buf, 4096, 4096), 0);
	struct engine e = { .ops = engine_find("uring"), .t = &t, .qd = 2 };
	assert_int_equal(e.ops->init(&e, &buf, 1, 4096), 0);
	struct io_u u = { .buf = buf, .len = 4096, .offset = 8192 }, *d[2];
	assert_int_equal(e.ops->queue(&e, &u), 0);
	assert_true(e.ops->commit(&e) >= 0);
	int n = 0;
	for (long i = 0; i < 10000000 && n == 0; i++)
		n = e.ops->getevents(&e, 0, 2, d);
	assert_int_equal(n, 1);
	assert_ptr_equal(d[0], &u);
	assert_int_equal(u.result, 4096);
	e.ops->cleanup(&e);
	free(buf);
	target_close(&t);
}

static void
t_check_io(void **s)
{
	struct target t;
	char err[256];
	assert_int_equal(target_open(&t, R.loop4k, NULL, err, sizeof err), 0);
	assert_int_equal(t.logical, 4096);
	assert_false(t.writable);
	assert_int_equal(t.size, 16u << 20);
	assert_int_equal(target_check_io(&t, 0, 4096, err, sizeof err), 0);
	assert_int_equal(target_check_io(&t, t.size - 4096, 4096, err, sizeof err), 0);
	assert_int_equal(target_check_io(&t, 512, 4096, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, t.name));
	assert_non_null(strstr(err, "offset 512"));
	assert_non_null(strstr(err, "4096-byte logical block size"));
	assert_int_equal(target_check_io(&t, 0, 512, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "I/O size 512"));
	assert_int_equal(target_check_io(&t, t.size, 4096, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "past its end"));
	target_close(&t);

	assert_int_equal(target_open(&t, R.loop512, NULL, err, sizeof err), 0);
	assert_int_equal(t.logical, 512);
	assert_int_equal(target_check_io(&t, 512, 512, err, sizeof err), 0);
	assert_int_equal(target_check_io(&t, 100, 512, err, sizeof err), -EINVAL);
	target_close(&t);
}

/* "loop3" means /dev/loop3, as DESIGN.md's target list says. */
static void
t_short_name(void **s)
{
	struct target t;
	char err[256];
	const char *base = strrchr(R.loop512, '/') + 1;
	assert_int_equal(target_open(&t, base, NULL, err, sizeof err), 0);
	assert_string_equal(t.path, R.loop512);
	assert_string_equal(t.name, base);
	assert_int_equal(t.kind, TGT_BLOCK);
	target_close(&t);
	assert_int_equal(target_open(&t, "/nonexistent/dev", NULL, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/dev: no such device or directory"));
	/* "sim:MODEL" goes to the simulated rig, never to the filesystem. */
	assert_int_equal(target_open(&t, "sim:WD20EFRX", NULL, err, sizeof err), 0);
	assert_int_equal(t.kind, TGT_SIM);
	assert_int_equal(t.fd, -1);
	assert_true(t.size > 0);
	target_close(&t);
	assert_true(target_open(&t, "sim:NoSuchDrive", NULL, err, sizeof err) < 0);
	assert_non_null(strstr(err, "sim:NoSuchDrive"));
}

static size_t
count_scratch(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;
	assert_non_null(d);
	while ((de = readdir(d)))
		if (strncmp(de->d_name, "diskscope-scratch-", 18) == 0)
			n++;
	closedir(d);
	return n;
}

static void
t_scratch_rules(void **s)
{
	struct target t;
	char err[256], file[200];
	struct target_opts o = { .write = true, .file_size = 1u << 20 };

	/* A file we did not create is never a target. */
	snprintf(file, sizeof file, "%s/precious", R.tmpfsmnt);
	assert_int_equal(sh(NULL, 0, "echo keep-me > %s", file), 0);
	assert_int_equal(target_open(&t, file, &o, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "refused:"));
	assert_non_null(strstr(err, file));
	assert_int_equal(target_open(&t, file, NULL, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, file));
	char out[64];
	sh(out, sizeof out, "cat %s", file);
	assert_string_equal(out, "keep-me");
	unlink(file);

	/* Larger than the free space: bad input naming the directory, nothing
	 * created. */
	o.file_size = 64u << 20;
	assert_int_equal(target_open(&t, R.smallmnt, &o, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, R.smallmnt));
	assert_non_null(strstr(err, "does not fit"));
	assert_non_null(strstr(err, "free space"));
	assert_int_equal(count_scratch(R.smallmnt), 0);

	/* O_TMPFILE: no name at all while it is in use, so nothing can be
	 * left behind; closed, it is gone. */
	o.file_size = 1u << 20;
	assert_int_equal(target_open(&t, R.ext4mnt, &o, err, sizeof err), 0);
	assert_true(t.created && t.unnamed);
	assert_int_equal(count_scratch(R.ext4mnt), 0);
	assert_int_equal(sh(out, sizeof out, "ls -A %s | wc -l", R.ext4mnt), 0);
	size_t before = strtoul(out, NULL, 10);
	target_close(&t);
	assert_int_equal(count_scratch(R.ext4mnt), 0);
	/* reopened by name (filemix): a named file, removed at close */
	o.named = true;
	assert_int_equal(target_open(&t, R.ext4mnt, &o, err, sizeof err), 0);
	assert_false(t.unnamed);
	assert_int_equal(count_scratch(R.ext4mnt), 1);
	target_close(&t);
	assert_int_equal(count_scratch(R.ext4mnt), 0);
	o.named = false;
	assert_int_equal(sh(out, sizeof out, "ls -A %s | wc -l", R.ext4mnt), 0);
	assert_int_equal(strtoul(out, NULL, 10), before);

	/* Read-only directory. */
	assert_int_equal(target_open(&t, R.romnt, &o, err, sizeof err), -EROFS);
	assert_non_null(strstr(err, R.romnt));
	assert_non_null(strstr(err, "Read-only"));

	/* --keep keeps it; otherwise it goes. */
	o.file_size = 1u << 20;
	o.keep = true;
	assert_int_equal(target_open(&t, R.ext4mnt, &o, err, sizeof err), 0);
	assert_true(t.created);
	assert_int_equal(t.size, 1u << 20);
	assert_true(t.direct);
	assert_int_equal(count_scratch(R.ext4mnt), 0);	/* named at close */
	target_close(&t);
	strtrimcpy(file, sizeof file, t.path);
	assert_non_null(strstr(file, "/diskscope-scratch-"));
	assert_int_equal(access(file, F_OK), 0);
	assert_int_equal(count_scratch(R.ext4mnt), 1);
	unlink(file);
	assert_int_equal(count_scratch(R.ext4mnt), 0);
}

/* A read-only test gets a scratch file with data on the media, not holes. */
static void
t_scratch_filled_for_reads(void **s)
{
	struct target t;
	char err[256];
	struct target_opts o = { .write = false, .file_size = 2u << 20 };
	assert_int_equal(target_open(&t, R.ext4mnt, &o, err, sizeof err), 0);
	void *buf;
	assert_int_equal(posix_memalign(&buf, 4096, 4096), 0);
	struct engine e = { .ops = engine_find("uring"), .t = &t, .qd = 1 };
	assert_int_equal(e.ops->init(&e, &buf, 1, 4096), 0);
	struct io_u u = { .buf = buf, .len = 4096, .offset = (1u << 20) }, *d;
	memset(buf, 0, 4096);
	assert_int_equal(e.ops->queue(&e, &u), 0);
	assert_true(e.ops->commit(&e) >= 0);
	assert_int_equal(e.ops->getevents(&e, 1, 1, &d), 1);
	assert_int_equal(u.result, 4096);
	const uint64_t *w = buf;
	size_t zeros = 0;
	for (int i = 0; i < 512; i++)
		zeros += w[i] == 0;
	assert_true(zeros < 8);
	e.ops->cleanup(&e);
	free(buf);
	target_close(&t);
}

/* io_uring blocked as a container's seccomp profile does it (EPERM for
 * io_uring_setup/enter/register): the probe says so, uring's init returns the
 * errno the worker falls back on, and psync still moves bytes.  In a child,
 * since a seccomp filter cannot be removed. */
static int
blocked_child(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, __NR_io_uring_setup, 0, 2),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, __NR_io_uring_register, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof f / sizeof f[0], .filter = f };
	struct target t;
	char err[256];
	void *buf;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return 10;
	if (engine_uring_probe() != -EPERM || engine_uring_available())
		return 11;
	if (target_open(&t, R.loop512, NULL, err, sizeof err))
		return 12;
	if (posix_memalign(&buf, 4096, 4096))
		return 13;
	struct engine e = { .ops = engine_find("uring"), .t = &t, .qd = 4 };
	if (e.ops->init(&e, &buf, 1, 4096) != -EPERM)
		return 14;
	struct engine p = { .ops = engine_find("psync"), .t = &t, .qd = 4 };
	struct io_u u = { .buf = buf, .len = 4096 }, *d;
	if (p.ops->init(&p, &buf, 1, 4096) || p.ops->queue(&p, &u) || p.ops->commit(&p) != 1 ||
	    p.ops->getevents(&p, 1, 1, &d) != 1 || u.result != 4096)
		return 15;
	p.ops->cleanup(&p);
	target_close(&t);
	return 0;
}

static void
t_uring_blocked(void **s)
{
	int st;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(blocked_child());
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 10)
		skip();	/* no seccomp here */
	assert_int_equal(WEXITSTATUS(st), 0);
}

int
main(void)
{
	if (geteuid() != 0) {
		printf("SKIP: test_engines needs root (loop devices, mounts)\n");
		return 77;
	}
	if (access("/dev/loop-control", F_OK) != 0 || sh(NULL, 0, "command -v losetup >/dev/null") ||
	    sh(NULL, 0, "command -v mkfs.ext4 >/dev/null")) {
		printf("SKIP: no loop device support (/dev/loop-control, losetup, mkfs.ext4)\n");
		return 77;
	}
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, on_signal);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_registry),
		cmocka_unit_test(t_check_io),
		cmocka_unit_test(t_short_name),
		cmocka_unit_test(t_psync_qd1),
		cmocka_unit_test(t_uring_poll),
		cmocka_unit_test(t_uring_blocked),
		cmocka_unit_test(t_loop512_uring),
		cmocka_unit_test(t_loop512_psync),
		cmocka_unit_test(t_loop4k_uring),
		cmocka_unit_test(t_loop4k_psync),
		cmocka_unit_test(t_zram_uring),
		cmocka_unit_test(t_zram_psync),
		cmocka_unit_test(t_ext4_uring),
		cmocka_unit_test(t_ext4_psync),
		cmocka_unit_test(t_tmpfs_uring),
		cmocka_unit_test(t_tmpfs_psync),
		cmocka_unit_test(t_scratch_rules),
		cmocka_unit_test(t_scratch_filled_for_reads),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
