/* pci.h - storage controllers and their PCIe links, through libpci. */
#ifndef DS_PCI_H
#define DS_PCI_H
#include <stdint.h>
#include "inventory/inventory.h"

/* Usable MB/s per lane, one direction (250/500/985/1969/3938/7380); 0 unknown. */
double pcie_lane_mbps(double gts);
/* LnkCap/LnkSta speed code (1..6) -> GT/s; 0 unknown. */
double pcie_speed_gts(unsigned code);
/* The speed code (LnkCap/LnkSta) of a rate in GT/s as sysfs prints it; 0 none. */
unsigned pcie_speed_code(double gts);

/* Add every storage-class function (01xx) and NVMe device as a controller
 * ("ctrlN" in bus order), with names from pci.ids, driver, NUMA node, the
 * link that feeds it and the narrowest link to the root.  dump_file: libpci
 * dump instead of the live bus (then driver/numa come from nowhere and stay
 * unknown).  sysfs_root: NULL = /sys; another root is read with libpci's
 * sysfs method (<root>/bus/pci), links from the kernel's link attributes
 * where config space is not readable.  0, or -errno when the dump cannot be
 * opened (a note says so).  A malformed dump line, a missing or corrupt
 * pci.ids, a tree without bus/pci: a note each (inv->notes), the rest shows. */
int pci_scan(struct inventory *inv, const char *dump_file, const char *sysfs_root);
/* pci_scan with another pci.ids (NULL = libpci's default path); for tests
 * and inventory_opts.pci_ids. */
int pci_scan_ids(struct inventory *inv, const char *dump_file, const char *sysfs_root,
		 const char *pci_ids);

/* The link at the PCIe capability of the function at ADDRESS itself
 * ("DDDD:BB:DD.F" or "BB:DD.F"; no walk upstream), read from a libpci dump
 * (NULL: the live bus).  link->known false with a reason when it has none.
 * 0, -ENOENT no such function, -EINVAL bad address, or -errno for the dump. */
int pci_link_at(const char *dump_file, const char *address, struct pci_link *link);
#endif
