/* known.c - the text of a known value; see known.h. */
#include <stdio.h>
#include "util/known.h"

const char *
known_fmt_u64(const struct known_u64 *k, const char *fmt, const char *unk, char *buf, size_t n)
{
	if (k && k->known)
		snprintf(buf, n, fmt, (unsigned long long)k->v);
	else
		snprintf(buf, n, "%s", unk ? unk : "unknown");
	return buf;
}

const char *
known_fmt_dbl(const struct known_dbl *k, const char *fmt, const char *unk, char *buf, size_t n)
{
	if (k && k->known)
		snprintf(buf, n, fmt, k->v);
	else
		snprintf(buf, n, "%s", unk ? unk : "unknown");
	return buf;
}
