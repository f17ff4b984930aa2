/* test_canvas.c - the dot encoders: braille dot-to-bit mapping (U+2800 +
 * mask), block halves and ASCII; bars, sparklines and the dot canvas. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "canvas.h"

static void
test_braille_bits(void **state)
{
	/* Left column down: bits 0,1,2; right column: 3,4,5; bottom row 6, 7. */
	static const unsigned want[2][4] = { { 0x01, 0x02, 0x04, 0x40 }, { 0x08, 0x10, 0x20, 0x80 } };
	unsigned all = 0;

	for (int x = 0; x < 2; x++)
		for (int y = 0; y < 4; y++) {
			assert_int_equal(canvas_bit(GL_BRAILLE, x, y), want[x][y]);
			all |= canvas_bit(GL_BRAILLE, x, y);
		}
	assert_int_equal(all, 0xFF);
	int dx, dy;

	canvas_dots(GL_BRAILLE, &dx, &dy);
	assert_int_equal(dx, 2);
	assert_int_equal(dy, 4);
}

static void
test_braille_glyphs(void **state)
{
	char g[8];

	canvas_glyph(GL_BRAILLE, 0, g);
	assert_string_equal(g, " ");
	canvas_glyph(GL_BRAILLE, 0xFF, g);
	assert_string_equal(g, "\xe2\xa3\xbf");		/* U+28FF */
	canvas_glyph(GL_BRAILLE, 0x01, g);
	assert_string_equal(g, "\xe2\xa0\x81");		/* U+2801 */
	canvas_glyph(GL_BRAILLE, 0x40, g);
	assert_string_equal(g, "\xe2\xa1\x80");		/* U+2840 */
}

static void
test_braille_levels(void **state)
{
	/* Filling a column from the bottom gives the levels htop/btop use. */
	static const uint8_t left[4] = { 0x40, 0x44, 0x46, 0x47 };
	static const uint8_t right[4] = { 0x80, 0xA0, 0xB0, 0xB8 };
	struct canvas c;

	for (int col = 0; col < 2; col++) {
		assert_int_equal(canvas_init(&c, GL_BRAILLE, 1, 1), 0);
		for (int k = 0; k < 4; k++) {
			canvas_set(&c, col, 3 - k, 1);
			assert_int_equal(c.mask[0], col ? right[k] : left[k]);
		}
		canvas_free(&c);
	}
}

static void
test_block_and_ascii(void **state)
{
	char g[8];
	int dx, dy;

	canvas_dots(GL_BLOCK, &dx, &dy);
	assert_int_equal(dx * 10 + dy, 12);
	canvas_dots(GL_ASCII, &dx, &dy);
	assert_int_equal(dx * 10 + dy, 12);
	assert_int_equal(canvas_bit(GL_BLOCK, 0, 0), 1);
	assert_int_equal(canvas_bit(GL_BLOCK, 0, 1), 2);
	canvas_glyph(GL_BLOCK, 1, g);
	assert_string_equal(g, "\xe2\x96\x80");		/* ▀ */
	canvas_glyph(GL_BLOCK, 2, g);
	assert_string_equal(g, "\xe2\x96\x84");		/* ▄ */
	canvas_glyph(GL_BLOCK, 3, g);
	assert_string_equal(g, "\xe2\x96\x88");		/* █ */
	canvas_glyph(GL_ASCII, 1, g);
	assert_string_equal(g, "'");
	canvas_glyph(GL_ASCII, 2, g);
	assert_string_equal(g, ".");
	canvas_glyph(GL_ASCII, 3, g);
	assert_string_equal(g, ":");
	canvas_glyph(GL_ASCII, 0, g);
	assert_string_equal(g, " ");
}

static void
test_canvas_set_and_line(void **state)
{
	struct canvas c;

	assert_int_equal(canvas_init(&c, GL_BRAILLE, 3, 2), 0);
	assert_int_equal(canvas_pw(&c), 6);
	assert_int_equal(canvas_ph(&c), 8);
	canvas_set(&c, 3, 7, 2);	/* cell (1,1), right column, bottom row */
	assert_int_equal(c.mask[1 * 3 + 1], 0x80);
	assert_int_equal(c.layer[1 * 3 + 1], 2);
	canvas_set(&c, -1, 0, 1);	/* off canvas: ignored, no crash */
	canvas_set(&c, 6, 0, 1);
	canvas_set(&c, 0, 8, 1);
	int set = 0;

	for (int i = 0; i < 6; i++)
		set += c.mask[i] != 0;
	assert_int_equal(set, 1);
	canvas_clear(&c);
	canvas_line(&c, 0, 0, 5, 0, 1);		/* the top row of dots */
	for (int i = 0; i < 3; i++)
		assert_int_equal(c.mask[i], 0x01 | 0x08);
	canvas_clear(&c);
	canvas_line(&c, 0, 0, 5, 7, 1);		/* a diagonal touches both corners */
	assert_true(c.mask[0] & 0x01);
	assert_true(c.mask[1 * 3 + 2] & 0x80);
	canvas_clear(&c);
	canvas_vfill(&c, 0, 7, 4, 1);		/* bottom cell of column 0, left dots */
	assert_int_equal(c.mask[3], 0x47);
	assert_int_equal(c.mask[0], 0);
	canvas_free(&c);
}

static void
test_hbar_and_spark(void **state)
{
	char b[64], g[8];

	canvas_hbar(GL_BRAILLE, 4, 0.5, b, sizeof(b));
	assert_string_equal(b, "\xe2\x96\x88\xe2\x96\x88");		/* ██ */
	canvas_hbar(GL_BRAILLE, 4, 18.0 / 32, b, sizeof(b));
	assert_string_equal(b, "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x8e");	/* ██▎ (2/8) */
	canvas_hbar(GL_BRAILLE, 4, 1.0 / 32, b, sizeof(b));
	assert_string_equal(b, "\xe2\x96\x8f");				/* ▏ (1/8) */
	canvas_hbar(GL_BRAILLE, 2, 7.0 / 8 / 2, b, sizeof(b));
	assert_string_equal(b, "\xe2\x96\x89");				/* ▉ (7/8) */
	canvas_hbar(GL_ASCII, 4, 0.5, b, sizeof(b));
	assert_string_equal(b, "##");
	canvas_hbar(GL_BLOCK, 4, 5.0 / 8, b, sizeof(b));
	assert_string_equal(b, "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x8c");	/* ██▌ */
	canvas_hbar(GL_ASCII, 4, 7, b, sizeof(b));			/* clamps */
	assert_string_equal(b, "####");
	canvas_hbar(GL_BRAILLE, 4, 0.0 / 0.0, b, sizeof(b));		/* NaN: empty */
	assert_string_equal(b, "");
	canvas_hbar(GL_BRAILLE, 8, 1, b, 10);				/* small buffer: whole cells only */
	assert_int_equal(strlen(b), 9);

	canvas_spark(GL_BRAILLE, 0, g);
	assert_string_equal(g, " ");
	canvas_spark(GL_BRAILLE, 1, g);
	assert_string_equal(g, "\xe2\x96\x88");
	canvas_spark(GL_BRAILLE, 0.5, g);
	assert_string_equal(g, "\xe2\x96\x84");				/* ▄ = 4/8 */
	canvas_spark(GL_BRAILLE, 1.0 / 8, g);
	assert_string_equal(g, "\xe2\x96\x81");				/* ▁ */
	canvas_spark(GL_ASCII, 1, g);
	assert_string_equal(g, "#");
}

static void
test_glyph_choice(void **state)
{
	enum glyphs g;

	assert_int_equal(glyphs_auto("UTF-8", "xterm-256color"), GL_BRAILLE);
	assert_int_equal(glyphs_auto("UTF-8", "linux"), GL_BLOCK);
	assert_int_equal(glyphs_auto("ANSI_X3.4-1968", "xterm"), GL_ASCII);
	assert_int_equal(glyphs_auto(NULL, NULL), GL_ASCII);
	assert_int_equal(glyphs_parse("block", &g), 0);
	assert_int_equal(g, GL_BLOCK);
	assert_int_equal(glyphs_parse("ascii", &g), 0);
	assert_int_equal(g, GL_ASCII);
	assert_true(glyphs_parse("braile", &g) < 0);
	assert_string_equal(glyphs_name(GL_BRAILLE), "braille");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_braille_bits),
		cmocka_unit_test(test_braille_glyphs),
		cmocka_unit_test(test_braille_levels),
		cmocka_unit_test(test_block_and_ascii),
		cmocka_unit_test(test_canvas_set_and_line),
		cmocka_unit_test(test_hbar_and_spark),
		cmocka_unit_test(test_glyph_choice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
