/*
 * cmd-tune-user.c - `gputune tune KERNEL.cu`: a family the user brings, a
 * template and a JSON spec beside it (src/families/user-family.h), run
 * through the same engine as the built-in families: listed (--list),
 * compiled (--dry-run), and, where the spec declares its buffers, launch,
 * metric and check, measured on the GPU and stored under its name and the
 * hash of its two files.
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
	if (rc == 0 && !o.list && !o.dry_run && *user_family_missing()) {
		error("tune: %s: the spec declares no %s, which a run on the GPU needs (--list and --dry-run need "
		      "none of them; docs/user-kernels.md)", f->name, user_family_missing());
		rc = EXIT_USAGE;
	}
	/* Every requested size's buffers and metric, before anything runs. */
	for (size_t k = 0; rc == 0 && !o.list && !o.dry_run && k < o.nsizes; k++) {
		char why[300], size[48];
		if (f->size_problem(o.dt, &o.sizes[k], why, sizeof(why))) {
			error("tune: %s: size %s: %s", f->name, family_size_text(f, &o.sizes[k], size, sizeof(size)), why);
			rc = EXIT_USAGE;
		}
	}
	if (rc == 0)
		rc = tune_run(f, &o, NULL);
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
	      "cc, each with the reason a point it rejects is left out; and, to run on\n"
	      "the GPU, its buffers (inputs, one output, scratch, with lengths as\n"
	      "expressions of the size), launch geometry, metric (bytes or flops), its\n"
	      "classic points and the check (a classic every variant's output must\n"
	      "match, bit for bit or within a bound).  A spec error names the file and\n"
	      "the field (exit 2).  docs/user-kernels.md has the format, examples/user/\n"
	      "examples.\n", f);
}

const struct cmd_entry cmd_tune_entry = {
	.name = "tune",
	.summary = "tune a kernel you bring: a template and its spec",
	.usage = "KERNEL.cu|SPEC.json",
	.description = cmd_tune_description,
	.options = cmd_tune_options,
	.min_pos = 1,
	.max_pos = 1,
	.flags = 0,
	.exec = exec_tune_user,
	.extra_help = help_tune_user,
};
