/*
 * cmd-tune-user.c - `gputune tune KERNEL.cu`: a family the user brings, a
 * template and a JSON spec beside it (src/families/user-family.h), run
 * through the same engine as the built-in families.  Today it lists the
 * space and compiles every variant (--list, --dry-run); measuring a user
 * family on a GPU needs its buffers, launch and check declared in the
 * spec, which are not read yet.
 */
#include "cli/cmd-tune.h"
#include "families/user-family.h"
#include "util/util.h"

#include <stdio.h>

static int exec_tune_user(struct args *a)
{
	char err[700];
	const struct family *f = user_family_load(a->pos[0], err, sizeof(err));
	if (!f)
		return cmd_usage_error(a->cmd, "tune: %s", err);
	struct tune_opts o;
	int rc = tune_opts_parse(f, a, &o);
	if (rc == 0 && !o.list && !o.dry_run) {
		error("tune: %s: a user family is enumerated and compiled (--list, --dry-run) but not yet measured on "
		      "a GPU: its spec cannot declare buffers, a launch or a check yet (docs/user-kernels.md)", f->name);
		rc = EXIT_USAGE;
	} else if (rc == 0) {
		rc = tune_run(f, &o, NULL);
	}
	tune_opts_free(&o); /* zeroed where parsing failed */
	user_family_free();
	return rc;
}

static void help_tune_user(const struct cmd_entry *cmd, FILE *f)
{
	(void)cmd;
	fputs("\nKERNEL.cu is a CUDA template with an extern \"C\" entry point that reads its\n"
	      "parameters as macros (GT_NAME for a parameter `name`; GT_ELEM_TYPE and\n"
	      "GT_ELEM_BYTES for the element type); KERNEL.json beside it (or the spec\n"
	      "given instead) names the family, its kernel, size shape, default sizes,\n"
	      "element types, parameters with their values, and constraints: SQL\n"
	      "expressions over the parameters and elem_bytes, max_threads, max_smem and\n"
	      "cc, each with the reason a point it rejects is left out.  A spec error\n"
	      "names the file and the field (exit 2).  docs/user-kernels.md has the\n"
	      "format and examples/user/ an example.\n", f);
}

const struct cmd_entry cmd_tune_entry = {
	.name = "tune",
	.summary = "enumerate and compile a kernel you bring: a template and its spec",
	.usage = "KERNEL.cu|SPEC.json",
	.description = cmd_tune_description,
	.options = cmd_tune_options,
	.min_pos = 1,
	.max_pos = 1,
	.flags = 0,
	.exec = exec_tune_user,
	.extra_help = help_tune_user,
};
