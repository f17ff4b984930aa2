/* fuzz_ata.c - libatasmart blob files (--ata-blob): the record walker and,
 * for a blob with SMART data, libatasmart's attribute parsing.  Slow (tens
 * of runs a second: libatasmart compiles its quirk regexes for every disk);
 * fuzz_identify covers the IDENTIFY decoder at full speed. */
#include "fuzz.h"
#include "inventory/ata.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ata_info a;
	if (size > (1u << 20))
		return 0;
	ata_from_blob(data, size, &a);
	ata_info_free(&a);
	return 0;
}
