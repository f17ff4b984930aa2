/* db-sqlite.c - the embedded default: one SQLite file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sqlite3.h>
#include "history/db.h"

struct sdb {
	struct hdb h;
	sqlite3 *db;
};

static sqlite3 *
raw(struct hdb *h)
{
	return ((struct sdb *)h)->db;
}

/* A database with no file behind it vanishes on close, and with it every
 * run recorded and every spooled run imported: ":memory:", "" (a temporary
 * file), file:...?mode=memory, vfs=memdb.  0, or -EINVAL with one line. */
static int
s_ondisk(sqlite3 *db, const char *path, char *err, size_t n)
{
	const char *f = sqlite3_db_filename(db, "main");
	char *vfs = NULL;
	bool mem = !f || !*f;

	if (!mem && sqlite3_file_control(db, "main", SQLITE_FCNTL_VFSNAME, &vfs) == SQLITE_OK && vfs)
		mem = !strncmp(vfs, "memdb", 5);
	sqlite3_free(vfs);
	if (!mem)
		return 0;
	snprintf(err, n, "'%s': a database in memory or a temporary one (no file behind it), gone when diskscope exits: name a file", path);
	return -EINVAL;
}

int
hdb_sqlite_check(const char *path, char *err, size_t n)
{
	sqlite3 *db = NULL;
	int rc = 0;

	/* Only a URI or :memory: needs SQLite to say; a plain path is a file
	 * (opening it here could block on a FIFO). */
	if (strcmp(path, ":memory:") && strncasecmp(path, "file:", 5))
		return 0;
	/* Read-only and never created: a file that does not exist yet is a
	 * file (the real open makes it); this asks only where it would be. */
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) == SQLITE_OK)
		rc = s_ondisk(db, path, err, n);
	sqlite3_close(db);
	return rc;
}

static int
s_open(const char *path, struct hdb **out, char *err, size_t n)
{
	struct sdb *s;
	struct stat sb;

	*out = NULL;
	/* SQLite would write into a block device whose first bytes are zeros:
	 * the database is a regular file or a new name, nothing else */
	if (!stat(path, &sb) && !S_ISREG(sb.st_mode)) {
		snprintf(err, n, "%s: not a regular file", path);
		return -EINVAL;
	}
	if (!(s = calloc(1, sizeof *s)))
		return -ENOMEM;
	s->h.ops = &hdb_sqlite_ops;
	snprintf(s->h.where, sizeof s->h.where, "%s", path);
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI,
			    NULL) != SQLITE_OK) {
		snprintf(err, n, "%s: %s", path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
		sqlite3_close(s->db);
		free(s);
		return -EIO;
	}
	int rc = s_ondisk(s->db, path, err, n);
	if (rc) {	/* before anything is imported into it */
		sqlite3_close(s->db);
		free(s);
		return rc;
	}
	sqlite3_busy_timeout(s->db, 30000);	/* another diskscope recording at the same time */
	*out = &s->h;
	return 0;
}

static void
s_close(struct hdb *h)
{
	sqlite3_close(raw(h));
	free(h);
}

static int
s_exec(struct hdb *h, const char *sql, char *err, size_t n)
{
	char *m = NULL;

	if (sqlite3_exec(raw(h), sql, NULL, NULL, &m) == SQLITE_OK)
		return 0;
	snprintf(err, n, "%s", m ? m : sqlite3_errmsg(raw(h)));
	sqlite3_free(m);
	return -EIO;
}

/* IMMEDIATE: the write lock now, so two first opens migrate once and two
 * recorders queue on the busy timeout rather than deadlock. */
static int
s_begin(struct hdb *h, bool migrate, char *err, size_t n)
{
	return s_exec(h, "BEGIN IMMEDIATE", err, n);
}

static int
s_step(struct hst *st)
{
	sqlite3_stmt *s = st->impl;
	int rc;

	if (!st->started) {
		st->started = true;
		if (sqlite3_prepare_v2(raw(st->db), st->sql, -1, &s, NULL) != SQLITE_OK)
			return -EIO;
		st->impl = s;
		for (int i = 0; i < st->np; i++) {
			const struct hparam *p = &st->p[i];
			if (p->type == HP_TEXT)
				sqlite3_bind_text(s, i + 1, p->s, -1, SQLITE_TRANSIENT);
			else if (p->type == HP_INT)
				sqlite3_bind_int64(s, i + 1, p->i);
			else if (p->type == HP_REAL)
				sqlite3_bind_double(s, i + 1, p->d);
		}
	}
	if (!s)
		return -EIO;
	rc = sqlite3_step(s);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -EIO;
}

static bool
s_col_null(struct hst *st, int c)
{
	return !st->impl || sqlite3_column_type(st->impl, c) == SQLITE_NULL;
}

static const char *
s_col_text(struct hst *st, int c)
{
	return st->impl ? (const char *)sqlite3_column_text(st->impl, c) : NULL;
}

static void
s_finish(struct hst *st)
{
	sqlite3_finalize(st->impl);
	st->impl = NULL;
}

static const char *
s_errmsg(struct hdb *h)
{
	return sqlite3_errmsg(raw(h));
}

static bool
s_retryable(struct hdb *h)
{
	return false;	/* IMMEDIATE transactions queue on the busy timeout */
}

const struct hdb_ops hdb_sqlite_ops = {
	.dialect = HDB_SQLITE,
	.open = s_open,
	.close = s_close,
	.exec = s_exec,
	.begin = s_begin,
	.step = s_step,
	.col_null = s_col_null,
	.col_text = s_col_text,
	.finish = s_finish,
	.errmsg = s_errmsg,
	.retryable = s_retryable,
	.has_meta_sql = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
};
