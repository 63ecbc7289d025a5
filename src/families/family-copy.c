/*
 * family-copy.c - a plain device-to-device copy, out[i] = in[i], over a
 * rows x cols matrix.  It is the ceiling every other family is measured
 * against (the tuner times a fixed vectorised point of it beside
 * cuMemcpyDtoDAsync in every run), and `gputune copy` tunes it like any
 * other family.
 */
#include "families/family.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>

enum { P_VEC, P_THREADS, P_ITEMS, NPARAMS };
_Static_assert(NPARAMS <= MAX_PARAMS, "more parameters than MAX_PARAMS");

static const struct param_def params[NPARAMS] = {
	[P_VEC] = { "vec", "GT_VEC", "elements per load and store",
		    NULL, { 1, 2, 4, 8 }, 4, { 1, 2, 4, 8 }, 4, 4, 0 },
	[P_THREADS] = { "threads", "GT_THREADS", "threads per block",
			NULL, { 64, 128, 256, 512, 1024 }, 5, { 128, 256, 512 }, 3, 256, 0 },
	[P_ITEMS] = { "items", "GT_ITEMS", "vectors per thread, all loaded before the first store",
		      NULL, { 1, 2, 4, 8, 16 }, 5, { 1, 2, 4, 8 }, 4, 4, 0 },
};

static const char *reject(const int *v, const struct dtype *dt, const struct device_limits *lim,
			  char *buf, size_t n)
{
	const char *why = family_reject_access(v[P_VEC], dt, buf, n);
	if (why || (why = family_reject_threads(v[P_THREADS], lim, buf, n)))
		return why;
	return NULL;
}

static void geometry(const int *v, const struct dtype *dt, const struct dims *d,
		     struct launch_geometry *g)
{
	(void)dt;
	size_t nvec = family_elems(d) / (size_t)v[P_VEC];
	size_t per_block = (size_t)v[P_THREADS] * (size_t)v[P_ITEMS];
	size_t blocks = (nvec + per_block - 1) / per_block;
	g->grid[0] = (unsigned)(blocks ? blocks : 1);
	g->grid[1] = g->grid[2] = 1;
	g->block[0] = (unsigned)v[P_THREADS];
	g->block[1] = g->block[2] = 1;
	g->smem = 0;
}

static void reference(const void *in, void *out, const struct dtype *dt, const struct dims *d)
{
	memcpy(out, in, family_elems_bytes(dt, d));
}

static const char *const classics[] = {
	"scalar:vec=1,threads=256,items=1",
	"vec16B:vec=4,threads=256,items=4",
	NULL
};

const struct family family_copy = {
	.name = "copy",
	.summary = "device-to-device copy, the bandwidth ceiling",
	.command_summary = "tune the copy kernel (the bandwidth ceiling) at the given sizes",
	.template_name = "templates/copy.cu",
	.kernel_name = "gputune_copy",
	.shape = SHAPE_2D,
	.default_sizes = "1024-8192",
	.dtypes = "f32,f64,f16,i32",
	.metric = METRIC_BYTES,
	.check = CHECK_EXACT,
	.ceiling = CEILING_COPY,
	.args = ARGS_MATRIX,
	.params = params,
	.nparams = NPARAMS,
	.reject = reject,
	.geometry = geometry,
	.geometry_c =
		"\tunsigned long long nvec = (unsigned long long)rows * cols / (unsigned)c->vec;\n"
		"\tunsigned long long per = (unsigned long long)c->threads * (unsigned)c->items;\n"
		"\tunsigned long long blocks = (nvec + per - 1) / per;\n"
		"\tgrid[0] = (unsigned)(blocks ? blocks : 1);\n"
		"\tgrid[1] = grid[2] = 1;\n"
		"\tblock[0] = (unsigned)c->threads;\n"
		"\tblock[1] = block[2] = 1;\n",
	.in_elems = family_elems,
	.out_bytes = family_elems_bytes,
	.work = family_copy_bytes,
	.reference = reference,
	.classics = classics,
	.nreport = 2,
	.fallback = 1,
	.validate_sizes = "random:40:1000-8192",
};

/* Other families' copy ceiling: 16-byte accesses, and the rest of the
 * parameters at their single values (256 threads, 4 vectors in flight
 * each). */
const struct family *family_ceiling_kernel(const struct family *f, const struct dtype *dt, int *v)
{
	if (f->ceiling != CEILING_COPY)
		return NULL;
	for (int i = 0; i < family_copy.nparams; i++)
		v[i] = family_copy.params[i].single;
	v[P_VEC] = (int)(16 / dt->size);
	return &family_copy;
}
