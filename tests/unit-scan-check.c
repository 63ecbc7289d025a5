/*
 * unit-scan-check.c - the prefix sum's check on the host: its reference
 * (src/families/family-scan.c), what the GPU compares every output element
 * with, and the bound's factor.
 *
 * For lengths of one element to more than 2^20 (where the reference runs
 * in ranges on threads), f32, f64 and i32, and both input sets: each
 * reference element is the prefix sum computed here plainly in long double
 * (exactly, for i32 modulo 2^32 and for the second set's small integers;
 * within 2^-50 of the magnitudes' sum for floats), and each magnitude is
 * the prefix sum of |x| rounded up, never down.  The bound's factor is 0
 * where the sums must be exact (i32, the second set) and otherwise grows
 * with the length.  Prints TAP-like lines; exits 1 on any failure.
 */
#include "families/family.h"
#include "unit-check.h"
#include "util/util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double element(const void *in, const struct dtype *dt, size_t i)
{
	return dt->acc_eps == 0 ? ((const int32_t *)in)[i]
	       : dt->size == 8  ? ((const double *)in)[i]
				: ((const float *)in)[i];
}

int main(void)
{
	const struct family *f = family_find("scan");
	check(f != NULL && f->check == CHECK_BOUND && f->bound_gamma, "the prefix sum is a registered family checked "
	      "within a bound", NULL);
	if (!f)
		return unit_done();
	static const long lengths[] = { 1, 5, 1000, (1L << 20) + 3 };
	static const char *const types[] = { "f32", "f64", "i32" };
	int v[MAX_PARAMS] = {0};
	family_fallback_point(f, v);
	for (size_t t = 0; t < 3; t++)
		for (size_t k = 0; k < sizeof(lengths) / sizeof(lengths[0]); k++)
			for (int set = 0; set < 2; set++) {
				const struct dtype *dt = family_dtype(f, types[t]);
				struct dims d = { lengths[k], 1, 1 };
				size_t n = (size_t)lengths[k];
				void *in = xmalloc(n * dt->size);
				void *ex = xmalloc(n * f->expected_elem);
				f->fill(in, dt, &d, 7 + (uint64_t)k, set);
				f->reference(in, ex, dt, &d);
				const double *ref = ex;
				const float *mag = (const float *)(ref + n);
				long double s = 0, a = 0;
				uint32_t w = 0;
				size_t bad_ref = 0, bad_mag = 0;
				for (size_t i = 0; i < n; i++) {
					double x = element(in, dt, i);
					s += x;
					a += fabsl((long double)x);
					if (dt->acc_eps == 0) {
						w += (uint32_t)((const int32_t *)in)[i];
						bad_ref += ref[i] != (double)w;
						continue;
					}
					long double tol = set == 1 ? 0 : a * 0x1p-50L;
					bad_ref += fabsl((long double)ref[i] - s) > tol;
					bad_mag += (long double)mag[i] < a || (long double)mag[i] > a * (1 + 0x1p-22L);
				}
				double g = f->bound_gamma(v, dt, &d, set);
				int exact = set == 1 || dt->acc_eps == 0;
				char what[96], detail[96];
				snprintf(what, sizeof(what), "%s N=%ld set %d: reference, magnitudes and bound", dt->name,
					 lengths[k], set);
				snprintf(detail, sizeof(detail), "%zu references, %zu magnitudes wrong; gamma %g", bad_ref,
					 bad_mag, g);
				check(!bad_ref && !bad_mag && (exact ? g == 0 : g > 0 && g < 1), what, detail);
				free(in);
				free(ex);
			}
	/* Longer inputs, more tiles, a longer chain: a larger bound. */
	const struct dtype *f32 = family_dtype(f, "f32");
	struct dims small = { 1 << 16, 1, 1 }, large = { 1 << 28, 1, 1 };
	check(f->bound_gamma(v, f32, &large, 0) > f->bound_gamma(v, f32, &small, 0), "the bound grows with the length",
	      NULL);
	return unit_done();
}
