/* sysfs.h - block devices from /sys/block (root overridable for tests). */
#ifndef DS_SYSFS_H
#define DS_SYSFS_H
#include "inventory/inventory.h"

/* Add every whole block device worth showing: sd, nvme, vd, hd, mmcblk; loop
 * and zram only when bound (marked virtual).  Skips ram, partitions, dm, md
 * (those appear as holders).  Fills every sysfs fact, partitions, holders,
 * mounts and the open check.  0 or -errno (root unreadable). */
int sysfs_scan_drives(struct inventory *inv, const struct inventory_opts *o);

/* The first hostN directory on a sysfs path: 0 with *prefix the length of
 * the path through it and host, host_len its name; -ENOENT none. */
int sysfs_first_host(const char *syspath, size_t *prefix, const char **host, int *host_len);
/* (scsi-transport.c) Set d->scsi.transport ("sas", "fc", "sata", "" ...)
 * and transport_from (who said it); returns t. */
enum ds_transport scsi_transport_said(struct drive *d, enum ds_transport t, const char *what,
				      const char *from);
/* A disk on a SCSI host (dir its sysfs block directory): the host's
 * transport class, then a SAT layer's vendor "ATA" (ata_vendor), VPD 0x83's
 * protocol, the ATA Information page (ata_vpd), a SAS HBA's driver
 * (sas_hba), in that order; else TR_SCSI with the transport unknown. */
enum ds_transport scsi_host_transport(const char *dir, struct drive *d, bool ata_vpd,
				      bool ata_vendor, bool sas_hba);
#endif
