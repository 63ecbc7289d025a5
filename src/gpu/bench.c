/*
 * bench.c - see bench.h.
 *
 * Layout on the device for one size: the input (one per input set), the
 * expected output (bit-exact families), the output with GUARD bytes on
 * each side, and the variant's scratch memory; plus the L2 flush buffer
 * (twice the L2, written before each timed launch so that no line of the
 * previous launch survives) and a small result buffer for the check
 * kernels.  At small sizes, also the placements the timed launches rotate
 * over (placement.h).
 */
#include "gpu/bench.h"
#include "gpu/placement.h"
#include "gpu/transpose-maps.h"
#include "util/util.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD (64u << 10)
#define GUARD_BYTE 0xA5
#define POISON_BYTE 0x5A
#define CHECK_BLOCKS 1024u
#define CHECK_THREADS 256u
/* The FMA ceiling's kernel: chains per thread (independent, to hide the
 * FMA latency) and steps per chain; support.cu unrolls by FMA_CHAINS. */
#define FMA_CHAINS 8
#define FMA_ITERS 4096

struct bench {
	struct gpu_info g;
	CUdevice dev;
	CUcontext ctx;
	CUstream stream;
	CUevent start, stop; /* around each timed launch, which is waited for */
	int reps, hot;
	int max_reps; /* the most reps a measurement may ask for (the confirmation round's) */
	void *support_image; /* copy of the support cubin, reloaded after a reset */
	size_t support_len;
	CUmodule support;
	CUfunction compare, check_fill, read, fma;
	CUdeviceptr flush, result;
	size_t flush_bytes;
	/* The prepared size. */
	const struct family *f;
	const struct dtype *dt;
	struct dims d;
	size_t in_bytes, out_bytes;
	int nsets;
	void *host_in[2], *host_expected[2], *host_out;
	CUdeviceptr in[2], expected, out_base, out;
	CUdeviceptr scratch;
	size_t scratch_bytes; /* allocated */
	int set;              /* the input set launches read */
	CUdeviceptr place_in, place_out; /* the other placements (placement.h), or 0 */
	int warm;                        /* the GPU was kept busy before the first ceiling */
	/* The tensor maps of the variant being measured, one per placement,
	 * for kernels that take them (family.h, tensor_maps); 128-byte
	 * aligned, allocated on first use. */
	struct gputune_tmaps *maps;
};

const char *variant_status_name(int status)
{
	static const char *const names[] = { "ok", "wrong", "compile_failed", "launch_failed", "fault" };
	return status >= 0 && status <= VS_FAULT ? names[status] : "unknown";
}

/* Everything that lives in the context. */
static int context_setup(struct bench *b)
{
	if (CU(cu.DevicePrimaryCtxRetain(&b->ctx, b->dev)) || CU(cu.CtxSetCurrent(b->ctx)))
		return -1;
	if (CU(cu.StreamCreate(&b->stream, CU_STREAM_NON_BLOCKING)))
		return -1;
	if (CU(cu.EventCreate(&b->start, CU_EVENT_DEFAULT)) || CU(cu.EventCreate(&b->stop, CU_EVENT_DEFAULT)))
		return -1;
	if (CU(cu.ModuleLoadData(&b->support, b->support_image)) ||
	    CU(cu.ModuleGetFunction(&b->compare, b->support, "gt_compare")) ||
	    CU(cu.ModuleGetFunction(&b->check_fill, b->support, "gt_check_fill")) ||
	    CU(cu.ModuleGetFunction(&b->read, b->support, "gt_read")) ||
	    CU(cu.ModuleGetFunction(&b->fma, b->support, "gt_fma")))
		return -1;
	b->flush_bytes = (size_t)(b->g.l2_bytes > 0 ? b->g.l2_bytes : 64 << 20) * 2;
	if (CU(cu.MemAlloc(&b->flush, b->flush_bytes)) || CU(cu.MemAlloc(&b->result, 4 * sizeof(uint64_t))))
		return -1;
	return 0;
}

struct bench *bench_open(const struct gpu_info *g, const void *support_cubin, int reps, int hot)
{
	struct bench *b = xcalloc(1, sizeof(*b));
	b->g = *g;
	b->reps = reps;
	b->max_reps = reps > BENCH_MAX_REPS ? reps : BENCH_MAX_REPS;
	b->hot = hot;
	/* Not copied: the caller keeps the image alive until bench_close. */
	b->support_image = (void *)support_cubin;
	if (CU(cu.DeviceGet(&b->dev, g->index)) || context_setup(b) < 0) {
		bench_close(b);
		return NULL;
	}
	return b;
}

static void free_size(struct bench *b)
{
	for (int k = 0; k < 2; k++)
		if (b->in[k])
			cu.MemFree(b->in[k]);
	if (b->expected)
		cu.MemFree(b->expected);
	if (b->out_base)
		cu.MemFree(b->out_base);
	if (b->scratch)
		cu.MemFree(b->scratch);
	if (b->place_in)
		cu.MemFree(b->place_in);
	if (b->place_out)
		cu.MemFree(b->place_out);
	b->in[0] = b->in[1] = b->expected = b->out_base = b->out = b->scratch = 0;
	b->place_in = b->place_out = 0;
	b->scratch_bytes = 0;
}

/* How many placements the timed launches rotate over at this size. */
static int places(const struct bench *b)
{
	return b->place_in ? PLACES : 1;
}

static void free_host(struct bench *b)
{
	for (int k = 0; k < 2; k++) {
		free(b->host_in[k]);
		free(b->host_expected[k]);
		b->host_in[k] = b->host_expected[k] = NULL;
	}
	free(b->host_out);
	b->host_out = NULL;
}

static void context_teardown(struct bench *b)
{
	free_size(b);
	if (b->flush)
		cu.MemFree(b->flush);
	if (b->result)
		cu.MemFree(b->result);
	if (b->support)
		cu.ModuleUnload(b->support);
	if (b->start)
		cu.EventDestroy(b->start);
	if (b->stop)
		cu.EventDestroy(b->stop);
	if (b->stream)
		cu.StreamDestroy(b->stream);
	b->start = b->stop = NULL;
	b->flush = b->result = 0;
	b->support = NULL;
	b->stream = NULL;
	if (b->ctx)
		cu.DevicePrimaryCtxRelease(b->dev);
	b->ctx = NULL;
}

void bench_close(struct bench *b)
{
	if (!b)
		return;
	context_teardown(b);
	free_host(b);
	free(b->maps);
	free(b);
}

/* Bytes per input set of what a variant's output is checked against: the
 * expected output itself (CHECK_EXACT), the GPU reference's output
 * (expected_elem bytes per output element), or the host judge's record. */
static size_t expected_bytes(const struct family *f, const struct dtype *dt, const struct dims *d)
{
	size_t out = f->out_bytes(dt, d);
	return f->check == CHECK_EXACT		   ? out
	       : f->check == CHECK_GPU_REFERENCE ? out / dt->size * f->expected_elem
						 : f->expected_bytes;
}

size_t bench_bytes_needed(const struct gpu_info *g, const struct family *f, const struct dtype *dt,
			  const struct dims *d)
{
	size_t in = f->in_elems(d) * dt->size * (size_t)(f->nsets > 1 ? f->nsets : 1);
	size_t out = f->out_bytes(dt, d);
	/* Scratch memory: per-block partials at most, never more than the input. */
	size_t scratch = f->scratch_bytes ? f->in_elems(d) * dt->size + (1u << 20) : 0;
	/* The GPU reference's output, while it is made. */
	size_t ref = f->check == CHECK_GPU_REFERENCE ? expected_bytes(f, dt, d) : 0;
	size_t in1 = f->in_elems(d) * dt->size;
	size_t place_bytes = placed(in1, out) ? in1 + out + 2 * PLACE_SPAN : 0;
	return in + 2 * out + scratch + ref + place_bytes + 2 * GUARD + (size_t)(g->l2_bytes > 0 ? g->l2_bytes : 64 << 20) * 2 +
	       (64u << 20);
}

size_t bench_host_bytes_needed(const struct family *f, const struct dtype *dt, const struct dims *d)
{
	size_t nsets = (size_t)(f->nsets > 1 ? f->nsets : 1);
	return nsets * (f->in_elems(d) * dt->size + expected_bytes(f, dt, d)) + f->out_bytes(dt, d);
}

/* xorshift64*: fast, and good enough to make every element distinct-ish
 * and never zero. */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static void fill_random(void *p, size_t n, const struct dtype *dt, uint64_t seed)
{
	uint64_t s = seed | 1;
	for (size_t i = 0; i < n; i++) {
		uint64_t r = next_random(&s);
		if (dt->size == 4) {
			/* A float in [-1, 1) \ {0}: sign, exponent 96..126, random mantissa. */
			uint32_t bits = (uint32_t)(r >> 32);
			uint32_t e = 96 + (uint32_t)((r >> 8) % 31);
			((uint32_t *)p)[i] = (bits & 0x80000000u) | (e << 23) | (bits & 0x7fffffu);
		} else if (dt->size == 8) {
			uint64_t e = 992 + ((r >> 3) % 31);
			((uint64_t *)p)[i] = (r & 0x800fffffffffffffULL) | (e << 52);
		} else {
			/* A finite half, never zero: exponent 1..30. */
			uint16_t bits = (uint16_t)(r >> 48);
			uint16_t e = (uint16_t)(1 + (r >> 20) % 30);
			((uint16_t *)p)[i] = (uint16_t)((bits & 0x83ffu) | (e << 10));
		}
	}
}

static int upload_size(struct bench *b)
{
	for (int k = 0; k < b->nsets; k++)
		if (CU(cu.MemAlloc(&b->in[k], b->in_bytes)) || CU(cu.MemcpyHtoD(b->in[k], b->host_in[k], b->in_bytes)))
			return -1;
	if (CU(cu.MemAlloc(&b->out_base, b->out_bytes + 2 * GUARD)))
		return -1;
	b->out = b->out_base + GUARD;
	if (b->f->check == CHECK_EXACT &&
	    (CU(cu.MemAlloc(&b->expected, b->out_bytes)) ||
	     CU(cu.MemcpyHtoD(b->expected, b->host_expected[0], b->out_bytes))))
		return -1;
	if (CU(cu.MemsetD8Async(b->out_base, GUARD_BYTE, b->out_bytes + 2 * GUARD, b->stream)) ||
	    CU(cu.StreamSynchronize(b->stream)))
		return -1;
	/* Hot timing keeps one placement: its figure is that of data the
	 * previous launch left in L2, which eight placements of up to 64 MiB
	 * would not all find there. */
	if (b->hot || !placed(b->in_bytes, b->out_bytes))
		return 0;
	/* The placements' input: input set 0 (the one timed) over and over,
	 * so that every placement reads whole elements of it. */
	size_t span = b->in_bytes + PLACE_SPAN;
	if (CU(cu.MemAlloc(&b->place_in, span)) || CU(cu.MemAlloc(&b->place_out, b->out_bytes + PLACE_SPAN)))
		return -1;
	for (size_t at = 0; at < span; at += b->in_bytes)
		if (CU(cu.MemcpyDtoDAsync(b->place_in + at, b->in[0],
					  span - at < b->in_bytes ? span - at : b->in_bytes, b->stream)))
			return -1;
	if (CU(cu.StreamSynchronize(b->stream)))
		return -1;
	return 0;
}

/* The driver's cuTensorMapEncodeTiled as transpose-maps.h calls it. */
static int encode_map(void *map, int dtype, uint32_t rank, void *base, const uint64_t *dims, const uint64_t *strides,
		      const uint32_t *box, const uint32_t *element_strides, int interleave, int swizzle, int l2, int oob)
{
	return (int)cu.TensorMapEncodeTiled((CUtensorMap *)map, (CUtensorMapDataType)dtype, rank, base, dims, strides,
					    box, element_strides, (CUtensorMapInterleave)interleave,
					    (CUtensorMapSwizzle)swizzle, (CUtensorMapL2promotion)l2,
					    (CUtensorMapFloatOOBfill)oob);
}

/* The buffers placement `place` reads and writes (0: the input set's and
 * the output itself, whose output is checked; the others timed only). */
static void placement(const struct bench *b, int place, CUdeviceptr *in, CUdeviceptr *out)
{
	*in = place ? b->place_in + place_offset(place) : b->in[b->set];
	*out = place ? b->place_out + place_offset(place) : b->out;
}

/* Point v's tensor maps for placement `place`, when its kernel takes them:
 * built before its launches are queued, since encoding them is host work
 * the timing events would count.  1 when v takes maps (built, or left
 * invalid where they cannot be: its kernel then moves every block on the
 * element path), 0 when not. */
static int build_maps(struct bench *b, const int *v, int place)
{
	unsigned stripe, width;
	if (!b->f->tensor_maps || !b->f->tensor_maps(v, &stripe, &width))
		return 0;
	if (!b->maps)
		b->maps = aligned_alloc(128, PLACES * sizeof(*b->maps));
	if (!b->maps)
		die("out of memory");
	CUdeviceptr in, out;
	placement(b, place, &in, &out);
	gputune_tmaps_build(cu.TensorMapEncodeTiled ? encode_map : NULL, &b->maps[place], (const void *)(uintptr_t)in,
			    (void *)(uintptr_t)out, (uint64_t)b->d.rows, (uint64_t)b->d.cols, (uint32_t)b->dt->size,
			    stripe, width);
	return 1;
}

/* The arguments of the family's kernels at the prepared size, reading in
 * and writing out (ARGS_GEMM: A, then B, in one buffer). */
struct kernel_args {
	CUdeviceptr in, b, out;
	unsigned rows, cols;
	int m, n, k;
	unsigned long long len;
	void *p[6];
};

static void **family_args(struct bench *b, CUdeviceptr in, CUdeviceptr out, struct kernel_args *a)
{
	a->in = in;
	a->out = out;
	a->rows = (unsigned)b->d.rows;
	a->cols = (unsigned)b->d.cols;
	a->m = (int)b->d.rows;
	a->n = (int)b->d.cols;
	a->k = (int)b->d.depth;
	a->len = (unsigned long long)b->f->in_elems(&b->d);
	a->b = a->in + (size_t)a->m * (size_t)a->k * b->dt->size;
	switch (b->f->args) {
	case ARGS_VECTOR:
		a->p[0] = &a->in, a->p[1] = &a->out, a->p[2] = &b->scratch, a->p[3] = &a->len;
		break;
	case ARGS_GEMM:
		a->p[0] = &a->in, a->p[1] = &a->b, a->p[2] = &a->out;
		a->p[3] = &a->m, a->p[4] = &a->n, a->p[5] = &a->k;
		break;
	default:
		a->p[0] = &a->in, a->p[1] = &a->out, a->p[2] = &a->rows, a->p[3] = &a->cols;
	}
	return a->p;
}

/* CHECK_GPU_REFERENCE: what the judge reads, per input set, from the
 * family's reference kernel in the support module (16 x 16 threads per
 * block, one per output element, one block per 16 x 16 tile of C in a
 * one-dimensional grid). */
static int gpu_reference(struct bench *b)
{
	char name[64];
	snprintf(name, sizeof(name), "%s_%s", b->f->gpu_reference, b->dt->name);
	CUfunction fn;
	CUdeviceptr ref = 0;
	size_t bytes = expected_bytes(b->f, b->dt, &b->d);
	int rc = -1;
	if (CU(cu.ModuleGetFunction(&fn, b->support, name)) || CU(cu.MemAlloc(&ref, bytes)))
		goto out;
	for (int k = 0; k < b->nsets; k++) {
		struct kernel_args a;
		void **p = family_args(b, b->in[k], ref, &a);
		unsigned tiles = (unsigned)(((b->d.rows + 15) / 16) * ((b->d.cols + 15) / 16));
		if (CU(cu.LaunchKernel(fn, tiles, 1, 1, 16, 16, 1, 0, b->stream, p, NULL)) ||
		    CU(cu.StreamSynchronize(b->stream)) || CU(cu.MemcpyDtoH(b->host_expected[k], ref, bytes)))
			goto out;
	}
	rc = 0;
out:
	if (ref)
		cu.MemFree(ref);
	return rc;
}

int bench_prepare(struct bench *b, const struct family *f, const struct dtype *dt, const struct dims *d)
{
	free_size(b);
	free_host(b);
	b->f = f;
	b->dt = dt;
	b->d = *d;
	b->set = 0;
	b->nsets = f->nsets > 1 ? 2 : 1;
	b->in_bytes = f->in_elems(d) * dt->size;
	b->out_bytes = f->out_bytes(dt, d);
	size_t expected = expected_bytes(f, dt, d);
	b->host_out = xmalloc(b->out_bytes);
	uint64_t seed = (uint64_t)(now_seconds() * 1e9) ^ ((uint64_t)d->rows << 32) ^ (uint64_t)d->cols ^
			((uint64_t)d->depth << 16);
	for (int k = 0; k < b->nsets; k++) {
		b->host_in[k] = xmalloc(b->in_bytes);
		b->host_expected[k] = xcalloc(1, expected);
		if (f->fill)
			f->fill(b->host_in[k], dt, d, seed, k);
		else
			fill_random(b->host_in[k], f->in_elems(d), dt, seed);
		if (f->reference)
			f->reference(b->host_in[k], b->host_expected[k], dt, d);
	}
	if (upload_size(b) < 0)
		return -1;
	return f->check == CHECK_GPU_REFERENCE ? gpu_reference(b) : 0;
}

void bench_set_reps(struct bench *b, int reps)
{
	assert(reps >= 1 && reps <= b->max_reps);
	b->reps = reps;
}

double bench_gbps(double bytes, double ms)
{
	return bytes / (ms * 1e-3) / 1e9;
}

double bench_work(const struct bench *b)
{
	return b->f->work(b->dt, &b->d);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double quantile(const double *sorted, int n, double q)
{
	double pos = q * (n - 1);
	int lo = (int)floor(pos), hi = (int)ceil(pos);
	return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/* The launch being timed, as a callback: a kernel with the family's
 * arguments, the copy ceiling's kernel or cuMemcpy, or a read. */
enum launch_kind { LAUNCH_FAMILY, LAUNCH_COPY, LAUNCH_MEMCPY, LAUNCH_READ, LAUNCH_FMA };
struct launch {
	CUfunction fn;
	const struct launch_geometry *geo;
	int kind;
	int maps; /* the kernel takes b->maps[place] after the family's arguments */
};

/* One launch at placement `place` (0: the buffers themselves, whose
 * output is checked; the others are timed only, from input set 0). */
static CUresult do_launch(struct bench *b, const struct launch *l, int place)
{
	struct kernel_args a;
	assert(place == 0 || b->set == 0);
	CUdeviceptr in, out;
	placement(b, place, &in, &out);
	void **params = family_args(b, in, out, &a);
	if (l->maps) {
		assert(b->f->args == ARGS_MATRIX);
		a.p[4] = &b->maps[place];
	}
	unsigned long long in_bytes = b->in_bytes;
	int iters = FMA_ITERS;
	void *read[] = { &a.in, &in_bytes, &b->result };
	void *fma[] = { &b->result, &iters };
	switch (l->kind) {
	case LAUNCH_MEMCPY:
		return cu.MemcpyDtoDAsync(out, in, b->in_bytes, b->stream);
	case LAUNCH_READ:
		params = read;
		break;
	case LAUNCH_FMA:
		params = fma;
		break;
	}
	return cu.LaunchKernel(l->fn, l->geo->grid[0], l->geo->grid[1], l->geo->grid[2], l->geo->block[0],
			       l->geo->block[1], l->geo->block[2], l->geo->smem, b->stream, params, NULL);
}

/* An empty launch (gt_fma of no iterations, one warp) on the stream. */
static CUresult idle_launch(struct bench *b)
{
	int none = 0;
	void *args[] = { &b->result, &none };
	return cu.LaunchKernel(b->fma, 1, 1, 1, 32, 1, 1, 0, b->stream, args, NULL);
}

/* Warm-up, then reps launches each between two events (after an L2 flush
 * unless hot, and an empty launch before every other one), each waited
 * for before the next is queued.
 *
 * The empty launches are there because a kernel that takes tensor maps
 * (rowclass) runs at one of two speeds by how many launches came before
 * it on the stream.  On H200s, f16 rowclass kernels timed 30 launches at a
 * time read up to 5% apart from one measurement to the next, and one more
 * launch before a measurement moved its median from one speed to the
 * other; kernels without maps held within 1%.  With a flush and a launch
 * per step, a measurement's median so depended on what ran before it.
 * With an empty launch every other step its launches fall on both speeds,
 * and the medians held within 2% (within 1% over 200 launches).
 *
 * Each launch is waited for because, when hundreds are queued ahead, the
 * events around a launch also hold part of the GPU's work of taking it
 * from the queue, which on an H200 added 0.6 us to a 6 us kernel launched
 * through the runtime and 1.2 us through the driver, so the same kernel
 * measured 9% apart by how it was launched.  Waited for, both read the
 * same to within 0.6%.  Launch i runs at placement i % places(b).
 * Returns the CUresult of the first failure. */
static CUresult time_launches(struct bench *b, const struct launch *l, struct timing *t)
{
	CUresult r;
	for (int i = 0; i < 3; i++)
		if ((r = do_launch(b, l, i % places(b))) != CUDA_SUCCESS)
			return r;
	double *ms = xcalloc((size_t)b->reps, sizeof(double));
	for (int i = 0; i < b->reps; i++) {
		float f = 0;
		if ((!b->hot && (r = cu.MemsetD32Async(b->flush, (unsigned)i, b->flush_bytes / 4, b->stream))) ||
		    (i % 2 && (r = idle_launch(b))) || (r = cu.EventRecord(b->start, b->stream)) ||
		    (r = do_launch(b, l, i % places(b))) || (r = cu.EventRecord(b->stop, b->stream)) ||
		    (r = cu.EventSynchronize(b->stop)) || (r = cu.EventElapsedTime(&f, b->start, b->stop))) {
			free(ms);
			return r;
		}
		ms[i] = f;
	}
	qsort(ms, (size_t)b->reps, sizeof(double), cmp_double);
	t->launches = b->reps;
	t->min_ms = ms[0];
	t->max_ms = ms[b->reps - 1];
	t->median_ms = quantile(ms, b->reps, 0.5);
	t->p25_ms = quantile(ms, b->reps, 0.25);
	t->p75_ms = quantile(ms, b->reps, 0.75);
	free(ms);
	return CUDA_SUCCESS;
}

/* The best rate of a support kernel over three grid shapes ({threads,
 * blocks per SM}) that cover the GPU: work per launch is `fixed` plus
 * `per_thread` for each thread launched. */
static int best_of_shapes(struct bench *b, CUfunction fn, int kind, const unsigned shapes[3][2], double fixed,
			  double per_thread, double *rate)
{
	*rate = 0;
	for (size_t i = 0; i < 3; i++) {
		struct launch_geometry geo = { { shapes[i][1] * (unsigned)b->g.sm_count, 1, 1 }, { shapes[i][0], 1, 1 }, 0 };
		struct launch l = { fn, &geo, kind, 0 };
		struct timing t;
		if (CU(time_launches(b, &l, &t)))
			return -1;
		double g = bench_gbps(fixed + per_thread * (double)geo.grid[0] * (double)geo.block[0], t.median_ms);
		*rate = g > *rate ? g : *rate;
	}
	return 0;
}

/* The read ceiling: gt_read (support.cu), every byte of the input read once. */
static int read_ceiling(struct bench *b, double *gbps)
{
	static const unsigned shapes[3][2] = { { 256, 8 }, { 512, 4 }, { 1024, 2 } };
	return best_of_shapes(b, b->read, LAUNCH_READ, shapes, (double)b->in_bytes, 0, gbps);
}

/* The FMA ceiling: gt_fma (support.cu), FMA_CHAINS independent chains of
 * FMA_ITERS fused multiply-adds per thread, over grids that fill the GPU
 * several times, in GFLOP/s. */
static int fma_ceiling(struct bench *b, double *gflops)
{
	static const unsigned shapes[3][2] = { { 128, 16 }, { 256, 8 }, { 512, 4 } };
	return best_of_shapes(b, b->fma, LAUNCH_FMA, shapes, 0, 2.0 * FMA_CHAINS * FMA_ITERS, gflops);
}

/* A second of back-to-back flushes before the run's first ceiling, so that
 * the first size is measured on a GPU as warm as the later ones: on an H200
 * that had idled, the copy ceiling at f16 1024 x 1024 read 819 GB/s where
 * the same copy read 832-835 after a second of work, which made that
 * size's shares of the ceiling look 2% better than they were. */
static int warm_up(struct bench *b)
{
	float ms = 0;
	for (float busy = 0; busy < 1000; busy += ms) {
		if (CU(cu.EventRecord(b->start, b->stream)))
			return -1;
		for (unsigned i = 0; i < 100; i++)
			if (CU(cu.MemsetD32Async(b->flush, i, b->flush_bytes / 4, b->stream)))
				return -1;
		if (CU(cu.EventRecord(b->stop, b->stream)) || CU(cu.EventSynchronize(b->stop)) ||
		    CU(cu.EventElapsedTime(&ms, b->start, b->stop)))
			return -1;
	}
	b->warm = 1;
	return 0;
}

int bench_ceiling(struct bench *b, const void *copy_cubin, const struct launch_geometry *copy_geo,
		  double *memcpy_gbps, double *kernel_gbps)
{
	if (!b->warm && warm_up(b) < 0)
		return -1;
	if (b->f->ceiling == CEILING_READ) {
		*memcpy_gbps = 0;
		return read_ceiling(b, kernel_gbps);
	}
	if (b->f->ceiling == CEILING_FMA) {
		*memcpy_gbps = 0;
		return fma_ceiling(b, kernel_gbps);
	}
	/* The ceiling copies the input's bytes; for a transpose that is also
	 * what one launch moves. */
	double bytes = 2.0 * (double)b->in_bytes;
	struct timing t;
	struct launch mc = { NULL, NULL, LAUNCH_MEMCPY, 0 };
	if (CU(time_launches(b, &mc, &t)))
		return -1;
	*memcpy_gbps = bench_gbps(bytes, t.median_ms);
	CUmodule m;
	CUfunction fn;
	if (CU(cu.ModuleLoadData(&m, copy_cubin)))
		return -1;
	if (CU(cu.ModuleGetFunction(&fn, m, family_copy.kernel_name))) {
		cu.ModuleUnload(m);
		return -1;
	}
	struct launch kl = { fn, copy_geo, LAUNCH_COPY, 0 };
	CUresult r = CU(time_launches(b, &kl, &t));
	cu.ModuleUnload(m);
	if (r)
		return -1;
	*kernel_gbps = bench_gbps(bytes, t.median_ms);
	return 0;
}

static void set_reason(struct variant_result *r, int status, const char *fmt, ...) GT_PRINTF(3, 4);
static void set_reason(struct variant_result *r, int status, const char *fmt, ...)
{
	va_list ap;
	r->status = status;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
}

/* Records a failed driver call into r: a fault when the context is lost. */
static int fail_call(struct variant_result *r, CUresult e, const char *what)
{
	if (cuda_error_is_sticky(e)) {
		set_reason(r, VS_FAULT, "%s: %s", what, cuda_error_name(e));
		return -1;
	}
	set_reason(r, VS_LAUNCH_FAILED, "%s: %s", what, cuda_error_name(e));
	return 0;
}

/* The guards around the output and, for bit-exact families, the output
 * against the expected one, on the GPU; then, for the others, the output
 * copied back and judged by the family.  Fills r on a difference. */
static int check_output(struct bench *b, const int *v, struct variant_result *r)
{
	uint64_t init[4] = { 0, ~0ULL, 0, 0 }, res[4];
	CUresult e;
	unsigned long long units = b->out_bytes / 2, guard = GUARD;
	unsigned int gv = GUARD_BYTE;
	void *cmp[] = { &b->out, &b->expected, &units, &b->result };
	CUdeviceptr after = b->out + b->out_bytes;
	void *g1[] = { &b->out_base, &guard, &gv, &b->result };
	void *g2[] = { &after, &guard, &gv, &b->result };
	int exact = b->f->check == CHECK_EXACT;
	if ((e = cu.MemcpyHtoD(b->result, init, sizeof(init))) ||
	    (exact &&
	     (e = cu.LaunchKernel(b->compare, CHECK_BLOCKS, 1, 1, CHECK_THREADS, 1, 1, 0, b->stream, cmp, NULL))) ||
	    (e = cu.LaunchKernel(b->check_fill, 64, 1, 1, CHECK_THREADS, 1, 1, 0, b->stream, g1, NULL)) ||
	    (e = cu.LaunchKernel(b->check_fill, 64, 1, 1, CHECK_THREADS, 1, 1, 0, b->stream, g2, NULL)) ||
	    (e = cu.StreamSynchronize(b->stream)) || (e = cu.MemcpyDtoH(res, b->result, sizeof(res))))
		return fail_call(r, e, "checking the output");
	if (res[0]) {
		/* res[0] counts 2-byte words; res[1] is the first differing byte. */
		size_t elem = res[1] / b->dt->size;
		set_reason(r, VS_WRONG,
			   "output differs from the reference in %llu 2-byte words of %zu "
			   "(first at element %zu: output row %zu, column %zu)",
			   (unsigned long long)res[0], b->out_bytes / 2, elem, elem / (size_t)b->d.rows,
			   elem % (size_t)b->d.rows);
	} else if (res[2]) {
		set_reason(r, VS_WRONG, "wrote outside the output (%llu guard bytes changed)",
			   (unsigned long long)res[2]);
		/* Restore the guards for the next variant. */
		if ((e = cu.MemsetD8Async(b->out_base, GUARD_BYTE, GUARD, b->stream)) ||
		    (e = cu.MemsetD8Async(after, GUARD_BYTE, GUARD, b->stream)))
			return fail_call(r, e, "restoring the guards");
	} else if (!exact) {
		if ((e = cu.MemcpyDtoH(b->host_out, b->out, b->out_bytes)))
			return fail_call(r, e, "reading the output back");
		char why[sizeof(r->reason)];
		const char *bad = b->f->judge(b->host_expected[b->set], b->host_out, v, b->dt, &b->d, b->set, why,
					      sizeof(why));
		if (bad)
			set_reason(r, VS_WRONG, "%s", bad);
	}
	return 0;
}

/* Scratch memory for point v, zeroed: grown when too small. */
static CUresult zero_scratch(struct bench *b, const int *v)
{
	size_t need = b->f->scratch_bytes ? b->f->scratch_bytes(v, b->dt, &b->d) : 0;
	CUresult e;
	if (need > b->scratch_bytes) {
		if (b->scratch)
			cu.MemFree(b->scratch);
		b->scratch = 0;
		b->scratch_bytes = 0;
		if ((e = cu.MemAlloc(&b->scratch, need)))
			return e;
		b->scratch_bytes = need;
	}
	return need ? cu.MemsetD8Async(b->scratch, 0, need, b->stream) : CUDA_SUCCESS;
}

int bench_variant(struct bench *b, const void *cubin, const char *kernel_name, const int *v,
		  const struct launch_geometry *geo, struct variant_result *r)
{
	memset(r, 0, sizeof(*r));
	CUmodule m = NULL;
	CUfunction fn;
	CUresult e;
	if ((e = cu.ModuleLoadData(&m, cubin)))
		return fail_call(r, e, "loading the module");
	if ((e = cu.ModuleGetFunction(&fn, m, kernel_name))) {
		cu.ModuleUnload(m);
		return fail_call(r, e, "finding the kernel");
	}
	int rc = 0;
	struct launch l = { fn, geo, LAUNCH_FAMILY, 0 };
	double t0 = now_seconds(), t1 = 0;
	/* Scratch zeroed once: no launch after may need it zeroed.  Then per input
	 * set, the last the timed one: poison the output, run once, check. */
	if ((e = zero_scratch(b, v))) {
		rc = fail_call(r, e, "making the scratch memory");
		goto out;
	}
	for (int set = b->nsets - 1; set >= 0; set--) {
		b->set = set;
		l.maps = build_maps(b, v, 0);
		if ((e = cu.MemsetD8Async(b->out, POISON_BYTE, b->out_bytes, b->stream)) ||
		    (e = do_launch(b, &l, 0)) || (e = cu.StreamSynchronize(b->stream))) {
			rc = fail_call(r, e, "the checked launch");
			goto out;
		}
		rc = check_output(b, v, r);
		if (rc < 0 || r->status != VS_OK)
			break;
	}
	t1 = now_seconds();
	r->verify_s = t1 - t0;
	if (rc < 0 || r->status != VS_OK)
		goto out;
	/* Placement 0's maps are the timed set's, built for its check. */
	for (int place = 1; place < places(b); place++)
		build_maps(b, v, place);
	if ((e = time_launches(b, &l, &r->t))) {
		rc = fail_call(r, e, "a timed launch");
		goto out;
	}
	r->timing_s = now_seconds() - t1;
out:
	if (t1 == 0)
		r->verify_s = now_seconds() - t0;
	if (rc == 0)
		cu.ModuleUnload(m);
	return rc;
}
