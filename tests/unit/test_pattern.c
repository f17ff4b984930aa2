/* test_pattern.c - the write-verify pattern (run/pattern.h): a sector reads
 * back good only at its own LBA and with its own run's seed; a dropped write
 * (old data), a misplaced one (another LBA's data), one flipped byte and a
 * zeroed sector are each caught, with the first and last bad sector's
 * offset; LBAs past 2^32 work. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "run/pattern.h"

#define LEN (64u * 1024)

static void
test_roundtrip(void **state)
{
	unsigned char *b = malloc(LEN);
	assert_non_null(b);
	const uint64_t offs[] = { 0, 512, 1ull << 20, (5ull << 32) * 512 };	/* LBA 5 * 2^32 */
	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		pattern_fill(b, LEN, offs[i], 42);
		uint64_t f = 7, l = 7;
		assert_int_equal(pattern_check(b, LEN, offs[i], 42, &f, &l), 0);
		assert_int_equal(f, 7);	/* untouched when all good */
		/* another seed (an older run's data left where a write was dropped) */
		assert_int_equal(pattern_check(b, LEN, offs[i], 43, &f, &l), LEN / 512);
		assert_int_equal(f, offs[i]);
		assert_int_equal(l, offs[i] + LEN - 512);
		/* the same data read at another place (a misplaced write) */
		assert_int_equal(pattern_check(b, LEN, offs[i] + LEN, 42, NULL, NULL), LEN / 512);
	}
	free(b);
}

static void
test_damage(void **state)
{
	unsigned char *b = malloc(LEN);
	assert_non_null(b);
	uint64_t off = 1ull << 30, f = 0, l = 0;
	pattern_fill(b, LEN, off, 9);
	b[3 * 512 + 300] ^= 1;			/* one bit of sector 3 */
	memset(b + 10 * 512, 0, 2 * 512);	/* sectors 10 and 11 zeroed */
	assert_int_equal(pattern_check(b, LEN, off, 9, &f, &l), 3);
	assert_int_equal(f, off + 3 * 512);
	assert_int_equal(l, off + 11 * 512);
	/* a sector shifted by one: its LBA word names the wrong place */
	pattern_fill(b, LEN, off, 9);
	memmove(b + 512, b, 512);
	assert_int_equal(pattern_check(b, LEN, off, 9, &f, &l), 1);
	assert_int_equal(f, off + 512);
	/* no two sectors alike, not even past the first 16 bytes */
	pattern_fill(b, LEN, off, 9);
	assert_memory_not_equal(b + 16, b + 512 + 16, 496);
	free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_damage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
