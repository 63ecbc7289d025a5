/*
 * render.h - a variant's CUDA source: the family's template behind one
 * #define per parameter.  Rendering is deterministic: the same family,
 * element type and point always give the same bytes (the compile cache
 * and the database's source hashes rely on it).
 */
#ifndef GPUTUNE_RENDER_H
#define GPUTUNE_RENDER_H

#include "families/family.h"

/* The template text: from templates_dir when not NULL (see --templates and
 * $GPUTUNE_TEMPLATES), else the copy built into the binary.  Caller frees;
 * NULL after reporting when it cannot be read. */
char *template_load(const char *name, const char *templates_dir);

/* A family's template as rendering wants it: templates/common.cuh, then
 * the family's own (caller frees; NULL after reporting). */
char *family_template_load(const struct family *f, const char *templates_dir);

/* The #define lines that make the template point v of type dt, in the
 * family's order; a test-only (hidden) parameter only where it is not at
 * its default, so that no product source names one (caller frees). */
char *render_defines(const struct family *f, const struct dtype *dt, const int *v);

/* The rendered source of point v: its name, render_defines, the template
 * (caller frees). */
char *render_variant(const struct family *f, const struct dtype *dt, const int *v,
		     const char *template_text);

/* The spec of the next region marker (a comment opening with `{SPEC`) at or
 * after *at, which it moves to just past the marker's `{`; NULL when
 * there is none.  Caller frees. */
char *template_next_region(const char **at);

/* Whether point v takes the template's region of spec (`{PARAM` or
 * `{PARAM:VALUE,...`, family.h): 1 or 0, or -1 when spec names no
 * parameter or value of f. */
int template_region_taken(const struct family *f, const char *spec, const int *v);

/* The code paths point v takes: one bit per distinct region spec of tmpl,
 * in the order they first appear, set where v takes it (0 for a template
 * without regions).  Points of the same paths differ only in numbers
 * (tile, unroll, ...); the choice rule's ranking spreads over paths. */
unsigned template_paths(const struct family *f, const char *tmpl, const int *v);

/* The --templates option or $GPUTUNE_TEMPLATES, or NULL for the built-in copies. */
const char *templates_dir_from(const char *option);

#endif
