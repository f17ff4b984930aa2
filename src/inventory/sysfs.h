/* sysfs.h - block devices from /sys/block (root overridable for tests). */
#ifndef DS_SYSFS_H
#define DS_SYSFS_H
#include "inventory/inventory.h"

/* Add every whole block device worth showing: sd, nvme, vd, hd, mmcblk; loop
 * and zram only when bound (marked virtual).  Skips ram, partitions, dm, md
 * (those appear as holders).  Fills every sysfs fact, partitions, holders,
 * mounts and the open check.  0 or -errno (root unreadable). */
int sysfs_scan_drives(struct inventory *inv, const struct inventory_opts *o);
#endif
