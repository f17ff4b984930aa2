/* pci.c - storage controllers and the PCIe links that feed them, through
 * libpci (live bus or a libpci dump) and pci.ids for names. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <pci/pci.h>
#include "inventory/pci.h"

/* PCIe capability registers (offsets inside the capability). */
enum {
	EXP_FLAGS = 0x02,	/* bits 3:0 version, 7:4 port type */
	EXP_LNKCAP = 0x0C,
	EXP_LNKSTA = 0x12,
	EXP_LNKCAP2 = 0x2C,
	EXP_TYPE_RC_END = 0x9,	/* root-complex integrated endpoint: no link */
	EXP_TYPE_RC_EC = 0xa,	/* root-complex event collector: no link */
};

#define MAX_PATH_DEPTH 32	/* bridges above a device; guards bogus loops */
#define MAX_LIB_NOTES 8		/* libpci warnings kept per scan */

/* ---- libpci error handling ----
 * libpci's error callback must not return and exits by default; ours jumps
 * back to the guarded call so bad input becomes a note.  The callbacks get no
 * context pointer, hence thread-local state. */
static _Thread_local jmp_buf *lib_jmp;
static _Thread_local char lib_err[256];
static _Thread_local struct strlist *lib_notes;
static _Thread_local unsigned lib_n_warn;
static _Thread_local struct strlist lib_noconfig;	/* "Cannot open .../config" */

static void lib_error(char *msg, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void lib_warning(char *msg, ...) __attribute__((format(printf, 1, 2)));
static void lib_debug(char *msg, ...) __attribute__((format(printf, 1, 2)));

static void
chomp(char *s)
{
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

static void
lib_error(char *msg, ...)
{
	va_list ap;
	va_start(ap, msg);
	vsnprintf(lib_err, sizeof lib_err, msg, ap);
	va_end(ap);
	chomp(lib_err);
	if (lib_jmp)
		longjmp(*lib_jmp, 1);
	/* Every libpci call below runs guarded; reaching here is a bug. */
	abort();
}

static void
lib_warning(char *msg, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, msg);
	vsnprintf(buf, sizeof buf, msg, ap);
	va_end(ap);
	chomp(buf);
	/* One per function in a copied sysfs tree: summed up at the end. */
	size_t len = strlen(buf);
	if (strncmp(buf, "Cannot open ", 12) == 0 && len > 7 &&
	    strcmp(buf + len - 7, "/config") == 0) {
		if (!strlist_has(&lib_noconfig, buf + 12))
			strlist_add(&lib_noconfig, buf + 12);
		return;
	}
	if (!lib_notes || lib_n_warn >= MAX_LIB_NOTES)
		return;
	char line[300];
	snprintf(line, sizeof line, "libpci: %s", buf);
	if (!strlist_has(lib_notes, line)) {
		strlist_add(lib_notes, line);
		lib_n_warn++;
	}
}

static void
lib_debug(char *msg, ...)
{
	(void)msg;
}

/* ---- the scan state ---- */
struct pscan {
	struct pci_access *a;
	struct pci_dev **dev;	/* sorted by domain, bus, device, function */
	size_t n;
	int *parent;		/* index of the bridge above each device, -1 none */
	int names;		/* 0 not tried, 1 pci.ids loaded, -1 unavailable */
	const char *sysfs_root;	/* NULL in dump mode: no driver/numa facts */
	const char *dump_file;
	struct inventory *inv;
};

static void
fmt_addr(const struct pci_dev *d, char *buf, size_t n)
{
	snprintf(buf, n, "%04x:%02x:%02x.%d", (unsigned)d->domain, d->bus, d->dev, d->func);
}

static int
dev_cmp(const void *x, const void *y)
{
	const struct pci_dev *a = *(struct pci_dev *const *)x;
	const struct pci_dev *b = *(struct pci_dev *const *)y;
	if (a->domain != b->domain)
		return a->domain < b->domain ? -1 : 1;
	if (a->bus != b->bus)
		return a->bus < b->bus ? -1 : 1;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return (int)a->func - (int)b->func;
}

/* Whether the function has config space past the 64-byte header (a
 * truncated dump, or sysfs config read without root). */
static bool
config_truncated(struct pci_dev *d)
{
	uint8_t b;
	return !pci_read_block(d, 64, &b, 1);
}

static void
link_unknown(struct pci_link *l, const char *why)
{
	l->known = false;
	snprintf(l->reason, sizeof l->reason, "%s", why);
}

static void
link_finish(struct pci_link *l, unsigned cap_code, unsigned sta_code)
{
	char why[96];
	l->cap_gts = pcie_speed_gts(cap_code);
	if (l->cap_gts > 0 && l->cap_width > 0)
		KNOWN_SET(l->cap_ceiling_mbps, pcie_lane_mbps(l->cap_gts) * l->cap_width);
	if (l->sta_width == 0) {
		link_unknown(l, "link down (LnkSta width x0)");
		return;
	}
	if (l->cap_gts == 0) {
		snprintf(why, sizeof why, "LnkCap speed code %u is reserved", cap_code);
		link_unknown(l, why);
		return;
	}
	if (l->cap_width == 0) {
		link_unknown(l, "LnkCap width x0 is reserved");
		return;
	}
	l->sta_gts = pcie_speed_gts(sta_code);
	if (l->sta_gts == 0) {
		snprintf(why, sizeof why, "LnkSta speed code %u is reserved", sta_code);
		link_unknown(l, why);
		return;
	}
	l->known = true;
	l->reason[0] = '\0';
	l->downgraded = l->sta_gts < l->cap_gts || l->sta_width < l->cap_width;
	l->ceiling_mbps = pcie_lane_mbps(l->sta_gts) * l->sta_width;
}

/* Highest speed in the LnkCap2 supported-speeds vector (bits 7:1). */
static double
cap2_max(uint32_t lnkcap2)
{
	unsigned vec = (lnkcap2 >> 1) & 0x7f;
	double best = 0;
	for (unsigned bit = 0; bit < 7; bit++)
		if (vec & (1u << bit) && pcie_speed_gts(bit + 1) > 0)
			best = pcie_speed_gts(bit + 1);
	return best;
}

/* sysfs link attributes ("8.0 GT/s PCIe", "4"); the kernel's view when the
 * config space past 64 bytes is unreadable (not root). */
static bool
sysfs_link(const char *root, const char *addr, struct pci_link *l)
{
	char p[512], ms[64], cs[64], mw[32], cw[32];
	const char *names[] = { "max_link_speed", "current_link_speed", "max_link_width",
				"current_link_width" };
	char *vals[] = { ms, cs, mw, cw };
	size_t sizes[] = { sizeof ms, sizeof cs, sizeof mw, sizeof cw };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (pathf(p, sizeof p, "%s/bus/pci/devices/%s/%s", root, addr, names[i]) ||
		    read_text(p, vals[i], sizes[i]))
			return false;
	char *end;
	double cap, sta;
	const char *rest;
	/* "Unknown": root-complex integrated functions have no link ("8.0 GT/s PCIe") */
	if (str_to_double(ms, &cap, &rest))
		return false;
	if (str_to_double(cs, &sta, &rest))
		sta = 0;
	unsigned long capw = strtoul(mw, &end, 10), staw = strtoul(cw, &end, 10);
	unsigned cap_code = pcie_speed_code(cap), sta_code = pcie_speed_code(sta);
	memset(l, 0, sizeof *l);
	l->cap_width = capw;
	l->sta_width = staw;
	link_finish(l, cap_code, sta_code);
	if (!l->known)
		strncat(l->reason, " (sysfs)", sizeof l->reason - strlen(l->reason) - 1);
	return true;
}

/* The link at the function's own PCIe capability.  Returns false when it
 * has none (l->reason says why), true when it has one (l->known may still be
 * false: link down, reserved codes, no link at all). */
static bool
own_link(struct pci_dev *d, const char *sysfs_root, struct pci_link *l)
{
	memset(l, 0, sizeof *l);
	struct pci_cap *cap = pci_find_cap(d, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	if (!cap) {
		if (config_truncated(d)) {
			char addr[16];
			fmt_addr(d, addr, sizeof addr);
			if (sysfs_root && sysfs_link(sysfs_root, addr, l))
				return true;
			/* The kernel gives every PCIe function link attributes. */
			link_unknown(l, sysfs_root ? "no PCIe capability (sysfs shows no link)"
					: "no PCIe capability (only 64 bytes of config space)");
		} else {
			link_unknown(l, "no PCIe capability");
		}
		return false;
	}
	unsigned flags = pci_read_word(d, cap->addr + EXP_FLAGS);
	unsigned type = (flags >> 4) & 0xf;
	if (type == EXP_TYPE_RC_END || type == EXP_TYPE_RC_EC) {
		link_unknown(l, "no PCIe capability with a link (root-complex integrated)");
		return false;
	}
	uint32_t lnkcap = pci_read_long(d, cap->addr + EXP_LNKCAP);
	uint16_t lnksta = pci_read_word(d, cap->addr + EXP_LNKSTA);
	l->cap_width = (lnkcap >> 4) & 0x3f;
	l->sta_width = (lnksta >> 4) & 0x3f;
	if ((flags & 0xf) >= 2) {
		uint32_t lnkcap2 = pci_read_long(d, cap->addr + EXP_LNKCAP2);
		double m = cap2_max(lnkcap2);
		if (m > 0)
			KNOWN_SET(l->cap2_max_gts, m);
	}
	link_finish(l, lnkcap & 0xf, lnksta & 0xf);
	return true;
}

/* ---- guarded libpci phases ---- */

/* Run fn with libpci's errors turned into -EIO and the message in err
 * (nests: an inner guard restores the outer one). */
static int
guarded(int (*fn)(struct pscan *, void *), struct pscan *s, void *arg, char *err, size_t n)
{
	jmp_buf jb;
	jmp_buf *volatile prev = lib_jmp;
	if (setjmp(jb)) {
		lib_jmp = prev;
		if (err)
			snprintf(err, n, "%s", lib_err);
		return -EIO;
	}
	lib_jmp = &jb;
	int rc = fn(s, arg);
	lib_jmp = prev;
	return rc;
}

/* pci_init + pci_scan_bus.  On a libpci error the devices read so far stay
 * in a->devices (the dump reader links each as it goes). */
static int
do_init(struct pscan *s, void *arg)
{
	(void)arg;
	pci_init(s->a);
	pci_scan_bus(s->a);
	return 0;
}

struct empties {
	size_t n;
	char first[16];
};

/* Read what we need of each function.  A dump header line without hex
 * lines (`lspci -v` text given as a dump) has nothing to decode: dropped
 * and counted, so the caller can say so instead of leaving a silent gap. */
static int
do_fill(struct pscan *s, void *arg)
{
	struct empties *e = arg;
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++) {
		uint8_t hdr[4];
		if (s->dump_file && !pci_read_block(s->dev[i], 0, hdr, sizeof hdr)) {
			if (!e->n++)
				fmt_addr(s->dev[i], e->first, sizeof e->first);
			continue;
		}
		pci_fill_info(s->dev[i], PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_CLASS_EXT |
			      PCI_FILL_CAPS);
		s->dev[k++] = s->dev[i];
	}
	s->n = k;
	return 0;
}

static int
do_load_names(struct pscan *s, void *arg)
{
	(void)arg;
	return pci_load_name_list(s->a);
}

/* Load pci.ids once; a missing or corrupt list is a note and names fall
 * back to numbers. */
static void
load_names(struct pscan *s)
{
	char err[256];
	if (s->names)
		return;
	s->names = -1;
	int ok = guarded(do_load_names, s, NULL, err, sizeof err);
	if (ok < 0) {
		pci_free_name_list(s->a);
		strlist_addf(&s->inv->notes, "pci.ids: %s: controller names unknown", err);
	} else if (ok) {
		s->names = 1;
	} else {
		strlist_addf(&s->inv->notes, "pci.ids not found: controller names unknown "
			     "(install pci.ids; looked for %s)", s->a->id_file_name);
	}
}

/* ---- topology: the bridge above each device ---- */

/* <root>/bus/pci/devices/ADDR -> .../PARENT/ADDR: the index of PARENT. */
static int
sysfs_parent(struct pscan *s, size_t i)
{
	char p[512], addr[16], *real;
	fmt_addr(s->dev[i], addr, sizeof addr);
	if (pathf(p, sizeof p, "%s/bus/pci/devices/%s", s->sysfs_root, addr) ||
	    !(real = realpath(p, NULL)))
		return -1;
	int found = -1;
	char *sl = strrchr(real, '/');
	if (sl) {
		*sl = '\0';
		const char *up = strrchr(real, '/');
		up = up ? up + 1 : real;
		for (size_t j = 0; j < s->n && found < 0; j++) {
			fmt_addr(s->dev[j], addr, sizeof addr);
			if (j != i && strcmp(addr, up) == 0)
				found = (int)j;
		}
	}
	free(real);
	return found;
}

static void
find_parents(struct pscan *s)
{
	/* Secondary bus of each bridge, -1 for the rest: read once, since
	 * every read is a syscall on the live bus. */
	int *sec = s->parent;
	for (size_t j = 0; j < s->n; j++) {
		struct pci_dev *b = s->dev[j];
		int hdr = pci_read_byte(b, PCI_HEADER_TYPE) & 0x7f;
		sec[j] = -1;
		if (hdr == PCI_HEADER_TYPE_BRIDGE || hdr == PCI_HEADER_TYPE_CARDBUS) {
			int v = pci_read_byte(b, PCI_SECONDARY_BUS);
			/* A bridge never forwards to its own bus; such values
			 * come from unreadable config (0xff) or junk. */
			if (v != b->bus)
				sec[j] = v;
		}
	}
	int *up = calloc(s->n ? s->n : 1, sizeof *up);
	if (!up) {
		for (size_t i = 0; i < s->n; i++)
			s->parent[i] = -1;
		return;
	}
	for (size_t i = 0; i < s->n; i++) {
		struct pci_dev *d = s->dev[i];
		up[i] = -1;
		for (size_t j = 0; j < s->n && up[i] < 0; j++)
			if (j != i && sec[j] == d->bus && s->dev[j]->domain == d->domain)
				up[i] = (int)j;
		/* Without bridge registers (sysfs config unreadable past 64
		 * bytes) the sysfs device path still names the parent.  (Not
		 * PCI_FILL_PARENT: libpci 3.9 leaks on it.) */
		if (up[i] < 0 && s->sysfs_root && config_truncated(d))
			up[i] = sysfs_parent(s, i);
	}
	memcpy(s->parent, up, s->n * sizeof *up);
	free(up);
}

static void
set_names(struct pscan *s, struct pci_dev *d, struct controller *c)
{
	if (s->names > 0) {
		char buf[256];
		/* pci.ids only: udev's hwdb would make names depend on the
		 * machine (and libpci 3.9 leaks when the hwdb is absent). */
		const int how = PCI_LOOKUP_NO_HWDB;
		char *v = pci_lookup_name(s->a, buf, sizeof buf,
					  how | PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE,
					  d->vendor_id, d->device_id);
		if (v)
			strtrimcpy(c->name, sizeof c->name, v);
		v = pci_lookup_name(s->a, buf, sizeof buf, how | PCI_LOOKUP_CLASS, d->device_class);
		if (v)
			strtrimcpy(c->class_name, sizeof c->class_name, v);
	}
	if (!c->name[0])
		snprintf(c->name, sizeof c->name, "[%04x:%04x]", d->vendor_id, d->device_id);
	if (!c->class_name[0])
		snprintf(c->class_name, sizeof c->class_name, "[%04x]", d->device_class);
}

static void
set_sysfs_facts(struct pscan *s, struct controller *c)
{
	char p[512], link[512], num[32];
	if (!s->sysfs_root)
		return;
	if (!pathf(p, sizeof p, "%s/bus/pci/devices/%s/driver", s->sysfs_root, c->address)) {
		ssize_t r = readlink(p, link, sizeof link - 1);
		if (r > 0) {
			link[r] = '\0';
			const char *base = strrchr(link, '/');
			strtrimcpy(c->driver, sizeof c->driver, base ? base + 1 : link);
			c->driver_known = true;
		} else if (errno == ENOENT) {
			/* no link in a device directory that exists: none bound */
			p[strlen(p) - strlen("/driver")] = '\0';
			c->driver_known = access(p, F_OK) == 0;
		}
	}
	/* -1 means the platform has no NUMA information: unknown, not a node. */
	if (!pathf(p, sizeof p, "%s/bus/pci/devices/%s/numa_node", s->sysfs_root, c->address) &&
	    !read_text(p, num, sizeof num)) {
		char *end;
		long v = strtol(num, &end, 10);
		if (end != num && v >= 0)
			KNOWN_SET(c->numa_node, (uint64_t)v);
	}
}

/* The link that feeds device i (own, else the first ancestor with a PCIe
 * capability) and the narrowest known link on its path to the root. */
static void
set_links(struct pscan *s, size_t i, struct controller *c)
{
	struct pci_link l, first_reason;
	bool have_feed = false, have_narrow = false;
	int k = (int)i;
	memset(&first_reason, 0, sizeof first_reason);
	for (int depth = 0; k >= 0 && depth < MAX_PATH_DEPTH; depth++, k = s->parent[k]) {
		char addr[16];
		fmt_addr(s->dev[k], addr, sizeof addr);
		bool has_cap = own_link(s->dev[k], s->sysfs_root, &l);
		if (depth == 0)
			first_reason = l;
		if (has_cap && !have_feed) {
			c->link = l;
			strtrimcpy(c->link_from, sizeof c->link_from, addr);
			have_feed = true;
		}
		if (l.known && (!have_narrow || l.ceiling_mbps < c->narrowest.ceiling_mbps)) {
			c->narrowest = l;
			strtrimcpy(c->narrowest_at, sizeof c->narrowest_at, addr);
			have_narrow = true;
		}
	}
	if (!have_feed) {
		c->link = first_reason;
		c->link.known = false;
		if (!c->link.reason[0])
			snprintf(c->link.reason, sizeof c->link.reason, "no PCIe capability");
	}
	if (!have_narrow) {
		c->narrowest = c->link;
		c->narrowest.known = false;
	}
}

static bool
is_controller(const struct pci_dev *d)
{
	/* Class 01xx: mass storage, which includes NVMe (0108). */
	return (d->device_class >> 8) == 0x01;
}

static void
add_controllers(struct pscan *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct pci_dev *d = s->dev[i];
		if (!is_controller(d))
			continue;
		load_names(s);
		struct controller *c = inventory_add_controller(s->inv);
		if (!c) {
			strlist_add(&s->inv->notes, "pci: out of memory adding a controller");
			s->inv->incomplete = true;
			return;
		}
		size_t idx = s->inv->n_ctrl - 1;
		snprintf(c->id, sizeof c->id, "ctrl%zu", idx);
		fmt_addr(d, c->address, sizeof c->address);
		c->vendor_id = d->vendor_id;
		c->device_id = d->device_id;
		c->class_code = ((uint32_t)d->device_class << 8) | d->prog_if;
		set_names(s, d, c);
		set_sysfs_facts(s, c);
		set_links(s, i, c);
	}
}

static int
do_controllers(struct pscan *s, void *arg)
{
	(void)arg;
	find_parents(s);
	add_controllers(s);
	return 0;
}

/* ---- open / close ---- */

/* How notes name the source: "pci dump FILE" or "pci bus". */
static _Thread_local char source_buf[300];
static const char *
source_name(const char *dump_file)
{
	if (!dump_file)
		return "pci bus";
	snprintf(source_buf, sizeof source_buf, "pci dump %s", dump_file);
	return source_buf;
}

/* Set up libpci for a dump, a sysfs tree or the live bus.  Returns 0, 1
 * when there is no bus to read (a note says so), or -errno when nothing can
 * be read (a note says why). */
static int
pscan_open(struct pscan *s, struct inventory *inv, const char *dump_file,
	   const char *sysfs_root, const char *pci_ids)
{
	char err[256], p[512];
	memset(s, 0, sizeof *s);
	s->inv = inv;
	s->dump_file = dump_file;
	if (dump_file) {
		/* libpci reports a missing file only through its error
		 * callback; look first so the caller gets the errno. */
		char why[300];
		int fd = input_open(dump_file, why, sizeof why);
		if (fd < 0) {
			strlist_addf(&inv->notes, "pci dump %s", why);
			inv->incomplete = true;
			return fd;
		}
		close(fd);
	} else {
		s->sysfs_root = sysfs_root ? sysfs_root : "/sys";
	}
	if (!(s->a = pci_alloc()))
		return -ENOMEM;
	s->a->error = lib_error;
	s->a->warning = lib_warning;
	s->a->debug = lib_debug;
	lib_notes = &inv->notes;
	lib_n_warn = 0;
	strlist_free(&lib_noconfig);
	if (pci_ids)
		pci_set_name_list_path(s->a, (char *)pci_ids, 0);
	if (dump_file) {
		s->a->method = PCI_ACCESS_DUMP;
		pci_set_param(s->a, "dump.name", (char *)dump_file);
	} else {
		/* sysfs only: libpci's autodetection would fall back to raw
		 * I/O-port config access, which we never want. */
		if (pathf(p, sizeof p, "%s/bus/pci/devices", s->sysfs_root))
			return -ENAMETOOLONG;
		/* No PCI bus (a container, a drives-only sysfs fixture): no
		 * controllers; libpci would call that an error. */
		if (access(p, F_OK) != 0) {
			strlist_addf(&inv->notes, "pci bus: %s: %s: no controllers listed", p,
				     strerror(errno));
			return 1;
		}
		p[strlen(p) - strlen("/devices")] = '\0';
		s->a->method = PCI_ACCESS_SYS_BUS_PCI;
		pci_set_param(s->a, "sysfs.path", p);
	}
	int rc = guarded(do_init, s, NULL, err, sizeof err);
	if (rc) {
		/* libpci prefixes dump errors with "dump: "; the note names the file. */
		const char *why = strncmp(err, "dump: ", 6) == 0 ? err + 6 : err;
		/* libpci's dump reader (fgets into 256 bytes) names no line */
		char where[160];
		if (dump_file && text_line_check(dump_file, 254, where, sizeof where) > 0) {
			snprintf(p, sizeof p, "%s (expected `lspci -xxx` output: 'BB:DD.F name' "
				 "headers, then 'OO: xx xx ...' hex lines)", where);
			why = p;
		}
		inv->incomplete = true;
		if (s->a->devices)
			strlist_addf(&inv->notes, "%s: %s (the rest of the file not read)",
				     source_name(dump_file), why);
		else {
			strlist_addf(&inv->notes, "%s: %s", source_name(dump_file), why);
			return rc;
		}
	}
	for (struct pci_dev *d = s->a->devices; d; d = d->next)
		s->n++;
	if (dump_file && s->n == 0 && rc == 0) {
		strlist_addf(&inv->notes, "pci dump %s: no PCI functions in it (expected "
			     "`lspci -xxx` hex dump lines)", dump_file);
		inv->incomplete = true;
	}
	s->dev = calloc(s->n ? s->n : 1, sizeof *s->dev);
	s->parent = calloc(s->n ? s->n : 1, sizeof *s->parent);
	if (!s->dev || !s->parent)
		return -ENOMEM;
	size_t i = 0;
	struct empties empty = { 0, "" };
	for (struct pci_dev *d = s->a->devices; d; d = d->next)
		s->dev[i++] = d;
	rc = guarded(do_fill, s, &empty, err, sizeof err);
	if (rc) {
		strlist_addf(&inv->notes, "%s: %s", source_name(dump_file), err);
		inv->incomplete = true;
		return rc;
	}
	if (empty.n) {
		strlist_addf(&inv->notes, "pci dump %s: %zu function(s) without config bytes "
			     "(first %s): not decoded", dump_file, empty.n, empty.first);
		inv->incomplete = true;
	}
	qsort(s->dev, s->n, sizeof *s->dev, dev_cmp);
	return 0;
}

static int
do_cleanup(struct pscan *s, void *arg)
{
	(void)arg;
	pci_cleanup(s->a);
	return 0;
}

static void
pscan_close(struct pscan *s)
{
	/* cleanup should not fail; if it does, leak rather than exit */
	if (s->a)
		guarded(do_cleanup, s, NULL, NULL, 0);
	free(s->dev);
	free(s->parent);
	strlist_free(&lib_noconfig);
	lib_notes = NULL;
	memset(s, 0, sizeof *s);
}

int
pci_scan_ids(struct inventory *inv, const char *dump_file, const char *sysfs_root,
	     const char *pci_ids)
{
	struct pscan s;
	char err[256];
	int rc = pscan_open(&s, inv, dump_file, sysfs_root, pci_ids);
	if (rc == 0 && guarded(do_controllers, &s, NULL, err, sizeof err)) {
		strlist_addf(&inv->notes, "%s: %s", source_name(dump_file), err);
		inv->incomplete = true;
	}
	if (lib_noconfig.n)
		strlist_addf(&inv->notes, "pci bus: config space of %zu function(s) not readable "
			     "(first %s): links from sysfs where it has them", lib_noconfig.n,
			     lib_noconfig.v[0]);
	pscan_close(&s);
	return rc > 0 ? 0 : rc;
}

int
pci_scan(struct inventory *inv, const char *dump_file, const char *sysfs_root)
{
	return pci_scan_ids(inv, dump_file, sysfs_root, NULL);
}

/* Parse "DDDD:BB:DD.F" or "BB:DD.F". */
static int
parse_addr(const char *s, unsigned *dom, unsigned *bus, unsigned *dev, unsigned *fn)
{
	char tail;
	*dom = 0;
	if (sscanf(s, "%x:%x:%x.%x%c", dom, bus, dev, fn, &tail) == 4)
		return 0;
	*dom = 0;
	if (sscanf(s, "%x:%x.%x%c", bus, dev, fn, &tail) == 3)
		return 0;
	return -EINVAL;
}

struct find {
	unsigned dom, bus, dev, fn;
	struct pci_link *link;
};

static int
do_find(struct pscan *s, void *arg)
{
	struct find *f = arg;
	for (size_t i = 0; i < s->n; i++) {
		struct pci_dev *d = s->dev[i];
		if ((unsigned)d->domain == f->dom && d->bus == f->bus && d->dev == f->dev &&
		    d->func == f->fn) {
			own_link(d, s->sysfs_root, f->link);
			return 0;
		}
	}
	return -ENOENT;
}

int
pci_link_at(const char *dump_file, const char *address, struct pci_link *link)
{
	struct inventory scratch;
	struct pscan s;
	struct find f = { .link = link };
	memset(link, 0, sizeof *link);
	if (parse_addr(address, &f.dom, &f.bus, &f.dev, &f.fn))
		return -EINVAL;
	memset(&scratch, 0, sizeof scratch);
	int rc = pscan_open(&s, &scratch, dump_file, NULL, NULL);
	if (rc == 0)
		rc = guarded(do_find, &s, &f, NULL, 0);
	else if (rc > 0)
		rc = -ENOENT;
	pscan_close(&s);
	strlist_free(&scratch.notes);
	return rc;
}
