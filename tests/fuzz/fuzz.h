/* fuzz.h - shared bits of the libFuzzer harnesses (tests/fuzz/README). */
#ifndef DS_FUZZ_H
#define DS_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (parsers take text). */
static inline char *
fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}
#endif
