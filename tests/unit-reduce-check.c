/*
 * unit-reduce-check.c - the reduction's check, on the host: its inputs,
 * its reference and its judge (src/families/family-reduce.c).
 *
 * For several points of the space and lengths that are not multiples of
 * anything, the sum is computed in float (double for f64) in the order the
 * template adds (each thread's elements in turn, the block's tree, then
 * the blocks' sums), and the judge must accept it on both input sets; the
 * same sum with one element left out, or moved past the error bound, must
 * be refused with a reason that gives the error.  Prints TAP-like lines;
 * exits 1 on any failure.
 */
#include "families/family.h"

extern const struct family family_reduce; /* src/families/family-reduce.c */
#include "unit-check.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The template's order for an accumulator type A (threads' runs, a tree
 * over each block, then the blocks' sums in block order), with element
 * `skip` left out (-1: none). */
#define EMULATE(A, NAME)                                                                            \
	static A NAME(const void *in, int f64, int i32, long n, const int *v, long skip)             \
	{                                                                                             \
		long threads = v[0], vec = v[1], unroll = v[2], grid = v[3];                          \
		long nvec = n / vec, chunk = threads * unroll;                                        \
		long need = (nvec + chunk - 1) / chunk;                                               \
		if (need == 0)                                                                        \
			need = 1;                                                                     \
		long blocks = grid && grid < need ? grid : need;                                      \
		A *part = xcalloc((size_t)threads, sizeof(A));                                        \
		A total = 0;                                                                          \
		for (long b = 0; b < blocks; b++) {                                                   \
			for (long t = 0; t < threads; t++) {                                          \
				A acc = 0;                                                            \
				for (long i = b * chunk + t; i < nvec; i += blocks * chunk)           \
					for (long u = 0; u < unroll; u++)                             \
						for (long k = 0; k < vec; k++) {                      \
							long j = (i + u * threads) * vec + k;         \
							if (i + u * threads >= nvec || j == skip)     \
								continue;                             \
							acc += f64 ? (A)((const double *)in)[j]       \
							     : i32 ? (A)((const int *)in)[j]          \
								   : (A)((const float *)in)[j];       \
						}                                                     \
				if (b == 0 && t < n - nvec * vec && nvec * vec + t != skip)           \
					acc += f64 ? (A)((const double *)in)[nvec * vec + t]          \
					     : i32 ? (A)((const int *)in)[nvec * vec + t]             \
						   : (A)((const float *)in)[nvec * vec + t];          \
				part[t] = acc;                                                        \
			}                                                                             \
			for (long s = threads / 2; s > 0; s /= 2)                                     \
				for (long t = 0; t < s; t++)                                          \
					part[t] += part[t + s];                                       \
			total += part[0];                                                             \
		}                                                                                     \
		free(part);                                                                           \
		return total;                                                                         \
	}
EMULATE(float, sum_float)
EMULATE(double, sum_double)
EMULATE(unsigned, sum_unsigned)

static const char *judge_sum(const struct dtype *dt, const void *expected, double got, unsigned got_u, const int *v,
			     long n, int set, char *buf, size_t len)
{
	unsigned char out[8];
	if (dt->acc_size == 8) {
		memcpy(out, &got, 8);
	} else if (dt->acc_eps == 0) {
		memcpy(out, &got_u, 4);
	} else {
		float f = (float)got;
		memcpy(out, &f, 4);
	}
	return family_reduce.judge(expected, out, v, dt, &(struct dims){ n, 1, 1 }, set, buf, len);
}

int main(void)
{
	const struct family *f = &family_reduce;
	static const int points[][4] = {
		/* threads, vec, unroll, grid */
		{ 128, 1, 1, 0 }, { 256, 4, 8, 1024 }, { 64, 2, 4, 256 }, { 1024, 4, 2, 0 }, { 32, 1, 16, 8192 },
	};
	static const long lengths[] = { 1, 31, 1000, 65537, 1000003, 4194301 };
	const char *types[] = { "f32", "f64", "i32" };
	char why[300], what[200];
	for (size_t ti = 0; ti < ARRAY_SIZE(types); ti++) {
		const struct dtype *dt = dtype_find(types[ti]);
		int f64 = dt->size == 8 && dt->acc_eps > 0, i32 = dt->acc_eps == 0;
		for (size_t li = 0; li < ARRAY_SIZE(lengths); li++) {
			long n = lengths[li];
			void *in = xmalloc((size_t)n * dt->size);
			void *expected = xcalloc(1, f->expected_bytes);
			for (int set = 0; set < 2; set++) {
				f->fill(in, dt, &(struct dims){ n, 1, 1 }, 12345 + (uint64_t)n, set);
				f->reference(in, expected, dt, &(struct dims){ n, 1, 1 });
				for (size_t pi = 0; pi < ARRAY_SIZE(points); pi++) {
					int v[MAX_PARAMS] = { points[pi][0], points[pi][1], points[pi][2], points[pi][3], 4, 0, 0 };
					if ((size_t)v[1] * dt->size > 16)
						continue;
					double got = f64 ? sum_double(in, 1, 0, n, v, -1) : sum_float(in, 0, 0, n, v, -1);
					unsigned got_u = sum_unsigned(in, 0, 1, n, v, -1);
					const char *bad = judge_sum(dt, expected, got, got_u, v, n, set, why, sizeof(why));
					snprintf(what, sizeof(what), "%s N=%ld set %d threads=%d,vec=%d,unroll=%d,grid=%d: "
						 "the kernel's order is accepted", dt->name, n, set, v[0], v[1], v[2], v[3]);
					check(!bad, what, bad);
					if (set == 1 || i32) {
						/* One element left out: the last, or one in the middle. */
						for (int k = 0; k < 2; k++) {
							long skip = k ? n / 2 : n - 1;
							double g2 = f64 ? sum_double(in, 1, 0, n, v, skip)
									: sum_float(in, 0, 0, n, v, skip);
							unsigned u2 = sum_unsigned(in, 0, 1, n, v, skip);
							bad = judge_sum(dt, expected, g2, u2, v, n, set, why, sizeof(why));
							snprintf(what, sizeof(what), "%s N=%ld set %d: element %ld left out is refused",
								 dt->name, n, set, skip);
							/* An i32 element may be 0 by chance; set 1 never leaves
							 * the first and last 64 at 0, nor a dense input. */
							int zero = i32 ? ((const int *)in)[skip] == 0 : 0;
							check(bad != NULL || zero, what, NULL);
							if (bad && set == 1 && !i32)
								check(strstr(bad, "expected exactly") != NULL, "the reason says the exact sum",
								      bad);
						}
					}
				}
			}
			if (!i32) {
				/* Just past the bound is refused, with the error measured. */
				int v[MAX_PARAMS] = { 256, 1, 4, 1024, 4, 0, 0 };
				f->fill(in, dt, &(struct dims){ n, 1, 1 }, 7, 0);
				f->reference(in, expected, dt, &(struct dims){ n, 1, 1 });
				double s = f64 ? sum_double(in, 1, 0, n, v, -1) : sum_float(in, 0, 0, n, v, -1);
				const char *bad = judge_sum(dt, expected, s, 0, v, n, 0, why, sizeof(why));
				check(!bad, "the plain sum passes", bad);
				double far = s + (s >= 0 ? 1 : -1) * (1e-3 * (double)n + 1);
				bad = judge_sum(dt, expected, far, 0, v, n, 0, why, sizeof(why));
				snprintf(what, sizeof(what), "%s N=%ld: a sum far off is refused with its error", dt->name, n);
				check(bad && strstr(bad, "exceeds the bound"), what, bad);
			}
			free(in);
			free(expected);
		}
	}
	/* The exact-sum input stays where every order is exact. */
	long n = 1L << 26;
	float *in = xmalloc((size_t)n * sizeof(float));
	f->fill(in, dtype_find("f32"), &(struct dims){ n, 1, 1 }, 99, 1);
	double total = 0;
	int positive = 1;
	for (long i = 0; i < n; i++) {
		total += in[i];
		positive &= in[i] >= 0 && in[i] == (float)(int)in[i];
	}
	check(total < 8388608.0 && positive && in[0] > 0 && in[n - 1] > 0,
	      "f32 exact-sum input at 2^26: small non-negative integers, ends non-zero, total below 2^23", NULL);
	free(in);
	return unit_done();
}
