/*
 * family-reduce.c - the parallel sum of N elements into one, as a point in
 * a space of block sizes, loads, grid shapes and the two stages that
 * combine partial sums (templates/reduce.cu says what each parameter
 * does).  The classic ladder of optimisations is a list of named points:
 * interleaved addressing with divergent branches, interleaved addressing,
 * sequential addressing, the first add during load, the unrolled last
 * warp (completely unrolled too, as the block size is a template
 * constant) and several elements per thread.
 *
 * The check: an integer sum is exact (modulo 2^32).  A floating-point sum
 * depends on the order of the additions, so the result is compared with a
 * compensated sum in long double on the host, and may differ from it by
 * at most gamma(h) * sum |x_i|, gamma(h) = h u / (1 - h u), u the unit
 * roundoff of the accumulator and h the longest chain of additions any
 * element goes through in this variant at this N (its elements per
 * thread, the block's tree, and the final stage: see chain_length).  That
 * bound holds for every order of summation with that depth.  Because a
 * bound loose enough for every order could hide a missing element, each
 * variant is also run on a second input of small positive integers whose
 * sum stays below 2^24 (f32) or 2^53 (f64): every partial sum is then
 * exact whatever the order, so the result must equal the exact sum, and a
 * missing or doubled element always changes it.
 */
#include "families/family.h"
#include "util/util.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { P_THREADS, P_VEC, P_UNROLL, P_GRID, P_BLOCK, P_FINAL, P_INJECT, NPARAMS };
_Static_assert(NPARAMS <= MAX_PARAMS, "more parameters than MAX_PARAMS");

static const char *const block_names[] = { "interleaved_divergent", "interleaved", "sequential",
					   "sequential_warp", "shuffle", NULL };
static const char *const final_names[] = { "lastblock", "atomic", NULL };
static const char *const inject_names[] = { "none", "wrong", "fault", "overrun", NULL };

static const struct param_def params[NPARAMS] = {
	[P_THREADS] = { "threads", "GT_THREADS", "threads per block",
			NULL, { 32, 64, 128, 256, 512, 1024 }, 6, { 128, 256, 512, 1024 }, 4, 256, 0 },
	[P_VEC] = { "vec", "GT_VEC", "elements per load (one aligned access)",
		    NULL, { 1, 2, 4 }, 3, { 1, 2, 4 }, 3, 4, 0 },
	[P_UNROLL] = { "unroll", "GT_UNROLL", "loads in flight per thread and step, issued before the adds",
		       NULL, { 1, 2, 4, 8, 16 }, 5, { 2, 4, 8 }, 3, 4, 0 },
	[P_GRID] = { "grid", "GT_GRID", "0: one step per thread (blocks sized to N); else at most this many blocks in a grid-stride loop",
		     NULL, { 0, 256, 512, 1024, 2048, 4096, 8192 }, 7, { 0, 1024, 2048, 4096 }, 4, 2048, 0 },
	[P_BLOCK] = { "block", "GT_BLOCK", "how a block sums its threads: shared-memory trees or warp shuffles",
		      block_names, { 0, 1, 2, 3, 4 }, 5, { 3, 4 }, 2, 4, 0 },
	[P_FINAL] = { "final", "GT_FINAL", "how blocks' sums meet: the last block sums them, or atomics",
		      final_names, { 0, 1 }, 2, { 0, 1 }, 2, 0, 0 },
	[P_INJECT] = { "inject", "GT_INJECT", "test-only fault injection: none, wrong (drops the last element), fault or overrun",
		       inject_names, { 0, 1, 2, 3 }, 4, { 0 }, 1, 0, 1 },
};

static const char *reject(const int *v, const struct dtype *dt, const struct device_limits *lim,
			  char *buf, size_t n)
{
	if ((size_t)v[P_VEC] * dt->size > 16) {
		snprintf(buf, n, "vec x element size exceeds the 16-byte access limit (%zu bytes)",
			 (size_t)v[P_VEC] * dt->size);
		return buf;
	}
	if (v[P_THREADS] > lim->max_threads_per_block) {
		snprintf(buf, n, "threads per block exceed the device limit (%d > %d)", v[P_THREADS],
			 lim->max_threads_per_block);
		return buf;
	}
	if (v[P_BLOCK] != 4 && v[P_THREADS] < 64)
		return "the shared-memory trees need at least 64 threads (block=shuffle works with 32)";
	if (v[P_UNROLL] * v[P_VEC] > 32) {
		snprintf(buf, n, "more than 32 elements in flight per thread (%d)", v[P_UNROLL] * v[P_VEC]);
		return buf;
	}
	return NULL;
}

/* Blocks of a launch: one step per thread, or at most GRID, and never
 * more than there is work for. */
static unsigned long long blocks(const int *v, long n)
{
	unsigned long long nvec = (unsigned long long)n / (unsigned)v[P_VEC];
	unsigned long long chunk = (unsigned long long)v[P_THREADS] * (unsigned)v[P_UNROLL];
	unsigned long long need = (nvec + chunk - 1) / chunk;
	if (need == 0)
		need = 1;
	return v[P_GRID] && (unsigned long long)v[P_GRID] < need ? (unsigned long long)v[P_GRID] : need;
}

static void geometry(const int *v, const struct dtype *dt, const struct dims *d, struct launch_geometry *g)
{
	(void)dt;
	g->grid[0] = (unsigned)blocks(v, d->rows);
	g->grid[1] = g->grid[2] = 1;
	g->block[0] = (unsigned)v[P_THREADS];
	g->block[1] = g->block[2] = 1;
	g->smem = 0;
}

static size_t out_bytes(const struct dtype *dt, const struct dims *d)
{
	(void)d;
	return dt->acc_size;
}

/* Counter, slot and one partial sum per block (8 bytes each, the largest
 * accumulator); the header's scratch_c says the same. */
static size_t scratch_bytes(const int *v, const struct dtype *dt, const struct dims *d)
{
	(void)dt;
	return 256 + 8 * (size_t)blocks(v, d->rows);
}

static double bytes_read(const struct dtype *dt, const struct dims *d)
{
	return (double)family_elems_bytes(dt, d);
}

/* The element generator: a hash of (seed, index), so any range of the
 * input can be made on its own, in parallel, and the same on every run
 * with that seed. */
static uint64_t mix(uint64_t seed, uint64_t i)
{
	uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Inputs of 2^28 elements take seconds on one core: fill and reference
 * split them into up to MAX_THREADS ranges, each a multiple of 4
 * elements (the cancelling pairs never straddle two ranges). */
#define MAX_THREADS 16
struct part {
	void *in;
	const struct dtype *dt;
	size_t n, begin, end;
	uint64_t seed;
	int set;
	/* set 1: keep a value with probability keep / 2^64; values 1..4 when dense */
	uint64_t keep;
	int dense;
	/* reference: this range's compensated sum, magnitudes, wrapped sum */
	long double sum, comp, abs;
	uint32_t wrapped;
	void (*fn)(struct part *);
};

static void *run_part(void *arg)
{
	struct part *p = arg;
	p->fn(p);
	return NULL;
}

/* Runs fn over [0, n) in ranges; parts[] keeps each range's results. */
static int in_parts(struct part *tmpl, void (*fn)(struct part *), struct part *parts)
{
	size_t n = tmpl->n;
	int k = n < (1u << 20) ? 1 : MAX_THREADS;
	size_t step = (n / (size_t)k + 3) / 4 * 4;
	pthread_t tid[MAX_THREADS];
	int started[MAX_THREADS] = {0};
	for (int t = 0; t < k; t++) {
		parts[t] = *tmpl;
		parts[t].fn = fn;
		parts[t].begin = (size_t)t * step < n ? (size_t)t * step : n;
		parts[t].end = t == k - 1 || (size_t)(t + 1) * step > n ? n : (size_t)(t + 1) * step;
		started[t] = k > 1 && pthread_create(&tid[t], NULL, run_part, &parts[t]) == 0;
		if (!started[t])
			fn(&parts[t]);
	}
	for (int t = 0; t < k; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
	return k;
}

/* Element i of an input of dt as a double, and storing one (integers
 * are the types whose accumulator is exact: i32). */
static double get(const void *in, const struct dtype *dt, size_t i)
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

static void fill_part(struct part *p)
{
	int is_int = p->dt->acc_eps == 0;
	double scale[26]; /* 2^-20 .. 2^5 */
	for (int k = 0; k < 26; k++)
		scale[k] = ldexp(1.0, k - 20);
	for (size_t i = p->begin; i < p->end; i++) {
		uint64_t r = mix(p->seed, i);
		double x;
		if (p->set == 1) {
			x = p->dense ? 1 + (int)(r >> 62) : (i < 64 || i + 64 >= p->n || r < p->keep);
		} else if (is_int) {
			((int32_t *)p->in)[i] = (int32_t)(uint32_t)(r >> 32);
			continue;
		} else {
			x = i % 4 == 3 ? -value0(mix(p->seed, i - 1), scale) : value0(r, scale);
		}
		put(p->in, p->dt, i, x);
	}
}

/* Set 0: values of both signs over 26 binades (2^-20 to 2^5), every
 * fourth the negation of the one before (sums that cancel); i32: any
 * value.  Set 1: small positive integers whose sum stays below the
 * accumulator's exact range (see the top of this file), the first and
 * last 64 never zero. */
static void fill(void *in, const struct dtype *dt, const struct dims *d, uint64_t seed, int set)
{
	struct part parts[MAX_THREADS], t = { .in = in, .dt = dt, .n = family_elems(d), .seed = seed,
					       .set = set };
	double limit = dt->acc_eps > 0 ? 1.0 / dt->acc_eps / 2 : 1e18; /* 2^23, 2^52 */
	/* Values 1..4 (mean 2.5) where they all fit, else ones at a density
	 * that keeps the expected sum at a quarter of the limit. */
	t.dense = 4.0 * (double)t.n < limit;
	t.keep = t.dense ? ~0ULL : (uint64_t)(limit / 4 / (double)t.n * 18446744073709551615.0);
	in_parts(&t, fill_part, parts);
	if (set != 1 || t.dense)
		return;
	/* The sum's bound is a certainty, not a likelihood: should the ones
	 * ever add up to the limit (four times their expected sum), the
	 * excess in the middle is zeroed. */
	double total = 0;
	for (size_t i = 0; i < t.n; i++)
		total += get(in, dt, i);
	for (size_t i = t.n / 2; total >= limit && i + 64 < t.n; i++) {
		total -= get(in, dt, i);
		put(in, dt, i, 0);
	}
}

/* What the judge compares with. */
struct reduce_expected {
	long double sum, abs_sum;
	uint32_t wrapped; /* i32: the sum modulo 2^32 */
};

/* Neumaier's step: s + x into *s, the lost low part into *c. */
static void add_compensated(long double *s, long double *c, long double x)
{
	long double t = *s + x;
	*c += fabsl(*s) >= fabsl(x) ? (*s - t) + x : (x - t) + *s;
	*s = t;
}

static void reference_part(struct part *p)
{
	long double s = 0, c = 0, a = 0;
	uint32_t w = 0;
	for (size_t i = p->begin; i < p->end; i++) {
		long double x = get(p->in, p->dt, i);
		if (p->dt->acc_eps == 0)
			w += (uint32_t)((const int32_t *)p->in)[i];
		add_compensated(&s, &c, x);
		a += fabsl(x);
	}
	p->sum = s;
	p->comp = c;
	p->abs = a;
	p->wrapped = w;
}

/* Compensated (Neumaier) summation in long double, per range and then
 * over the ranges: its error is a few units of long double's roundoff,
 * far below any bound the judge uses. */
static void reference(const void *in, void *expected, const struct dtype *dt, const struct dims *d)
{
	struct part parts[MAX_THREADS], t = { .in = (void *)in, .dt = dt, .n = family_elems(d) };
	int k = in_parts(&t, reference_part, parts);
	struct reduce_expected *e = expected;
	long double s = 0, c = 0, a = 0;
	uint32_t w = 0;
	for (int i = 0; i < k; i++) {
		add_compensated(&s, &c, parts[i].sum);
		add_compensated(&s, &c, parts[i].comp);
		a += parts[i].abs;
		w += parts[i].wrapped;
	}
	e->sum = s + c;
	e->abs_sum = a;
	e->wrapped = w;
}

static int log2_ceil(unsigned long long x)
{
	int k = 0;
	while ((1ULL << k) < x)
		k++;
	return k;
}

/* The longest chain of additions an element goes through: the elements a
 * thread adds in turn (plus one for the tail), the block's tree, and the
 * final stage (the last block's turns over the partial sums and its tree,
 * or one atomic per block in the worst order). */
static double chain_length(const int *v, long n)
{
	unsigned long long g = blocks(v, n);
	unsigned long long nvec = (unsigned long long)n / (unsigned)v[P_VEC];
	unsigned long long stride = g * (unsigned long long)v[P_THREADS] * (unsigned)v[P_UNROLL];
	unsigned long long steps = (nvec + stride - 1) / stride;
	double h = (double)(steps ? steps : 1) * v[P_UNROLL] * v[P_VEC] + 1 + log2_ceil((unsigned)v[P_THREADS]);
	if (g > 1)
		h += v[P_FINAL] == 1 ? (double)g
				     : (double)((g + (unsigned)v[P_THREADS] - 1) / (unsigned)v[P_THREADS]) +
					       log2_ceil((unsigned)v[P_THREADS]);
	return h;
}

static const char *judge(const void *expected, const void *out, const int *v, const struct dtype *dt,
			 const struct dims *d, int set, char *buf, size_t n)
{
	const struct reduce_expected *e = expected;
	long len = (long)family_elems(d);
	if (dt->acc_eps == 0) {
		uint32_t got;
		memcpy(&got, out, sizeof(got));
		if (got == e->wrapped)
			return NULL;
		snprintf(buf, n, "integer sum %d, expected %d (N=%ld, input set %d)", (int32_t)got, (int32_t)e->wrapped,
			 len, set);
		return buf;
	}
	long double got;
	if (dt->acc_size == 8) {
		double x;
		memcpy(&x, out, sizeof(x));
		got = x;
	} else {
		float f;
		memcpy(&f, out, sizeof(f));
		got = f;
	}
	long double err = fabsl(got - e->sum);
	if (set == 1) {
		if (err == 0)
			return NULL;
		snprintf(buf, n, "sum %.17Lg of the exact-sum input, expected exactly %.17Lg (N=%ld)", got, e->sum, len);
		return buf;
	}
	double h = chain_length(v, len), u = dt->acc_eps;
	long double bound = (long double)(h * u / (1 - h * u)) * e->abs_sum + e->abs_sum * 0x1p-60L;
	if (err <= bound && got == got)
		return NULL;
	snprintf(buf, n, "sum %.9Lg, reference %.9Lg: error %.3Lg exceeds the bound %.3Lg (N=%ld, chain %.0f, "
		 "sum of |x| %.4Lg)", got, e->sum, err, bound, len, h, e->abs_sum);
	return buf;
}

static const char *const classics[] = {
	"interleaved-divergent:threads=128,vec=1,unroll=1,grid=0,block=interleaved_divergent,final=lastblock",
	"interleaved:threads=128,vec=1,unroll=1,grid=0,block=interleaved,final=lastblock",
	"sequential:threads=128,vec=1,unroll=1,grid=0,block=sequential,final=lastblock",
	"first-add:threads=128,vec=1,unroll=2,grid=0,block=sequential,final=lastblock",
	"unrolled-warp:threads=128,vec=1,unroll=2,grid=0,block=sequential_warp,final=lastblock",
	"per-thread:threads=128,vec=1,unroll=2,grid=1024,block=sequential_warp,final=lastblock",
	NULL
};

const struct family family_reduce = {
	.name = "reduce",
	.summary = "parallel sum of N elements into one value",
	.command_summary = "tune the parallel sum for this GPU at the given vector lengths",
	.command_help =
		"The check: an i32 sum is exact (modulo 2^32).  A floating-point sum depends on\n"
		"the order of its additions, so each variant's result R is compared with a\n"
		"compensated sum S in long double of the same input, and is wrong when\n"
		"  |R - S| > gamma(h) * sum |x_i|,  gamma(h) = h u / (1 - h u),\n"
		"with u the accumulator's unit roundoff (2^-24 for f32, 2^-53 for f64) and h\n"
		"the longest chain of additions an element goes through in that variant at that\n"
		"N: its elements per thread, plus log2 of the block's threads, plus the final\n"
		"stage (the last block's partial sums per thread and its tree, or one atomic per\n"
		"block).  The input has both signs over 26 binades, every fourth value cancelling\n"
		"the one before.  As such a bound can hide a missing small element, every variant\n"
		"also sums a second input of small positive integers whose total stays below\n"
		"2^23 (f32) or 2^52 (f64), where every order of addition is exact: its result\n"
		"must be exactly right.  A wrong variant's reason gives the measured error.\n"
		"\nThe figure is GB/s of input read; the ceiling is the best of three streaming\n"
		"read kernels over the same input, timed in the same run.  Exported headers give\n"
		"gputune_reduce_scratch_bytes(): the scratch memory a variant needs, zeroed once\n"
		"before its first launch (no launch after needs it zeroed again).\n",
	.template_name = "templates/reduce.cu",
	.kernel_name = "gputune_reduce",
	.shape = SHAPE_1D,
	.default_sizes = "2^16-2^28",
	.dtypes = "f32,f64,i32",
	.metric = METRIC_BYTES,
	.check = CHECK_HOST,
	.ceiling = CEILING_READ,
	.args = ARGS_VECTOR,
	.arithmetic = 1,
	.params = params,
	.nparams = NPARAMS,
	.reject = reject,
	.geometry = geometry,
	.geometry_c =
		"\tunsigned long long nvec = n / (unsigned)c->vec;\n"
		"\tunsigned long long chunk = (unsigned long long)c->threads * (unsigned)c->unroll;\n"
		"\tunsigned long long need = (nvec + chunk - 1) / chunk;\n"
		"\tif (need == 0)\n\t\tneed = 1;\n"
		"\tgrid[0] = (unsigned)(c->grid && (unsigned long long)c->grid < need ? (unsigned long long)c->grid : need);\n"
		"\tgrid[1] = grid[2] = 1;\n"
		"\tblock[0] = (unsigned)c->threads;\n"
		"\tblock[1] = block[2] = 1;\n",
	.in_elems = family_elems,
	.out_bytes = out_bytes,
	.scratch_bytes = scratch_bytes,
	.scratch_c = "256 + 8 * (size_t)grid[0]",
	.work = bytes_read,
	.fill = fill,
	.nsets = 2,
	.reference = reference,
	.expected_bytes = sizeof(struct reduce_expected),
	.judge = judge,
	.classics = classics,
	.nreport = 6,
	.fallback = 5,
	.validate_sizes = "random:20:65536-268435456",
};
