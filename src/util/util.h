/* util.h - small helpers every layer uses: string lists, file reads, time. */
#ifndef DS_UTIL_H
#define DS_UTIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A growable list of owned strings. */
struct strlist {
	char **v;
	size_t n;
};
int strlist_add(struct strlist *l, const char *s);		/* 0 / -ENOMEM */
int strlist_addf(struct strlist *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool strlist_has(const struct strlist *l, const char *s);
void strlist_free(struct strlist *l);

/* Read a small text file (sysfs attribute); trailing newline/space stripped.
 * Returns 0 or -errno; buf is "" on error. */
int read_text(const char *path, char *buf, size_t n);
int read_u64(const char *path, uint64_t *v);			/* decimal or 0x hex */
/* printf into a path buffer; -ENAMETOOLONG when it does not fit. */
int pathf(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An errno's name ("EIO"), or "E123" for a number without one: the one
 * spelling of an errno in text, JSON and CSV.  Returns buf or a static name. */
const char *errno_name(int e, char *buf, size_t n);

/* Is this a sim drive's name ("sim:MODEL", "sim:simN")?  *rest (may be
 * NULL) is what follows the prefix.  The prefix is spelled here only. */
#define DEV_SIM_PREFIX "sim:"
bool dev_spec_simulated(const char *spec, const char **rest);

/* Copy with truncation and trailing-space trim; always NUL-terminates. */
void strtrimcpy(char *dst, size_t n, const char *src);

/* True when s is non-empty and all decimal digits. */
bool str_isdigits(const char *s);

uint64_t now_ns(void);		/* CLOCK_MONOTONIC */

/* A finite double from text (strtod syntax).  rest NULL: nothing may follow
 * but spaces; else *rest points past the number.  NaN, infinities, overflow
 * and empty text are -EINVAL: every double a user types goes through here. */
int str_to_double(const char *s, double *v, const char **rest);
/* Median of v[0..n) (reordered in place); NAN when n is 0. */
double dbl_median(double *v, size_t n);

/* Open a file the user named as input (a blob, dump, model, rig, theme,
 * saved result).  Never blocks: a FIFO or device would hang open() or
 * read(), so it is opened O_NONBLOCK, checked with fstat and refused unless
 * it is a regular file ("NAME: is a directory", "NAME: not a regular file
 * (fifo)"); then O_NONBLOCK is cleared.  fd, or -errno with err filled
 * ("NAME: reason"). */
int input_open(const char *path, char *err, size_t errlen);
/* The same, read whole into a NUL-terminated malloc'd buffer of at most max
 * bytes ("NAME: larger than N bytes" past it).  0 or -errno, err filled. */
int input_read(const char *path, size_t max, char **buf, size_t *len, char *err,
	       size_t errlen);
/* The first line of a text file longer than max characters (newline not
 * counted) or without a final newline: 1 with "line N: ..." in out, 0 when
 * every line is fine, -errno when the file cannot be read. */
int text_line_check(const char *path, size_t max, char *out, size_t n);
#endif
