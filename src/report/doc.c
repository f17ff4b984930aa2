/* doc.c - the shared JSON document (schema 1): header, null-for-unknown
 * helpers, atomic write. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "report/doc.h"

struct json_object *
doc_known_u64(const struct known_u64 *v)
{
	return v->known ? json_object_new_int64((int64_t)v->v) : NULL;
}

struct json_object *
doc_known_i64(const struct known_i64 *v)
{
	return v->known ? json_object_new_int64(v->v) : NULL;
}

struct json_object *
doc_known_dbl(const struct known_dbl *v)
{
	return v->known ? json_object_new_double(v->v) : NULL;
}

struct json_object *
doc_known_bool(const struct known_bool *v)
{
	return v->known ? json_object_new_boolean(v->v) : NULL;
}

struct json_object *
doc_known_dbl_prec(const struct known_dbl *v, int prec)
{
	if (!v->known || !isfinite(v->v))
		return NULL;
	char b[48];
	snprintf(b, sizeof(b), "%.*f", prec, v->v);
	if (strchr(b, '.')) {		/* trim trailing zeros: 150.20 -> 150.2 */
		char *e = b + strlen(b) - 1;
		while (*e == '0')
			*e-- = 0;
		if (*e == '.')
			*e = 0;
	}
	if (!strcmp(b, "-0"))
		strcpy(b, "0");
	return json_object_new_double_s(v->v, b);
}

struct json_object *
doc_str(const char *s)
{
	return (s && *s) ? json_object_new_string(s) : NULL;
}

struct json_object *
doc_new(void)
{
	struct json_object *doc = json_object_new_object();
	struct json_object *tool = json_object_new_object();
	struct json_object *host = json_object_new_object();
	char hn[256] = "", ts[32];
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;

	if (!doc || !tool || !host) {
		json_object_put(doc);
		json_object_put(tool);
		json_object_put(host);
		return NULL;
	}
	json_object_object_add(doc, "schema", json_object_new_int(DS_SCHEMA));
	json_object_object_add(tool, "name", json_object_new_string("diskscope"));
	json_object_object_add(tool, "version", json_object_new_string(DS_VERSION));
	json_object_object_add(doc, "tool", tool);
	gethostname(hn, sizeof hn - 1);
	json_object_object_add(host, "hostname", doc_str(hn));
	json_object_object_add(host, "kernel", uname(&u) == 0 ? json_object_new_string(u.release) : NULL);
	gmtime_r(&now, &tm);
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(host, "time", json_object_new_string(ts));
	json_object_object_add(doc, "host", host);
	return doc;
}

/* The directory part of PATH ("." for a bare name). */
static void
dir_of(const char *path, char *dir, size_t n)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, n, ".");
	else if (slash == path)
		snprintf(dir, n, "/");
	else
		snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

static const char *
kind_of(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISBLK(m) ? "a block device" :
	       S_ISCHR(m) ? "a character device" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link" : "not a regular file";
}

/* A fresh temporary beside PATH: O_EXCL never opens what is already there
 * (a planted file or symlink), O_NOFOLLOW never follows a link. */
static int
tmp_create(const char *path, char *tmp, size_t n)
{
	static unsigned counter;
	char dir[4096];
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	dir_of(path, dir, sizeof dir);
	for (int tries = 0; tries < 100; tries++) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		unsigned salt = (unsigned)ts.tv_nsec ^ (__atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED) * 2654435761u);
		if (snprintf(tmp, n, "%s/.%s.%d.%08x.tmp", dir, base, (int)getpid(), salt) >= (int)n)
			return -ENAMETOOLONG;
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/* What is at PATH now: 0 for a regular file or nothing, -errno otherwise. */
static int
target_ok(const char *path, mode_t *mode)
{
	struct stat st;
	*mode = 0;
	if (!path[0])
		return -ENOENT;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -errno;
	*mode = st.st_mode;
	return S_ISREG(st.st_mode) ? 0 : S_ISDIR(st.st_mode) ? -EISDIR : -EEXIST;
}

int
doc_out_check(const char *path, char *err, size_t n)
{
	if (!strcmp(path, "-"))
		return 0;
	mode_t m;
	int rc = target_ok(path, &m);
	if (!path[0] || rc == -EISDIR) {
		snprintf(err, n, "%.256s: name a file (or - for stdout)", path);
		return path[0] ? rc : -ENOENT;
	}
	if (rc == -EEXIST) {
		snprintf(err, n, "%.256s: %s, not a regular file (name a new file or a regular one)",
			 path, kind_of(m));
		return rc;
	}
	if (rc) {
		snprintf(err, n, "%.256s: %s", path, strerror(-rc));
		return rc;
	}
	/* Can a file be created beside it?  (EROFS, EACCES, ENOENT, ENOSPC of
	 * inodes: all found now, before a long run, not after it.) */
	char tmp[4096], dir[4096];
	int fd = tmp_create(path, tmp, sizeof tmp);
	if (fd < 0) {
		dir_of(path, dir, sizeof dir);
		snprintf(err, n, "%.256s: cannot write in %.256s (%s)", path, dir, strerror(-fd));
		return fd;
	}
	close(fd);
	unlink(tmp);
	return 0;
}

int
doc_flush(FILE *f)
{
	errno = 0;
	if (fflush(f) == EOF || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

int
doc_out_open(struct doc_out *o, const char *path)
{
	memset(o, 0, sizeof *o);
	o->path = path;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	mode_t m;
	int rc = target_ok(path, &m);
	if (rc)
		return rc == -EEXIST ? -EINVAL : rc;
	int fd = tmp_create(path, o->tmp, sizeof o->tmp);
	if (fd < 0)
		return fd;
	o->f = fdopen(fd, "w");
	if (!o->f) {
		rc = -errno;
		close(fd);
		unlink(o->tmp);
		return rc;
	}
	return 0;
}

void
doc_out_abort(struct doc_out *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->tmp[0])
		unlink(o->tmp);
	o->f = NULL;
	o->tmp[0] = 0;
}

int
doc_out_commit(struct doc_out *o)
{
	if (o->f == stdout) {
		o->f = NULL;
		return doc_flush(stdout);
	}
	int rc = doc_flush(o->f);
	if (!rc && fsync(fileno(o->f)) != 0 && errno != EINVAL)
		rc = -errno;
	FILE *f = o->f;
	o->f = NULL;
	errno = 0;
	if (fclose(f) != 0 && !rc)
		rc = errno ? -errno : -EIO;
	mode_t m;
	if (!rc)	/* the name may have changed under us during the run */
		rc = target_ok(o->path, &m);
	if (!rc && rename(o->tmp, o->path) != 0)
		rc = -errno;
	if (rc) {
		unlink(o->tmp);
		o->tmp[0] = 0;
		return rc == -EEXIST ? -EINVAL : rc;
	}
	o->tmp[0] = 0;
	char dir[4096];
	dir_of(o->path, dir, sizeof dir);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {		/* the rename itself on disk; best effort */
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

int
doc_write(struct json_object *doc, const char *path)
{
	const char *s = json_object_to_json_string_ext(doc,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s)
		return -ENOMEM;
	struct doc_out o;
	int rc = doc_out_open(&o, path);
	if (rc)
		return rc;
	if (fputs(s, o.f) == EOF || fputc('\n', o.f) == EOF) {
		rc = errno ? -errno : -EIO;
		doc_out_abort(&o);
		return rc;
	}
	return doc_out_commit(&o);
}
