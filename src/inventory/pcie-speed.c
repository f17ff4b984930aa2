/* pcie-speed.c - the PCIe link speeds: GT/s and usable MB/s per lane of each
 * LnkCap/LnkSta speed code, for libpci's registers and sysfs' text alike. */
#include <stddef.h>
#include "inventory/pci.h"

/* Usable MB/s per lane at each LnkCap/LnkSta speed code (index = code). */
static const struct pcie_speed {
	double gts;
	double lane_mbps;
} pcie_speeds[] = {
	[1] = { 2.5, 250 },	/* 8b/10b */
	[2] = { 5.0, 500 },	/* 8b/10b */
	[3] = { 8.0, 985 },	/* 128b/130b */
	[4] = { 16.0, 1969 },
	[5] = { 32.0, 3938 },
	[6] = { 64.0, 7380 },	/* PAM4, FLIT mode overhead */
};

double
pcie_speed_gts(unsigned code)
{
	if (code >= ARRAY_SIZE(pcie_speeds))
		return 0;
	return pcie_speeds[code].gts;
}

double
pcie_lane_mbps(double gts)
{
	for (size_t i = 1; i < ARRAY_SIZE(pcie_speeds); i++)
		if (gts > pcie_speeds[i].gts - 0.05 && gts < pcie_speeds[i].gts + 0.05)
			return pcie_speeds[i].lane_mbps;
	return 0;
}

unsigned
pcie_speed_code(double gts)
{
	double lane = pcie_lane_mbps(gts);
	for (unsigned c = 1; lane > 0 && c < ARRAY_SIZE(pcie_speeds); c++)
		if (lane == pcie_speeds[c].lane_mbps)
			return c;
	return 0;
}
