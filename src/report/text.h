/* text.h - human formatting shared by `list`, the dashboard and reports. */
#ifndef DS_TEXT_H
#define DS_TEXT_H
#include <stdio.h>
#include <stdlib.h>
#include "inventory/inventory.h"

void fmt_capacity(const struct known_u64 *bytes, char *buf, size_t n);	/* "2.00 TB", "?" */
const char *sector_label(const struct drive *d);	/* 512n, 512e, 4Kn, "?" */
void fmt_rotation(const struct drive *d, char *buf, size_t n);	/* "5400 rpm", "SSD", "?" */
const char *trim_label(const struct drive *d);		/* yes, no, ? */
void fmt_smart(const struct drive *d, char *buf, size_t n);	/* good, FAILING, n/a, no answer */
void fmt_link(const struct pci_link *l, char *buf, size_t n);	/* "5GT/s x4 of 5GT/s x8", "link n/a" */
void inventory_print(FILE *f, const struct inventory *inv);
/* A drive's FARM and hidden-capacity lines under its row (inventory-prov.c). */
void inventory_print_prov(FILE *f, const struct drive *d);
#endif
