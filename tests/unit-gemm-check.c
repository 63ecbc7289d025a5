/*
 * unit-gemm-check.c - the matrix multiply's check, on the host: its
 * inputs and its judge (src/families/family-gemm.c), against a reference computed
 * here the way the GPU's reference kernel does (in double, with the sum of
 * |a b| of each element).
 *
 * C computed in float in two orders of the K products (forward, and in
 * blocks of 8 summed apart, as tiled kernels do) must pass on both inputs;
 * C with one product left out, or with one element moved past the bound,
 * must be refused with the element's position; and an output of more than
 * 2^20 elements (judged by several threads) must give the same verdict as
 * the same mistake in a small one.  Prints TAP-like lines; exits 1 on any
 * failure.
 */
#include "families/family.h"

extern const struct family family_gemm; /* src/families/family-gemm.c */
#include "unit-check.h"
#include "util/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct expected {
	double sum, mag;
};

/* C = A B in float: forward over k, or in blocks of 8 products summed
 * apart and then added (skip: the k left out of element (0, 0), -1 none). */
static void multiply(const float *a, const float *b, float *c, const struct dims *d, int blocked, long skip)
{
	long m = d->rows, n = d->cols, kk = d->depth;
	for (long i = 0; i < m; i++)
		for (long j = 0; j < n; j++) {
			float acc = 0, part = 0;
			for (long k = 0; k < kk; k++) {
				if (i == 0 && j == 0 && k == skip)
					continue;
				if (blocked) {
					part = fmaf(a[i * kk + k], b[k * n + j], part);
					if (k % 8 == 7) {
						acc += part;
						part = 0;
					}
				} else {
					acc = fmaf(a[i * kk + k], b[k * n + j], acc);
				}
			}
			c[i * n + j] = acc + part;
		}
}

static void reference(const float *a, const float *b, struct expected *e, const struct dims *d)
{
	long m = d->rows, n = d->cols, kk = d->depth;
	for (long i = 0; i < m; i++)
		for (long j = 0; j < n; j++) {
			double s = 0, g = 0;
			for (long k = 0; k < kk; k++) {
				double p = (double)a[i * kk + k] * b[k * n + j];
				s += p;
				g += fabs(p);
			}
			e[i * n + j] = (struct expected){ s, g };
		}
}

int main(void)
{
	const struct family *f = &family_gemm;
	const struct dtype *dt = dtype_find("f32");
	int v[MAX_PARAMS] = {0};
	char buf[512];
	static const struct dims sizes[] = { { 1, 1, 1 }, { 7, 5, 3 }, { 33, 17, 129 }, { 64, 48, 1000 } };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		const struct dims *d = &sizes[s];
		size_t na = (size_t)(d->rows * d->depth), nc = (size_t)(d->rows * d->cols);
		float *in = xcalloc(f->in_elems(d), sizeof(float)), *c = xcalloc(nc, sizeof(float));
		struct expected *e = xcalloc(nc, sizeof(*e));
		char what[160];
		for (int set = 0; set < 2; set++) {
			f->fill(in, dt, d, 42 + s, set);
			const float *a = in, *b = in + na;
			reference(a, b, e, d);
			int neg = 0, nonint = 0;
			for (size_t i = 0; i < f->in_elems(d); i++) {
				neg |= in[i] < 0;
				nonint |= in[i] != floorf(in[i]);
			}
			snprintf(what, sizeof(what), "%ldx%ldx%ld set %d: inputs of both signs%s", d->rows, d->cols,
				 d->depth, set, set ? ", small integers" : ", fractions");
			check((neg || f->in_elems(d) < 4) && (set == 1 ? !nonint : nonint || f->in_elems(d) < 4), what, NULL);
			for (int blocked = 0; blocked < 2; blocked++) {
				multiply(a, b, c, d, blocked, -1);
				const char *r = f->judge(e, c, v, dt, d, set, buf, sizeof(buf));
				snprintf(what, sizeof(what), "%ldx%ldx%ld set %d: a %s order passes", d->rows, d->cols,
					 d->depth, set, blocked ? "blocked" : "forward");
				check(r == NULL, what, r);
			}
			if (d->depth > 1 && set == 1) {
				multiply(a, b, c, d, 0, d->depth - 1);
				const char *r = f->judge(e, c, v, dt, d, set, buf, sizeof(buf));
				snprintf(what, sizeof(what), "%ldx%ldx%ld: one product left out fails on the exact input",
					 d->rows, d->cols, d->depth);
				check(r && strstr(r, "1 of ") && strstr(r, "row 0, column 0") && strstr(r, "exact"), what, r);
			}
			/* One element past the bound, the last. */
			multiply(a, b, c, d, 0, -1);
			size_t last = nc - 1;
			double gamma = set == 1 ? 0 : d->depth * dt->acc_eps / (1 - d->depth * dt->acc_eps);
			double bound = gamma * e[last].mag;
			/* The GPU checks with the family's bound_gamma (bench.c,
			 * gt_check_pairs): the judge's gamma, exact on set 1. */
			snprintf(what, sizeof(what), "%ldx%ldx%ld set %d: bound_gamma is the judge's gamma(K)", d->rows,
				 d->cols, d->depth, set);
			check(f->bound_gamma && f->bound_gamma(v, dt, d, set) == gamma, what, NULL);
			c[last] = (float)(e[last].sum + 4 * bound + 1e-3 + fabs(e[last].sum) * 1e-3);
			const char *r = f->judge(e, c, v, dt, d, set, buf, sizeof(buf));
			snprintf(what, sizeof(what), "%ldx%ldx%ld set %d: an element past the bound fails, with its place",
				 d->rows, d->cols, d->depth, set);
			char place[64];
			snprintf(place, sizeof(place), "row %ld, column %ld", d->rows - 1, d->cols - 1);
			check(r && strstr(r, place) != NULL, what, r);
			c[last] = NAN;
			r = f->judge(e, c, v, dt, d, set, buf, sizeof(buf));
			snprintf(what, sizeof(what), "%ldx%ldx%ld set %d: a NaN fails", d->rows, d->cols, d->depth, set);
			check(r != NULL, what, r);
		}
		free(in);
		free(c);
		free(e);
	}
	/* A large output (several threads judge it): two wrong elements, in
	 * different slices, are both counted, and the first is named. */
	struct dims big = { 1500, 1000, 1 };
	size_t nc = 1500 * 1000;
	float *c = xcalloc(nc, sizeof(float));
	struct expected *e = xcalloc(nc, sizeof(*e));
	for (size_t i = 0; i < nc; i++) {
		e[i] = (struct expected){ (double)(i % 7) - 3, fabs((double)(i % 7) - 3) };
		c[i] = (float)e[i].sum;
	}
	const char *r = f->judge(e, c, v, dt, &big, 1, buf, sizeof(buf));
	check(r == NULL, "1500x1000: a right output passes", r);
	c[nc - 5] += 1;
	c[777777] -= 2;
	r = f->judge(e, c, v, dt, &big, 1, buf, sizeof(buf));
	check(r && strstr(r, "2 of 1500000") && strstr(r, "row 777, column 777") && strstr(r, "worst error 2"),
	      "1500x1000: two wrong elements in different slices, the first named, the worst measured", r);
	free(c);
	free(e);
	return unit_done();
}
