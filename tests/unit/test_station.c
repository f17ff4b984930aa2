/* test_station.c - the bench station's pure parts: uevent decoding (the
 * events measured on Linux 6.18 without udevd: a loop attach is one change
 * to size > 0, a detach changes to size 0; a hot-plugged disk add/remove),
 * slots.ini and matching a drive to its bay, profile files. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "bench/bench.h"
#include "station/hotplug.h"
#include "station/profile.h"
#include "station/slots.h"

static enum hp_kind
dec(const char *action, const char *devtype, const char *name, int size)
{
	struct hp_uevent u = { .action = action, .subsystem = "block", .devtype = devtype, .sysname = name,
			       .size_known = size >= 0, .size_sectors = size > 0 ? (uint64_t)size : 0 };
	struct hp_event ev;
	enum hp_kind k = hotplug_decode(&u, &ev);
	assert_int_equal(k, ev.kind);
	if (k != HP_IGNORE)
		assert_string_equal(ev.name, name);
	return k;
}

static void
decode_events(void **st)
{
	(void)st;
	/* loop attach, detach (two changes, the second DISK_MEDIA_CHANGE=1) */
	assert_int_equal(dec("change", "disk", "loop0", 32768), HP_PRESENT);
	assert_int_equal(dec("change", "disk", "loop0", 0), HP_GONE);
	assert_int_equal(dec("change", "disk", "loop0", 0), HP_GONE);
	/* a hot-plugged disk */
	assert_int_equal(dec("add", "disk", "sdb", 2048), HP_PRESENT);
	assert_int_equal(dec("add", "disk", "sdb", -1), HP_PRESENT);
	assert_int_equal(dec("remove", "disk", "sdb", -1), HP_GONE);
	/* a loop device being created, an empty reader: nothing to test */
	assert_int_equal(dec("add", "disk", "loop7", 0), HP_IGNORE);
	/* partitions, ram disks, a change without a readable size, other actions */
	assert_int_equal(dec("add", "partition", "sdb1", 100), HP_IGNORE);
	assert_int_equal(dec("add", "disk", "zram0", 100), HP_IGNORE);
	assert_int_equal(dec("add", "disk", "ram0", 100), HP_IGNORE);
	assert_int_equal(dec("change", "disk", "sdc", -1), HP_IGNORE);
	assert_int_equal(dec("bind", "disk", "sdc", 100), HP_IGNORE);
	struct hp_uevent net = { .action = "add", .subsystem = "net", .devtype = "disk", .sysname = "eth0" };
	struct hp_event ev;
	assert_int_equal(hotplug_decode(&net, &ev), HP_IGNORE);
	assert_int_equal(hotplug_decode(&(struct hp_uevent){ 0 }, &ev), HP_IGNORE);
}

static void
slots_parse_match(void **st)
{
	(void)st;
	struct slot_table t;
	char err[256] = "";
	assert_int_equal(slots_parse("[bay1]\nport = 0000:00:1f.2 ata3\n"
				     "[bay2]\nport = ata4\n"
				     "[bay3]\nby-path = pci-0000:00:1f.2-ata-5\n"
				     "[loops]\npattern = /srv/bench/disk*\n", "t.ini", &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 4);
	assert_string_equal(t.v[0].label, "bay1");
	assert_string_equal(t.v[0].ctrl, "0000:00:1f.2");
	assert_string_equal(t.v[0].value, "ata3");
	/* a port with a controller wants both */
	assert_int_equal(slots_match(&t, &(struct slot_key){ .port = "ata3", .ctrl = "0000:00:1f.2" }), 0);
	assert_int_equal(slots_match(&t, &(struct slot_key){ .port = "ata3", .ctrl = "0000:05:00.0" }), -ENOENT);
	assert_int_equal(slots_match(&t, &(struct slot_key){ .port = "ata3" }), -ENOENT);
	/* a port alone: any controller */
	assert_int_equal(slots_match(&t, &(struct slot_key){ .port = "ata4", .ctrl = "0000:05:00.0" }), 1);
	assert_int_equal(slots_match(&t, &(struct slot_key){ .by_path = "pci-0000:00:1f.2-ata-5" }), 2);
	assert_int_equal(slots_match(&t, &(struct slot_key){ .by_path = "pci-0000:00:1f.2-ata-6" }), -ENOENT);
	assert_int_equal(slots_match(&t, &(struct slot_key){ .name = "loop3", .backing = "/srv/bench/disk7" }), 3);
	assert_int_equal(slots_match(&t, &(struct slot_key){ .name = "loop3", .backing = "/srv/other/disk7" }),
			 -ENOENT);
	assert_int_equal(slots_match(&t, &(struct slot_key){ .name = "sdz" }), -ENOENT);
	/* a drive at a port no slot names gets one of its own */
	int k = slots_learn(&t, &(struct slot_key){ .name = "sdz", .port = "ata9", .ctrl = "0000:05:00.0" });
	assert_int_equal(k, 4);
	assert_true(t.v[4].learned);
	assert_int_equal(slots_match(&t, &(struct slot_key){ .port = "ata9", .ctrl = "0000:05:00.0" }), 4);
	slots_free(&t);

	/* refusals name the line */
	assert_int_equal(slots_parse("[a]\nport = ata1\nby-path = x\n", "t.ini", &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.ini:3:"));
	assert_int_equal(slots_parse("[a]\nbay = 3\n", "t.ini", &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a slot key"));
	assert_int_equal(slots_parse("port = ata1\n", "t.ini", &t, err, sizeof(err)), -EINVAL);
	assert_int_equal(slots_parse("[a]\nport = ata1\n[b]\nport = ata2\n[a]\nport = ata3\n", "t.ini", &t, err,
				     sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.ini:6:"));
	assert_int_equal(slots_load("/nonexistent/slots.ini", &t, err, sizeof(err)), -ENOENT);
}

static void
profiles(void **st)
{
	(void)st;
	struct profile_set set = { 0 };
	char err[512] = "";
	assert_int_equal(profiles_parse("[p1]\ndescription = two steps\nstep = triage mode=quick samples=200\n"
					"selftest = short\nstep = seqread time=5 bs=64k\n", "p.ini", &set, err,
					sizeof(err)), 0);
	const struct profile *p = profiles_find(&set, "p1");
	assert_non_null(p);
	assert_int_equal(p->n_steps, 3);
	assert_int_equal(p->steps[0].kind, PSTEP_TEST);
	assert_ptr_equal(p->steps[0].test, bench_find("triage"));
	assert_string_equal(p->steps[0].options, "mode=quick samples=200");
	assert_int_equal(p->steps[1].kind, PSTEP_SELFTEST);
	assert_string_equal(p->steps[1].selftest, "short");
	assert_ptr_equal(p->steps[2].test, bench_find("seqread"));
	/* a later file replaces a profile of the same name */
	assert_int_equal(profiles_parse("[p1]\nstep = surface\n", "q.ini", &set, err, sizeof(err)), 0);
	p = profiles_find(&set, "p1");
	assert_int_equal(p->n_steps, 1);
	assert_string_equal(p->origin, "q.ini");
	assert_null(profiles_find(&set, "p2"));
	profiles_free(&set);

	/* an unknown test, a bad option, a bad key, no step: refused with the line */
	assert_int_equal(profiles_parse("[x]\nstep = nosuchtest\n", "p.ini", &set, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "p.ini:2:"));
	assert_non_null(strstr(err, "nosuchtest"));
	profiles_free(&set);
	assert_int_equal(profiles_parse("[x]\n\nstep = triage mode=sideways\n", "p.ini", &set, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "p.ini:3:"));
	profiles_free(&set);
	assert_int_equal(profiles_parse("[x]\nrun = triage\n", "p.ini", &set, err, sizeof(err)), -EINVAL);
	profiles_free(&set);
	assert_int_equal(profiles_parse("[x]\nselftest = medium\n", "p.ini", &set, err, sizeof(err)), -EINVAL);
	profiles_free(&set);
	assert_int_equal(profiles_parse("[x]\ndescription = nothing to do\n", "p.ini", &set, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "no step"));
	profiles_free(&set);

	/* the shipped ones load and name registry tests */
	assert_int_equal(profiles_load(NULL, &set, err, sizeof(err)), 0);
	p = profiles_find(&set, "quick-check");
	assert_non_null(p);
	assert_int_equal(p->steps[0].kind, PSTEP_TEST);
	assert_non_null(p->steps[0].test);
	assert_non_null(profiles_find(&set, "full"));
	profiles_free(&set);
	assert_int_equal(profiles_load("/nonexistent/p.ini", &set, err, sizeof(err)), -ENOENT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decode_events),
		cmocka_unit_test(slots_parse_match),
		cmocka_unit_test(profiles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
