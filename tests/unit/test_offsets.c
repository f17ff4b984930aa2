/* test_offsets.c - offset generators: coverage, no repeats within a pass,
 * alignment, determinism for a seed, strided steps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "run/offsets.h"

static void
test_seq(void **state)
{
	struct offset_gen g;
	/* region 1000..9000 with 1 KiB blocks: the start as given, 7 whole blocks */
	assert_int_equal(offsets_init(&g, OFS_SEQ, 1000, 9000, 1024, 0, 0, 0), 0);
	assert_int_equal(g.nblocks, 7);
	bool w;
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t i = 0; i < 7; i++) {
			uint64_t o = offsets_next(&g, &w);
			assert_int_equal(o, 1000 + i * 1024);
			assert_int_equal(w, pass == 1 && i == 0);
		}
	/* --region 1:9 --bs 4k on 512-byte sectors: bytes 512..4608 hold one
	 * 4 KiB block at 512, not none (it was rounded up to 4096 and lost) */
	assert_int_equal(offsets_init(&g, OFS_SEQ, 512, 4608, 4096, 0, 0, 0), 0);
	assert_int_equal(g.nblocks, 1);
	assert_int_equal(offsets_next(&g, &w), 512);
	assert_int_equal(offsets_init(&g, OFS_RAND, 512, 4608 + 4096, 4096, 0, 0, 7), 0);
	assert_int_equal(g.nblocks, 2);
	uint64_t a = offsets_next(&g, &w), b = offsets_next(&g, &w);
	assert_true((a == 512 && b == 4608) || (a == 4608 && b == 512));
	assert_int_equal(offsets_init(&g, OFS_SEQ, 512, 4607, 4096, 0, 0, 0), -EINVAL);
	assert_int_equal(offsets_init(&g, OFS_SEQ, 0, 511, 512, 0, 0, 0), -EINVAL);
	assert_int_equal(offsets_init(&g, OFS_SEQ, 0, 4096, 0, 0, 0, 0), -EINVAL);
}

static void
check_random_pass(uint64_t nblocks, uint32_t bs, uint64_t start, uint64_t seed)
{
	struct offset_gen g;
	assert_int_equal(offsets_init(&g, OFS_RAND, start, start + nblocks * bs, bs, 0, 0, seed), 0);
	assert_int_equal(g.nblocks, nblocks);
	uint8_t *seen = calloc(nblocks, 1);
	uint64_t in_order = 0, prev = 0;
	bool w;
	for (uint64_t i = 0; i < nblocks; i++) {
		uint64_t o = offsets_next(&g, &w);
		assert_false(w);
		assert_true(o >= start && o + bs <= start + nblocks * bs);
		assert_int_equal((o - start) % bs, 0);
		uint64_t b = (o - start) / bs;
		assert_int_equal(seen[b], 0);	/* no repeats within a pass */
		seen[b] = 1;
		if (i && o == prev + bs)
			in_order++;
		prev = o;
	}
	/* every block exactly once (nblocks distinct values seen) */
	for (uint64_t b = 0; b < nblocks; b++)
		assert_int_equal(seen[b], 1);
	/* and it is not the sequential order in disguise */
	if (nblocks > 100)
		assert_true(in_order < nblocks / 10);
	/* the next pass starts over, in a different order, again complete */
	memset(seen, 0, nblocks);
	uint64_t same = 0;
	struct offset_gen g1;
	offsets_init(&g1, OFS_RAND, start, start + nblocks * bs, bs, 0, 0, seed);
	for (uint64_t i = 0; i < nblocks; i++) {
		uint64_t o = offsets_next(&g, &w);
		assert_int_equal(w, i == 0);
		uint64_t b = (o - start) / bs;
		assert_int_equal(seen[b], 0);
		seen[b] = 1;
		same += o == offsets_next(&g1, NULL);
	}
	if (nblocks > 100)
		assert_true(same < nblocks / 10);
	free(seen);
}

static void
test_random_coverage(void **state)
{
	check_random_pass(1, 4096, 0, 1);
	check_random_pass(2, 4096, 0, 1);
	check_random_pass(1000, 4096, 8192, 7);
	check_random_pass(1024, 512, 0, 42);		/* exact power of two */
	check_random_pass(1025, 512, 0, 42);		/* just above */
	check_random_pass(262144, 4096, 1 << 20, 3);	/* 1 GiB of 4 KiB blocks */
}

static void
test_random_deterministic(void **state)
{
	struct offset_gen a, b, c;
	offsets_init(&a, OFS_RAND, 0, 1ull << 30, 4096, 0, 0, 1234);
	offsets_init(&b, OFS_RAND, 0, 1ull << 30, 4096, 0, 0, 1234);
	offsets_init(&c, OFS_RAND, 0, 1ull << 30, 4096, 0, 0, 1235);
	uint64_t diff = 0;
	for (int i = 0; i < 10000; i++) {
		uint64_t x = offsets_next(&a, NULL);
		assert_int_equal(x, offsets_next(&b, NULL));
		diff += x != offsets_next(&c, NULL);
	}
	assert_true(diff > 9000);	/* another seed, another sequence */
}

static void
test_stride(void **state)
{
	struct offset_gen g;
	/* phybs-style: 4 KiB I/Os at offset 512, stepping 8 KiB, inside 64 KiB */
	assert_int_equal(offsets_init(&g, OFS_STRIDE, 0, 65536, 4096, 512, 8192, 0), 0);
	assert_int_equal(g.nblocks, 8);	/* 512 + 7*8192 + 4096 <= 65536 */
	bool w;
	for (uint64_t k = 0; k < 8; k++)
		assert_int_equal(offsets_next(&g, &w), 512 + k * 8192);
	assert_int_equal(offsets_next(&g, &w), 512);
	assert_true(w);
	assert_int_equal(offsets_init(&g, OFS_STRIDE, 0, 65536, 4096, 0, 0, 0), -EINVAL);
	assert_int_equal(offsets_init(&g, OFS_STRIDE, 0, 4096, 4096, 512, 512, 0), -EINVAL);
}

/* A skip-ahead's jump: the next offset is the first block at or after the
 * one asked for; past the end the pass is over. */
static void
test_seek(void **state)
{
	(void)state;
	struct offset_gen g;
	bool w;
	assert_int_equal(offsets_init(&g, OFS_SEQ, 4096, 4096 + 100 * 512, 512, 0, 0, 1), 0);
	offsets_next(&g, &w);
	offsets_seek(&g, 4096 + 10 * 512);
	assert_int_equal(offsets_next(&g, &w), 4096 + 10 * 512);
	assert_false(w);
	offsets_seek(&g, 4096 + 20 * 512 + 1);	/* inside a block: the next one */
	assert_int_equal(offsets_next(&g, &w), 4096 + 21 * 512);
	offsets_seek(&g, 0);			/* before the region: its start */
	assert_int_equal(offsets_next(&g, &w), 4096);
	offsets_seek(&g, 1u << 30);
	offsets_next(&g, &w);
	assert_true(w);				/* past the end: a new pass */
	assert_int_equal(offsets_init(&g, OFS_STRIDE, 0, 1 << 20, 4096, 0, 65536, 1), 0);
	offsets_seek(&g, 65536 * 3 + 5);
	assert_int_equal(offsets_next(&g, &w), 65536 * 4);
}

static void
test_pattern_names(void **state)
{
	enum offset_pattern p;
	assert_int_equal(offsets_parse_pattern("rand", &p), 0);
	assert_int_equal(p, OFS_RAND);
	assert_string_equal(offsets_pattern_name(p), "rand");
	assert_int_equal(offsets_parse_pattern("zigzag", &p), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seq),
		cmocka_unit_test(test_random_coverage),
		cmocka_unit_test(test_random_deterministic),
		cmocka_unit_test(test_stride),
		cmocka_unit_test(test_seek),
		cmocka_unit_test(test_pattern_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
