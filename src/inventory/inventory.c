/* inventory.c - the merged bench model: drives from sysfs, controllers from
 * libpci, the links between them, then ATA/SMART and the SMR verdicts. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "inventory/facts.h"
#include "inventory/inventory.h"
#include "inventory/ata.h"
#include "inventory/pci.h"
#include "inventory/smr.h"
#include "inventory/sysfs.h"
#include "inventory/topology.h"

static const char *const transport_names[] = {
	[TR_UNKNOWN] = "unknown", [TR_SATA] = "sata", [TR_SAS] = "sas",
	[TR_NVME] = "nvme", [TR_USB] = "usb", [TR_VIRTIO] = "virtio",
	[TR_LOOP] = "loop", [TR_ZRAM] = "zram", [TR_SCSI] = "scsi",
	[TR_MMC] = "mmc", [TR_IDE] = "ide", [TR_SIM] = "sim",
};

bool
drive_scsi_class(const struct drive *d)
{
	return d->transport == TR_SAS || d->transport == TR_SCSI || (d->transport == TR_SIM && d->scsi.known);
}

const char *
transport_name(enum ds_transport t)
{
	if ((size_t)t >= ARRAY_SIZE(transport_names) || !transport_names[t])
		return "unknown";
	return transport_names[t];
}

void
inventory_opts_default(struct inventory_opts *o)
{
	memset(o, 0, sizeof *o);
	o->sysfs_root = "/sys";
	o->dev_root = "/dev";
	o->mounts_file = "/proc/self/mounts";
	o->ata_timeout_ms = 5000;
}

struct drive *
inventory_add_drive(struct inventory *inv)
{
	struct drive *v = realloc(inv->drv, (inv->n_drv + 1) * sizeof *v);
	if (!v)
		return NULL;
	inv->drv = v;
	struct drive *d = &v[inv->n_drv++];
	memset(d, 0, sizeof *d);
	d->controller = -1;
	return d;
}

struct controller *
inventory_add_controller(struct inventory *inv)
{
	struct controller *v = realloc(inv->ctrl, (inv->n_ctrl + 1) * sizeof *v);
	if (!v)
		return NULL;
	inv->ctrl = v;
	struct controller *c = &v[inv->n_ctrl++];
	memset(c, 0, sizeof *c);
	return c;
}

void
drive_free(struct drive *d)
{
	strlist_free(&d->partitions);
	strlist_free(&d->holders);
	strlist_free(&d->mounts);
	strlist_free(&d->warnings);
	strlist_free(&d->smr.evidence);
	ata_info_free(&d->ata);
}

void
controller_free(struct controller *c)
{
	strlist_free(&c->drives);
}

void
inventory_free(struct inventory *inv)
{
	if (inv->ata_pending)
		ata_query_abandon(inv->ata_pending);
	for (size_t i = 0; i < inv->n_drv; i++)
		drive_free(&inv->drv[i]);
	for (size_t i = 0; i < inv->n_ctrl; i++)
		controller_free(&inv->ctrl[i]);
	free(inv->drv);
	free(inv->ctrl);
	strlist_free(&inv->notes);
	memset(inv, 0, sizeof *inv);
}

struct drive *
inventory_find_drive(struct inventory *inv, const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < inv->n_drv; i++)
		if (strcmp(inv->drv[i].path, name) == 0)
			return &inv->drv[i];
	if (strncmp(name, "/dev/", 5) == 0)
		name += 5;
	for (size_t i = 0; i < inv->n_drv; i++)
		if (strcmp(inv->drv[i].name, name) == 0)
			return &inv->drv[i];
	return NULL;
}

/* WWNs are written "0x5000c500...", "naa.5000c500...", "wwn-0x5000..." */
static const char *
wwn_bare(const char *s)
{
	if (strncmp(s, "wwn-", 4) == 0)
		s += 4;
	if (strncasecmp(s, "0x", 2) == 0 || strncasecmp(s, "naa.", 4) == 0 ||
	    strncasecmp(s, "eui.", 4) == 0)
		s += s[1] == 'x' || s[1] == 'X' ? 2 : 4;
	return s;
}

struct drive *
inventory_match_drive(struct inventory *inv, const char *name)
{
	struct drive *d, *hit = NULL;
	char real[PATH_MAX];

	if (!name || !*name)
		return NULL;
	if ((d = inventory_find_drive(inv, name)))
		return d;
	/* /dev/disk/by-id/..., by-path, a symlink: the node it names */
	if (name[0] == '/' && realpath(name, real) && (d = inventory_find_drive(inv, real)))
		return d;
	const char *rest;
	if (dev_spec_simulated(name, &rest) && (d = inventory_find_drive(inv, rest)))
		return d;
	for (size_t i = 0; i < inv->n_drv; i++) {
		const struct drive *x = &inv->drv[i];
		bool m = (x->serial[0] && strcmp(x->serial, name) == 0) ||
			 (x->id[0] && strcmp(x->id, name) == 0) ||
			 (x->wwn[0] && strcasecmp(wwn_bare(x->wwn), wwn_bare(name)) == 0);
		if (!m)
			continue;
		if (hit && hit != x)
			return NULL;	/* two drives answer to it: never guess */
		hit = &inv->drv[i];
	}
	return hit;
}

struct known_u64
drive_trim(const struct drive *d, const char **src)
{
	struct known_u64 t = { 0 };
	const char *s = NULL;

	if (d->ata.state == ATA_OK && d->ata.id.trim.known) {
		t = d->ata.id.trim;
		s = "identify";
	} else if (d->discard_granularity.known) {
		KNOWN_SET(t, d->discard_granularity.v > 0);
		s = "sysfs";
	}
	if (src)
		*src = s;
	return t;
}

bool
drive_holds_root(const struct drive *d)
{
	for (size_t i = 0; i < d->mounts.n; i++) {	/* "sda1 /" */
		const char *sp = strrchr(d->mounts.v[i], ' ');
		if (sp && strcmp(sp + 1, "/") == 0)
			return true;
	}
	return false;
}

bool
drive_testable(const struct drive *d, const char **why)
{
	const char *w = NULL;

	if (d->access == ACC_DENIED)
		w = "cannot be opened";
	else if (d->access == ACC_GONE)
		w = "is gone";
	else if (drive_holds_root(d))
		w = "holds /";
	if (why)
		*why = w;
	return !w;
}

int
inventory_find_controller(const struct inventory *inv, const char *spec)
{
	if (!spec)
		return -1;
	if (strncmp(spec, "ctrl:", 5) == 0)
		spec += 5;
	else if (strncmp(spec, "ctrl", 4) == 0 && str_isdigits(spec + 4))
		spec += 4;
	if (str_isdigits(spec)) {		/* "ctrl:1", "ctrl1": the id, else the index */
		char id[24];
		pathf(id, sizeof id, "ctrl%s", spec);
		for (size_t k = 0; k < inv->n_ctrl; k++)
			if (strcmp(inv->ctrl[k].id, id) == 0)
				return (int)k;
		unsigned long n = strtoul(spec, NULL, 10);
		return n < inv->n_ctrl ? (int)n : -1;
	}
	size_t sl = strlen(spec);
	for (size_t k = 0; k < inv->n_ctrl; k++) {
		const char *a = inv->ctrl[k].address;
		size_t al = strlen(a);
		if (strcasecmp(a, spec) == 0)
			return (int)k;
		/* "03:00.0" names the function in domain 0000 */
		if (sl == 7 && al == 12 && strncmp(a, "0000:", 5) == 0 && strcasecmp(a + 5, spec) == 0)
			return (int)k;
	}
	return -1;
}

/* IDENTIFY may have brought the serial sysfs lacked: the id follows it. */
static void
refresh_id(struct drive *d)
{
	/* only a weaker id gives way (an NVMe namespace id never does) */
	if (!d->serial[0] || (strcmp(d->id_source, "wwn") && strcmp(d->id_source, "by-path") &&
			      strcmp(d->id_source, "name")))
		return;
	strtrimcpy(d->id, sizeof d->id, d->serial);
	strcpy(d->id_source, "serial");
}

/* The NVMe drives' identity and health (nvme.c): admin commands answer in
 * milliseconds, so they are read here even when ATA answers come later. */
static void
nvme_query_all(struct inventory *inv, const struct inventory_opts *o)
{
	bool offline = o->sysfs_root && strcmp(o->sysfs_root, "/sys") != 0;
	for (size_t i = 0; i < inv->n_drv; i++) {
		struct drive *d = &inv->drv[i];
		struct nvme_info *n = &d->nvme;
		const char *why = NULL;
		memset(n, 0, sizeof *n);
		if (d->transport != TR_NVME)
			why = "not an NVMe drive";
		else if (o->no_ata)
			why = "not queried (--no-ata)";
		else if (offline)
			why = "not queried: offline inventory (--sysfs-root)";
		else if (d->access == ACC_DENIED || d->access == ACC_GONE)
			why = d->access == ACC_GONE ? "not queried: device vanished" :
			      "not queried: cannot open the device";
		if (why) {
			snprintf(n->reason, sizeof n->reason, "%s", why);
			snprintf(n->health.reason, sizeof n->health.reason, "%s", why);
			continue;
		}
		if (nvme_health_read(d->path, d->name, o->save_blobs, n) < 0) {
			inv->incomplete = true;
			strlist_addf(&inv->notes, "%s: NVMe: %s", d->name, n->reason);
			continue;
		}
		if (n->lbaf_in_use.known) {	/* the namespace's own format outranks sysfs */
			KNOWN_SET(d->logical, n->lbaf[n->lbaf_in_use.v].data_bytes);
			if (!d->physical.known || d->physical.v < d->logical.v)
				d->physical = d->logical;
			snprintf(d->sector_source, sizeof d->sector_source, "namespace");
		}
		if (!n->health.known) {
			strlist_addf(&inv->notes, "%s: NVMe %s", d->name, n->health.reason);
		}
	}
}

/* The SCSI generic node of a disk (<syspath>/device/scsi_generic/sgN). */
static void
scsi_sg_node(const struct drive *d, const char *dev_root, char *dst, size_t n)
{
	char p[PATH_MAX];
	dst[0] = 0;
	if (!d->syspath[0] || pathf(p, sizeof p, "%s/device/scsi_generic", d->syspath))
		return;
	DIR *dir = opendir(p);
	if (!dir)
		return;
	for (struct dirent *e; (e = readdir(dir));)
		if (strncmp(e->d_name, "sg", 2) == 0 && str_isdigits(e->d_name + 2)) {
			snprintf(dst, n, "%s/%.8s", dev_root ? dev_root : "/dev", e->d_name);
			break;
		}
	closedir(dir);
}

/* Why a SCSI disk is not queried, or NULL: it is. */
static const char *
scsi_skip_reason(const struct drive *d, const struct inventory_opts *o, bool offline)
{
	if (d->transport != TR_SAS && d->transport != TR_SCSI && d->transport != TR_SATA)
		return "not a SCSI drive";
	if (d->transport == TR_SATA && strncmp(d->name, "sd", 2) != 0)
		return "not a SCSI drive";
	if (o->no_ata)
		return "not queried (--no-ata)";
	if (offline)
		return "not queried: offline inventory (--sysfs-root)";
	if (d->access == ACC_DENIED || d->access == ACC_GONE)
		return d->access == ACC_GONE ? "not queried: device vanished" :
		       "not queried: cannot open the device";
	return NULL;
}

/* The SCSI disks' identity, format and health (scsi.c): SAS and SCSI
 * disks, and a SATA disk's SCSI face (the SAT layer: INQUIRY, VPD, READ
 * CAPACITY, which libata answers itself).  Each command is bounded. */
static void
scsi_query_all(struct inventory *inv, const struct inventory_opts *o)
{
	bool offline = o->sysfs_root && strcmp(o->sysfs_root, "/sys") != 0;
	for (size_t i = 0; i < inv->n_drv; i++) {
		struct drive *d = &inv->drv[i];
		struct scsi_info *s = &d->scsi;
		const char *why = scsi_skip_reason(d, o, offline);
		if (why) {
			snprintf(s->reason, sizeof s->reason, "%s", why);
			snprintf(s->health.reason, sizeof s->health.reason, "%s", why);
			continue;
		}
		if (scsi_info_read(d->path, d->name, o->save_blobs, s) < 0) {
			if (d->transport != TR_SATA) {
				inv->incomplete = true;
				strlist_addf(&inv->notes, "%s: SCSI: %s", d->name, s->reason);
			}
			continue;
		}
		scsi_sg_node(d, o->dev_root, s->sg_node, sizeof s->sg_node);
		if (s->rotation_rpm.known && !d->rotation_rpm.known)
			d->rotation_rpm = s->rotation_rpm;
		if (!d->serial[0] && s->serial[0])
			strtrimcpy(d->serial, sizeof d->serial, s->serial);
		if (d->transport != TR_SATA && !s->health.known)
			strlist_addf(&inv->notes, "%s: SCSI health: %s", d->name, s->health.reason);
	}
}

int
inventory_scan(struct inventory *inv, const struct inventory_opts *o)
{
	struct inventory_opts def;
	if (!o) {
		inventory_opts_default(&def);
		o = &def;
	}
	const char *root = o->sysfs_root ? o->sysfs_root : "/sys";

	int rc = sysfs_scan_drives(inv, o);
	if (rc < 0) {
		strlist_addf(&inv->notes, "sysfs root %s: %s", root, strerror(-rc));
		snprintf(inv->error, sizeof inv->error, "sysfs root %s: %s", root, strerror(-rc));
		return rc;
	}

	rc = pci_scan_ids(inv, o->pci_dump, root, o->pci_ids);
	if (rc < 0) {
		inv->incomplete = true;
		if (o->pci_dump) {	/* the user named this file: a bad one is an error */
			/* the scan's last note says why (line, expectation) */
			if (inv->notes.n)
				snprintf(inv->error, sizeof inv->error, "%s",
					 inv->notes.v[inv->notes.n - 1]);
			else
				snprintf(inv->error, sizeof inv->error, "pci dump %s: %s",
					 o->pci_dump, strerror(-rc));
			return rc;
		}
		strlist_addf(&inv->notes, "controllers: %s", strerror(-rc));
	}
	rc = topology_link(inv);
	if (rc < 0)
		return rc;

	/* Also under --no-ata: it still decodes --ata-blob files and marks the
	 * rest "not queried".  The dashboard does not wait: sysfs facts first,
	 * ATA/SMART as they arrive (inventory_poll). */
	rc = o->ata_async ? ata_query_start(inv, o, &inv->ata_pending) : ata_query_all(inv, o);
	if (rc < 0) {
		inv->incomplete = true;
		strlist_addf(&inv->notes, "ATA queries: %s", strerror(-rc));
	}
	nvme_query_all(inv, o);
	scsi_query_all(inv, o);
	for (size_t i = 0; i < inv->n_drv; i++)
		refresh_id(&inv->drv[i]);

	/* The simulated rig joins as if it were hardware; its drives carry their
	 * own controller links and IDENTIFY facts, so they come before the SMR
	 * assessment below. */
	if (o->demo) {
		char err[256] = "no simulated drive source";
		rc = o->extra_drives ? o->extra_drives(inv, o, err, sizeof err) : -ENOSYS;
		if (rc < 0) {
			snprintf(inv->error, sizeof inv->error, "%s", err[0] ? err : strerror(-rc));
			return rc;
		}
	}

	for (size_t i = 0; i < inv->n_drv; i++)
		smr_assess(&inv->drv[i]);
	return 0;
}

size_t
inventory_poll(struct inventory *inv)
{
	size_t n = 0;
	if (!inv->ata_pending)
		return 0;
	size_t *changed = calloc(inv->n_drv ? inv->n_drv : 1, sizeof *changed);
	if (!changed)
		return 0;	/* try again next time */
	if (ata_query_collect(inv, inv->ata_pending, false, changed, inv->n_drv, &n))
		inv->ata_pending = NULL;	/* done and released */
	for (size_t i = 0; i < n && i < inv->n_drv; i++) {
		refresh_id(&inv->drv[changed[i]]);
		smr_assess(&inv->drv[changed[i]]);	/* the ATA facts are its evidence */
	}
	free(changed);
	return n;
}
