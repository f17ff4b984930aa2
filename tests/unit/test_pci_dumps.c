/* test_pci_dumps - every real libpci dump in ../shared/realdata/lspci decoded
 * by pci.c and compared with the `lspci -vvnn` text beside it (lspci-vvv/):
 * each PCIe link's speed, width and downgraded state, LnkCap2, and every
 * storage controller with the link that feeds it and the narrowest link on
 * its path to the root, the path rebuilt from the text's bridge lines. */
#include <ctype.h>
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
#include <unistd.h>
#include <cmocka.h>
#include "test_top.h"
#include "inventory/inventory.h"
#include "inventory/pci.h"

/* Per-lane MB/s from the spec (FIELD-NOTES "PCIe links"). */
static double
spec_lane(double gts)
{
	static const double t[][2] = { { 2.5, 250 }, { 5, 500 }, { 8, 985 },
				       { 16, 1969 }, { 32, 3938 }, { 64, 7380 } };
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i][0] == gts)
			return t[i][1];
	return 0;
}

/* ---- the lspci -vvnn text, parsed ---- */
struct tdev {
	char addr[16];			/* DDDD:BB:DD.F */
	unsigned dom, bus;
	unsigned cls;			/* [0106] */
	char class_name[64];
	unsigned vid, did;
	bool express;			/* has an Express capability line */
	char type[48];			/* "Endpoint", "Root Port", ... */
	bool lnk;			/* LnkCap/LnkSta printed */
	double cap_gts, sta_gts;	/* 0 = lspci said "unknown" */
	unsigned cap_w, sta_w;
	bool said_down;			/* lspci printed "(downgraded)" */
	bool cap2;
	double cap2_max;
	int secondary;			/* bridges: secondary bus, else -1 */
};

struct text {
	struct tdev *d;
	size_t n;
};

static bool
is_header(const char *s)
{
	unsigned a, b, c, e;
	char sp;
	if (!isxdigit((unsigned char)s[0]))
		return false;
	/* "BB:DD.F " or "DDDD:BB:DD.F " at column 0 */
	if (sscanf(s, "%4x:%2x:%2x.%1x%c", &a, &b, &c, &e, &sp) == 5 && sp == ' ')
		return true;
	return sscanf(s, "%2x:%2x.%1x%c", &a, &b, &c, &sp) == 4 && sp == ' ' && s[2] == ':';
}

/* "Speed 5GT/s" -> 5; "Speed unknown" -> 0 */
static double
parse_speed(const char *s)
{
	const char *p = strstr(s, "Speed ");
	if (!p)
		return -1;
	return strtod(p + 6, NULL);
}

static unsigned
parse_width(const char *s)
{
	const char *p = strstr(s, "Width x");
	return p ? (unsigned)strtoul(p + 7, NULL, 10) : 0;
}

static void
parse_header(const char *line, struct tdev *t)
{
	unsigned dom = 0, bus, dev, fn;
	const char *rest;
	if (line[4] == ':') {
		sscanf(line, "%x:%x:%x.%x", &dom, &bus, &dev, &fn);
		rest = line + 13;
	} else {
		sscanf(line, "%x:%x.%x", &bus, &dev, &fn);
		rest = line + 8;
	}
	snprintf(t->addr, sizeof t->addr, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	t->dom = dom;
	t->bus = bus;
	t->secondary = -1;
	/* "<class name> [cccc]: <name> [vvvv:dddd] ..." */
	const char *cb = strstr(rest, "]: ");
	assert_non_null(cb);
	const char *ob = cb - 5;
	assert_true(ob > rest && *ob == '[');
	snprintf(t->class_name, sizeof t->class_name, "%.*s", (int)(ob - 1 - rest), rest);
	t->cls = (unsigned)strtoul(ob + 1, NULL, 16);
	for (const char *p = cb + 3; (p = strchr(p, '[')); p++) {
		unsigned v, d;
		char close;
		if (strlen(p) >= 11 && p[5] == ':' &&
		    sscanf(p, "[%4x:%4x%c", &v, &d, &close) == 3 && close == ']') {
			t->vid = v;
			t->did = d;
			break;
		}
	}
}

static void
parse_text(const char *path, struct text *tx)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[1024];
	struct tdev *cur = NULL;
	memset(tx, 0, sizeof *tx);
	while (fgets(line, sizeof line, f)) {
		if (is_header(line)) {
			tx->d = realloc(tx->d, (tx->n + 1) * sizeof *tx->d);
			assert_non_null(tx->d);
			cur = &tx->d[tx->n++];
			memset(cur, 0, sizeof *cur);
			parse_header(line, cur);
			continue;
		}
		if (!cur)
			continue;
		const char *p;
		if ((p = strstr(line, "\tBus: primary=")) && (p = strstr(p, "secondary=")))
			cur->secondary = (int)strtoul(p + 10, NULL, 16);
		else if ((p = strstr(line, "] Express (v")) && (p = strchr(p, ')'))) {
			cur->express = true;
			snprintf(cur->type, sizeof cur->type, "%.*s", (int)strcspn(p + 2, ",("),
				 p + 2);
		} else if (strstr(line, "\t\tLnkCap:\t")) {
			cur->lnk = true;
			cur->cap_gts = parse_speed(line);
			cur->cap_w = parse_width(line);
		} else if (strstr(line, "\t\tLnkSta:\t")) {
			cur->sta_gts = parse_speed(line);
			cur->sta_w = parse_width(line);
			cur->said_down = strstr(line, "(downgraded)") != NULL;
		} else if ((p = strstr(line, "\t\tLnkCap2: Supported Link Speeds: "))) {
			const char *g = strstr(p, "GT/s");
			if (g) {
				const char *s = g;
				while (s > p && (s[-1] == '.' || (s[-1] >= '0' && s[-1] <= '9')))
					s--;
				cur->cap2 = true;
				cur->cap2_max = strtod(s, NULL);
			}
		}
	}
	fclose(f);
}

static const struct tdev *
text_parent(const struct text *tx, const struct tdev *t)
{
	for (size_t i = 0; i < tx->n; i++)
		if (&tx->d[i] != t && tx->d[i].dom == t->dom && tx->d[i].secondary >= 0 &&
		    (unsigned)tx->d[i].secondary == t->bus)
			return &tx->d[i];
	return NULL;
}

/* A link lspci shows as a real, trained link. */
static bool
text_link_known(const struct tdev *t)
{
	return t->lnk && t->cap_gts > 0 && t->sta_gts > 0 && t->cap_w > 0 && t->sta_w > 0;
}

static double
text_ceiling(const struct tdev *t)
{
	return spec_lane(t->sta_gts) * t->sta_w;
}

/* ---- locating the data ---- */
static char top[PATH_MAX];
static char lspci_dir[PATH_MAX], text_dir[PATH_MAX + 16];
static bool have_ids = true;		/* pci.ids loaded (no note says otherwise) */

static int
find_top(void)
{
	return test_top(top, sizeof top);
}

/* ---- per-dump checks ---- */
struct counts {
	unsigned links, down_known, x0, no_cap, said_down, silent_port_down, cap2, ctrls;
};
static struct counts total;

static void
check_links(const char *dump, const struct text *tx, struct counts *c)
{
	for (size_t i = 0; i < tx->n; i++) {
		const struct tdev *t = &tx->d[i];
		struct pci_link l;
		int rc = pci_link_at(dump, t->addr, &l);
		if (rc != 0)
			fail_msg("%s %s: pci_link_at: %d", dump, t->addr, rc);
		if (!t->lnk) {
			/* no link printed: none of ours either */
			assert_false(l.known);
			assert_memory_equal(l.reason, "no PCIe capability", 18);
			c->no_cap++;
			continue;
		}
		if (!text_link_known(t)) {
			if (l.known)
				fail_msg("%s %s: lspci shows no usable link, we say known", dump,
					 t->addr);
			assert_true(l.reason[0] != '\0');
			if (t->sta_w == 0) {
				assert_non_null(strstr(l.reason, "x0"));
				c->x0++;
			}
			continue;
		}
		if (!l.known)
			fail_msg("%s %s: link unknown (%s)", dump, t->addr, l.reason);
		if (l.cap_gts != t->cap_gts || l.sta_gts != t->sta_gts || l.cap_width != t->cap_w ||
		    l.sta_width != t->sta_w)
			fail_msg("%s %s: ours %g x%u / %g x%u, lspci %g x%u / %g x%u", dump, t->addr,
				 l.cap_gts, l.cap_width, l.sta_gts, l.sta_width, t->cap_gts,
				 t->cap_w, t->sta_gts, t->sta_w);
		bool down = t->sta_gts < t->cap_gts || t->sta_w < t->cap_w;
		assert_int_equal(l.downgraded, down);
		if (t->said_down) {
			assert_true(l.downgraded);
			c->said_down++;
		} else if (down) {
			/* lspci >= 3.8 stays silent for root and downstream ports
			 * and PCI-to-PCIe bridges (the link's upstream end) */
			assert_true(strstr(t->type, "Root Port") || strstr(t->type, "Downstream") ||
				    strstr(t->type, "to PCI-Express Bridge"));
			c->silent_port_down++;
		}
		c->down_known += l.downgraded;
		assert_true(l.ceiling_mbps == text_ceiling(t));
		assert_true(l.cap_ceiling_mbps.known && l.cap_ceiling_mbps.v == spec_lane(t->cap_gts) * t->cap_w);
		assert_int_equal(l.cap2_max_gts.known, t->cap2);
		if (t->cap2) {
			assert_true(l.cap2_max_gts.v == t->cap2_max);
			c->cap2++;
		}
		c->links++;
	}
}

/* Every storage function is a controller, in bus order, with the link that
 * feeds it and the narrowest link on the path the text describes. */
static void
check_controllers(const char *dump, const struct text *tx, struct inventory *inv,
		  struct counts *c)
{
	size_t k = 0;
	for (size_t i = 0; i < tx->n; i++) {
		const struct tdev *t = &tx->d[i];
		if ((t->cls >> 8) != 0x01)
			continue;
		if (k >= inv->n_ctrl)
			fail_msg("%s: %s (class %04x) is not a controller", dump, t->addr, t->cls);
		const struct controller *ct = &inv->ctrl[k];
		char id[16];
		snprintf(id, sizeof id, "ctrl%zu", k++);
		assert_string_equal(ct->id, id);
		assert_string_equal(ct->address, t->addr);
		assert_int_equal(ct->vendor_id, t->vid);
		assert_int_equal(ct->device_id, t->did);
		assert_int_equal(ct->class_code >> 8, t->cls);
		if (have_ids)
			assert_string_equal(ct->class_name, t->class_name);
		assert_true(ct->name[0] != '\0');
		/* A dump has no driver and no NUMA node: unknown, not 0. */
		assert_string_equal(ct->driver, "");
		assert_false(ct->driver_known);
		assert_false(ct->numa_node.known);

		/* Walk the text's path: the feed is the first function with an
		 * Express capability, the narrowest the lowest trained ceiling. */
		const struct tdev *feed = NULL, *narrow = NULL;
		for (const struct tdev *p = t; p; p = text_parent(tx, p)) {
			if (!feed && p->express && p->lnk)
				feed = p;
			if (text_link_known(p) &&
			    (!narrow || text_ceiling(p) < text_ceiling(narrow)))
				narrow = p;
		}
		if (!feed) {
			assert_false(ct->link.known);
			assert_memory_equal(ct->link.reason, "no PCIe capability", 18);
		} else {
			assert_string_equal(ct->link_from, feed->addr);
			assert_int_equal(ct->link.known, text_link_known(feed));
			if (ct->link.known)
				assert_true(ct->link.ceiling_mbps == text_ceiling(feed));
		}
		if (narrow) {
			assert_true(ct->narrowest.known);
			assert_string_equal(ct->narrowest_at, narrow->addr);
			assert_true(ct->narrowest.ceiling_mbps == text_ceiling(narrow));
		} else {
			assert_false(ct->narrowest.known);
		}
		c->ctrls++;
	}
	assert_int_equal(k, inv->n_ctrl);
}

static void
test_dump(void **state)
{
	const char *name = *state;
	char dump[PATH_MAX * 2], txt[PATH_MAX * 2];
	snprintf(dump, sizeof dump, "%s/%s", lspci_dir, name);
	snprintf(txt, sizeof txt, "%s/%s.lspci-vvvnn.txt", text_dir, name);
	if (access(txt, R_OK) != 0)
		fail_msg("%s: no lspci text beside it (%s)", name, txt);
	struct text tx;
	parse_text(txt, &tx);
	assert_true(tx.n > 0);

	struct counts c = { 0 };
	check_links(dump, &tx, &c);

	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, dump, NULL), 0);
	for (size_t i = 0; i < inv.notes.n; i++) {
		printf("  note: %s\n", inv.notes.v[i]);
		if (strncmp(inv.notes.v[i], "pci.ids", 7) == 0)
			have_ids = false;
		else	/* a real dump must read cleanly */
			fail_msg("%s: unexpected note: %s", name, inv.notes.v[i]);
	}
	check_controllers(dump, &tx, &inv, &c);
	printf("  %s: %zu functions, %u links matched (%u downgraded, lspci said so for %u, "
	       "silent for %u ports), %u x0, %u without a link, %u LnkCap2, %u controllers\n",
	       name, tx.n, c.links, c.down_known, c.said_down, c.silent_port_down, c.x0,
	       c.no_cap, c.cap2, c.ctrls);
	total.links += c.links;
	total.x0 += c.x0;
	total.ctrls += c.ctrls;
	total.said_down += c.said_down;
	inventory_free(&inv);
	free(tx.d);
}

/* ---- the named cases ---- */
static const struct controller *
ctrl_at(const struct inventory *inv, const char *addr)
{
	for (size_t i = 0; i < inv->n_ctrl; i++)
		if (strcmp(inv->ctrl[i].address, addr) == 0)
			return &inv->ctrl[i];
	return NULL;
}

static void
test_asus_p6t6(void **state)
{
	(void)state;
	char dump[PATH_MAX * 2];
	snprintf(dump, sizeof dump, "%s/tree-asus-p6t6", lspci_dir);
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, dump, NULL), 0);

	/* LSI SAS2008 behind the NF200 switch: 5GT/s x8, 4000 MB/s, and the
	 * switch's x16 links above it are wider. */
	const struct controller *sas = ctrl_at(&inv, "0000:04:00.0");
	assert_non_null(sas);
	assert_int_equal(sas->vendor_id, 0x1000);
	assert_int_equal(sas->device_id, 0x0072);
	assert_true(sas->link.known);
	assert_true(sas->link.sta_gts == 5 && sas->link.sta_width == 8);
	assert_true(sas->link.cap_gts == 5 && sas->link.cap_width == 8);
	assert_false(sas->link.downgraded);
	assert_true(sas->link.ceiling_mbps == 4000);
	assert_string_equal(sas->link_from, "0000:04:00.0");
	assert_true(sas->narrowest.known);
	assert_true(sas->narrowest.ceiling_mbps == 4000);
	const char *nf200[] = { "03:00.0", "02:00.0" };
	for (size_t i = 0; i < 2; i++) {
		struct pci_link l;
		assert_int_equal(pci_link_at(dump, nf200[i], &l), 0);
		assert_true(l.known);
		assert_true(l.ceiling_mbps >= 4000);
	}

	/* ICH10 AHCI: integrated, no PCIe capability: link n/a, never 0. */
	const struct controller *ich = ctrl_at(&inv, "0000:00:1f.2");
	assert_non_null(ich);
	assert_int_equal(ich->device_id, 0x3a22);
	assert_false(ich->link.known);
	assert_string_equal(ich->link.reason, "no PCIe capability");
	assert_false(ich->narrowest.known);

	/* Root ports with an empty slot: x0 is "link down", not 0 MB/s. */
	const char *empty[] = { "00:01.0", "00:1c.0" };
	for (size_t i = 0; i < 2; i++) {
		struct pci_link l;
		assert_int_equal(pci_link_at(dump, empty[i], &l), 0);
		assert_false(l.known);
		assert_non_null(strstr(l.reason, "x0"));
	}
	inventory_free(&inv);
}

static void
test_phy32(void **state)
{
	(void)state;
	char dump[PATH_MAX * 2];
	snprintf(dump, sizeof dump, "%s/cap-phy32", lspci_dir);
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	assert_int_equal(pci_scan(&inv, dump, NULL), 0);
	assert_int_equal(inv.n_ctrl, 1);
	const struct controller *c = &inv.ctrl[0];
	assert_string_equal(c->address, "0000:2e:00.0");
	assert_int_equal(c->class_code, 0x010802);
	assert_true(c->link.known);
	assert_true(c->link.cap_gts == 32 && c->link.cap_width == 2);
	assert_true(c->link.sta_gts == 16 && c->link.sta_width == 2);
	assert_true(c->link.downgraded);
	assert_true(c->link.ceiling_mbps == 3938);
	assert_true(c->link.cap_ceiling_mbps.known && c->link.cap_ceiling_mbps.v == 7876);
	assert_true(c->link.cap2_max_gts.known && c->link.cap2_max_gts.v == 32);
	inventory_free(&inv);
}

static void
test_totals(void **state)
{
	(void)state;
	printf("  total: %u links matched, %u x0, %u said downgraded, %u controllers\n",
	       total.links, total.x0, total.said_down, total.ctrls);
	assert_true(total.links >= 20);
	assert_true(total.x0 >= 2);
	assert_true(total.said_down >= 1);
	assert_true(total.ctrls >= 4);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(void)
{
	if (find_top() != 0) {
		printf("SKIP: cannot locate the repository top\n");
		return 77;
	}
	snprintf(lspci_dir, sizeof lspci_dir, "%.*s/../shared/realdata/lspci",
		 (int)(sizeof lspci_dir - 40), top);
	snprintf(text_dir, sizeof text_dir, "%s-vvv", lspci_dir);
	DIR *dir = opendir(lspci_dir);
	if (!dir || access(text_dir, R_OK) != 0) {
		printf("SKIP: %s not present (../shared/realdata beside the checkout)\n",
		       lspci_dir);
		if (dir)
			closedir(dir);
		return 77;
	}
	char *names[64];
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dir)) && n < 64)
		if (de->d_name[0] != '.')
			names[n++] = strdup(de->d_name);
	closedir(dir);
	qsort(names, n, sizeof *names, by_name);

	struct CMUnitTest tests[64 + 3];
	size_t nt = 0;
	for (size_t i = 0; i < n; i++)
		tests[nt++] = (struct CMUnitTest){ .name = names[i], .test_func = test_dump,
						   .initial_state = names[i] };
	tests[nt++] = (struct CMUnitTest){ .name = "asus-p6t6 SAS2008 / ICH10 / x0",
					   .test_func = test_asus_p6t6 };
	tests[nt++] = (struct CMUnitTest){ .name = "phy32 NVMe 32GT/s x2 at 16GT/s",
					   .test_func = test_phy32 };
	tests[nt++] = (struct CMUnitTest){ .name = "totals", .test_func = test_totals };
	int rc = _cmocka_run_group_tests("pci_dumps", tests, nt, NULL, NULL);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	return rc;
}
