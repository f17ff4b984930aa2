/* randread.c - random read (access time, IOPS, latency percentiles) at a chosen block size and queue depth. */
#include "bench/bench.h"

const struct bench_test bench_randread = {
	.name = "randread",
	.summary = "random read (access time, IOPS, latency percentiles)",
	.writes = false,
	.defaults = {
		.bs = 4096, .qd = 32, .seconds = 10, .ramp_s = 0,
		.region_start = 0, .region_end = 1,
		.pattern = "rand", .data = "random", .rw_mix = 100,
	},
	.panels = PANEL_THROUGHPUT | PANEL_LATENCY,
	.params = (const struct bench_param *const[]){ BENCH_XFER_PARAMS, NULL },
	.plan = bench_plan_single,
};
