/* doc.c - the shared JSON document (schema 1): header, null-for-unknown
 * helpers, atomic write. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "report/doc.h"

struct json_object *
doc_u64(const struct ds_u64 *v)
{
	return v->known ? json_object_new_int64((int64_t)v->v) : NULL;
}

struct json_object *
doc_dbl(const struct ds_dbl *v)
{
	return v->known ? json_object_new_double(v->v) : NULL;
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

int
doc_write(struct json_object *doc, const char *path)
{
	const char *s = json_object_to_json_string_ext(doc,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s)
		return -ENOMEM;
	if (strcmp(path, "-") == 0) {
		if (fputs(s, stdout) == EOF || fputc('\n', stdout) == EOF || fflush(stdout) == EOF)
			return -EIO;
		return 0;
	}
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
		return -ENAMETOOLONG;
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -errno;
	int bad = fputs(s, f) == EOF || fputc('\n', f) == EOF;
	if (fclose(f) != 0 || bad) {
		int err = errno ? errno : EIO;
		unlink(tmp);
		return -err;
	}
	if (rename(tmp, path) != 0) {
		int err = errno;
		unlink(tmp);
		return -err;
	}
	return 0;
}
