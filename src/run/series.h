/* series.h - per-interval samples in a ring buffer (wraps, keeping the newest).
 * One writer (the worker) appends; readers (the sampler) copy samples by their
 * running number without locks: `total` is published with release order after
 * the sample is written, and a reader re-checks it to detect an overwrite. */
#ifndef DS_SERIES_H
#define DS_SERIES_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct series_sample {
	uint64_t end_ns;	/* interval end, relative to the measurement start */
	uint32_t dur_ns;	/* interval length (the last one may be short) */
	uint32_t ios;
	uint64_t rbytes, wbytes;
	float p50_us, p99_us;	/* NAN when no I/O completed in the interval */
	float pos;		/* 0..1 position on the target at the interval end */
};

/* The whole run, downsampled: when the buckets are full, adjacent pairs
 * merge and each bucket spans twice as many intervals.  Nothing is dropped
 * (a 2-hour run keeps its first hour).  Written by the worker only; read
 * after it has been joined. */
#define SERIES_WHOLE_CAP 4096

struct series_bucket {
	uint64_t end_ns, dur_ns;
	uint64_t ios, rbytes, wbytes;
	float p99_us;		/* the worst interval's p99 (a stall stays visible); NAN none */
	float pos;
	uint32_t merged;	/* intervals in the bucket */
};

struct series {
	struct series_sample *s;
	size_t cap;
	_Atomic uint64_t total;	/* samples ever appended */
	struct series_bucket *whole;	/* SERIES_WHOLE_CAP */
	size_t n_whole;
	uint32_t span;		/* intervals per full bucket */
};

int series_init(struct series *r, size_t cap);	/* 0 / -ENOMEM */
void series_free(struct series *r);
void series_push(struct series *r, const struct series_sample *x);
uint64_t series_total(const struct series *r);
/* Copy samples with running numbers [from, from+n) that are still in the ring
 * into out; returns how many were copied (samples overwritten are skipped:
 * `*first` gets the running number of out[0]). */
size_t series_copy(const struct series *r, uint64_t from, size_t n,
		   struct series_sample *out, uint64_t *first);

/* Bytes of the samples that end after t_ns (relative to the measurement
 * start), the straddling one in proportion; for the common window. */
uint64_t series_bytes_after(const struct series *r, uint64_t t_ns);

/* After the writer is done: when the last sample is under half an interval
 * and has one before it, *out gets the two merged (the fold the saved
 * series makes, so the live graph ends as the result does); 1, else 0. */
int series_fold_tail(const struct series *r, unsigned interval_ms, struct series_sample *out);

struct saved_series;
/* The whole-run buckets as a saved series (interval = interval_ms * span).
 * 0 / -ENOMEM. */
int series_save_whole(const struct series *r, unsigned interval_ms, struct saved_series *out);

/* Derived values of a sample. */
double series_mbps(const struct series_sample *x);	/* 10^6 B/s, read+write */
double series_read_mbps(const struct series_sample *x);
double series_write_mbps(const struct series_sample *x);
double series_iops(const struct series_sample *x);
#endif
