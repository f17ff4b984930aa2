/* config.c - where the history goes: --db and --no-history, the
 * DISKSCOPE_HISTORY_DB variable, the config file's [history] section, and
 * the default file under the XDG data directory.  Precedence: --db, then
 * the variable, then the config file, then the default. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ini.h>
#include "history/db.h"
#include "history/history.h"
#include "history/internal.h"

static const char *opt_db;	/* --db */
static bool opt_off;		/* --no-history */

static struct {
	bool read;
	char db[1024], bench[128];
} cfg;

bool
history_off(void)
{
	return opt_off;
}

/* A URL or conninfo to print: its password, if any, as "***". */
static void
masked(const char *v, char *buf, size_t n)
{
	const char *s = strstr(v, "://"), *at, *colon, *pw;

	snprintf(buf, n, "%s", v);
	if (s && (at = strchr(s + 3, '@')) && (colon = memchr(s + 3, ':', (size_t)(at - s - 3))) &&
	    !memchr(s + 3, '/', (size_t)(at - s - 3)))
		snprintf(buf, n, "%.*s***%s", (int)(colon + 1 - v), v, at);
	else if ((pw = strstr(v, "password=")))
		snprintf(buf, n, "%.*s***%s", (int)(pw + 9 - v), v, pw + 9 + strcspn(pw + 9, " "));
}

/* A --db value: one line on stderr when it cannot be one. */
static int
check_db(const char *v)
{
	const char *rest;
	char err[256], shown[512];

	if (hdb_backend(v, &rest) == &hdb_pg_ops) {
		if (hdb_pg_check(v, err, sizeof err)) {
			masked(v, shown, sizeof shown);
			fprintf(stderr, "diskscope: --db %s: not a PostgreSQL URL or conninfo: %s\n", shown, err);
			return -1;
		}
		return 0;
	}
	if (!*rest || strstr(rest, "://")) {
		fprintf(stderr, "diskscope: --db '%s': not a file, sqlite:FILE, postgresql://URL or conninfo\n", v);
		return -1;
	}
	if (hdb_sqlite_check(rest, err, sizeof err)) {
		fprintf(stderr, "diskscope: --db %s\n", err);
		return -1;
	}
	return 0;
}

int
history_take_args(int argc, char **argv)
{
	int o = 1;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		if (!strcmp(a, "--")) {
			while (i < argc)
				argv[o++] = argv[i++];
			break;
		}
		if (!strcmp(a, "--no-history")) {
			opt_off = true;
			continue;
		}
		if (!strncmp(a, "--db=", 5))
			v = a + 5;
		else if (!strcmp(a, "--db")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "diskscope: --db needs a value (FILE, sqlite:FILE or postgresql://URL)\n");
				return -1;
			}
			v = argv[++i];
		} else {
			argv[o++] = argv[i];
			continue;
		}
		if (check_db(v))
			return -1;
		opt_db = v;
	}
	argv[o] = NULL;
	return o;
}

static int
on_ini(void *user, const char *section, const char *name, const char *value)
{
	(void)user;
	if (strcmp(section, "history"))
		return 1;	/* other sections belong to others */
	if (!strcmp(name, "db"))
		snprintf(cfg.db, sizeof cfg.db, "%s", value);
	else if (!strcmp(name, "bench"))
		snprintf(cfg.bench, sizeof cfg.bench, "%s", value);
	return 1;
}

/* $DISKSCOPE_CONFIG, else $XDG_CONFIG_HOME/diskscope/config.ini, else
 * ~/.config/diskscope/config.ini; read once, a missing file is no error. */
static void
config_read(void)
{
	const char *e = getenv("DISKSCOPE_CONFIG"), *x = getenv("XDG_CONFIG_HOME"), *h = getenv("HOME");
	char path[4096] = "";

	if (cfg.read)
		return;
	cfg.read = true;
	if (e && *e)
		snprintf(path, sizeof path, "%s", e);
	else if (x && x[0] == '/')
		snprintf(path, sizeof path, "%s/diskscope/config.ini", x);
	else if (h && h[0] == '/')
		snprintf(path, sizeof path, "%s/.config/diskscope/config.ini", h);
	if (!path[0])
		return;
	int rc = ini_parse(path, on_ini, NULL);
	if (rc > 0)
		fprintf(stderr, "diskscope: %s: line %d: not an INI line (ignored from there)\n", path, rc);
	if (cfg.db[0] && check_db(cfg.db))
		cfg.db[0] = 0;	/* the line said why; the default applies */
}

void
history_config_reset(void)
{
	memset(&cfg, 0, sizeof cfg);
	opt_db = NULL;
	opt_off = false;
}

const char *
history_bench_name(const char *host)
{
	config_read();
	return cfg.bench[0] ? cfg.bench : host && *host ? host : "unknown";
}

/* $XDG_DATA_HOME/diskscope, else ~/.local/share/diskscope.  A HOME that
 * does not exist (HOME=/nonexistent) gives -ENOENT: nothing is created
 * there, even as root. */
static int
data_dir(char *buf, size_t n)
{
	const char *x = getenv("XDG_DATA_HOME"), *h = getenv("HOME");
	struct stat sb;
	int k;

	if (x && x[0] == '/')
		k = snprintf(buf, n, "%s/diskscope", x);
	else if (h && h[0] == '/' && !stat(h, &sb) && S_ISDIR(sb.st_mode))
		k = snprintf(buf, n, "%s/.local/share/diskscope", h);
	else
		return -ENOENT;
	return k < 0 || (size_t)k >= n ? -ENAMETOOLONG : 0;
}

bool
history_db_is_default(void)
{
	const char *e = getenv("DISKSCOPE_HISTORY_DB");

	config_read();
	return !opt_db && !(e && *e) && !cfg.db[0];
}

int
history_db_path(char *buf, size_t n)
{
	const char *e = opt_db ? opt_db : getenv("DISKSCOPE_HISTORY_DB");
	int rc;

	config_read();
	if (!(e && *e) && cfg.db[0])
		e = cfg.db;
	if (e && *e) {
		if (strlen(e) >= n)
			return -ENAMETOOLONG;
		strcpy(buf, e);
		return 0;
	}
	if ((rc = data_dir(buf, n)))
		return rc;
	if (strlen(buf) + sizeof "/history.db" > n)
		return -ENAMETOOLONG;
	strcat(buf, "/history.db");
	return 0;
}

int
history_spool_dir(char *buf, size_t n)
{
	int rc = data_dir(buf, n);

	if (rc)
		return rc;
	if (strlen(buf) + sizeof "/spool" > n)
		return -ENAMETOOLONG;
	strcat(buf, "/spool");
	return 0;
}
