/* guard.c - the write guard: may this block device be overwritten?  Rules in
 * guard.h (rules 1 and 4, confirmation and identity, in guard-confirm.c);
 * every refusal is one sentence naming the rule and the evidence, and a
 * rule that cannot be evaluated refuses. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "inventory/facts.h"
#include "io/guard.h"
#include "util/util.h"

#define ROOT_MAX 32
#define PAUSE_ENV "DISKSCOPE_TEST_PAUSE_BEFORE_WRITE"

static const char *
dflt(const char *s, const char *d)
{
	return s && *s ? s : d;
}

/* "MAJ:MIN" from a sysfs dev file; 0 when unreadable. */
static dev_t
read_devt(const char *path)
{
	char buf[32];
	unsigned ma, mi;
	if (read_text(path, buf, sizeof buf) < 0 || sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return 0;
	return makedev(ma, mi);
}

static bool
exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static const char *
base(const char *p)
{
	const char *b = strrchr(p, '/');
	return b ? b + 1 : p;
}

static int
family_add(struct guard_family *f, const char *name, dev_t d)
{
	if (f->n >= GUARD_MAX_FAMILY)
		return -E2BIG;
	strtrimcpy(f->name[f->n], sizeof f->name[0], name);
	f->devt[f->n] = d;
	f->n++;
	return 0;
}

int
guard_family_load(struct guard_family *f, const char *sysfs_root, dev_t d, const char *devpath,
		  char *err, size_t errlen)
{
	const char *root = dflt(sysfs_root, "/sys");
	char dir[PATH_MAX], p[PATH_MAX + 300];
	int rc = 0;

	memset(f, 0, sizeof *f);
	if (sysfs_devt_dir(root, d, dir, sizeof dir) < 0) {
		snprintf(err, errlen,
			 "refused: %s (device %u:%u) has no entry in %s/dev/block, so its users cannot be checked",
			 devpath, major(d), minor(d), root);
		return -EPERM;
	}
	strtrimcpy(f->dev, sizeof f->dev, devpath ? devpath : base(dir));
	family_add(f, base(dir), d);
	snprintf(p, sizeof p, "%s/partition", dir);
	if (exists(p)) {
		/* A partition: its whole disk matters too (mounted or held whole). */
		char disk[PATH_MAX];
		snprintf(p, sizeof p, "%s/..", dir);
		dev_t dd = 0;
		if (realpath(p, disk)) {
			snprintf(p, sizeof p, "%s/dev", disk);
			dd = read_devt(p);
		}
		if (!dd) {
			snprintf(err, errlen,
				 "refused: cannot read the device number of the disk %s is a partition of, so its users cannot be checked",
				 f->dev);
			return -EPERM;
		}
		f->partition = true;
		family_add(f, base(disk), dd);
		return 0;
	}
	DIR *dh = opendir(dir);
	if (!dh) {
		rc = errno;
		snprintf(err, errlen, "refused: cannot list the partitions of %s in %s (%s)", f->dev,
			 dir, strerror(rc));
		return -EPERM;
	}
	struct dirent *de;
	while ((de = readdir(dh)) && rc == 0) {
		if (de->d_name[0] == '.')
			continue;
		if (pathf(p, sizeof p, "%s/%s/partition", dir, de->d_name) < 0 || !exists(p))
			continue;
		pathf(p, sizeof p, "%s/%s/dev", dir, de->d_name);
		dev_t pd = read_devt(p);
		if (!pd) {
			snprintf(err, errlen,
				 "refused: cannot read the device number of %s's partition %s, so its users cannot be checked",
				 f->dev, de->d_name);
			rc = -EPERM;
		} else if (family_add(f, de->d_name, pd) < 0) {
			snprintf(err, errlen,
				 "refused: %s has more than %d partitions, more than the guard can check",
				 f->dev, GUARD_MAX_FAMILY - 1);
			rc = -EPERM;
		}
	}
	closedir(dh);
	return rc;
}

static int
family_index(const struct guard_family *f, dev_t d)
{
	for (size_t i = 0; d && i < f->n; i++)
		if (f->devt[i] == d)
			return (int)i;
	return -1;
}

/* The family member a path names: a block device node anywhere (by device
 * number), or, for a /dev path that no longer exists, by kernel name. */
static int
family_match_path(const struct guard_family *f, const char *src)
{
	struct stat st;

	if (src[0] != '/')
		return -1;
	if (stat(src, &st) == 0)
		return S_ISBLK(st.st_mode) ? family_index(f, st.st_rdev) : -1;
	if (strncmp(src, "/dev/", 5) == 0)
		for (size_t i = 0; i < f->n; i++)
			if (strcmp(base(src), f->name[i]) == 0)
				return (int)i;
	return -1;
}

/* The member's name for messages: the target as named, else /dev/NAME. */
static void
member(const struct guard_family *f, int i, char *out, size_t n)
{
	if (i == 0)
		strtrimcpy(out, n, f->dev);
	else
		snprintf(out, n, "/dev/%s", f->name[i]);
}

int
guard_check_mounts(const struct guard_family *f, const char *mountinfo_file, char *err,
		   size_t errlen)
{
	const char *mf = dflt(mountinfo_file, "/proc/self/mountinfo");
	FILE *fp = fopen(mf, "re");
	char *line = NULL, who[160];
	struct mount_line m;
	size_t cap = 0;
	unsigned ln = 0;
	int rc = 0, i;

	if (!fp) {
		rc = errno;
		snprintf(err, errlen, "refused: cannot read %s to check whether %s is mounted (%s)",
			 mf, f->dev, strerror(rc));
		return -EPERM;
	}
	while (rc == 0 && getline(&line, &cap, fp) > 0) {
		ln++;
		if (!mountinfo_parse(line, &m)) {
			snprintf(err, errlen,
				 "refused: cannot parse line %u of %s to check whether %s is mounted",
				 ln, mf, f->dev);
			rc = -EPERM;
		} else if ((i = family_index(f, m.devt)) >= 0 || (i = family_match_path(f, m.src)) >= 0) {
			member(f, i, who, sizeof who);
			snprintf(err, errlen, "refused: %s is mounted on %s", who, m.mnt);
			rc = -EPERM;
		}
	}
	if (rc == 0 && ferror(fp)) {
		snprintf(err, errlen, "refused: cannot read %s to check whether %s is mounted (%s)",
			 mf, f->dev, strerror(EIO));
		rc = -EPERM;
	}
	free(line);
	fclose(fp);
	return rc;
}

int
guard_check_holders(const struct guard_family *f, const char *sysfs_root, char *err,
		    size_t errlen)
{
	const char *root = dflt(sysfs_root, "/sys");
	char dir[PATH_MAX], who[160];

	for (size_t i = 0; i < f->n; i++) {
		pathf(dir, sizeof dir, "%s/dev/block/%u:%u/holders", root, major(f->devt[i]),
		      minor(f->devt[i]));
		DIR *d = opendir(dir);
		if (!d) {
			int e = errno;
			member(f, (int)i, who, sizeof who);
			snprintf(err, errlen, "refused: cannot read %s to check what holds %s (%s)", dir,
				 who, strerror(e));
			return -EPERM;
		}
		struct dirent *de;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			if (i == 0)
				snprintf(err, errlen, "refused: %s is held by %s (holders)", f->dev,
					 de->d_name);
			else if (f->partition)
				snprintf(err, errlen,
					 "refused: /dev/%s, the disk %s is a partition of, is held by %s (holders)",
					 f->name[i], f->dev, de->d_name);
			else
				snprintf(err, errlen,
					 "refused: /dev/%s, a partition of %s, is held by %s (holders)",
					 f->name[i], f->dev, de->d_name);
			closedir(d);
			return -EPERM;
		}
		closedir(d);
	}
	return 0;
}

int
guard_check_swaps(const struct guard_family *f, const char *swaps_file, char *err, size_t errlen)
{
	const char *sf = dflt(swaps_file, "/proc/swaps");
	FILE *fp = fopen(sf, "re");
	char *line = NULL, *save, *src, who[160];
	size_t cap = 0;
	int rc = 0, i;

	if (!fp) {
		rc = errno;
		snprintf(err, errlen,
			 "refused: cannot read %s to check whether %s is in use as swap (%s)", sf,
			 f->dev, strerror(rc));
		return -EPERM;
	}
	/* The first line is the header "Filename Type Size Used Priority". */
	for (bool first = true; rc == 0 && getline(&line, &cap, fp) > 0; first = false) {
		save = NULL;
		if (first || !(src = strtok_r(line, " \t\n", &save)))
			continue;
		mount_unescape(src);
		char *del = strstr(src, " (deleted)");
		if (del)
			*del = '\0';
		if ((i = family_match_path(f, src)) >= 0) {
			member(f, i, who, sizeof who);
			snprintf(err, errlen, "refused: %s is in use as swap (%s)", who, sf);
			rc = -EPERM;
		}
	}
	free(line);
	fclose(fp);
	return rc;
}

static int
root_add(dev_t *v, size_t *n, dev_t d)
{
	if (!d)
		return 0;
	for (size_t i = 0; i < *n; i++)
		if (v[i] == d)
			return 0;
	if (*n >= ROOT_MAX)
		return -E2BIG;
	v[(*n)++] = d;
	return 0;
}

/* The device numbers under "/": st_dev of "/", mountinfo's "/" (its device
 * number and its source node: btrfs reports an anonymous st_dev), and
 * through slaves/ every device below them (LVs, arrays). */
static int
root_devices(const struct guard_env *env, dev_t *v, size_t *n, char *err, size_t errlen)
{
	const char *root = dflt(env->sysfs_root, "/sys");
	const char *mf = dflt(env->mountinfo_file, "/proc/self/mountinfo");
	char *line = NULL, p[PATH_MAX + 300];
	struct mount_line m;
	size_t cap = 0;
	dev_t rd = env->root_dev;
	struct stat st;
	int rc = 0;

	*n = 0;
	if (!rd) {
		if (stat("/", &st) < 0) {
			snprintf(err, errlen, "refused: cannot stat / to find the device holding it (%s)",
				 strerror(errno));
			return -EPERM;
		}
		rd = st.st_dev;
	}
	root_add(v, n, rd);
	FILE *fp = fopen(mf, "re");
	if (!fp) {
		rc = errno;
		snprintf(err, errlen, "refused: cannot read %s to find the device holding / (%s)", mf,
			 strerror(rc));
		return -EPERM;
	}
	dev_t last = 0, last_src = 0;
	while (getline(&line, &cap, fp) > 0)
		if (mountinfo_parse(line, &m) && strcmp(m.mnt, "/") == 0) {
			last = m.devt;
			last_src = m.src[0] == '/' && stat(m.src, &st) == 0 && S_ISBLK(st.st_mode) ?
					   st.st_rdev : 0;
		}
	free(line);
	fclose(fp);
	root_add(v, n, last);
	root_add(v, n, last_src);
	for (size_t i = 0; i < *n && rc == 0; i++) {
		pathf(p, sizeof p, "%s/dev/block/%u:%u/slaves", root, major(v[i]), minor(v[i]));
		DIR *dh = opendir(p);
		if (!dh)
			continue;	/* not a block device (anonymous st_dev) or no slaves */
		struct dirent *de;
		while ((de = readdir(dh)) && rc == 0) {
			if (de->d_name[0] == '.')
				continue;
			pathf(p, sizeof p, "%s/class/block/%s/dev", root, de->d_name);
			rc = root_add(v, n, read_devt(p));
		}
		closedir(dh);
	}
	if (rc) {
		snprintf(err, errlen, "refused: more than %d devices under /, more than the guard can check",
			 ROOT_MAX);
		return -EPERM;
	}
	return 0;
}

int
guard_check_root(const struct guard_family *f, const struct guard_env *env, char *err,
		 size_t errlen)
{
	static const struct guard_env none;
	dev_t v[ROOT_MAX];
	size_t n;
	int rc, i;

	if ((rc = root_devices(env ? env : &none, v, &n, err, errlen)) < 0)
		return rc;
	for (size_t r = 0; r < n; r++) {
		if ((i = family_index(f, v[r])) < 0)
			continue;
		if (i == 0)
			snprintf(err, errlen, "refused: %s holds / (the running system)", f->dev);
		else if (f->partition)
			snprintf(err, errlen,
				 "refused: %s is a partition of /dev/%s, which holds / (the running system)",
				 f->dev, f->name[i]);
		else
			snprintf(err, errlen,
				 "refused: %s holds / on its partition /dev/%s (the running system)",
				 f->dev, f->name[i]);
		return -EPERM;
	}
	return 0;
}

int
guard_check_rules(dev_t d, const char *devpath, const struct guard_env *env, char *err,
		  size_t errlen)
{
	static const struct guard_env none;
	const struct guard_env *g = env ? env : &none;
	struct guard_family *f = malloc(sizeof *f);
	int rc;

	if (!f)
		return -ENOMEM;
	rc = guard_family_load(f, g->sysfs_root, d, devpath, err, errlen);
	if (rc == 0)
		rc = guard_check_root(f, g, err, errlen);
	if (rc == 0)
		rc = guard_check_mounts(f, g->mountinfo_file, err, errlen);
	if (rc == 0)
		rc = guard_check_holders(f, g->sysfs_root, err, errlen);
	if (rc == 0)
		rc = guard_check_swaps(f, g->swaps_file, err, errlen);
	free(f);
	return rc;
}

static int
stat_block(const char *devpath, struct stat *st, char *err, size_t errlen)
{
	int rc;

	if (stat(devpath, st) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", devpath, strerror(-rc));
		return rc;
	}
	if (!S_ISBLK(st->st_mode)) {
		snprintf(err, errlen, "%s: not a block device", devpath);
		return -ENOTBLK;
	}
	return 0;
}

int
guard_precheck(const char *devpath, const struct guard_env *env, char *err, size_t errlen)
{
	struct stat st;
	int rc = stat_block(devpath, &st, err, errlen);

	return rc < 0 ? rc : guard_check_rules(st.st_rdev, devpath, env, err, errlen);
}

/* The test hook (guard.h): a window between confirmation and open. */
static void
test_pause(const char *devpath)
{
	const char *v = getenv(PAUSE_ENV);
	char *end;
	double s;

	if (!v || !*v || (s = strtod(v, &end)) <= 0 || *end || s > 3600)
		return;
	fprintf(stderr, "diskscope: test hook %s: pausing %g s before opening %s for writing\n",
		PAUSE_ENV, s, devpath);
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int
guard_write_open(const char *devpath, const struct guard_confirms *l,
		 const struct guard_env *env, int *fd, char *err, size_t errlen)
{
	static const struct guard_env none;
	const struct guard_env *g = env ? env : &none;
	const struct guard_confirm *seen;
	struct guard_confirm now;
	struct stat st;
	int rc, e;

	*fd = -1;
	/* 1. confirmation: before anything is opened. */
	if ((rc = stat_block(devpath, &st, err, errlen)) < 0)
		return rc;
	if ((rc = guard_check_confirm(devpath, st.st_rdev, l, &seen, err, errlen)) < 0) {
		/* A stronger reason, when there is one, is the better sentence
		 * (no confirmation can allow writing the disk holding /). */
		char why[512];
		if (guard_check_rules(st.st_rdev, devpath, g, why, sizeof why) == -EPERM)
			snprintf(err, errlen, "%s", why);
		return rc;
	}
	test_pause(devpath);
	/* 2. the exclusive open. */
	*fd = open(devpath, O_RDWR | O_EXCL | O_DIRECT | O_CLOEXEC);
	if (*fd < 0) {
		e = errno;
		if (e != EBUSY) {
			snprintf(err, errlen, "%s: cannot open for writing: %s", devpath, strerror(e));
			return -e;
		}
		/* Refused already; the rules say why when they can. */
		if (stat(devpath, &st) == 0 && S_ISBLK(st.st_mode) &&
		    guard_check_rules(st.st_rdev, devpath, g, err, errlen) == -EPERM)
			return -EPERM;
		snprintf(err, errlen, "refused: %s is in use by another program (exclusive open: %s)",
			 devpath, strerror(e));
		return -EPERM;
	}
	/* 3. the rules, on the device actually opened. */
	if (fstat(*fd, &st) < 0 || !S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "%s: not a block device once opened", devpath);
		rc = -ENOTBLK;
		goto fail;
	}
	if ((rc = guard_check_rules(st.st_rdev, devpath, g, err, errlen)) < 0)
		goto fail;
	/* 4. the drive confirmed: nothing has been written yet. */
	if ((rc = guard_ident_read(&now, st.st_rdev, g->sysfs_root, err, errlen)) < 0)
		goto fail;
	if (now.backing[0])	/* the file behind the very descriptor we write */
		guard_loop_backing_id(*fd, &now);
	if ((rc = guard_check_identity(devpath, seen, &now, err, errlen)) < 0)
		goto fail;
	return 0;
fail:
	close(*fd);
	*fd = -1;
	return rc;
}
