/*
 * export.h - writing tuned results for other builds: a C/CUDA header
 * (export-header.c) or JSON (export-json.c) that `gputune db merge` reads
 * back.  Every string taken from a database is escaped where it lands: as
 * a C string literal, inside a comment, or as JSON; no identifier is ever
 * made from one.
 */
#ifndef GPUTUNE_EXPORT_H
#define GPUTUNE_EXPORT_H

#include "export/choice.h"
#include "families/family.h"
#include "db/results.h"

#include <stdio.h>

/* The results as a gputune-results JSON document: the winners under
 * "results", and the candidates' measurements the choice model reads under
 * "measurements".  With every_db, "measurements" holds instead every
 * variant's latest measurement in that database (wrong and failed ones
 * too) for the exported devices, filtered by flt, and "conditions" and
 * "validation" the conditions and held-out points of its runs. */
int export_json(FILE *f, const struct choice_set *cs, sqlite3 *every_db, const struct result_filter *flt);

/* A self-contained header for family fam from the choice model cs (loaded
 * for fam and one timing mode) into f.  Variants whose register counts the
 * results lack are compiled with NVRTC through the compile cache
 * cache_dir.  With cu, split: f gets what callers include (tables, rule,
 * C helpers, the launch helpers' prototypes) and cu, which includes it as
 * names[0], the kernels and launch helpers, compiled once (names[1], the
 * .cu's name, which the header's opening comment gives).  0, or -1 after
 * reporting. */
int export_header(FILE *f, FILE *cu, const char *const names[2], const struct family *fam,
		  const struct choice_set *cs, const char *mode, const char *templates_dir, const char *cache_dir);

/* s as a C string literal, quotes included: backslash escapes for quotes,
 * backslashes, '?' (no trigraphs) and every byte outside printable ASCII. */
void c_string_write(FILE *f, const char *s);
/* s for a comment: only letters, digits and " .,:;()+=_-" survive; every
 * other byte becomes '_', so no comment can be closed early. */
void c_comment_write(FILE *f, const char *s);

#endif
