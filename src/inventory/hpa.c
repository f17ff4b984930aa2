/* hpa.c - hidden capacity: the sectors a Host Protected Area (READ NATIVE
 * MAX ADDRESS past IDENTIFY's user addressable sectors) or a Device
 * Configuration Overlay (DEVICE CONFIGURATION IDENTIFY's maximum past the
 * native max) keeps from every test.  Pure; ata-sgio.c sends the
 * read-only commands (never SET MAX, never DCO RESTORE). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "inventory/farm.h"

uint64_t
hpa_native_lba(bool ext, uint8_t low, uint8_t mid, uint8_t high, uint8_t device, uint8_t low_hob,
	       uint8_t mid_hob, uint8_t high_hob)
{
	if (!ext)
		return (uint64_t)(device & 0x0F) << 24 | (uint64_t)high << 16 | (uint64_t)mid << 8 | low;
	return (uint64_t)high_hob << 40 | (uint64_t)mid_hob << 32 | (uint64_t)low_hob << 24 |
	       (uint64_t)high << 16 | (uint64_t)mid << 8 | low;
}

int
hpa_dco_max(const uint8_t d[512], uint64_t *max_lba, char *reason, size_t n)
{
	unsigned rev = (unsigned)(d[0] | d[1] << 8);
	if (rev != 0x0002) {
		snprintf(reason, n, "DCO data revision 0x%04x, not 0x0002", rev);
		return -EINVAL;
	}
	if (d[510] == 0xA5) {	/* word 255: signature, then the bytes sum to 0 */
		uint8_t sum = 0;
		for (int i = 0; i < 512; i++)
			sum = (uint8_t)(sum + d[i]);
		if (sum) {
			snprintf(reason, n, "DCO data checksum mismatch (word 255)");
			return -EINVAL;
		}
	}
	uint64_t v = 0;
	for (int i = 13; i >= 6; i--)	/* words 3-6, little-endian */
		v = v << 8 | d[i];
	if (!v) {
		snprintf(reason, n, "DCO data gives maximum LBA 0");
		return -EINVAL;
	}
	*max_lba = v;
	return 0;
}

void
hpa_judge(struct hidden_capacity *h)
{
	h->known = false;
	KNOWN_CLEAR(h->hidden);
	h->source[0] = '\0';
	if (!h->reported.known || !h->native.known) {
		if (!h->reason[0])
			snprintf(h->reason, sizeof h->reason, "%s", !h->reported.known ?
				 "IDENTIFY's size unknown" : "native max address not read");
		return;
	}
	uint64_t top = h->native.v, hpa = 0, dco = 0;
	if (h->native.v > h->reported.v)
		hpa = h->native.v - h->reported.v;
	if (h->dco.known && h->dco.v > h->native.v) {
		dco = h->dco.v - h->native.v;
		top = h->dco.v;
	}
	h->known = true;
	KNOWN_SET(h->hidden, top > h->reported.v ? top - h->reported.v : 0);
	snprintf(h->source, sizeof h->source, "%s", hpa && dco ? "HPA+DCO" : hpa ? "HPA" : dco ? "DCO" : "");
}

const char *
hpa_text(const struct hidden_capacity *h, char *buf, size_t n)
{
	if (!h->known) {
		snprintf(buf, n, "hidden capacity: unknown (%s)", h->reason[0] ? h->reason : "not read");
		return buf;
	}
	if (!h->hidden.v) {
		snprintf(buf, n, "hidden capacity: none");
		return buf;
	}
	uint64_t lbs = h->logical.known && h->logical.v ? h->logical.v : 512;
	snprintf(buf, n, "hidden capacity: %" PRIu64 " sectors (%.2f GB) by %s", h->hidden.v,
		 (double)h->hidden.v * (double)lbs / 1e9, h->source);
	return buf;
}
