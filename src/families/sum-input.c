/*
 * sum-input.c - the inputs and host-side helpers of the families that add
 * elements up (sum-input.h says what each gives).
 */
#include "families/sum-input.h"
#include "util/util.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

struct part_run {
	void (*fn)(void *ctx, int part, size_t begin, size_t end);
	void *ctx;
	int part;
	size_t begin, end;
};

static void *run_part(void *arg)
{
	struct part_run *p = arg;
	p->fn(p->ctx, p->part, p->begin, p->end);
	return NULL;
}

int sum_parts(size_t n, void (*fn)(void *ctx, int part, size_t begin, size_t end), void *ctx)
{
	int k = n < (1u << 20) ? 1 : SUM_MAX_PARTS;
	size_t step = (n / (size_t)k + 3) / 4 * 4;
	pthread_t tid[SUM_MAX_PARTS];
	struct part_run runs[SUM_MAX_PARTS];
	int started[SUM_MAX_PARTS] = {0};
	for (int t = 0; t < k; t++) {
		runs[t] = (struct part_run){ fn, ctx, t, (size_t)t * step < n ? (size_t)t * step : n,
					     t == k - 1 || (size_t)(t + 1) * step > n ? n : (size_t)(t + 1) * step };
		started[t] = k > 1 && pthread_create(&tid[t], NULL, run_part, &runs[t]) == 0;
		if (!started[t])
			run_part(&runs[t]);
	}
	for (int t = 0; t < k; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
	return k;
}

/* Integers are the types whose accumulator is exact: i32. */
double sum_get(const void *in, const struct dtype *dt, size_t i)
{
	return dt->acc_eps == 0 ? ((const int32_t *)in)[i]
	       : dt->size == 8  ? ((const double *)in)[i]
				: ((const float *)in)[i];
}

static void put(void *in, const struct dtype *dt, size_t i, double x)
{
	if (dt->acc_eps == 0)
		((int32_t *)in)[i] = (int32_t)x;
	else if (dt->size == 8)
		((double *)in)[i] = x;
	else
		((float *)in)[i] = (float)x; /* exact: at most 21 significant bits */
}

static double value0(uint64_t r, const double *scale)
{
	double x = (1.0 + (double)(r >> 11 & 0xfffff) / 1048576.0) * scale[(r >> 40 & 0xff) % 26];
	return r >> 63 ? -x : x;
}

struct fill_job {
	void *in;
	const struct dtype *dt;
	size_t n;
	uint64_t seed;
	int set;
	/* set 1: keep a value with probability keep / 2^64; values 1..4 when dense */
	uint64_t keep;
	int dense;
};

static void fill_part(void *ctx, int part, size_t begin, size_t end)
{
	struct fill_job *p = ctx;
	(void)part;
	int is_int = p->dt->acc_eps == 0;
	double scale[26]; /* 2^-20 .. 2^5 */
	for (int k = 0; k < 26; k++)
		scale[k] = ldexp(1.0, k - 20);
	for (size_t i = begin; i < end; i++) {
		uint64_t r = mix64(p->seed, i);
		double x;
		if (p->set == 1) {
			x = p->dense ? 1 + (int)(r >> 62) : (i < 64 || i + 64 >= p->n || r < p->keep);
		} else if (is_int) {
			((int32_t *)p->in)[i] = (int32_t)(uint32_t)(r >> 32);
			continue;
		} else {
			x = i % 4 == 3 ? -value0(mix64(p->seed, i - 1), scale) : value0(r, scale);
		}
		put(p->in, p->dt, i, x);
	}
}

void sum_fill(void *in, const struct dtype *dt, const struct dims *d, uint64_t seed, int set)
{
	struct fill_job t = { .in = in, .dt = dt, .n = family_elems(d), .seed = seed, .set = set };
	double limit = dt->acc_eps > 0 ? 1.0 / dt->acc_eps / 2 : 1e18; /* 2^23, 2^52 */
	/* Values 1..4 (mean 2.5) where they all fit, else ones at a density
	 * that keeps the expected sum at a quarter of the limit. */
	t.dense = 4.0 * (double)t.n < limit;
	t.keep = t.dense ? ~0ULL : (uint64_t)(limit / 4 / (double)t.n * 18446744073709551615.0);
	sum_parts(t.n, fill_part, &t);
	if (set != 1 || t.dense)
		return;
	/* The sum's bound is a certainty, not a likelihood: should the ones
	 * ever add up to the limit (four times their expected sum), the
	 * excess in the middle is zeroed. */
	double total = 0;
	for (size_t i = 0; i < t.n; i++)
		total += sum_get(in, dt, i);
	for (size_t i = t.n / 2; total >= limit && i + 64 < t.n; i++) {
		total -= sum_get(in, dt, i);
		put(in, dt, i, 0);
	}
}

struct totals_job {
	const void *in;
	const struct dtype *dt;
	struct sum_part *parts;
};

static void range_totals(void *ctx, int part, size_t begin, size_t end)
{
	struct totals_job *j = ctx;
	struct sum_part p = {0};
	for (size_t i = begin; i < end; i++) {
		long double x = sum_get(j->in, j->dt, i);
		if (j->dt->acc_eps == 0)
			p.wrapped += (uint32_t)((const int32_t *)j->in)[i];
		sum_add_compensated(&p.sum, &p.comp, x);
		p.abs += fabsl(x);
	}
	j->parts[part] = p;
}

int sum_range_totals(const void *in, const struct dtype *dt, size_t n, struct sum_part *parts)
{
	struct totals_job j = { in, dt, parts };
	return sum_parts(n, range_totals, &j);
}

int sum_log2_ceil(unsigned long long x)
{
	int k = 0;
	while ((1ULL << k) < x)
		k++;
	return k;
}

void sum_add_compensated(long double *s, long double *c, long double x)
{
	long double t = *s + x;
	*c += fabsl(*s) >= fabsl(x) ? (*s - t) + x : (x - t) + *s;
	*s = t;
}
