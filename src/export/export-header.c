/*
 * export-header.c - the tuned header: configuration tables and a lookup in
 * plain C, the NVRTC sources of the kernels as strings, and under nvcc the
 * kernels themselves with a launch helper.  See the comment the header
 * opens with (written below) for how a consumer uses it.
 */
#include "config.h"
#include "export/choice.h"
#include "compile/compile-pool.h"
#include "compile/cubin-regs.h"
#include "db/db.h"
#include "util/embedded.h"
#include "export/export.h"
#include "export/header.h"
#include "compile/nvrtc-compile.h"
#include "compile/render.h"
#include "families/user-family.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Appends s as the body of a C string literal (no quotes). */
void c_string_escape(struct strbuf *sb, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': sb_puts(sb, "\\\""); break;
		case '\\': sb_puts(sb, "\\\\"); break;
		case '?': sb_puts(sb, "\\?"); break;
		case '\n': sb_puts(sb, "\\n"); break;
		case '\t': sb_puts(sb, "\\t"); break;
		default:
			if (*p < 0x20 || *p >= 0x7f)
				sb_printf(sb, "\\%03o", *p);
			else
				sb_add(sb, (const char *)p, 1);
		}
	}
}

void c_string_write(FILE *f, const char *s)
{
	struct strbuf sb = {0};
	c_string_escape(&sb, s);
	fprintf(f, "\"%s\"", sb.buf ? sb.buf : "");
	sb_free(&sb);
}

void c_comment_write(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		fputc(isalnum(*p) || strchr(" .,:;()+=_-", *p) ? *p : '_', f);
}


/* Every variant a group refers to, once per element type: only the ones
 * the rule can answer with (the winners and the candidates), not every
 * variant ever measured.  0, or -1 after a message. */
static int collect_variants(struct header *h)
{
	const struct choice_set *cs = h->cs;
	int cap = 8;
	for (size_t k = 0; k < cs->ngroups; k++)
		cap += cs->g[k].nnames;
	h->vs = xcalloc((size_t)cap, sizeof(*h->vs));
	h->gmap = xcalloc(cs->ngroups + 1, sizeof(int *));
	for (size_t k = 0; k < cs->ngroups; k++) {
		const struct choice_group *g = &cs->g[k];
		const struct dtype *dt = dtype_find(g->key->dtype);
		if (!dt)
			return fail("export: unknown element type '%s' in the results", g->key->dtype);
		h->gmap[k] = xcalloc((size_t)g->nnames + 1, sizeof(int));
		for (int i = 0; i < g->nnames; i++)
			h->gmap[k][i] = -1;
		for (int i = 0; i < g->n + g->ncand; i++) {
			int name = i < g->n ? g->winner[i] : g->cand[i - g->n];
			int *m = &h->gmap[k][name];
			if (*m < 0 && (*m = header_variant(h->fam, h->vs, &h->nv, dt, g->names[name])) < 0)
				return -1;
			if (!h->vs[*m].cc)
				h->vs[*m].cc = g->key->cc_major * 10 + g->key->cc_minor;
			/* The count the tuner stored on this architecture: no compile. */
			if (!h->vs[*m].regs && h->vs[*m].cc == g->key->cc_major * 10 + g->key->cc_minor)
				h->vs[*m].regs = g->regs[name];
		}
	}
	return 0;
}

/* A default kernel for every element type: f32 always, and the others
 * tuned here. */
static void add_defaults(struct header *h)
{
	const struct family *fam = h->fam;
	for (const struct dtype *d = dtype_table; d->name && h->ntypes < 8; d++)
		if (family_dtype(fam, d->name) && !strcmp(d->name, "f32"))
			h->types[h->ntypes++] = d;
	for (const struct dtype *d = dtype_table; d->name && h->ntypes < 8; d++)
		if (family_dtype(fam, d->name) && strcmp(d->name, "f32"))
			h->types[h->ntypes++] = d;
	for (int t = 0; t < h->ntypes; t++) {
		int used = t == 0;
		for (int i = 0; i < h->nv && !used; i++)
			used = h->vs[i].dt == h->types[t];
		h->default_of[t] = -1;
		if (!used)
			continue;
		int v[MAX_PARAMS] = {0};
		family_fallback_point(fam, v);
		int k = find_variant(h->vs, h->nv, h->types[t], v);
		if (k < 0) {
			k = h->nv++;
			h->vs[k].dt = h->types[t];
			memcpy(h->vs[k].v, v, sizeof(v));
		}
		h->vs[k].is_default = 1;
		h->default_of[t] = k;
	}
}

/* Each variant's name, tensor maps, registers, code paths and blocks per
 * SM; the template without the paths none of them takes.  0 or -1. */
static int describe_variants(struct header *h, const char *cache_dir)
{
	/* Whether a variant takes tensor maps: only then does the header
	 * carry their code. */
	for (int i = 0; i < h->nv; i++) {
		struct hvariant *v = &h->vs[i];
		v->params = family_point_name(h->fam, v->v);
		v->maps = h->fam->tensor_maps && h->fam->tensor_maps(v->v, &v->stripe, &v->width);
		h->any_maps |= v->maps;
	}
	/* The counts from the template the tuner rendered (its compile
	 * cache); the header's copy without the paths none of its variants
	 * take. */
	int user = h->fam->args == ARGS_USER; /* its kernels are the template's, as the tuner built them */
	if (!user)
		variant_registers(h->fam, h->vs, h->nv, h->tmpl, cache_dir);
	for (int i = 0; i < h->nv; i++)
		h->vs[i].paths = template_paths(h->fam, h->tmpl, h->vs[i].v);
	if (!(h->tmpl = without_untaken_regions(h->fam, h->vs, h->nv, h->tmpl)))
		return -1;
	if (!user)
		variant_occupancy(h->fam, h->vs, h->nv);
	return 0;
}

/* The shape's spellings of sizes and arguments. */
static void shape_words(struct header *h)
{
	h->vec = h->fam->shape == SHAPE_1D;
	h->three = h->fam->shape == SHAPE_3D;
	int vec = h->vec, three = h->three;
	h->size_params = vec ? "long n" : three ? "long m, long n, long k" : "long rows, long cols";
	h->size_locals = vec	 ? "\tlong rows = n, cols = 1, depth = 1;\n"
			 : three ? "\tlong rows = m, cols = n, depth = k;\n"
				 : "\tlong depth = 1;\n";
	h->geo_params = vec ? "unsigned long long n" : three ? "int m, int n, int k" : "unsigned rows, unsigned cols";
	h->size_args = vec ? "n" : three ? "m, n, k" : "rows, cols";
	/* The launch helper's buffers and arguments are the kernel's, which
	 * the family's descriptor names (not its size shape). */
	int args = h->fam->args;
	h->launch_bufs = args == ARGS_GEMM ? "const float *A, const float *B, float *C" : "const void *in, void *out";
	h->launch_args = args == ARGS_VECTOR ? "in, out, scratch, n"
			 : args == ARGS_GEMM ? "A, B, C, m, n, k"
					     : "in, out, rows, cols";
	if (args == ARGS_USER) { /* the spec's buffers, by their names */
		struct strbuf bufs = {0}, all = {0};
		for (int b = 0; b < h->fam->nbuffers; b++) {
			const struct family_buffer *fb = &h->fam->buffers[b];
			sb_printf(&bufs, "%s%svoid *%s", b ? ", " : "", fb->role == BUF_INPUT ? "const " : "", fb->name);
			sb_printf(&all, "%s, ", fb->name);
		}
		sb_puts(&all, h->size_args);
		h->launch_bufs = h->user_bufs = sb_detach(&bufs);
		h->launch_args = h->user_args = sb_detach(&all);
	}
}

/* The opening comment: what the header holds and how to call it. */
static void write_preamble(const struct header *h, const char *mode)
{
	FILE *f = h->f;
	const char *P = h->P;
	const struct family *fam = h->fam;
	const struct choice_set *cs = h->cs;
	const char *newest = choice_newest_run(cs);
	fprintf(f, "/*\n * gputune_%s.h - tuned %s kernels (%s).\n *\n", P, P, fam->summary);
	fprintf(f, " * Generated by gputune %s from %s%s; timing mode: %s.  Do not edit:\n", PACKAGE_VERSION,
		newest ? "runs up to " : "no tuning run", newest ? newest : "", mode);
	fprintf(f, " * regenerate with `gputune export --kernel %s --format header`.\n *\n * Tuned devices:\n", P);
	for (size_t k = 0; k < cs->ngroups; k++) {
		const struct result *r = cs->g[k].key;
		fputs(" *   ", f);
		c_comment_write(f, r->device);
		fprintf(f, ", sm_%d%d, %s: %d measured sizes, %d candidates, ", r->cc_major, r->cc_minor, r->dtype,
			cs->g[k].n, cs->g[k].ncand);
		c_comment_write(f, r->uuid);
		fputs("\n", f);
	}
	if (cs->ngroups == 0)
		fputs(" *   none (only the default configuration is available)\n", f);
	char cal_note[64] = "";
	if (!fam->scratch_bytes && fam->args != ARGS_USER)
		snprintf(cal_note, sizeof(cal_note), "  Untuned sizes: gputune_%s_calibrate().", P);
	fprintf(f,
		" *\n"
		" * From C: gputune_%s_choose(device_name, cc, dtype, %s) returns the\n"
		" * index of the variant to use at any size (the rule is below, with the\n"
		" * tables it reads); gputune_%s_defines[i] followed by gputune_%s_source\n"
		" * is its CUDA program for NVRTC (entry point gputune_%s_kernel_name), and\n"
		" * gputune_%s_geometry() its launch grid and block%s.  From CUDA (nvcc):\n"
		" * gputune_%s_launch(i, %s, stream) runs it.  Pointers\n"
		" * aligned to 16 bytes take the vectorised paths.%s\n",
		P, h->size_args, P, P, P, P, h->three || fam->args == ARGS_USER ? " (and dynamic shared memory)" : "", P,
		h->launch_args, cal_note);
	if (h->split_cu) {
		fputs(" * The kernels and launch helpers are compiled once, in ", f);
		c_comment_write(f, h->split_cu);
		fputs(" (export\n * --split): build it with nvcc into the program; this header only declares\n"
		      " * the launch helpers, so including it costs no kernel compile.\n", f);
	}
	/* What the family says of its buffers, a comment line each. */
	for (const char *l = fam->header_notes; l && *l;) {
		size_t len = strcspn(l, "\n");
		fprintf(f, " * %.*s\n", (int)len, l);
		l += len + (l[len] == '\n');
	}
	fprintf(f,
		" *\n"
		" * Choice: the group of entries of the same element type on the device of that\n"
		" * name (any case; NULL takes GPUTUNE_DEVICE when defined), else on a device of\n"
		" * the same compute capability (cc = 10 * major + minor); within it,\n"
		" * gputune_choice_rule() below.  With no group: the default variant of the\n"
		" * element type; -1 for an element type this header has no kernel for.\n"
		" */\n");
}

/* The types the tables are made of. */
static void write_types(const struct header *h)
{
	FILE *f = h->f;
	const char *P = h->P;
	const struct family *fam = h->fam;
	/* The parameters in the family's order, a few to a line. */
	fprintf(f, "typedef struct gputune_%s_config {\n\tint", P);
	int col = 4;
	const char *sep = " ";
	for (int i = 0; i < fam->nparams; i++)
		if (!fam->params[i].hidden) {
			size_t w = strlen(sep) + strlen(fam->params[i].name);
			if (col + w > 100) {
				fputs(",\n\t   ", f);
				sep = " ";
				col = 7;
			}
			fprintf(f, "%s%s", sep, fam->params[i].name);
			col += (int)w;
			sep = ", ";
		}
	fprintf(f, ";\n} gputune_%s_config;\n\n", P);
	fprintf(f, "typedef struct gputune_%s_variant {\n\tconst char *dtype, *params;\n"
		   "\tgputune_%s_config config;\n} gputune_%s_variant;\n\n", P, P, P);
	fprintf(f, "/* A measured size. */\ntypedef struct gputune_%s_entry {\n"
		   "\tconst char *device; /* as the driver names it */\n"
		   "\tint cc;\n\tconst char *dtype;\n"
		   "\tlong rows, cols, depth; /* a vector's length is rows, cols = depth = 1; m x n x k is rows x cols x depth */\n"
		   "\tdouble %s;     /* measured, %s */\n"
		   "\tdouble fraction; /* of the ceiling measured in the same run */\n"
		   "\tint variant;\n} gputune_%s_entry;\n\n", P, fam->metric == METRIC_FLOPS ? "gflops" : "gbps",
		family_metric_unit(fam), P);
	fprintf(f, "/* The measured sizes of one device and element type (entries first to\n"
		   " * first + n - 1, with rows[], cols[] and winner[] in the same order) and the\n"
		   " * candidates: share[i * ncand + j] is candidate j's bandwidth at size i over\n"
		   " * that size's best, -1 where it was not measured (the size is no evidence). */\n"
		   "typedef struct gputune_%s_group {\n\tconst char *device;\n\tint cc;\n\tconst char *dtype;\n"
		   "\tlong esize;\n\tint first, n;\n\tconst long *rows, *cols, *depths; /* depths: NULL unless 3-D */\n"
		   "\tconst int *winner;\n"
		   "\tint ncand;\n\tconst int *cand;\n\tconst float *share;\n%s} gputune_%s_group;\n\n", P,
		fam->choice_fill ? "\tlong sms; /* the GPU's SMs, for the fill of a variant's grid */\n"
				   "\tconst int *per_sm; /* blocks an SM holds of each variant, for the fill */\n" : "", P);
}

/* The variants, their code paths, the measured entries and the groups
 * the rule reads. */
static void write_tables(const struct header *h)
{
	FILE *f = h->f;
	const char *P = h->P, *U = h->U;
	const struct family *fam = h->fam;
	const struct choice_set *cs = h->cs;
	const struct hvariant *vs = h->vs;
	int nv = h->nv, three = h->three;
	int **gmap = h->gmap;
	fprintf(f, "#define GPUTUNE_%s_NUM_VARIANTS %d\n", U, nv);
	fprintf(f, "static const gputune_%s_variant gputune_%s_variants[%d] = {\n", P, P, nv);
	for (int i = 0; i < nv; i++) {
		fprintf(f, "\t/* %d */ { \"%s\", ", i, vs[i].dt->name);
		c_string_write(f, vs[i].params);
		fputs(", {", f);
		int first = 1;
		for (int k = 0; k < fam->nparams; k++)
			if (!fam->params[k].hidden) {
				fprintf(f, "%s%d", first ? " " : ", ", vs[i].v[k]);
				first = 0;
			}
		fprintf(f, " } },%s\n", vs[i].is_default ? " /* default */" : "");
	}
	fputs("};\n\n", f);
	fprintf(f, "/* Each variant's code paths: one bit per optional region of the template. */\n"
		   "static const unsigned gputune_%s_paths[%d] = {", P, nv);
	for (int i = 0; i < nv; i++)
		fprintf(f, "%s%u", i ? ", " : " ", vs[i].paths);
	fputs(" };\n\n", f);
	size_t nentries = 0;
	for (size_t k = 0; k < cs->ngroups; k++)
		nentries += (size_t)cs->g[k].n;
	fprintf(f, "#define GPUTUNE_%s_NUM_ENTRIES %zu\n", U, nentries);
	fprintf(f, "static const gputune_%s_entry gputune_%s_entries[%zu] = {\n", P, P, nentries ? nentries : 1);
	for (size_t k = 0; k < cs->ngroups; k++)
		for (int i = 0; i < cs->g[k].n; i++) {
			const struct result *r = cs->g[k].entry[i];
			fputs("\t{ ", f);
			c_string_write(f, r->device);
			fprintf(f, ", %d, \"%s\", %ld, %ld, %ld, %.1f, %.4f, %d },\n", r->cc_major * 10 + r->cc_minor,
				r->dtype, r->rows, r->cols, r->depth, r->gbps, r->fraction, gmap[k][cs->g[k].winner[i]]);
		}
	if (nentries == 0)
		fputs("\t{ \"\", 0, \"\", 0, 0, 0, 0.0, 0.0, 0 }\n", f);
	fputs("};\n\n", f);
	int first_entry = 0;
	for (size_t k = 0; k < cs->ngroups; k++) {
		const struct choice_group *g = &cs->g[k];
		fprintf(f, "static const long gputune_%s_g%zu_rows[] = {", P, k);
		for (int i = 0; i < g->n; i++)
			fprintf(f, "%s%ld", i ? ", " : " ", g->rows[i]);
		fprintf(f, " };\nstatic const long gputune_%s_g%zu_cols[] = {", P, k);
		for (int i = 0; i < g->n; i++)
			fprintf(f, "%s%ld", i ? ", " : " ", g->cols[i]);
		if (three) {
			fprintf(f, " };\nstatic const long gputune_%s_g%zu_depths[] = {", P, k);
			for (int i = 0; i < g->n; i++)
				fprintf(f, "%s%ld", i ? ", " : " ", g->depth[i]);
		}
		fprintf(f, " };\nstatic const int gputune_%s_g%zu_winner[] = {", P, k);
		for (int i = 0; i < g->n; i++)
			fprintf(f, "%s%d", i ? ", " : " ", gmap[k][g->winner[i]]);
		fprintf(f, " };\nstatic const int gputune_%s_g%zu_cand[] = {", P, k);
		for (int j = 0; j < g->ncand; j++)
			fprintf(f, "%s%d", j ? ", " : " ", gmap[k][g->cand[j]]);
		fprintf(f, "%s };\nstatic const float gputune_%s_g%zu_share[] = {\n", g->ncand ? "" : " -1", P, k);
		for (int i = 0; i < g->n; i++) {
			char sz[48];
			fprintf(f, "\t/* %s */",
				family_size_text(fam, &(struct dims){ g->rows[i], g->cols[i], g->depth[i] }, sz, sizeof(sz)));
			for (int j = 0; j < g->ncand; j++)
				fprintf(f, " %.3ff,", g->share[i * g->ncand + j]);
			fputs("\n", f);
		}
		fputs(g->ncand && g->n ? "};\n" : "\t0\n};\n", f);
		if (g->fam) {
			/* Blocks an SM holds of each variant here, for the fill;
			 * 0 (one) for those the group does not refer to. */
			int *per_sm = xcalloc((size_t)nv + 1, sizeof(int));
			for (int i = 0; i < g->nnames; i++)
				if (gmap[k][i] >= 0)
					per_sm[gmap[k][i]] = g->per_sm[i];
			fprintf(f, "static const int gputune_%s_g%zu_per_sm[%d] = {", P, k, nv);
			for (int v = 0; v < nv; v++)
				fprintf(f, "%s%d", v ? ", " : " ", per_sm[v]);
			fputs(" };\n", f);
			free(per_sm);
		}
	}
	fprintf(f, "#define GPUTUNE_%s_NUM_GROUPS %zu\n", U, cs->ngroups);
	fprintf(f, "static const gputune_%s_group gputune_%s_groups[%zu] = {\n", P, P, cs->ngroups ? cs->ngroups : 1);
	for (size_t k = 0; k < cs->ngroups; k++) {
		const struct result *r = cs->g[k].key;
		fputs("\t{ ", f);
		c_string_write(f, r->device);
		char depths[96] = "NULL";
		if (three)
			snprintf(depths, sizeof(depths), "gputune_%s_g%zu_depths", P, k);
		fprintf(f, ", %d, \"%s\", %zu, %d, %d, gputune_%s_g%zu_rows, gputune_%s_g%zu_cols, %s, gputune_%s_g%zu_winner, "
			   "%d, gputune_%s_g%zu_cand, gputune_%s_g%zu_share",
			r->cc_major * 10 + r->cc_minor, r->dtype, dtype_find(r->dtype)->size, first_entry, cs->g[k].n,
			P, k, P, k, depths, P, k, cs->g[k].ncand, P, k, P, k);
		if (fam->choice_fill) {
			if (cs->g[k].fam)
				fprintf(f, ", %d, gputune_%s_g%zu_per_sm", r->sm_count, P, k);
			else
				fputs(", 0, NULL", f);
		}
		fputs(" },\n", f);
		first_entry += cs->g[k].n;
	}
	if (cs->ngroups == 0)
		fprintf(f, "\t{ \"\", 0, \"\", 0, 0, 0, NULL, NULL, NULL, NULL, 0, NULL, NULL%s }\n",
			fam->choice_fill ? ", 0, NULL" : "");
	fputs("};\n\n", f);
}

/* NVRTC's programs (each variant's defines, and the template's text),
 * the rule, and the tensor maps' builder where a variant takes them. */
static void write_programs(const struct header *h, const char *rule, const char *maps_text)
{
	FILE *f = h->f;
	const char *P = h->P;
	const struct family *fam = h->fam;
	const struct hvariant *vs = h->vs;
	int nv = h->nv;
	fprintf(f, "/* NVRTC: the program of variant i is gputune_%s_defines[i] followed by\n"
		   " * gputune_%s_source (the kernel template below, without its comments);\n"
		   " * its entry point is gputune_%s_kernel_name. */\n", P, P, P);
	fprintf(f, "static const char gputune_%s_kernel_name[] = \"%s\";\n", P, fam->kernel_name);
	fprintf(f, "static const char *const gputune_%s_defines[%d] = {\n", P, nv);
	for (int i = 0; i < nv; i++) {
		char *defs = render_defines(fam, vs[i].dt, vs[i].v);
		fputs("\t", f);
		c_string_write(f, defs);
		fputs(",\n", f);
		free(defs);
	}
	fprintf(f, "};\nstatic const char gputune_%s_source[] =\n", P);
	char *program = without_ifdef(h->tmpl, "GT_HEADER_KERNEL");
	write_source_literal(f, program);
	free(program);
	fputs("\t;\n\n", f);
	fputs("/* The rule (the same code gputune's query and validate run). */\n", f);
	fputs(rule, f);
	fputs("\n", f);
	if (h->any_maps) {
		/* The family's note as a comment, then the builder. */
		for (const char *l = h->fam->maps_note; l && *l;) {
			size_t len = strcspn(l, "\n");
			int last = l[len] == '\0';
			fprintf(f, "%s%.*s%s\n", l == h->fam->maps_note ? "/* " : " * ", (int)len, l, last ? " */" : "");
			l += len + !last;
		}
		fputs(maps_text, f);
		fputs("\n", f);
	}
}

/* The C helpers: the group and entry for a device, the default variant,
 * the rule's candidates and choice, the geometry and the scratch size. */
static void write_helpers(const struct header *h)
{
	FILE *f = h->f;
	const char *P = h->P, *U = h->U;
	const struct family *fam = h->fam;
	const char *size_params = h->size_params, *size_locals = h->size_locals, *size_args = h->size_args;
	const char *geo_params = h->geo_params;
	int smem = h->three || fam->args == ARGS_USER;
	fprintf(f, "static inline int gputune_%s_same_name(const char *a, const char *b)\n{\n"
		   "\tfor (; *a && *b; a++, b++) {\n"
		   "\t\tint x = *a >= 'A' && *a <= 'Z' ? *a - 'A' + 'a' : *a;\n"
		   "\t\tint y = *b >= 'A' && *b <= 'Z' ? *b - 'A' + 'a' : *b;\n"
		   "\t\tif (x != y)\n\t\t\treturn 0;\n\t}\n\treturn *a == *b;\n}\n\n", P);
	fprintf(f,
		"/* The group for this device and element type, or NULL. */\n"
		"static inline const gputune_%s_group *gputune_%s_group_for(const char *device, int cc,\n"
		"\tconst char *dtype)\n{\n"
		"#ifdef GPUTUNE_DEVICE\n\tif (!device)\n\t\tdevice = GPUTUNE_DEVICE;\n#endif\n"
		"\tfor (int pass = 0; pass < 2; pass++)\n"
		"\t\tfor (int i = 0; i < GPUTUNE_%s_NUM_GROUPS; i++) {\n"
		"\t\t\tconst gputune_%s_group *g = &gputune_%s_groups[i];\n"
		"\t\t\tif (strcmp(g->dtype, dtype))\n\t\t\t\tcontinue;\n"
		"\t\t\tif (pass == 0 ? device && gputune_%s_same_name(g->device, device) : g->cc == cc)\n"
		"\t\t\t\treturn g;\n\t\t}\n\treturn NULL;\n}\n\n",
		P, P, U, P, P, P);
	fprintf(f, "/* The measured entry of exactly this size, or NULL. */\n"
		   "static inline const gputune_%s_entry *gputune_%s_lookup(const char *device, int cc,\n"
		   "\tconst char *dtype, %s)\n{\n%s"
		   "\tconst gputune_%s_group *g = gputune_%s_group_for(device, cc, dtype);\n"
		   "\tfor (int i = 0; g && i < g->n; i++)\n"
		   "\t\tif (g->rows[i] == rows && g->cols[i] == cols && (!g->depths || g->depths[i] == depth))\n"
		   "\t\t\treturn &gputune_%s_entries[g->first + i];\n"
		   "\treturn NULL;\n}\n\n", P, P, size_params, size_locals, P, P, P);
	fprintf(f, "/* The variant for an untuned device: the classic kernel; -1 for an\n"
		   " * element type without one. */\nstatic inline int gputune_%s_default_variant(const char *dtype)\n{\n", P);
	for (int t = 0; t < h->ntypes; t++)
		if (h->default_of[t] >= 0)
			fprintf(f, "\tif (!strcmp(dtype, \"%s\"))\n\t\treturn %d;\n", h->types[t]->name, h->default_of[t]);
	fputs("\treturn -1;\n}\n\n", f);
	/* A 3-D family's fill (family.h, choice_fill) reads its geometry,
	 * written below and declared here. */
	char fill[64] = "NULL, NULL";
	const struct embedded_file *fill_text = fam->choice_fill ? embedded_find("src/export/choice-fill.h") : NULL;
	if (fill_text) {
		fprintf(f, "%s\nstatic inline void gputune_%s_geometry(int variant, %s,\n"
			   "\tunsigned grid[3], unsigned block[3], unsigned *smem);\n\n", fill_text->text, P, geo_params);
		/* Times its tiles' cover (gputune_choice_cover) where the
		 * family names the parameters of a block's tile. */
		char cover[256] = "";
		if (fam->fill_tile[0] && fam->fill_tile[1])
			snprintf(cover, sizeof(cover),
				 " *\n\t       gputune_choice_cover(rows, cols, gputune_%s_variants[v].config.%s,"
				 " gputune_%s_variants[v].config.%s)",
				 P, fam->fill_tile[0], P, fam->fill_tile[1]);
		fprintf(f, "/* The fill of variant v's grid at a size (gputune_choice_fill)%s, ctx its group. */\n"
			   "static inline double gputune_%s_fill(const void *ctx, int v, long rows, long cols, long depth)\n{\n"
			   "\tconst gputune_%s_group *g = (const gputune_%s_group *)ctx;\n"
			   "\tunsigned grid[3], block[3], smem;\n"
			   "\tgputune_%s_geometry(v, (int)rows, (int)cols, (int)depth, grid, block, &smem);\n"
			   "\treturn gputune_choice_fill((long)grid[0] * grid[1] * grid[2], g->sms, g->per_sm ? g->per_sm[v] : 0,\n"
			   "\t\t(long)block[0] * block[1] * block[2])%s;\n}\n\n",
			*cover ? ", times its tiles' cover" : "", P, P, P, P, cover);
		snprintf(fill, sizeof(fill), "gputune_%s_fill, g", P);
	}
	fprintf(f, "/* The rule's count best at this size (count <= GPUTUNE_CHOICE_MAX_RANK), best first, into\n"
		   " * out; how many: choose()'s first, one at a measured size or unseen device. */\n"
		   "static inline int gputune_%s_candidates(const char *device, int cc, const char *dtype,\n"
		   "\t%s, int *out, int count)\n{\n%s"
		   "\tconst gputune_%s_group *g = gputune_%s_group_for(device, cc, dtype);\n"
		   "\tint how;\n"
		   "\tif (count < 1)\n\t\treturn 0;\n"
		   "\tif (!g || g->n == 0) {\n\t\tout[0] = gputune_%s_default_variant(dtype);\n"
		   "\t\treturn out[0] >= 0;\n\t}\n"
		   "\treturn gputune_choice_rank(g->n, g->rows, g->cols, g->depths, g->winner, g->ncand, g->cand,\n"
		   "\t\tg->share, gputune_%s_paths, %s, g->esize, rows, cols, depth, count, out, &how);\n}\n\n",
		P, size_params, size_locals, P, P, P, P, fill);
	fprintf(f, "static inline int gputune_%s_choose(const char *device, int cc, const char *dtype,\n"
		   "\t%s)\n{\n\tint v = -1;\n"
		   "\treturn gputune_%s_candidates(device, cc, dtype, %s, &v, 1) ? v : -1;\n}\n\n",
		P, size_params, P, size_args);
	if (fam->args == ARGS_GEMM)
		fprintf(f, "/* Variant's launch: its grid, block and bytes of dynamic shared memory; past 48 KiB\n"
			   " * the kernel's attribute of the most dynamic shared memory is raised to it first\n"
			   " * (cuFuncSetAttribute, cudaFuncSetAttribute), as gputune_%s_launch does. */\n", P);
	fprintf(f, "static inline void gputune_%s_geometry(int variant, %s,\n"
		   "\tunsigned grid[3], unsigned block[3]%s)\n{\n"
		   "\tconst gputune_%s_config *c = &gputune_%s_variants[variant].config;\n%s}\n\n",
		P, geo_params, smem ? ", unsigned *smem" : "", P, P, fam->geometry_c);
	if (fam->args == ARGS_USER)
		write_user_lengths(h);
	else if (fam->scratch_bytes)
		fprintf(f, "static inline size_t gputune_%s_scratch_bytes(int variant, unsigned long long n)\n{\n"
			   "\tunsigned grid[3], block[3];\n\tgputune_%s_geometry(variant, n, grid, block);\n"
			   "\treturn %s;\n}\n\n", P, P, fam->scratch_c);
}

/* For nvcc: the kernels and the launch helper, a user family's or a
 * built-in one's. */
static void write_kernels_and_launch(const struct header *h)
{
	if (h->fam->args == ARGS_USER) {
		write_user_kernels(h);
		write_user_launch(h);
	} else {
		write_nvcc_kernels(h);
		write_launch(h);
	}
}

/* A split export's .cu: the header's kernels and launch helpers,
 * compiled once. */
static void write_split_cu(struct header *h, FILE *cu, const char *header_name)
{
	FILE *header = h->f;
	fprintf(cu, "/*\n * The kernels and launch helpers of %s, compiled once: build this file\n"
		    " * with nvcc into your program, and include the header wherever you call\n"
		    " * gputune_%s_choose() or gputune_%s_launch().  Generated with it; do not edit.\n */\n",
		header_name, h->P, h->P);
	fprintf(cu, "#include \"%s\"\n\n", header_name);
	fputs("#if defined(__CUDACC__)\n#include <cuda_runtime.h>\n\n", header);
	h->decl = header;
	h->f = cu;
	write_kernels_and_launch(h);
	fputs("#endif /* __CUDACC__ */\n", cu);
	h->f = header;
	h->decl = NULL;
}

int export_header(FILE *f, FILE *cu, const char *const names[2], const struct family *fam,
		  const struct choice_set *cs, const char *mode, const char *templates_dir, const char *cache_dir)
{
	struct header h;
	memset(&h, 0, sizeof(h));
	h.f = f;
	h.fam = fam;
	h.cs = cs;
	h.P = fam->name;
	snprintf(h.U, sizeof(h.U), "%s", h.P);
	for (char *u = h.U; *u; u++)
		*u = (char)toupper((unsigned char)*u);
	const struct embedded_file *rule = embedded_find("src/export/choice-rule.h");
	const struct embedded_file *maps_text = fam->maps_code ? embedded_find(fam->maps_code) : NULL;
	h.tmpl = family_template_load(fam, templates_dir);
	if (!h.tmpl || !rule || (fam->maps_code && !maps_text)) {
		free(h.tmpl);
		return !h.tmpl ? -1 : fail("export: the choice rule or the tensor maps' code is not built in");
	}
	h.split_cu = cu ? names[1] : NULL;
	char why[300];
	if (fam->args == ARGS_USER && (!fam->geometry_c || user_family_c_problem(why, sizeof(why)))) {
		free(h.tmpl);
		return fail("export: %s: %s", fam->name,
			    fam->geometry_c ? why : "its spec declares no buffers, launch, metric or check");
	}
	int rc = collect_variants(&h);
	if (rc == 0) {
		add_defaults(&h);
		rc = describe_variants(&h, cache_dir);
	}
	if (rc == 0) {
		shape_words(&h);
		write_preamble(&h, mode);
		char guard[80];
		snprintf(guard, sizeof(guard), "GPUTUNE_%s_H", h.U);
		fprintf(f, "#ifndef %s\n#define %s\n\n#include <stddef.h>\n#include <string.h>\n\n", guard, guard);
		write_types(&h);
		write_tables(&h);
		write_programs(&h, rule->text, maps_text ? maps_text->text : NULL);
		write_helpers(&h);
		if (cu) {
			write_split_cu(&h, cu, names[0]);
		} else {
			write_kernels_and_launch(&h);
		}
		fputs("#endif /* __CUDACC__ */\n\n", f);
		fprintf(f, "#endif /* %s */\n", guard);
	}
	free(h.user_bufs);
	free(h.user_args);
	for (int i = 0; i < h.nv; i++)
		free(h.vs[i].params);
	for (size_t k = 0; h.gmap && k < cs->ngroups; k++)
		free(h.gmap[k]);
	free(h.gmap);
	free(h.vs);
	free(h.tmpl);
	return rc;
}
