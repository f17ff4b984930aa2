/* pattern.h - the write-verify pattern: every 512-byte sector carries its
 * own LBA, the run's seed and 496 bytes derived from both, so a sector
 * written to the wrong place, an old sector left from another run (another
 * seed) or a dropped write all read back as a mismatch, not only a constant
 * gone wrong.  LBAs here are 512-byte units, 64-bit, whatever the drive's
 * logical sector size. */
#ifndef DS_PATTERN_H
#define DS_PATTERN_H
#include <stddef.h>
#include <stdint.h>

#define PATTERN_SECTOR 512u

/* Fill len bytes (a multiple of 512) meant for byte offset off (a multiple
 * of 512) with the pattern of seed. */
void pattern_fill(void *buf, size_t len, uint64_t off, uint64_t seed);
/* Check len bytes read at byte offset off against the pattern of seed: the
 * number of sectors that differ, and the byte offsets of the first and the
 * last of them (left alone when none). */
uint64_t pattern_check(const void *buf, size_t len, uint64_t off, uint64_t seed,
		       uint64_t *first_bad, uint64_t *last_bad);
#endif
