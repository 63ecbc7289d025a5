/*
 * family.c - the one registry of kernel families, element types, and the
 * helpers that name and parse points of a family's parameter space.
 */
#define _POSIX_C_SOURCE 200809L
#include "families/family.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FAMILIES(X): the families, in the order commands list them, as the
 * build makes it from the family table (FAMILY_TABLE in Makefile.am). */
#include "families/family-table.h"

#define DECLARE(name) extern const struct family family_##name;
#define ENTRY(name) &family_##name,
FAMILIES(DECLARE)
const struct family *const family_table[] = { FAMILIES(ENTRY) NULL };

/* Unit roundoffs: 2^-24 and 2^-53. */
const struct dtype dtype_table[] = {
	{ "f32", 4, "float", "float", "float", 4, 5.9604644775390625e-08 },
	{ "f64", 8, "double", "double", "double", 8, 1.1102230246251565e-16 },
	{ "f16", 2, "unsigned short", "unsigned short", "float", 4, 5.9604644775390625e-08 },
	{ "i32", 4, "int", "int", "unsigned", 4, 0 },
	{ NULL, 0, NULL, NULL, NULL, 0, 0 }
};

const struct dtype *dtype_find(const char *name)
{
	for (const struct dtype *d = dtype_table; d->name; d++)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

const struct family *family_find(const char *name)
{
	for (size_t i = 0; family_table[i]; i++)
		if (!strcmp(family_table[i]->name, name))
			return family_table[i];
	return NULL;
}

const struct dtype *family_dtype(const struct family *f, const char *name)
{
	const struct dtype *dt = name ? dtype_find(name) : NULL;
	if (!dt)
		return NULL;
	/* f->dtypes is a comma-separated list of names. */
	size_t n = strlen(dt->name);
	for (const char *p = f->dtypes; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
		if (strcspn(p, ",") == n && !strncmp(p, dt->name, n))
			return dt;
	return NULL;
}

size_t family_elems(const struct dims *d)
{
	return (size_t)d->rows * (size_t)d->cols;
}

size_t family_elems_bytes(const struct dtype *dt, const struct dims *d)
{
	return family_elems(d) * dt->size;
}

double family_copy_bytes(const struct dtype *dt, const struct dims *d)
{
	return 2.0 * (double)family_elems(d) * (double)dt->size;
}

const char *family_reject_access(int vec, const struct dtype *dt, char *buf, size_t n)
{
	if ((size_t)vec * dt->size <= 16)
		return NULL;
	snprintf(buf, n, "vec x element size exceeds the 16-byte access limit (%zu bytes)", (size_t)vec * dt->size);
	return buf;
}

const char *family_reject_threads(int threads, const struct device_limits *lim, char *buf, size_t n)
{
	if (threads <= lim->max_threads_per_block)
		return NULL;
	snprintf(buf, n, "threads per block exceed the device limit (%d > %d)", threads, lim->max_threads_per_block);
	return buf;
}

int family_late_from(const struct family *f)
{
	int k = f->nparams;
	while (k > 0 && f->params[k - 1].late)
		k--;
	return k;
}

const char *family_ceiling_name(const struct family *f)
{
	static const char *const names[] = { "copy", "read", "fma" };
	return names[f->ceiling];
}

const char *family_metric_unit(const struct family *f)
{
	return f->metric == METRIC_FLOPS ? "GFLOP/s" : "GB/s";
}

const char *family_size_text(const struct family *f, const struct dims *d, char *buf, size_t n)
{
	if (f && f->shape == SHAPE_1D && d->cols == 1)
		snprintf(buf, n, "%ld", d->rows);
	else if ((f && f->shape == SHAPE_3D) || d->depth != 1)
		snprintf(buf, n, "%ldx%ldx%ld", d->rows, d->cols, d->depth);
	else
		snprintf(buf, n, "%ldx%ld", d->rows, d->cols);
	return buf;
}

int family_size_names(const struct family *f, const char *names[3])
{
	switch (f->shape) {
	case SHAPE_1D:
		names[0] = "n";
		return 1;
	case SHAPE_3D:
		names[0] = "m", names[1] = "n", names[2] = "k";
		return 3;
	default:
		names[0] = "rows", names[1] = "cols";
		return 2;
	}
}

const char *family_shape_name(const struct family *f)
{
	return f->shape == SHAPE_1D ? "1d" : f->shape == SHAPE_3D ? "3d" : "2d";
}

const char *family_store_name(const struct family *f)
{
	return f->store_name ? f->store_name : f->name;
}

int family_param_index(const struct family *f, const char *name)
{
	for (int i = 0; i < f->nparams; i++)
		if (!strcmp(f->params[i].name, name))
			return i;
	return -1;
}

const char *param_value_text(const struct param_def *p, int value, char *buf, size_t n)
{
	if (p->names)
		return p->names[value];
	snprintf(buf, n, "%d", value);
	return buf;
}

int param_value_parse(const struct param_def *p, const char *text, int *out)
{
	if (p->names) {
		for (int i = 0; p->names[i]; i++)
			if (!strcmp(p->names[i], text)) {
				*out = i;
				return 0;
			}
		return -1;
	}
	long v;
	if (parse_long(text, -1000000, 1000000, &v) < 0)
		return -1;
	for (int i = 0; i < p->nallowed; i++)
		if (p->allowed[i] == v) {
			*out = (int)v;
			return 0;
		}
	return -1;
}

char *family_point_name(const struct family *f, const int *v)
{
	struct strbuf sb = {0};
	char buf[32];
	for (int i = 0; i < f->nparams; i++) {
		const struct param_def *p = &f->params[i];
		if ((p->hidden || p->quiet) && v[i] == p->single)
			continue;
		sb_printf(&sb, "%s%s=%s", sb.len ? "," : "", p->name,
			  param_value_text(p, v[i], buf, sizeof(buf)));
	}
	return sb_detach(&sb);
}

int family_point_check(const struct family *f, const char *name, int *v, char *why, size_t n)
{
	for (int i = 0; i < f->nparams; i++)
		v[i] = f->params[i].single;
	char *s = xstrdup(name), *save = NULL;
	int rc = 0;
	for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		int k = -1;
		if (eq) {
			*eq = '\0';
			k = family_param_index(f, tok);
		}
		if (k < 0 || param_value_parse(&f->params[k], eq + 1, &v[k]) < 0) {
			snprintf(why, n, "bad parameter setting '%s%s%s' in '%s'", tok, eq ? "=" : "",
				 eq ? eq + 1 : "", name);
			rc = -1;
			break;
		}
	}
	free(s);
	return rc;
}

int family_point_parse(const struct family *f, const char *name, int *v)
{
	char why[300];
	if (family_point_check(f, name, v, why, sizeof(why)) < 0)
		return fail("%s: %s", f->name, why);
	return 0;
}

int family_classic_point(const struct family *f, int i, int *v)
{
	for (int k = 0; k <= i; k++)
		if (!f->classics || !f->classics[k])
			return -1;
	const char *spec = strchr(f->classics[i], ':');
	return spec ? family_point_parse(f, spec + 1, v) : -1;
}

void family_fallback_point(const struct family *f, int *v)
{
	if (family_classic_point(f, f->fallback, v) < 0)
		for (int i = 0; i < f->nparams; i++)
			v[i] = f->params[i].single;
}

static void print_values(const struct param_def *p, const int *v, int n, FILE *out)
{
	char buf[32];
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? "," : "", param_value_text(p, v[i], buf, sizeof(buf)));
}

void family_print_params(const struct family *f, FILE *out)
{
	fprintf(out, "\n%s: sizes are %s (default --sizes %s); element types %s.\n", f->name,
		f->shape == SHAPE_1D	 ? "vector lengths N (N, 2^K, A-B, A-B:STEP, random:COUNT:A-B[:SEED])"
		: f->shape == SHAPE_3D ? "products M x N x K (MxNxK; N, 2^K, A-B, A-B:STEP, random:COUNT:A-B[:SEED] as cubes)"
				       : "matrices (N, RxC, 2^K, A-B, A-B:STEP, random:COUNT:A-B[:SEED])",
		f->default_sizes, f->dtypes);
	static const char *const ceilings[] = { "a copy of the input (cuMemcpy and a copy kernel)",
						"a streaming read of the input", "the GPU's rate of fused multiply-adds" };
	fprintf(out, "Its ceiling, measured beside it at every size: %s.\n", ceilings[f->ceiling]);
	fprintf(out, "\nParameters of %s (--param NAME=V,...; default search values in brackets):\n", f->name);
	for (int i = 0; i < f->nparams; i++) {
		const struct param_def *p = &f->params[i];
		if (p->hidden) /* test-only: not a user's choice */
			continue;
		fprintf(out, "  %-11s ", p->name);
		print_values(p, p->allowed, p->nallowed, out);
		fputs(" [", out);
		print_values(p, p->defaults, p->ndefaults, out);
		fprintf(out, "]\n  %-11s %s\n", "", p->help);
	}
	if (f->seeds && f->seeds[0]) {
		fputs("\nA run measures these first at each of its sizes, where its space holds them\n"
		      "(a value beyond the default space counts where --param leaves its parameter):\n",
		      out);
		for (int i = 0; f->seeds[i]; i++)
			fprintf(out, "  %s\n", f->seeds[i]);
	}
}
