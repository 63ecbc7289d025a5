/*
 * fuzz-params.c - libFuzzer harness: the parser of a variant's parameters
 * ("tile=32,block_rows=8,..."), as --param values and stored names reach
 * it, for every family.  An accepted point must name itself back to a
 * text that parses to the same point.
 */
#include "families/family.h"
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
		int v[MAX_PARAMS] = {0}, w[MAX_PARAMS] = {0};
		if (family_point_parse(family_table[f], text, v) < 0)
			continue;
		char *name = family_point_name(family_table[f], v);
		if (family_point_parse(family_table[f], name, w) < 0 || memcmp(v, w, sizeof(v)))
			abort();
		free(name);
	}
	free(text);
	return 0;
}
