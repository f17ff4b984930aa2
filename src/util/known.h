/* known.h - the one "known value" type: a value with its validity bit.
 * Unknown is never 0, -1, NaN or "": a reader asks .known, and JSON null and
 * "unknown" on screen come from here (report/doc.h, known_fmt_*). */
#ifndef DS_KNOWN_H
#define DS_KNOWN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct known_u64 {
	bool known;
	uint64_t v;
};
struct known_i64 {
	bool known;
	int64_t v;
};
struct known_dbl {
	bool known;
	double v;
};
struct known_bool {
	bool known;
	bool v;
};

/* Set a known value: KNOWN_SET(f, 512). */
#define KNOWN_SET(f, val) do { (f).known = true; (f).v = (val); } while (0)
#define KNOWN_CLEAR(f) do { (f).known = false; (f).v = 0; } while (0)

static inline struct known_u64 known_u64_of(uint64_t v) { return (struct known_u64){ true, v }; }
static inline struct known_dbl known_dbl_of(double v) { return (struct known_dbl){ true, v }; }
static inline struct known_i64 known_i64_of(int64_t v) { return (struct known_i64){ true, v }; }
static inline struct known_bool known_bool_of(bool v) { return (struct known_bool){ true, v }; }
/* v when c holds, else unknown (v not evaluated then): a table cell, a rate. */
#define KNOWN_DBL_IF(c, v) ((c) ? known_dbl_of(v) : (struct known_dbl){ 0 })

/* The on-screen text of a value: printf of fmt when known, else "unknown"
 * (or the caller's word for it when unk is not NULL).  Returns buf. */
const char *known_fmt_u64(const struct known_u64 *k, const char *fmt, const char *unk,
			  char *buf, size_t n);
const char *known_fmt_dbl(const struct known_dbl *k, const char *fmt, const char *unk,
			  char *buf, size_t n);
#endif
