/* scsi-format.c - what a SCSI drive's logical block format means for a
 * bench: 520/528-byte blocks (storage arrays' format) leave a drive unusable
 * to a host until it is low-level formatted to 512; protection information
 * on 512/4096-byte blocks is usable as it is. */
#include "inventory/scsi.h"

const char *
scsi_format_text(enum scsi_format f)
{
	switch (f) {
	case SCSI_FMT_OK:
		return "usable";
	case SCSI_FMT_PI:
		return "usable, with protection information";
	case SCSI_FMT_NEEDS_FORMAT:
		return "needs a low-level format to 512 before use";
	case SCSI_FMT_UNKNOWN:
		break;
	}
	return "unknown";
}

enum scsi_format
scsi_format_of(const struct known_u64 *logical_bytes, const struct known_bool *protection)
{
	if (!logical_bytes->known || !protection->known)
		return SCSI_FMT_UNKNOWN;
	if (logical_bytes->v != 512 && logical_bytes->v != 4096)
		return SCSI_FMT_NEEDS_FORMAT;
	return protection->v ? SCSI_FMT_PI : SCSI_FMT_OK;
}
