/* pci.h - storage controllers and their PCIe links, through libpci. */
#ifndef DS_PCI_H
#define DS_PCI_H
#include <stdint.h>
#include "inventory/inventory.h"

/* Usable MB/s per lane, one direction (250/500/985/1969/3938/7380); 0 unknown. */
double pcie_lane_mbps(double gts);
/* LnkCap/LnkSta speed code (1..6) -> GT/s; 0 unknown. */
double pcie_speed_gts(unsigned code);

/* Add every storage-class function (01xx) and NVMe device as a controller,
 * with names from pci.ids, driver, NUMA node, the link that feeds it and the
 * narrowest link to the root.  dump_file: libpci dump instead of the live bus
 * (then driver/numa come from nowhere and stay unknown).  0 or -errno; a
 * missing pci.ids is a note, not a failure. */
int pci_scan(struct inventory *inv, const char *dump_file, const char *sysfs_root);
#endif
