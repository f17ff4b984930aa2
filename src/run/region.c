/* region.c - where on a target a plan's I/O goes, and whether the target can
 * take it (block size, region, stride against its sector size), checked
 * before any worker starts. */
#include <errno.h>
#include <stdio.h>
#include "run/runner.h"

void
plan_region(const struct plan *p, const struct target *t, uint64_t *s, uint64_t *e)
{
	uint64_t size = t->size;
	if (p->region_lba) {
		uint64_t lb = t->logical ? t->logical : 512;
		/* an LBA past the end must not wrap round to the start of the disk */
		if (__builtin_mul_overflow(p->region_lba_start, lb, s))
			*s = UINT64_MAX;
		if (!p->region_lba_end)
			*e = size;
		else if (__builtin_mul_overflow(p->region_lba_end, lb, e))
			*e = UINT64_MAX;
	} else {
		*s = (uint64_t)(p->params.region_start * (double)size);
		*e = (uint64_t)(p->params.region_end * (double)size);
	}
	if (*e > size)
		*e = size;
	if (!p->region_lba) {
		/* A percentage names no byte: its start goes up to a whole block
		 * (and so to the sector and DIO alignment).  An LBA start is used
		 * as given; plan_check_target refuses one the target cannot take. */
		uint64_t bs = p->params.bs ? p->params.bs : 512;
		uint64_t al = t->offset_align ? t->offset_align : (t->logical ? t->logical : 512);
		uint64_t g = bs % al ? al : bs;
		*s = *s > UINT64_MAX - g ? UINT64_MAX : (*s + g - 1) / g * g;
	}
	if (*s > *e)
		*s = *e;
}

int
plan_check_target(const struct plan *p, const struct target *t, char *err, size_t errlen)
{
	uint64_t s, e;
	if (p->region_lba &&
	    (p->region_lba_start >= t->size / (t->logical ? t->logical : 512))) {
		snprintf(err, errlen, "%s: --region starts at LBA %llu, past its end (%llu sectors)",
			 t->name, (unsigned long long)p->region_lba_start,
			 (unsigned long long)(t->size / (t->logical ? t->logical : 512)));
		return -EINVAL;
	}
	if (p->region_lba && p->region_lba_end > t->size / (t->logical ? t->logical : 512)) {
		/* recorded as given, it would claim a range that was never read */
		snprintf(err, errlen, "%s: --region ends at LBA %llu, past its end (%llu sectors)",
			 t->name, (unsigned long long)p->region_lba_end,
			 (unsigned long long)(t->size / (t->logical ? t->logical : 512)));
		return -EINVAL;
	}
	plan_region(p, t, &s, &e);
	if (p->params.size && p->params.size < p->params.bs) {
		snprintf(err, errlen, "--size %llu is smaller than one %u-byte block (--bs)",
			 (unsigned long long)p->params.size, p->params.bs);
		return -EINVAL;
	}
	if (p->params.bs % (t->offset_align ? t->offset_align : t->logical ? t->logical : 512) == 0 &&
	    s % (t->offset_align ? t->offset_align : t->logical ? t->logical : 512)) {
		snprintf(err, errlen, "%s: --region starts at byte %llu, not a multiple of its %u-byte %s",
			 t->name, (unsigned long long)s,
			 t->offset_align ? t->offset_align : t->logical ? t->logical : 512,
			 t->offset_align > t->logical ? "direct I/O alignment" : "logical sector size");
		return -EINVAL;
	}
	int rc = target_check_io(t, s, p->params.bs, err, errlen);
	if (rc)
		return rc;
	if (e - s < p->params.bs) {
		snprintf(err, errlen, "%s: the region (bytes %llu..%llu) holds no %u-byte block",
			 t->name, (unsigned long long)s, (unsigned long long)e, p->params.bs);
		return -EINVAL;
	}
	uint32_t al = t->offset_align ? t->offset_align : (t->logical ? t->logical : 512);
	if (p->pat == OFS_STRIDE && p->params.stride % al) {
		snprintf(err, errlen, "%s: stride %llu is not a multiple of its %u-byte logical block size",
			 t->name, (unsigned long long)p->params.stride, al);
		return -EINVAL;
	}
	return 0;
}
