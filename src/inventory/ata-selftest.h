/* ata-selftest.h - the SMART self-test log (ATA log address 06h, read with
 * SMART READ LOG): 21 descriptors of 24 bytes, the index of the newest, a
 * checksum.  libatasmart does not read it; we do, over SG_IO (read-only).
 * Its failing LBA is a 28/32-bit field: past 2^32 sectors only the extended
 * log (07h, not read here) has it whole. */
#ifndef DS_ATA_SELFTEST_H
#define DS_ATA_SELFTEST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ATA_SELFTEST_LOG 0x06
#define ATA_SELFTEST_N 21
#define ATA_SELFTEST_SIZE 512

struct ata_selftest {
	uint8_t type;			/* LBA low when started: 1 short, 2 extended, 3 conveyance,
					   4 selective; +0x80 captive */
	uint8_t status;			/* 0 ok, 1 aborted, 2 interrupted, 3..8 failed, 15 running */
	uint8_t remaining;		/* percent left */
	uint16_t hours;			/* power-on hours when it ended */
	uint8_t checkpoint;
	bool lba_known;			/* a failed test's first failing LBA */
	uint32_t lba;
};

struct ata_selftest_log {
	size_t n;			/* entries, newest first */
	struct ata_selftest e[ATA_SELFTEST_N];
};

/* Decode a 512-byte log: 0, or -EINVAL with the reason (checksum, index out
 * of range).  Pure. */
int ata_selftest_parse(const uint8_t log[ATA_SELFTEST_SIZE], struct ata_selftest_log *out,
		       char *reason, size_t rn);
/* Entries of after that before did not have (at after's head). */
size_t ata_selftest_new(const struct ata_selftest_log *before, const struct ata_selftest_log *after);
bool ata_selftest_failed(const struct ata_selftest *e);
const char *ata_selftest_status_name(uint8_t status);
const char *ata_selftest_type_name(uint8_t type);
/* Encode entries (newest first) as a drive would keep them: for fixtures and
 * the sim.  Pure. */
void ata_selftest_build(const struct ata_selftest *newest_first, size_t n, uint8_t log[ATA_SELFTEST_SIZE]);
/* Read the log of an ATA device over SG_IO (ata-sgio.c): 0 or -errno with
 * the reason. */
int ata_sgio_selftest_log(const char *devpath, unsigned timeout_ms, uint8_t log[ATA_SELFTEST_SIZE],
			  char *reason, size_t rn);
/* SMART EXECUTE OFF-LINE IMMEDIATE with subcommand (1 short, 2 extended in
 * the background, 127 abort) over SG_IO: 0 or -errno with the reason. */
int ata_sgio_smart_exec(const char *devpath, unsigned timeout_ms, uint8_t subcommand, char *reason, size_t rn);
#endif
