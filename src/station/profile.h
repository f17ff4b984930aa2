/* profile.h (station) - what the station does with each drive that
 * arrives: a named list of steps in an INI file (read with inih), each a
 * test of the registry (bench/registry.c) with its options, or a self-test.
 *
 *   [quick-check]
 *   description = a health snapshot and a quick read triage
 *   step = TEST NAME=VALUE ...     (a test and its options, as the picker's words)
 *   selftest = short|long          (the drive's own self-test: a hook, see below)
 *
 * Lookup (profiles_load): the built-in profiles (src/station/profiles.ini,
 * compiled in), then DS_DATADIR/profiles.ini, then
 * $XDG_CONFIG_HOME/diskscope/profiles.ini (~/.config/...), then --profiles
 * FILE: a later file's profile replaces an earlier one of its name. */
#ifndef DS_STATION_PROFILE_H
#define DS_STATION_PROFILE_H
#include <stdbool.h>
#include <stddef.h>

struct bench_test;

#define PROFILE_MAX_STEPS 8

enum pstep_kind {
	PSTEP_TEST,		/* a registry test, run through the runner */
	PSTEP_SELFTEST,		/* the drive's self-test: not run by this build yet (the
				   job records it skipped); the self-test command's hook */
};

struct profile_step {
	enum pstep_kind kind;
	const struct bench_test *test;	/* PSTEP_TEST */
	char options[256];		/* "NAME=VALUE ...", checked at load */
	char selftest[8];		/* PSTEP_SELFTEST: short, long */
};

struct profile {
	char name[48];
	char description[160];
	char origin[256];		/* the file it came from, "built-in" */
	struct profile_step steps[PROFILE_MAX_STEPS];
	size_t n_steps;
};

struct profile_set {
	struct profile *v;
	size_t n;
};

/* Add the profiles of text (origin names it in messages) to set, replacing
 * those of the same name.  0, or -EINVAL with "ORIGIN:LINE: reason" (an
 * unknown test, a bad option, a profile without steps). */
int profiles_parse(const char *text, const char *origin, struct profile_set *set, char *err, size_t errlen);
/* The lookup above; file (--profiles, NULL none) must exist.  0 / -errno + err. */
int profiles_load(const char *file, struct profile_set *set, char *err, size_t errlen);
const struct profile *profiles_find(const struct profile_set *set, const char *name);
void profiles_free(struct profile_set *set);
#endif
