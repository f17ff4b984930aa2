/* ini.c - inih with a key table and line numbers (see ini.h). */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sim/ini.h"
#include "util/util.h"


void
sim_ini_fail(struct sim_ini *p, int line, const char *fmt, ...)
{
	if (p->failed)
		return;
	p->failed = true;
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(p->err, sizeof p->err, "%s:%d: %s", p->file, line > 0 ? line : 1, msg);
}

int
sim_parse_dbl(const char *s, double *v)
{
	return str_to_double(s, v, NULL);
}

int
sim_parse_u64(const char *s, uint64_t *v)
{
	char *end;
	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	unsigned long long u = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	*v = u;
	return 0;
}

static int
parse_bool(const char *s, bool *b)
{
	static const char *const yes[] = { "yes", "true", "1", "on" };
	static const char *const no[] = { "no", "false", "0", "off" };
	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(s, yes[i]) == 0)
			return *b = true, 0;
		if (strcasecmp(s, no[i]) == 0)
			return *b = false, 0;
	}
	return -EINVAL;
}

static int
parse_hex(const char *s, uint64_t max, uint64_t *v)
{
	char *end;
	if (strncasecmp(s, "0x", 2) == 0)
		s += 2;
	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	unsigned long long u = strtoull(s, &end, 16);
	if (errno || *end || u > max)
		return -EINVAL;
	*v = u;
	return 0;
}

int
sim_ini_line(const struct sim_ini *p, const char *name)
{
	for (size_t i = 0; i < p->n_keys; i++)
		if (strcmp(p->keys[i].name, name) == 0 && p->seen[i])
			return p->seen[i];
	return p->section_line ? p->section_line : 1;
}

bool
sim_ini_seen(const struct sim_ini *p, const char *name)
{
	for (size_t i = 0; i < p->n_keys; i++)
		if (strcmp(p->keys[i].name, name) == 0 && p->seen[i])
			return true;
	return false;
}

/* Store one typed value; msg says why not. */
static int
store(struct sim_ini *p, const struct sim_key *k, const char *value, char *msg, size_t mlen)
{
	char *dst = (char *)p->obj + k->off;
	uint64_t u;
	double d;
	switch (k->type) {
	case SK_STR:
		if (strlen(value) >= k->size) {
			snprintf(msg, mlen, "%s: longer than %zu characters", k->name, k->size - 1);
			return -EINVAL;
		}
		if (!*value) {
			snprintf(msg, mlen, "%s: empty", k->name);
			return -EINVAL;
		}
		memcpy(dst, value, strlen(value) + 1);
		return 0;
	case SK_U32:
	case SK_U64:
		if (sim_parse_u64(value, &u)) {
			snprintf(msg, mlen, "%s: '%s' is not a whole number", k->name, value);
			return -EINVAL;
		}
		if ((double)u < k->min || (double)u > k->max) {
			snprintf(msg, mlen, "%s: %s is out of range (%.0f..%.0f)", k->name, value,
				 k->min, k->max);
			return -EINVAL;
		}
		if (k->type == SK_U32)
			*(uint32_t *)(void *)dst = (uint32_t)u;
		else
			*(uint64_t *)(void *)dst = u;
		return 0;
	case SK_DBL:
		if (sim_parse_dbl(value, &d)) {
			snprintf(msg, mlen, "%s: '%s' is not a number", k->name, value);
			return -EINVAL;
		}
		if (d < k->min || d > k->max) {
			snprintf(msg, mlen, "%s: %s is out of range (%g..%g)", k->name, value,
				 k->min, k->max);
			return -EINVAL;
		}
		*(double *)(void *)dst = d;
		return 0;
	case SK_BOOL:
		if (parse_bool(value, (bool *)dst)) {
			snprintf(msg, mlen, "%s: '%s' is not yes or no", k->name, value);
			return -EINVAL;
		}
		return 0;
	case SK_HEX16:
	case SK_HEX32:
		if (parse_hex(value, k->type == SK_HEX16 ? 0xffff : 0xffffffffu, &u)) {
			snprintf(msg, mlen, "%s: '%s' is not a %s-bit hex number", k->name, value,
				 k->type == SK_HEX16 ? "16" : "32");
			return -EINVAL;
		}
		if (k->type == SK_HEX16)
			*(uint16_t *)(void *)dst = (uint16_t)u;
		else
			*(uint32_t *)(void *)dst = (uint32_t)u;
		return 0;
	case SK_CUSTOM:
		return p->custom ? p->custom(p, k, value, msg, mlen) : -EINVAL;
	}
	return -EINVAL;
}

static int
handler(void *user, const char *section, const char *name, const char *value)
{
	struct sim_ini *p = user;
	if (p->failed)
		return 1;
	if (!*section) {
		sim_ini_fail(p, p->line, "'%s' outside a section", name);
		return 1;
	}
	bool section_known = false;
	for (size_t i = 0; i < p->n_keys; i++) {
		const struct sim_key *k = &p->keys[i];
		if (strcasecmp(k->section, section) != 0)
			continue;
		section_known = true;
		if (strcasecmp(k->name, name) != 0)
			continue;
		if (p->seen[i] && p->seen[i] > p->section_line && !k->repeat) {
			sim_ini_fail(p, p->line, "duplicate key '%s' (first on line %d)", name,
				     p->seen[i]);
			return 1;
		}
		p->seen[i] = p->line;
		char msg[256] = "";
		if (store(p, k, value, msg, sizeof msg))
			sim_ini_fail(p, p->line, "%s", msg[0] ? msg : "bad value");
		return 1;
	}
	if (!section_known)
		sim_ini_fail(p, p->line, "unknown section [%s]", section);
	else
		sim_ini_fail(p, p->line, "unknown key '%s' in [%s]", name, section);
	return 1;
}

/* fgets over a string, counting lines and noting section headers, so the
 * handler knows where it is. */
static char *
reader(char *str, int num, void *stream)
{
	struct sim_ini *p = stream;
	if (!*p->pos)
		return NULL;
	const char *nl = strchr(p->pos, '\n');
	size_t len = nl ? (size_t)(nl - p->pos) + 1 : strlen(p->pos);
	p->line++;
	if (len >= (size_t)num) {
		p->too_long = true;
		sim_ini_fail(p, p->line, "line longer than %d characters", num - 2);
		len = (size_t)num - 1;
		memcpy(str, p->pos, len);
		str[len] = '\0';
		/* skip the rest of the long line */
		p->pos = nl ? nl + 1 : p->pos + strlen(p->pos);
		return str;
	}
	memcpy(str, p->pos, len);
	str[len] = '\0';
	p->pos += len;
	/* Lines go to inih without leading white space (\v and \f too): an
	 * indented line would otherwise be a continuation of the previous value
	 * to inih, or a section to inih and not to us (the rig parser indexed
	 * controller -1).  So indented keys are keys, and we see the sections
	 * inih sees. */
	size_t lead = 0;
	while (isspace((unsigned char)str[lead]))
		lead++;
	memmove(str, str + lead, len - lead + 1);
	const char *s = str;
	if (*s == '[') {
		p->n_sections++;
		p->section_line = p->line;
		const char *e = strchr(s, ']');
		size_t n = e ? (size_t)(e - s - 1) : 0;
		if (n >= sizeof p->section)
			n = sizeof p->section - 1;
		memcpy(p->section, s + 1, n);
		p->section[n] = '\0';
		/* a section given twice would silently override the first */
		bool again = p->repeat_section && strcasecmp(p->section, p->repeat_section) == 0;
		for (size_t i = 0; !again && i < p->n_seen_sections; i++)
			if (strcasecmp(p->seen_section[i].name, p->section) == 0) {
				sim_ini_fail(p, p->line, "section [%s] given twice (first on line %d)",
					     p->section, p->seen_section[i].line);
				break;
			}
		if (!again && p->n_seen_sections < ARRAY_SIZE(p->seen_section)) {
			snprintf(p->seen_section[p->n_seen_sections].name,
				 sizeof p->seen_section[0].name, "%s", p->section);
			p->seen_section[p->n_seen_sections++].line = p->line;
		}
	}
	return str;
}

int
sim_ini_run(struct sim_ini *p, const char *text)
{
	if (p->n_keys > sizeof p->seen / sizeof p->seen[0]) {
		/* a key table outgrew seen[]: the build's own mistake, said as one */
		sim_ini_fail(p, 0, "the key table has %zu keys, more than the %zu this parser tracks",
			     p->n_keys, sizeof p->seen / sizeof p->seen[0]);
		return -EINVAL;
	}
	p->pos = text;
	p->line = 0;
	int r = ini_parse_stream(reader, p, handler, p);
	if (!p->failed && r > 0)
		sim_ini_fail(p, r, "not '[section]' or 'key = value'");
	if (!p->failed && r < 0)
		sim_ini_fail(p, 1, "cannot parse (%d)", r);
	if (p->failed)
		return -EINVAL;
	/* required keys */
	for (size_t i = 0; i < p->n_keys; i++)
		if (p->keys[i].required && !p->seen[i]) {
			sim_ini_fail(p, p->line, "missing required key '%s' in [%s]",
				     p->keys[i].name, p->keys[i].section);
			return -EINVAL;
		}
	return 0;
}
