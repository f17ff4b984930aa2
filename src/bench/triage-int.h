/* triage-int.h - what the triage files share (triage.c: the plan and the
 * per-I/O bookkeeping; triage-verdict.c, triage-verify.c, triage-confirm.c,
 * triage-peers.c, triage-pin.c): the per-drive state of the worker hook,
 * the run-wide state, the write-verify steps, the re-reads of slow ranges
 * and the peer rule. */
#ifndef DS_TRIAGE_INT_H
#define DS_TRIAGE_INT_H
#include <stdatomic.h>
#include <string.h>
#include "bench/bench.h"
#include "bench/pin.h"
#include "bench/selftest-run.h"
#include "bench/surface.h"
#include "bench/triage.h"

#define TRI_MAX_EXT 64		/* unreadable (or mismatched) ranges kept per drive */
#define TRI_MAX_SLOW 16		/* slow-range candidates kept per drive (each re-read) */
#define TRI_MAX_STEPS 1024	/* SMART before, solo samples, the shared pass, re-reads, write-verify */
#define TRI_ERR_LIMIT (1u << 20)	/* failed blocks in a row before a worker gives up */
#define TRI_PEER_MIN 3		/* drives without findings a peer reference needs (triage-peers.c) */
#define TRI_WV_CHUNKS 8		/* write-verify: at most this many write + read-back rounds */
#define TRI_WV_CHUNK_MIN (64ull << 20)
#define TRI_HIST_MAX 256	/* the bench history's drives of a model taken as extra peers */

enum { TP_SOLO, TP_SHARED, TP_WRITE, TP_VERIFY, TP_CONFIRM, TP_PIN };
enum { TK_BEFORE, TK_SOLO, TK_SHARED, TK_WRITE, TK_VERIFY, TK_CONFIRM, TK_PIN };
/* A slow range of the one shared pass is re-read before it is called
 * slow: its first blocks and as many beside it, in turn, TRI_CF_PASSES
 * times each; the fastest of each counts, so a busy spell that slowed the
 * pass (or one re-read) is not a slow band.  Confirmed: under
 * TRI_CF_FRACTION of the blocks beside it.  Every candidate, within
 * --confirm-budget per drive (triage-confirm.c). */
#define TRI_CF_PASSES 3
#define TRI_CF_BLOCKS 16
#define TRI_CF_FRACTION 0.7

/* Per drive, written by on_io in its worker (the rule figures are set by
 * before(), read-only after). */
struct tri_io {
	int phase;
	struct surface_point *pt;
	size_t n_pt;
	bool oom;
	struct surface_extent ext[TRI_MAX_EXT];	/* unreadable */
	size_t n_ext, ext_lost;		/* kept; failed blocks that found no room */
	uint64_t n_err;			/* failed reads */
	uint64_t n_unread;		/* failed reads of blocks not failed before (solo and
					   shared passes read the same start twice) */
	uint64_t max_lat_ns, max_lat_off;	/* the slowest good or failed read */
	/* failed reads of the solo sample [0] and of the shared pass [1]: how
	 * many, their time (the union of their submit-to-completion spans; the
	 * peer rule leaves it out of the drive's rate), the latest end so far */
	uint64_t fail_n[2], fail_ns[2], fail_end[2];
	/* fail rules */
	unsigned lbs;			/* the drive's logical sector, for LBAs in reasons */
	uint64_t max_bad;		/* bad blocks (failed or mismatched) before it stops; 0 never */
	uint64_t stall_ns;
	bool ruled;			/* a rule ended this drive's job */
	char rule[WORKER_STOP_LEN];	/* which rule, with its figures */
	/* write-verify */
	bool sim;			/* a sim drive keeps no data: no content check */
	uint64_t n_werr;		/* failed writes */
	struct surface_extent wext[TRI_MAX_EXT];
	size_t n_wext, wext_lost;
	struct surface_extent mis[TRI_MAX_EXT];	/* pattern mismatches */
	size_t n_mis, mis_lost;
	uint64_t mis_blocks, mis_sectors;
	uint64_t verify_hi;		/* the furthest read-back end in the running round */
	uint64_t wbytes, vbytes;	/* written, read back */
	/* a confirming re-read (TP_CONFIRM): this pass so far, the fastest pass */
	uint64_t cf_bytes, cf_lat_ns, cf_last;
	unsigned cf_n;
	double cf_best;
	/* set by the sampler thread (on_tick): too warm, stop at the next
	 * completion with temp_why (written before the flag) */
	atomic_bool temp_stop;
	char temp_why[WORKER_STOP_LEN];
	/* a failing drive bounded (triage-pin.c): the full pass's skip-ahead,
	 * the extents pinned after it */
	struct pin_skip skip;
	struct pin pin;
	struct pin_out pinned[TRI_MAX_EXT];
};

struct tri_tgt {
	struct known_dbl solo, shared;		/* MB/s; unknown: unmeasured */
	struct known_dbl solo_pct, shared_pct;	/* of the peers' median; unknown: no peers */
	/* the peer rule's rates [alone, together]: without the time its failed
	 * reads took (left_s, over left_n reads); unknown: unmeasured */
	struct known_dbl net[2];
	double left_s[2];
	uint64_t left_n[2];
	/* the bench history's read rates of other drives of its model (asked
	 * once; alone only: the history holds no shared rates) */
	bool hist_asked;
	size_t n_hist;
	double hist[TRI_HIST_MAX];
	struct surface_slow slow[TRI_MAX_SLOW];
	size_t n_slow, slow_found;	/* candidates kept, found (past TRI_MAX_SLOW: not kept) */
	unsigned char cf_done[TRI_MAX_SLOW];	/* re-read steps each candidate had */
	unsigned char cf_state[TRI_MAX_SLOW];	/* after triage_confirm_classify */
	size_t n_conf;			/* candidates that stayed slow on re-reading */
	double cf_spent;		/* s the re-reads took (their steps' measured time) */
	char cf_cut[WORKER_STOP_LEN + 32];	/* why the re-reads stopped short; "" they did not */
	bool scanned;
	bool stopped;			/* its worker ended before the pass did (a stuck drive) */
	char note[192];
	bool out;			/* left out of the later steps (a rule failed it) */
	bool out_slow;			/* by --fail-below, alone */
	bool out_warm;			/* by --max-temp, before any read */
	char out_why[WORKER_STOP_LEN];
	/* write-verify */
	uint64_t wv_start, wv_end;	/* bytes, its span */
	uint64_t wv_done;		/* written and read back up to here (bytes) */
	bool wv_complete;
	struct known_dbl temp_peak;	/* warmest reading during the reads */
};

struct tri_state {
	size_t done;
	size_t n_solo;			/* steps 1..n_solo are solo samples (0: SMART before) */
	bool shared_added;
	unsigned char kind[TRI_MAX_STEPS];	/* TK_* of each step, in plan order */
	short cf_arg[TRI_MAX_STEPS];	/* TK_CONFIRM: range index * 2, + 1 the blocks beside */
	size_t n_kind;
	bool cf_on;			/* the shared pass ended: re-reads are added in turn */
	unsigned cf_t, cf_i, cf_k;	/* the next re-read: drive, candidate, its step */
	struct tri_tgt t[PLAN_MAX_TARGETS];
	struct tri_snap before[PLAN_MAX_TARGETS], after[PLAN_MAX_TARGETS];
	struct tri_snap tick[PLAN_MAX_TARGETS];	/* the last check during a step (--temp-every) */
	double next_tick_s;		/* step time of the next temperature check */
	const struct plan_step *tick_step;
	/* write-verify */
	bool wv;
	uint64_t wv_seed;
	uint64_t wv_lo, wv_hi;		/* bytes, over all drives */
	unsigned wv_chunks, wv_next;	/* rounds, the next round to add */
	uint64_t wv_cur_a, wv_cur_b;	/* the running round's bytes */
	/* --self-test (selftest-triage.c): the last step, each drive's result */
	bool st_added, st_ran;
	enum selftest_kind st_kind;
	struct st_drive st[PLAN_MAX_TARGETS];
};

static inline struct tri_io *
tri_io_of(struct bench_ctx *c, unsigned t)
{
	return (struct tri_io *)c->io_state + t;
}

/* the name a verdict gives drive t */
static inline const char *
triage_name(const struct bench_ctx *c, size_t t)
{
	return c->targets[t].name[0] ? c->targets[t].name : c->plan->targets.v[t];
}

/* triage.c: a read step's parameters; a re-read's (queue depth 1, no
 * stride or spread) */
struct run_params triage_read_rp(const struct plan *p);
struct run_params triage_reread_rp(const struct plan *p);

/* triage-record.c: the "health" table (each drive's class-tagged health as
 * last read: what the history keeps), and the wear evidence line */
int triage_health_table(struct bench_ctx *c, struct run_result *r);
void triage_wear_evidence(const struct tri_snap *b, const struct tri_snap *a, struct strlist *ev);

/* triage-verdict.c: every drive's verdict, the triage table, the summary */
int triage_finish(struct bench_ctx *c, struct run_result *r);

/* triage-verify.c */
bool triage_wv_on(const struct plan *p);	/* --write-verify on */
/* The plan's check of --write-verify (its --region must be in LBAs). */
int triage_wv_plan(struct plan *p, char *err, size_t errlen);
/* before(): spans per drive (--from, --region), the seed, the rounds. */
int triage_wv_before(struct bench_ctx *c, char *err, size_t errlen);
/* Append the next write or read-back step; false when none is left. */
bool triage_wv_next(struct bench_ctx *c);
/* after a write-verify step of kind k */
void triage_wv_step_done(struct bench_ctx *c, int kind);
/* per completion in a write or read-back round: a failed write, a
 * mismatch; true when it was such a round */
bool triage_wv_io(struct tri_io *s, const struct io_done *d);
/* The verdict's part: FAIL on failed writes or mismatches, the resume
 * position of an unfinished span.  first_fail: the summary's line.  The
 * LBA to resume from, -1 when the span is done (or no write-verify). */
int64_t triage_wv_judge(struct bench_ctx *c, size_t t, bool interrupted, enum verdict_level *lv,
		     char *why, size_t wn, struct strlist *ev, char *first_fail, size_t fn);
/* triage-confirm.c: after the shared pass, every planned step done:
 * append the next re-read step; false when none is left. */
bool triage_confirm_next(struct bench_ctx *c);
/* a re-read step (plan step i) of drive t ended */
void triage_confirm_done(struct bench_ctx *c, size_t i, unsigned t, const struct target_result *tr);
/* at the end: which candidates stayed slow (T->n_conf), before the peer rule */
void triage_confirm_classify(struct bench_ctx *c, size_t t);
/* the verdict's part: WARN on a range that stayed slow; all in the evidence */
void triage_confirm_judge(struct bench_ctx *c, size_t t, enum verdict_level *lv, char *why, size_t wn,
			  struct strlist *ev);

/* triage-peers.c: a peer group's reference for one measure (m 0 alone,
 * 1 together) */
struct tri_ref {
	size_t n_group;			/* its peers: the others on the bench, history drives */
	size_t n, n_bench, n_hist;	/* drives in the reference */
	struct known_dbl median;	/* MB/s; unknown: no reference (why says why) */
	char names[256];		/* the bench drives in it */
	char left[384];			/* the peers left out, each with its reason */
	char why[768];
};
/* after the solo or shared step of drive t: its rate for the peer rule */
void triage_peer_rate(struct bench_ctx *c, unsigned t, int m, const struct target_result *tr);
void triage_peer_ref(const struct bench_ctx *c, size_t t, int m, struct tri_ref *ref);
/* t's rate as % of its group's reference; unknown: none (or t has no rate) */
struct known_dbl triage_peer_pct(const struct bench_ctx *c, size_t t, int m, struct tri_ref *ref);
/* the verdict's part: sets T->solo_pct, shared_pct; reasons, evidence */
void triage_peer_judge(struct bench_ctx *c, size_t t, enum verdict_level *lv, char *why, size_t wn,
		       struct strlist *ev);

/* triage-pin.c: unreadable extents bounded as the surface scan's are */
void triage_pin_before(struct bench_ctx *c);
/* every completion: true when it was the pin step's (nothing else to do) */
bool triage_pin_io(struct tri_io *s, const struct io_done *d);
/* every completion, after the fail rules: the full pass's skip-ahead */
void triage_pin_skip(struct tri_io *s, const struct io_done *d);
void triage_pin_add(struct bench_ctx *c);	/* after the shared pass */
void triage_pin_phase(struct bench_ctx *c, const struct plan_step *next);
void triage_pin_done(struct bench_ctx *c, const struct plan_step *st);
/* extent e's evidence line; the pinning's own line (false: none) */
void triage_pin_line(const struct tri_io *io, size_t e, unsigned lbs, char *buf, size_t n);
bool triage_pin_summary(const struct tri_io *io, char *buf, size_t n);
void triage_pin_free(struct tri_io *io);
/* shared by the triage files */
void triage_rule(struct tri_io *s, const struct io_done *d, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void triage_ext_add(struct surface_extent *x, size_t *n, size_t *lost, uint64_t a, uint64_t b);
int triage_add_reason(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* selftest-triage.c: --self-test; its step added once the reads are done
 * (on_step of the last one), run (run_step), judged (judge_drive). */
extern const struct bench_param bp_triage_selftest;
void triage_selftest_add(struct bench_ctx *c);
int triage_selftest_run(struct bench_ctx *c, const struct plan_step *st, struct step_result *sr);
void triage_selftest_run_judge(struct bench_ctx *c, size_t t, enum verdict_level *lv, char *why, size_t wn,
			       struct strlist *ev);
/* A verdict raised to at least to. */
static inline void
triage_raise(enum verdict_level *lv, enum verdict_level to)
{
	if (*lv < to)
		*lv = to;
}

/* A fail|warn|off rule's level: VL_FAIL, VL_WARN, VL_INFO (false: off). */
static inline enum verdict_level
triage_rule_level(const char *rule)
{
	return !strcmp(rule, "fail") ? VL_FAIL : !strcmp(rule, "warn") ? VL_WARN : VL_INFO;
}
#endif
