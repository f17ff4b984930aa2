/* result.h - the result of a run: what JSON, CSV, the text table, the result
 * view and `show` all read.  Maps to rows: run, drive identity, test+params,
 * step results, verdicts (the future bench history).  Fields may be added;
 * do not rename (JSON schema 1 follows these names). */
#ifndef DS_RESULT_H
#define DS_RESULT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "util/known.h"
#include "util/util.h"

struct lat_summary {		/* microseconds */
	bool known;		/* false when no I/O completed */
	double min, mean, stddev, p50, p90, p99, p999, max;
};

struct errno_count {
	int err;		/* positive errno */
	uint64_t count;
};

struct err_summary {
	uint64_t count;
	bool have_offsets;
	uint64_t first_offset, last_offset;	/* bytes */
	struct errno_count by_errno[8];
	size_t n_errno;
};

/* A saved time series: one sample per interval. */
struct saved_series {
	unsigned interval_ms;
	size_t n;
	float *mbps, *iops, *p99_us;	/* n each; p99 NAN where no I/O completed */
	float *pos;			/* position on the target 0..1, n (may be NULL) */
};

/* Rate and worst latency by position across the region (positional tests):
 * n equal slices of [start, end) bytes; NAN where a slice cannot tell. */
struct saved_pos {
	size_t n;
	uint64_t start, end;
	float *mbps, *max_lat_us;
};

/* Latency histogram as saved: non-empty buckets only. */
struct saved_hist {
	size_t n;
	double *upper_us;	/* bucket upper bound */
	uint64_t *count;
};

struct target_result {
	char target[64];	/* what the user named: sda, /dev/loop3, sim:WD20EFAX, /tmp/dir */
	char drive_id[128];	/* stable identity (model+serial) when known */
	char model[64], serial[64];
	double mbps, iops;	/* 10^6 bytes/s */
	double read_mbps, write_mbps;
	uint64_t bytes, ios;
	double seconds;
	struct lat_summary lat;
	struct err_summary err;
	struct saved_series series;
	struct saved_pos by_pos;	/* n 0 when the test is not positional */
	struct saved_hist hist;
	char note[192];		/* why this target stopped early / failed; "" none */
	char engine[16];	/* engine that moved the bytes (after any fallback) */
	struct err_summary ramp_err;	/* errors during ramp-up (not in err) */
	bool stopped_early;	/* ended before the others of its step (errors, a stall) */
};

/* The drive behind a target as the inventory saw it; "" / !known unknown. */
struct target_ident {
	char drive_id[128], model[64], serial[64];
	char wwn[64], firmware[32];
	struct known_u64 capacity;		/* bytes */
	struct known_u64 logical, physical;	/* sector sizes, bytes */
	char sector_source[16];		/* "identify", "sysfs", "" */
	char controller[32];		/* PCI address of its controller */
	char port[48];			/* ata3, host2, ... */
};

struct step_result {
	unsigned index;		/* 1-based */
	struct strlist active;	/* targets active in this step */
	struct target_result *res;
	size_t n_res;
	struct known_dbl aggregate_mbps;	/* unknown: nothing measured (interrupted, failed) */
	double ideal_mbps;	/* sum of single-drive rates of the active set; 0 = n/a */
	double cpu_usr_s, cpu_sys_s;
	double seconds;
	char label[48];		/* what the step is ("4 drives"); "" none */
	double window_s;	/* the common window the aggregate covers; 0 = each target's whole time */
	bool failed;		/* the step could not run (a worker did not start) */
	bool own;		/* the test's own work, no I/O (a self-test): nothing measured is
				   no problem (not saved: a live run's exit code) */
	/* this step's own transfer parameters (steps of one run differ);
	 * bs 0 = not recorded (an older document): the run's params apply */
	uint32_t bs;
	unsigned qd;
	int rw_mix;		/* % reads */
	char pattern[16];
};

enum verdict_level { VL_INFO, VL_PASS, VL_WARN, VL_FAIL };

/* What a test's results are (bench_test.flags, run_result.test_flags):
 * what consumers ask instead of a test's name.  The history stores them
 * with each run. */
enum test_flag {
	TEST_REF_READ = 1u << 0,	/* its rate is a reference read of the drive (a sequential
					   read of its region): the history's model rates */
	TEST_JUDGES = 1u << 1,		/* it judges drives: a verdict per drive (a TR_VERDICTS
					   table); the history shows the drive's own */
	TEST_MAPS_SURFACE = 1u << 2,	/* it maps the surface by position (a TR_SURFACE_MAP table) */
	TEST_SAMPLED = 1u << 3,		/* it samples the drive (a grid), no whole pass */
	TEST_SMR_PROBE = 1u << 4,	/* it probes for DM-SMR: the array estimate's second result */
};

struct verdict {
	char kind[24];		/* "saturation", "link", "smr", "af", "errors" */
	char text[320];		/* the sentence a technician reads */
	int knee_drives;	/* saturation: 0 = no knee */
	struct known_dbl ceiling_mbps;
	enum verdict_level level;
	struct strlist evidence;	/* lines behind the sentence */
	bool problem;		/* a problem whatever its level (exit 1): I/O errors, a
				   link trained narrower than it can */
	bool tally;		/* a count over the drives ("12 drives: 10 pass ..."),
				   never one drive's verdict */
};

/* A named table with typed columns, rendered by every writer and the
 * dashboard without knowing the test. */
enum col_type { COL_STR, COL_INT, COL_DBL, COL_LBA, COL_BYTES };

/* What a column holds, for the consumers that read a table of any test
 * (the board, the surface panel, the estimate, the history).  A role is
 * its column's name in the result schema (col_role_key: "target",
 * "verdict", ...), known in result.c alone, so a document loaded from JSON
 * has its roles too; consumers ask table_col(t, CR_...). */
enum col_role {
	CR_NONE,
	CR_TARGET,		/* the drive of the row (as the run named it) */
	CR_VERDICT,		/* the drive's verdict word: PASS, WARN, FAIL */
	CR_REASONS,		/* why, one line */
	CR_TEMP_C,		/* its temperature, C */
	CR_REALLOCATED,		/* SMART 5 after the run */
	CR_PENDING,		/* SMART 197 after the run */
	CR_AVG_MBPS,		/* the drive's average rate over its whole region */
	CR_MODE,		/* how the region was read: whole, or sampled (RESULT_MODE_SAMPLED) */
	CR_AT_GB,		/* a position on the drive, GB */
	CR_MBPS,		/* the rate at that position */
	CR_MAX_MS,		/* the slowest block there, ms */
	CR_FAILED_BLOCKS,	/* unreadable blocks there */
	CR_COUNT
};

/* The CR_MODE word of a sampled read (the rate is the samples' average). */
#define RESULT_MODE_SAMPLED "quick"

/* What a table is (set by its test, or found from its columns' roles when
 * added: result_table_add). */
enum table_role {
	TR_NONE,
	TR_VERDICTS,		/* one row per drive: CR_TARGET and CR_VERDICT (the board) */
	TR_SURFACE_MAP,		/* rows by position: CR_TARGET, CR_AT_GB, CR_MBPS, CR_MAX_MS,
				   CR_FAILED_BLOCKS (the surface panel) */
	TR_DRIVE_RATES,		/* one row per drive: CR_TARGET and CR_AVG_MBPS (the estimate) */
};

struct result_col {
	char name[24];		/* key in JSON/CSV */
	char title[24];		/* header on screen */
	enum col_type type;
	char unit[12];		/* COL_DBL: "MB/s", "%", "ms" */
	int prec;		/* COL_DBL: decimals */
};

/* One value of its column's type; unknown (null / "-") when that one is. */
struct result_cell {
	struct known_i64 i;	/* COL_INT, COL_LBA, COL_BYTES */
	struct known_dbl d;	/* COL_DBL */
	char *s;		/* COL_STR (owned), NULL unknown */
};
static inline bool
cell_known(const struct result_cell *c)
{
	return c->i.known || c->d.known || c->s;
}

struct result_table {
	char name[32];		/* "scaling" */
	char title[80];		/* "Aggregate vs. ideal by drive count" */
	struct result_col *cols;
	size_t n_cols;
	struct result_cell *cells;	/* n_rows x n_cols, row-major */
	size_t n_rows;
	enum table_role role;	/* set by result_table_add from its columns; a test may set it */
};

struct run_params {
	uint32_t bs;		/* bytes */
	unsigned qd;
	double seconds;		/* per step, 0 = by size */
	uint64_t size;		/* bytes per target, 0 = by time */
	double ramp_s;
	double region_start, region_end;	/* fraction 0..1 (when !region_lba) */
	bool region_lba;			/* the region was given in LBAs: */
	uint64_t region_lba_start, region_lba_end;	/* logical sectors, end 0 = to the end */
	char pattern[16];	/* seq, rand, stride */
	uint64_t stride;	/* bytes, pattern stride */
	uint64_t spread;	/* stride: this many blocks spread over each target's own
				   region (the stride per target; 0: stride as given) */
	char data[16];		/* random, zeros, compressible */
	int rw_mix;		/* % reads: 100 read, 0 write */
	char engine[16];
	uint64_t seed;
};

struct run_result {
	char test[24];
	struct strlist targets;
	struct run_params params;
	time_t started;
	double seconds;
	bool interrupted;
	bool virtual_time;	/* sim clock */
	struct known_dbl ceiling_mbps;	/* link ceiling of the controller */
	char ceiling_text[64];	/* "x8 5GT/s" */
	struct step_result *steps;
	size_t n_steps;
	struct verdict *verdicts;
	size_t n_verdicts;
	struct target_result *solo;	/* reference passes (e.g. the ideal line of a sweep) */
	size_t n_solo;
	struct strlist notes;		/* one line each: fallbacks, early stops */
	/* identity: the run, the host, and each target's drive */
	char run_id[40];		/* unique: 128 random bits in hex; "" unknown */
	char host[64];
	char version[16];
	struct target_ident *ident;	/* n_ident, same order as the opened targets */
	struct strlist ident_targets;	/* the opened target of each ident */
	size_t n_ident;
	struct result_table *tables;
	size_t n_tables;
	bool failed;			/* a step could not run (error in notes), or none started */
	/* the guard refused a write run (exit 3): the rule and its sentence;
	 * "" not refused */
	char refused_rule[24];
	char refused_evidence[320];
	unsigned test_flags;	/* the test's TEST_* (0: not known, a loaded document) */
};

void run_result_free(struct run_result *r);

/* Verdicts: a sentence at a level; evidence lines added after. NULL on ENOMEM. */
struct verdict *result_verdict(struct run_result *r, enum verdict_level lv, const char *kind,
			       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int verdict_evidence(struct verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *verdict_level_name(enum verdict_level lv);	/* pass, info, warn, fail */
int verdict_level_parse(const char *s, enum verdict_level *out);

/* Tables: add one with its columns, then rows; cells start unknown.  Its
 * role comes from its columns' roles (a test may set t->role after). */
struct result_table *result_table_add(struct run_result *r, const char *name, const char *title,
				      const struct result_col *cols, size_t n_cols);
int table_add_row(struct result_table *t);	/* 0 / -ENOMEM; the new row is n_rows - 1 */
struct result_cell *table_cell(struct result_table *t, size_t row, size_t col);
void table_set_dbl(struct result_table *t, size_t row, size_t col, double v);	/* not finite: unknown */
void table_set_known_dbl(struct result_table *t, size_t row, size_t col, struct known_dbl v);
void table_set_int(struct result_table *t, size_t row, size_t col, int64_t v);
int table_set_str(struct result_table *t, size_t row, size_t col, const char *s);
/* A cell as text for a screen ("-" unknown). */
void table_cell_text(const struct result_table *t, size_t row, size_t col, char *buf, size_t n);
void result_table_free(struct result_table *t);
/* Typed lookups, the one place that knows which name a role has. */
const char *col_role_key(enum col_role role);	/* its name in the schema: "target", "" none */
int table_col(const struct result_table *t, enum col_role role);	/* column index, -1 none */
/* A test's own column (read back by the test that wrote it), -1 none. */
int table_col_named(const struct result_table *t, const char *name);
/* The next table of that role after `after` (NULL: the first), NULL none. */
const struct result_table *result_table_next(const struct run_result *r, enum table_role role,
					     const struct result_table *after);
/* A cell of the column of that role in row, NULL: no such column or row. */
const struct result_cell *table_role_cell(const struct result_table *t, size_t row, enum col_role role);
/* A deep copy of src into dst (zeroed first).  0 / -ENOMEM (dst then empty). */
int result_table_copy(struct result_table *dst, const struct result_table *src);

/* Unique run id (32 hex digits) into buf (>= 33 bytes). */
void result_new_id(char *buf, size_t n);
#endif
