/* internal.h - what the history's own files share (never included outside src/history/). */
#ifndef DS_HISTORY_INTERNAL_H
#define DS_HISTORY_INTERNAL_H
#include <stdbool.h>
#include <stdint.h>
#include "history/db.h"

bool history_db_is_default(void);	/* no --db, variable or config setting */
void history_config_reset(void);	/* tests: forget options and the config read */
/* Open the configured database, import the spool (a notice unless quiet). */
int history_open_quiet(struct hdb **db, char *err, size_t n, bool quiet);

/* SQL shared by the CLI and the queries. */
/* A drive's rate in each run: the mean over its step results.  Columns:
 * run_id, started, test, target, mbps, errors, interrupted, failed, worst
 * level, facts, flags. */
#define HISTORY_RUN_RATE_SQL \
	"SELECT r.run_id, r.started, r.test, rt.target, avg(s.mbps), sum(s.errors), r.interrupted, r.failed," \
	" (SELECT max(CASE v.level WHEN 'fail' THEN 3 WHEN 'warn' THEN 2 WHEN 'pass' THEN 1 WHEN 'info' THEN 0 END)" \
	"  FROM verdict v WHERE v.run = r.id), max(rt.facts), r.flags," \
	" (SELECT h.health FROM drive_health h WHERE h.run = r.id AND h.target = rt.target)" \
	" FROM run r JOIN run_target rt ON rt.run = r.id" \
	" LEFT JOIN step_result s ON s.run = r.id AND s.target = rt.target" \
	" WHERE rt.drive = ? AND r.started >= ? GROUP BY r.id, rt.target ORDER BY r.started, r.id"
/* Drive rows matching a DRIVE key (serial, WWN, target name). */
#define HISTORY_DRIVE_SQL \
	"SELECT DISTINCT d.id, d.model, d.serial, d.wwn, d.firmware FROM drive d JOIN run_target rt" \
	" ON rt.drive = d.id WHERE d.serial = ?1 OR d.wwn = ?1 OR rt.target IN (?1, 'sim:' || ?1, '/dev/' || ?1)" \
	" ORDER BY d.id"
/* Percentile of rate among the latest rates of the other drives of model.
 * Returns how many others, -errno on error; *pct unknown with none. */
int history_peers(struct hdb *db, const char *model, int64_t self, double rate, struct known_dbl *pct);
#endif
