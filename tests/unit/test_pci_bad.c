/* test_pci_bad - bad input to the controller scan: a malformed dump line, an
 * unterminated last line, a truncated 64-byte config, a nonexistent / empty
 * / directory / text-only dump, a missing or corrupt pci.ids, sysfs trees
 * with missing parts.  Each gives one note naming the thing and the reason,
 * the rest still shows, nothing exits.  Also the live bus against sysfs. */
#include <dirent.h>
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
#include "inventory/inventory.h"
#include "inventory/pci.h"

static char fix[PATH_MAX];		/* tests/fixtures/pci */
static char tmpdir[] = "/tmp/ds-pci-bad-XXXXXX";

static int
find_fixtures(void)
{
	return test_fixture_dir(fix, sizeof fix, "pci");
}

static void
fixture(char *buf, size_t n, const char *name)
{
	assert_true((size_t)snprintf(buf, n, "%s/%s", fix, name) < n);
}

static const struct controller *
ctrl_at(const struct inventory *inv, const char *addr)
{
	for (size_t i = 0; i < inv->n_ctrl; i++)
		if (strcmp(inv->ctrl[i].address, addr) == 0)
			return &inv->ctrl[i];
	return NULL;
}

/* The one note that mentions both strings. */
static const char *
note_with(const struct inventory *inv, const char *a, const char *b)
{
	const char *hit = NULL;
	for (size_t i = 0; i < inv->notes.n; i++)
		if (strstr(inv->notes.v[i], a) && (!b || strstr(inv->notes.v[i], b))) {
			assert_null(hit);	/* one line, not several */
			hit = inv->notes.v[i];
		}
	return hit;
}

static void
print_notes(const struct inventory *inv)
{
	for (size_t i = 0; i < inv->notes.n; i++)
		printf("  note: %s\n", inv->notes.v[i]);
}

/* ---- dumps ---- */

static void
test_malformed_line(void **state)
{
	(void)state;
	char path[PATH_MAX + 64];
	fixture(path, sizeof path, "malformed-line.dump");
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, path, NULL), 0);
	print_notes(&inv);
	/* which line, and why (libpci itself names neither) */
	assert_non_null(note_with(&inv, path, "line 19: 304 characters"));
	assert_int_equal(inv.notes.n, 1);
	assert_true(inv.incomplete);
	/* The function before the bad line still shows, decoded. */
	assert_int_equal(inv.n_ctrl, 1);
	assert_string_equal(inv.ctrl[0].address, "0000:00:1f.2");
	assert_int_equal(inv.ctrl[0].class_code, 0x010601);
	assert_false(inv.ctrl[0].link.known);
	inventory_free(&inv);
}

static void
test_unterminated(void **state)
{
	(void)state;
	char path[PATH_MAX + 64];
	fixture(path, sizeof path, "unterminated.dump");
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, path, NULL), 0);
	print_notes(&inv);
	assert_non_null(note_with(&inv, path, "unterminated"));
	/* Everything up to the last line was read: the NVMe and its link. */
	const struct controller *c = ctrl_at(&inv, "0000:01:00.0");
	assert_non_null(c);
	assert_true(c->link.known);
	assert_true(c->link.ceiling_mbps == 985 * 4);
	inventory_free(&inv);
}

static void
test_truncated_64(void **state)
{
	(void)state;
	char path[PATH_MAX + 64];
	fixture(path, sizeof path, "truncated-64.dump");
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, path, NULL), 0);
	print_notes(&inv);
	assert_null(note_with(&inv, path, NULL));	/* a valid dump: no complaint */
	assert_int_equal(inv.n_ctrl, 2);
	/* The header is there (ids, class) but no capability list: link n/a. */
	const struct controller *ahci = ctrl_at(&inv, "0000:00:1f.2");
	assert_non_null(ahci);
	assert_string_equal(ahci->id, "ctrl0");
	assert_int_equal(ahci->vendor_id, 0x8086);
	assert_int_equal(ahci->device_id, 0x2829);
	assert_int_equal(ahci->class_code, 0x010601);
	assert_false(ahci->link.known);
	assert_memory_equal(ahci->link.reason, "no PCIe capability", 18);
	assert_non_null(strstr(ahci->link.reason, "64 bytes"));
	assert_true(ahci->link.ceiling_mbps == 0 && ahci->link.sta_width == 0);
	assert_false(ahci->narrowest.known);
	/* The rest still shows. */
	const struct controller *nvme = ctrl_at(&inv, "0000:01:00.0");
	assert_non_null(nvme);
	assert_string_equal(nvme->id, "ctrl1");
	assert_true(nvme->link.known);
	assert_string_equal(nvme->link_from, "0000:01:00.0");
	inventory_free(&inv);
}

static void
test_nonexistent(void **state)
{
	(void)state;
	char path[PATH_MAX + 64];
	fixture(path, sizeof path, "no-such.dump");
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, path, NULL), -ENOENT);
	print_notes(&inv);
	assert_int_equal(inv.notes.n, 1);
	assert_non_null(note_with(&inv, path, strerror(ENOENT)));
	assert_int_equal(inv.n_ctrl, 0);
	struct pci_link l;
	assert_int_equal(pci_link_at(path, "00:1f.2", &l), -ENOENT);
	inventory_free(&inv);

	/* A directory is no dump either. */
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, fix, NULL), -EISDIR);
	assert_non_null(note_with(&inv, fix, "is a directory"));
	inventory_free(&inv);
}

/* An empty file, and `lspci -vv` text given instead of a hex dump. */
static void
test_empty_and_text(void **state)
{
	(void)state;
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/empty.dump", tmpdir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, path, NULL), 0);
	print_notes(&inv);
	assert_non_null(note_with(&inv, path, "no PCI functions"));
	assert_int_equal(inv.n_ctrl, 0);
	inventory_free(&inv);
	unlink(path);

	snprintf(path, sizeof path, "%s/text.dump", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("01:00.0 Non-Volatile memory controller: Samsung NVMe SSD\n"
	      "\tLnkSta:\tSpeed 8GT/s, Width x4\n\n", f);
	fclose(f);
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, path, NULL), 0);
	print_notes(&inv);
	assert_non_null(note_with(&inv, path, "without config bytes"));
	assert_int_equal(inv.n_ctrl, 0);
	inventory_free(&inv);
	unlink(path);
}

/* ---- pci.ids ---- */

static void
test_pci_ids(void **state)
{
	(void)state;
	char path[PATH_MAX + 64], ids[PATH_MAX + 64];
	fixture(path, sizeof path, "truncated-64.dump");
	struct inventory inv;

	/* Missing: a note, numeric names, the links still there. */
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan_ids(&inv, path, NULL, "/nonexistent/dir/pci.ids"), 0);
	print_notes(&inv);
	assert_int_equal(inv.notes.n, 1);
	assert_non_null(note_with(&inv, "pci.ids not found", "install pci.ids"));
	assert_int_equal(inv.n_ctrl, 2);
	assert_string_equal(ctrl_at(&inv, "0000:00:1f.2")->name, "[8086:2829]");
	assert_string_equal(ctrl_at(&inv, "0000:00:1f.2")->class_name, "[0106]");
	assert_string_equal(ctrl_at(&inv, "0000:01:00.0")->name, "[144d:a808]");
	assert_true(ctrl_at(&inv, "0000:01:00.0")->link.known);
	inventory_free(&inv);

	/* Corrupt: libpci's parser error becomes a note naming the line. */
	fixture(ids, sizeof ids, "bad.ids");
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan_ids(&inv, path, NULL, ids), 0);
	print_notes(&inv);
	assert_non_null(note_with(&inv, "bad.ids", "line 2"));
	assert_string_equal(ctrl_at(&inv, "0000:00:1f.2")->name, "[8086:2829]");
	assert_int_equal(inv.n_ctrl, 2);
	inventory_free(&inv);

	/* A small valid list: names come from it. */
	fixture(ids, sizeof ids, "small.ids");
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan_ids(&inv, path, NULL, ids), 0);
	print_notes(&inv);
	assert_int_equal(inv.notes.n, 0);
	assert_string_equal(ctrl_at(&inv, "0000:00:1f.2")->name, "Fixture Vendor Fixture SATA AHCI");
	assert_string_equal(ctrl_at(&inv, "0000:00:1f.2")->class_name, "Fixture SATA class");
	assert_string_equal(ctrl_at(&inv, "0000:01:00.0")->name, "Fixture Flash Fixture NVMe");
	inventory_free(&inv);
}

/* ---- sysfs trees (made here) ---- */

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
mk(const char *path)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s", path);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
}

/* sysfs function at devices/pci0000:00/PATH (PATH ends in its address),
 * linked from bus/pci/devices, with ids and class. */
static void
sysfs_fn(const char *root, const char *path, const char *vendor, const char *device,
	 const char *cls, char *dev, size_t n)
{
	char p[PATH_MAX * 2], q[PATH_MAX];
	const char *addr = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	snprintf(dev, n, "%s/devices/pci0000:00/%s", root, path);
	mk(dev);
	snprintf(q, sizeof q, "%s/bus/pci/devices", root);
	mk(q);
	snprintf(p, sizeof p, "%s/%s", q, addr);
	snprintf(q, sizeof q, "../../../devices/pci0000:00/%s", path);
	assert_int_equal(symlink(q, p), 0);
	put(dev, "vendor", vendor);
	put(dev, "device", device);
	put(dev, "class", cls);
}

static void
sysfs_link_attrs(const char *dev, const char *max, const char *cur, const char *maxw,
		 const char *curw)
{
	put(dev, "max_link_speed", max);
	put(dev, "current_link_speed", cur);
	put(dev, "max_link_width", maxw);
	put(dev, "current_link_width", curw);
}

/* Functions without readable config (like sysfs read as non-root, or a
 * copied tree): ids and class from sysfs files, links from the kernel's
 * link attributes, the parent from the device path.  An AHCI with a driver,
 * a NUMA node and its own link; a virtio block device with numa_node -1 and
 * nothing else; a RAID card without link attributes behind a root port. */
static void
test_sysfs_tree(void **state)
{
	(void)state;
	char root[256], dev[PATH_MAX], p[PATH_MAX * 2], q[PATH_MAX];
	snprintf(root, sizeof root, "%s/sys", tmpdir);
	sysfs_fn(root, "0000:00:1f.2", "0x8086\n", "0x2829\n", "0x010601\n", dev, sizeof dev);
	put(dev, "numa_node", "1\n");
	snprintf(q, sizeof q, "%s/bus/pci/drivers/ahci", root);
	mk(q);
	snprintf(p, sizeof p, "%s/driver", dev);
	assert_int_equal(symlink("../../../bus/pci/drivers/ahci", p), 0);
	sysfs_link_attrs(dev, "8.0 GT/s PCIe\n", "5.0 GT/s PCIe\n", "4\n", "4\n");
	sysfs_fn(root, "0000:00:05.0", "0x1af4\n", "0x1042\n", "0x018000\n", dev, sizeof dev);
	put(dev, "numa_node", "-1\n");
	sysfs_fn(root, "0000:00:1c.0", "0x8086\n", "0x9d10\n", "0x060400\n", dev, sizeof dev);
	sysfs_link_attrs(dev, "8.0 GT/s PCIe\n", "2.5 GT/s PCIe\n", "4\n", "1\n");
	sysfs_fn(root, "0000:00:1c.0/0000:01:00.0", "0x9005\n", "0x0285\n", "0x010400\n", dev,
		 sizeof dev);

	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, NULL, root), 0);
	print_notes(&inv);
	assert_int_equal(inv.n_ctrl, 3);
	const struct controller *v = &inv.ctrl[0], *a = &inv.ctrl[1], *r = &inv.ctrl[2];
	assert_string_equal(v->address, "0000:00:05.0");	/* bus order */
	assert_string_equal(a->address, "0000:00:1f.2");
	assert_string_equal(r->address, "0000:01:00.0");
	assert_string_equal(a->driver, "ahci");
	assert_true(a->driver_known);
	assert_true(a->numa_node.known && a->numa_node.v == 1);
	assert_true(a->link.known);
	assert_true(a->link.cap_gts == 8 && a->link.sta_gts == 5 && a->link.sta_width == 4);
	assert_true(a->link.downgraded);
	assert_true(a->link.ceiling_mbps == 2000);
	/* numa_node -1 and no driver: unknown, never node 0 or "-1". */
	assert_false(v->numa_node.known);
	assert_string_equal(v->driver, "");
	assert_true(v->driver_known);		/* known: none bound */
	assert_false(v->link.known);
	assert_memory_equal(v->link.reason, "no PCIe capability", 18);
	/* Fed by its root port, found through the device path. */
	assert_true(r->link.known);
	assert_string_equal(r->link_from, "0000:00:1c.0");
	assert_true(r->link.ceiling_mbps == 250);
	assert_true(r->link.downgraded);
	assert_false(r->numa_node.known);
	inventory_free(&inv);

	/* A tree without bus/pci: no controllers, a note, no failure. */
	snprintf(p, sizeof p, "%s/nopci", tmpdir);
	mk(p);
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, NULL, p), 0);
	print_notes(&inv);
	assert_non_null(note_with(&inv, p, "no controllers"));
	assert_int_equal(inv.n_ctrl, 0);
	inventory_free(&inv);
}

/* ---- the live bus, checked against sysfs read independently ---- */
static void
test_live_bus(void **state)
{
	(void)state;
	DIR *d = opendir("/sys/bus/pci/devices");
	if (!d || geteuid() != 0) {
		if (d)
			closedir(d);
		skip();	/* no PCI bus here, or not root (config past 64 bytes unreadable) */
	}
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, NULL, NULL), 0);
	print_notes(&inv);
	size_t want = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char p[PATH_MAX], cls[32], link[PATH_MAX];
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "/sys/bus/pci/devices/%s/class", de->d_name);
		if (read_text(p, cls, sizeof cls) || (strtoul(cls, NULL, 16) >> 16) != 0x01)
			continue;
		want++;
		const struct controller *c = ctrl_at(&inv, de->d_name);
		if (!c)
			fail_msg("live: storage function %s is not a controller", de->d_name);
		printf("  live: %s %s %s [%s] driver %s link %s\n", c->id, c->address, c->name,
		       c->class_name, c->driver[0] ? c->driver : "?",
		       c->link.known ? "known" : c->link.reason);
		assert_int_equal(c->class_code, strtoul(cls, NULL, 16));
		snprintf(p, sizeof p, "/sys/bus/pci/devices/%s/driver", de->d_name);
		ssize_t r = readlink(p, link, sizeof link - 1);
		if (r > 0) {
			link[r] = '\0';
			assert_string_equal(c->driver, strrchr(link, '/') + 1);
		} else {
			assert_string_equal(c->driver, "");
		}
		assert_true(c->driver_known);
		/* A link is known only where the kernel sees a PCIe link too. */
		snprintf(p, sizeof p, "/sys/bus/pci/devices/%s/current_link_width", de->d_name);
		if (c->link.known && strcmp(c->link_from, c->address) == 0) {
			uint64_t w;
			assert_int_equal(read_u64(p, &w), 0);
			assert_int_equal(c->link.sta_width, w);
		}
		if (!c->link.known)
			assert_true(c->link.reason[0] != '\0');
	}
	closedir(d);
	assert_int_equal(inv.n_ctrl, want);
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
	char cmd[PATH_MAX];
	snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	if (find_fixtures() != 0) {
		printf("SKIP: tests/fixtures/pci not found (run from the repository top)\n");
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_malformed_line),
		cmocka_unit_test(test_unterminated),
		cmocka_unit_test(test_truncated_64),
		cmocka_unit_test(test_nonexistent),
		cmocka_unit_test(test_empty_and_text),
		cmocka_unit_test(test_pci_ids),
		cmocka_unit_test(test_sysfs_tree),
		cmocka_unit_test(test_live_bus),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
