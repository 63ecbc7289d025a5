/*
 * cmd-copy.c - `gputune copy`: tunes the copy family (src/family-copy.c)
 * with the tuner every family shares.
 */
#include "cmd.h"
#include "family.h"
#include "tune.h"

static void help_copy(FILE *f)
{
	family_print_params(&family_copy, f);
}

static int exec_copy(struct args *a)
{
	return tune_main(&family_copy, a);
}

const struct cmd_entry cmd_copy_entry = {
	.name = "copy",
	.summary = "tune the copy kernel (the bandwidth ceiling) at the given sizes",
	.usage = "",
	.description = tune_description,
	.options = tune_options,
	.flags = CMD_NEEDS_GPU | CMD_USES_DB,
	.exec = exec_copy,
	.extra_help = help_copy,
};
