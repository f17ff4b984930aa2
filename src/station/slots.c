/* slots.c (station) - slots.ini (read with inih) and matching a drive to
 * its bay. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ini.h>
#include "station/slots.h"

struct slots_parse {
	struct slot_table *t;
	char *err;
	size_t errlen;
	const char *origin;
	char msg[320];		/* the first bad line's reason (inih returns its number) */
};

static struct slot_def *
slot_add(struct slot_table *t, const char *label)
{
	struct slot_def *v = realloc(t->v, (t->n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	t->v = v;
	struct slot_def *s = &v[t->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->label, sizeof(s->label), "%s", label);
	return s;
}

static int
slots_bad(struct slots_parse *p, const char *fmt, const char *a)
{
	if (!p->msg[0])
		snprintf(p->msg, sizeof(p->msg), fmt, a);
	return 0;
}

static int
on_slot(void *user, const char *section, const char *name, const char *value)
{
	struct slots_parse *p = user;
	if (!section[0])
		return slots_bad(p, "%s: a key outside any [bay] section", name);
	if (strlen(section) >= sizeof(p->t->v[0].label))
		return slots_bad(p, "[%s]: a label is at most 47 characters", section);
	struct slot_def *s = p->t->n ? &p->t->v[p->t->n - 1] : NULL;
	if (!s || strcmp(s->label, section)) {	/* the first key of a new section */
		for (size_t i = 0; i < p->t->n; i++)
			if (!strcmp(p->t->v[i].label, section))
				return slots_bad(p, "[%s]: a second section of that label", section);
		if (!(s = slot_add(p->t, section)))
			return 0;
	}
	if (s->value[0])
		return slots_bad(p, "[%s]: one of port, by-path, pattern per bay", section);
	if (strlen(value) >= sizeof(s->value) || !value[0])
		return slots_bad(p, "%s: empty or too long", name);
	if (!strcmp(name, "port")) {
		s->by = SLOT_BY_PORT;
		const char *sp = strchr(value, ' ');
		if (sp) {	/* "ADDRESS PORT" */
			snprintf(s->ctrl, sizeof(s->ctrl), "%.*s", (int)(sp - value), value);
			while (*sp == ' ')
				sp++;
			value = sp;
		}
	} else if (!strcmp(name, "by-path")) {
		s->by = SLOT_BY_PATH;
	} else if (!strcmp(name, "pattern")) {
		s->by = SLOT_BY_PATTERN;
	} else {
		return slots_bad(p, "%s: not a slot key (port, by-path, pattern)", name);
	}
	snprintf(s->value, sizeof(s->value), "%s", value);
	return 1;
}

static int
slots_check(struct slots_parse *p, int rc)
{
	if (rc > 0)
		snprintf(p->err, p->errlen, "%s:%d: %s", p->origin, rc, p->msg[0] ? p->msg : "not INI");
	if (rc) {
		slots_free(p->t);
		return -EINVAL;
	}
	for (size_t i = 0; i < p->t->n; i++)
		if (!p->t->v[i].value[0]) {
			snprintf(p->err, p->errlen, "%s: [%s]: no port, by-path or pattern", p->origin,
				 p->t->v[i].label);
			slots_free(p->t);
			return -EINVAL;
		}
	return 0;
}

int
slots_parse(const char *text, const char *origin, struct slot_table *t, char *err, size_t errlen)
{
	struct slots_parse p = { .t = t, .err = err, .errlen = errlen, .origin = origin };
	memset(t, 0, sizeof(*t));
	return slots_check(&p, ini_parse_string(text, on_slot, &p));
}

int
slots_load(const char *path, struct slot_table *t, char *err, size_t errlen)
{
	struct slots_parse p = { .t = t, .err = err, .errlen = errlen, .origin = path };
	memset(t, 0, sizeof(*t));
	int rc = ini_parse(path, on_slot, &p);
	if (rc < 0) {
		snprintf(err, errlen, "%s: cannot read it", path);
		return -ENOENT;
	}
	return slots_check(&p, rc);
}

static bool
has(const char *s)
{
	return s && s[0];
}

int
slots_match(const struct slot_table *t, const struct slot_key *k)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct slot_def *s = &t->v[i];
		switch (s->by) {
		case SLOT_BY_PORT:
			if (has(k->port) && !strcmp(s->value, k->port) &&
			    (!s->ctrl[0] || (has(k->ctrl) && !strcmp(s->ctrl, k->ctrl))))
				return (int)i;
			break;
		case SLOT_BY_PATH:
			if (has(k->by_path) && !strcmp(s->value, k->by_path))
				return (int)i;
			break;
		case SLOT_BY_PATTERN:
			if (has(k->backing) && fnmatch(s->value, k->backing, 0) == 0)
				return (int)i;
			break;
		}
	}
	return -ENOENT;
}

int
slots_learn(struct slot_table *t, const struct slot_key *k)
{
	char label[48];
	bool port = has(k->port);
	snprintf(label, sizeof(label), "%s", port ? k->port : has(k->name) ? k->name : "?");
	struct slot_def *s = slot_add(t, label);
	if (!s)
		return -ENOMEM;
	s->learned = true;
	s->by = SLOT_BY_PORT;
	snprintf(s->ctrl, sizeof(s->ctrl), "%s", port && has(k->ctrl) ? k->ctrl : "");
	snprintf(s->value, sizeof(s->value), "%s", port ? k->port : label);
	return (int)(t->n - 1);
}

void
slots_free(struct slot_table *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
}
