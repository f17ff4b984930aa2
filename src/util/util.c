/* util.c - string lists, small file reads, clock. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/util.h"

int
strlist_add(struct strlist *l, const char *s)
{
	char **v = realloc(l->v, (l->n + 1) * sizeof *v);
	if (!v)
		return -ENOMEM;
	l->v = v;
	if (!(v[l->n] = strdup(s)))
		return -ENOMEM;
	l->n++;
	return 0;
}

int
strlist_addf(struct strlist *l, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return strlist_add(l, buf);
}

bool
strlist_has(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return true;
	return false;
}

void
strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

int
read_text(const char *path, char *buf, size_t n)
{
	if (n == 0)
		return -EINVAL;
	buf[0] = '\0';
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t r = read(fd, buf, n - 1);
	int err = errno;
	close(fd);
	if (r < 0) {
		buf[0] = '\0';
		return -err;
	}
	buf[r] = '\0';
	while (r > 0 && (buf[r - 1] == '\n' || buf[r - 1] == ' ' || buf[r - 1] == '\t'))
		buf[--r] = '\0';
	return 0;
}

int
read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;
	int rc = read_text(path, buf, sizeof buf);
	if (rc)
		return rc;
	errno = 0;
	unsigned long long x = strtoull(buf, &end, 0);
	if (end == buf || errno)
		return -EINVAL;
	*v = x;
	return 0;
}

int
pathf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return (r < 0 || (size_t)r >= n) ? -ENAMETOOLONG : 0;
}

void
strtrimcpy(char *dst, size_t n, const char *src)
{
	if (n == 0)
		return;
	while (*src == ' ')
		src++;
	size_t len = strnlen(src, n - 1);
	memcpy(dst, src, len);
	dst[len] = '\0';
	while (len > 0 && (dst[len - 1] == ' ' || dst[len - 1] == '\0'))
		dst[--len] = '\0';
}

bool
str_isdigits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

uint64_t
now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int
str_to_double(const char *s, double *v, const char **rest)
{
	if (!s)
		return -EINVAL;
	char *end;
	errno = 0;
	double d = strtod(s, &end);
	/* ERANGE on underflow (1e-400) is a tiny number, not an error */
	if (end == s || !isfinite(d) || (errno == ERANGE && fabs(d) > 1))
		return -EINVAL;
	if (rest) {
		*rest = end;
	} else {
		while (isspace((unsigned char)*end))
			end++;
		if (*end)
			return -EINVAL;
	}
	*v = d;
	return 0;
}

static const char *
file_kind(mode_t m)
{
	return S_ISFIFO(m) ? "fifo" : S_ISCHR(m) ? "character device" : S_ISBLK(m) ? "block device"
	       : S_ISSOCK(m) ? "socket" : "special file";
}

int
input_open(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, e == EISDIR ? "is a directory" : strerror(e));
		return -e;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: is a directory", path);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: not a regular file (%s)", path, file_kind(st.st_mode));
		return -EINVAL;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		int e = errno;
		close(fd);
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	return fd;
}

int
input_read(const char *path, size_t max, char **buf, size_t *len, char *err, size_t errlen)
{
	*buf = NULL;
	if (len)
		*len = 0;
	int fd = input_open(path, err, errlen);
	if (fd < 0)
		return fd;
	size_t cap = 4096, n = 0;
	char *b = malloc(cap);
	int rc = 0;
	while (b) {
		if (n + 1 >= cap) {
			if (cap > max) {
				snprintf(err, errlen, "%s: larger than %zu bytes", path, max);
				rc = -EFBIG;
				break;
			}
			char *nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(-rc));
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (!b) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	if (!rc && n > max) {
		snprintf(err, errlen, "%s: larger than %zu bytes", path, max);
		rc = -EFBIG;
	}
	if (rc) {
		free(b);
		return rc;
	}
	b[n] = '\0';
	*buf = b;
	if (len)
		*len = n;
	return 0;
}

int
text_line_check(const char *path, size_t max, char *out, size_t n)
{
	char err[64];
	int fd = input_open(path, err, sizeof err);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return fd < 0 ? fd : -ENOMEM;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;
	out[0] = '\0';
	for (unsigned no = 1; !rc && (len = getline(&line, &cap, f)) > 0; no++) {
		size_t chars = (size_t)len - (line[len - 1] == '\n');
		if (chars > max)
			snprintf(out, n, "line %u: %zu characters, at most %zu are read", no, chars, max);
		else if (line[len - 1] != '\n')
			snprintf(out, n, "line %u: no newline at the end of the file", no);
		rc = out[0] ? 1 : 0;
	}
	free(line);
	fclose(f);
	return rc;
}

static int
dbl_order(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double
dbl_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), dbl_order);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool
dev_spec_simulated(const char *spec, const char **rest)
{
	bool sim = spec && strncmp(spec, DEV_SIM_PREFIX, sizeof DEV_SIM_PREFIX - 1) == 0;
	if (rest)
		*rest = sim ? spec + sizeof DEV_SIM_PREFIX - 1 : spec;
	return sim;
}

const char *
errno_name(int e, char *buf, size_t n)
{
	const char *s = e > 0 ? strerrorname_np(e) : NULL;
	if (s)
		return s;
	snprintf(buf, n, "E%d", e);
	return buf;
}
