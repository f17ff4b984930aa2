/* test_sim_hostile.c - sim files built to break the parser (issue 10's
 * probe and the fuzzer): whitespace inih skips before a section, repeated
 * sections, rates that would stall the clock, flaw ranges that wrap, FIFOs
 * and directories.  Each is refused with a sentence or parsed right. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sim/drive.h"
#include "sim/model.h"
#include "sim/sim.h"

static const char good[] =
	"[drive]\nmodel = T\nserial = S1\nfirmware = F1\ncapacity = 1000204886016\n"
	"logical = 512\nphysical = 4096\nrpm = 7200\n"
	"[performance]\nrate = 0:200 1:100\naccess_ms = 12\nburst_mbps = 300\n";

static int
drive(const char *extra, const char *rate, char *err, size_t n, struct sim_drive_model *m)
{
	char text[2048];
	snprintf(text, sizeof text, "%s%s%s", good, rate ? rate : "", extra ? extra : "");
	return sim_drive_parse(text, "t.drive", m, err, n);
}

/* \v or \f before [controller]: a section to inih, and now to us too (it
 * was an index of -1: a heap-buffer-overflow). */
static void
test_rig_vertical_space(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"\v[controller]\nhba = 88SE9485\n",
		"\f[controller]\nhba = 88SE9485\ndrive = WD40EZRX\n",
		" \t\v\f [controller]\nhba = 88SE9215\n\v[controller]\nhba = 88SE9230\n",
		/* indented: a key, not a continuation of hba's value */
		"[controller]\nhba = 88SE9485\n  drive = WD40EZRX\n\tdrive = WD40EZRX\n",
	};
	static const size_t nctrl[] = { 1, 1, 2, 1 };
	for (size_t i = 0; i < 4; i++) {
		struct sim_rig *r = calloc(1, sizeof *r);
		char err[512] = "";
		assert_non_null(r);
		int rc = sim_rig_parse(texts[i], "vt.rig", r, err, sizeof err);
		fprintf(stderr, "%zu: %s\n", i, err);
		assert_int_equal(rc, 0);
		assert_int_equal(r->n_ctrl, nctrl[i]);
		assert_string_equal(r->ctrl[0].hba, i == 2 ? "88SE9215" : "88SE9485");
		assert_int_equal(r->ctrl[0].n_drives, i == 1 ? 1 : i == 3 ? 2 : 0);
		free(r);
	}
}

static void
test_section_twice(void **state)
{
	(void)state;
	struct sim_drive_model m;
	char err[512];
	assert_int_equal(drive("[drive]\nrpm = 5400\n", NULL, err, sizeof err, &m), -EINVAL);
	printf("%s\n", err);
	assert_non_null(strstr(err, "section [drive] given twice (first on line 1)"));
	/* [controller] repeats by design */
	struct sim_rig *r = calloc(1, sizeof *r);
	assert_int_equal(sim_rig_parse("[rig]\nname = x\n[rig]\nname = y\n", "r.rig", r, err,
				       sizeof err), -EINVAL);
	assert_non_null(strstr(err, "section [rig] given twice"));
	free(r);
}

static void
test_rate_floor(void **state)
{
	(void)state;
	struct sim_drive_model m;
	char err[512];
	char text[2048];
	const char *r = strstr(good, "rate = "), *after = strstr(good, "access_ms");
	snprintf(text, sizeof text, "%.*srate = 0:1e-300 1:1e-300\n%s", (int)(r - good), good,
		 after);
	assert_int_equal(sim_drive_parse(text, "slow.drive", &m, err, sizeof err), -EINVAL);
	printf("%s\n", err);
	assert_non_null(strstr(err, "rate: 1e-300 MB/s at position 0 out of range (0.1..100000"));
	/* a slow region's factor has a floor too */
	assert_int_equal(drive("[flaws]\nslow = 0-99 1e-300\n", NULL, err, sizeof err, &m), -EINVAL);
	assert_non_null(strstr(err, "slow: needs a rate factor in [0.001, 1]"));
}

/* END = 2^64-1 wrapped END+1 to 0: a range that silently did nothing. */
static void
test_flaw_range_wrap(void **state)
{
	(void)state;
	struct sim_drive_model m;
	char err[512];
	assert_int_equal(drive("[flaws]\nunreadable = 100-18446744073709551615\n", NULL, err,
			       sizeof err, &m), -EINVAL);
	printf("%s\n", err);
	assert_non_null(strstr(err, "unreadable: range ends past the last LBA"));
	assert_int_equal(drive("[flaws]\nslow = 5-18446744073709551615 0.5\n", NULL, err,
			       sizeof err, &m), -EINVAL);
	assert_non_null(strstr(err, "slow: range ends past the last LBA"));
}

/* Every service time is positive and bounded, whatever the model. */
static void
test_service_time_bounded(void **state)
{
	(void)state;
	struct sim_drive_model m;
	char err[512];
	assert_int_equal(drive("[flaws]\nslow = 0-2047 0.001 60000\nerror_ms = 120000\n"
			       "unreadable = 4096-4096\n", NULL, err, sizeof err, &m), 0);
	struct sim_drive *d;
	assert_int_equal(sim_drive_new(&m, NULL, "t", 1, &d), 0);
	int res;
	uint64_t ns = sim_drive_service(d, 0, 1u << 20, false, false, &res);
	assert_true(ns > 0 && ns <= (uint64_t)(SIM_MAX_IO_S * 1e9));
	ns = sim_drive_service(d, 4096 * 512, 512, false, false, &res);
	assert_int_equal(res, -EIO);
	assert_true(ns > 0 && ns <= (uint64_t)(SIM_MAX_IO_S * 1e9));
	sim_drive_free(d);

	/* the slowest model allowed: 0.1 MB/s x 0.001 = 100 B/s, so 1 MiB would
	 * take ~3 hours; one I/O is capped at SIM_MAX_IO_S */
	char text[2048];
	const char *r = strstr(good, "rate = "), *after = strstr(good, "access_ms");
	snprintf(text, sizeof text, "%.*srate = 0:0.1 1:0.1\n%s[flaws]\nslow = 0-4095 0.001\n",
		 (int)(r - good), good, after);
	assert_int_equal(sim_drive_parse(text, "crawl.drive", &m, err, sizeof err), 0);
	assert_int_equal(sim_drive_new(&m, NULL, "c", 1, &d), 0);
	ns = sim_drive_service(d, 0, 1u << 20, false, false, &res);
	assert_int_equal(ns, (uint64_t)(SIM_MAX_IO_S * 1e9));
	sim_drive_free(d);
}

static void
test_fifo_and_directory(void **state)
{
	(void)state;
	char dir[] = "/tmp/ds-sim-hostile-XXXXXX", path[128], err[512];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/f.drive", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	/* no writer: open() without O_NONBLOCK would wait here forever */
	assert_int_equal(sim_check_file(path, err, sizeof err), -EINVAL);
	printf("%s\n", err);
	assert_non_null(strstr(err, "f.drive: not a regular file (fifo)"));
	assert_true(sim_model_add_file(path, err, sizeof err) < 0);
	assert_non_null(strstr(err, "not a regular file (fifo)"));
	unlink(path);
	snprintf(path, sizeof path, "%s/d.drive", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(sim_check_file(path, err, sizeof err), -EISDIR);
	assert_non_null(strstr(err, "d.drive: is a directory"));
	rmdir(path);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rig_vertical_space),
		cmocka_unit_test(test_section_twice),
		cmocka_unit_test(test_rate_floor),
		cmocka_unit_test(test_flaw_range_wrap),
		cmocka_unit_test(test_service_time_bounded),
		cmocka_unit_test(test_fifo_and_directory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
