/* fuzz_identify.c - 512 bytes of IDENTIFY DEVICE: the usability check
 * (all-zero / all-0xFF / word-255 checksum), the decoder, the fold into a
 * drive, and the same bytes as the IDFY record of a blob without SMART
 * data.  Asserts the decoder's promises: no wrapped or negative capacity,
 * sector sizes a drive can have. */
#include "fuzz.h"
#include "inventory/ata.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t id[ATA_BLOB_SECTOR] = { 0 };
	char why[160];
	struct drive d;
	uint16_t w[256];
	memcpy(id, data, size < sizeof id ? size : sizeof id);
	memset(&d, 0, sizeof d);
	for (int i = 0; i < 256; i++)
		w[i] = (uint16_t)(id[2 * i] | id[2 * i + 1] << 8);
	ata_identify_check(id, why, sizeof why);
	d.ata.state = ATA_OK;
	ata_identify_decode(w, &d.ata.id);
	ata_apply_identify(&d);
	const struct ata_identify *x = &d.ata.id;
	if (x->capacity_bytes.known && x->capacity_bytes.v > ATA_MAX_BYTES)
		abort();
	if (x->logical.known && (x->logical.v < 512 || x->logical.v > ATA_MAX_SECTOR))
		abort();
	if (x->physical.known && x->physical.v < x->logical.v)
		abort();
	strlist_free(&d.warnings);

	void *blob;
	size_t len;
	/* a byte past IDENTIFY picks the SMST record: none, bad or good */
	struct known_bool st = { size > sizeof id && data[sizeof id] % 3 != 0,
				 size > sizeof id && data[sizeof id] % 3 == 2 };
	if (ata_blob_build(id, st, NULL, NULL, &blob, &len) == 0) {
		struct ata_info a;
		ata_from_blob(blob, len, &a);
		ata_info_free(&a);
		free(blob);
	}
	return 0;
}
