/*
 * fuzz-sizes.c - libFuzzer harness: the --sizes parser, for matrices and
 * for vector lengths.  Every input must be accepted with sizes inside the
 * limits, or refused with a message; nothing else.
 */
#include "util/sizes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *text = malloc(n + 1);
	memcpy(text, data, n);
	text[n] = '\0';
	for (int shape = 1; shape <= 2; shape++) {
		struct dims *s = NULL;
		size_t k = 0;
		char err[256];
		if (sizes_parse(shape, text, &s, &k, err, sizeof(err)) == 0) {
			for (size_t i = 0; i < k; i++)
				if (s[i].rows < 1 || s[i].cols < 1 || (shape == 1 && s[i].cols != 1) ||
				    s[i].rows * s[i].cols > SIZE_MAX_ELEMS)
					abort();
		} else if (!err[0]) {
			abort();
		}
		free(s);
	}
	free(text);
	return 0;
}
