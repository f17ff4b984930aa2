/* profile.c (station) - profile files (profile.h): parsed with inih, tests
 * named through the registry, options checked as the picker's words are. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ini.h>
#include "bench/bench.h"
#include "bench/plan-options.h"
#include "station/profile.h"
#include "util/embedded.h"

#ifndef DS_DATADIR
#define DS_DATADIR "/usr/local/share/diskscope"
#endif

struct prof_parse {
	struct profile_set *set;
	struct profile *cur;	/* the section being read */
	char section[64];
	const char *origin;
	char *err;
	size_t errlen;
	char msg[448];		/* the first bad line's reason (inih returns its number) */
};

static int
prof_bad(struct prof_parse *p, const char *msg)
{
	if (!p->msg[0])
		snprintf(p->msg, sizeof(p->msg), "[%s]: %s", p->section, msg);
	return 0;
}

/* The profile called name in set, made empty (replacing an earlier one). */
static struct profile *
prof_fresh(struct profile_set *set, const char *name)
{
	struct profile *pr = NULL;
	for (size_t i = 0; i < set->n && !pr; i++)
		if (!strcmp(set->v[i].name, name))
			pr = &set->v[i];
	if (!pr) {
		struct profile *v = realloc(set->v, (set->n + 1) * sizeof(*v));
		if (!v)
			return NULL;
		set->v = v;
		pr = &v[set->n++];
	}
	memset(pr, 0, sizeof(*pr));
	snprintf(pr->name, sizeof(pr->name), "%s", name);
	return pr;
}

/* "TEST words...": the test through the registry, the words through the
 * option table (a plan on a stand-in target, thrown away). */
static int
prof_step_test(struct prof_parse *p, struct profile_step *st, const char *value)
{
	char name[32];
	size_t n = strcspn(value, " \t");
	if (!n || n >= sizeof(name))
		return prof_bad(p, "step: a test name first");
	snprintf(name, sizeof(name), "%.*s", (int)n, value);
	const char *words = value + n + strspn(value + n, " \t");
	st->kind = PSTEP_TEST;
	if (!(st->test = bench_find(name))) {
		char msg[320];
		snprintf(msg, sizeof(msg), "step: no test '%s' (one of %s)", name, bench_names());
		return prof_bad(p, msg);
	}
	if (strlen(words) >= sizeof(st->options))
		return prof_bad(p, "step: options too long");
	snprintf(st->options, sizeof(st->options), "%s", words);
	struct plan pl;
	char e[256] = "";
	const char *const stand_in[] = { "/dev/null" };
	int rc = plan_from_words(&pl, st->test, stand_in, 1, words, e, sizeof(e));
	plan_free(&pl);
	if (rc) {
		char msg[320];
		snprintf(msg, sizeof(msg), "step: %s", e);
		return prof_bad(p, msg);
	}
	return 1;
}

static int
on_prof(void *user, const char *section, const char *name, const char *value)
{
	struct prof_parse *p = user;
	if (strcmp(section, p->section) || !p->cur) {
		snprintf(p->section, sizeof(p->section), "%s", section);
		if (!section[0] || strlen(section) >= sizeof(p->cur->name))
			return prof_bad(p, "a profile's name: 1 to 47 characters in [ ]");
		if (!(p->cur = prof_fresh(p->set, section)))
			return prof_bad(p, "out of memory");
		snprintf(p->cur->origin, sizeof(p->cur->origin), "%s", p->origin);
	}
	struct profile *pr = p->cur;
	if (!strcmp(name, "description")) {
		snprintf(pr->description, sizeof(pr->description), "%s", value);
		return 1;
	}
	bool test = !strcmp(name, "step"), self = !strcmp(name, "selftest");
	if (!test && !self)
		return prof_bad(p, "not a profile key (description, step, selftest)");
	if (pr->n_steps >= PROFILE_MAX_STEPS)
		return prof_bad(p, "at most 8 steps");
	struct profile_step *st = &pr->steps[pr->n_steps++];
	if (test)
		return prof_step_test(p, st, value);
	if (strcmp(value, "short") && strcmp(value, "long"))
		return prof_bad(p, "selftest: short or long");
	st->kind = PSTEP_SELFTEST;
	snprintf(st->selftest, sizeof(st->selftest), "%s", value);
	return 1;
}

static int
prof_done(struct prof_parse *p, int rc)
{
	if (rc > 0)
		snprintf(p->err, p->errlen, "%s:%d: %s", p->origin, rc, p->msg[0] ? p->msg : "not INI");
	if (rc < 0)
		snprintf(p->err, p->errlen, "%s: cannot read it", p->origin);
	if (rc)
		return rc < 0 ? -ENOENT : -EINVAL;
	for (size_t i = 0; i < p->set->n; i++)
		if (!p->set->v[i].n_steps) {
			snprintf(p->err, p->errlen, "%s: [%s]: no step", p->origin, p->set->v[i].name);
			return -EINVAL;
		}
	return 0;
}

int
profiles_parse(const char *text, const char *origin, struct profile_set *set, char *err, size_t errlen)
{
	struct prof_parse p = { .set = set, .origin = origin, .err = err, .errlen = errlen };
	return prof_done(&p, ini_parse_string(text, on_prof, &p));
}

static int
profiles_file(const char *path, struct profile_set *set, char *err, size_t errlen)
{
	struct prof_parse p = { .set = set, .origin = path, .err = err, .errlen = errlen };
	return prof_done(&p, ini_parse(path, on_prof, &p));
}

int
profiles_load(const char *file, struct profile_set *set, char *err, size_t errlen)
{
	const struct embedded_file *e = embedded_find("src/station/profiles.ini");
	int rc = e ? profiles_parse(e->data, "built-in", set, err, errlen) : 0;
	char path[512];
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	const char *cands[2] = { DS_DATADIR "/profiles.ini", NULL };
	if (xdg && xdg[0])
		snprintf(path, sizeof(path), "%s/diskscope/profiles.ini", xdg);
	else if (home && home[0])
		snprintf(path, sizeof(path), "%s/.config/diskscope/profiles.ini", home);
	else
		path[0] = 0;
	cands[1] = path[0] ? path : NULL;
	for (size_t i = 0; !rc && i < 2; i++) {
		if (!cands[i])
			continue;
		int r = profiles_file(cands[i], set, err, errlen);
		if (r != -ENOENT)	/* a missing optional file is no error */
			rc = r;
	}
	if (!rc && file)
		rc = profiles_file(file, set, err, errlen);
	if (rc)
		profiles_free(set);
	return rc;
}

const struct profile *
profiles_find(const struct profile_set *set, const char *name)
{
	for (size_t i = 0; name && i < set->n; i++)
		if (!strcmp(set->v[i].name, name))
			return &set->v[i];
	return NULL;
}

void
profiles_free(struct profile_set *set)
{
	free(set->v);
	set->v = NULL;
	set->n = 0;
}
