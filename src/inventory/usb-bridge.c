/* usb-bridge.c - the USB bridge a disk sits behind, named by its USB ids
 * from sysfs, so that a dock that passes no ATA command through is said
 * to be the reason ("no pass-through through this bridge (VID:PID)"),
 * not "no SMART". */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "inventory/farm.h"

/* the first line of dir/name, trailing blanks gone; false unreadable */
static bool
attr(const char *dir, const char *name, char *out, size_t n)
{
	char p[PATH_MAX];
	if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, name) >= sizeof p)
		return false;
	FILE *f = fopen(p, "r");
	if (!f)
		return false;
	bool ok = fgets(out, (int)n, f) != NULL;
	fclose(f);
	if (!ok)
		return false;
	size_t k = strlen(out);
	while (k && (out[k - 1] == '\n' || out[k - 1] == ' '))
		out[--k] = '\0';
	return k > 0;
}

int
usb_bridge_name(const char *syspath, char *out, size_t n)
{
	char dir[PATH_MAX];
	if (!syspath || !syspath[0] || (size_t)snprintf(dir, sizeof dir, "%s", syspath) >= sizeof dir)
		return -ENOENT;
	for (;;) {
		char vid[16], pid[16], prod[96];
		if (attr(dir, "idVendor", vid, sizeof vid) && attr(dir, "idProduct", pid, sizeof pid)) {
			if (attr(dir, "product", prod, sizeof prod))
				snprintf(out, n, "%s:%s, %s", vid, pid, prod);
			else
				snprintf(out, n, "%s:%s", vid, pid);
			return 0;
		}
		char *s = strrchr(dir, '/');
		if (!s || s == dir)
			return -ENOENT;
		*s = '\0';
	}
}

void
usb_bridge_reason(const char *syspath, const char *why, char *out, size_t n)
{
	char id[128];
	if (usb_bridge_name(syspath, id, sizeof id))
		snprintf(id, sizeof id, "USB ids not found in sysfs");
	snprintf(out, n, "no pass-through through this bridge (%s)%s%.100s", id, why && why[0] ? ": " : "",
		 why ? why : "");
}
