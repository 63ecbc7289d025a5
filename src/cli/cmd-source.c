/*
 * cmd-source.c - `gputune source FAMILY --param ...`: prints the rendered
 * CUDA source of one variant, exactly as the tuner compiles it.
 */
#include "cli/cmd.h"
#include "families/family.h"
#include "compile/render.h"
#include "families/space.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>

static const struct cmd_option options[] = {
	{ "param", "NAME=VALUE", "one parameter's value (others take their defaults)", 1, 0 },
	{ "dtype", "TYPE", "element type: f32 (default), or another the family supports", 0, 0 },
	{ "templates", "DIR", "read templates from DIR instead of the built-in copies", 0, 0 },
	{ "check", NULL, "also check the point against the default device limits; exit 1 when rejected", 0, 0 },
	OPT_END
};

static int exec_source(struct args *a)
{
	const struct family *f = cmd_family_arg(a->cmd, "kernel family", a->pos[0]);
	if (!f)
		return EXIT_USAGE;
	const char *dtn = args_get(a, "dtype");
	const struct dtype *dt = family_dtype(f, dtn ? dtn : "f32");
	if (!dt)
		return cmd_usage_error(a->cmd, "source: unknown --dtype '%s' for %s (%s)", dtn, f->name, f->dtypes);
	int v[MAX_PARAMS] = {0};
	size_t nparams;
	const char **params = args_all(a, "param", &nparams);
	int bad = space_single_point(f, params, nparams, a->cmd->name, v) < 0;
	free(params);
	if (bad) {
		cmd_print_usage(a->cmd, stderr);
		return EXIT_USAGE;
	}
	struct device_limits lim;
	device_limits_default(&lim);
	char buf[160];
	const char *why = f->reject(v, dt, &lim, buf, sizeof(buf));
	if (why) {
		char *name = family_point_name(f, v);
		int strict = args_has(a, "check");
		if (strict)
			error("source: %s %s is rejected: %s", f->name, name, why);
		else
			warning("%s %s is rejected by the space: %s", f->name, name, why);
		free(name);
		if (strict)
			return EXIT_FAIL;
	}
	char *tmpl = family_template_load(f, templates_dir_from(args_get(a, "templates")));
	if (!tmpl)
		return EXIT_FAIL;
	char *src = render_variant(f, dt, v, tmpl);
	fputs(src, stdout);
	free(src);
	free(tmpl);
	return EXIT_OK;
}

const struct cmd_entry cmd_source_entry = {
	.name = "source",
	.summary = "print the rendered CUDA source of one variant",
	.usage = "FAMILY",
	.description = "Renders FAMILY's template for one point of its space: each parameter from\n"
		       "--param NAME=VALUE, or its default.  The output is what NVRTC compiles.",
	.options = options,
	.min_pos = 1,
	.max_pos = 1,
	.exec = exec_source,
};
