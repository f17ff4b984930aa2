/* filemix.c - the NAS copy workload (DESIGN.md `filemix`) in a directory the
 * user names on a mounted file system.  Each step writes or reads one whole
 * file through a scratch-file target, so the framework measures every file;
 * between steps on_step swaps in the next file's target, deletes what the
 * workload deletes, and checks the free-space margin.  All files live in a
 * subdirectory created with mkdtemp (never an existing one); finish removes
 * exactly the files it recorded, then the subdirectory, also after a stop or
 * an error.  The runner's own scratch file (1 MiB, beside the subdirectory,
 * O_EXCL) is step 0, the probe that shows whether O_DIRECT works. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include "bench/bench.h"
#include "io/target.h"
#include "bench/filemix-int.h"

#define FM_PROBE (1u << 20)
#define FM_MIN_BUDGET (16ull << 20)
#define FM_DEFAULT_BUDGET (1ull << 30)
#define FM_MARGIN_MIN (1ull << 30)	/* keep >= 10 % of the file system or 1 GiB free */
#define FM_MAX_FILL 1000		/* test 2 fills at most this many files */

/* test 1: the seed's mix; counts per class */
static const struct fm_class {
	const char *name;
	double seed;		/* bytes */
	unsigned count;
} t1_classes[] = {
	{ "10GB", 10e9, 1 }, { "1GB", 1e9, 2 }, { "100MB", 100e6, 5 }, { "1MB", 1e6, 20 },
};

static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t
round_size(double v)
{
	uint64_t g = v >= (1 << 20) ? (1u << 20) : (64u << 10);
	uint64_t s = (uint64_t)v / g * g;
	return s ? s : 64u << 10;
}

static uint64_t
margin_of(const struct statvfs *sv)
{
	uint64_t tot = (uint64_t)sv->f_blocks * sv->f_frsize, m = tot / 10;
	return m > FM_MARGIN_MIN ? m : FM_MARGIN_MIN;
}

static uint64_t
avail_of(const struct statvfs *sv)
{
	return (uint64_t)sv->f_bavail * sv->f_frsize;
}

/* ---- the plan ---- */

static int
add_file_step(struct plan *p, bool write, unsigned test, const char *cls, unsigned n, uint64_t size,
	      const char *data)
{
	struct run_params rp = p->params;
	rp.bs = size < (1u << 20) ? (uint32_t)size : 1u << 20;
	rp.qd = 1;			/* a copy tool: one buffer at a time */
	rp.seconds = rp.ramp_s = 0;
	rp.size = size;			/* the whole file, once */
	rp.region_start = 0;
	rp.region_end = 1;
	rp.region_lba = false;
	rp.rw_mix = write ? 0 : 100;
	snprintf(rp.pattern, sizeof(rp.pattern), "seq");
	snprintf(rp.data, sizeof(rp.data), "%s", data);
	char label[48];
	snprintf(label, sizeof(label), "%s t%u %s #%u", write ? "write" : "read", test, cls, n);
	unsigned idx = 0;
	return plan_add_step_params(p, &idx, 1, &rp, label, NULL);
}

static int
plan_mix(struct plan *p, unsigned test, double budget, const char *data)
{
	double seed = 0;
	for (size_t c = 0; c < ARRAY_SIZE(t1_classes); c++)
		seed += t1_classes[c].seed * t1_classes[c].count;
	double f = (budget - 28.0 * (64 << 10)) / seed;
	if (f > 1)
		f = 1;
	int rc = 0;
	for (size_t c = 0; !rc && c < ARRAY_SIZE(t1_classes); c++)
		for (unsigned k = 1; !rc && k <= t1_classes[c].count; k++)
			rc = add_file_step(p, true, test, t1_classes[c].name, k, round_size(t1_classes[c].seed * f), data);
	/* half read back: the first half of every class */
	for (size_t c = 0; !rc && c < ARRAY_SIZE(t1_classes); c++)
		for (unsigned k = 1; !rc && k <= (t1_classes[c].count + 1) / 2; k++)
			rc = add_file_step(p, false, test, t1_classes[c].name, k, round_size(t1_classes[c].seed * f), data);
	return rc;
}

static int
plan_fill(struct plan *p, double budget, const char *data)
{
	unsigned n10 = (unsigned)(budget / 10e6);
	if (n10 < 16)
		n10 = 16;
	if (n10 > FM_MAX_FILL)
		n10 = FM_MAX_FILL;
	uint64_t s10 = round_size(budget / n10);
	if (s10 > round_size(10e6))
		s10 = round_size(10e6);
	uint64_t holes = (uint64_t)(n10 / 2) * s10;
	uint64_t s1g = round_size(100.0 * (double)s10);
	if (s1g > holes / 2)
		s1g = round_size((double)holes / 2);
	unsigned n1g = (unsigned)(holes / s1g);
	int rc = 0;
	for (unsigned k = 1; !rc && k <= n10; k++)
		rc = add_file_step(p, true, 2, "10MB", k, s10, data);
	for (unsigned k = 1; !rc && k <= n1g; k++)
		rc = add_file_step(p, true, 2, "1GB", k, s1g, data);
	for (unsigned k = 1; !rc && k <= (n1g + 1) / 2; k++)
		rc = add_file_step(p, false, 2, "1GB", k, s1g, data);
	return rc;
}

static int
filemix_plan(struct plan *p, char *err, size_t errlen)
{
	if (p->targets.n != 1) {
		snprintf(err, errlen, "filemix: name one directory on a mounted file system (%zu targets given)",
			 p->targets.n);
		return -EINVAL;
	}
	const char *dir = p->targets.v[0];
	struct stat st;
	struct statvfs sv;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "filemix: %s: not a directory (filemix writes files in a directory on a mounted file system)",
			 dir);
		return -EINVAL;
	}
	if (statvfs(dir, &sv)) {
		int rc = -errno;
		snprintf(err, errlen, "filemix: %s: cannot read its free space: %s", dir, strerror(-rc));
		return rc;
	}
	/* the run's --size is the space budget here */
	double want = p->params.size ? (double)p->params.size : (double)FM_DEFAULT_BUDGET;
	if (want < FM_MIN_BUDGET) {
		snprintf(err, errlen, "filemix: --size %.0f MiB: the budget must be at least %llu MiB",
			 want / 1048576.0, FM_MIN_BUDGET >> 20);
		return -EINVAL;
	}
	uint64_t margin = margin_of(&sv), avail = avail_of(&sv);
	double room = avail > margin ? (double)(avail - margin) : 0;
	double budget = want < room ? want : room;
	if (budget < FM_MIN_BUDGET) {
		snprintf(err, errlen, "filemix: %s: only %.0f MiB free above the safety margin (%.0f MiB: 10 %% of the "
			 "file system or 1 GiB, whichever is larger); it needs %llu MiB", dir, room / 1048576.0,
			 (double)margin / 1048576.0, FM_MIN_BUDGET >> 20);
		return -ENOSPC;
	}
	/* the runner's own scratch file is the 1 MiB probe (step 0) */
	p->topts.file_size = FM_PROBE;
	p->topts.fill = false;
	p->topts.buffered_ok = true;
	struct run_params rp = p->params;
	rp.bs = FM_PROBE;
	rp.qd = 1;
	rp.seconds = rp.ramp_s = 0;
	rp.size = FM_PROBE;
	rp.rw_mix = 0;
	snprintf(rp.pattern, sizeof(rp.pattern), "seq");
	unsigned idx = 0;
	int rc = plan_add_step_params(p, &idx, 1, &rp, "probe", NULL);
	const char *data = plan_param_str(p, "data");
	bool both = data && !strcmp(data, "both");
	if (!rc)
		rc = plan_mix(p, 1, budget, both ? "random" : data);
	if (!rc && both)
		rc = plan_mix(p, 3, budget, "zeros");
	if (!rc)
		rc = plan_fill(p, budget, both ? "random" : data);
	if (!rc)
		strlist_addf(&p->notes, "filemix: budget %.0f MiB (--size %.0f MiB, %.0f MiB free, %.0f MiB kept free)",
			     budget / 1048576.0, want / 1048576.0, (double)avail / 1048576.0, (double)margin / 1048576.0);
	return rc;
}

/* ---- between steps ---- */

static void
fm_path(const struct fm_state *S, const struct fm_file *f, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s", S->dir, f->name);
}

static void
fm_delete(struct fm_state *S, struct fm_file *f)
{
	char path[PATH_MAX + 48];
	if (!f->exists)
		return;
	fm_path(S, f, path, sizeof(path));
	unlink(path);	/* a file we created and recorded, nothing else */
	f->exists = false;
}

static bool
parse_label(const char *label, bool *write, unsigned *test, char *cls, unsigned *n)
{
	char op[8];
	if (sscanf(label, "%7s t%u %7s #%u", op, test, cls, n) != 4)
		return false;
	*write = !strcmp(op, "write");
	return true;
}

static struct fm_file *
find_file(struct fm_state *S, unsigned test, const char *cls, unsigned n)
{
	for (size_t i = 0; i < S->n_f; i++)
		if (S->f[i].test == test && S->f[i].n == n && !strcmp(S->f[i].cls, cls))
			return &S->f[i];
	return NULL;
}

static void __attribute__((format(printf, 3, 4)))
stop_after(struct bench_ctx *c, size_t pos, const char *fmt, ...)
{
	char m[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	strlist_add(&c->res->notes, m);
	if (c->plan->n_steps > pos + 1)
		c->plan->n_steps = pos + 1;	/* nothing more runs */
}

/* The step that ran: its file's rate. */
static void
record(struct bench_ctx *c, struct fm_state *S, struct step_result *sr)
{
	struct target *t = &c->targets[0];
	if (S->cur < 0)
		return;
	struct fm_file *f = &S->f[S->cur];
	const struct target_result *tr = sr->n_res ? &sr->res[0] : NULL;
	double secs = tr ? tr->seconds : 0;
	if (S->buffered && t->fd >= 0) {
		/* no O_DIRECT: the file's write includes its flush; then its
		 * pages leave the cache so the read comes from the disk */
		double t1 = now_s();
		if (S->cur_write)
			fsync(t->fd);
		secs += S->cur_write ? now_s() - t1 : 0;
		posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	struct known_dbl mbps = KNOWN_DBL_IF(tr && secs > 0 && tr->bytes >= f->size, (double)tr->bytes / secs / 1e6);
	if (S->cur_write)
		f->w_mbps = mbps;
	else
		f->r_mbps = mbps;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

/* Whether the file system itself compresses: a few known either way; NFS,
 * SMB and FUSE say nothing about the server's storage. */
static void
fs_kind(struct fm_state *S)
{
	static const struct {
		unsigned long magic;
		const char *name;
		int compresses;		/* 1 can, 0 does not, -1 unknown */
	} kinds[] = {
		{ 0xEF53, "ext4", 0 }, { 0x58465342, "xfs", 0 }, { 0x01021994, "tmpfs", 0 },
		{ 0x9123683E, "btrfs", 1 }, { 0x2FC12FC1, "zfs", 1 }, { 0xF2F52010, "f2fs", 1 },
		{ 0x6969, "nfs", -1 }, { 0xFF534D42, "cifs", -1 }, { 0xFE534D42, "smb2", -1 },
		{ 0x65735546, "fuse", -1 },
	};
	struct statfs sf;
	S->fs_compresses = -1;
	snprintf(S->fs, sizeof(S->fs), "this file system");
	if (statfs(S->dir, &sf))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if ((unsigned long)sf.f_type == kinds[i].magic) {
			snprintf(S->fs, sizeof(S->fs), "%s", kinds[i].name);
			S->fs_compresses = kinds[i].compresses;
		}
}

static void
filemix_on_step(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr)
{
	struct fm_state *S = c->state;
	struct plan *p = c->plan;
	size_t pos = S->done++;
	(void)st;
	if (pos == 0) {
		S->cur = -1;
		S->t0 = now_s();
		S->orig = c->targets[0];
		S->swapped = true;
		S->direct = S->orig.direct;
		S->probe_mbps = KNOWN_DBL_IF(sr->n_res, sr->res[0].mbps);
		char *sl = strrchr(S->orig.path, '/');
		snprintf(S->dir, sizeof(S->dir), "%.*s/diskscope-filemix-XXXXXX",
			 sl ? (int)(sl - S->orig.path) : 1, sl ? S->orig.path : ".");
		if (!mkdtemp(S->dir)) {	/* mkdtemp: a new directory, never an existing one */
			stop_after(c, pos, "filemix: %s: cannot create the subdirectory: %s", S->dir, strerror(errno));
			S->dir[0] = 0;
			return;
		}
		S->dir_made = true;
		struct statvfs sv;
		if (!statvfs(S->dir, &sv))
			S->margin = margin_of(&sv);
		fs_kind(S);
	} else {
		record(c, S, sr);
	}
	if (pos + 1 >= p->n_steps)
		return;
	/* stopped or short: nothing more is set up (finish cleans up) */
	if (pos > 0 && S->cur >= 0 && sr->n_res &&
	    (sr->res[0].stopped_early || sr->res[0].err.count || sr->res[0].bytes < S->f[S->cur].size)) {
		stop_after(c, pos, "filemix: %s: the file's I/O ended early: the workload stops here",
			   S->f[S->cur].name);
		return;
	}
	bool w, w0;
	unsigned test, n, test0 = 0, n0;
	char cls[8], cls0[8];
	const struct plan_step *next = &p->steps[pos + 1];
	if (!parse_label(next->label, &w, &test, cls, &n))
		return;
	if (pos > 0 && parse_label(p->steps[pos].label, &w0, &test0, cls0, &n0)) {
		if (test0 != test)	/* a test is over: its files go */
			for (size_t i = 0; i < S->n_f; i++)
				if (S->f[i].test == test0)
					fm_delete(S, &S->f[i]);
		if (test == 2 && !strcmp(cls, "1GB") && !strcmp(cls0, "10MB"))	/* delete every other */
			for (size_t i = 0; i < S->n_f; i++)
				if (S->f[i].test == 2 && !strcmp(S->f[i].cls, "10MB") && S->f[i].n % 2 == 0)
					fm_delete(S, &S->f[i]);
	}
	uint64_t size = next->rp.size;
	struct target t;
	char err[256] = "";
	if (w) {
		struct statvfs sv;
		if (statvfs(S->dir, &sv) || avail_of(&sv) < size + S->margin) {
			stop_after(c, pos, "filemix: %s: stopped: a %.0f MiB file would leave less than %.0f MiB free "
				   "(the safety margin)", S->dir, size / 1048576.0, S->margin / 1048576.0);
			return;
		}
		if (S->n_f == S->cap_f) {
			size_t nc = S->cap_f ? S->cap_f * 2 : 64;
			struct fm_file *nf = realloc(S->f, nc * sizeof(*nf));
			if (!nf) {
				stop_after(c, pos, "filemix: %s: out of memory", S->dir);
				return;
			}
			S->f = nf;
			S->cap_f = nc;
		}
		struct target_opts o = { .write = true, .file_size = size, .buffered_ok = true, .named = true };
		if (target_open(&t, S->dir, &o, err, sizeof(err))) {
			stop_after(c, pos, "filemix: %s", err);
			return;
		}
		struct fm_file *f = &S->f[S->n_f];
		memset(f, 0, sizeof(*f));
		f->test = test;
		snprintf(f->cls, sizeof(f->cls), "%s", cls);
		f->n = n;
		const char *base = strrchr(t.path, '/');
		strtrimcpy(f->name, sizeof(f->name), base ? base + 1 : t.path);
		f->size = size;
		f->exists = true;
		f->at_s = now_s() - S->t0;
		KNOWN_CLEAR(f->w_mbps);
		KNOWN_CLEAR(f->r_mbps);
		S->cur = (long)S->n_f++;
		S->cur_write = true;
		S->tmpl = t;
		S->buffered = !t.direct && t.notice[0] == 0;
		S->ram = !t.direct && t.notice[0] != 0;
		S->direct = t.direct;
	} else {
		struct fm_file *f = find_file(S, test, cls, n);
		char path[PATH_MAX + 48];
		if (!f || !f->exists)
			return;
		fm_path(S, f, path, sizeof(path));
		t = S->tmpl;
		strtrimcpy(t.path, sizeof(t.path), path);
		t.size = f->size;
		t.created = false;	/* finish removes it */
		t.writable = false;
		t.fd = open(path, O_RDONLY | O_CLOEXEC | (t.direct ? O_DIRECT : 0));
		if (t.fd < 0) {
			stop_after(c, pos, "filemix: %s: cannot reopen it: %s", path, strerror(errno));
			return;
		}
		S->cur = f - S->f;
		S->cur_write = false;
	}
	c->targets[0] = t;
}

static void
cleanup(struct bench_ctx *c, struct fm_state *S, struct run_result *r)
{
	if (!S->swapped)
		return;
	struct target *t = &c->targets[0];
	if (S->done > 0 && t->fd >= 0 && t->fd != S->orig.fd)
		close(t->fd);
	for (size_t i = 0; i < S->n_f; i++)
		fm_delete(S, &S->f[i]);
	if (S->dir_made && rmdir(S->dir) && errno != ENOENT)
		strlist_addf(&r->notes, "filemix: %s: left in place: %s (someone else put files in it)", S->dir,
			     strerror(errno));
	c->targets[0] = S->orig;	/* the runner closes and removes its probe file */
	S->swapped = false;
}

static int
filemix_finish(struct bench_ctx *c, struct run_result *r)
{
	struct fm_state *S = c->state;
	cleanup(c, S, r);
	int rc = filemix_files_table(S, r);
	if (!rc)
		rc = filemix_class_table(S, r);
	if (S->n_f)
		filemix_verdicts(c, S, r);
	free(S->f);
	S->f = NULL;
	S->n_f = S->cap_f = 0;
	bench_verdict_errors(c->plan, r);
	return rc;
}

static int
filemix_live(struct bench_ctx *c, struct run_result *out)
{
	return filemix_files_table(c->state, out);
}

static const char *const fm_datas[] = { "random", "zeros", "compressible", "both", NULL };
static const struct bench_param bp_fm_data = {
	.name = "data", .kind = BP_CHOICE, .bind = BIND_NONE, .arg = "random|zeros|compressible|both",
	.help = "what the files carry (both: the mixed test twice, random then zeros)",
	.bad = "one of random, zeros, compressible, both", .choices = fm_datas, .def = 0,
};

const struct bench_test bench_filemix = {
	.name = "filemix",
	.summary = "the NAS copy workload in a directory: mixed file sizes, fill / delete / rewrite; --size is its space budget",
	.writes = true,
	.panels = PANEL_THROUGHPUT | PANEL_TABLE,
	.defaults = { .bs = 1 << 20, .qd = 1, .pattern = "seq", .data = "random", .rw_mix = 0,
		      .region_end = 1 },
	.params = (const struct bench_param *const[]){ &bp_fm_data, NULL },
	.plan = filemix_plan,
	.state_size = sizeof(struct fm_state),
	.on_step = filemix_on_step,
	.finish = filemix_finish,
	.live_table = filemix_live,
};
