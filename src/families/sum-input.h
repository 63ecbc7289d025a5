/*
 * sum-input.h - what the families that add elements up (the sum and the
 * prefix sum) share: their inputs, made the same on every run with a
 * seed, element access as doubles, Neumaier's compensated addition for
 * their host references, and work split over threads for inputs of 2^28
 * elements.
 */
#ifndef GPUTUNE_SUM_INPUT_H
#define GPUTUNE_SUM_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "families/family.h"

/* Most ranges work is split into. */
#define SUM_MAX_PARTS 16

/* Set 0: values of both signs over 26 binades (2^-20 to 2^5), every
 * fourth the negation of the one before (sums that cancel); i32: any
 * value.  Set 1: small positive integers whose sum stays below the
 * accumulator's exact range (2^23 for f32, 2^52 for f64), the first and
 * last 64 never zero, so that every partial sum is exact in any order. */
void sum_fill(void *in, const struct dtype *dt, const struct dims *d, uint64_t seed, int set);

/* Element i of an input of dt as a double (i32 as its signed value). */
double sum_get(const void *in, const struct dtype *dt, size_t i);

/* s + x into *s, the part lost to rounding into *c (Neumaier). */
void sum_add_compensated(long double *s, long double *c, long double x);

/* Runs fn(ctx, part, begin, end) over [0, n) split into ranges, each a
 * multiple of 4 elements, one thread each (one range below 2^20
 * elements); returns the number of ranges, at most SUM_MAX_PARTS.  Part
 * k's range comes before part k + 1's. */
int sum_parts(size_t n, void (*fn)(void *ctx, int part, size_t begin, size_t end), void *ctx);

/* One range's compensated sum (sum + comp), sum of magnitudes and, for
 * an integer type, its sum modulo 2^32. */
struct sum_part {
	long double sum, comp, abs;
	uint32_t wrapped;
};

/* The totals of the ranges sum_parts splits [0, n) of in into, in order,
 * into parts; returns their number. */
int sum_range_totals(const void *in, const struct dtype *dt, size_t n, struct sum_part *parts);

/* The smallest k with 2^k >= x: the depth of a tree over x values. */
int sum_log2_ceil(unsigned long long x);

#endif
