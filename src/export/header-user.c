/*
 * header-user.c - the parts of a tuned header that differ for a family a
 * user brings (ARGS_USER): the buffers' lengths in C, and under nvcc the
 * kernels and the launch helper.
 *
 * A user's template makes one variant from #defines, not a C++ template
 * instantiated per variant as gputune's own, so the header carries its
 * text once per variant it holds: each copy behind that variant's
 * #defines, in a namespace of its own (its helpers and types), with the
 * entry point renamed gputune_NAME_kI by a macro (an extern "C" name is
 * one name whatever the namespace).
 */
#include "export/header.h"
#include "compile/render.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void write_user_lengths(const struct header *h)
{
	FILE *f = h->f;
	const struct family *fam = h->fam;
	const char *names[3];
	int ns = family_size_names(h->fam, names);
	fprintf(f, "/* Elements of buffer b (in the launch's order) at a size; -1 for no buffer b. */\n"
		   "static inline long long gputune_%s_buffer_elems(int b, %s)\n{\n", h->P, h->geo_params);
	for (int k = 0; k < ns; k++)
		fprintf(f, "\tconst long long gt_s%d = (long long)%s;\n", k, names[k]);
	fputs("\t{\n", f);
	for (int k = 0; k < ns; k++)
		fprintf(f, "\t\tconst long long %s = gt_s%d;\n", names[k], k);
	for (int k = 0; k < ns; k++)
		fprintf(f, "\t\t(void)%s;\n", names[k]);
	fputs("\t\tswitch (b) {\n", f);
	for (int b = 0; b < fam->nbuffers; b++)
		fprintf(f, "\t\tcase %d: /* %s */\n\t\t\treturn (%s);\n", b, fam->buffers[b].name, fam->buffers[b].length);
	fputs("\t\t}\n\t}\n\treturn -1;\n}\n\n", f);
}

/* The #undef lines for the macros a variant's #defines set. */
static void write_undefs(FILE *f, const char *defines)
{
	for (const char *l = defines; (l = strstr(l, "#define ")) != NULL;) {
		l += 8;
		size_t n = strcspn(l, " \n");
		fprintf(f, "#undef %.*s\n", (int)n, l);
	}
}

void write_user_kernels(const struct header *h)
{
	FILE *f = h->f;
	const struct family *fam = h->fam;
	fputs("#if defined(__CUDACC__)\n#include <cuda_runtime.h>\n\n", f);
	for (int i = 0; i < h->nv; i++) {
		char *defines = render_defines(fam, h->vs[i].dt, h->vs[i].v);
		fprintf(f, "/* Variant %d, %s %s. */\nnamespace gputune_%s_v%d {\n%s#define %s gputune_%s_k%d\n", i,
			h->vs[i].dt->name, h->vs[i].params, h->P, i, defines, fam->kernel_name, h->P, i);
		fputs(h->tmpl, f);
		if (*h->tmpl && h->tmpl[strlen(h->tmpl) - 1] != '\n')
			fputc('\n', f);
		fprintf(f, "#undef %s\n", fam->kernel_name);
		write_undefs(f, defines);
		fprintf(f, "} /* namespace gputune_%s_v%d */\n\n", h->P, i);
		free(defines);
	}
}

void write_user_launch(const struct header *h)
{
	FILE *f = h->f;
	const char *P = h->P, *U = h->U;
	const struct family *fam = h->fam;
	if (h->decl)
		fprintf(h->decl, "/* Launches variant i on stream; returns the launch's error. */\n"
				 "cudaError_t gputune_%s_launch(int variant, %s,\n\t%s, cudaStream_t stream);\n",
			P, h->launch_bufs, h->geo_params);
	fprintf(f, "/* Launches variant i on stream; returns the launch's error. */\n"
		   "%scudaError_t gputune_%s_launch(int variant, %s,\n\t%s, cudaStream_t stream)\n{\n"
		   "\tif (variant < 0 || variant >= GPUTUNE_%s_NUM_VARIANTS)\n\t\treturn cudaErrorInvalidValue;\n"
		   "\tunsigned g[3], b[3], smem = 0;\n\tgputune_%s_geometry(variant, %s, g, b, &smem);\n"
		   "\tdim3 grid(g[0], g[1], g[2]), block(b[0], b[1], b[2]);\n\tswitch (variant) {\n",
		h->decl ? "" : "static inline ", P, h->launch_bufs, h->geo_params, U, P, h->size_args);
	for (int i = 0; i < h->nv; i++) {
		const char *T = h->vs[i].dt->cuda_type;
		fprintf(f, "\tcase %d:\n\t\tgputune_%s_v%d::gputune_%s_k%d<<<grid, block, smem, stream>>>(", i, P, i, P, i);
		for (int b = 0; b < fam->nbuffers; b++)
			fprintf(f, "(%s *)%s, ", T, fam->buffers[b].name);
		fprintf(f, "%s);\n\t\tbreak;\n", h->size_args);
	}
	fputs("\t}\n\treturn cudaGetLastError();\n}\n", f);
}
