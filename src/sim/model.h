/* model.h - drive (*.drive), controller (*.hba) and rig (*.rig) models for
 * the simulated bench: what the data files say, validated.  Parsing lives in
 * model.c / rig.c, the behaviour in drive.c. */
#ifndef DS_SIM_MODEL_H
#define DS_SIM_MODEL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_MAX_CURVE 16
#define SIM_MAX_REGIONS 8
#define SIM_MAX_SELFTESTS 21
#define SIM_MAX_SCALING 16
#define SIM_MAX_PORTS 16
#define SIM_MIN_MBPS 0.1	/* slowest rate a model may give (MB/s) */
#define SIM_MIN_SLOW 0.001	/* smallest slow-region rate factor */
#define SIM_MAX_IO_S 600.0	/* one simulated I/O never takes longer (s) */

struct sim_curve_pt {
	double frac;			/* position 0 (outer) .. 1 (inner) */
	double mbps;			/* 10^6 bytes/s */
};

struct sim_region {
	uint64_t start, end;		/* bytes, [start, end) */
	double factor;			/* slow: rate multiplier (0 < f <= 1) */
	double extra_ms;		/* slow: added per I/O (retries) */
};

struct sim_drive_model {
	char name[64];			/* file base name: "WD40EZRX" */
	char file[256];			/* where it came from (for messages) */
	/* identity, as IDENTIFY reports it */
	char model[41], serial[21], firmware[9];
	uint64_t capacity;		/* bytes */
	uint32_t logical, physical, align_offset;
	unsigned rpm;			/* 0 with ssd */
	bool ssd;
	/* behaviour */
	struct sim_curve_pt curve[SIM_MAX_CURVE];	/* read rate, outer -> inner */
	size_t n_curve;
	double write_factor;		/* write rate = read rate x this */
	double access_ms;		/* average random access (seek + half rotation) */
	double track_seek_ms;		/* shortest seek */
	double burst_mbps;		/* reads served from the drive buffer */
	uint32_t buffer_mib;		/* drive buffer (read-ahead window) */
	double write_cmd_us;		/* per-command cost of a cached write at QD1 */
	double ncq_gain;		/* positioning / this for an I/O that waited in the queue */
	double af_rmw_us;		/* read-modify-write of a partly written physical sector */
	double jitter;			/* +- fraction of noise on the transfer rate */
	/* drive-managed SMR */
	bool smr;
	uint64_t smr_cache;		/* media cache bytes */
	uint64_t smr_band;		/* band bytes */
	double cache_write_mbps;	/* writes absorbed by the media cache */
	double clean_mbps;		/* cache freed per second while cleaning */
	double trim_clean_mbps;		/* same, for data written over trimmed space */
	double idle_clean_mbps;		/* cleaning while the host is idle */
	uint64_t smr_cache_used;	/* media cache bytes in use at power-on (a write run just before) */
	/* flaws */
	struct sim_region slow[SIM_MAX_REGIONS];
	size_t n_slow;
	struct sim_region bad[SIM_MAX_REGIONS];	/* unreadable */
	size_t n_bad;
	double error_ms;		/* time a read of an unreadable sector takes */
	/* IDENTIFY extras */
	uint32_t physical_reported;	/* what word 106 says (old AF drives say 512) */
	bool sector_sizes_reported;	/* word 106 valid at all */
	bool trim, trim_deterministic, trim_zeroed;
	unsigned zoned;			/* word 69 bits 1:0; 3 host-managed (sysfs only) */
	unsigned ncq_depth;		/* 0 = no NCQ */
	double sata_max_gbps, sata_cur_gbps;
	/* SMART */
	bool smart;
	double temperature_c;
	uint64_t power_on_hours, reallocated, pending, offline_uncorrectable;
	/* an SSD's wear: SMART 231's normalized value (life left, %) and 241's
	 * raw (LBAs written); 0: the model has no such attribute */
	uint64_t ssd_life_left, lbas_written;
	/* added to reallocated / pending in what a test reads after its I/O
	 * (triage's SMART after): sectors a drive remaps or marks meanwhile */
	uint64_t reallocated_during, pending_during;
	double temperature_during;	/* what SMART reads once the reads began; 0 = no change */
	/* the SMART self-test log, in the file's order (oldest first); "during"
	 * entries show only once a test has run (a self-test ending meanwhile) */
	struct sim_selftest {
		uint8_t type, status;	/* as the log keeps them (ata-selftest.h) */
		uint16_t hours;
		uint32_t lba;
		bool during;
	} selftest[SIM_MAX_SELFTESTS];
	size_t n_selftest;
	/* the NVMe health log ([nvme]: a model of an NVMe drive, no ATA SMART) */
	bool nvme;
	uint64_t nvme_critical_warning, nvme_spare, nvme_spare_threshold, nvme_percent_used;
	uint64_t nvme_media_errors, nvme_media_errors_during;	/* _during: added once a test's I/O ran */
	double nvme_temperature_c;
	uint64_t nvme_data_units_written;	/* 0: not given (unknown) */
	/* a SCSI/SAS drive's READ CAPACITY(16) and health pages ([scsi]: no ATA
	 * SMART); _during: added once a test's I/O ran */
	bool scsi;
	uint32_t scsi_block_bytes;	/* what READ CAPACITY(16) says (520: a storage array's
					   format; the sim still moves 'logical'-byte blocks) */
	bool scsi_protection;
	uint64_t scsi_grown_defects, scsi_grown_defects_during;
	uint64_t scsi_read_uncorrected, scsi_read_uncorrected_during, scsi_write_uncorrected;
	uint64_t scsi_ie_asc, scsi_ie_ascq;	/* informational exception, 0/0 none */
	uint64_t scsi_selftest_result, scsi_selftest_lba;	/* newest self-test: 0 ok, 3..7 failed */
	uint64_t scsi_power_on_hours, scsi_start_stop_cycles;
	double scsi_temperature_c;
	/* its own self-test ([selftest]): how long a short and a long one take
	 * (0: 120 s; the whole surface at its mean rate), a failing LBA (the
	 * test fails when it gets there), or none at all */
	double selftest_short_s, selftest_long_s;
	uint64_t selftest_fail_lba;
	bool selftest_fail;		/* fail_lba was given */
	bool selftest_unsupported;
	/* provenance ([provenance]): a FARM log (farm_power_on_hours > 0) and
	 * its serial ("" the drive's own), the native max (HPA: native_sectors
	 * past the capacity's sectors; 0 none) */
	uint64_t farm_power_on_hours;
	char farm_serial[21];
	uint64_t native_sectors;
};

struct sim_hba_model {
	char name[64];			/* file base name: "88SE9485" */
	char file[256];
	char title[160];		/* as pci.ids would name it */
	uint16_t vendor_id, device_id;
	uint32_t class_code;
	char class_name[64];
	char driver[32];
	unsigned ports;
	bool has_link;			/* false: onboard, "link n/a" */
	double cap_gts, sta_gts;
	unsigned cap_width, sta_width;
	double chip_mbps;		/* 0 = no chip ceiling */
	double port_mbps;		/* per-port limit */
	double scaling[SIM_MAX_SCALING];	/* efficiency with 1..n drives streaming */
	size_t n_scaling;
};

struct sim_rig_ctrl {
	char hba[64];			/* model name */
	unsigned bus;			/* fake PCI bus */
	char drives[SIM_MAX_PORTS][64];	/* model name per port, in order */
	size_t n_drives;
};

struct sim_rig {
	char name[64];
	char file[256];
	struct sim_rig_ctrl ctrl[16];
	size_t n_ctrl;
};

/* Parse one model of each kind from text (file names errors; line numbers
 * count from 1).  0, or -EINVAL with "file:line: message" in err. */
int sim_drive_parse(const char *text, const char *file, struct sim_drive_model *m,
		    char *err, size_t errlen);
int sim_hba_parse(const char *text, const char *file, struct sim_hba_model *m,
		  char *err, size_t errlen);
int sim_rig_parse(const char *text, const char *file, struct sim_rig *r,
		  char *err, size_t errlen);

/* Helpers shared by the parsers (model.c). */
int sim_read_file(const char *file, char **text, char *err, size_t errlen);
void sim_basename(const char *path, char *out, size_t n);	/* without extension */

/* The model registry: built-in models plus files added with sim_model_add_file.
 * Lookups are case-insensitive on the base name.  NULL when absent. */
const struct sim_drive_model *sim_find_drive_model(const char *name);
const struct sim_hba_model *sim_find_hba_model(const char *name);
int sim_model_add_file(const char *file, char *err, size_t errlen);
/* The first built-in model that failed to parse (a bug), or NULL. */
const char *sim_builtin_error(void);
/* Visit every registered drive model (built-in first).  Count. */
size_t sim_drive_model_count(void);
const struct sim_drive_model *sim_drive_model_at(size_t i);

/* Read rate (MB/s) at position frac. */
double sim_curve_rate(const struct sim_drive_model *m, double frac);
#endif
