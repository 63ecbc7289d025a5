/*
 * user-family.h - a kernel family a user brings: a CUDA template and a
 * JSON spec beside it (KERNEL.cu and KERNEL.json), read at run time into
 * a struct family, so that the engine enumerates, renders and compiles it
 * as it does the built-in ones.  docs/user-kernels.md describes the spec.
 *
 * The spec's constraints are SQL expressions over the parameters and the
 * device's limits, evaluated by SQLite (an in-memory connection that may
 * read no table and call only arithmetic and comparison functions), never
 * by a parser of gputune's own.
 */
#ifndef GPUTUNE_USER_FAMILY_H
#define GPUTUNE_USER_FAMILY_H

#include "families/family.h"

#include <stddef.h>

/* The largest spec read, in bytes. */
#define USER_SPEC_MAX (1 << 20)

/*
 * Reads the family of path: a spec (.json) with its template beside it
 * (the spec's "template", else the same name ending in .cu), or a template
 * (.cu) with its spec beside it.  Returns the family (valid until
 * user_family_free), or NULL with "FILE: FIELD: what is wrong" in err
 * (size en).
 */
const struct family *user_family_load(const char *path, char *err, size_t en);
/* The same from the spec's text (spec_path names it in errors; the
 * template, tmpl_path, is not read): what the fuzz harness drives. */
const struct family *user_family_parse(const char *spec, const char *spec_path, const char *tmpl_path, char *err,
				       size_t en);
/* NULL when every expression an exported header computes (the launch's
 * and the buffers' lengths) reads the same in C as in SQL; else which
 * one does not and why, in buf (size n). */
const char *user_family_c_problem(char *buf, size_t n);
/* What a GPU run needs that the loaded family's spec leaves out
 * ("buffers, check"), or "" when it can run. */
const char *user_family_missing(void);
void user_family_free(void);

#endif
