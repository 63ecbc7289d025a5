/*
 * cmd-gemm.c - `gputune gemm`: tunes the single-precision matrix multiply
 * (src/family-gemm.c) with the tuner every family shares.
 */
#include "cmd.h"
#include "family.h"
#include "tune.h"

static void help_gemm(FILE *f)
{
	family_print_params(&family_gemm, f);
	fputs("\nSizes are MxNxK: C (M x N) = A (M x K) B (K x N), all row-major; N alone, and\n"
	      "ranges, are cubes N x N x N.  CUDA cores only: no tensor cores, no TF32.\n"
	      "\nThe space has thousands of valid points, so the default is a genetic search\n"
	      "measuring 240 variants per size (and the named points always); --strategy\n"
	      "exhaustive times them all, --budget sets another budget.  After a search\n"
	      "of several sizes, the 4 fastest variants of each size are measured at the\n"
	      "others, so that exported headers have strong candidates measured at every\n"
	      "size to choose from at sizes nobody tuned.\n"
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
	      "gputune_gemm_launch(i, A, B, C, m, n, k, stream).\n", f);
}

static int exec_gemm(struct args *a)
{
	return tune_main(&family_gemm, a);
}

const struct cmd_entry cmd_gemm_entry = {
	.name = "gemm",
	.summary = "tune the single-precision matrix multiply for this GPU at the given sizes",
	.usage = "",
	.description = tune_description,
	.options = tune_options,
	.flags = CMD_NEEDS_GPU | CMD_USES_DB,
	.exec = exec_gemm,
	.extra_help = help_gemm,
};
