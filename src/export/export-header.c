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
#include "compile/nvrtc-compile.h"
#include "compile/render.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Appends s as the body of a C string literal (no quotes). */
static void c_string_escape(struct strbuf *sb, const char *s)
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

static int find_variant(struct hvariant *vs, int n, const struct dtype *dt, const int *v)
{
	for (int i = 0; i < n; i++)
		if (vs[i].dt == dt && !memcmp(vs[i].v, v, sizeof(int) * MAX_PARAMS))
			return i;
	return -1;
}

/* The header's variant for group variant params (adding it), or -1 after
 * reporting a stored name that is not a point of fam. */
static int header_variant(const struct family *fam, struct hvariant *vs, int *nv, const struct dtype *dt,
			  const char *params)
{
	int v[MAX_PARAMS] = {0};
	if (family_point_parse(fam, params, v) < 0)
		return fail("export: the stored variant '%s' is not a point of %s", params, fam->name);
	int k = find_variant(vs, *nv, dt, v);
	if (k < 0) {
		k = (*nv)++;
		vs[k].dt = dt;
		memcpy(vs[k].v, v, sizeof(v));
	}
	return k;
}

/* The #define lines that make the template a variant, leaving out test-only
 * parameters at their default (the template defaults them too).  Caller
 * frees. */
static char *variant_defines(const struct family *fam, const struct dtype *dt, const int *v)
{
	struct strbuf sb = {0};
	sb_printf(&sb, "#define GT_ELEM_BYTES %zu\n", dt->size);
	if (fam->arithmetic)
		sb_printf(&sb, "#define GT_ELEM_TYPE %s\n#define GT_ACC_TYPE %s\n", dt->cuda_type, dt->acc_type);
	for (int k = 0; k < fam->nparams; k++)
		if (!fam->params[k].hidden || v[k] != fam->params[k].single)
			sb_printf(&sb, "#define %s %d\n", fam->params[k].macro, v[k]);
	return sb_detach(&sb);
}

/* src without its comments: the header carries the commented text once,
 * for nvcc, and the NVRTC program needs none.  String and character
 * literals are copied as they are. */
static char *strip_comments(const char *src)
{
	struct strbuf sb = {0};
	for (const char *p = src; *p;) {
		if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");
			p = end ? end + 2 : p + strlen(p);
		} else if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
		} else if (*p == '"' || *p == '\'') {
			char q = *p;
			const char *s = p++;
			while (*p && *p != q && *p != '\n')
				p += p[0] == '\\' && p[1] ? 2 : 1;
			if (*p == q)
				p++;
			sb_add(&sb, s, (size_t)(p - s));
		} else {
			sb_add(&sb, p++, 1);
		}
	}
	return sb_detach(&sb);
}

/* One line of packed literals: lit's escaped text, quoted; lit emptied. */
static void write_literal_line(FILE *f, struct strbuf *lit)
{
	fprintf(f, "\t\"%s\"\n", lit->buf);
	free(sb_detach(lit));
}

/* The start of the line after the one p is on. */
static const char *past_line(const char *p)
{
	p += strcspn(p, "\n");
	return p + (*p == '\n');
}

/* The start of the line p is on, no earlier than from. */
static const char *line_start(const char *p, const char *from)
{
	while (p > from && p[-1] != '\n')
		p--;
	return p;
}

/* src without the lines from each one holding the comment {spec to the
 * next holding the comment name} (both included; name is spec up to a
 * colon): a path of the template that no exported variant takes.  With
 * keep, a path some variant takes: only those two lines go, as the
 * markers mean nothing in a header.  Caller frees. */
static char *without_region(const char *src, const char *spec, int keep)
{
	char *open = xasprintf("/* {%s */", spec);
	char *close = xasprintf("/* %.*s} */", (int)strcspn(spec, ":"), spec);
	struct strbuf out = {0};
	for (const char *p = src;;) {
		const char *at = strstr(p, open), *end = at ? strstr(at, close) : NULL;
		if (!at) {
			sb_add(&out, p, strlen(p));
			break;
		}
		at = line_start(at, p);
		sb_add(&out, p, (size_t)(at - p));
		if (keep) {
			const char *body = past_line(at), *stop = end ? line_start(end, body) : body + strlen(body);
			sb_add(&out, body, (size_t)(stop - body));
		}
		if (!end)
			break; /* an unclosed region runs to the end */
		p = past_line(end);
	}
	free(open);
	free(close);
	return sb_detach(&out);
}

/* src with each run of blank lines made one, as taking regions out leaves
 * some.  Caller frees. */
static char *squeezed(const char *src)
{
	struct strbuf out = {0};
	for (const char *p = src, *next; *p; p = next) {
		next = past_line(p);
		if (!(*p == '\n' && out.len && (out.len == 1 || out.buf[out.len - 2] == '\n')))
			sb_add(&out, p, (size_t)(next - p));
	}
	return sb_detach(&out);
}

/* Whether a variant of vs takes the template's region of spec: 1 or 0,
 * or -1 when spec names no parameter or value of fam. */
static int region_taken(const struct family *fam, const struct hvariant *vs, int nv, const char *spec)
{
	for (int i = 0; i < nv; i++) {
		int taken = template_region_taken(fam, spec, vs[i].v);
		if (taken)
			return taken;
	}
	const int none[MAX_PARAMS] = { 0 }; /* no variant: still report a bad spec */
	return nv || template_region_taken(fam, spec, none) >= 0 ? 0 : -1;
}

/* tmpl (which this takes) without the regions none of vs takes, and
 * without the markers of those it keeps: the template marks each of its
 * optional paths with the parameter values that take it, so a header
 * carries only the code its kernels run.  NULL after reporting a marker
 * that names no parameter value. */
static char *without_untaken_regions(const struct family *fam, const struct hvariant *vs, int nv, char *tmpl)
{
	char *spec;
	for (const char *at = tmpl; (spec = template_next_region(&at)) != NULL;) {
		int taken = region_taken(fam, vs, nv, spec);
		if (taken < 0) {
			fail("export: %s: the region marker '{%s' names no value of a parameter of %s",
			     fam->template_name, spec, fam->name);
			free(spec);
			free(tmpl);
			return NULL;
		}
		char *shown = without_region(tmpl, spec, taken);
		free(tmpl);
		tmpl = shown;
		at = tmpl; /* every marker of spec is gone: look again */
		free(spec);
	}
	char *tidy = squeezed(tmpl);
	free(tmpl);
	return tidy;
}

/* Past the #endif of the conditional block whose #if... line starts at p
 * (the blocks within it skipped); NULL when it is not closed. */
static const char *block_end(const char *p)
{
	for (int depth = 0; *p;) {
		const char *q = p + strspn(p, " \t");
		if (!strncmp(q, "#if", 3))
			depth++;
		p = past_line(p);
		if (!strncmp(q, "#endif", 6) && --depth == 0)
			return p;
	}
	return NULL;
}

/* src without its blocks `#ifdef macro` ... `#endif`: in an exported
 * header, the rendered entry point (GT_ELEM_BYTES) is the NVRTC program's
 * alone and the header's kernel (GT_HEADER_KERNEL) the nvcc copy's alone.
 * Caller frees. */
static char *without_ifdef(const char *src, const char *macro)
{
	char *line = xasprintf("#ifdef %s\n", macro);
	struct strbuf out = {0};
	const char *p = src, *at = src;
	while ((at = strstr(at, line)) != NULL) {
		const char *end = at == src || at[-1] == '\n' ? block_end(at) : NULL;
		if (!end) { /* not a line of its own, or never closed: kept */
			at++;
			continue;
		}
		sb_add(&out, p, (size_t)(at - p));
		p = at = end;
	}
	sb_add(&out, p, strlen(p));
	free(line);
	return sb_detach(&out);
}

static void write_source_literal(FILE *f, const char *src)
{
	/* The program is for NVRTC, not for reading (the header's nvcc
	 * copy is): its lines, without comments and blank ones, are packed
	 * into literals of up to 100 columns (a tab, the quotes and the
	 * escaped text), each source line still ending in its newline. */
	char *text = strip_comments(src);
	struct strbuf lit = {0}, esc = {0};
	const char *p = text;
	while (*p) {
		size_t n = strcspn(p, "\n");
		if (strspn(p, " \t") < n) {
			char *line = xasprintf("%.*s%s", (int)n, p, p[n] ? "\n" : "");
			c_string_escape(&esc, line);
			if (lit.len && 8 + 2 + lit.len + esc.len > 100)
				write_literal_line(f, &lit);
			sb_add(&lit, esc.buf, esc.len);
			free(sb_detach(&esc));
			free(line);
		}
		p += n + (p[n] ? 1 : 0);
	}
	if (lit.len)
		write_literal_line(f, &lit);
	free(text);
}

/* The header's calibration (CUDA): at a size, times the rule's best few
 * on the caller's buffers, each launch after an L2 flush as gputune times,
 * and keeps the fastest.  Only for families without scratch memory (a
 * scratch buffer is sized per variant).  It takes the launch helper's
 * buffers and sizes (bufs, sizes as parameters; args as its arguments)
 * and hands the rule the sizes (size_args). */
static void write_calibrate(FILE *f, const char *P, const char *U, const char *bufs, const char *sizes,
			    const char *size_args, const char *args)
{
	fprintf(f,
		"#ifndef GPUTUNE_%s_CALIBRATE\n#define GPUTUNE_%s_CALIBRATE %d\n#endif\n"
		"/* Calibration, once per size nobody tuned: runs the rule's GPUTUNE_%s_CALIBRATE\n"
		" * best (gputune_%s_candidates() on the current device) on these buffers,\n"
		" * after a warm-up 5 times each in turn, each launch after an L2 flush, and\n"
		" * sets *variant to the one of the smallest time (noise only adds): keep it\n"
		" * for gputune_%s_launch() at this size.  Every launch writes the whole\n"
		" * output.  Waits for the stream; allocates and frees twice the L2. */\n"
		"static inline cudaError_t gputune_%s_calibrate(const char *dtype, %s, %s,\n"
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
		U, U, CHOICE_CALIBRATE, U, P, P, P, bufs, sizes, P, size_args, U, P, args, P, args);
}

/*
 * Each variant's registers as NVRTC compiles it for tuning, on the
 * architecture of the device that uses it (through the compile cache, so
 * after a tuning run nothing is compiled again).  nvcc compiles the same
 * source differently: on an H200 the f16 variant tile=64, block_rows=16,
 * vec=4, sector=on took 36 registers built by nvcc against NVRTC's 32, so
 * 7 blocks of 256 threads fitted on an SM instead of 8, and at 2897 x 2897
 * (1,058 blocks: one wave at 8, two at 7) the header's kernel ran at 0.75
 * of the figure the database held for it.  A variant that does not
 * compile here, or one of a device NVRTC cannot target, stays unknown.
 */
static void variant_registers(const struct family *fam, struct hvariant *vs, int nv, const char *tmpl,
			      const char *cache_dir)
{
	if (mkdir_p(cache_dir) < 0) {
		warning("export: cannot create the compile cache directory %s (%s), so the header's kernels are "
			"built without NVRTC's register counts",
			cache_dir, strerror(errno));
		return;
	}
	for (int i = 0; i < nv; i++) {
		if (!vs[i].cc || vs[i].regs)
			continue; /* no device, or done */
		/* Every variant of this architecture in one pool. */
		char arch[16], *supported = NULL;
		snprintf(arch, sizeof(arch), "sm_%d", vs[i].cc);
		struct compile_job *jobs = xcalloc((size_t)nv, sizeof(*jobs));
		int *which = xcalloc((size_t)nv, sizeof(int));
		size_t n = 0;
		for (int j = i; j < nv; j++)
			if (vs[j].cc == vs[i].cc) {
				jobs[n].source = render_variant(fam, vs[j].dt, vs[j].v, tmpl);
				jobs[n].name = vs[j].params;
				which[n++] = j;
			}
		struct compile_pool *pool = NULL;
		if (!nvrtc_arch_supported(arch, &supported))
			warning("export: NVRTC cannot target %s, so its kernels keep nvcc's register counts", arch);
		else
			pool = compile_pool_start(jobs, n, arch, cache_dir, 0, 0);
		for (size_t k = 0; k < n; k++) {
			struct hvariant *h = &vs[which[k]];
			char *cubin = NULL;
			size_t len = 0;
			if (pool && compile_pool_wait(pool, k) == COMPILE_OK)
				cubin = compile_pool_cubin(pool, k, &len);
			int r = cubin ? cubin_registers(cubin, len, fam->kernel_name) : -1;
			if (pool && r <= 0)
				warning("export: %s %s: no register count for %s, so its unbounded build alone is used",
					fam->name, h->params, arch);
			/* Marked done either way: -1 is "unknown" for the writer. */
			h->regs = r > 0 ? r : -1;
			free(cubin);
			free((char *)jobs[k].source);
		}
		if (pool)
			compile_pool_stop(pool);
		free(supported);
		free(jobs);
		free(which);
	}
}

/* Threads an SM holds at compute capability cc (10 major + minor). */
static int sm_max_threads(int cc)
{
	if (cc == 75)
		return 1024;
	if (cc == 86 || cc == 87 || cc == 89 || cc / 10 == 12)
		return 1536;
	return 2048;
}

/* Blocks an SM holds at compute capability cc: past it ptxas ignores a
 * bound (a warning at every build of a small block's kernel). */
static int sm_max_blocks(int cc)
{
	if (cc == 75 || cc == 86 || cc == 87)
		return 16;
	return cc == 89 ? 24 : 32;
}

/*
 * The blocks per SM each header kernel is built for: as many as NVRTC's
 * registers let an SM hold (64 Ki registers, allocated 8 a thread), or its
 * threads, whichever is fewer.  That is the kernel's __launch_bounds__'
 * second argument, which keeps nvcc to at most 64 Ki / (blocks x threads)
 * registers a thread: never fewer than NVRTC gave the variant, and where
 * nvcc would take more and lose a block per SM, no more.  A bound
 * can change the code even where nvcc needed fewer registers than it (the
 * matrix product's 64 x 64 tile took 139 bounded to 3 blocks of 128
 * threads, 127 without), so the header keeps both builds (the launch's
 * gputune_KERNEL_build); the unbounded one has the second argument 0,
 * which emits none, as the rendered kernel the tuner measured has none.
 * A second argument of 1 is not that: ptxas then allows itself more
 * registers (an f16 async=words variant took 34 with it from nvcc, 35
 * from NVRTC, and 30 without from both).  nvcc's __maxnreg__ at NVRTC's
 * count, tried first, changed the code at the very count nvcc chose
 * itself: the matrix product's winner at 4096 ran at 0.94 of its figure,
 * against 0.99.  1 (one build, unbounded) where the count is unknown.
 */
static void variant_occupancy(const struct family *fam, struct hvariant *vs, int nv)
{
	for (int i = 0; i < nv; i++) {
		vs[i].min_blocks = 1;
		if (vs[i].regs <= 0)
			continue;
		/* Threads a block: the families' do not depend on the size. */
		struct dims d = { 1024, 1024, 1024 };
		struct launch_geometry g;
		fam->geometry(vs[i].v, vs[i].dt, &d, &g);
		long threads = (long)g.block[0] * g.block[1] * g.block[2];
		if (threads <= 0)
			continue;
		long by_regs = 65536 / ((vs[i].regs + 7) / 8 * 8 * threads);
		long by_threads = sm_max_threads(vs[i].cc) / threads;
		long b = by_regs < by_threads ? by_regs : by_threads;
		if (b > sm_max_blocks(vs[i].cc))
			b = sm_max_blocks(vs[i].cc);
		vs[i].min_blocks = b > 1 ? (int)b : 1;
	}
}

/* The launch helper's case for variant i: its kernel with template
 * arguments targs after the blocks per SM, the bounded and unbounded
 * builds to choose from where the bound is more than 1.  With maps (the
 * call that makes a rowclass variant's tensor maps, m), the case makes
 * them first and launches the kernel that takes them. */
static void write_case(FILE *f, const char *P, int i, int min_blocks, const char *targs, const char *smem,
		       const char *args, const char *maps)
{
	const char *kernel = maps ? "kernel_maps" : "kernel";
	fprintf(f, "\tcase %d: ", i);
	if (maps)
		fprintf(f, "{\n\t\tconst gt_maps *m = %s;\n\t\t", maps);
	if (min_blocks > 1)
		fprintf(f, "gputune_%s_build(%d, gputune_%s_%s<%d, %s>, gputune_%s_%s<0, %s>, block, %s)", P, i, P, kernel,
			min_blocks, targs, P, kernel, targs, smem);
	else
		fprintf(f, "gputune_%s_%s<0, %s>", P, kernel, targs);
	fprintf(f, "<<<grid, block, %s, stream>>>%s;%s", smem, args, maps ? "\n\t\tbreak;\n\t}\n" : " break;\n");
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

/* What every section of a header reads: the family, the groups, the
 * variants the header carries, and how its shape's sizes are written. */
struct header {
	FILE *f;
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
	/* How each shape's sizes are written in the helpers' signatures, and
	 * the rule's rows, cols and depth from them; the launch helper's
	 * buffers, as parameters, and all its arguments. */
	const char *size_params, *size_locals, *geo_params, *size_args, *launch_bufs, *launch_args;
	char *tmpl; /* the template, without the regions none of the variants takes */
};

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
	variant_registers(h->fam, h->vs, h->nv, h->tmpl, cache_dir);
	for (int i = 0; i < h->nv; i++)
		h->vs[i].paths = template_paths(h->fam, h->tmpl, h->vs[i].v);
	if (!(h->tmpl = without_untaken_regions(h->fam, h->vs, h->nv, h->tmpl)))
		return -1;
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
	h->launch_bufs = three ? "const float *A, const float *B, float *C" : "const void *in, void *out";
	h->launch_args = vec ? "in, out, scratch, n" : three ? "A, B, C, m, n, k" : "in, out, rows, cols";
}

/* The opening comment: what the header holds and how to call it. */
static void write_preamble(const struct header *h, const char *mode)
{
	FILE *f = h->f;
	const char *P = h->P;
	const struct family *fam = h->fam;
	const struct choice_set *cs = h->cs;
	char ts[32];
	db_timestamp(ts);
	fprintf(f, "/*\n * gputune_%s.h - tuned %s kernels (%s).\n *\n", P, P, fam->summary);
	fprintf(f, " * Generated by gputune %s on %s; timing mode: %s.  Do not edit:\n", PACKAGE_VERSION, ts, mode);
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
	if (!fam->scratch_bytes)
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
		P, h->size_args, P, P, P, P, h->three ? " (and dynamic shared memory)" : "", P, h->launch_args, cal_note);
	if (h->three)
		fprintf(f, " * C = A B with A m x k, B k x n and C m x n, row-major and densely packed.\n");
	if (fam->scratch_bytes)
		fprintf(f, " * gputune_%s_scratch_bytes(i, n) is the scratch memory variant i needs:\n"
			   " * zero it once before the first launch; no launch after needs it zeroed\n"
			   " * again (each leaves what it reads next time zero).\n", P);
	if (fam->arithmetic)
		fprintf(f, " * The output is one accumulator: float for f32, double for f64, and for i32\n"
			   " * a 32-bit integer (the sum modulo 2^32).\n");
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
		   "\tdouble gbps;     /* measured */\n"
		   "\tdouble fraction; /* of the ceiling measured in the same run */\n"
		   "\tint variant;\n} gputune_%s_entry;\n\n", P, P);
	fprintf(f, "/* The measured sizes of one device and element type (entries first to\n"
		   " * first + n - 1, with rows[], cols[] and winner[] in the same order) and the\n"
		   " * candidates: share[i * ncand + j] is candidate j's bandwidth at size i over\n"
		   " * that size's best, -1 where it was not measured (the size is no evidence). */\n"
		   "typedef struct gputune_%s_group {\n\tconst char *device;\n\tint cc;\n\tconst char *dtype;\n"
		   "\tlong esize;\n\tint first, n;\n\tconst long *rows, *cols, *depths; /* depths: NULL unless 3-D */\n"
		   "\tconst int *winner;\n"
		   "\tint ncand;\n\tconst int *cand;\n\tconst float *share;\n} gputune_%s_group;\n\n", P, P);
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
			   "%d, gputune_%s_g%zu_cand, gputune_%s_g%zu_share },\n",
			r->cc_major * 10 + r->cc_minor, r->dtype, dtype_find(r->dtype)->size, first_entry, cs->g[k].n,
			P, k, P, k, depths, P, k, cs->g[k].ncand, P, k, P, k);
		first_entry += cs->g[k].n;
	}
	if (cs->ngroups == 0)
		fputs("\t{ \"\", 0, \"\", 0, 0, 0, NULL, NULL, NULL, NULL, 0, NULL, NULL }\n", f);
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
		char *defs = variant_defines(fam, vs[i].dt, vs[i].v);
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
		fprintf(f, "/* Variants with config.rowclass take, after the other arguments, the maps of\n"
			   " * gputune_tmaps_build(stripe = tile x unroll, width = tile x wide); under nvcc\n"
			   " * gputune_%s_launch() builds them. */\n", P);
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
	int three = h->three;
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
		   "\t\tg->share, gputune_%s_paths, g->esize, rows, cols, depth, count, out, &how);\n}\n\n",
		P, size_params, size_locals, P, P, P, P);
	fprintf(f, "static inline int gputune_%s_choose(const char *device, int cc, const char *dtype,\n"
		   "\t%s)\n{\n\tint v = -1;\n"
		   "\treturn gputune_%s_candidates(device, cc, dtype, %s, &v, 1) ? v : -1;\n}\n\n",
		P, size_params, P, size_args);
	fprintf(f, "static inline void gputune_%s_geometry(int variant, %s,\n"
		   "\tunsigned grid[3], unsigned block[3]%s)\n{\n"
		   "\tconst gputune_%s_config *c = &gputune_%s_variants[variant].config;\n%s}\n\n",
		P, geo_params, three ? ", unsigned *smem" : "", P, P, fam->geometry_c);
	if (fam->scratch_bytes)
		fprintf(f, "static inline size_t gputune_%s_scratch_bytes(int variant, unsigned long long n)\n{\n"
			   "\tunsigned grid[3], block[3];\n\tgputune_%s_geometry(variant, n, grid, block);\n"
			   "\treturn %s;\n}\n\n", P, P, fam->scratch_c);
}

/* For nvcc: the template's text once, the tensor maps' helpers, and the
 * pick between a variant's bounded and unbounded builds. */
static void write_nvcc_kernels(const struct header *h)
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
	 * memory.  nvcc and NVRTC of one toolkit now build the transpose's
	 * unbounded kernels to the same code (tests/t1018); before the template
	 * addressed its tile in 32 bits in both, nvcc gave 6 of a header's 144
	 * variants more registers (f16 2897 x 2897: 0.77 of its figure
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
static void write_launch(const struct header *h)
{
	FILE *f = h->f;
	const char *P = h->P, *U = h->U;
	const struct family *fam = h->fam;
	const struct hvariant *vs = h->vs;
	int nv = h->nv, vec = h->vec, three = h->three;
	const char *launch_bufs = h->launch_bufs, *geo_params = h->geo_params, *size_args = h->size_args;
	const char *launch_args = h->launch_args;
	fprintf(f, "/* Launches variant i on stream; returns the launch's error. */\n"
		   "static inline cudaError_t gputune_%s_launch(int variant, %s,\n"
		   "\t%s, cudaStream_t stream)\n{\n"
		   "\tif (variant < 0 || variant >= GPUTUNE_%s_NUM_VARIANTS)\n\t\treturn cudaErrorInvalidValue;\n"
		   "\tunsigned g[3], b[3]%s;\n\tgputune_%s_geometry(variant, %s, g, b%s);\n"
		   "\tdim3 grid(g[0], g[1], g[2]), block(b[0], b[1], b[2]);\n\tswitch (variant) {\n", P,
		launch_bufs, vec ? "void *scratch, unsigned long long n" : geo_params, U, three ? ", smem = 0" : "", P,
		size_args, three ? ", &smem" : "");
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
		if (three) {
			/* The matrix product's template is of single precision only. */
			struct strbuf targs = {0};
			for (int k = 0; k < fam->nparams; k++)
				sb_printf(&targs, "%s%d", k ? ", " : "", vs[i].v[k]);
			write_case(f, P, i, vs[i].min_blocks, targs.buf, "smem", "(A, B, C, m, n, k)", NULL);
			sb_free(&targs);
			continue;
		}
		struct strbuf targs = {0}, cargs = {0};
		sb_printf(&targs, "%s", T);
		if (fam->arithmetic)
			sb_printf(&targs, ", %s", A);
		for (int k = 0; k < fam->nparams; k++)
			sb_printf(&targs, ", %d", vs[i].v[k]);
		char *maps = NULL;
		if (vs[i].maps) {
			maps = xasprintf("gputune_%s_maps(%d, in, out, rows, cols, %zu, %u, %u)", P, i, vs[i].dt->size,
					 vs[i].stripe, vs[i].width);
			sb_printf(&cargs, "((const %s *)in, (%s *)out, rows, cols, *m)", T, A);
		} else {
			sb_printf(&cargs, "((const %s *)in, (%s *)out, %s)", T, A, vec ? "scratch, n" : "rows, cols");
		}
		write_case(f, P, i, vs[i].min_blocks, targs.buf, "0", cargs.buf, maps);
		free(maps);
		sb_free(&targs);
		sb_free(&cargs);
	}
	fputs("\t}\n\treturn cudaGetLastError();\n}\n", f);
	if (!fam->scratch_bytes)
		write_calibrate(f, P, U, launch_bufs, geo_params, size_args, launch_args);
}

int export_header(FILE *f, const struct family *fam, const struct choice_set *cs, const char *mode,
		  const char *templates_dir, const char *cache_dir)
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
	const struct embedded_file *maps_text = embedded_find("src/gpu/transpose-maps.h");
	h.tmpl = family_template_load(fam, templates_dir);
	if (!h.tmpl || !rule || !maps_text) {
		free(h.tmpl);
		return !h.tmpl ? -1 : fail("export: the choice rule or the tensor maps' code is not built in");
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
		write_programs(&h, rule->text, maps_text->text);
		write_helpers(&h);
		write_nvcc_kernels(&h);
		write_launch(&h);
		fputs("#endif /* __CUDACC__ */\n\n", f);
		fprintf(f, "#endif /* %s */\n", guard);
	}
	for (int i = 0; i < h.nv; i++)
		free(h.vs[i].params);
	for (size_t k = 0; h.gmap && k < cs->ngroups; k++)
		free(h.gmap[k]);
	free(h.gmap);
	free(h.vs);
	free(h.tmpl);
	return rc;
}
