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
#include "families/sum-input.h"
#include "util/util.h"

#include <math.h>
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
	[P_INJECT] = { "inject", "GT_INJECT", "test-only: GT_INJECT for a test's copy of the template (tests/faults), which injects a fault: wrong (drops the last element), fault or overrun; the shipped template has none",
		       inject_names, { 0, 1, 2, 3 }, 4, { 0 }, 1, 0, 1 },
};

static const char *reject(const int *v, const struct dtype *dt, const struct device_limits *lim,
			  char *buf, size_t n)
{
	const char *why = family_reject_access(v[P_VEC], dt, buf, n);
	if (why || (why = family_reject_threads(v[P_THREADS], lim, buf, n)))
		return why;
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

/* What the judge compares with. */
struct reduce_expected {
	long double sum, abs_sum;
	uint32_t wrapped; /* i32: the sum modulo 2^32 */
};

/* Compensated (Neumaier) summation in long double, per range and then
 * over the ranges: its error is a few units of long double's roundoff,
 * far below any bound the judge uses. */
static void reference(const void *in, void *expected, const struct dtype *dt, const struct dims *d)
{
	struct sum_part parts[SUM_MAX_PARTS];
	int k = sum_range_totals(in, dt, family_elems(d), parts);
	struct reduce_expected *e = expected;
	long double s = 0, c = 0, a = 0;
	uint32_t w = 0;
	for (int i = 0; i < k; i++) {
		sum_add_compensated(&s, &c, parts[i].sum);
		sum_add_compensated(&s, &c, parts[i].comp);
		a += parts[i].abs;
		w += parts[i].wrapped;
	}
	e->sum = s + c;
	e->abs_sum = a;
	e->wrapped = w;
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
	double h = (double)(steps ? steps : 1) * v[P_UNROLL] * v[P_VEC] + 1 + sum_log2_ceil((unsigned)v[P_THREADS]);
	if (g > 1)
		h += v[P_FINAL] == 1 ? (double)g
				     : (double)((g + (unsigned)v[P_THREADS] - 1) / (unsigned)v[P_THREADS]) +
					       sum_log2_ceil((unsigned)v[P_THREADS]);
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
	.header_notes = "gputune_reduce_scratch_bytes(i, n) is the scratch memory variant i needs:\n"
			"zero it once before the first launch; no launch after needs it zeroed\n"
			"again (each leaves what it reads next time zero).\n"
			"The output is one accumulator: float for f32, double for f64, and for i32\n"
			"a 32-bit integer (the sum modulo 2^32).",
	.in_elems = family_elems,
	.out_bytes = out_bytes,
	.scratch_bytes = scratch_bytes,
	.scratch_c = "256 + 8 * (size_t)grid[0]",
	.work = bytes_read,
	.fill = sum_fill,
	.nsets = 2,
	.reference = reference,
	.expected_bytes = sizeof(struct reduce_expected),
	.judge = judge,
	.classics = classics,
	.nreport = 6,
	.fallback = 5,
	.validate_sizes = "random:20:65536-268435456",
};
