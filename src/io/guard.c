/* guard.c - the write guard: may this block device be overwritten?  Rules in
 * guard.h; every refusal is one sentence naming the rule and the evidence. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "io/guard.h"
#include "util/util.h"

#define ROOT_MAX 32

static const char *
dflt(const char *s, const char *d)
{
	return s && *s ? s : d;
}

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
is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
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
guard_family_load(struct guard_family *f, const char *sysfs_root, const char *name,
		  const char *devpath)
{
	char dir[PATH_MAX], p[PATH_MAX];
	struct stat st;
	const char *root = dflt(sysfs_root, "/sys");

	memset(f, 0, sizeof *f);
	strtrimcpy(f->dev, sizeof f->dev, devpath ? devpath : name);
	if (pathf(dir, sizeof dir, "%s/class/block/%s", root, name) < 0 ||
	    stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return -ENOENT;
	pathf(p, sizeof p, "%s/dev", dir);
	family_add(f, name, read_devt(p));
	pathf(p, sizeof p, "%s/partition", dir);
	if (is_file(p))
		return 0;	/* a partition has no partitions of its own */
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (pathf(p, sizeof p, "%s/%s/partition", dir, de->d_name) < 0 || !is_file(p))
			continue;
		pathf(p, sizeof p, "%s/%s/dev", dir, de->d_name);
		if (family_add(f, de->d_name, read_devt(p)) < 0)
			break;
	}
	closedir(d);
	return 0;
}

/* Index of the family member a device path (a mounts/swaps source) names, or -1.
 * By kernel name (basename, also after resolving symlinks such as
 * /dev/disk/by-uuid/...) and by device number when the path exists. */
static int
family_match(const struct guard_family *f, const char *src)
{
	char real[PATH_MAX];
	struct stat st;
	const char *cands[2] = { src, NULL };

	if (strncmp(src, "/dev/", 5) != 0)
		return -1;
	if (realpath(src, real))
		cands[1] = real;
	for (int c = 0; c < 2 && cands[c]; c++) {
		const char *b = strrchr(cands[c], '/');
		b = b ? b + 1 : cands[c];
		for (size_t i = 0; i < f->n; i++)
			if (strcmp(b, f->name[i]) == 0)
				return (int)i;
	}
	if (stat(src, &st) == 0 && S_ISBLK(st.st_mode))
		for (size_t i = 0; i < f->n; i++)
			if (f->devt[i] && f->devt[i] == st.st_rdev)
				return (int)i;
	return -1;
}

/* mounts/swaps fields escape space, tab, newline and backslash as \ooo. */
static void
unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* Split a line into its first two whitespace-separated fields. */
static bool
two_fields(char *line, char **a, char **b)
{
	char *save = NULL;
	*a = strtok_r(line, " \t\n", &save);
	*b = *a ? strtok_r(NULL, " \t\n", &save) : NULL;
	if (!*a || !*b)
		return false;
	unescape(*a);
	unescape(*b);
	return true;
}

int
guard_check_mounts(const struct guard_family *f, const char *mounts_file, char *err, size_t errlen)
{
	const char *mf = dflt(mounts_file, "/proc/self/mounts");
	FILE *fp = fopen(mf, "re");
	char *line = NULL, *src, *mnt;
	size_t cap = 0;
	int rc = 0;

	if (!fp) {
		/* Without the mounts table nothing can be proven safe. */
		rc = -errno;
		snprintf(err, errlen, "refused: cannot read %s to check whether %s is mounted (%s)",
			 mf, f->dev, strerror(-rc));
		return -EPERM;
	}
	while (getline(&line, &cap, fp) > 0) {
		if (!two_fields(line, &src, &mnt) || family_match(f, src) < 0)
			continue;
		snprintf(err, errlen, "refused: %s is mounted on %s", src, mnt);
		rc = -EPERM;
		break;
	}
	free(line);
	fclose(fp);
	return rc;
}

int
guard_check_holders(const struct guard_family *f, const char *sysfs_root, char *err, size_t errlen)
{
	const char *root = dflt(sysfs_root, "/sys");
	char dir[PATH_MAX];

	for (size_t i = 0; i < f->n; i++) {
		if (i == 0)
			pathf(dir, sizeof dir, "%s/class/block/%s/holders", root, f->name[0]);
		else
			pathf(dir, sizeof dir, "%s/class/block/%s/%s/holders", root, f->name[0],
			      f->name[i]);
		DIR *d = opendir(dir);
		if (!d)
			continue;	/* no holders directory: nothing stacked on it */
		struct dirent *de;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			if (i == 0)
				snprintf(err, errlen, "refused: %s is held by %s (holders)", f->dev,
					 de->d_name);
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
	char *line = NULL, *src, *type;
	size_t cap = 0;
	int rc = 0;

	if (!fp)
		return 0;	/* no swap support at all: nothing can swap on it */
	while (getline(&line, &cap, fp) > 0) {
		if (!two_fields(line, &src, &type) || family_match(f, src) < 0)
			continue;
		snprintf(err, errlen, "refused: %s is in use as swap (%s)", src, sf);
		rc = -EPERM;
		break;
	}
	free(line);
	fclose(fp);
	return rc;
}

static void
root_add(char names[][64], size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(names[i], name) == 0)
			return;
	if (*n < ROOT_MAX)
		strtrimcpy(names[(*n)++], 64, name);
}

/* The kernel devices under "/": the root filesystem's device and, through
 * slaves/ (dm, md), every device below it, so an LV or array counts too. */
static size_t
root_devices(const char *root, const char *mounts_file, dev_t root_dev, char names[][64])
{
	char p[PATH_MAX], link[PATH_MAX];
	size_t n = 0;
	ssize_t l;

	if (root_dev) {
		pathf(p, sizeof p, "%s/dev/block/%u:%u", root, major(root_dev), minor(root_dev));
		if ((l = readlink(p, link, sizeof link - 1)) > 0) {
			link[l] = '\0';
			const char *b = strrchr(link, '/');
			root_add(names, &n, b ? b + 1 : link);
		}
	}
	/* btrfs and friends report an anonymous st_dev: also trust the mounts
	 * table's source for "/". */
	FILE *fp = fopen(dflt(mounts_file, "/proc/self/mounts"), "re");
	if (fp) {
		char *line = NULL, *src, *mnt, last[PATH_MAX] = "";
		size_t cap = 0;
		while (getline(&line, &cap, fp) > 0)
			if (two_fields(line, &src, &mnt) && strcmp(mnt, "/") == 0 &&
			    strncmp(src, "/dev/", 5) == 0)
				strtrimcpy(last, sizeof last, src);
		free(line);
		fclose(fp);
		if (*last) {
			char real[PATH_MAX];
			const char *s = realpath(last, real) ? real : last;
			const char *b = strrchr(s, '/');
			root_add(names, &n, b + 1);
		}
	}
	for (size_t i = 0; i < n; i++) {
		pathf(p, sizeof p, "%s/class/block/%s/slaves", root, names[i]);
		DIR *d = opendir(p);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d)))
			if (de->d_name[0] != '.')
				root_add(names, &n, de->d_name);
		closedir(d);
	}
	return n;
}

int
guard_check_root(const struct guard_family *f, const char *sysfs_root, const char *mounts_file,
		 dev_t root_dev, char *err, size_t errlen)
{
	char names[ROOT_MAX][64];
	size_t n = root_devices(dflt(sysfs_root, "/sys"), mounts_file, root_dev, names);

	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < f->n; i++) {
			if (strcmp(names[r], f->name[i]) != 0)
				continue;
			if (i == 0)
				snprintf(err, errlen, "refused: %s holds / (the running system)",
					 f->dev);
			else
				snprintf(err, errlen,
					 "refused: %s holds / on its partition /dev/%s (the running system)",
					 f->dev, f->name[i]);
			return -EPERM;
		}
	return 0;
}

int
guard_check_confirm(const char *devpath, const char *confirm, char *err, size_t errlen)
{
	char want[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
	struct stat sa, sb;

	if (!confirm || !*confirm) {
		snprintf(err, errlen, "refused: writing %s needs --destroy-data=%s", devpath, devpath);
		return -EPERM;
	}
	/* "loop4" means /dev/loop4, as on the command line's target list. */
	if (strchr(confirm, '/'))
		strtrimcpy(want, sizeof want, confirm);
	else if (pathf(want, sizeof want, "/dev/%s", confirm) < 0)
		goto wrong;
	if (realpath(want, a) && realpath(devpath, b) && strcmp(a, b) == 0)
		return 0;
	if (stat(want, &sa) == 0 && stat(devpath, &sb) == 0 && S_ISBLK(sa.st_mode) &&
	    S_ISBLK(sb.st_mode) && sa.st_rdev == sb.st_rdev)
		return 0;
wrong:
	snprintf(err, errlen, "refused: --destroy-data=%s does not name %s", confirm, devpath);
	return -EPERM;
}

int
guard_open_excl(const char *devpath, int *fd, char *err, size_t errlen)
{
	int e;

	*fd = open(devpath, O_RDWR | O_EXCL | O_DIRECT | O_CLOEXEC);
	if (*fd >= 0)
		return 0;
	e = errno;
	if (e == EBUSY) {
		snprintf(err, errlen,
			 "refused: %s is in use by another program (exclusive open: %s)", devpath,
			 strerror(e));
		return -EPERM;
	}
	snprintf(err, errlen, "%s: cannot open for writing: %s", devpath, strerror(e));
	return -e;
}

/* The kernel name of block device devpath (its sysfs dev/block link). */
static int
kernel_name(const char *sys, const char *devpath, char *name, size_t n, char *err, size_t errlen)
{
	char p[PATH_MAX], link[PATH_MAX];
	struct stat st;
	ssize_t l;
	int rc;

	if (stat(devpath, &st) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", devpath, strerror(-rc));
		return rc;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "%s: not a block device", devpath);
		return -ENOTBLK;
	}
	pathf(p, sizeof p, "%s/dev/block/%u:%u", sys, major(st.st_rdev), minor(st.st_rdev));
	if ((l = readlink(p, link, sizeof link - 1)) <= 0) {
		snprintf(err, errlen,
			 "refused: %s has no entry in %s/dev/block, so its users cannot be checked",
			 devpath, sys);
		return -EPERM;
	}
	link[l] = '\0';
	strtrimcpy(name, n, strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
	return 0;
}

int
guard_precheck(const char *devpath, const struct guard_env *env, char *err, size_t errlen)
{
	static const struct guard_env none;
	const struct guard_env *g = env ? env : &none;
	const char *sys = dflt(g->sysfs_root, "/sys");
	struct guard_family *f;
	char name[64];
	dev_t rootdev = g->root_dev;
	int rc;

	if ((rc = kernel_name(sys, devpath, name, sizeof name, err, errlen)) < 0)
		return rc;
	if (!rootdev) {
		struct stat rs;
		if (stat("/", &rs) == 0)
			rootdev = rs.st_dev;
	}
	if (!(f = malloc(sizeof *f)))
		return -ENOMEM;
	if ((rc = guard_family_load(f, sys, name, devpath)) < 0) {
		snprintf(err, errlen, "refused: %s (%s) is not listed in %s/class/block", devpath,
			 name, sys);
		rc = -EPERM;
	}
	if (rc == 0)
		rc = guard_check_root(f, sys, g->mounts_file, rootdev, err, errlen);
	if (rc == 0)
		rc = guard_check_mounts(f, g->mounts_file, err, errlen);
	if (rc == 0)
		rc = guard_check_holders(f, sys, err, errlen);
	if (rc == 0)
		rc = guard_check_swaps(f, g->swaps_file, err, errlen);
	free(f);
	return rc;
}

int
guard_write_open(const char *devpath, const char *confirm, const struct guard_env *env,
		 int *fd, char *err, size_t errlen)
{
	int rc;

	*fd = -1;
	if ((rc = guard_precheck(devpath, env, err, errlen)) < 0)
		return rc;
	if ((rc = guard_check_confirm(devpath, confirm, err, errlen)) < 0)
		return rc;
	return guard_open_excl(devpath, fd, err, errlen);
}
