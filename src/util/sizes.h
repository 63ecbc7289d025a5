/*
 * sizes.h - the --sizes language of 2-D families (matrices):
 *   N        an N x N matrix (N may be written 2^K)
 *   RxC      R rows, C columns
 *   A-B      powers of two from A to B when both are powers of two;
 *            otherwise A, 2A, 4A, ... while not above B
 *   A-B:S    A, A+S, A+2S, ... while not above B
 *   random:N:A-B[:SEED]  N sizes, rows and columns drawn independently
 *            from [A, B] by a generator seeded with SEED (default 1)
 * and comma-separated lists of these.  Ranges are of square sizes.
 * Duplicates are dropped; order is kept.  1-D families (vectors) read the
 * same language without RxC: N, 2^K, ranges and random draws of N (each
 * octave of the range equally likely; stored as rows = N, cols = 1).
 * 3-D families (C = A B with A M x K, B K x N) read MxNxK where 2-D ones
 * read RxC, and N, ranges and random draws as cubes N x N x N (random:
 * all three drawn independently).
 */
#ifndef GPUTUNE_SIZES_H
#define GPUTUNE_SIZES_H

#include <stddef.h>

/* Largest accepted dimension; a matrix also may not exceed MAX_ELEMS. */
#define SIZE_MAX_DIM (1L << 20)
#define SIZE_MAX_ELEMS (1L << 34)

/* One size: rows x cols (M x N of a 3-D size), depth K of a 3-D size and
 * 1 otherwise; a 1-D size N is N x 1 x 1. */
struct dims {
	long rows, cols, depth;
};

/*
 * Parses text, for a family of `shape` dimensions (1, 2 or 3), into a new
 * array (*out, caller frees) of *n sizes.  Returns 0, or -1 with a message
 * quoting the offending part in err (size en).
 */
int sizes_parse(int shape, const char *text, struct dims **out, size_t *n, char *err, size_t en);

/* Whether rows x cols x depth is one of the n sizes of list. */
int sizes_contain(const struct dims *list, size_t n, long rows, long cols, long depth);

#endif
