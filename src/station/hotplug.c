/* hotplug.c (station) - libudev's monitor and the pure decoding of its
 * events (hotplug.h says what was measured). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libudev.h>
#include "station/hotplug.h"

static bool
eq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

enum hp_kind
hotplug_decode(const struct hp_uevent *u, struct hp_event *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = HP_IGNORE;
	if (!u || !eq(u->subsystem, "block") || !eq(u->devtype, "disk") || !u->sysname || !u->action)
		return HP_IGNORE;
	/* RAM-backed disks are no bay's drive */
	if (!strncmp(u->sysname, "ram", 3) || !strncmp(u->sysname, "zram", 4))
		return HP_IGNORE;
	snprintf(out->name, sizeof(out->name), "%s", u->sysname);
	if (eq(u->action, "remove"))
		out->kind = HP_GONE;
	else if (eq(u->action, "add"))
		/* an empty card reader or a loop device being created is size 0 */
		out->kind = u->size_known && !u->size_sectors ? HP_IGNORE : HP_PRESENT;
	else if (eq(u->action, "change"))
		/* loop attach/detach and media changes: the size says which */
		out->kind = !u->size_known ? HP_IGNORE : u->size_sectors ? HP_PRESENT : HP_GONE;
	return out->kind;
}

struct hotplug {
	struct udev *udev;
	struct udev_monitor *mon;
};

int
hotplug_open(struct hotplug **out, const char **source, char *err, size_t errlen)
{
	struct hotplug *h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	/* udevd's own socket: events it has processed (links made) */
	const char *src = access("/run/udev/control", F_OK) == 0 ? "udev" : "kernel";
	h->udev = udev_new();
	if (h->udev)
		h->mon = udev_monitor_new_from_netlink(h->udev, src);
	int rc = h->mon ? 0 : -errno ? -errno : -EIO;
	if (!rc)
		rc = udev_monitor_filter_add_match_subsystem_devtype(h->mon, "block", "disk");
	if (!rc)
		rc = udev_monitor_enable_receiving(h->mon);
	if (rc) {
		snprintf(err, errlen, "libudev: cannot listen to the %s uevents: %s", src, strerror(-rc));
		hotplug_close(h);
		return rc;
	}
	*source = src;
	*out = h;
	return 0;
}

int
hotplug_fd(const struct hotplug *h)
{
	return udev_monitor_get_fd(h->mon);
}

int
hotplug_read(struct hotplug *h, struct hp_event *out)
{
	struct udev_device *d = udev_monitor_receive_device(h->mon);
	if (!d)
		return -EAGAIN;
	struct hp_uevent u = {
		.action = udev_device_get_action(d),
		.subsystem = udev_device_get_subsystem(d),
		.devtype = udev_device_get_devtype(d),
		.sysname = udev_device_get_sysname(d),
	};
	/* the size as sysfs says now (a kernel event carries none) */
	const char *sz = udev_device_get_sysattr_value(d, "size");
	char *end;
	if (sz) {
		unsigned long long v = strtoull(sz, &end, 10);
		if (end != sz) {
			u.size_known = true;
			u.size_sectors = v;
		}
	}
	hotplug_decode(&u, out);
	udev_device_unref(d);
	return 0;
}

void
hotplug_close(struct hotplug *h)
{
	if (!h)
		return;
	if (h->mon)
		udev_monitor_unref(h->mon);
	if (h->udev)
		udev_unref(h->udev);
	free(h);
}
