/* hotplug.h (station) - drives arriving and leaving, from the kernel's
 * uevents through libudev's monitor: the "udev" source when udevd runs, else
 * libudev's "kernel" source (no udevd on many bench images).  Decoding is a
 * pure function over one event's fields (unit tests feed it events); the
 * monitor only fills those fields.
 *
 * Measured on Linux 6.18 with no udevd: a loop device attach is one
 * `change` of loopN (size now > 0), a detach two `change`s (size 0, the
 * second with DISK_MEDIA_CHANGE=1); `losetup -d` of an open loop is
 * deferred (loop/autoclear = 1) until its last close.  A hot-plugged disk
 * is an `add` of a block disk, its removal a `remove`. */
#ifndef DS_STATION_HOTPLUG_H
#define DS_STATION_HOTPLUG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One uevent as the monitor received it (any field may be NULL). */
struct hp_uevent {
	const char *action;	/* add, remove, change, ... */
	const char *subsystem;	/* block */
	const char *devtype;	/* disk, partition */
	const char *sysname;	/* sda, loop3, nvme0n1 */
	bool size_known;	/* the disk's size attribute could be read */
	uint64_t size_sectors;	/* its value (512-byte sectors) */
};

enum hp_kind {
	HP_IGNORE,	/* not a whole block disk, or nothing a slot cares about */
	HP_PRESENT,	/* a disk with media is there now (add, or change to size > 0) */
	HP_GONE,	/* the disk is gone or empty (remove, or change to size 0) */
};

struct hp_event {
	enum hp_kind kind;
	char name[32];		/* kernel name */
};

/* Decode one uevent.  Returns out->kind.  Partitions, other subsystems and
 * ram/zram disks are HP_IGNORE; an add without a known size counts as
 * present only when it says nothing about the size (a fresh disk). */
enum hp_kind hotplug_decode(const struct hp_uevent *u, struct hp_event *out);

struct hotplug;
/* Open the monitor: "udev" when udevd runs (/run/udev/control exists), else
 * "kernel".  *source gets the one used.  0 or -errno + err. */
int hotplug_open(struct hotplug **out, const char **source, char *err, size_t errlen);
int hotplug_fd(const struct hotplug *h);	/* poll() it for POLLIN */
/* The next event, decoded: 0 (out->kind may be HP_IGNORE), -EAGAIN none. */
int hotplug_read(struct hotplug *h, struct hp_event *out);
void hotplug_close(struct hotplug *h);
#endif
