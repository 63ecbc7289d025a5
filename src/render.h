/*
 * render.h - a variant's CUDA source: the family's template behind one
 * #define per parameter.  Rendering is deterministic: the same family,
 * element type and point always give the same bytes (the compile cache
 * and the database's source hashes rely on it).
 */
#ifndef GPUTUNE_RENDER_H
#define GPUTUNE_RENDER_H

#include "family.h"

/* The template text: from templates_dir when not NULL (see --templates and
 * $GPUTUNE_TEMPLATES), else the copy built into the binary.  Caller frees;
 * NULL after reporting when it cannot be read. */
char *template_load(const char *name, const char *templates_dir);

/* A family's template as rendering wants it: templates/common.cuh, then
 * the family's own (caller frees; NULL after reporting). */
char *family_template_load(const struct family *f, const char *templates_dir);

/* The rendered source of point v (caller frees). */
char *render_variant(const struct family *f, const struct dtype *dt, const int *v,
		     const char *template_text);

/* The --templates option or $GPUTUNE_TEMPLATES, or NULL for the built-in copies. */
const char *templates_dir_from(const char *option);

#endif
