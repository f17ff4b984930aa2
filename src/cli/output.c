/* output.c - the outputs a run writes: checked before it starts, a
 * result document even for a run that could not start. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "cli/internal.h"
#include "report/doc.h"
#include "report/run.h"
#include "report/writer.h"
#include "util/util.h"

/* An output file must be writable before a long run, not after it, and must
 * be a regular file or a new name (doc_out_check). */
int
output_check(const char *path, const char *opt, char *err, size_t errlen)
{
	if (!path || !strcmp(path, "-"))
		return 0;
	char why[480];
	int rc = doc_out_check(path, why, sizeof why);
	if (rc)
		snprintf(err, errlen, "%s %s", opt, why);
	return rc;
}

/* PATH spelled canonically (its directory resolved), for comparing names
 * that do not exist yet. */
static void
canon_path(const char *path, char *out, size_t n)
{
	char dir[4096], real[4096];
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (slash == path)
		snprintf(dir, sizeof dir, "/");
	if (!realpath(dir, real))
		snprintf(real, sizeof real, "%s", dir);
	snprintf(out, n, "%s/%s", real, slash ? slash + 1 : path);
}

/* Two writers given one file would write one over the other (--json X
 * --csv X): refuse, whatever the spelling (./X, a symlinked directory, a
 * hard link). */
static bool
same_output(const char *x, const char *y)
{
	if (!strcmp(x, "-") || !strcmp(y, "-"))
		return !strcmp(x, y);
	struct stat a, b;
	if (!stat(x, &a) && !stat(y, &b))
		return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	char ca[8192], cb[8192];
	canon_path(x, ca, sizeof ca);
	canon_path(y, cb, sizeof cb);
	return !strcmp(ca, cb);
}

int
output_check_distinct(const struct run_outputs *out, char *err, size_t errlen)
{
	for (size_t i = 0; i < writer_count && i < WRITER_MAX; i++)
		for (size_t j = i + 1; out->path[i] && j < writer_count && j < WRITER_MAX; j++)
			if (out->path[j] && same_output(out->path[i], out->path[j])) {
				snprintf(err, errlen, "--%s %.200s and --%s %.200s name the same %s: give each its own",
					 writer_table[i].name, out->path[i], writer_table[j].name, out->path[j],
					 strcmp(out->path[i], "-") ? "file" : "output (stdout)");
				return -EINVAL;
			}
	return 0;
}

/* The guard's rule behind a refusal sentence (io/guard.h: one sentence
 * "refused: ..." per rule), first match; the sentence itself is the
 * evidence.  A wording not listed still refuses, as rule "guard". */
static const struct {
	const char *says, *rule;
} refusal_rules[] = {
	{ "--destroy-data", "confirmation" },
	{ "is now another drive", "identity" },
	{ "is the drive you confirmed", "identity" },
	{ "its identity cannot be read", "identity" },
	{ "(exclusive open", "exclusive_open" },
	{ "holds /", "system_disk" },
	{ "holding /", "system_disk" },
	{ "devices under /", "system_disk" },
	{ "mounted", "mounted" },
	{ "(holders)", "holders" },
	{ "what holds", "holders" },
	{ "swap", "swap" },
	{ "partition", "device_family" },
	{ "users cannot be checked", "device_family" },
	{ "did not create", "scratch_file" },
	{ "host-managed zones", "host_managed" },
	{ "needs a low-level format", "format" },
};

static const char *
refusal_rule(const char *why)
{
	for (size_t i = 0; i < ARRAY_SIZE(refusal_rules); i++)
		if (strstr(why, refusal_rules[i].says))
			return refusal_rules[i].rule;
	return "guard";
}

/* Every output asked for, for a run that could not start (a target that
 * would not open, a scratch directory that is full or read-only, a write
 * the guard refused): failed, nothing measured, and why. */
int
output_failed(const struct plan *p, const struct run_outputs *out, const char *why, bool interrupted,
	      bool refused)
{
	struct run_result r;
	int bad = 0;
	memset(&r, 0, sizeof(r));
	snprintf(r.test, sizeof(r.test), "%s", p->test ? p->test->name : "");
	for (size_t i = 0; i < p->user_targets.n; i++)
		strlist_add(&r.targets, p->user_targets.v[i]);
	r.params = p->params;
	r.started = time(NULL);
	r.interrupted = interrupted;
	r.failed = true;
	if (refused) {
		const char *s = strstr(why, "refused: ");
		snprintf(r.refused_rule, sizeof(r.refused_rule), "%s", refusal_rule(why));
		snprintf(r.refused_evidence, sizeof(r.refused_evidence), "%s", s ? s : why);
	}
	strlist_addf(&r.notes, "not started: %s", why);
	for (size_t i = 0; i < writer_count && i < WRITER_MAX; i++) {
		if (!out->path[i])
			continue;
		int rc = writer_table[i].write(&r, out->path[i]);
		if (rc) {
			fprintf(stderr, "diskscope: --%s %s: %s\n", writer_table[i].name, out->path[i], strerror(-rc));
			bad = rc;
		}
	}
	run_result_free(&r);
	return bad;
}

