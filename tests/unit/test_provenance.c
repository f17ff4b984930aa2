/* test_provenance - the FARM decoders (inventory/farm.c) on the fixtures of
 * tests/fixtures/farm (hand-set from the documented layout with a real
 * drive's published smartctl -l farm figures: README), the SMART
 * comparison's limits, the hidden-capacity decoders (hpa.c) and the USB
 * bridge's name from a sysfs tree (usb-bridge.c). */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "test_top.h"
#include "inventory/farm.h"

static char fix[PATH_MAX];

static size_t
load(const char *name, uint8_t *buf, size_t n)
{
	char path[PATH_MAX];
	assert_true((size_t)snprintf(path, sizeof path, "%s/%s", fix, name) < sizeof path);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t got = fread(buf, 1, n, f);
	fclose(f);
	return got;
}

#define assert_known(k, val) do { assert_true((k).known); assert_int_equal((k).v, (val)); } while (0)

static uint8_t ata[FARM_ATA_SIZE];

/* smartctl's figures of the same drive (README: issue #616) */
static void
test_ata_farm(void **st)
{
	(void)st;
	struct farm_info f;
	assert_int_equal(load("ata-st4000vn006.bin", ata, sizeof ata), FARM_ATA_SIZE);
	assert_int_equal(farm_ata_decode(ata, sizeof ata, &f), 0);
	assert_true(f.known);
	assert_known(f.major, 1);
	assert_known(f.minor, 9);
	assert_string_equal(f.serial, "WW60N2JG");
	assert_string_equal(f.firmware, "SC60");
	assert_string_equal(f.model, "");	/* that firmware's log has none */
	assert_known(f.heads, 4);
	assert_known(f.power_on_hours, 31383);
	assert_known(f.spindle_hours, 31378);
	assert_known(f.head_flight_hours, 31378);
	assert_known(f.power_cycles, 21);
	assert_string_equal(f.assembly, "2051");
	assert_int_equal(f.n_head_hours, 4);
	assert_known(f.head_hours[0], 31100);
	assert_known(f.head_hours[3], 31080);
	assert_false(f.head_hours[4].known);
	assert_string_equal(f.source, "ATA log 0xA6");
}

static void
test_ata_farm_bad(void **st)
{
	(void)st;
	struct farm_info f;
	assert_int_equal(load("ata-st4000vn006.bin", ata, sizeof ata), FARM_ATA_SIZE);
	/* two pages: header and drive information decode, no head hours */
	assert_int_equal(farm_ata_decode(ata, 2 * FARM_ATA_PAGE, &f), 0);
	assert_known(f.power_on_hours, 31383);
	assert_int_equal(f.n_head_hours, 0);
	assert_int_equal(farm_ata_decode(ata, 2 * FARM_ATA_PAGE - 1, &f), -EINVAL);
	assert_false(f.known);
	assert_non_null(strstr(f.reason, "too short"));
	assert_int_equal(farm_ata_decode(NULL, 0, &f), -EINVAL);
	/* a field without its valid bits is unknown, not 0 */
	ata[FARM_ATA_PAGE + 8 * 19 + 7] = 0x80;	/* power-on hours: supported, not valid */
	assert_int_equal(farm_ata_decode(ata, sizeof ata, &f), 0);
	assert_false(f.power_on_hours.known);
	ata[0] ^= 0xFF;				/* the signature */
	assert_int_equal(farm_ata_decode(ata, sizeof ata, &f), -EINVAL);
	assert_non_null(strstr(f.reason, "no FARM signature"));
}

static void
test_scsi_farm(void **st)
{
	(void)st;
	uint8_t p[1024];
	struct farm_info f;
	size_t n = load("scsi-st8000nm0055.bin", p, sizeof p);
	assert_int_equal(n, 440);
	assert_int_equal(farm_scsi_decode(p, n, &f), 0);
	assert_known(f.major, 4);
	assert_known(f.minor, 21);
	assert_string_equal(f.serial, "ZA1SAS00");
	assert_string_equal(f.firmware, "E004");
	assert_string_equal(f.model, "ST8000NM0055");
	assert_known(f.heads, 16);
	assert_known(f.power_on_hours, 40123);
	assert_known(f.power_cycles, 77);
	assert_string_equal(f.assembly, "1912");
	assert_false(f.spindle_hours.known);
	/* truncated in parameter 1: the header decodes, the drive facts do not */
	assert_int_equal(farm_scsi_decode(p, 4 + 76 + 100, &f), 0);
	assert_false(f.power_on_hours.known);
	/* another page, or no signature */
	p[1] = 0x02;
	assert_int_equal(farm_scsi_decode(p, n, &f), -EINVAL);
	p[1] = 0x03;
	p[8 + 7] ^= 1;
	assert_int_equal(farm_scsi_decode(p, n, &f), -EINVAL);
	assert_int_equal(farm_scsi_decode(p, 3, &f), -EINVAL);
}

static void
test_compare(void **st)
{
	(void)st;
	struct farm_info f = { .known = true };
	char msg[256], b[32];
	KNOWN_SET(f.power_on_hours, 23114);
	snprintf(f.serial, sizeof f.serial, "ZA1USED0");
	struct known_u64 s9 = known_u64_of(212);
	assert_int_equal(farm_compare(&f, &s9, "SMART 9", "ZA1USED0", msg, sizeof msg), 1);
	assert_string_equal(msg, "SMART 9 says 212 h, FARM says 23,114 h");
	/* the limit: max(48 h, 2 % of the larger) */
	KNOWN_SET(f.power_on_hours, 1000);
	s9.v = 1048;
	assert_int_equal(farm_compare(&f, &s9, NULL, NULL, msg, sizeof msg), 0);
	s9.v = 1049;
	assert_int_equal(farm_compare(&f, &s9, NULL, NULL, msg, sizeof msg), 1);
	KNOWN_SET(f.power_on_hours, 10000);
	s9.v = 10204;	/* 2 % of 10204 is 204 */
	assert_int_equal(farm_compare(&f, &s9, NULL, NULL, msg, sizeof msg), 0);
	s9.v = 10205;
	assert_int_equal(farm_compare(&f, &s9, NULL, NULL, msg, sizeof msg), 1);
	/* serials: blanks and case aside; a SAS serial that starts with FARM's 8 */
	s9.v = 10000;
	assert_int_equal(farm_compare(&f, &s9, NULL, " za1used0 ", msg, sizeof msg), 0);
	assert_int_equal(farm_compare(&f, &s9, NULL, "ZA1USED00000C1234", msg, sizeof msg), 0);
	assert_int_equal(farm_compare(&f, &s9, NULL, "ZA1OTHER", msg, sizeof msg), 1);
	assert_string_equal(msg, "serial ZA1OTHER, FARM's serial ZA1USED0");
	s9.v = 5;
	assert_int_equal(farm_compare(&f, &s9, "SMART 9", "ZA1OTHER", msg, sizeof msg), 2);
	assert_string_equal(msg, "SMART 9 says 5 h, FARM says 10,000 h; serial ZA1OTHER, FARM's serial ZA1USED0");
	/* unknown is no mismatch */
	s9.known = false;
	assert_int_equal(farm_compare(&f, &s9, NULL, NULL, msg, sizeof msg), 0);
	f.known = false;
	assert_int_equal(farm_compare(&f, &s9, NULL, "X", msg, sizeof msg), 0);
	assert_string_equal(farm_thousands(1234567, b, sizeof b), "1,234,567");
	assert_string_equal(farm_thousands(999, b, sizeof b), "999");
	assert_string_equal(farm_thousands(0, b, sizeof b), "0");
}

static void
test_hpa(void **st)
{
	(void)st;
	/* 28-bit: device bits 3:0 on top; 48-bit: the upper bytes */
	assert_int_equal(hpa_native_lba(false, 0xAF, 0x6D, 0x74, 0xE1, 0, 0, 0), 0x1746DAF);
	assert_int_equal(hpa_native_lba(true, 0xAF, 0x6D, 0x70, 0x40, 0x74, 0x01, 0x00), 0x174706DAFull);
	struct hidden_capacity h = { 0 };
	char t[200];
	h.reported = known_u64_of(1953525168);
	h.native = known_u64_of(1953525168);
	h.logical = known_u64_of(512);
	hpa_judge(&h);
	assert_true(h.known);
	assert_known(h.hidden, 0);
	assert_string_equal(hpa_text(&h, t, sizeof t), "hidden capacity: none");
	h.reported.v = 1953525168 - 2097152;
	hpa_judge(&h);
	assert_string_equal(hpa_text(&h, t, sizeof t), "hidden capacity: 2097152 sectors (1.07 GB) by HPA");
	/* the DCO fixture: 1000000 more past the native max */
	uint8_t d[512];
	uint64_t max = 0;
	char r[96];
	assert_int_equal(load("dco-1tb-hidden.bin", d, sizeof d), 512);
	assert_int_equal(hpa_dco_max(d, &max, r, sizeof r), 0);
	assert_int_equal(max, 1954525167);
	h.dco = known_u64_of(max + 1);
	hpa_judge(&h);
	assert_known(h.hidden, 2097152 + 1000000);
	assert_string_equal(h.source, "HPA+DCO");
	h.reported.v = 1953525168;
	hpa_judge(&h);
	assert_string_equal(hpa_text(&h, t, sizeof t), "hidden capacity: 1000000 sectors (0.51 GB) by DCO");
	assert_int_equal(load("dco-bad-checksum.bin", d, sizeof d), 512);
	assert_int_equal(hpa_dco_max(d, &max, r, sizeof r), -EINVAL);
	assert_string_equal(r, "DCO data checksum mismatch (word 255)");
	d[0] = 1;
	assert_int_equal(hpa_dco_max(d, &max, r, sizeof r), -EINVAL);
	/* unknown: with its reason */
	struct hidden_capacity u = { 0 };
	u.reported = known_u64_of(100);
	snprintf(u.reason, sizeof u.reason, "READ NATIVE MAX ADDRESS: drive aborted command 0xf8");
	hpa_judge(&u);
	assert_false(u.known);
	assert_string_equal(hpa_text(&u, t, sizeof t),
			    "hidden capacity: unknown (READ NATIVE MAX ADDRESS: drive aborted command 0xf8)");
}

static void
put(const char *dir, const char *name, const char *text)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
test_usb_bridge(void **st)
{
	(void)st;
	char root[] = "/tmp/ds-usbbr-XXXXXX", usb[256], disk[PATH_MAX], out[256];
	assert_non_null(mkdtemp(root));
	snprintf(usb, sizeof usb, "%s/usb2/2-1", root);
	snprintf(disk, sizeof disk, "%s/2-1:1.0/host3/target3:0:0/3:0:0:0/block/sdb", usb);
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "mkdir -p %s", disk);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(usb_bridge_name(disk, out, sizeof out), -ENOENT);
	put(usb, "idVendor", "46f4\n");
	put(usb, "idProduct", "0001\n");
	assert_int_equal(usb_bridge_name(disk, out, sizeof out), 0);
	assert_string_equal(out, "46f4:0001");
	put(usb, "product", "QEMU USB HARDDRIVE\n");
	usb_bridge_reason(disk, "ATA PASS-THROUGH(16) refused", out, sizeof out);
	assert_string_equal(out, "no pass-through through this bridge (46f4:0001, QEMU USB HARDDRIVE): "
			    "ATA PASS-THROUGH(16) refused");
	usb_bridge_reason("", NULL, out, sizeof out);
	assert_string_equal(out, "no pass-through through this bridge (USB ids not found in sysfs)");
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	if (test_fixture_dir(fix, sizeof fix, "farm") != 0) {
		printf("SKIP: tests/fixtures/farm not found (run from the repository top)\n");
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ata_farm),
		cmocka_unit_test(test_ata_farm_bad),
		cmocka_unit_test(test_scsi_farm),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_hpa),
		cmocka_unit_test(test_usb_bridge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
