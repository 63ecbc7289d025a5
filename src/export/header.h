/*
 * header.h - what the files that write a tuned header share (export/
 * only): the variants a header carries, the template text it copies
 * (header-template.c) and the facts of each variant (header-variants.c).
 */
#ifndef GPUTUNE_EXPORT_HEADER_H
#define GPUTUNE_EXPORT_HEADER_H

#include "export/choice.h"
#include "families/family.h"
#include "util/util.h"

#include <stdio.h>

struct hvariant {
	const struct dtype *dt;
	int v[MAX_PARAMS];
	char *params;
	int is_default;
	unsigned paths; /* the template's code paths it takes (template_paths) */
	int cc;	  /* the architecture of the first tuned device that uses it, 0 for none */
	int regs; /* registers NVRTC gives it there, -1 when unknown */
	int min_blocks; /* blocks per SM the header's kernel is built for (variant_occupancy) */
	/* Whether its kernel takes tensor maps (family.h, tensor_maps), for
	 * blocks of stripe x width. */
	int maps;
	unsigned stripe, width;
};

/* The template without the regions (`{PARAM` ... `PARAM}`) none of the
 * nv variants takes, and without their marker lines; NULL after a
 * message.  Takes tmpl (freed). */
char *without_untaken_regions(const struct family *fam, const struct hvariant *vs, int nv, char *tmpl);
/* The end of the #ifdef block that starts at p (past its #endif line). */
const char *block_end(const char *p);
/* src without the blocks `#ifdef macro` ... `#endif` (a new string). */
char *without_ifdef(const char *src, const char *macro);
/* src, without its comments, as C string literals a line each. */
void write_source_literal(FILE *f, const char *src);
/* The index of (dt, v) among the n variants, or -1. */
int find_variant(struct hvariant *vs, int n, const struct dtype *dt, const int *v);
/* The index of the variant named name of type dt, added to vs (of *nv)
 * when new; -1 after a message when name is not a point of fam. */
int header_variant(const struct family *fam, struct hvariant *vs, int *nv, const struct dtype *dt, const char *params);
/* Each variant's registers, from the CUBIN the tuner compiled for the
 * architecture of its first device (the compile cache), or -1. */
void variant_registers(const struct family *fam, struct hvariant *vs, int nv, const char *tmpl, const char *cache_dir);
/* Each variant's blocks per SM for the header's __launch_bounds__. */
void variant_occupancy(const struct family *fam, struct hvariant *vs, int nv);
/* Bytes of dynamic shared memory a launch of hv takes. */
unsigned variant_smem(const struct family *fam, const struct hvariant *hv);
/* Whether hv is launched as many blocks as the device holds (launch_geometry's resident). */
int variant_resident(const struct family *fam, const struct hvariant *hv);

/* What every section of a header reads: the family, the groups, the
 * variants the header carries, and how its shape's sizes are written. */
struct header {
	FILE *f;
	/* A split export: the header (decl) holds the launch helpers'
	 * prototypes, and f (the .cu compiled once) their definitions,
	 * which then have external linkage; NULL: one header, every helper
	 * static inline. */
	FILE *decl;
	const struct family *fam;
	const struct choice_set *cs;
	const char *P; /* the family's name */
	char U[64];    /* the name upper-cased, for macros */
	struct hvariant *vs;
	int nv;
	int **gmap; /* per group, its names' variants (-1: not in the header) */
	const struct dtype *types[8]; /* the family's element types, f32 first */
	int ntypes, default_of[8];    /* and the default variant of each, or -1 */
	int any_maps, vec, three;
	const char *split_cu; /* split: the .cu's name, which the preamble names; else NULL */
	/* How each shape's sizes are written in the helpers' signatures, and
	 * the rule's rows, cols and depth from them; the launch helper's
	 * buffers, as parameters, and all its arguments. */
	const char *size_params, *size_locals, *geo_params, *size_args, *launch_bufs, *launch_args;
	char *tmpl; /* the template, without the regions none of the variants takes */
	char *user_bufs, *user_args; /* ARGS_USER: launch_bufs and launch_args, made from its buffers */
};

/* For nvcc: the template's text once, the tensor maps' helpers, and the
 * pick between a variant's bounded and unbounded builds. */
void write_nvcc_kernels(const struct header *h);
/* For nvcc: the launch helper, one case a variant, and the calibration
 * where a family has no scratch memory (and, split, their prototypes into
 * h->decl). */
void write_launch(const struct header *h);

/* A family a user brings (header-user.c): gputune_NAME_buffer_elems(),
 * and for nvcc each variant's copy of the template and the launch helper
 * (and, split, its prototype into h->decl). */
void write_user_lengths(const struct header *h);
void write_user_kernels(const struct header *h);
void write_user_launch(const struct header *h);

/* Appends s as the body of a C string literal (no quotes). */
void c_string_escape(struct strbuf *sb, const char *s);

#endif
