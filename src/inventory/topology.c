/* topology.c - which controller and port a drive hangs off, read from the
 * components of its resolved sysfs device path, e.g.
 *   /sys/devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0/block/sda
 *   /sys/devices/pci0000:00/0000:00:03.0/0000:03:00.0/host0/port-0:0/end_device-0:0/...
 *   /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0/nvme0n1 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "inventory/topology.h"

/* "DDDD:BB:DD.F", all hex. */
static bool
is_pci_address(const char *c, size_t len)
{
	static const char pat[] = "xxxx:xx:xx.x";
	if (len != sizeof pat - 1)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (pat[i] == 'x' ? !isxdigit((unsigned char)c[i]) : c[i] != pat[i])
			return false;
	}
	return true;
}

/* Next path component after c (which is len long), or NULL at the end. */
static const char *
next_component(const char *c, size_t *len)
{
	const char *e = c + *len;
	if (!*e)
		return NULL;
	c = e + 1;
	*len = (size_t)(strchrnul(c, '/') - c);
	return c;
}

static const char *
first_component(const char *path, size_t *len)
{
	*len = (size_t)(strchrnul(path, '/') - path);
	return path;
}

int
topology_pci_address(const char *syspath, char *addr, size_t n)
{
	const char *best = NULL;
	size_t len;
	for (const char *c = first_component(syspath, &len); c; c = next_component(c, &len))
		if (is_pci_address(c, len))
			best = c;
	if (!best || n < 13)
		return -ENOENT;
	memcpy(addr, best, 12);
	addr[12] = '\0';
	for (char *p = addr; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return 0;
}

/* word followed by digits only, e.g. "ata3", "host2", "nvme0", "usb2". */
static bool
word_num(const char *c, size_t len, const char *word)
{
	size_t wl = strlen(word);
	if (len <= wl || strncmp(c, word, wl) != 0)
		return false;
	for (size_t i = wl; i < len; i++)
		if (!isdigit((unsigned char)c[i]))
			return false;
	return true;
}

/* USB device names: "2-1", "2-1.3" (bus-port[.port...]), never an interface ("2-1:1.0"). */
static bool
usb_device(const char *c, size_t len)
{
	size_t i = 0;
	while (i < len && isdigit((unsigned char)c[i]))
		i++;
	if (i == 0 || i >= len || c[i] != '-')
		return false;
	for (i++; i < len; i++)
		if (!isdigit((unsigned char)c[i]) && c[i] != '.')
			return false;
	return true;
}

static void
setn(char *dst, size_t n, const char *src, size_t len)
{
	if (n == 0)
		return;
	if (len >= n)
		len = n - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* The SAS phy under the port: a port groups its phys as phy-H:N links.  One
 * phy names the cable lane exactly; a wide port keeps the port name. */
static void
sas_phy(const char *syspath, size_t upto, char *port, size_t n)
{
	char dir[PATH_MAX];
	if (upto >= sizeof dir)
		return;
	memcpy(dir, syspath, upto);
	dir[upto] = '\0';
	DIR *dh = opendir(dir);
	if (!dh)
		return;
	char phy[64] = "";
	int count = 0;
	struct dirent *e;
	while ((e = readdir(dh))) {
		if (strncmp(e->d_name, "phy-", 4) != 0)
			continue;
		if (count++ == 0 || strverscmp(e->d_name, phy) < 0)
			setn(phy, sizeof phy, e->d_name, strlen(e->d_name));
	}
	closedir(dh);
	if (count == 1)
		setn(port, n, phy, strlen(phy));
}

void
topology_port(const char *syspath, char *port, size_t n)
{
	const char *ata = NULL, *host = NULL, *nvme = NULL, *sasport = NULL;
	const char *usbdev = NULL, *mmc = NULL;
	size_t ata_l = 0, host_l = 0, nvme_l = 0, sas_l = 0, usb_l = 0, mmc_l = 0;
	bool after_nvme = false;

	if (n)
		port[0] = '\0';
	if (!syspath)
		return;
	size_t len;
	for (const char *c = first_component(syspath, &len); c; c = next_component(c, &len)) {
		if (word_num(c, len, "ata"))
			ata = c, ata_l = len;
		else if (word_num(c, len, "host") && !host)
			host = c, host_l = len;	/* the HBA's host, not a nested one */
		else if (after_nvme && word_num(c, len, "nvme"))
			nvme = c, nvme_l = len;
		else if (len > 5 && strncmp(c, "port-", 5) == 0)
			sasport = c, sas_l = len;	/* last one: nearest the drive */
		else if (usb_device(c, len))
			usbdev = c, usb_l = len;
		else if (word_num(c, len, "mmc"))
			mmc = c, mmc_l = len;
		after_nvme = len == 4 && strncmp(c, "nvme", 4) == 0;
	}
	if (nvme) {
		setn(port, n, nvme, nvme_l);
	} else if (usbdev) {
		char tmp[48];
		setn(tmp, sizeof tmp, usbdev, usb_l);
		pathf(port, n, "usb%s", tmp);	/* "usb2-1.3": bus 2, port 1.3 */
	} else if (sasport) {
		setn(port, n, sasport, sas_l);
		sas_phy(syspath, (size_t)(sasport - syspath) + sas_l, port, n);
	} else if (ata) {
		setn(port, n, ata, ata_l);
	} else if (host) {
		setn(port, n, host, host_l);
	} else if (mmc) {
		setn(port, n, mmc, mmc_l);
	}
}

static const struct drive *
find_const(const struct inventory *inv, const char *name)
{
	for (size_t i = 0; i < inv->n_drv; i++)
		if (strcmp(inv->drv[i].name, name) == 0)
			return &inv->drv[i];
	return NULL;
}

/* Port order ("ata2" before "ata10"), then name. */
static int
cmp_by_port(const void *a, const void *b, void *arg)
{
	const struct inventory *inv = arg;
	const char *na = *(char *const *)a, *nb = *(char *const *)b;
	const struct drive *da = find_const(inv, na), *db = find_const(inv, nb);
	int r = strverscmp(da ? da->port : "", db ? db->port : "");
	return r ? r : strverscmp(na, nb);
}

int
topology_link(struct inventory *inv)
{
	for (size_t i = 0; i < inv->n_drv; i++) {
		struct drive *d = &inv->drv[i];
		char addr[16];
		if (!d->syspath[0])
			continue;	/* sim drives: their controller is set by the rig */
		if (!d->port[0])
			topology_port(d->syspath, d->port, sizeof d->port);
		d->controller = -1;
		if (topology_pci_address(d->syspath, addr, sizeof addr) == 0) {
			for (size_t k = 0; k < inv->n_ctrl; k++)
				if (strcasecmp(inv->ctrl[k].address, addr) == 0) {
					d->controller = (int)k;
					break;
				}
		}
	}
	for (size_t k = 0; k < inv->n_ctrl; k++) {
		struct strlist *l = &inv->ctrl[k].drives;
		for (size_t i = 0; i < inv->n_drv; i++)
			if (inv->drv[i].controller == (int)k && !strlist_has(l, inv->drv[i].name))
				if (strlist_add(l, inv->drv[i].name) < 0)
					return -ENOMEM;
		if (l->n > 1)	/* qsort_r(NULL, 0) is undefined */
			qsort_r(l->v, l->n, sizeof *l->v, cmp_by_port, inv);
	}
	return 0;
}
