/* inventory.h - the merged bench model: controllers, drives, and what is known
 * of each.  Every fact carries a validity bit: unknown is never shown as 0. */
#ifndef DS_INVENTORY_H
#define DS_INVENTORY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "inventory/farm.h"
#include "inventory/nvme.h"
#include "inventory/scsi.h"
#include "util/known.h"
#include "util/util.h"

enum ds_transport {
	TR_UNKNOWN, TR_SATA, TR_SAS, TR_NVME, TR_USB, TR_VIRTIO, TR_LOOP,
	TR_ZRAM, TR_SCSI, TR_MMC, TR_IDE, TR_SIM,
};
const char *transport_name(enum ds_transport t);	/* "sata", "nvme", ... */
struct drive;
/* A drive whose health is its SCSI log pages: a SAS or SCSI disk, or a sim
 * drive modelled as one (its scsi facts filled). */
bool drive_scsi_class(const struct drive *d);

/* Whether diskscope could open the device read-only. */
enum ds_access {
	ACC_UNCHECKED,	/* not tried (e.g. offline --sysfs-root) */
	ACC_OK,
	ACC_DENIED,	/* open failed: access_errno says why (EPERM/EACCES/...) */
	ACC_GONE,	/* vanished during enumeration */
};

/* ---- ATA IDENTIFY, decoded by our own decoder (ata.c) ---- */
enum ata_zoned { ZONED_NONE = 0, ZONED_HOST_AWARE = 1, ZONED_DEVICE_MANAGED = 2,
		 ZONED_RESERVED = 3 };

struct ata_identify {
	uint16_t words[256];		/* raw, host order */
	char model[41], serial[21], firmware[9];
	struct known_u64 capacity_bytes;	/* LBA48 when supported, else LBA28 */
	struct known_u64 sectors;		/* user addressable logical sectors */
	bool lba48;
	struct known_u64 logical;		/* bytes; known only when word 106 is valid */
	struct known_u64 physical;		/* bytes */
	bool sector_size_reported;	/* word 106 valid (else 512/512 assumed) */
	struct known_u64 alignment_offset;	/* bytes (word 209), when valid */
	struct known_u64 rotation_rpm;	/* known && v == 0 means SSD (word 217 == 1) */
	bool ssd;			/* word 217 == 1 */
	struct known_u64 trim;		/* word 169 bit 0 (0/1) */
	struct known_u64 trim_deterministic; /* word 69 bit 14 */
	struct known_u64 trim_zeroed;	/* word 69 bit 5 */
	struct known_u64 zoned;		/* enum ata_zoned, word 69 bits 1:0 */
	struct known_u64 ncq_depth;	/* word 75 + 1, when NCQ (word 76 bit 8) */
	struct known_dbl sata_max_gbps;	/* highest of word 76 bits 3:1 */
	struct known_dbl sata_cur_gbps;	/* word 77 bits 3:1 */
	struct known_u64 smart_supported;	/* word 82 bit 0 */
	struct known_u64 smart_enabled;	/* word 85 bit 0 (diskscope never enables it) */
};

struct smart_attr {
	uint8_t id;
	char name[48];
	struct known_u64 value, worst, threshold;
	uint64_t raw;			/* 48-bit raw value */
	char pretty[48];		/* libatasmart's pretty value, formatted */
	bool prefailure;
	bool failing_now;		/* value <= threshold */
	bool failed_past;		/* worst <= threshold */
};

struct smart_info {
	bool known;			/* SMART data was read and parsed */
	char reason[128];		/* why not, when !known */
	struct known_u64 status_good;	/* SMART RETURN STATUS (SMST record) */
	char overall[32];		/* libatasmart overall: "good", "bad_sector", ... */
	struct known_dbl temperature_c;
	struct known_u64 power_on_hours;
	struct known_u64 reallocated;	/* attr 5 raw */
	struct known_u64 pending;		/* attr 197 raw */
	struct known_u64 offline_uncorrectable; /* attr 198 raw */
	struct smart_attr *attrs;
	size_t n_attrs;
};

enum ata_state {
	ATA_NOT_ATA,		/* not an ATA device (NVMe, virtio, loop...) */
	ATA_PENDING,		/* query under way */
	ATA_OK,
	ATA_NO_ANSWER,		/* timed out */
	ATA_FAILED,		/* query failed: reason says why */
};

struct ata_info {
	enum ata_state state;
	char reason[160];
	char via[16];		/* "libatasmart", "sg_io", "blob", "sim" */
	struct ata_identify id;
	struct smart_info smart;
	struct farm_info farm;		/* FARM log 0xA6 (farm.h): provenance */
	struct hidden_capacity hidden;	/* HPA / DCO against IDENTIFY */
};

/* ---- SMR assessment (smr.c): a verdict with its evidence ---- */
enum smr_verdict { SMR_UNKNOWN, SMR_UNLIKELY, SMR_POSSIBLE, SMR_LIKELY, SMR_ZONED };
const char *smr_verdict_name(enum smr_verdict v); /* "unknown", "unlikely", ... */

struct smr_assessment {
	enum smr_verdict verdict;
	struct strlist evidence;
};

/* ---- a drive ---- */
struct drive {
	char name[32];			/* kernel name: sda, nvme0n1, loop3, sim0 */
	char path[64];			/* /dev/sda, or sim:MODEL */
	char id[128];			/* stable id: serial, else WWN, else by-path */
	char id_source[16];		/* "serial", "wwn", "by-path", "name" */
	char model[64], vendor[32], serial[64], firmware[32], wwn[64];
	enum ds_transport transport;
	bool virtual_dev;		/* loop, zram, sim */
	char backing[256];		/* loop backing file */
	struct known_u64 capacity_bytes;
	struct known_u64 logical, physical;	/* bytes */
	char sector_source[16];		/* "sysfs", "identify" */
	struct known_u64 min_io, opt_io, alignment_offset, discard_granularity;
	struct known_u64 rotational;	/* 0/1 as sysfs says */
	struct known_u64 rotation_rpm;	/* from IDENTIFY, SCSI VPD page B1 (or model); known 0 = SSD */
	struct known_dbl link_gbps;	/* SATA link speed the kernel negotiated (ata_link sata_spd) */
	char zoned[24];			/* sysfs queue/zoned: none, host-aware, host-managed; "" unknown */
	char write_cache[24];		/* "write back", "write through"; "" unknown */
	bool removable, readonly;
	struct strlist partitions;	/* sda1, sda2 */
	struct strlist holders;		/* dm-0, md0 (of the disk or its partitions) */
	struct strlist mounts;		/* "/dev/sda1 on /mnt/x" style: "sda1 /mnt/x" */
	enum ds_access access;
	int access_errno;		/* positive errno when ACC_DENIED */
	char syspath[512];		/* resolved /sys/devices/... path */
	int controller;			/* index into inventory.ctrl, -1 none */
	char port[48];			/* "ata3", "host2", "phy-0:1", "nvme0" */
	struct ata_info ata;
	struct nvme_info nvme;		/* an NVMe drive (nvme.c); else .reason says why not */
	struct scsi_info scsi;		/* a SCSI/SAS disk (scsi.c); else .reason says why not */
	struct smr_assessment smr;
	struct strlist warnings;	/* one sentence each */
};

/* ---- a controller and its PCIe link ---- */
struct pci_link {
	bool known;			/* false: no PCIe capability ("link n/a") */
	char reason[96];		/* why unknown */
	double cap_gts, sta_gts;	/* GT/s */
	unsigned cap_width, sta_width;	/* lanes */
	struct known_dbl cap2_max_gts;	/* from LnkCap2, when present */
	bool downgraded;		/* status below capability (speed or width) */
	double ceiling_mbps;		/* usable MB/s at status, one direction */
	struct known_dbl cap_ceiling_mbps;	/* at capability (LnkCap speed and width valid) */
};

struct controller {
	char id[16];			/* "ctrl0" */
	char address[16];		/* "0000:03:00.0" */
	uint16_t vendor_id, device_id;
	uint32_t class_code;		/* 24-bit class (e.g. 0x010601) */
	char name[160];			/* vendor + device from pci.ids */
	char class_name[64];		/* "SATA controller" */
	char driver[32];
	bool driver_known;		/* sysfs was read: "" then means no driver bound (pci.c) */
	struct known_u64 numa_node;
	struct pci_link link;		/* the link that feeds it (own or upstream port's) */
	char link_from[16];		/* address whose link that is */
	struct pci_link narrowest;	/* narrowest link on the path to the root */
	char narrowest_at[16];		/* address of that link */
	bool simulated;
	struct strlist drives;		/* kernel names of its drives */
};

struct inventory {
	struct controller *ctrl;
	size_t n_ctrl;
	struct drive *drv;
	size_t n_drv;
	struct strlist notes;		/* one line each: what could not be read, and why */
	bool incomplete;		/* some facts unavailable (exit 1 with --strict) */
	char error[320];		/* when inventory_scan fails: the one-line reason */
	struct ata_batch *ata_pending;	/* ata_async: queries still out (inventory_poll) */
};

struct blob_arg {			/* --ata-blob NAME=FILE */
	char name[32];
	char file[256];
};

struct inventory;
struct inventory_opts;
/* A source of drives beyond the hardware (the simulated rig).  The inventory
 * owns this interface so that it never depends on sim: whoever builds the
 * options (cli/globals.c) points it at sim_inventory_source.  Called when
 * opts.demo is set, after the ATA scan, before the SMR assessment.  0 or
 * -errno with one line in err. */
typedef int (*inventory_source_fn)(struct inventory *inv, const struct inventory_opts *o,
				   char *err, size_t errlen);

struct inventory_opts {
	const char *sysfs_root;		/* default "/sys" */
	const char *dev_root;		/* default "/dev" */
	const char *mounts_file;	/* default "/proc/self/mounts" */
	const char *pci_dump;		/* libpci dump file instead of the live bus */
	const struct blob_arg *blobs;
	size_t n_blobs;
	const char *save_blobs;		/* directory */
	unsigned ata_timeout_ms;	/* per query, default 5000 */
	bool no_ata;			/* skip ATA/SMART queries */
	bool ata_async;			/* return before ATA answers; inventory_poll folds them in */
	bool demo;			/* add the simulated rig */
	const char *demo_rig;		/* rig file, NULL = built-in seed-bench.rig */
	const char *const *sim_models;	/* --sim-model files */
	size_t n_sim_models;
	inventory_source_fn extra_drives;	/* the rig's drives for demo (above) */
	const char *pci_ids;		/* pci.ids file, NULL = libpci default (pci_scan_ids) */
};

void inventory_opts_default(struct inventory_opts *o);
/* Build the whole inventory.  Returns 0 (even when some facts are missing:
 * see inv->notes) or -errno when nothing could be enumerated at all. */
int inventory_scan(struct inventory *inv, const struct inventory_opts *o);
void inventory_free(struct inventory *inv);
/* With ata_async: fold in the ATA/SMART answers that have arrived (call from
 * the thread that owns inv).  Returns how many drives changed; 0 when nothing
 * new or nothing pending. */
size_t inventory_poll(struct inventory *inv);

/* Lookups: by kernel name ("sda", "/dev/sda"), controller by "ctrl:N",
 * "ctrl:ADDRESS", "ctrlN" or address.  NULL / -1 when not found. */
struct drive *inventory_find_drive(struct inventory *inv, const char *name);
int inventory_find_controller(const struct inventory *inv, const char *spec);
/* A drive by any name `list` shows: kernel name or path, serial, WWN (with or
 * without "0x"/"naa."/"wwn-"), its id, a /dev/disk/by-* link (resolved), a
 * sim drive's name.  NULL when none, or when the name fits two drives. */
struct drive *inventory_match_drive(struct inventory *inv, const char *name);

/* TRIM, from one source for every view: IDENTIFY word 169 when the drive
 * answered, else the kernel's discard support (queue/discard_granularity
 * non-zero).  known=false when neither says; src names the source. */
struct known_u64 drive_trim(const struct drive *d, const char **src);
/* The drive holds the root filesystem (a mount of "/" on it, a partition or
 * a holder of it). */
bool drive_holds_root(const struct drive *d);
/* Whether a test may be offered on it at all: opened fine (or not checked)
 * and not the root disk.  false with a short reason ("holds /"). */
bool drive_testable(const struct drive *d, const char **why);

/* Append helpers (grow arrays; returned pointer valid until next append). */
struct drive *inventory_add_drive(struct inventory *inv);
struct controller *inventory_add_controller(struct inventory *inv);
void drive_free(struct drive *d);
void controller_free(struct controller *c);
#endif
