/*
 * family-scan.c - the inclusive prefix sum of N elements in one pass, as
 * a point in a space of tile shapes, block scans, ways of learning the
 * sum of the tiles before, and shared-memory layouts (templates/scan.cu
 * says what each parameter does).  The classic ladder is a list of named
 * points: the chained scan, where each tile waits for the one before it,
 * then the decoupled look-back, warp shuffles, a padded shared-memory
 * layout and vector accesses.
 *
 * The check is the reduction's, for every element and on the GPU
 * (CHECK_BOUND): an integer prefix sum is exact (modulo 2^32); a
 * floating-point one is compared with a compensated prefix sum the host
 * computed in long double, and may differ from
 * it by at most gamma(h) * (|x_0| + ... + |x_i|), h the longest chain of
 * additions any element goes through in this variant at this N (see
 * chain_length).  A second input of small positive integers, whose every
 * prefix sum is exact in any order, must come out exactly: a missing or
 * doubled element, or a tile's sum added twice, always shows there.
 */
#include "families/family.h"
#include "families/sum-input.h"
#include "util/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { P_THREADS, P_VEC, P_PER, P_BLOCK, P_LOOKBACK, P_PAD, P_LAYOUT, P_ORDER, NPARAMS };
_Static_assert(NPARAMS <= MAX_PARAMS, "more parameters than MAX_PARAMS");

static const char *const block_names[] = { "hillis", "shuffle", NULL };
static const char *const lookback_names[] = { "chained", "decoupled", NULL };
static const char *const layout_names[] = { "shared", "direct", NULL };
static const char *const order_names[] = { "ticket", "block", NULL };

static const struct param_def params[NPARAMS] = {
	[P_THREADS] = { "threads", "GT_THREADS", "threads per block",
			NULL, { 32, 64, 128, 256, 512, 1024 }, 6, { 64, 128, 256 }, 3, 128, 0 },
	[P_VEC] = { "vec", "GT_VEC", "elements per load and store (one aligned access)",
		    NULL, { 1, 2, 4 }, 3, { 1, 2, 4 }, 3, 2, 0 },
	[P_PER] = { "per", "GT_PER", "loads per thread: a tile is threads x vec x per elements",
		    NULL, { 1, 2, 4, 8, 16 }, 5, { 2, 4, 8, 16 }, 4, 16, 0 },
	[P_BLOCK] = { "block", "GT_BLOCK", "how a block scans its threads' totals: in shared memory, or warp shuffles",
		      block_names, { 0, 1 }, 2, { 1 }, 1, 1, 0 },
	[P_LOOKBACK] = { "lookback", "GT_LOOKBACK",
			 "how a tile learns the sum before it: wait for the tile before, or look back at 32 at a time",
			 lookback_names, { 0, 1 }, 2, { 1 }, 1, 1, 0 },
	[P_PAD] = { "pad", "GT_PAD", "one word of shared-memory padding every 32 elements (0 or 1)",
		    NULL, { 0, 1 }, 2, { 0, 1 }, 2, 1, 0 },
	[P_LAYOUT] = { "layout", "GT_LAYOUT",
		       "the tile through shared memory (coalesced accesses), or each thread's run loaded and stored directly",
		       layout_names, { 0, 1 }, 2, { 0 }, 1, 0, 0 },
	[P_ORDER] = { "order", "GT_ORDER",
		      "which tile a block scans: the next by an atomic ticket, or its own index (relies on blocks starting in order)",
		      order_names, { 0, 1 }, 2, { 0, 1 }, 2, 0, 0 },
};

static long tile_elems(const int *v)
{
	return (long)v[P_THREADS] * v[P_VEC] * v[P_PER];
}

/* The template's static shared memory: the tile (padded), the block
 * scan's buffers, and the few values it shares. */
static size_t smem_bytes(const int *v, const struct dtype *dt)
{
	size_t tile = v[P_LAYOUT] == 0 ? (size_t)tile_elems(v) : 1;
	size_t words = tile + (v[P_PAD] ? tile / 32 : 0) + (v[P_BLOCK] == 0 ? 2 * (size_t)v[P_THREADS] : 64);
	return (words + 1) * dt->acc_size + 16;
}

static const char *reject(const int *v, const struct dtype *dt, const struct device_limits *lim,
			  char *buf, size_t n)
{
	const char *why = family_reject_access(v[P_VEC], dt, buf, n);
	if (why || (why = family_reject_threads(v[P_THREADS], lim, buf, n)))
		return why;
	if (v[P_VEC] * v[P_PER] > 64) {
		snprintf(buf, n, "more than 64 elements per thread (%d) held in registers", v[P_VEC] * v[P_PER]);
		return buf;
	}
	if (v[P_LAYOUT] == 1 && v[P_PAD])
		return "pad=1 pads the shared-memory tile, which layout=direct has not";
	/* The template's shared memory is static, so 48 KiB at most. */
	if (smem_bytes(v, dt) > SMEM_WITHOUT_OPTIN) {
		snprintf(buf, n, "the tile takes more than 48 KiB of shared memory (%zu bytes)", smem_bytes(v, dt));
		return buf;
	}
	return NULL;
}

static unsigned long long tiles(const int *v, long n)
{
	unsigned long long t = (unsigned long long)tile_elems(v);
	unsigned long long k = ((unsigned long long)n + t - 1) / t;
	return k ? k : 1;
}

static void geometry(const int *v, const struct dtype *dt, const struct dims *d, struct launch_geometry *g)
{
	(void)dt;
	g->grid[0] = (unsigned)tiles(v, d->rows);
	g->grid[1] = g->grid[2] = 1;
	g->block[0] = (unsigned)v[P_THREADS];
	g->block[1] = g->block[2] = 1;
	g->smem = 0;
}

/* The ticket and launch count, then a state of at most 24 bytes per tile
 * (templates/scan.cu); the header's scratch_c says the same. */
static size_t scratch_bytes(const int *v, const struct dtype *dt, const struct dims *d)
{
	(void)dt;
	return 256 + 24 * (size_t)tiles(v, d->rows);
}

/* What the check compares with, per element: the prefix sum (the
 * compensated sum in long double rounded to double; for i32 the sum
 * modulo 2^32) and, after all of them, the prefix sums of magnitudes as
 * floats rounded up (family.h, CHECK_BOUND). */
#define EXPECTED_ELEM (sizeof(double) + sizeof(float))

struct scan_job {
	const void *in;
	const struct dtype *dt;
	size_t n;
	double *ref;
	float *abs;
	struct sum_part parts[SUM_MAX_PARTS]; /* a range's totals, then what comes before it */
};

/* float(x) rounded up, so a bound made from it is never too tight. */
static float float_up(long double x)
{
	float f = (float)x;
	return (long double)f < x ? nextafterf(f, INFINITY) : f;
}

static void range_prefixes(void *ctx, int part, size_t begin, size_t end)
{
	struct scan_job *j = ctx;
	struct sum_part p = j->parts[part];
	int is_int = j->dt->acc_eps == 0;
	for (size_t i = begin; i < end; i++) {
		long double x = sum_get(j->in, j->dt, i);
		if (is_int) {
			p.wrapped += (uint32_t)((const int32_t *)j->in)[i];
			j->ref[i] = p.wrapped;
			continue;
		}
		sum_add_compensated(&p.sum, &p.comp, x);
		p.abs += fabsl(x);
		j->ref[i] = (double)(p.sum + p.comp);
		j->abs[i] = float_up(p.abs);
	}
}

/* Two passes over ranges in parallel: each range's totals, then each
 * range's prefixes from the totals of the ranges before it. */
static void reference(const void *in, void *expected, const struct dtype *dt, const struct dims *d)
{
	struct scan_job *j = xcalloc(1, sizeof(*j));
	j->in = in;
	j->dt = dt;
	j->n = family_elems(d);
	j->ref = expected;
	j->abs = (float *)((double *)expected + j->n);
	int k = sum_range_totals(in, dt, j->n, j->parts);
	struct sum_part before = {0};
	for (int i = 0; i < k; i++) {
		struct sum_part p = j->parts[i];
		j->parts[i] = before;
		sum_add_compensated(&before.sum, &before.comp, p.sum);
		sum_add_compensated(&before.sum, &before.comp, p.comp);
		before.abs += p.abs;
		before.wrapped += p.wrapped;
	}
	sum_parts(j->n, range_prefixes, j);
	free(j);
}

/* The longest chain of additions an element goes through: into its
 * tile's total (a thread's run, then the block scan's log2(threads)
 * steps and one more across warps), along the tiles after it (one
 * addition per tile when chained; with the look-back at most a window's
 * five-step tree and two additions per tile), then into an output (the
 * block scan again, the thread's run, and two additions of prefixes). */
static double chain_length(const int *v, long n)
{
	double run = (double)v[P_VEC] * v[P_PER], block = sum_log2_ceil((unsigned)v[P_THREADS]) + 1;
	double per_tile = v[P_LOOKBACK] == 0 ? 1 : 7;
	return 2 * (run + block) + per_tile * (double)tiles(v, n) + 2;
}

/* Set 1's prefix sums are exact in any order (sum-input.h); i32's are
 * exact modulo 2^32 on both sets. */
static double bound_gamma(const int *v, const struct dtype *dt, const struct dims *d, int set)
{
	if (set == 1 || dt->acc_eps == 0)
		return 0;
	double h = chain_length(v, d->rows), u = dt->acc_eps;
	return h * u / (1 - h * u);
}

static const char *const classics[] = {
	"chained:threads=256,vec=1,per=8,block=hillis,lookback=chained,pad=0",
	"decoupled:threads=256,vec=1,per=8,block=hillis,lookback=decoupled,pad=0",
	"shuffle:threads=256,vec=1,per=8,block=shuffle,lookback=decoupled,pad=0",
	"padded:threads=256,vec=1,per=8,block=shuffle,lookback=decoupled,pad=1",
	"vectorised:threads=256,vec=4,per=2,block=shuffle,lookback=decoupled,pad=1",
	"long-runs:threads=128,vec=2,per=16,block=shuffle,lookback=decoupled,pad=1",
	NULL
};

const struct family family_scan = {
	.name = "scan",
	.summary = "inclusive prefix sum of N elements",
	.command_summary = "tune the inclusive prefix sum for this GPU at the given vector lengths",
	.command_help =
		"The check, on the GPU, of every element: i32 prefix sums are exact (modulo 2^32).\n"
		"A floating-point prefix sum depends on the order of its additions, so each\n"
		"output R_i is compared with a compensated prefix sum S_i the host computed in\n"
		"long double from the same input, and is wrong when\n"
		"  |R_i - S_i| > gamma(h) * (|x_0| + ... + |x_i|),  gamma(h) = h u / (1 - h u),\n"
		"with u the accumulator's unit roundoff (2^-24 for f32, 2^-53 for f64) and h the\n"
		"longest chain of additions an element goes through in that variant at that N:\n"
		"twice its run per thread and the block scan's steps, and per tile after it one\n"
		"addition (chained) or seven (look-back).  As such a bound can hide a missing\n"
		"element, every variant also scans a second input of small positive integers\n"
		"whose total stays below 2^23 (f32) or 2^52 (f64): every prefix sum must be\n"
		"exactly right.\n"
		"\nThe figure is GB/s of input read and output written; the ceiling is a copy of\n"
		"the input timed in the same run.  Exported headers give\n"
		"gputune_scan_scratch_bytes(): the scratch memory a variant needs, zeroed once\n"
		"before its first launch (no launch after needs it zeroed again); launches that\n"
		"share it must not overlap.\n",
	.template_name = "templates/scan.cu",
	.kernel_name = "gputune_scan",
	.shape = SHAPE_1D,
	.default_sizes = "2^16-2^28",
	.dtypes = "f32,f64,i32",
	.metric = METRIC_BYTES,
	.check = CHECK_BOUND,
	.ceiling = CEILING_COPY,
	.args = ARGS_VECTOR,
	.arithmetic = 1,
	.params = params,
	.nparams = NPARAMS,
	.reject = reject,
	.geometry = geometry,
	.geometry_c =
		"\tunsigned long long tile = (unsigned long long)c->threads * (unsigned)c->vec * (unsigned)c->per;\n"
		"\tunsigned long long tiles = (n + tile - 1) / tile;\n"
		"\tgrid[0] = (unsigned)(tiles ? tiles : 1);\n"
		"\tgrid[1] = grid[2] = 1;\n"
		"\tblock[0] = (unsigned)c->threads;\n"
		"\tblock[1] = block[2] = 1;\n",
	.header_notes = "gputune_scan_scratch_bytes(i, n) is the scratch memory variant i needs:\n"
			"zero it once before the first launch; no launch after needs it zeroed\n"
			"again (each marks what it writes there with its own launch count).\n"
			"Launches that share a scratch buffer must not overlap.  The output is n\n"
			"accumulators: float for f32, double for f64, and for i32 32-bit integers\n"
			"(the sums modulo 2^32).",
	.in_elems = family_elems,
	.out_bytes = family_elems_bytes,
	.scratch_bytes = scratch_bytes,
	.scratch_c = "256 + 24 * (size_t)grid[0]",
	.work = family_copy_bytes,
	.fill = sum_fill,
	.nsets = 2,
	.reference = reference,
	.expected_elem = EXPECTED_ELEM,
	.bound_gamma = bound_gamma,
	.classics = classics,
	.nreport = 2,
	.fallback = 5,
	.validate_sizes = "random:20:65536-268435456",
};
