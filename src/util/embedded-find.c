/*
 * embedded-find.c - lookup in the generated embedded_files[] table.
 */
#include "util/embedded.h"

#include <string.h>

const struct embedded_file *embedded_find(const char *name)
{
	for (const struct embedded_file *f = embedded_files; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}
