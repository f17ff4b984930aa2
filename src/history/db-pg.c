/* db-pg.c - a shop's shared history on a PostgreSQL server (libpq).  The
 * shared SQL's ?N placeholders become $N; every parameter goes as text with
 * its type named, so "?1 IS NULL" and "'sim:' || ?1" need no casts. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libpq-fe.h>
#include "history/db.h"

#define OID_INT8 20
#define OID_TEXT 25
#define OID_FLOAT8 701

struct pdb {
	struct hdb h;
	PGconn *c;
	char sqlstate[6];	/* of the last failure */
	char msg[256];
};

static struct pdb *
P(struct hdb *h)
{
	return (struct pdb *)h;
}

/* One line of a libpq message: its first line, no trailing newline. */
static void
one_line(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src && *src ? src : "unknown error");
	dst[strcspn(dst, "\n")] = 0;
}

int
hdb_pg_check(const char *where, char *err, size_t n)
{
	char *m = NULL;
	PQconninfoOption *o = PQconninfoParse(where, &m);

	if (o) {
		PQconninfoFree(o);
		return 0;
	}
	one_line(err, n, m ? m : "out of memory");
	PQfreemem(m);
	return -EINVAL;
}

/* The address to name in messages: the URL or conninfo without a password. */
static void
where_of(PGconn *c, char *buf, size_t n)
{
	const char *host = PQhost(c), *db = PQdb(c), *port = PQport(c);
	snprintf(buf, n, "postgresql %s@%s:%s/%s", PQuser(c) ? PQuser(c) : "", host ? host : "",
		 port ? port : "", db ? db : "");
}

static void
notice_quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;	/* "relation exists, skipping" is not for the bench's terminal */
}

static int
p_open(const char *url, struct hdb **out, char *err, size_t n)
{
	/* connect_timeout first: one in the URL wins (later values override) */
	const char *const keys[] = { "connect_timeout", "application_name", "dbname", NULL };
	const char *const vals[] = { "10", "diskscope", url, NULL };
	struct pdb *p;
	int rc;

	*out = NULL;
	if ((rc = hdb_pg_check(url, err, n)))
		return rc;
	if (!(p = calloc(1, sizeof *p)))
		return -ENOMEM;
	p->h.ops = &hdb_pg_ops;
	p->c = PQconnectdbParams(keys, vals, 1);
	if (!p->c || PQstatus(p->c) != CONNECTION_OK) {
		char m[256];
		one_line(m, sizeof m, p->c ? PQerrorMessage(p->c) : "out of memory");
		snprintf(err, n, "%s", m);
		PQfinish(p->c);
		free(p);
		return -ECONNREFUSED;
	}
	PQsetNoticeProcessor(p->c, notice_quiet, NULL);
	where_of(p->c, p->h.where, sizeof p->h.where);
	*out = &p->h;
	return 0;
}

static void
p_close(struct hdb *h)
{
	PQfinish(P(h)->c);
	free(h);
}

/* Keep the SQLSTATE and one line of the message of a failed result. */
static int
failed(struct pdb *p, PGresult *r)
{
	const char *s = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	snprintf(p->sqlstate, sizeof p->sqlstate, "%s", s ? s : "");
	one_line(p->msg, sizeof p->msg, r ? PQresultErrorMessage(r) : PQerrorMessage(p->c));
	return PQstatus(p->c) == CONNECTION_OK ? -EIO : -ECONNRESET;
}

static int
p_exec(struct hdb *h, const char *sql, char *err, size_t n)
{
	PGresult *r = PQexec(P(h)->c, sql);
	ExecStatusType s = PQresultStatus(r);
	int rc = 0;

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		rc = failed(P(h), r);
		snprintf(err, n, "%s", P(h)->msg);
	} else if (!strcmp(sql, "COMMIT") && strcmp(PQcmdStatus(r), "COMMIT")) {
		/* COMMIT of a transaction that failed succeeds as "ROLLBACK":
		 * nothing was stored, so nothing spooled may be removed */
		snprintf(P(h)->msg, sizeof P(h)->msg, "the transaction was rolled back (%s)", PQcmdStatus(r));
		P(h)->sqlstate[0] = 0;
		snprintf(err, n, "%s", P(h)->msg);
		rc = -EIO;
	}
	PQclear(r);
	return rc;
}

/* A migration takes a transaction-scoped advisory lock: two benches opening
 * a new database at once migrate it once.  Recording needs none (unique
 * keys and ON CONFLICT, with a retry). */
static int
p_begin(struct hdb *h, bool migrate, char *err, size_t n)
{
	return p_exec(h, migrate ? "BEGIN; SELECT pg_advisory_xact_lock(1685287777)" : "BEGIN", err, n);
}

/* ?N -> $N, ? -> $k (our SQL has no ? inside literals); *np the highest
 * number, so parameters left unbound go as NULL. */
static char *
dollars(const char *sql, int *np)
{
	char *o = malloc(strlen(sql) * 3 + 1), *w = o;
	int k = 0;

	if (!o)
		return NULL;
	for (const char *s = sql; *s; s++) {
		if (*s != '?') {
			*w++ = *s;
			continue;
		}
		*w++ = '$';
		if (s[1] >= '0' && s[1] <= '9') {
			int v = atoi(s + 1);
			*np = v > *np ? v : *np;
			continue;	/* the digits follow */
		}
		w += sprintf(w, "%d", ++k);
		*np = k > *np ? k : *np;
	}
	*w = 0;
	return o;
}

static int
p_step(struct hst *st)
{
	struct pdb *p = P(st->db);
	PGresult *r = st->impl;

	if (!st->started) {
		const char *vals[HST_MAXP];
		char nums[HST_MAXP][40];
		Oid types[HST_MAXP];
		int np = st->np;
		char *sql = dollars(st->sql, &np);
		st->started = true;
		if (!sql)
			return -ENOMEM;
		if (np > HST_MAXP)
			abort();	/* a programming error: the SQL is ours */
		for (int i = st->np; i < np; i++)
			memset(&st->p[i], 0, sizeof st->p[i]);
		for (int i = 0; i < np; i++) {
			const struct hparam *q = &st->p[i];
			vals[i] = NULL;
			types[i] = q->text ? OID_TEXT : 0;	/* an untyped NULL: the column's type */
			if (q->type == HP_TEXT)
				vals[i] = q->s;
			else if (q->type == HP_INT) {
				snprintf(nums[i], sizeof nums[i], "%" PRId64, q->i);
				vals[i] = nums[i];
				types[i] = OID_INT8;
			} else if (q->type == HP_REAL) {
				snprintf(nums[i], sizeof nums[i], "%.17g", q->d);
				vals[i] = nums[i];
				types[i] = OID_FLOAT8;
			}
		}
		r = PQexecParams(p->c, sql, np, types, vals, NULL, NULL, 0);
		free(sql);
		st->impl = r;
		ExecStatusType s = PQresultStatus(r);
		if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK)
			return failed(p, r);
		st->row = 0;
	}
	if (!r || (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK))
		return -EIO;
	if (st->row >= PQntuples(r))
		return 0;
	st->row++;
	return 1;
}

static bool
p_col_null(struct hst *st, int c)
{
	return !st->impl || st->row < 1 || PQgetisnull(st->impl, st->row - 1, c);
}

static const char *
p_col_text(struct hst *st, int c)
{
	return p_col_null(st, c) ? NULL : PQgetvalue(st->impl, st->row - 1, c);
}

static void
p_finish(struct hst *st)
{
	PQclear(st->impl);
	st->impl = NULL;
}

static const char *
p_errmsg(struct hdb *h)
{
	return P(h)->msg[0] ? P(h)->msg : PQerrorMessage(P(h)->c);
}

/* serialization_failure, deadlock_detected, unique_violation */
static bool
p_retryable(struct hdb *h)
{
	const char *s = P(h)->sqlstate;
	return !strcmp(s, "40001") || !strcmp(s, "40P01") || !strcmp(s, "23505");
}

const struct hdb_ops hdb_pg_ops = {
	.dialect = HDB_PG,
	.open = p_open,
	.close = p_close,
	.exec = p_exec,
	.begin = p_begin,
	.step = p_step,
	.col_null = p_col_null,
	.col_text = p_col_text,
	.finish = p_finish,
	.errmsg = p_errmsg,
	.retryable = p_retryable,
	.has_meta_sql = "SELECT count(*) FROM information_schema.tables"
			" WHERE table_schema = current_schema() AND table_name = 'meta'",
};
