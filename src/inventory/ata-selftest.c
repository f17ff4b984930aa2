/* ata-selftest.c - the SMART self-test log (ata-selftest.h): decode, compare,
 * and encode for fixtures.  Layout (ATA8-ACS, SMART self-test log): bytes
 * 0-1 revision, 21 descriptors of 24 bytes from byte 2 (type, status <<4 |
 * remaining/10, hours LE16, checkpoint, failing LBA LE32, 15 vendor bytes),
 * byte 508 the newest descriptor's number (1-21, 0 empty), byte 511 makes
 * the sum of all 512 bytes 0. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "inventory/ata-selftest.h"

#define DESC(i) (2 + 24 * (i))

bool
ata_selftest_failed(const struct ata_selftest *e)
{
	return e->status >= 3 && e->status <= 8;
}

const char *
ata_selftest_status_name(uint8_t st)
{
	static const char *const names[] = {
		"completed without error", "aborted by the host", "interrupted by a reset",
		"fatal or unknown error", "completed: unknown failure", "completed: electrical failure",
		"completed: servo/seek failure", "completed: read failure", "completed: handling damage",
	};
	if (st < sizeof(names) / sizeof(names[0]))
		return names[st];
	return st == 15 ? "in progress" : "reserved status";
}

const char *
ata_selftest_type_name(uint8_t type)
{
	switch (type & 0x7f) {
	case 1: return type & 0x80 ? "short (captive)" : "short";
	case 2: return type & 0x80 ? "extended (captive)" : "extended";
	case 3: return type & 0x80 ? "conveyance (captive)" : "conveyance";
	case 4: return type & 0x80 ? "selective (captive)" : "selective";
	case 0: return "offline";
	}
	return "vendor";
}

int
ata_selftest_parse(const uint8_t b[ATA_SELFTEST_SIZE], struct ata_selftest_log *out, char *reason, size_t rn)
{
	memset(out, 0, sizeof(*out));
	uint8_t sum = 0;
	for (int i = 0; i < ATA_SELFTEST_SIZE; i++)
		sum = (uint8_t)(sum + b[i]);
	if (sum) {
		snprintf(reason, rn, "self-test log checksum mismatch");
		return -EINVAL;
	}
	unsigned idx = b[508];
	if (idx > ATA_SELFTEST_N) {
		snprintf(reason, rn, "self-test log index %u past its %d entries", idx, ATA_SELFTEST_N);
		return -EINVAL;
	}
	if (!idx)
		return 0;	/* no self-test recorded */
	static const uint8_t zero[24];
	for (unsigned k = 0; k < ATA_SELFTEST_N; k++) {
		unsigned i = (idx - 1 + ATA_SELFTEST_N - k) % ATA_SELFTEST_N;
		const uint8_t *d = b + DESC(i);
		if (!memcmp(d, zero, sizeof(zero)))
			break;	/* never written: the log has not wrapped */
		struct ata_selftest *e = &out->e[out->n++];
		e->type = d[0];
		e->status = d[1] >> 4;
		e->remaining = (uint8_t)((d[1] & 0x0f) * 10);
		e->hours = (uint16_t)(d[2] | d[3] << 8);
		e->checkpoint = d[4];
		e->lba = (uint32_t)d[5] | (uint32_t)d[6] << 8 | (uint32_t)d[7] << 16 | (uint32_t)d[8] << 24;
		e->lba_known = ata_selftest_failed(e) && e->lba != 0xffffffffu;
	}
	return 0;
}

static bool
same(const struct ata_selftest *a, const struct ata_selftest *b)
{
	if (a->type != b->type || a->hours != b->hours)
		return false;
	/* a test running then is the same entry, finished now */
	return a->status == 15 || (a->status == b->status && a->lba == b->lba && a->checkpoint == b->checkpoint);
}

size_t
ata_selftest_new(const struct ata_selftest_log *before, const struct ata_selftest_log *after)
{
	if (!before->n)
		return after->n;
	for (size_t k = 0; k < after->n; k++)
		if (same(&before->e[0], &after->e[k]))
			return k;
	return after->n;	/* the newest entry before is gone: cleared or wrapped */
}

void
ata_selftest_build(const struct ata_selftest *e, size_t n, uint8_t b[ATA_SELFTEST_SIZE])
{
	memset(b, 0, ATA_SELFTEST_SIZE);
	b[0] = 1;	/* revision */
	if (n > ATA_SELFTEST_N)
		n = ATA_SELFTEST_N;
	for (size_t k = 0; k < n; k++) {	/* oldest in descriptor 0 */
		const struct ata_selftest *x = &e[n - 1 - k];
		uint8_t *d = b + DESC(k);
		d[0] = x->type;
		d[1] = (uint8_t)(x->status << 4 | (x->remaining / 10 & 0x0f));
		d[2] = (uint8_t)x->hours;
		d[3] = (uint8_t)(x->hours >> 8);
		d[4] = x->checkpoint;
		uint32_t lba = ata_selftest_failed(x) ? x->lba : 0xffffffffu;
		for (int j = 0; j < 4; j++)
			d[5 + j] = (uint8_t)(lba >> (8 * j));
	}
	b[508] = (uint8_t)n;
	uint8_t sum = 0;
	for (int i = 0; i < ATA_SELFTEST_SIZE - 1; i++)
		sum = (uint8_t)(sum + b[i]);
	b[511] = (uint8_t)(0x100 - sum);
}
