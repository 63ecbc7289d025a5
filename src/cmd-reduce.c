/*
 * cmd-reduce.c - `gputune reduce`: tunes the parallel sum (src/family-reduce.c)
 * with the tuner every family shares.
 */
#include "cmd.h"
#include "family.h"
#include "tune.h"

static void help_reduce(FILE *f)
{
	family_print_params(&family_reduce, f);
	fputs("\nThe check: an i32 sum is exact (modulo 2^32).  A floating-point sum depends on\n"
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
	      "before its first launch (no launch after needs it zeroed again).\n", f);
}

static int exec_reduce(struct args *a)
{
	return tune_main(&family_reduce, a);
}

const struct cmd_entry cmd_reduce_entry = {
	.name = "reduce",
	.summary = "tune the parallel sum for this GPU at the given vector lengths",
	.usage = "",
	.description = tune_description,
	.options = tune_options,
	.flags = CMD_NEEDS_GPU | CMD_USES_DB,
	.exec = exec_reduce,
	.extra_help = help_reduce,
};
