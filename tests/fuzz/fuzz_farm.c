/* fuzz_farm.c - the FARM decoders and the DCO data parser (inventory/farm.h).
 * First byte: 0 an ATA log in the reader's compact form (512 bytes each of
 * page 0, page 1 and page 5's head-hours sector, placed where the live
 * reader puts them in a zeroed 96 KiB image), 1 a SCSI log page, 2 DCO data;
 * then every input once more as a raw ATA log of its own length (the
 * short-log paths). */
#include "fuzz.h"
#include "inventory/farm.h"

static uint8_t img[FARM_ATA_SIZE];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct farm_info f;
	char msg[256], t[400];
	if (!size || size > FARM_ATA_SIZE + 1)
		return 0;
	const uint8_t *p = data + 1;
	size_t n = size - 1;
	struct known_u64 s9 = known_u64_of(n);
	switch (data[0] % 3) {
	case 0: {
		static const size_t at[] = { 0, FARM_ATA_PAGE, 5 * (size_t)FARM_ATA_PAGE + 12 * 512 };
		memset(img, 0, sizeof img);
		for (size_t k = 0; k < 3 && n > k * 512; k++) {
			size_t c = n - k * 512 < 512 ? n - k * 512 : 512;
			memcpy(img + at[k], p + k * 512, c);
		}
		farm_ata_decode(img, sizeof img, &f);
		break;
	}
	case 1:
		farm_scsi_decode(p, n, &f);
		break;
	default: {
		uint8_t d[512] = { 0 };
		uint64_t max = 0;
		memcpy(d, p, n < 512 ? n : 512);
		hpa_dco_max(d, &max, msg, sizeof msg);
		struct hidden_capacity h = { .reported = known_u64_of(n), .native = known_u64_of(max),
					     .dco = known_u64_of(max ^ n) };
		hpa_judge(&h);
		hpa_text(&h, t, sizeof t);
		farm_ata_decode(p, n, &f);
		break;
	}
	}
	farm_compare(&f, &s9, "SMART 9", "ZA1SAS00", msg, sizeof msg);
	farm_text(&f, &s9, f.serial, t, sizeof t);
	return 0;
}
