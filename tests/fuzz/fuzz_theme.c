/* fuzz_theme.c - theme files (ui/theme.c): the whole parser, inherit
 * included (built-in themes), and the style syntax on its own. */
#include "fuzz.h"
#include "theme.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), err[512];
	struct theme t;
	struct theme_style st;
	if (!text)
		return 0;
	theme_parse_string(text, "fuzz.theme", &t, err, sizeof err);
	if (size < 300)
		theme_parse_style(text, &st, err, sizeof err);
	free(text);
	return 0;
}
