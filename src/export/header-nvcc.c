/*
 * header-nvcc.c - the part of a tuned header that nvcc compiles: the
 * template's kernels instantiated once a variant, the tensor maps' helpers,
 * the launch helper and, for families without scratch memory, the
 * calibration that times a size's best candidates.
 */
#include "export/header.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The header's calibration (CUDA): at a size, times the rule's best few
 * on the caller's buffers, each launch after an L2 flush as gputune times,
 * and keeps the fastest.  Only for families without scratch memory (a
 * scratch buffer is sized per variant).  It takes the launch helper's
 * buffers and sizes (bufs, sizes as parameters; args as its arguments)
 * and hands the rule the sizes (size_args). */
static void write_calibrate(FILE *f, FILE *decl, const char *P, const char *U, const char *bufs,
			    const char *sizes, const char *size_args, const char *args)
{
	/* The count of candidates where callers see it: the header. */
	fprintf(decl ? decl : f, "#ifndef GPUTUNE_%s_CALIBRATE\n#define GPUTUNE_%s_CALIBRATE %d\n#endif\n", U, U,
		CHOICE_CALIBRATE);
	const char *doc =
		"/* Calibration, once per size nobody tuned: runs the rule's GPUTUNE_%s_CALIBRATE\n"
		" * best (gputune_%s_candidates() on the current device) on these buffers,\n"
		" * after a warm-up 5 times each in turn, each launch after an L2 flush, and\n"
		" * sets *variant to the one of the smallest time (noise only adds): keep it\n"
		" * for gputune_%s_launch() at this size.  Every launch writes the whole\n"
		" * output.  Waits for the stream; allocates and frees twice the L2. */\n";
	if (decl) {
		fprintf(decl, doc, U, P, P);
		fprintf(decl, "cudaError_t gputune_%s_calibrate(const char *dtype, %s, %s,\n\tcudaStream_t stream, int *variant);\n",
			P, bufs, sizes);
	}
	fprintf(f, doc, U, P, P);
	fprintf(f,
		"%scudaError_t gputune_%s_calibrate(const char *dtype, %s, %s,\n"
		"\tcudaStream_t stream, int *variant)\n{\n"
		"\tint dev = 0, cand[GPUTUNE_CHOICE_MAX_RANK], nc = 0, best = 0;\n"
		"\tfloat ms[GPUTUNE_CHOICE_MAX_RANK], t = 0;\n"
		"\tcudaDeviceProp prop;\n\tcudaEvent_t ev[2] = { NULL, NULL };\n\tvoid *flush = NULL;\n"
		"\tcudaError_t e = cudaGetDevice(&dev);\n"
		"\tif (!e && !(e = cudaGetDeviceProperties(&prop, dev)))\n"
		"\t\tnc = gputune_%s_candidates(prop.name, 10 * prop.major + prop.minor, dtype, %s, cand,\n"
		"\t\t\tGPUTUNE_%s_CALIBRATE);\n"
		"\tif (e || nc < 1)\n\t\treturn e ? e : cudaErrorInvalidValue;\n"
		"\t*variant = cand[0];\n"
		"\tif (nc == 1)\n\t\treturn gputune_%s_launch(cand[0], %s, stream);\n"
		"\tsize_t bytes = (size_t)prop.l2CacheSize * 2 + 1;\n"
		"\tif (!(e = cudaMalloc(&flush, bytes)) && !(e = cudaEventCreate(&ev[0])))\n"
		"\t\te = cudaEventCreate(&ev[1]);\n"
		"\tfor (int r = -1; !e && r < 5; r++) /* -1: warm-up; the candidates take turns */\n"
		"\t\tfor (int i = 0; !e && i < nc; i++)\n"
		"\t\t\tif (!(e = cudaMemsetAsync(flush, r & 0xff, bytes, stream)) && !(e = cudaEventRecord(ev[0], stream)) &&\n"
		"\t\t\t    !(e = gputune_%s_launch(cand[i], %s, stream)) && !(e = cudaEventRecord(ev[1], stream)) &&\n"
		"\t\t\t    !(e = cudaEventSynchronize(ev[1])) && r >= 0 && !(e = cudaEventElapsedTime(&t, ev[0], ev[1])))\n"
		"\t\t\t\tms[i] = r == 0 || t < ms[i] ? t : ms[i];\n"
		"\tfor (int i = 1; !e && i < nc; i++)\n\t\tbest = ms[i] < ms[best] ? i : best;\n"
		"\tif (!e)\n\t\t*variant = cand[best];\n"
		"\tfor (int i = 0; i < 2; i++)\n\t\tif (ev[i])\n\t\t\tcudaEventDestroy(ev[i]);\n"
		"\tcudaError_t fe = flush ? cudaFree(flush) : cudaSuccess;\n"
		"\treturn e ? e : fe;\n}\n",
		decl ? "" : "static inline ", P, bufs, sizes, P, size_args, U, P, args, P, args);
}

/* The launch helper's case for variant i: its kernel with template
 * arguments targs after the blocks per SM, the bounded and unbounded
 * builds to choose from where the bound is more than 1.  With maps (the
 * call that makes a rowclass variant's tensor maps, m), the case makes
 * them first and launches the kernel that takes them.  With optin (a
 * variant of more than 48 KiB of dynamic shared memory), each build is
 * opted in to it first (gputune_KERNEL_optin): write_build writes one. */
static void write_build(FILE *f, const char *P, const char *kernel, int blocks, const char *targs, int optin)
{
	if (optin)
		fprintf(f, "gputune_%s_optin(gputune_%s_%s<%d, %s>, smem)", P, P, kernel, blocks, targs);
	else
		fprintf(f, "gputune_%s_%s<%d, %s>", P, kernel, blocks, targs);
}

/* Variant i's kernel: the bounded or the unbounded build, whichever fits
 * more blocks per SM (gputune_P_build), where it is built for more than one. */
static void write_kernel(FILE *f, const char *P, int i, int min_blocks, const char *kernel, const char *targs,
			 const char *smem, int optin)
{
	if (min_blocks > 1) {
		fprintf(f, "gputune_%s_build(%d, ", P, i);
		write_build(f, P, kernel, min_blocks, targs, optin);
		fputs(", ", f);
		write_build(f, P, kernel, 0, targs, optin);
		fprintf(f, ", block, %s)", smem);
	} else {
		write_build(f, P, kernel, 0, targs, optin);
	}
}

static void write_case(FILE *f, const char *P, int i, int min_blocks, const char *targs, const char *smem,
		       const char *args, const char *maps, int optin, int resident)
{
	const char *kernel = maps ? "kernel_maps" : "kernel";
	fprintf(f, "\tcase %d: ", i);
	if (maps)
		fprintf(f, "{\n\t\tconst gt_maps *m = %s;\n\t\t", maps);
	else if (resident)
		fputs("{\n\t\t", f);
	if (resident) {
		/* A persistent kernel: launched as many blocks as the device holds. */
		fputs("auto kernel = ", f);
		write_kernel(f, P, i, min_blocks, kernel, targs, smem, optin);
		fprintf(f, ";\n\t\tgrid.x = gputune_%s_resident(%d, kernel, grid.x, block, %s);\n\t\tkernel", P, i, smem);
	} else {
		write_kernel(f, P, i, min_blocks, kernel, targs, smem, optin);
	}
	fprintf(f, "<<<grid, block, %s, stream>>>%s;%s", smem, args,
		maps || resident ? "\n\t\tbreak;\n\t}\n" : " break;\n");
}

/*
 * For variants that take tensor maps (family.h, tensor_maps): the driver's
 * encoder through the runtime, and each variant's maps for a launch's
 * buffers, kept (the last 8 of each thread) since encoding them is host
 * work at every launch.
 */
static void write_maps(FILE *f, const char *P, const char *U)
{
	fprintf(f,
		"#include <cuda.h>\n\n#define GPUTUNE_%s_MAPS 1 /* some variant takes tensor maps */\n\n"
		"/* cuTensorMapEncodeTiled as gputune_tmaps_build() calls it; 1 where the driver has none. */\n"
		"static inline int gputune_%s_encode(void *map, int dtype, uint32_t rank, void *base, const uint64_t *dims,\n"
		"\tconst uint64_t *strides, const uint32_t *box, const uint32_t *element_strides, int interleave,\n"
		"\tint swizzle, int l2_promotion, int oob_fill)\n{\n"
		"\ttypedef CUresult (*encode_t)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,\n"
		"\t\tconst cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,\n"
		"\t\tCUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);\n"
		"\t/* Looked up once: C++ initialises a local static once, whichever threads launch first. */\n"
		"\tstatic const encode_t encode = []() -> encode_t {\n\t\tvoid *p = NULL;\n\t\tcudaDriverEntryPointQueryResult q;\n"
		"#if CUDART_VERSION >= 12050\n"
		"\t\tif (cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", &p, 12000, cudaEnableDefault, &q) ||\n"
		"#else\n"
		"\t\tif (cudaGetDriverEntryPoint(\"cuTensorMapEncodeTiled\", &p, cudaEnableDefault, &q) ||\n"
		"#endif\n"
		"\t\t    q != cudaDriverEntryPointSuccess)\n\t\t\treturn NULL;\n\t\treturn (encode_t)p;\n\t}();\n"
		"\treturn encode ? (int)encode((CUtensorMap *)map, (CUtensorMapDataType)dtype, rank, base, dims, strides, box,\n"
		"\t\telement_strides, (CUtensorMapInterleave)interleave, (CUtensorMapSwizzle)swizzle,\n"
		"\t\t(CUtensorMapL2promotion)l2_promotion, (CUtensorMapFloatOOBfill)oob_fill) : 1;\n}\n\n", U, P);
	fprintf(f,
		"/* Variant v's maps for these buffers (elements of esize bytes, blocks of stripe x width). */\n"
		"static inline const gt_maps *gputune_%s_maps(int v, const void *in, void *out, unsigned rows,\n"
		"\tunsigned cols, unsigned esize, unsigned stripe, unsigned width)\n{\n"
		"\tstruct slot {\n\t\tgt_maps m;\n\t\tint v;\n\t\tconst void *in;\n\t\tvoid *out;\n\t\tunsigned rows, cols;\n\t};\n"
		"\tstatic thread_local slot kept[8];\n\tstatic thread_local int next;\n"
		"\tfor (int i = 0; i < 8; i++)\n"
		"\t\tif (kept[i].v == v + 1 && kept[i].in == in && kept[i].out == out && kept[i].rows == rows &&\n"
		"\t\t    kept[i].cols == cols)\n\t\t\treturn &kept[i].m;\n"
		"\tslot &s = kept[next];\n\tnext = (next + 1) %% 8;\n"
		"\tstatic_assert(sizeof(gt_maps) == sizeof(struct gputune_tmaps), \"the maps' layout\");\n"
		"\tstruct gputune_tmaps t;\n"
		"\tgputune_tmaps_build(gputune_%s_encode, &t, in, out, rows, cols, esize, stripe, width);\n"
		"\tmemcpy(&s.m, &t, sizeof(s.m));\n"
		"\ts.v = v + 1, s.in = in, s.out = out, s.rows = rows, s.cols = cols;\n"
		"\treturn &s.m;\n}\n\n", P, P);
}

/* For nvcc: the template's text once, the tensor maps' helpers, and the
 * pick between a variant's bounded and unbounded builds. */
void write_nvcc_kernels(const struct header *h)
{
	FILE *f = h->f;
	const char *P = h->P, *U = h->U;
	const char *tmpl = h->tmpl;
	int any_maps = h->any_maps;
	/* nvcc: the same template text, once, and one instantiation per
	 * variant.  The text ends with the header's kernel (the block under
	 * GT_HEADER_KERNEL): what follows is a rendered variant's entry point,
	 * NVRTC's, which the literal above carries, as it does the element
	 * type of a rendered variant (GT_ELEM_BYTES blocks). */
	fprintf(f, "#if defined(__CUDACC__)\n#include <cuda_runtime.h>\n\n#define GT_HEADER_KERNEL gputune_%s_kernel\n", P);
	if (any_maps)
		fprintf(f, "#define GT_HEADER_KERNEL_MAPS gputune_%s_kernel_maps\n", P);
	const char *hk = strstr(tmpl, "#ifdef GT_HEADER_KERNEL\n"), *hk_end = hk ? block_end(hk) : NULL;
	char *kernel = xasprintf("%.*s", hk_end ? (int)(hk_end - tmpl) : (int)strlen(tmpl), tmpl);
	char *nvcc = without_ifdef(kernel, "GT_ELEM_BYTES");
	fputs(nvcc, f);
	free(nvcc);
	free(kernel);
	fputs(any_maps ? "#undef GT_HEADER_KERNEL\n#undef GT_HEADER_KERNEL_MAPS\n\n" : "#undef GT_HEADER_KERNEL\n\n", f);
	if (any_maps)
		write_maps(f, P, U);
	/* A variant built with and without the bound of variant_occupancy:
	 * the unbounded build, declared as the tuner's kernel, runs unless it
	 * fits fewer blocks per SM, or the bound makes it keep values in local
	 * memory.  nvcc and NVRTC of one toolkit can build a template's
	 * unbounded kernels to the same code (tests/t1018); before the 2-D
	 * template addressed its tile in 32 bits in both, nvcc gave 6 of a
	 * header's 144 variants more registers (f16 2897 x 2897: 0.77 of its figure
	 * unbounded, 1.00 bounded).  The bound still guards a compiler of
	 * another version; where none is needed it costs (f16 async=words
	 * variants ran 4% slower, two of them with a stack frame it made). */
	fprintf(f, "/* Variant v's build: the unbounded one unless it fits fewer blocks per SM than the bounded one. */\n"
		   "template <typename K> static inline K gputune_%s_build(int v, K bounded, K unbounded, dim3 b, unsigned smem)\n{\n"
		   "\tstatic signed char pick[GPUTUNE_%s_NUM_VARIANTS]; /* 1 bounded, 2 unbounded */\n"
		   "\tint nb = 0, nu = 0, t = (int)(b.x * b.y * b.z);\n\tcudaFuncAttributes ab, au;\n"
		   "\tif (!pick[v] && !cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, bounded, t, smem) &&\n"
		   "\t    !cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nu, unbounded, t, smem) &&\n"
		   "\t    !cudaFuncGetAttributes(&ab, bounded) && !cudaFuncGetAttributes(&au, unbounded))\n"
		   "\t\tpick[v] = nu >= nb || ab.localSizeBytes > au.localSizeBytes ? 2 : 1;\n"
		   "\treturn pick[v] == 2 ? unbounded : bounded;\n}\n\n", P, U);
}

/* For nvcc: the launch helper, one case a variant, and the calibration
 * where a family has no scratch memory. */
void write_launch(const struct header *h)
{
	FILE *f = h->f;
	const char *P = h->P, *U = h->U;
	const struct family *fam = h->fam;
	const struct hvariant *vs = h->vs;
	int nv = h->nv, three = h->three, args = fam->args;
	const char *launch_bufs = h->launch_bufs, *geo_params = h->geo_params, *size_args = h->size_args;
	const char *launch_args = h->launch_args;
	const char *more = args == ARGS_VECTOR ? "void *scratch, unsigned long long n" : geo_params;
	/* A launch of more than 48 KiB of dynamic shared memory needs the
	 * kernel's attribute raised to it first (the matrix product's, whose
	 * tuner opts in as well). */
	int optin = 0;
	for (int i = 0; args == ARGS_GEMM && i < nv; i++)
		optin |= variant_smem(fam, &vs[i]) > SMEM_WITHOUT_OPTIN;
	if (optin)
		fprintf(f, "/* Kernel k opted in to smem bytes of dynamic shared memory (over the 48 KiB a launch\n"
			   " * gets without; a launch past the device's limit fails as it would without). */\n"
			   "template <typename K> static inline K gputune_%s_optin(K k, unsigned smem)\n{\n"
			   "\tcudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);\n"
			   "\treturn k;\n}\n\n", P);
	int resident = 0;
	for (int i = 0; i < nv; i++)
		resident |= variant_resident(fam, &vs[i]);
	if (resident)
		fprintf(f, "/* Persistent variant v's grid: at most the blocks the current device holds of its kernel k\n"
			   " * at once, asked once a variant and device (a thread that finds it unkept asks again). */\n"
			   "template <typename K> static inline unsigned gputune_%s_resident(int v, K k, unsigned grid, dim3 b,\n"
			   "\tunsigned smem)\n{\n"
			   "\tstatic int on[GPUTUNE_%s_NUM_VARIANTS], most[GPUTUNE_%s_NUM_VARIANTS]; /* device + 1, blocks */\n"
			   "\tint dev = 0, sms = 0, per_sm = 0, m;\n"
			   "\tif (cudaGetDevice(&dev))\n\t\treturn grid;\n"
			   "\tm = most[v];\n"
			   "\tif (on[v] != dev + 1 || m < 1) {\n"
			   "\t\tif (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) ||\n"
			   "\t\t    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, (int)(b.x * b.y * b.z), smem) ||\n"
			   "\t\t    sms < 1 || per_sm < 1)\n\t\t\treturn grid;\n"
			   "\t\tm = most[v] = sms * per_sm;\n\t\ton[v] = dev + 1;\n\t}\n"
			   "\treturn grid < (unsigned)m ? grid : (unsigned)m;\n}\n\n", P, U, U);
	if (h->decl)
		fprintf(h->decl, "/* Launches variant i on stream; returns the launch's error. */\n"
				 "cudaError_t gputune_%s_launch(int variant, %s,\n\t%s, cudaStream_t stream);\n",
			P, launch_bufs, more);
	fprintf(f, "/* Launches variant i on stream; returns the launch's error. */\n"
		   "%scudaError_t gputune_%s_launch(int variant, %s,\n"
		   "\t%s, cudaStream_t stream)\n{\n"
		   "\tif (variant < 0 || variant >= GPUTUNE_%s_NUM_VARIANTS)\n\t\treturn cudaErrorInvalidValue;\n"
		   "\tunsigned g[3], b[3]%s;\n\tgputune_%s_geometry(variant, %s, g, b%s);\n"
		   "\tdim3 grid(g[0], g[1], g[2]), block(b[0], b[1], b[2]);\n\tswitch (variant) {\n",
		h->decl ? "" : "static inline ", P, launch_bufs, more, U, three ? ", smem = 0" : "", P, size_args,
		three ? ", &smem" : "");
	for (int i = 0; i < nv; i++) {
		/* Bit-moving families take one unsigned type per element size;
		 * arithmetic ones the element and the accumulator types. */
		char T[40], A[40];
		if (fam->arithmetic) {
			snprintf(T, sizeof(T), "%s", vs[i].dt->cuda_type);
			snprintf(A, sizeof(A), "%s", vs[i].dt->acc_type);
		} else {
			snprintf(T, sizeof(T), "gt_uint<%zu>::type", vs[i].dt->size);
			snprintf(A, sizeof(A), "%s", T);
		}
		if (args == ARGS_GEMM) {
			/* The matrix product's template is of single precision only. */
			/* Late parameters at their single value left to the
			 * template's defaults: the kernels before them read alike. */
			struct strbuf targs = {0};
			int last = fam->nparams, late_from = family_late_from(fam);
			while (last > late_from && vs[i].v[last - 1] == fam->params[last - 1].single)
				last--;
			for (int k = 0; k < last; k++)
				if (!fam->params[k].hidden)
					sb_printf(&targs, "%s%d", targs.len ? ", " : "", vs[i].v[k]);
			write_case(f, P, i, vs[i].min_blocks, targs.buf, "smem", "(A, B, C, m, n, k)", NULL,
				   variant_smem(fam, &vs[i]) > SMEM_WITHOUT_OPTIN, variant_resident(fam, &vs[i]));
			sb_free(&targs);
			continue;
		}
		struct strbuf targs = {0}, cargs = {0};
		sb_printf(&targs, "%s", T);
		if (fam->arithmetic)
			sb_printf(&targs, ", %s", A);
		for (int k = 0; k < fam->nparams; k++)
			if (!fam->params[k].hidden) /* test-only: no template parameter */
				sb_printf(&targs, ", %d", vs[i].v[k]);
		char *maps = NULL;
		if (vs[i].maps) {
			maps = xasprintf("gputune_%s_maps(%d, in, out, rows, cols, %zu, %u, %u)", P, i, vs[i].dt->size,
					 vs[i].stripe, vs[i].width);
			sb_printf(&cargs, "((const %s *)in, (%s *)out, rows, cols, *m)", T, A);
		} else {
			sb_printf(&cargs, "((const %s *)in, (%s *)out, %s)", T, A, args == ARGS_VECTOR ? "scratch, n" : "rows, cols");
		}
		write_case(f, P, i, vs[i].min_blocks, targs.buf, "0", cargs.buf, maps, 0, variant_resident(fam, &vs[i]));
		free(maps);
		sb_free(&targs);
		sb_free(&cargs);
	}
	fputs("\t}\n\treturn cudaGetLastError();\n}\n", f);
	if (!fam->scratch_bytes)
		write_calibrate(f, h->decl, P, U, launch_bufs, geo_params, size_args, launch_args);
}
