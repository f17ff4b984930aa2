/* topology.h - drive -> controller, from the sysfs device path. */
#ifndef DS_TOPOLOGY_H
#define DS_TOPOLOGY_H
#include "inventory/inventory.h"

/* The PCI address (DDDD:BB:DD.F) nearest the drive on its device path, or -ENOENT. */
int topology_pci_address(const char *syspath, char *addr, size_t n);
/* Port on the path: "ata3", "host2", "phy-2:0", "nvme0"; "" when none. */
void topology_port(const char *syspath, char *port, size_t n);
/* Set each drive's controller and port; fill each controller's drive list. */
int topology_link(struct inventory *inv);
#endif
