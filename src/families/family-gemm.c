/*
 * family-gemm.c - C = A B in single precision on the CUDA cores, as a
 * point in a space of block, warp and thread tiles, k-steps, load widths,
 * padding, staging and block order (templates/gemm.cu says what each
 * parameter does).  The space runs to thousands of valid points, too many
 * to time in full at every size, so the family's default is a search
 * (strategy.h) with a budget of variants per size.
 *
 * Sizes are M x N x K (A is M x K, B is K x N, all row-major); the figure
 * is GFLOP/s (2 M N K operations per launch) and the ceiling the GPU's
 * measured rate of fused multiply-adds in the same run.
 *
 * The check: the reference is computed on the GPU, in double precision,
 * by a plain tiled kernel (support.cu), with beside each element the sum
 * of |a b| over its products.  Any order of the K fused multiply-adds in
 * single precision is within gamma(K) sum |a b| of the exact result
 * (gamma(K) = K u / (1 - K u), u = 2^-24), so a variant whose output is
 * further from the reference than that anywhere is wrong.  The timed
 * input is of values of both signs in [-1, 1], so a wrong index cannot
 * pass by accident.  Because a bound loose enough for every order could
 * hide one missing product, each variant is also run on a second input of
 * integers in [-4, 4] \ {0}: every product and partial sum is then an
 * integer below 2^24 (K <= 2^20), exact in single precision whatever the
 * order, so the output must equal the reference exactly.
 */
#include "families/family.h"
#include "families/strategy.h"
#include "util/util.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { P_BM, P_BN, P_BK, P_WM, P_WN, P_TM, P_TN, P_VEC, P_PAD, P_DBUF, P_GROUP, P_SPLIT, P_REALIGN, P_ASYNC, P_FLAT, P_INJECT,
       P_STREAM, NPARAMS };
_Static_assert(NPARAMS <= MAX_PARAMS, "more parameters than MAX_PARAMS");

static const char *const inject_names[] = { "none", "wrong", NULL };
static const char *const realign_names[] = { "off", "on", NULL };
static const char *const flat_names[] = { "off", "on", "lanes", "rows", "floats", NULL };
static const char *const stream_names[] = { "off", "on", NULL };

static const struct param_def params[NPARAMS] = {
	/* 96 rows (warps of 48, in the default space; 192 and warps of 96
	 * only when asked): rows just past a multiple of 64 or 128 leave
	 * less of a last tile of 96 outside C (777 rows: 9 tiles of 96
	 * compute 864, 7 of 128 compute 896).  Side by side on an H200, a
	 * 96 x 64 tile of 48 x 32 warps (split=2, lanes) reached 1.08 of
	 * cuBLAS at 777x1333x2049, where the best of the space's tiles
	 * reached 0.85, and 0.89 at 909x2081x2328 (0.86)
	 * (docs/studies/gemm-tiles-of-96-rows.md).  Columns stay powers of
	 * two: flat=lanes deals a row's floats out by them. */
	[P_BM] = { "bm", "GT_BM", "rows of C per block (the block tile's height)",
		   NULL, { 16, 32, 64, 96, 128, 192, 256 }, 7, { 32, 64, 96, 128, 256 }, 5, 128, 0 },
	[P_BN] = { "bn", "GT_BN", "columns of C per block (the block tile's width)",
		   NULL, { 16, 32, 64, 128, 256 }, 5, { 32, 64, 128, 256 }, 4, 128, 0 },
	[P_BK] = { "bk", "GT_BK", "the step along K staged in shared memory per round",
		   NULL, { 8, 16, 32 }, 3, { 8, 16, 32 }, 3, 8, 0 },
	[P_WM] = { "wm", "GT_WM", "rows of a warp's tile (a multiple of 4 tm)",
		   NULL, { 4, 8, 16, 32, 48, 64, 96, 128 }, 8, { 16, 32, 48, 64, 128 }, 5, 32, 0 },
	[P_WN] = { "wn", "GT_WN", "columns of a warp's tile (a multiple of 8 tn)",
		   NULL, { 8, 16, 32, 64, 128 }, 5, { 16, 32, 64, 128 }, 4, 64, 0 },
	[P_TM] = { "tm", "GT_TM", "rows of a thread's tile (outputs kept in registers)",
		   NULL, { 1, 2, 4, 8 }, 4, { 2, 4, 8 }, 3, 8, 0 },
	[P_TN] = { "tn", "GT_TN", "columns of a thread's tile",
		   NULL, { 1, 2, 4, 8 }, 4, { 2, 4, 8 }, 3, 8, 0 },
	[P_VEC] = { "vec", "GT_VEC", "elements per global load of A and B (4: 16-byte loads where rows allow)",
		    NULL, { 1, 4 }, 2, { 1, 4 }, 2, 4, 0 },
	[P_PAD] = { "pad", "GT_PAD", "floats of padding per shared-memory row (bank conflicts)",
		    NULL, { 0, 1, 4, 8 }, 4, { 0, 4 }, 2, 4, 0 },
	/* 2 is not in the default space until measured against 1. */
	[P_DBUF] = { "dbuf", "GT_DBUF", "1: two shared stages, the next round's tiles loaded while this one is computed; 2: as 1, and each step's shared-memory fragments read a step ahead, the next round's first ones before this round's last FMAs (not in the default space)",
		     NULL, { 0, 1, 2 }, 3, { 0, 1 }, 2, 0, 0 },
	[P_GROUP] = { "group", "GT_GROUP", "block order: 1 row by row of C's tiles; G walks G tile rows column by column (L2 reuse)",
		      NULL, { 1, 4, 8, 16 }, 4, { 1, 8 }, 2, 1, 0 },
	/* Quiet: the names stored before split-K existed are its split=1.  3
	 * fits some grids into the SMs' waves where 2 and 4 do not: side by
	 * side on an H200 a 64 x 128 tile of 64 x 64 warps reached 0.93 of
	 * cuBLAS at 777x1333x2049 with it, where the best of 2 and 4 over
	 * eight tiles was 0.88, and a 64 x 128 tile 1.00 at 2504x688x2060
	 * (0.91 with 2).  But a cold run with 3 in the default space (96,068
	 * points) found no kernel with it that won a held-out shape, and its
	 * header did worse there (0.755 worst, 0.944 median of cuBLAS,
	 * against 0.837 and 0.957 without): 3 and 6, like 8, only when asked
	 * (docs/studies/gemm-split-3.md). */
	[P_SPLIT] = { "split", "GT_SPLIT", "blocks per tile of C, each multiplying a slice of K, summed in order over a thread-block cluster's shared memory (compute capability 9.0 on)",
		      NULL, { 1, 2, 3, 4, 6, 8 }, 6, { 1, 2, 4 }, 3, 1, 0, 1 },
	/* Quiet, as split; not in the default space until measured against
	 * the element-by-element loads it replaces. */
	[P_REALIGN] = { "realign", "GT_REALIGN", "with vec=4: rows of A or B that start off 16 bytes (K or N not a multiple of 4) loaded as aligned 16-byte vectors shifted into place through the warp's shuffles, instead of element by element (measured on an H200 at 0.44-0.64 of realign=off's speed: not in the default space)",
			realign_names, { 0, 1 }, 2, { 0 }, 1, 0, 0, 1 },
	/* Quiet, as split; not in the default space until measured against
	 * the register-staged rounds. */
	[P_ASYNC] = { "async", "GT_ASYNC", "0: the tiles pass through registers (dbuf); 2 to 4: that many shared stages filled by cp.async (compute capability 8.0 on), the rounds ahead in flight without registers; A a float at a time (any K), B 16 bytes at a time where N allows, else a float at a time; with dbuf=0, or dbuf=2 (fragments a step ahead, the next round's first before this round's last FMAs)",
		      NULL, { 0, 2, 3, 4 }, 4, { 0 }, 1, 0, 0, 1 },
	/* Quiet, as split (the names stored before it are its off).  Side by
	 * side on an H200 it took a 64 x 128 tile of split=2 from 0.92 to
	 * 0.98 of cuBLAS at 3000^3, from 0.72 to 0.82 at 777x1333x2049 and
	 * 0.75 to 0.88 at 1522x6781x5565, 128 x 128 tiles of 64 x 64 warps
	 * from 0.90 to 0.97 at 4096^3, and the 128 x 256 tiles that win the
	 * squares from 0.96 to 0.84: a parameter, both in the default space
	 * (docs/studies/gemm-flat-rounds.md).  lanes, whose float loads read
	 * consecutive floats a warp, took the same 64 x 128 tile from 0.84 to
	 * 0.90 at 1399x7019x6816 and 128 x 128 tiles of 64 x 64 warps from
	 * 0.86 to 0.98 at 4348x7747x4846, and 64 x 64 tiles of split=4 from
	 * 0.80 to 0.63 at 720x910x1622: all three in the default space.
	 * rows, lanes with a warp to a row, took the same 64 x 128 tile from
	 * 0.86 to 0.92 at 661x1432x7281 and 0.86 to 0.89 at 909x2081x2328,
	 * but from 0.89 to 0.71 at 908x2080x2328, whose rows take the vector
	 * rounds, compiled otherwise beside the new float ones
	 * (docs/studies/gemm-bounds-stages-and-odd-rows.md).  In the default
	 * space beside lanes, a cold run's header went from 0.854 to 0.862 of
	 * cuBLAS at its worst held-out shape and from 5 shapes below 0.90 to
	 * 2, the choice taking lanes where rows are slower.  floats, rows's
	 * float copy alone, whose loads ptxas leaves at the top of the round
	 * where beside the vector copy it issues that copy's late, took the
	 * 96 x 64 tile from 0.85 to 1.00 at 2504x688x2060 and from 0.90 to
	 * 0.92 at 909x2081x2328, and loses 0.01 to 0.05 at large aligned
	 * shapes (docs/studies/gemm-flat-rows-in-the-default-space.md). */
	[P_FLAT] = { "flat", "GT_FLAT", "with vec=4 and dbuf=1: rounds without a branch, every load predicated (one 16-byte vector where every row of A and B allows it, else a float at a time), the next round's loads free to move among the FMAs; lanes: as on, a warp's float loads reading consecutive floats of a row; rows: as lanes, a warp to a row of 32 floats or more, each lane's floats 32 apart; floats: as rows, every round a float at a time whatever the alignment (one copy of the rounds, its loads at the top of each round)",
		     flat_names, { 0, 1, 2, 3, 4 }, 5, { 0, 1, 2, 3, 4 }, 5, 0, 0, 1 },
	[P_INJECT] = { "inject", "GT_INJECT", "test-only: GT_INJECT for a test's copy of the template (tests/faults), which injects a fault: wrong (leaves out A's last column); the shipped template has none",
		       inject_names, { 0, 1 }, 2, { 0 }, 1, 0, 1 },
	/* Quiet, as split, and last, so that a search holding it at off
	 * draws as it did before it (src/tune/run-size.c, search_params).
	 * Side by side on an H200, beside the split and unsplit kernels it
	 * would join, it took the best at the held-out table's shapes to
	 * 0.95 of cuBLAS or more at all ten (2500x2500x7000 from 0.930 to
	 * 1.026 with 128 x 128 tiles, 777x1333x2049 from 0.879 to 0.959 with
	 * 64 x 64 ones), and lost at short K over few tiles (602x798x606:
	 * 0.539 against 1.013) (docs/studies/gemm-stream-k.md): not in the
	 * default space until a cold run with it is measured. */
	[P_STREAM] = { "stream", "GT_STREAM", "on: stream-K, as many blocks as the SMs hold at once sharing every tile's rounds equally (whole tiles first, the last ones cut along K), a cut tile summed in C in the blocks' order (deterministic); with split=1 and async=0 (not in the default space)",
		       stream_names, { 0, 1 }, 2, { 0 }, 1, 0, 0, 1, 1 },
};

/* The most blocks a stream-K launch may have: templates/gemm.cu's flags
 * (GT_GEMM_STREAM_MAX); spelt out too, for the headers' geometry. */
#define STREAM_MAX 8192
#define SPELT_(x) #x
#define SPELT(x) SPELT_(x)

/* Threads of a block: one warp per warp tile. */
static int threads_of(const int *v)
{
	return (v[P_BM] / v[P_WM]) * (v[P_BN] / v[P_WN]) * 32;
}

/* Bytes of dynamic shared memory: BK rows of A (transposed) and of B, padded,
 * once, twice (dbuf) or async times; under split-K at least the block's
 * partial tile. */
static size_t smem_of(const int *v)
{
	int n = v[P_ASYNC] ? v[P_ASYNC] : v[P_DBUF] ? 2 : 1;
	size_t stages = (size_t)v[P_BK] * (size_t)(v[P_BM] + v[P_PAD] + v[P_BN] + v[P_PAD]) * (size_t)n;
	size_t part = v[P_SPLIT] > 1 ? (size_t)v[P_BM] * (size_t)v[P_BN] : 0;
	return (part > stages ? part : stages) * 4;
}

/* Most outputs a thread keeps in registers: more spill. */
#define MAX_ACC 128
/* The registers of a block (64 Ki 32-bit registers on every GPU this
 * runs on), and the most a thread can have. */
#define BLOCK_REGS 65536
#define THREAD_REGS 255

/* Registers a thread needs at least: its outputs (wm wn / 32), one step's
 * fragments of A and B (wm / 4 + wn / 8; two steps' with dbuf=2), and
 * with dbuf the next round's tiles held in flight ((bm + bn) bk /
 * threads).  Addresses and indices
 * come on top, so a point needing more than BLOCK_REGS / threads spills
 * for certain: on an H200, each one measured ran at 1.8-2% of the best
 * at 4096^3 (bm=bn=256 with 64 x 64 warp tiles: 512 threads of 128
 * registers for 160), where everything else measured ran at 59% or more. */
static int regs_needed(const int *v)
{
	int t = threads_of(v);
	return v[P_WM] * v[P_WN] / 32 + (v[P_DBUF] == 2 ? 2 : 1) * (v[P_WM] / 4 + v[P_WN] / 8) +
	       (v[P_DBUF] && !v[P_ASYNC] ? (v[P_BM] + v[P_BN]) * v[P_BK] / t : 0);
}

static const char *reject(const int *v, const struct dtype *dt, const struct device_limits *lim,
			  char *buf, size_t n)
{
	(void)dt;
	if (v[P_BM] % v[P_WM] || v[P_BN] % v[P_WN])
		return "the warp tile does not divide the block tile";
	if (v[P_WM] % (4 * v[P_TM]) || v[P_WN] % (8 * v[P_TN]))
		return "the thread tile does not divide the warp tile (a warp is 4 x 8 threads of tm x tn)";
	int t = threads_of(v);
	if (t > lim->max_threads_per_block) {
		snprintf(buf, n, "threads per block exceed the device limit (%d)", lim->max_threads_per_block);
		return buf;
	}
	if (v[P_BK] % v[P_VEC] || v[P_BN] % v[P_VEC])
		return "vector loads would straddle a tile row (bk and bn must be multiples of vec)";
	int la = v[P_BM] * v[P_BK] / v[P_VEC], lb = v[P_BK] * v[P_BN] / v[P_VEC];
	if (la % t || lb % t)
		return "the threads cannot share the loads of a round's tiles evenly";
	if ((v[P_WM] / 4) * (v[P_WN] / 8) > MAX_ACC) {
		snprintf(buf, n, "more than %d outputs per thread (wm wn / 32): registers would spill", MAX_ACC);
		return buf;
	}
	if (v[P_REALIGN] && v[P_VEC] != 4)
		return "realign shifts 16-byte loads into place (it needs vec=4)";
	if (v[P_ASYNC] && v[P_DBUF] == 1)
		return "async's stages replace dbuf=1's registers (async > 0 needs dbuf=0 or 2)";
	if (v[P_FLAT] && (v[P_VEC] != 4 || v[P_DBUF] != 1 || v[P_REALIGN]))
		return "flat is dbuf=1's rounds of vec=4 without a branch (it needs vec=4, dbuf=1 and realign=off)";
	if (v[P_ASYNC] && lim->cc && lim->cc < 80)
		return "async copies (cp.async) need compute capability 8.0";
	if (v[P_SPLIT] > 1 && lim->cc && lim->cc < 90)
		return "split-K sums over a thread-block cluster, which needs compute capability 9.0";
	if (v[P_STREAM] && (v[P_SPLIT] > 1 || v[P_ASYNC]))
		return "stream-K cuts tiles along K itself, over dbuf's rounds (it needs split=1 and async=0)";
	/* The template's shared memory is all dynamic, and its launchers (the
	 * tuner's, the exported header's) opt in to more than the 48 KiB a
	 * launch gets without: the partial tile of split-K over tiles of 128 x
	 * 128 and more, and deeper or more stages of large tiles. */
	int smem_limit = lim->max_smem_optin > lim->max_smem_per_block ? lim->max_smem_optin : lim->max_smem_per_block;
	if (smem_of(v) > (size_t)smem_limit) {
		snprintf(buf, n, "shared memory exceeds the device limit (%d bytes)", smem_limit);
		return buf;
	}
	int regs = BLOCK_REGS / t < THREAD_REGS ? BLOCK_REGS / t : THREAD_REGS, need = regs_needed(v);
	if (need > regs) {
		snprintf(buf, n, "a thread needs at least %d registers (outputs, fragments and tiles in flight), "
			 "more than the %d a thread of %d gets: registers would spill", need, regs, t);
		return buf;
	}
	return NULL;
}

/*
 * Points over the 48 KiB of shared memory a launch gets without opting in
 * (split-K over tiles of 128 x 128 and more, a bk of 16 or 32 over large
 * tiles) are in the space, and in the default one only where a tile
 * parameter is given: on an H200 they won at 2 of 8 shapes (by 4% at
 * 5488 x 3193 x 6738, 128 x 256 split=2; a tie at another) and lost at the
 * rest, and they would take the default search's budget over 89,040
 * variants instead of 56,148 (54,540 since the points that spill for
 * certain are not valid), which is not measured
 * (docs/studies/gemm-candidates-searched-at-extra-sizes.md).
 */
static const char *default_only(const int *v, const int *asked)
{
	if (smem_of(v) <= SMEM_WITHOUT_OPTIN || asked[P_BM] || asked[P_BN] || asked[P_BK] || asked[P_SPLIT])
		return NULL;
	return "over 48 KiB of shared memory: in the default space only when bm, bn, bk or split is given";
}

static void geometry(const int *v, const struct dtype *dt, const struct dims *d, struct launch_geometry *g)
{
	(void)dt;
	long tiles = ((d->rows + v[P_BM] - 1) / v[P_BM]) * ((d->cols + v[P_BN] - 1) / v[P_BN]);
	g->grid[0] = (unsigned)(tiles * v[P_SPLIT]);
	/* Stream-K: a block a round at most, and no more than the template's
	 * flags (GT_GEMM_STREAM_MAX); launched as many as the device holds. */
	if (v[P_STREAM]) {
		long rounds = tiles * ((d->depth + v[P_BK] - 1) / v[P_BK]);
		g->grid[0] = (unsigned)(rounds < STREAM_MAX ? rounds : STREAM_MAX);
		g->resident = 1;
	}
	g->grid[1] = g->grid[2] = 1;
	g->block[0] = (unsigned)threads_of(v);
	g->block[1] = g->block[2] = 1;
	g->smem = (unsigned)smem_of(v);
}

/* A (M x K) then B (K x N). */
static size_t in_elems(const struct dims *d)
{
	return (size_t)d->rows * (size_t)d->depth + (size_t)d->depth * (size_t)d->cols;
}

static double flops(const struct dtype *dt, const struct dims *d)
{
	(void)dt;
	return 2.0 * (double)d->rows * (double)d->cols * (double)d->depth;
}

/* Set 0: values of both signs, |x| in [2^-12, 1]; set 1: integers in
 * [-4, 4] \ {0} (see the top of this file). */
static void fill(void *in, const struct dtype *dt, const struct dims *d, uint64_t seed, int set)
{
	(void)dt;
	float *x = in;
	size_t n = in_elems(d);
	uint64_t s = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)set + 1;
	for (size_t i = 0; i < n; i++) {
		/* splitmix64: every element from its own state step. */
		uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		float sign = (z & 1) ? -1.0f : 1.0f;
		if (set == 0)
			x[i] = sign * (float)(((z >> 40) | 1) * (1.0 / 16777216.0)); /* (0, 1), 24 bits */
		else
			x[i] = sign * (float)(1 + (z >> 61) % 4);
	}
}

/* What the reference kernel writes per element: the sum in double, and
 * the sum of |a b|. */
struct gemm_expected {
	double sum, mag;
};

/* The bound's factor on input set `set`: gamma(K) = K u / (1 - K u) for
 * set 0, 0 (exact) for set 1's integers.  The GPU checks every variant's
 * output against it (family.h, CHECK_GPU_REFERENCE); judge words why one
 * fails. */
static double bound_gamma(const int *v, const struct dtype *dt, const struct dims *d, int set)
{
	(void)v;
	double u = dt->acc_eps, K = (double)d->depth;
	return set == 1 ? 0 : K * u / (1 - K * u);
}

/* One slice of the output, judged by one thread: how many elements are
 * outside the bound, the first of them, and the worst one's error over
 * its bound. */
struct judge_part {
	const struct gemm_expected *e;
	const float *c;
	size_t begin, end;
	double gamma;
	int exact;
	size_t bad, first;
	double ratio, worst, worst_bound;
};

static void *judge_slice(void *arg)
{
	struct judge_part *p = arg;
	for (size_t i = p->begin; i < p->end; i++) {
		double err = fabs((double)p->c[i] - p->e[i].sum);
		double bound = p->exact ? 0 : p->gamma * p->e[i].mag;
		if (err <= bound)
			continue;
		if (!p->bad++)
			p->first = i;
		double r = bound > 0 && !isnan(err) ? err / bound : INFINITY;
		if (p->bad == 1 || r > p->ratio) {
			p->ratio = r;
			p->worst = err;
			p->worst_bound = bound;
		}
	}
	return NULL;
}

/* Slices judged at once: a large output takes a tenth of a second on one
 * core (the GPU checks every output; the judge reads those it failed). */
#define JUDGE_THREADS 16

static const char *judge(const void *expected, const void *out, const int *v, const struct dtype *dt,
			 const struct dims *d, int set, char *buf, size_t n)
{
	const double gamma = bound_gamma(v, dt, d, set);
	size_t count = family_elems(d);
	int k = count < ((size_t)1 << 20) ? 1 : JUDGE_THREADS;
	struct judge_part parts[JUDGE_THREADS];
	pthread_t tid[JUDGE_THREADS];
	int started[JUDGE_THREADS] = {0};
	for (int t = 0; t < k; t++) {
		/* Set 1 is exact (integers below 2^24); set 0 within the bound. */
		parts[t] = (struct judge_part){ .e = expected, .c = out, .gamma = gamma, .exact = gamma == 0,
						.begin = count / (size_t)k * (size_t)t,
						.end = t == k - 1 ? count : count / (size_t)k * (size_t)(t + 1) };
		started[t] = k > 1 && pthread_create(&tid[t], NULL, judge_slice, &parts[t]) == 0;
		if (!started[t])
			judge_slice(&parts[t]);
	}
	struct judge_part all = { .bad = 0 };
	for (int t = 0; t < k; t++) {
		if (started[t])
			pthread_join(tid[t], NULL);
		const struct judge_part *p = &parts[t];
		if (!p->bad)
			continue;
		if (!all.bad)
			all.first = p->first; /* the slices are in order */
		if (!all.bad || p->ratio > all.ratio) {
			all.ratio = p->ratio;
			all.worst = p->worst;
			all.worst_bound = p->worst_bound;
		}
		all.bad += p->bad;
	}
	if (!all.bad)
		return NULL;
	snprintf(buf, n,
		 "%zu of %zu outputs outside the bound (first at row %zu, column %zu); worst error %.3g where "
		 "%s%.3g is allowed (input set %d: %s)",
		 all.bad, count, all.first / (size_t)d->cols, all.first % (size_t)d->cols, all.worst,
		 set == 1 ? "exactly " : "", all.worst_bound, set, set == 1 ? "integers, exact" : "gamma(K) sum |a b|");
	return buf;
}

/* The named points: the seed's one-output-per-thread tiled kernel, its
 * 2-D register-tiled kernel (128 x 128 x 8, 8 x 8 outputs a thread), and
 * the best fixed point of the template's benchmark on an H200 (the
 * default for an untuned device). */
/* gt_gemm_reference (templates/support.cu): 16 x 16 threads, one per
 * element of C, one block per 16 x 16 tile of C in a one-dimensional
 * grid (either dimension may exceed 65535 tiles). */
static void reference_geometry(const struct dims *d, struct launch_geometry *g)
{
	g->grid[0] = (unsigned)(((d->rows + 15) / 16) * ((d->cols + 15) / 16));
	g->grid[1] = g->grid[2] = 1;
	g->block[0] = g->block[1] = 16;
	g->block[2] = 1;
	g->smem = 0;
}

static const char *const classics[] = {
	"tiled16:bm=16,bn=16,bk=16,wm=4,wn=8,tm=1,tn=1,vec=1,pad=0,dbuf=0,group=1",
	"regtile8x8:bm=128,bn=128,bk=8,wm=32,wn=64,tm=8,tn=8,vec=4,pad=4,dbuf=0,group=1",
	"wide:bm=128,bn=256,bk=8,wm=64,wn=64,tm=8,tn=4,vec=4,pad=4,dbuf=1,group=8",
	NULL
};

/*
 * The search's seeds: the variants that won the most sizes a tuning run
 * measured (its requested sizes and its extra ones) in two cold runs of
 * 1024-8192 on an H200 (docs/studies/gemm-seeds.md), and the squares'
 * winners (the 128 x 256 tile of 32 x 64 warps, bk=16, the fastest of
 * 1,346 points around the squares' tiles at 2048^3, 4096^3 and 8192^3;
 * over 48 KiB of shared memory, so a seed beyond the default space:
 * docs/studies/gemm-a-seed-for-the-squares.md), the tile of 96 rows that
 * was the best measured side by side
 * at shapes whose rows are just past a multiple of 64 or 128, and
 * flat=floats's copies of the first and of that tile, as fast as the
 * fastest side by side where N or K is odd, and the second the fastest
 * at 2504x688x2060 and 908x2080x2328, aligned
 * (docs/studies/gemm-flat-rows-in-the-default-space.md).  The
 * genetic search draws at random from 101,324 points; a run
 * whose draws missed these kernels exported a header that ran at 0.755
 * of cuBLAS at its worst held-out shape where another's, which had them,
 * ran at 0.837 (docs/studies/gemm-split-3.md).  Measured first at every
 * size of a run, they are candidates wherever they are strong.  The last
 * three are for a few tiles over a long K, where a header of 1024-8192
 * had no kernel within 0.74 of cuBLAS at 586x543x4995 or 750x765x7539:
 * searched there (and at four more such shapes held out, on an H200),
 * 64 x 64 tiles split in two or four were the fastest of the default
 * space at four of the six, and a 128 x 64 tile split in eight, beyond
 * it, reached 0.99 at 586x543x4995 (seed_beyond_space: a seed, not a
 * value the search draws from; split 3 in the default space diluted the
 * search) (docs/studies/gemm-seeds-for-few-tiles-over-a-long-k.md).
 */
static const char *const seeds[] = {
	"bm=64,bn=128,bk=16,wm=32,wn=64,tm=8,tn=2,vec=4,pad=4,dbuf=1,group=8,split=2,flat=lanes",
	"bm=128,bn=64,bk=16,wm=32,wn=64,tm=4,tn=2,vec=4,pad=4,dbuf=1,group=1,split=4,flat=lanes",
	"bm=128,bn=64,bk=16,wm=64,wn=32,tm=4,tn=4,vec=4,pad=4,dbuf=1,group=1,split=2,flat=lanes",
	"bm=128,bn=64,bk=16,wm=64,wn=32,tm=8,tn=4,vec=4,pad=4,dbuf=1,group=1,split=2,flat=lanes",
	"bm=128,bn=256,bk=16,wm=32,wn=64,tm=8,tn=2,vec=4,pad=4,dbuf=1,group=1,flat=lanes",
	"bm=128,bn=128,bk=8,wm=64,wn=64,tm=8,tn=2,vec=4,pad=0,dbuf=1,group=1,flat=lanes",
	"bm=96,bn=64,bk=16,wm=48,wn=32,tm=4,tn=4,vec=4,pad=4,dbuf=1,group=8,split=2,flat=lanes",
	"bm=64,bn=128,bk=16,wm=32,wn=64,tm=8,tn=2,vec=4,pad=4,dbuf=1,group=8,split=2,flat=floats",
	"bm=96,bn=64,bk=16,wm=48,wn=32,tm=4,tn=4,vec=4,pad=4,dbuf=1,group=8,split=2,flat=floats",
	"bm=64,bn=64,bk=16,wm=32,wn=32,tm=4,tn=2,vec=4,pad=4,dbuf=1,group=1,split=2,flat=floats",
	"bm=64,bn=64,bk=16,wm=32,wn=32,tm=4,tn=2,vec=4,pad=4,dbuf=1,group=1,split=4,flat=floats",
	"bm=128,bn=64,bk=16,wm=32,wn=64,tm=4,tn=2,vec=4,pad=4,dbuf=1,group=1,split=8,flat=floats",
	NULL
};

const struct family family_gemm = {
	.name = "gemm",
	.summary = "single-precision matrix multiply C = A B on the CUDA cores",
	.command_summary = "tune the single-precision matrix multiply for this GPU at the given sizes",
	.command_help =
		"Sizes are MxNxK: C (M x N) = A (M x K) B (K x N), all row-major; N alone, and\n"
		"ranges, are cubes N x N x N.  CUDA cores only: no tensor cores, no TF32.\n"
		"\nThe space has thousands of valid points, so the default is a genetic search\n"
		"measuring 240 variants per size (and the named points always), but at sizes\n"
		"whose launches take 2 ms or more (4096^3 and up) the 24 fastest of the\n"
		"nearest smaller size and 16 more; --strategy exhaustive times them all,\n"
		"--budget sets another budget (at every size).  After a search\n"
		"of several sizes, the 4 fastest variants of each size are measured at the\n"
		"others, and the 8 fastest of each and the seeds (listed above) at five\n"
		"shapes of each alignment of K (a mid one, a tall one, two of odd N, one of\n"
		"few tiles and a long K; --no-probe skips them), so that exported headers\n"
		"have strong candidates measured at every size to choose from at sizes\n"
		"nobody tuned; the shapes of few tiles, and\n"
		"a small one of each alignment of K, first search 24 variants of their own, and\n"
		"the mid shape of 32-byte K 240 (the requested sizes' budget: what wins where\n"
		"the squares' tiles fill the SMs in about two turns), whose fastest are\n"
		"candidates too (--probe-search N, 0 for none).  split > 1 (split-K) launches a\n"
		"tile's blocks as one thread-block cluster (compute capability 9.0 on); an\n"
		"exported header built without that architecture's code (nvcc's default,\n"
		"sm_75, whose PTX an H100 or H200 compiles at load) multiplies each such tile\n"
		"whole in its first block: right, but build with -arch=sm_90 (or native) for\n"
		"its speed.\n"
		"\nThe check: a reference computed on the GPU in double precision by a plain\n"
		"tiled kernel, with beside each element the sum of |a b| over its products.  Any\n"
		"order of K fused multiply-adds in single precision stays within\n"
		"  |C - ref| <= gamma(K) * sum_k |a_ik b_kj|,  gamma(K) = K u / (1 - K u),\n"
		"with u = 2^-24; a variant outside it at any element is wrong.  The timed input\n"
		"has values of both signs in (-1, 1).  As such a bound can hide one missing\n"
		"product, every variant also multiplies a second input of integers in [-4, 4]\n"
		"without 0, where every partial sum is an integer below 2^24 and so exact in any\n"
		"order: that output must equal the reference exactly.  M, N and K need not be\n"
		"multiples of any tile.  A wrong variant's reason gives the measured error.\n"
		"\nThe figure is GFLOP/s (2 M N K operations a launch); the ceiling is the GPU's\n"
		"rate of single-precision fused multiply-adds, measured by a kernel of\n"
		"independent FMA chains in the same run (cuBLAS is not linked into gputune; the\n"
		"benchmark under bench/ compares with it).  Exported headers give\n"
		"gputune_gemm_launch(i, A, B, C, m, n, k, stream).\n",
	.template_name = "templates/gemm.cu",
	.kernel_name = "gputune_gemm",
	.shape = SHAPE_3D,
	.default_sizes = "1024-8192",
	.dtypes = "f32",
	.metric = METRIC_FLOPS,
	.check = CHECK_GPU_REFERENCE,
	.ceiling = CEILING_FMA,
	.args = ARGS_GEMM,
	.choice_fill = 1,
	.fill_tile = { "bm", "bn" },
	.params = params,
	.nparams = NPARAMS,
	.reject = reject,
	.default_only = default_only,
	.geometry = geometry,
	.geometry_c =
		"\tgrid[0] = (unsigned)(((m + c->bm - 1) / c->bm) * ((n + c->bn - 1) / c->bn) * c->split);\n"
		"\tgrid[1] = grid[2] = 1;\n"
		"\tblock[0] = (unsigned)((c->bm / c->wm) * (c->bn / c->wn) * 32);\n"
		"\tblock[1] = block[2] = 1;\n"
		"\t*smem = (unsigned)(c->bk * (c->bm + c->pad + c->bn + c->pad) * (c->async ? c->async : c->dbuf ? 2 : 1) * 4);\n"
		"\tif (c->split > 1 && (unsigned)(c->bm * c->bn * 4) > *smem)\n"
		"\t\t*smem = (unsigned)(c->bm * c->bn * 4);\n"
		"\tif (c->stream) {\n"
		"\t\tlong rounds = (long)grid[0] * ((k + c->bk - 1) / c->bk);\n"
		"\t\tgrid[0] = (unsigned)(rounds < " SPELT(STREAM_MAX) " ? rounds : " SPELT(STREAM_MAX) "); /* at most: the launch takes the SMs' blocks */\n"
		"\t}\n",
	.header_notes = "C = A B with A m x k, B k x n and C m x n, row-major and densely packed.",
	.in_elems = in_elems,
	.out_bytes = family_elems_bytes, /* C: M x N */
	.work = flops,
	.fill = fill,
	.nsets = 2,
	.gpu_reference = "gt_gemm_reference",
	.gpu_reference_geometry = reference_geometry,
	.expected_elem = sizeof(struct gemm_expected),
	.bound_gamma = bound_gamma,
	.judge = judge,
	.classics = classics,
	.nreport = 2,
	.fallback = 2,
	.seeds = seeds,
	.validate_sizes = "random:12:512-4096",
	.strategy = STRATEGY_GENETIC,
	.budget = 240,
	/* The requested sizes' fastest are kernels of the sizes their tiles
	 * divide; searched extra sizes add kernels that fill the GPU where
	 * those do not.  On an H200, after tuning 1024-8192, the header's
	 * choice at 30 held-out shapes went from 0.400 of cuBLAS at worst and
	 * 0.765 in the median (no search) to 0.666 and 0.805 (24); that cold
	 * run took 440 s, 61 s of it on the extra sizes (without the searches:
	 * 478 s, before hopeless variants were cut short, 19 s of it there)
	 * (docs/studies/gemm-candidates-searched-at-extra-sizes.md). */
	.probe_search = 24,
};
