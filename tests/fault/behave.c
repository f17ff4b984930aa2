/* behave.c - the drive behaviours of the fault device and the commands that
 * set them.  Each behaviour is one hook in hooks[] that looks at an I/O and
 * adds to its plan (an error, a time to wait for, head time to serve, extra
 * latency); each command is one row in cmds[].  Adding a behaviour: a field
 * in struct fd_disk, a command row, a hook row. */
#include "faultdev.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

double
fd_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- per-I/O hooks ------------------------------------------------------ */

struct fd_io {
	enum fd_op op;
	uint64_t off, len;
	uint64_t lba0, lba1;		/* sectors touched, inclusive */
	double now;
	bool again;			/* planned before, woken by clear/vanish/stall */
};

struct fd_plan {
	int err;			/* -errno: fail the I/O (after waiting) */
	bool now_err;			/* fail at once, no waiting (a gone device) */
	double wait_until;		/* stalls: nothing starts before this */
	double service_s;		/* head time, served one I/O after another */
	double extra_s;			/* latency that does not hold the head */
};

static bool
range_hits(const struct fd_range *r, const struct fd_io *io)
{
	return (r->ops & io->op) && io->lba0 <= r->lba1 && io->lba1 >= r->lba0;
}

static void
hook_vanish(struct fd_dev *d, struct fd_disk *k, const struct fd_io *io, struct fd_plan *p)
{
	if (k->vanished) {
		p->err = -ENODEV;
		p->now_err = true;
	}
}

static void
hook_stall(struct fd_dev *d, struct fd_disk *k, const struct fd_io *io, struct fd_plan *p)
{
	if (d->stall_until > p->wait_until)
		p->wait_until = d->stall_until;
}

static void
hook_eio(struct fd_dev *d, struct fd_disk *k, const struct fd_io *io, struct fd_plan *p)
{
	for (size_t i = 0; i < k->n_eio; i++)
		if (range_hits(&k->eio[i], io)) {
			p->err = -EIO;
			/* what a test asserts: failed reads this range served (a
			 * read woken by clear/vanish and planned again counts once) */
			k->eio[i].failed_reads += io->op == FD_READ && !io->again;
		}
}

/* slow sectors: the slowest rule touched counts, plus a delay on everything */
static void
hook_delay(struct fd_dev *d, struct fd_disk *k, const struct fd_io *io, struct fd_plan *p)
{
	double ms = k->delay_all_ms;
	for (size_t i = 0; i < k->n_delay; i++)
		if (range_hits(&k->delay[i], io) && k->delay[i].ms > ms)
			ms = k->delay[i].ms;
	p->extra_s += ms / 1e3;
}

/* MB/s at a position fraction: linear between the curve's points */
static double
rate_at(const struct fd_disk *k, double pos)
{
	const struct fd_point *r = k->rate;
	if (pos <= r[0].pos)
		return r[0].mbps;
	for (size_t i = 1; i < k->n_rate; i++)
		if (pos <= r[i].pos) {
			double f = (pos - r[i - 1].pos) / (r[i].pos - r[i - 1].pos);
			return r[i - 1].mbps + f * (r[i].mbps - r[i - 1].mbps);
		}
	return r[k->n_rate - 1].mbps;
}

static void
hook_rate(struct fd_dev *d, struct fd_disk *k, const struct fd_io *io, struct fd_plan *p)
{
	if (!k->n_rate)
		return;
	double pos = (double)io->off / (double)k->size;
	p->service_s += (double)io->len / (rate_at(k, pos) * 1e6);
}

/* a write that does not cover whole physical sectors: read, merge, write */
static void
hook_rmw(struct fd_dev *d, struct fd_disk *k, const struct fd_io *io, struct fd_plan *p)
{
	if (!k->rmw_phys || io->op != FD_WRITE)
		return;
	if (io->off % k->rmw_phys || io->len % k->rmw_phys)
		p->service_s += k->rmw_ms / 1e3;
}

/* A drive-managed SMR media cache: random writes fill it; once full the drive
 * cleans it, holding every I/O for stall_s out of each period_s, until it has
 * been left idle for a period. */
static void
hook_mcache(struct fd_dev *d, struct fd_disk *k, const struct fd_io *io, struct fd_plan *p)
{
	if (!k->mc_size)
		return;
	if (k->mc_last_write && io->now - k->mc_last_write > k->mc_period_s + k->mc_stall_s) {
		k->mc_used = 0;		/* idle long enough: cleaned */
		k->mc_full_at = 0;
	}
	if (io->op == FD_WRITE && !io->again) {
		if (io->off != k->mc_next_off)
			k->mc_used += io->len;
		k->mc_next_off = io->off + io->len;
		k->mc_last_write = io->now;
		if (!k->mc_full_at && k->mc_used >= k->mc_size)
			k->mc_full_at = io->now;
	}
	if (!k->mc_full_at)
		return;
	double t = io->now - k->mc_full_at;
	double start = k->mc_full_at + floor(t / k->mc_period_s) * k->mc_period_s;
	if (io->now < start + k->mc_stall_s && start + k->mc_stall_s > p->wait_until)
		p->wait_until = start + k->mc_stall_s;
}

typedef void (*fd_hook)(struct fd_dev *, struct fd_disk *, const struct fd_io *, struct fd_plan *);
static const fd_hook hooks[] = {
	hook_vanish, hook_stall, hook_mcache, hook_eio, hook_delay, hook_rate, hook_rmw,
};

/* Sleep until t; false when woken by vanish or clear (the plan is stale). */
static bool
sleep_until(struct fd_dev *d, double t)
{
	unsigned gen = d->gen;
	while (fd_now() < t) {
		struct timespec ts;
		ts.tv_sec = (time_t)t;
		ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
		pthread_cond_timedwait(&d->wake, &d->lock, &ts);
		if (d->gen != gen)
			return false;
	}
	return true;
}

int
fd_behave(struct fd_dev *d, size_t idx, enum fd_op op, uint64_t off, size_t len)
{
	struct fd_disk *k = &d->disk[idx];
	int rc;
	bool again = false;
	pthread_mutex_lock(&d->lock);
	for (;; again = true) {
		struct fd_io io = {
			.op = op, .off = off, .len = len, .now = fd_now(), .again = again,
			.lba0 = off / FD_SECTOR, .lba1 = (off + (len ? len : 1) - 1) / FD_SECTOR,
		};
		struct fd_plan p = { 0 };
		for (size_t i = 0; i < ARRAY_SIZE(hooks) && !p.now_err; i++)
			hooks[i](d, k, &io, &p);
		if (p.now_err) {
			rc = p.err;
			break;
		}
		double start = io.now > p.wait_until ? io.now : p.wait_until;
		if (p.service_s > 0) {
			if (k->busy_until > start)
				start = k->busy_until;
			k->busy_until = start + p.service_s;
			start = k->busy_until;
		}
		double done = start + p.extra_s;
		if (done > io.now)
			k->n_delayed++;
		if (!sleep_until(d, done))
			continue;	/* vanished or cleared meanwhile: decide again */
		rc = p.err;
		break;
	}
	if (op == FD_READ)
		k->n_reads++;
	else
		k->n_writes++;
	if (rc)
		k->n_failed++;
	pthread_mutex_unlock(&d->lock);
	return rc;
}

/* ---- commands ------------------------------------------------------------ */

static int
fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int
num_u64(const char *s, uint64_t *v)
{
	char *e;
	errno = 0;
	if (!s || *s == '-')
		return -EINVAL;
	unsigned long long x = strtoull(s, &e, 0);
	if (errno || e == s || *e)
		return -EINVAL;
	*v = x;
	return 0;
}

static int
num_dbl(const char *s, double *v, double lo, double hi)
{
	char *e;
	if (!s)
		return -EINVAL;
	double x = strtod(s, &e);
	if (e == s || *e || !isfinite(x) || x < lo || x > hi)
		return -EINVAL;
	*v = x;
	return 0;
}

static int
parse_ops(const char *s, unsigned *ops)
{
	if (!s || !strcmp(s, "rw"))
		*ops = FD_READ | FD_WRITE;
	else if (!strcmp(s, "read"))
		*ops = FD_READ;
	else if (!strcmp(s, "write"))
		*ops = FD_WRITE;
	else
		return -EINVAL;
	return 0;
}

struct cmd_ctx {
	struct fd_dev *d;
	struct fd_disk *k;		/* one disk this call */
	int argc;
	char **argv;
	char *err;
	size_t errlen;
};

static int
parse_range(struct cmd_ctx *c, struct fd_range *r, int nums)
{
	/* LBA0 LBA1 [MS] [read|write|rw] */
	*r = (struct fd_range){ 0 };
	if (c->argc < 3 + nums || c->argc > 4 + nums)
		return fail(c->err, c->errlen, "%s: expected LBA0 LBA1%s [read|write|rw]", c->argv[0],
			    nums ? " MS" : "");
	if (num_u64(c->argv[1], &r->lba0) || num_u64(c->argv[2], &r->lba1) || r->lba1 < r->lba0)
		return fail(c->err, c->errlen, "%s: bad LBA range '%s %s'", c->argv[0], c->argv[1], c->argv[2]);
	if (r->lba0 >= c->k->size / FD_SECTOR)
		return fail(c->err, c->errlen, "%s: LBA %s is past the end of %s (%llu sectors)", c->argv[0],
			    c->argv[1], c->k->name, (unsigned long long)(c->k->size / FD_SECTOR));
	if (nums && num_dbl(c->argv[3], &r->ms, 0, 600e3))
		return fail(c->err, c->errlen, "%s: bad delay '%s' (ms, 0 .. 600000)", c->argv[0], c->argv[3]);
	if (parse_ops(c->argc > 3 + nums ? c->argv[3 + nums] : NULL, &r->ops))
		return fail(c->err, c->errlen, "%s: expected read, write or rw, not '%s'", c->argv[0],
			    c->argv[3 + nums]);
	return 0;
}

static int
cmd_eio(struct cmd_ctx *c)
{
	struct fd_range r;
	int rc = parse_range(c, &r, 0);
	if (rc)
		return rc;
	if (c->k->n_eio >= FD_MAX_RULES)
		return fail(c->err, c->errlen, "eio: at most %d ranges", FD_MAX_RULES);
	c->k->eio[c->k->n_eio++] = r;
	return 0;
}

static int
cmd_delay(struct cmd_ctx *c)
{
	if (c->argc == 3 && !strcmp(c->argv[1], "all")) {
		if (num_dbl(c->argv[2], &c->k->delay_all_ms, 0, 600e3))
			return fail(c->err, c->errlen, "delay: bad delay '%s' (ms, 0 .. 600000)", c->argv[2]);
		return 0;
	}
	struct fd_range r;
	int rc = parse_range(c, &r, 1);
	if (rc)
		return rc;
	if (c->k->n_delay >= FD_MAX_RULES)
		return fail(c->err, c->errlen, "delay: at most %d ranges", FD_MAX_RULES);
	c->k->delay[c->k->n_delay++] = r;
	return 0;
}

static int
cmd_stall(struct cmd_ctx *c)
{
	double s;
	if (c->argc != 2 || num_dbl(c->argv[1], &s, 0, 3600))
		return fail(c->err, c->errlen, "stall: expected SECONDS (0 .. 3600; 0 ends a stall)");
	c->d->stall_until = s > 0 ? fd_now() + s : 0;
	c->d->gen++;
	return 0;
}

static int
cmd_vanish(struct cmd_ctx *c)
{
	if (c->argc > 2 || (c->argc == 2 && strcmp(c->argv[1], "unmount")))
		return fail(c->err, c->errlen, "vanish: expected nothing or 'unmount'");
	c->k->vanished = true;
	if (c->argc == 2)
		c->d->unmount = true;
	c->d->gen++;
	return 0;
}

static int
cmd_rate(struct cmd_ctx *c)
{
	struct fd_disk *k = c->k;
	if (c->argc == 2 && !strcmp(c->argv[1], "off")) {
		k->n_rate = 0;
		return 0;
	}
	if (c->argc < 2 || c->argc - 1 > FD_MAX_POINTS)
		return fail(c->err, c->errlen, "rate: expected POS:MBPS ... (1 .. %d points) or off", FD_MAX_POINTS);
	struct fd_point pt[FD_MAX_POINTS];
	for (int i = 1; i < c->argc; i++) {
		char *colon = strchr(c->argv[i], ':');
		if (!colon)
			return fail(c->err, c->errlen, "rate: '%s' is not POS:MBPS", c->argv[i]);
		*colon = 0;
		struct fd_point *q = &pt[i - 1];
		if (num_dbl(c->argv[i], &q->pos, 0, 1) || num_dbl(colon + 1, &q->mbps, 0.001, 1e6) ||
		    (i > 1 && q->pos <= pt[i - 2].pos))
			return fail(c->err, c->errlen, "rate: bad point '%s:%s' (position 0..1 rising, MB/s > 0)",
				    c->argv[i], colon + 1);
	}
	memcpy(k->rate, pt, sizeof(pt));
	k->n_rate = (size_t)c->argc - 1;
	return 0;
}

static int
cmd_rmw(struct cmd_ctx *c)
{
	uint64_t phys;
	if (c->argc == 2 && !strcmp(c->argv[1], "off")) {
		c->k->rmw_phys = 0;
		return 0;
	}
	if (c->argc != 3 || num_u64(c->argv[1], &phys) || phys < 1024 || phys > 65536 || (phys & (phys - 1)) ||
	    num_dbl(c->argv[2], &c->k->rmw_ms, 0, 10e3))
		return fail(c->err, c->errlen, "rmw: expected PHYS MS (PHYS a power of two 1024 .. 65536) or off");
	c->k->rmw_phys = (uint32_t)phys;
	return 0;
}

static int
cmd_mcache(struct cmd_ctx *c)
{
	struct fd_disk *k = c->k;
	double mb, st, per;
	if (c->argc == 2 && !strcmp(c->argv[1], "off")) {
		k->mc_size = 0;
		return 0;
	}
	if (c->argc != 4 || num_dbl(c->argv[1], &mb, 0.001, 1e6) || num_dbl(c->argv[2], &st, 0.001, 600) ||
	    num_dbl(c->argv[3], &per, 0.001, 3600) || st >= per)
		return fail(c->err, c->errlen, "mcache: expected SIZE_MB STALL_S PERIOD_S (stall shorter than the period) or off");
	k->mc_size = (uint64_t)(mb * 1e6);
	k->mc_stall_s = st;
	k->mc_period_s = per;
	k->mc_used = k->mc_next_off = 0;
	k->mc_full_at = k->mc_last_write = 0;
	return 0;
}

/* drop LBA0 LBA1: a write touching the range succeeds, yet the sectors in
 * it keep what they held (a drive losing writes; write-verify finds it) */
static int
cmd_drop(struct cmd_ctx *c)
{
	struct fd_range r;
	int rc = parse_range(c, &r, 0);
	if (rc)
		return rc;
	if (c->k->n_drop >= FD_MAX_RULES)
		return fail(c->err, c->errlen, "drop: at most %d ranges", FD_MAX_RULES);
	c->k->drop[c->k->n_drop++] = r;
	return 0;
}

void
fd_store(struct fd_dev *d, size_t i, uint64_t off, const char *buf, size_t size)
{
	struct fd_disk *k = &d->disk[i];
	struct fd_range drop[FD_MAX_RULES];
	pthread_mutex_lock(&d->lock);
	size_t n = k->n_drop;
	memcpy(drop, k->drop, n * sizeof(*drop));
	pthread_mutex_unlock(&d->lock);
	if (!n) {
		memcpy(k->mem + off, buf, size);
		return;
	}
	for (uint64_t o = 0; o < size; o += FD_SECTOR) {
		uint64_t lba = (off + o) / FD_SECTOR, len = size - o < FD_SECTOR ? size - o : FD_SECTOR;
		bool dropped = false;
		for (size_t j = 0; j < n && !dropped; j++)
			dropped = lba >= drop[j].lba0 && lba <= drop[j].lba1;
		if (!dropped)
			memcpy(k->mem + off + o, buf + o, len);
	}
}

/* every rule off, the device back, stalls ended */
static int
cmd_clear(struct cmd_ctx *c)
{
	struct fd_disk *k = c->k;
	k->vanished = false;
	k->n_eio = k->n_delay = k->n_rate = k->n_drop = 0;
	k->delay_all_ms = 0;
	k->rmw_phys = 0;
	k->mc_size = 0;
	c->d->stall_until = 0;
	c->d->gen++;
	return 0;
}

static const struct {
	const char *name;
	int (*run)(struct cmd_ctx *);
} cmds[] = {
	{ "eio", cmd_eio },
	{ "delay", cmd_delay },
	{ "stall", cmd_stall },
	{ "vanish", cmd_vanish },
	{ "rate", cmd_rate },
	{ "rmw", cmd_rmw },
	{ "mcache", cmd_mcache },
	{ "drop", cmd_drop },
	{ "clear", cmd_clear },
};

const char fd_command_help[] =
	"commands (MOUNT/.ctl, -c, --config; one a line; prefix with a disk name, e.g.\n"
	"'disk1 vanish', to touch one disk, else all; LBAs are 512-byte sectors):\n"
	"  eio LBA0 LBA1 [read|write|rw]      I/O touching LBA0..LBA1 fails with EIO\n"
	"  delay LBA0 LBA1 MS [read|write|rw] I/O touching the range takes MS longer\n"
	"  delay all MS                       every I/O takes MS longer\n"
	"  drop LBA0 LBA1                     writes there succeed but are not stored\n"
	"  stall SECONDS                      no I/O completes for SECONDS (0 ends it)\n"
	"  vanish                             every I/O fails with ENODEV at once\n"
	"  vanish unmount                     and the mount goes away, the daemon ends:\n"
	"                                     loop I/O then fails with EIO (no connection)\n"
	"  rate POS:MBPS ...                  head rate by position fraction, e.g. 0:150 1:70\n"
	"  rmw PHYS MS                        writes not aligned to PHYS bytes cost MS more\n"
	"  mcache SIZE_MB STALL_S PERIOD_S    SMR media cache: full after SIZE_MB of random\n"
	"                                     writes, then all I/O stalls STALL_S every PERIOD_S\n"
	"  rate|rmw|mcache off                that behaviour off\n"
	"  clear                              every rule off, the device back\n";

/* commands may cut their words in place: each run gets a fresh copy */
static void
copy_args(int argc, char **argv, char **av, char *words, size_t n)
{
	size_t o = 0;
	for (int a = 0; a < argc; a++) {
		av[a] = words + o;
		o += (size_t)snprintf(words + o, n - o, "%s", argv[a]) + 1;
	}
}

int
fd_command(struct fd_dev *d, const char *line, char *err, size_t errlen)
{
	char buf[1024], *argv[FD_MAX_POINTS + 4], *save = NULL;
	int argc = 0;
	if (strlen(line) >= sizeof(buf))
		return fail(err, errlen, "command too long");
	strcpy(buf, line);
	char *hash = strchr(buf, '#');
	if (hash)
		*hash = 0;
	for (char *t = strtok_r(buf, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
		if (argc == (int)ARRAY_SIZE(argv))
			return fail(err, errlen, "too many words");
		argv[argc++] = t;
	}
	if (!argc)
		return 0;
	/* an optional disk name first */
	size_t first = 0, last = d->n_disks;
	for (size_t i = 0; i < d->n_disks; i++)
		if (!strcmp(argv[0], d->disk[i].name)) {
			first = i;
			last = i + 1;
			argc--;
			memmove(argv, argv + 1, (size_t)argc * sizeof(*argv));
			break;
		}
	if (!argc)
		return fail(err, errlen, "%s: no command", d->disk[first].name);
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (strcmp(argv[0], cmds[i].name))
			continue;
		int rc = 0;
		char words[sizeof(buf)], *av[ARRAY_SIZE(argv)];
		pthread_mutex_lock(&d->lock);
		/* check on copies first: a bad word changes no disk */
		for (size_t k = first; k < last && !rc; k++) {
			struct fd_disk tmp = d->disk[k];
			struct fd_dev dtmp = { .stall_until = d->stall_until };
			struct cmd_ctx c = { &dtmp, &tmp, argc, av, err, errlen };
			copy_args(argc, argv, av, words, sizeof(words));
			rc = cmds[i].run(&c);
		}
		for (size_t k = first; k < last && !rc; k++) {
			struct cmd_ctx c = { d, &d->disk[k], argc, av, err, errlen };
			copy_args(argc, argv, av, words, sizeof(words));
			rc = cmds[i].run(&c);
		}
		pthread_cond_broadcast(&d->wake);
		pthread_mutex_unlock(&d->lock);
		return rc;
	}
	return fail(err, errlen, "unknown command '%s' (eio, delay, stall, vanish, rate, rmw, mcache, clear)", argv[0]);
}

int
fd_command_file(struct fd_dev *d, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	char line[1024], why[256];
	int n = 0, rc = 0;
	while (fgets(line, sizeof(line), f)) {
		n++;
		if ((rc = fd_command(d, line, why, sizeof(why)))) {
			fail(err, errlen, "%s:%d: %s", path, n, why);
			break;
		}
	}
	fclose(f);
	return rc;
}

static void
app(char **s, size_t *n, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int w = vsnprintf(*s + *n, *cap - *n, fmt, ap);
		va_end(ap);
		if (w < 0)
			return;
		if ((size_t)w < *cap - *n) {
			*n += (size_t)w;
			return;
		}
		char *ns = realloc(*s, *cap * 2 + (size_t)w);
		if (!ns)
			return;
		*s = ns;
		*cap = *cap * 2 + (size_t)w;
	}
}

char *
fd_describe(struct fd_dev *d)
{
	size_t n = 0, cap = 1024;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	s[0] = 0;
	pthread_mutex_lock(&d->lock);
	double now = fd_now();
	if (d->stall_until > now)
		app(&s, &n, &cap, "stall %.3f s left\n", d->stall_until - now);
	static const char *opn[] = { "", "read", "write", "rw" };
	for (size_t i = 0; i < d->n_disks; i++) {
		struct fd_disk *k = &d->disk[i];
		app(&s, &n, &cap, "%s size %llu reads %llu writes %llu failed %llu delayed %llu%s\n", k->name,
		    (unsigned long long)k->size, (unsigned long long)k->n_reads, (unsigned long long)k->n_writes,
		    (unsigned long long)k->n_failed, (unsigned long long)k->n_delayed, k->vanished ? " vanished" : "");
		for (size_t j = 0; j < k->n_eio; j++)
			app(&s, &n, &cap, "%s eio %llu %llu %s failed-reads %llu\n", k->name,
			    (unsigned long long)k->eio[j].lba0, (unsigned long long)k->eio[j].lba1,
			    opn[k->eio[j].ops & 3], (unsigned long long)k->eio[j].failed_reads);
		for (size_t j = 0; j < k->n_delay; j++)
			app(&s, &n, &cap, "%s delay %llu %llu %g %s\n", k->name, (unsigned long long)k->delay[j].lba0,
			    (unsigned long long)k->delay[j].lba1, k->delay[j].ms, opn[k->delay[j].ops & 3]);
		for (size_t j = 0; j < k->n_drop; j++)
			app(&s, &n, &cap, "%s drop %llu %llu\n", k->name, (unsigned long long)k->drop[j].lba0,
			    (unsigned long long)k->drop[j].lba1);
		if (k->delay_all_ms)
			app(&s, &n, &cap, "%s delay all %g\n", k->name, k->delay_all_ms);
		if (k->n_rate) {
			app(&s, &n, &cap, "%s rate", k->name);
			for (size_t j = 0; j < k->n_rate; j++)
				app(&s, &n, &cap, " %g:%g", k->rate[j].pos, k->rate[j].mbps);
			app(&s, &n, &cap, "\n");
		}
		if (k->rmw_phys)
			app(&s, &n, &cap, "%s rmw %u %g\n", k->name, k->rmw_phys, k->rmw_ms);
		if (k->mc_size)
			app(&s, &n, &cap, "%s mcache %g %g %g used %llu%s\n", k->name, (double)k->mc_size / 1e6,
			    k->mc_stall_s, k->mc_period_s, (unsigned long long)k->mc_used,
			    k->mc_full_at ? " full" : "");
	}
	pthread_mutex_unlock(&d->lock);
	return s;
}
