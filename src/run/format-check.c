/* format-check.c - no write test starts on a drive whose logical blocks are
 * not 512/4096 bytes: a SAS drive pulled from a storage array keeps its
 * 520/528-byte format, which no host file system uses and which a write test
 * would only fail on.  The drive as its source shows it says so (the SCSI
 * reader's READ CAPACITY(16), a sim model's [scsi]); asked only of targets
 * that can be SCSI disks, so a write run on a loop device or an ATA disk
 * costs no inventory scan. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "inventory/inventory.h"
#include "run/runner.h"

/* A SCSI disk that is not an ATA drive behind SAT (its vendor "ATA"): the
 * one kind READ CAPACITY(16) can show a 520-byte format for. */
static bool
maybe_scsi(const struct dev_facts *f)
{
	char path[PATH_MAX + 32], vendor[16] = "";
	if (f->simulated)
		return true;
	if (!f->diskdir[0] || snprintf(path, sizeof path, "%s/device/vendor", f->diskdir) >= (int)sizeof path)
		return false;
	FILE *fp = fopen(path, "r");
	if (!fp)
		return false;
	bool ok = fgets(vendor, sizeof vendor, fp) != NULL;
	fclose(fp);
	return ok && strncmp(vendor, "ATA", 3) != 0;
}

int
plan_check_format(const struct plan *p, const struct target *t, char *err, size_t errlen)
{
	const struct dev_source *src = t->facts.source;
	if (!plan_writes(p) || !src || !src->drive || !maybe_scsi(&t->facts))
		return 0;
	struct inventory inv = { 0 };
	struct drive *d = NULL;
	int rc = 0;
	if (!src->drive(&t->facts, t->path, &inv, &d) && d && d->scsi.known &&
	    d->scsi.format == SCSI_FMT_NEEDS_FORMAT) {
		snprintf(err, errlen, "refused: %s needs a low-level format to 512 before use: its logical blocks are "
			 "%llu bytes (READ CAPACITY(16)); sg_format --format --size=512 %s fixes it, "
			 "and erases it", t->name, (unsigned long long)d->scsi.logical_bytes.v,
			 d->scsi.sg_node[0] ? d->scsi.sg_node : "on its sg device");
		rc = -EPERM;
	}
	inventory_free(&inv);
	return rc;
}
