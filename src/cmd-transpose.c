/*
 * cmd-transpose.c - `gputune transpose`: tunes the transpose family (src/family-transpose.c)
 * with the tuner every family shares.
 */
#include "cmd.h"
#include "family.h"
#include "tune.h"

static void help_transpose(FILE *f)
{
	family_print_params(&family_transpose, f);
}

static int exec_transpose(struct args *a)
{
	return tune_main(&family_transpose, a);
}

const struct cmd_entry cmd_transpose_entry = {
	.name = "transpose",
	.summary = "tune the transpose kernels for this GPU at the given sizes",
	.usage = "",
	.description = tune_description,
	.options = tune_options,
	.flags = CMD_NEEDS_GPU | CMD_USES_DB,
	.exec = exec_transpose,
	.extra_help = help_transpose,
};
