/* nvme.h - the NVMe drive class: controller and namespace identity, the
 * SMART / health log, the error and self-test logs, read through libnvme.
 *
 * The decoders take libnvme's raw structs (declared only, so that this
 * header does not pull libnvme into every file) and are pure: a unit test
 * feeds them captured bytes.  Every value is a known_* value: what the
 * drive did not report stays unknown, never 0. */
#ifndef DS_NVME_H
#define DS_NVME_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/known.h"

struct nvme_id_ctrl;
struct nvme_id_ns;
struct nvme_smart_log;
struct nvme_error_log_page;
struct nvme_self_test_log;

#define NVME_HEALTH_LBAF_MAX 64
#define NVME_ST_LOG_ENTRIES 20		/* results in the self-test log (06h) */
/* The time limit of each identify and log read (libnvme's args .timeout):
 * a hung drive must not take the kernel's 60 s per command. */
#define NVME_ADMIN_TIMEOUT_MS 5000

/* One self-test log result (newest first in nvme_info.selftest_log). */
struct nvme_st_entry {
	unsigned result;		/* DSTS bits 3:0: 0 no error, 1..4 aborted, 5..7 failed, 8..9 aborted */
	unsigned code;			/* DSTS bits 7:4: 1 short, 2 extended, 0xe vendor */
	unsigned segment;		/* the first segment that failed (result 7) */
	unsigned valid;			/* VDI bits: 0 NSID, 1 failing LBA, 2 SCT, 3 SC */
	uint64_t power_on_hours;	/* when it ended */
	struct known_u64 nsid, failing_lba, sct, sc;	/* unknown where VDI says so */
};

/* Critical warning bits of the health log (byte 0). */
enum nvme_crit_bit {
	NVME_CW_SPARE = 1 << 0,		/* available spare below threshold */
	NVME_CW_TEMPERATURE = 1 << 1,	/* over or under a temperature threshold */
	NVME_CW_DEGRADED = 1 << 2,	/* reliability degraded (media, internal errors) */
	NVME_CW_READ_ONLY = 1 << 3,	/* media placed in read-only mode */
	NVME_CW_VOLATILE = 1 << 4,	/* volatile memory backup failed */
	NVME_CW_PMR_RO = 1 << 5,	/* persistent memory region read-only */
};
/* The names of the bits set in w, ", "-separated ("" none), in buf. */
const char *nvme_crit_text(uint64_t w, char *buf, size_t n);

struct nvme_lbaf_desc {
	uint64_t data_bytes;		/* 2^LBADS */
	uint64_t meta_bytes;		/* MS */
	unsigned rel_perf;		/* RP: 0 best .. 3 degraded */
};

struct nvme_health {
	bool known;			/* the health log was read */
	char reason[160];		/* why not, when !known */
	struct known_u64 critical_warning;	/* bits, enum nvme_crit_bit */
	struct known_i64 temperature_c;	/* composite temperature */
	struct known_u64 available_spare, spare_threshold, percent_used;	/* percent */
	struct known_u64 data_units_read, data_units_written;	/* 1000 x 512 bytes each */
	struct known_u64 power_on_hours, power_cycles, unsafe_shutdowns;
	struct known_u64 media_errors, error_log_entries;
	struct known_u64 warning_temp_minutes, critical_temp_minutes;
};

struct nvme_info {
	bool known;			/* identify controller answered */
	char reason[160];		/* why not, when !known */
	char model[41], serial[21], firmware[9];
	struct known_i64 warning_temp_c, critical_temp_c;	/* WCTEMP, CCTEMP */
	struct known_bool selftest_supported;	/* OACS bit 4 */
	struct known_u64 error_log_capacity;	/* ELPE + 1 entries */
	/* the namespace */
	struct known_u64 nsid;
	char ns_id[48];			/* "nguid:<32 hex>" or "eui64:<16 hex>", "" none */
	struct known_u64 ns_size_lba;	/* NSZE */
	unsigned n_lbaf;
	struct nvme_lbaf_desc lbaf[NVME_HEALTH_LBAF_MAX];
	struct known_u64 lbaf_in_use;	/* index into lbaf */
	struct nvme_health health;
	/* the error log: entries with a non-zero error count, the newest's, and
	 * the newest NVME_ERR_LATEST of them, newest first */
	struct known_u64 error_log_valid, latest_error_count, latest_error_status;
	struct nvme_err_entry {
		uint64_t error_count;
		unsigned sqid, cmdid, status;	/* status: without the phase tag */
		uint64_t lba;			/* as the drive gives it (may not apply) */
		struct known_u64 nsid;		/* unknown: 0 or all ones (not one namespace) */
	} latest[4];
	unsigned n_latest;
	/* the self-test log: the operation under way (0 none) and the newest result */
	char selftest_reason[64];	/* why unknown ("self-test not supported (OACS)") */
	struct known_u64 selftest_current, selftest_percent;
	struct known_u64 selftest_last_result, selftest_last_code;	/* DSTS bits 3:0, 7:4 */
	/* the whole log: its used entries, newest first, and the index of the
	 * newest failed one (result 5..7; unknown: none failed) */
	struct nvme_st_entry selftest_log[NVME_ST_LOG_ENTRIES];
	unsigned n_selftest;
	struct known_u64 selftest_failed_at;
};
/* What a self-test result (DSTS bits 3:0) says ("completed without error"). */
const char *nvme_st_result_text(unsigned result);
/* The newest failed self-test result of n, NULL none (or the log unread). */
const struct nvme_st_entry *nvme_st_failed(const struct nvme_info *n);
/* "LBA 4660 (namespace 1)", "LBA not given" ... of e, in buf. */
const char *nvme_st_where(const struct nvme_st_entry *e, char *buf, size_t n);

/* ---- pure decoders (tests/unit/test_nvme.c) ---- */
void nvme_health_from_ctrl(const struct nvme_id_ctrl *c, struct nvme_info *out);
void nvme_health_from_ns(const struct nvme_id_ns *ns, struct nvme_info *out);
void nvme_health_from_smart(const struct nvme_smart_log *s, struct nvme_health *out);
/* entries: n of them, newest first (as the log returns them) */
void nvme_health_from_errors(const struct nvme_error_log_page *e, size_t n,
			     struct nvme_info *out);
void nvme_health_from_selftest(const struct nvme_self_test_log *l, struct nvme_info *out);

/* Read all of it from the namespace block device at path (open read-only):
 * 0, or -errno with out->reason set.  save_dir: also write the raw pages
 * there as NAME.nvme-{ctrl,ns,smart}.bin (NULL: not). */
int nvme_health_read(const char *path, const char *name, const char *save_dir,
		     struct nvme_info *out);
/* Only the namespace (its id, size, LBA formats) of the block device at
 * path: 0, or -errno with out->reason. */
int nvme_ns_format_read(const char *path, struct nvme_info *out);
#endif
