/* fuzz_scsi.c - the SCSI decoders (inventory/scsi.c) on hostile responses:
 * the first byte picks the decoder (0 INQUIRY, 1 a VPD page, 2 READ
 * CAPACITY(16), 3 a LOG SENSE page, 4 READ DEFECT DATA(10)'s header, 5
 * (12)'s), the rest is the response; then the list lines of what came out.
 * Asserts the decoders' promises: strings stay terminated, counts stay
 * within the page's 20 self-test entries, a protection type is 1..8, the
 * format agrees with the block length. */
#include <assert.h>
#include <string.h>
#include "fuzz.h"
#include "inventory/scsi.h"

static void
terminated(const char *s, size_t n)
{
	assert(memchr(s, 0, n) != NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scsi_info s;
	struct scsi_line l[2];
	if (size < 1 || size > 65536)
		return 0;
	memset(&s, 0, sizeof s);
	const uint8_t *p = data + 1;
	size_t n = size - 1;
	switch (data[0] % 6) {
	case 0: scsi_decode_inquiry(p, n, &s); break;
	case 1: scsi_decode_vpd(p, n, &s); break;
	case 2: scsi_decode_readcap16(p, n, &s); break;
	case 3: scsi_decode_log(p, n, &s.health); break;
	case 4: scsi_decode_defects(p, n, false, &s.health); break;
	default: scsi_decode_defects(p, n, true, &s.health); break;
	}
	terminated(s.vendor, sizeof s.vendor);
	terminated(s.product, sizeof s.product);
	terminated(s.revision, sizeof s.revision);
	terminated(s.serial, sizeof s.serial);
	terminated(s.designator, sizeof s.designator);
	terminated(s.protocol, sizeof s.protocol);
	terminated(s.sat_vendor, sizeof s.sat_vendor);
	terminated(s.health.pages, sizeof s.health.pages);
	terminated(s.health.ie_text, sizeof s.health.ie_text);
	if (s.protection_type.known)
		assert(s.protection_type.v >= 1 && s.protection_type.v <= 8);
	if (s.logical_bytes.known)
		assert(s.logical_bytes.v > 0 &&
		       (s.format == SCSI_FMT_NEEDS_FORMAT) ==
		       (s.logical_bytes.v != 512 && s.logical_bytes.v != 4096));
	if (s.health.selftest_entries.known)
		assert(s.health.selftest_failed.v <= s.health.selftest_entries.v &&
		       s.health.selftest_entries.v <= 20);
	s.known = true;
	size_t k = scsi_text_lines(&s, "/dev/sg0", l, 2);
	assert(k >= 1 && k <= 2);
	for (size_t i = 0; i < k; i++)
		terminated(l[i].text, sizeof l[i].text);
	return 0;
}
