/*
 * fuzz-render.c - libFuzzer harness: rendering a variant from any template
 * text (the --templates directory is the user's), for every family and
 * element type: the result must hold the variant's defines and the text.
 */
#include "families/family.h"
#include "compile/render.h"
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *text = malloc(n + 1);
	memcpy(text, data, n);
	text[n] = '\0';
	for (size_t f = 0; family_table[f]; f++) {
		int v[MAX_PARAMS] = {0};
		family_fallback_point(family_table[f], v);
		for (const struct dtype *dt = dtype_table; dt->name; dt++) {
			char *src = render_variant(family_table[f], dt, v, text);
			if (!strstr(src, "#define GT_ELEM_BYTES") || !strstr(src, text))
				abort();
			free(src);
		}
	}
	free(text);
	return 0;
}
