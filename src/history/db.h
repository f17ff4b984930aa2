/* db.h - the history's database backends behind one small interface: SQLite
 * (the embedded default) and PostgreSQL (libpq, a shop's shared server).
 * SQL is written once with ?N / ? placeholders; the PostgreSQL backend turns
 * them into $N.  Parameters are bound into the statement here and handed to
 * the backend when it first steps, so binding is shared code. */
#ifndef DS_HISTORY_DB_H
#define DS_HISTORY_DB_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/known.h"

enum hdb_dialect { HDB_SQLITE, HDB_PG };
enum hparam_type { HP_NULL, HP_TEXT, HP_INT, HP_REAL };

#define HST_MAXP 16

struct hparam {
	enum hparam_type type;
	int64_t i;
	double d;
	char *s;
	bool text;	/* bound as text: a NULL one is still typed text */
};

struct hdb;
struct hst {
	struct hdb *db;
	const char *sql;
	struct hparam p[HST_MAXP];
	int np;
	void *impl;		/* sqlite3_stmt * / PGresult * */
	int row;		/* PostgreSQL: the next row */
	bool started;
};

struct hdb_ops {
	enum hdb_dialect dialect;
	int (*open)(const char *where, struct hdb **out, char *err, size_t n);
	void (*close)(struct hdb *db);
	/* one or more statements, no parameters, no rows */
	int (*exec)(struct hdb *db, const char *sql, char *err, size_t n);
	/* start a write transaction that excludes other writers' migrations */
	int (*begin)(struct hdb *db, bool migrate, char *err, size_t n);
	int (*step)(struct hst *st);		/* 1 a row, 0 done, -errno */
	bool (*col_null)(struct hst *st, int c);
	const char *(*col_text)(struct hst *st, int c);
	void (*finish)(struct hst *st);
	const char *(*errmsg)(struct hdb *db);
	/* the last failure is worth retrying the transaction for (a
	 * serialization failure, a deadlock, a unique row another writer made) */
	bool (*retryable)(struct hdb *db);
	/* SQL for meta's existence check (the catalog differs) */
	const char *has_meta_sql;
};

struct hdb {
	const struct hdb_ops *ops;
	char where[512];	/* the file or the URL with any password dropped */
};

extern const struct hdb_ops hdb_sqlite_ops;
extern const struct hdb_ops hdb_pg_ops;

/* Which backend a --db value names: postgresql://, postgres:// and key=value
 * conninfo are PostgreSQL, anything else a file (sqlite: prefix dropped). */
const struct hdb_ops *hdb_backend(const char *where, const char **rest);
/* Check a PostgreSQL URL or conninfo without connecting; 0 or -EINVAL with err. */
int hdb_pg_check(const char *where, char *err, size_t n);
/* Refuse a SQLite database with no file behind it (:memory:, mode=memory,
 * vfs=memdb) without creating anything; 0 or -EINVAL with err. */
int hdb_sqlite_check(const char *path, char *err, size_t n);

int hdb_open(const char *where, struct hdb **out, char *err, size_t n);
void hdb_close(struct hdb *db);
int hdb_exec(struct hdb *db, const char *sql, char *err, size_t n);

/* Statements: start, bind (1-based; "" and NULL text bind NULL), step, read, end. */
void hst_init(struct hst *st, struct hdb *db, const char *sql);
void hst_text(struct hst *st, int i, const char *s);
void hst_int(struct hst *st, int i, int64_t v);
void hst_real(struct hst *st, int i, double v);
int hst_step(struct hst *st);			/* 1 row, 0 done, -errno */
bool hst_null(struct hst *st, int c);
const char *hst_str(struct hst *st, int c);	/* "" for NULL */
int64_t hst_i64(struct hst *st, int c);
struct known_dbl hst_dbl(struct hst *st, int c);	/* NULL: unknown */
void hst_end(struct hst *st);
/* Run a statement with no rows wanted (or the first row's first column into id). */
int hst_run(struct hst *st, int64_t *id);
#endif
