/* scsi-transport.c - the class of a disk on a SCSI host, from what the host
 * or the device says, never a guess: the host's SCSI transport class in
 * sysfs (sas_host, fc_host, iscsi_host, srp_host, spi_host), a SAT layer's
 * INQUIRY vendor "ATA", VPD 0x83's target port protocol (as the kernel keeps
 * the page in sysfs), the ATA Information page 0x89.  sysfs.c's
 * decide_transport asks here; scsi.transport_from names who said it. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "inventory/scsi.h"
#include "inventory/sysfs.h"

/* The SCSI transport class the first hostN on the path registered
 * (<...>/hostN/sas_host/hostN and the like): "sas", "fc", ..., NULL none. */
static const char *
host_transport(const char *syspath)
{
	static const char *const classes[][2] = {
		{ "sas_host", "sas" }, { "fc_host", "fc" }, { "iscsi_host", "iscsi" },
		{ "srp_host", "srp" }, { "spi_host", "spi" },
	};
	size_t pl;
	const char *h;
	int hl;
	char path[PATH_MAX];
	if (sysfs_first_host(syspath, &pl, &h, &hl))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
		if (pathf(path, sizeof path, "%.*s/%s", (int)pl, syspath, classes[i][0]) == 0 &&
		    access(path, F_OK) == 0)
			return classes[i][1];
	return NULL;
}

/* The target port protocol VPD 0x83 (as the kernel keeps it in sysfs)
 * names: "sas", "fc", ..., "" none. */
static void
vpd83_protocol(const char *dir, char *dst, size_t n)
{
	char p[PATH_MAX];
	uint8_t buf[1024];
	struct scsi_info si;
	dst[0] = 0;
	if (pathf(p, sizeof p, "%s/device/vpd_pg83", dir))
		return;
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t r = read(fd, buf, sizeof buf);
	close(fd);
	memset(&si, 0, sizeof si);
	if (r > 0 && scsi_decode_vpd(buf, (size_t)r, &si) == 0)
		snprintf(dst, n, "%s", si.protocol);
}

enum ds_transport
scsi_transport_said(struct drive *d, enum ds_transport t, const char *what, const char *from)
{
	snprintf(d->scsi.transport, sizeof d->scsi.transport, "%s", what);
	snprintf(d->scsi.transport_from, sizeof d->scsi.transport_from, "%s", from);
	return t;
}

enum ds_transport
scsi_host_transport(const char *dir, struct drive *d, bool ata_vpd, bool ata_vendor, bool sas_hba)
{
	const char *sp = d->syspath;
	const char *ht = host_transport(sp);
	if (ht && strcmp(ht, "sas") == 0)
		return ata_vpd || ata_vendor ? scsi_transport_said(d, TR_SATA, "sata", "sas_host, VPD 0x89") :
		       scsi_transport_said(d, TR_SAS, "sas", "sas_host");
	if (ht)
		return scsi_transport_said(d, TR_SCSI, ht, ht[0] == 'f' ? "fc_host" : ht[0] == 'i' ? "iscsi_host" :
			    ht[1] == 'r' ? "srp_host" : "spi_host");
	if (ata_vendor)
		return scsi_transport_said(d, TR_SATA, "sata", "INQUIRY vendor ATA");
	char proto[16];
	vpd83_protocol(dir, proto, sizeof proto);
	if (strcmp(proto, "sas") == 0)
		return scsi_transport_said(d, TR_SAS, "sas", "VPD 0x83");
	if (strcmp(proto, "ata") == 0)
		return scsi_transport_said(d, TR_SATA, "sata", "VPD 0x83");
	if (proto[0])
		return scsi_transport_said(d, TR_SCSI, proto, "VPD 0x83");
	if (ata_vpd)
		return scsi_transport_said(d, TR_SATA, "sata", "VPD 0x89");
	if (sas_hba)
		return scsi_transport_said(d, TR_SAS, "sas", "SAS HBA driver");
	return scsi_transport_said(d, TR_SCSI, "", "");
}
