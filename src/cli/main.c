/*
 * main.c - gputune's entry point: global options, then one command from
 * the registry in cmd.c.  Ctrl-C only sets a flag here; long-running
 * commands poll it between units of work so what they measured is kept.
 */
#include "config.h"
#include "cli/cmd.h"
#include "util/interrupt.h"
#include "tune/restart.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	restart_init(argc, argv);
	if (argc < 2) {
		cmd_print_overview(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		cmd_print_overview(stdout);
		return EXIT_OK;
	}
	/* One line, as the convention is; `gputune version` gives the rest. */
	if (!strcmp(name, "--version") && argc == 2) {
		cmd_print_version(stdout);
		return EXIT_OK;
	}
	if (!strcmp(name, "--version"))
		name = "version";
	const struct cmd_entry *cmd = cmd_find(name);
	if (!cmd) {
		if (name[0] == '-')
			return cmd_usage_error(NULL, "unknown option '%s'", name);
		return cmd_usage_error(NULL, "unknown command '%s'", name);
	}
	struct args a;
	int r = cmd_parse(cmd, argc - 1, argv + 1, &a);
	if (r != 0) {
		args_free(&a);
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	interrupt_install();
	r = cmd->exec(&a);
	args_free(&a);
	if (fflush(stdout) != 0 || ferror(stdout))
		return error("could not write the output: %s", strerror(errno));
	return r;
}
