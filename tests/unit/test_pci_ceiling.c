/* test_pci_ceiling - PCIe bandwidth ceilings: the per-lane table, every
 * speed x width through a generated libpci dump, reserved codes and x0 as
 * unknown (never 0), LnkCap2, and the narrowest link on a path
 * (tests/fixtures/pci/narrow-path.dump). */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "test_top.h"
#include "inventory/inventory.h"
#include "inventory/pci.h"

/* The spec's figures (FIELD-NOTES "PCIe links"), not the code's table. */
static const struct {
	unsigned code;
	double gts, lane;
} spec[] = {
	{ 1, 2.5, 250 }, { 2, 5, 500 }, { 3, 8, 985 },
	{ 4, 16, 1969 }, { 5, 32, 3938 }, { 6, 64, 7380 },
};
static const unsigned widths[] = { 1, 2, 4, 8, 12, 16, 32 };

static char tmpdir[] = "/tmp/ds-pci-ceiling-XXXXXX";

/* ---- generated dumps ---- */
struct dev {
	unsigned bus;
	unsigned ver;			/* PCIe capability version */
	unsigned cap_code, cap_w, sta_code, sta_w;
	uint32_t lnkcap2;
};

static void
put_dev(FILE *f, const struct dev *d)
{
	uint8_t c[256] = { 0 };
	c[0] = 0x34, c[1] = 0x12, c[2] = 0x78, c[3] = 0x56;
	c[0x06] = 0x10;				/* capability list */
	c[0x09] = 0x02, c[0x0a] = 0x08, c[0x0b] = 0x01;	/* NVMe */
	c[0x34] = 0x40;
	c[0x40] = 0x10;				/* PCI Express, last */
	c[0x42] = (uint8_t)d->ver;		/* endpoint */
	uint32_t lnkcap = d->cap_code | d->cap_w << 4;
	uint16_t lnksta = (uint16_t)(d->sta_code | d->sta_w << 4);
	memcpy(&c[0x4c], &lnkcap, 4);
	memcpy(&c[0x52], &lnksta, 2);
	memcpy(&c[0x6c], &d->lnkcap2, 4);	/* read only when ver >= 2 */
	fprintf(f, "%02x:00.0 Non-Volatile memory controller: generated\n", d->bus);
	for (int off = 0; off < 256; off += 16) {
		fprintf(f, "%02x:", off);
		for (int i = 0; i < 16; i++)
			fprintf(f, " %02x", c[off + i]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void
write_dump(const char *path, const struct dev *devs, size_t n)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		put_dev(f, &devs[i]);
	assert_int_equal(fclose(f), 0);
}

static const struct controller *
ctrl_on_bus(const struct inventory *inv, unsigned bus)
{
	char addr[16];
	snprintf(addr, sizeof addr, "0000:%02x:00.0", bus);
	for (size_t i = 0; i < inv->n_ctrl; i++)
		if (strcmp(inv->ctrl[i].address, addr) == 0)
			return &inv->ctrl[i];
	return NULL;
}

/* ---- tests ---- */

static void
test_lane_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof spec / sizeof spec[0]; i++) {
		assert_true(pcie_speed_gts(spec[i].code) == spec[i].gts);
		assert_true(pcie_lane_mbps(spec[i].gts) == spec[i].lane);
	}
	/* Code 0 and 7..15 are reserved; 16+ does not fit the field. */
	assert_true(pcie_speed_gts(0) == 0);
	for (unsigned c = 7; c <= 16; c++)
		assert_true(pcie_speed_gts(c) == 0);
	assert_true(pcie_speed_gts(UINT_MAX) == 0);
	const double odd[] = { 0, 1, 3, 6.0, 10, 128, -2.5 };
	for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
		assert_true(pcie_lane_mbps(odd[i]) == 0);
}

/* Every speed at every width, trained at that speed and width: ceiling =
 * lane rate x width, not downgraded; and each one trained at x1 (width
 * downgrade) and, above Gen1, one speed lower (speed downgrade). */
static void
test_every_speed_width(void **state)
{
	(void)state;
	struct dev devs[200];
	size_t n = 0;
	unsigned bus = 1;
	for (size_t s = 0; s < sizeof spec / sizeof spec[0]; s++)
		for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
			unsigned c = spec[s].code, wd = widths[w];
			devs[n++] = (struct dev){ bus++, 2, c, wd, c, wd, 0 };
			devs[n++] = (struct dev){ bus++, 2, c, wd, c, 1, 0 };
			if (c > 1)
				devs[n++] = (struct dev){ bus++, 2, c, wd, c - 1, wd, 0 };
		}
	assert_true(n < sizeof devs / sizeof devs[0]);
	char path[256];
	snprintf(path, sizeof path, "%s/speeds.dump", tmpdir);
	write_dump(path, devs, n);

	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, path, NULL), 0);
	assert_int_equal(inv.n_ctrl, n);
	size_t checked = 0;
	for (size_t i = 0; i < n; i++) {
		const struct dev *d = &devs[i];
		const struct controller *c = ctrl_on_bus(&inv, d->bus);
		assert_non_null(c);
		double cap_gts = 0, sta_gts = 0, cap_lane = 0, sta_lane = 0;
		for (size_t s = 0; s < sizeof spec / sizeof spec[0]; s++) {
			if (spec[s].code == d->cap_code)
				cap_gts = spec[s].gts, cap_lane = spec[s].lane;
			if (spec[s].code == d->sta_code)
				sta_gts = spec[s].gts, sta_lane = spec[s].lane;
		}
		assert_true(c->link.known);
		assert_true(c->link.cap_gts == cap_gts);
		assert_true(c->link.sta_gts == sta_gts);
		assert_int_equal(c->link.cap_width, d->cap_w);
		assert_int_equal(c->link.sta_width, d->sta_w);
		assert_true(c->link.ceiling_mbps == sta_lane * d->sta_w);
		assert_true(c->link.cap_ceiling_mbps.known && c->link.cap_ceiling_mbps.v == cap_lane * d->cap_w);
		bool down = d->sta_code < d->cap_code || d->sta_w < d->cap_w;
		assert_int_equal(c->link.downgraded, down);
		assert_string_equal(c->link_from, c->address);
		/* Alone on its path: the narrowest is its own link. */
		assert_true(c->narrowest.known);
		assert_true(c->narrowest.ceiling_mbps == c->link.ceiling_mbps);
		checked++;
	}
	assert_int_equal(checked, n);
	/* Spot values a technician would recognise. */
	const struct controller *x8g2 = NULL;
	for (size_t i = 0; i < n; i++)
		if (devs[i].cap_code == 2 && devs[i].cap_w == 8 && devs[i].sta_w == 8 &&
		    devs[i].sta_code == 2)
			x8g2 = ctrl_on_bus(&inv, devs[i].bus);
	assert_non_null(x8g2);
	assert_true(x8g2->link.ceiling_mbps == 4000);
	inventory_free(&inv);
	unlink(path);
}

/* Reserved speed codes, x0 and reserved widths: link unknown with a reason,
 * never a 0 MB/s ceiling shown as a fact. */
static void
test_unknown_codes(void **state)
{
	(void)state;
	const struct dev devs[] = {
		{ 0x10, 2, 0, 4, 1, 4, 0 },	/* LnkCap speed 0 */
		{ 0x11, 2, 7, 4, 1, 4, 0 },	/* LnkCap speed 7 */
		{ 0x12, 2, 15, 4, 1, 4, 0 },	/* LnkCap speed 15 */
		{ 0x13, 2, 3, 4, 0, 4, 0 },	/* LnkSta speed 0 */
		{ 0x14, 2, 3, 4, 9, 4, 0 },	/* LnkSta speed 9 */
		{ 0x15, 2, 3, 4, 3, 0, 0 },	/* link down: x0 */
		{ 0x16, 2, 3, 0, 3, 4, 0 },	/* LnkCap width x0 */
		{ 0x17, 2, 2, 4, 3, 8, 0 },	/* overdriven: above capability */
	};
	char path[256];
	snprintf(path, sizeof path, "%s/unknown.dump", tmpdir);
	write_dump(path, devs, sizeof devs / sizeof devs[0]);
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, path, NULL), 0);
	assert_int_equal(inv.n_ctrl, sizeof devs / sizeof devs[0]);
	for (unsigned bus = 0x10; bus <= 0x16; bus++) {
		const struct controller *c = ctrl_on_bus(&inv, bus);
		assert_non_null(c);
		assert_false(c->link.known);
		assert_true(c->link.reason[0] != '\0');
		assert_true(c->link.ceiling_mbps == 0);	/* not filled */
		assert_false(c->link.downgraded);
		assert_false(c->narrowest.known);
	}
	assert_non_null(strstr(ctrl_on_bus(&inv, 0x11)->link.reason, "7"));
	assert_non_null(strstr(ctrl_on_bus(&inv, 0x11)->link.reason, "reserved"));
	assert_non_null(strstr(ctrl_on_bus(&inv, 0x14)->link.reason, "LnkSta"));
	assert_non_null(strstr(ctrl_on_bus(&inv, 0x15)->link.reason, "x0"));
	/* Link down still knows what the slot could do. */
	assert_true(ctrl_on_bus(&inv, 0x15)->link.cap_ceiling_mbps.known && ctrl_on_bus(&inv, 0x15)->link.cap_ceiling_mbps.v == 985 * 4);
	const struct controller *over = ctrl_on_bus(&inv, 0x17);
	assert_true(over->link.known);
	assert_false(over->link.downgraded);
	assert_true(over->link.ceiling_mbps == 985 * 8);
	inventory_free(&inv);
	unlink(path);
}

/* LnkCap2: the highest supported speed; read only for capability v2+. */
static void
test_lnkcap2(void **state)
{
	(void)state;
	const struct dev devs[] = {
		{ 0x20, 2, 5, 2, 4, 2, 0x3e },	/* 2.5-32 GT/s */
		{ 0x21, 2, 3, 4, 3, 4, 0x0e },	/* 2.5-8 GT/s */
		{ 0x22, 2, 6, 4, 6, 4, 0x7e },	/* 2.5-64 GT/s */
		{ 0x23, 2, 2, 4, 2, 4, 0 },	/* v2, empty LnkCap2 (pre-3.0) */
		{ 0x24, 1, 1, 1, 1, 1, 0x3e },	/* v1: offset 0x2C is not LnkCap2 */
	};
	char path[256];
	snprintf(path, sizeof path, "%s/cap2.dump", tmpdir);
	write_dump(path, devs, sizeof devs / sizeof devs[0]);
	struct pci_link l;
	assert_int_equal(pci_link_at(path, "20:00.0", &l), 0);
	assert_true(l.cap2_max_gts.known && l.cap2_max_gts.v == 32);
	assert_int_equal(pci_link_at(path, "0000:21:00.0", &l), 0);
	assert_true(l.cap2_max_gts.known && l.cap2_max_gts.v == 8);
	assert_int_equal(pci_link_at(path, "22:00.0", &l), 0);
	assert_true(l.cap2_max_gts.known && l.cap2_max_gts.v == 64);
	assert_true(l.ceiling_mbps == 7380 * 4);
	assert_int_equal(pci_link_at(path, "23:00.0", &l), 0);
	assert_false(l.cap2_max_gts.known);
	assert_int_equal(pci_link_at(path, "24:00.0", &l), 0);
	assert_false(l.cap2_max_gts.known);
	assert_true(l.known && l.ceiling_mbps == 250);
	/* Not there, and not an address. */
	assert_int_equal(pci_link_at(path, "25:00.0", &l), -ENOENT);
	assert_int_equal(pci_link_at(path, "bogus", &l), -EINVAL);
	unlink(path);
}

/* ---- the narrowest link on a path (committed fixture) ---- */
static int
fixture_path(char *buf, size_t n, const char *rel)
{
	char top[PATH_MAX];
	int rc = test_top(top, sizeof top);
	if (rc)
		return rc;
	if ((size_t)snprintf(buf, n, "%.*s/%s", (int)(n / 2), top, rel) >= n)
		return -ENAMETOOLONG;
	return access(buf, R_OK) == 0 ? 0 : -ENOENT;
}

static void
test_narrowest_path(void **state)
{
	(void)state;
	char path[PATH_MAX];
	assert_int_equal(fixture_path(path, sizeof path, "tests/fixtures/pci/narrow-path.dump"), 0);
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, path, NULL), 0);
	/* Two storage functions, in bus order; bridges are not controllers. */
	assert_int_equal(inv.n_ctrl, 2);
	const struct controller *sas = &inv.ctrl[0], *raid = &inv.ctrl[1];
	assert_string_equal(sas->id, "ctrl0");
	assert_string_equal(sas->address, "0000:03:00.0");
	assert_string_equal(raid->id, "ctrl1");
	assert_string_equal(raid->address, "0000:04:02.0");

	/* The HBA's own link is Gen3 x8 and whole ... */
	assert_true(sas->link.known);
	assert_string_equal(sas->link_from, "0000:03:00.0");
	assert_true(sas->link.ceiling_mbps == 985 * 8);
	assert_false(sas->link.downgraded);
	/* ... but the switch's upstream link trained Gen2 x4: 2000 MB/s. */
	assert_true(sas->narrowest.known);
	assert_string_equal(sas->narrowest_at, "0000:01:00.0");
	assert_true(sas->narrowest.ceiling_mbps == 500 * 4);
	assert_true(sas->narrowest.downgraded);
	assert_true(sas->narrowest.cap_ceiling_mbps.known && sas->narrowest.cap_ceiling_mbps.v == 985 * 16);

	/* No PCIe capability of its own: fed by the PCIe-to-PCI bridge. */
	assert_true(raid->link.known);
	assert_string_equal(raid->link_from, "0000:00:1c.0");
	assert_true(raid->link.ceiling_mbps == 250);
	assert_string_equal(raid->narrowest_at, "0000:00:1c.0");

	/* The empty root port: link down, not a 0 MB/s link. */
	struct pci_link l;
	assert_int_equal(pci_link_at(path, "00:1c.4", &l), 0);
	assert_false(l.known);
	assert_non_null(strstr(l.reason, "x0"));
	assert_int_equal(l.cap_width, 1);
	inventory_free(&inv);
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	return rmdir(tmpdir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lane_table),
		cmocka_unit_test(test_every_speed_width),
		cmocka_unit_test(test_unknown_codes),
		cmocka_unit_test(test_lnkcap2),
		cmocka_unit_test(test_narrowest_path),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
