/*
 * cmd-version.c - `gputune version` (also `gputune --version`): gputune's
 * version (and the commit it is built from) and those of the libraries it runs on.
 */
#include "config.h"
#include "cli/build-commit.h"
#include "cli/cmd.h"
#include "gpu/cuda-driver.h"
#include "compile/nvrtc-compile.h"
#include "util/util.h"

#include <sqlite3.h>
#include <stdio.h>

static const struct cmd_option options[] = { OPT_END };

void cmd_print_version(FILE *f)
{
	fprintf(f, "gputune %s%s%s%s\n", PACKAGE_VERSION, *GPUTUNE_COMMIT ? " (commit " : "", GPUTUNE_COMMIT,
		*GPUTUNE_COMMIT ? ")" : "");
}

static int exec_version(struct args *a)
{
	(void)a;
	cmd_print_version(stdout);
	printf("NVRTC %s\n", nvrtc_version_string());
	printf("SQLite %s\n", sqlite3_libversion());
	const char *why = NULL;
	if (cuda_load(&why) == 0 && cuda_driver_version())
		printf("CUDA driver %s\n", cuda_driver_version());
	else
		printf("CUDA driver: none (%s)\n", why ? why : "not loaded");
	return EXIT_OK;
}

const struct cmd_entry cmd_version_entry = {
	.name = "version",
	.summary = "print the versions of gputune, NVRTC, SQLite and the CUDA driver",
	.usage = "",
	.description = "The CUDA driver line says 'none' with the reason on a machine without one.",
	.options = options,
	.exec = exec_version,
};
