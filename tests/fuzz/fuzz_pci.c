/* fuzz_pci.c - the --pci-dump path: the input as a libpci dump file (kept
 * in a memfd, named by /proc/self/fd/N), scanned for controllers and links,
 * then one address looked up. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz.h"
#include "inventory/inventory.h"
#include "inventory/pci.h"

static int fd = -1;
static char path[64];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fd < 0) {
		fd = memfd_create("fuzz-pci", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	if (size > (1u << 18) || ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	pci_scan(&inv, path, NULL);
	inventory_free(&inv);
	struct pci_link l;
	pci_link_at(path, "00:1f.2", &l);
	return 0;
}
