/* db.c - the backend-neutral half of the history's database interface:
 * choosing a backend from a --db value, binding, reading columns. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "history/db.h"

const struct hdb_ops *
hdb_backend(const char *where, const char **rest)
{
	*rest = where;
	if (!strncmp(where, "postgresql://", 13) || !strncmp(where, "postgres://", 11))
		return &hdb_pg_ops;
	if (!strncmp(where, "sqlite:", 7)) {
		*rest = where + 7;
		return &hdb_sqlite_ops;
	}
	/* key=value conninfo: "host=/run/postgresql dbname=history" */
	size_t k = strspn(where, "abcdefghijklmnopqrstuvwxyz_");
	if (k && where[k] == '=')
		return &hdb_pg_ops;
	return &hdb_sqlite_ops;
}

int
hdb_open(const char *where, struct hdb **out, char *err, size_t n)
{
	const char *rest;
	const struct hdb_ops *ops = hdb_backend(where, &rest);

	return ops->open(rest, out, err, n);
}

void
hdb_close(struct hdb *db)
{
	if (db)
		db->ops->close(db);
}

int
hdb_exec(struct hdb *db, const char *sql, char *err, size_t n)
{
	return db->ops->exec(db, sql, err, n);
}

void
hst_init(struct hst *st, struct hdb *db, const char *sql)
{
	memset(st, 0, sizeof *st);
	st->db = db;
	st->sql = sql;
}

static struct hparam *
slot(struct hst *st, int i)
{
	if (i < 1 || i > HST_MAXP)
		abort();	/* a programming error: the SQL is ours */
	struct hparam *p = &st->p[i - 1];
	free(p->s);
	memset(p, 0, sizeof *p);
	if (i > st->np)
		st->np = i;
	return p;
}

void
hst_text(struct hst *st, int i, const char *s)
{
	struct hparam *p = slot(st, i);

	p->text = true;
	if (s && *s && (p->s = strdup(s)))
		p->type = HP_TEXT;
}

void
hst_int(struct hst *st, int i, int64_t v)
{
	struct hparam *p = slot(st, i);

	p->type = HP_INT;
	p->i = v;
}

void
hst_real(struct hst *st, int i, double v)
{
	struct hparam *p = slot(st, i);

	if (isfinite(v)) {	/* unknown stays NULL */
		p->type = HP_REAL;
		p->d = v;
	}
}

int
hst_step(struct hst *st)
{
	return st->db->ops->step(st);
}

bool
hst_null(struct hst *st, int c)
{
	return st->db->ops->col_null(st, c);
}

const char *
hst_str(struct hst *st, int c)
{
	const char *s = st->db->ops->col_text(st, c);
	return s ? s : "";
}

int64_t
hst_i64(struct hst *st, int c)
{
	return hst_null(st, c) ? 0 : strtoll(hst_str(st, c), NULL, 10);
}

struct known_dbl
hst_dbl(struct hst *st, int c)
{
	return hst_null(st, c) ? (struct known_dbl){ 0 } : known_dbl_of(strtod(hst_str(st, c), NULL));
}

void
hst_end(struct hst *st)
{
	if (st->db)
		st->db->ops->finish(st);
	for (int i = 0; i < st->np; i++)
		free(st->p[i].s);
	st->np = 0;
	st->db = NULL;
}

int
hst_run(struct hst *st, int64_t *id)
{
	int rc = hst_step(st);

	if (rc > 0 && id)
		*id = hst_i64(st, 0);
	else if (!rc && id)
		rc = -ENOENT;
	hst_end(st);
	return rc < 0 ? rc : 0;
}
