/* seqread.c - sequential read at a chosen block size and queue depth. */
#include "bench/bench.h"

const struct bench_test bench_seqread = {
	.name = "seqread",
	.summary = "sequential read",
	.writes = false,
	.defaults = {
		.bs = 1048576, .qd = 8, .seconds = 10, .ramp_s = 0,
		.region_start = 0, .region_end = 1,
		.pattern = "seq", .data = "random", .rw_mix = 100,
	},
	.panels = PANEL_THROUGHPUT | PANEL_LATENCY | PANEL_POSITION,
	.flags = TEST_REF_READ,
	.params = (const struct bench_param *const[]){ BENCH_XFER_PARAMS, NULL },
	.plan = bench_plan_single,
};
