/*
 * user-state.h - the state of the user family being read (one at a time),
 * shared by the files that read its spec: user-family.c (the family's
 * head, parameters and constraints) and user-launch.c (its buffers,
 * launch, metric, check and classics, and the callbacks that evaluate
 * them at a size).  Not for use outside src/families/.
 */
#ifndef GPUTUNE_USER_STATE_H
#define GPUTUNE_USER_STATE_H

#include "families/family.h"
#include "util/util.h"

#include <sqlite3.h>
#include <stddef.h>

#define MAX_CONSTRAINTS 64
#define MAX_CLASSICS 8
#define MAX_DEFAULT_ONLY 16
#define EXPR_MAX 2000

/* One buffer of the spec: its length, an expression of the size in
 * elements; an input's values are drawn from [lo, hi]. */
struct user_buffer {
	sqlite3_stmt *length;
	double lo, hi;
};

struct user {
	int loaded;
	struct family f;
	struct param_def params[MAX_PARAMS];
	char *names[MAX_PARAMS][MAX_VALUES + 1]; /* symbolic values */
	sqlite3 *db;                /* reads the spec, evaluates its expressions */
	sqlite3_stmt *cons[MAX_CONSTRAINTS];
	const char *reasons[MAX_CONSTRAINTS];
	int ncons;
	sqlite3_stmt *all_cons; /* all of them: the index of the first a point breaks, -1 for none */
	sqlite3_stmt *donly[MAX_DEFAULT_ONLY]; /* default_only: what a default point must meet */
	int donly_param[MAX_DEFAULT_ONLY];     /* ... unless this parameter was given */
	const char *donly_reason[MAX_DEFAULT_ONLY];
	int ndonly;
	long steps;
	/* What a GPU run needs besides the space. */
	struct family_buffer buffers[MAX_BUFFERS];
	struct user_buffer bufs[MAX_BUFFERS];
	sqlite3_stmt *geo[7]; /* grid x, y, z, block x, y, z, dynamic shared memory; NULL: 1 (0 for memory) */
	const char *geo_text[7]; /* their expressions as written, for headers */
	sqlite3_stmt *metric;
	const char *metric_text;
	const char *classics[MAX_CLASSICS + 1];
	char missing[80]; /* the parts a GPU run needs that the spec leaves out, "" when none */
	char **strings; /* every text the family owns */
	int nstrings, capstrings;
};
extern struct user U;

/* s, freed with the family (every text the family points to is one). */
char *user_own(char *s);
/* The error: "FILE: FIELD: what", into err; frees the family, returns NULL. */
const struct family *user_spec_fail(char *err, size_t en, const char *file, const char *field, const char *fmt, ...)
	GT_PRINTF(5, 6);
/* json_extract(spec, path) as a new string (NULL for none), its JSON type
 * ("null" when absent) into type (size 16). */
char *user_jget(const char *spec, const char *path, char *type);
/* The length of the array at path of spec, or -1 where it holds none. */
int user_jlen(const char *spec, const char *path);
/* A name of lower-case letters, digits and '_', a letter first, at most max. */
int user_good_name(const char *s, size_t max);
/* Text of at most max characters, none a control character. */
int user_good_text(const char *s, size_t max);
/* Compiles expr as SELECT (expr) FROM (SELECT ?1 AS c1, ...) over the
 * columns cols (the SQL of that inner list), under the authorizer that
 * allows arithmetic and comparisons only.  names says what the columns
 * are, for the message when expr names another.  The statement, or NULL
 * with the error (through user_spec_fail, for field of file). */
sqlite3_stmt *user_prepare_expr(const char *expr, const char *cols, const char *names, const char *file,
				const char *field, char *err, size_t en);
/* Reads what a GPU run needs (buffers, launch, metric, check, classics)
 * into U.f.  0, or -1 with the error. */
int user_read_launch(const char *spec, const char *file, char *err, size_t en);

#endif
