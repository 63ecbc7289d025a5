/*
 * render.c - see render.h.
 */
#include "compile/render.h"
#include "util/embedded.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *templates_dir_from(const char *option)
{
	if (option && *option)
		return option;
	const char *env = getenv("GPUTUNE_TEMPLATES");
	return env && *env ? env : NULL;
}

char *template_load(const char *name, const char *templates_dir)
{
	if (templates_dir) {
		const char *base = strrchr(name, '/');
		base = base ? base + 1 : name;
		char *path = xasprintf("%s/%s", templates_dir, base);
		char *text = read_file(path, NULL);
		if (!text)
			error("cannot read template %s: %s", path, strerror(errno));
		free(path);
		return text;
	}
	const struct embedded_file *e = embedded_find(name);
	if (!e) {
		error("no built-in template %s", name);
		return NULL;
	}
	return xstrdup(e->text);
}

char *family_template_load(const struct family *f, const char *templates_dir)
{
	if (f->template_path) { /* a user family's own file, which needs none of common.cuh */
		char *text = read_file(f->template_path, NULL);
		if (!text)
			error("cannot read template %s: %s", f->template_path, strerror(errno));
		return text;
	}
	char *common = template_load("templates/common.cuh", templates_dir);
	char *own = common ? template_load(f->template_name, templates_dir) : NULL;
	char *text = own ? xasprintf("%s\n%s", common, own) : NULL;
	free(common);
	free(own);
	return text;
}

char *render_defines(const struct family *f, const struct dtype *dt, const int *v)
{
	struct strbuf sb = {0};
	sb_printf(&sb, "#define GT_ELEM_BYTES %zu\n", dt->size);
	if (f->arithmetic)
		sb_printf(&sb, "#define GT_ELEM_TYPE %s\n#define GT_ACC_TYPE %s\n", dt->cuda_type, dt->acc_type);
	for (int i = 0; i < f->nparams; i++)
		if (!f->params[i].hidden || v[i] != f->params[i].single)
			sb_printf(&sb, "#define %s %d\n", f->params[i].macro, v[i]);
	return sb_detach(&sb);
}

char *render_variant(const struct family *f, const struct dtype *dt, const int *v,
		     const char *template_text)
{
	struct strbuf sb = {0};
	char *name = family_point_name(f, v);
	sb_printf(&sb, "/* gputune %s %s %s */\n", f->name, dt->name, name);
	free(name);
	char *defines = render_defines(f, dt, v);
	sb_puts(&sb, defines);
	free(defines);
	sb_puts(&sb, "#line 1\n");
	sb_puts(&sb, template_text);
	return sb_detach(&sb);
}

char *template_next_region(const char **at)
{
	const char *m = strstr(*at, "/* {");
	if (!m)
		return NULL;
	m += 4;
	*at = m;
	return xasprintf("%.*s", (int)strcspn(m, " \n"), m);
}

int template_region_taken(const struct family *f, const char *spec, const int *v)
{
	size_t len = strcspn(spec, ":");
	char *name = xasprintf("%.*s", (int)len, spec);
	int p = family_param_index(f, name);
	free(name);
	if (p < 0)
		return -1;
	if (spec[len] == '\0') /* `{PARAM`: any value but the first */
		return v[p] != 0;
	int taken = 0;
	for (const char *q = spec + len; *q == ':' || *q == ',';) {
		q++;
		size_t n = strcspn(q, ",");
		char *value = xasprintf("%.*s", (int)n, q);
		int want, bad = param_value_parse(&f->params[p], value, &want) < 0;
		free(value);
		if (bad)
			return -1;
		taken |= v[p] == want;
		q += n;
	}
	return taken;
}

unsigned template_paths(const struct family *f, const char *tmpl, const int *v)
{
	char *spec[32], *s;
	int nspec = 0;
	unsigned paths = 0;
	for (const char *at = tmpl; nspec < 32 && (s = template_next_region(&at)) != NULL;) {
		int k = 0;
		while (k < nspec && strcmp(spec[k], s))
			k++;
		if (k < nspec) { /* a spec seen before keeps its bit */
			free(s);
			continue;
		}
		spec[nspec++] = s;
		if (template_region_taken(f, s, v) > 0)
			paths |= 1u << k;
	}
	for (int k = 0; k < nspec; k++)
		free(spec[k]);
	return paths;
}
