/*
 * cmd-help.c - `gputune help [COMMAND]`: the overview or one command's
 * help, both generated from the command table.
 */
#include "cli/cmd.h"
#include "util/util.h"

#include <stdio.h>

static const struct cmd_option options[] = { OPT_END };

static int exec_help(struct args *a)
{
	if (a->npos == 0) {
		cmd_print_overview(stdout);
		return EXIT_OK;
	}
	const struct cmd_entry *c = cmd_find(a->pos[0]);
	if (!c)
		return cmd_usage_error(a->cmd, "help: unknown command '%s'", a->pos[0]);
	cmd_print_help(c, stdout);
	return EXIT_OK;
}

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.summary = "show the list of commands, or one command's options",
	.usage = "[COMMAND]",
	.description = "With no argument, lists every command; with one, prints that command's\n"
		       "usage and options.",
	.options = options,
	.min_pos = 0,
	.max_pos = 1,
	.exec = exec_help,
};
