/* ata_words.h - a synthetic IDENTIFY page for the ATA tests: a plausible
 * modern SATA HDD (LBA48, 512e, 7200 rpm, SATA 6G at 3G), as words and as
 * the 512 bytes a drive sends. */
#ifndef DS_TEST_ATA_WORDS_H
#define DS_TEST_ATA_WORDS_H
#include <stdint.h>
#include <string.h>

static uint16_t w[256];

static void
put_string(unsigned first, unsigned nwords, const char *s)
{
	size_t n = strlen(s);
	for (unsigned i = 0; i < nwords; i++) {
		unsigned char hi = 2 * i < n ? (unsigned char)s[2 * i] : ' ';
		unsigned char lo = 2 * i + 1 < n ? (unsigned char)s[2 * i + 1] : ' ';
		w[first + i] = (uint16_t)(hi << 8 | lo);
	}
}

/* A plausible modern SATA HDD: LBA48, 512e, 7200 rpm, SATA 6G at 3G. */
static int
setup_words(void **state)
{
	(void)state;
	memset(w, 0, sizeof w);
	put_string(10, 10, "    WD-WCC4M1234567");
	put_string(23, 4, "82.00A82");
	put_string(27, 20, "WDC WD20EFRX-68AX9N0");
	w[49] = 1u << 9;			/* LBA */
	w[60] = 0xFFFF;
	w[61] = 0x0FFF;				/* LBA28 saturated */
	w[83] = 0x4000 | (1u << 10);		/* valid, LBA48 */
	w[100] = 0x88B0;
	w[101] = 0xE8E0;			/* 3907029168 sectors */
	w[106] = 0x4000 | (1u << 13) | 3;	/* 8 logical per physical */
	w[209] = 0x4000;			/* aligned */
	w[217] = 7200;
	w[76] = (1u << 8) | 0xE;		/* NCQ, 1.5/3/6 */
	w[75] = 31;
	w[77] = 2u << 1;			/* current: Gen2 */
	w[82] = 1;
	w[85] = 1;
	return 0;
}

static uint8_t idbytes[512];

static void
words_to_bytes(void)
{
	for (int i = 0; i < 256; i++) {
		idbytes[2 * i] = (uint8_t)(w[i] & 0xFF);
		idbytes[2 * i + 1] = (uint8_t)(w[i] >> 8);
	}
}
#endif
