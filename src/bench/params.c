/* params.c - the parameters most tests share (block size, queue depth, time,
 * ramp, pattern, mix, data); each test lists the ones it takes. */
#include "bench/bench.h"

const struct bench_param bp_bs = {
	.name = "bs", .kind = BP_SIZE, .bind = BIND_BS, .arg = "SIZE",
	.help = "block size, 512 .. 16M (4k, 1M)",
	.bad = "block size must be 512 B .. 16M in multiples of 512 (e.g. 4k, 1M)",
	.min = WORKER_MIN_BS, .max = WORKER_MAX_BS, .multiple = 512,
};

const struct bench_param bp_qd = {
	.name = "qd", .kind = BP_COUNT, .bind = BIND_QD, .arg = "N",
	.help = "queue depth, 1 .. 256", .bad = "queue depth must be 1..256",
	.min = 1, .max = WORKER_MAX_QD,
};

const struct bench_param bp_time = {
	.name = "time", .kind = BP_DURATION, .bind = BIND_SECONDS, .arg = "DURATION",
	.help = "measured time per step (10, 500ms, 2m; 0: one pass over the region)",
	.bad = "a duration (10, 10s, 500ms, 2m; 0 = one pass over the region)",
	.min = 0, .max = 1e8,	/* ~3 years: past that the ns clock wraps */
	.min_nonzero = 0.1,	/* shorter than one sample: nothing to measure */
};

const struct bench_param bp_ramp = {
	.name = "ramp", .kind = BP_DURATION, .bind = BIND_RAMP, .arg = "DURATION",
	.help = "warm-up before measuring (excluded)", .bad = "a duration (0, 2, 2s, 500ms)",
	.min = 0, .max = 1e8,
};

static const char *const patterns[] = { "seq", "rand", "stride", NULL };
static const struct bench_alias pattern_words[] = {
	{ "sequential", 0 }, { "random", 1 }, { "strided", 2 }, { NULL, 0 },
};
const struct bench_param bp_pattern = {
	.name = "pattern", .kind = BP_CHOICE, .bind = BIND_PATTERN, .arg = "seq|rand|stride",
	.help = "where the I/Os go", .bad = "one of seq, rand, stride", .choices = patterns,
	.aliases = pattern_words,
};

static const struct bench_alias rw_words[] = { { "read", 100 }, { "write", 0 }, { NULL, 0 } };
const struct bench_param bp_rw = {
	.name = "rw", .kind = BP_PERCENT, .bind = BIND_RW, .arg = "PCT",
	.help = "percentage of reads in a mixed run (100 read, 0 write)",
	.bad = "percentage of reads 0..100 (or read, write)",
	.min = 0, .max = 100, .aliases = rw_words,
};

static const char *const datas[] = { "random", "zeros", "compressible", NULL };
static const struct bench_alias data_words[] = { { "zero", 1 }, { NULL, 0 } };
const struct bench_param bp_data = {
	.name = "data", .kind = BP_CHOICE, .bind = BIND_DATA, .arg = "random|zeros|compressible",
	.help = "what writes carry", .bad = "one of random, zeros, compressible", .choices = datas,
	.aliases = data_words,
};
