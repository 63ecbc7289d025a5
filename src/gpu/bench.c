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
#include "gpu/bench-state.h"
#include "gpu/bench.h"
#include "gpu/placement.h"
#include "families/tensor-maps.h"
#include "util/util.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	    CU(cu.ModuleGetFunction(&b->check_bound, b->support, "gt_check_bound")) ||
	    CU(cu.ModuleGetFunction(&b->check_pairs, b->support, "gt_check_pairs")) ||
	    CU(cu.ModuleGetFunction(&b->read, b->support, "gt_read")) ||
	    CU(cu.ModuleGetFunction(&b->fma, b->support, "gt_fma")) ||
	    CU(cu.ModuleGetFunction(&b->warm_fn, b->support, "gt_warm")))
		return -1;
	b->flush_bytes = (size_t)(b->g.l2_bytes > 0 ? b->g.l2_bytes : 64 << 20) * 2;
	if (CU(cu.MemAlloc(&b->flush, b->flush_bytes)) || CU(cu.MemAlloc(&b->result, 4 * sizeof(uint64_t))))
		return -1;
	return warm_up_start(b);
}

struct bench *bench_open(const struct gpu_info *g, const void *support_cubin, int reps, int hot)
{
	struct bench *b = xcalloc(1, sizeof(*b));
	b->g = *g;
	b->reps = reps;
	b->budget_ms = BENCH_BUDGET_MS;
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
	for (int k = 0; k < 2; k++) {
		if (b->in[k])
			cu.MemFree(b->in[k]);
		if (b->bound_ref[k])
			cu.MemFree(b->bound_ref[k]);
		b->bound_ref[k] = 0;
	}
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
int places(const struct bench *b)
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
	if (b->warm_done)
		cu.EventDestroy(b->warm_done);
	if (b->warm_stream)
		cu.StreamDestroy(b->warm_stream);
	if (b->stream)
		cu.StreamDestroy(b->stream);
	b->warm_done = NULL;
	b->warm_stream = NULL;
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

/* How CHECK_REFERENCE checks an output: bit for bit (no bound), within
 * the bound on the GPU (f32 and f64, through gt_check_bound), or by the
 * family's judge on the host. */
enum { REF_EXACT, REF_BOUND, REF_JUDGE };
static int reference_mode(const struct family *f, const struct dtype *dt)
{
	if (f->abs_tol == 0 && f->rel_tol == 0)
		return REF_EXACT;
	return dt->acc_eps > 0 && dt->acc_size == dt->size ? REF_BOUND : REF_JUDGE;
}

/* Bytes per input set of what a variant's output is checked against: the
 * expected output itself (CHECK_EXACT), the GPU reference's output
 * (expected_elem bytes per output element), or the host judge's record
 * (expected_bytes, and expected_elem bytes per output element). */
static size_t expected_bytes(const struct family *f, const struct dtype *dt, const struct dims *d)
{
	size_t out = f->out_bytes(dt, d);
	if (f->check == CHECK_REFERENCE) /* REF_BOUND: gt_check_bound's reference and magnitudes */
		return reference_mode(f, dt) == REF_BOUND ? out / dt->size * 12 : out;
	return f->check == CHECK_EXACT					  ? out
	       : f->check == CHECK_GPU_REFERENCE || f->check == CHECK_BOUND ? out / dt->size * f->expected_elem
									  : f->expected_bytes + out / dt->size * f->expected_elem;
}

/* CHECK_GPU_REFERENCE with a bound: the reference's pairs stay on the GPU,
 * which checks each output against them (gt_check_pairs). */
static int gpu_checks(const struct family *f)
{
	return f->check == CHECK_GPU_REFERENCE && f->bound_gamma;
}

size_t bench_bytes_needed(const struct gpu_info *g, const struct family *f, const struct dtype *dt,
			  const struct dims *d)
{
	size_t in = f->in_elems(d) * dt->size * (size_t)(f->nsets > 1 ? f->nsets : 1);
	size_t out = f->out_bytes(dt, d);
	/* Scratch memory: per-block partials at most, never more than the input. */
	size_t scratch = f->args == ARGS_USER && f->scratch_bytes ? f->scratch_bytes(NULL, dt, d)
			 : f->scratch_bytes			  ? f->in_elems(d) * dt->size + (1u << 20)
								  : 0;
	/* The GPU reference's output, while it is made, or kept for the check
	 * on the GPU (gpu_checks), one per input set as CHECK_BOUND's. */
	size_t nsets = (size_t)(f->nsets > 1 ? f->nsets : 1);
	size_t ref = gpu_checks(f) || f->check == CHECK_BOUND		    ? expected_bytes(f, dt, d) * nsets
		     : f->check == CHECK_GPU_REFERENCE || f->check == CHECK_REFERENCE ? expected_bytes(f, dt, d)
										      : 0;
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
	/* CHECK_REFERENCE: filled by bench_reference. */
	if (b->f->check == CHECK_REFERENCE && reference_mode(b->f, b->dt) == REF_EXACT &&
	    CU(cu.MemAlloc(&b->expected, b->out_bytes)))
		return -1;
	if (b->f->check == CHECK_REFERENCE && reference_mode(b->f, b->dt) == REF_BOUND &&
	    CU(cu.MemAlloc(&b->bound_ref[0], expected_bytes(b->f, b->dt, &b->d))))
		return -1;
	size_t ref_bytes = expected_bytes(b->f, b->dt, &b->d);
	for (int k = 0; b->f->check == CHECK_BOUND && k < b->nsets; k++)
		if (CU(cu.MemAlloc(&b->bound_ref[k], ref_bytes)) ||
		    CU(cu.MemcpyHtoD(b->bound_ref[k], b->host_expected[k], ref_bytes)))
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

/* The driver's cuTensorMapEncodeTiled as tensor-maps.h calls it. */
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
void placement(const struct bench *b, int place, CUdeviceptr *in, CUdeviceptr *out)
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

void **family_args(struct bench *b, CUdeviceptr in, CUdeviceptr out, struct kernel_args *a)
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
	case ARGS_USER: {
		int i = 0;
		for (; i < b->f->nbuffers; i++) {
			int role = b->f->buffers[i].role;
			a->bufs[i] = (role == BUF_INPUT ? in : role == BUF_OUTPUT ? out : b->scratch) + b->buf_off[i];
			a->p[i] = &a->bufs[i];
		}
		a->len = (unsigned long long)b->d.rows;
		if (b->f->shape == SHAPE_1D)
			a->p[i++] = &a->len;
		else if (b->f->shape == SHAPE_2D)
			a->p[i++] = &a->rows, a->p[i++] = &a->cols;
		else
			a->p[i++] = &a->m, a->p[i++] = &a->n, a->p[i++] = &a->k;
		break;
	}
	default:
		a->p[0] = &a->in, a->p[1] = &a->out, a->p[2] = &a->rows, a->p[3] = &a->cols;
	}
	return a->p;
}

/* CHECK_GPU_REFERENCE: what the judge reads, per input set, from the
 * family's reference kernel in the support module, launched as the family
 * says; kept on the GPU too where the GPU checks (gpu_checks). */
static int gpu_reference(struct bench *b)
{
	char name[64];
	snprintf(name, sizeof(name), "%s_%s", b->f->gpu_reference, b->dt->name);
	CUfunction fn;
	CUdeviceptr ref = 0;
	size_t bytes = expected_bytes(b->f, b->dt, &b->d);
	int rc = -1;
	if (CU(cu.ModuleGetFunction(&fn, b->support, name)))
		goto out;
	for (int k = 0; k < b->nsets; k++) {
		if (!ref && CU(cu.MemAlloc(&ref, bytes)))
			goto out;
		struct kernel_args a;
		void **p = family_args(b, b->in[k], ref, &a);
		struct launch_geometry g = {0};
		b->f->gpu_reference_geometry(&b->d, &g);
		if (CU(cu.LaunchKernel(fn, g.grid[0], g.grid[1], g.grid[2], g.block[0], g.block[1], g.block[2], g.smem,
				       b->stream, p, NULL)) ||
		    CU(cu.StreamSynchronize(b->stream)))
			goto out;
		if (gpu_checks(b->f)) {
			/* Kept on the GPU, which checks against it; the host's
			 * copy waits for a failure to word (judge_reason). */
			b->bound_ref[k] = ref; /* freed with the size */
			ref = 0;
		} else if (CU(cu.MemcpyDtoH(b->host_expected[k], ref, bytes))) {
			goto out;
		}
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
	b->copy_bytes = b->in_bytes < b->out_bytes ? b->in_bytes : b->out_bytes;
	if (f->buffer_offsets)
		f->buffer_offsets(dt, d, b->buf_off);
	size_t expected = expected_bytes(f, dt, d);
	b->host_out = xmalloc(b->out_bytes);
	uint64_t seed = (uint64_t)(now_seconds() * 1e9) ^ ((uint64_t)d->rows << 32) ^ (uint64_t)d->cols ^
			((uint64_t)d->depth << 16);
	for (int k = 0; k < b->nsets; k++) {
		b->host_in[k] = xmalloc(b->in_bytes);
		/* Where the GPU checks, the host's copy of the reference is
		 * made only to word a failure (judge_reason). */
		b->host_expected[k] = gpu_checks(f) ? NULL : xcalloc(1, expected);
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

void bench_set_hopeless(struct bench *b, double hopeless_ms)
{
	b->hopeless_ms = hopeless_ms > 0 ? hopeless_ms : 0;
}

void bench_set_reps(struct bench *b, int reps, int budget)
{
	assert(reps >= 1 && reps <= b->max_reps);
	b->reps = reps;
	b->budget_ms = budget ? BENCH_BUDGET_MS : 0;
}

double bench_gbps(double bytes, double ms)
{
	return bytes / (ms * 1e-3) / 1e9;
}

double bench_work(const struct bench *b)
{
	return b->f->work(b->dt, &b->d);
}

size_t bench_copy_elems(const struct bench *b)
{
	return b->copy_bytes / b->dt->size;
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

/* CHECK_BOUND's reason for res (count, first element) on input set
 * b->set, with gamma the bound's factor. */
static int bound_reason(struct bench *b, const uint64_t *res, double gamma, struct variant_result *r)
{
	size_t n = b->out_bytes / b->dt->size, i = (size_t)res[1];
	const double *ref = b->host_expected[b->set];
	const float *mag = (const float *)(ref + n);
	unsigned char raw[8] = {0};
	CUresult e = cu.MemcpyDtoH(raw, b->out + i * b->dt->acc_size, b->dt->acc_size);
	if (e)
		return fail_call(r, e, "reading the output back");
	double o;
	if (b->dt->acc_eps == 0) {
		uint32_t u;
		memcpy(&u, raw, 4);
		o = u;
	} else if (b->dt->acc_size == 8) {
		memcpy(&o, raw, 8);
	} else {
		float x;
		memcpy(&x, raw, 4);
		o = x;
	}
	if (b->f->check == CHECK_REFERENCE)
		set_reason(r, VS_WRONG,
			   "%llu of %zu elements differ from the reference by more than %g + %g x its magnitude, the "
			   "first at element %zu: %.9g, reference %.9g", (unsigned long long)res[0], n, b->f->abs_tol,
			   b->f->rel_tol, i, o, ref[i]);
	else if (gamma == 0)
		set_reason(r, VS_WRONG,
			   "%llu of %zu elements differ from the exact result on input set %d, the first at element "
			   "%zu: %.17g, expected %.17g", (unsigned long long)res[0], n, b->set, i, o, ref[i]);
	else
		set_reason(r, VS_WRONG,
			   "%llu of %zu elements past the error bound on input set %d, the first at element %zu: %.9g, "
			   "reference %.9g, error %.3g exceeds %.3g x the magnitude %.4g", (unsigned long long)res[0], n,
			   b->set, i, o, ref[i], fabs(o - ref[i]), gamma, (double)mag[i]);
	return 0;
}

/* Restores the guards around the output after a launch changed them. */
static CUresult restore_guards(struct bench *b)
{
	CUresult e = cu.MemsetD8Async(b->out_base, GUARD_BYTE, GUARD, b->stream);
	return e ? e : cu.MemsetD8Async(b->out + b->out_bytes, GUARD_BYTE, GUARD, b->stream);
}

/* Queues the count of changed guard bytes around the output into
 * result[2]. */
static CUresult check_guards(struct bench *b)
{
	unsigned long long guard = GUARD;
	unsigned int gv = GUARD_BYTE;
	CUdeviceptr after = b->out + b->out_bytes;
	void *g1[] = { &b->out_base, &guard, &gv, &b->result };
	void *g2[] = { &after, &guard, &gv, &b->result };
	CUresult e = cu.LaunchKernel(b->check_fill, 64, 1, 1, CHECK_THREADS, 1, 1, 0, b->stream, g1, NULL);
	return e ? e : cu.LaunchKernel(b->check_fill, 64, 1, 1, CHECK_THREADS, 1, 1, 0, b->stream, g2, NULL);
}

/* The output copied back and judged by the family on the host, the
 * reason of a wrong one in r.  gpu: what the GPU's check counted (a count
 * and the first element), or NULL where the judge alone decides; the
 * judge words what the GPU found, and should it pass the output, the
 * GPU's count is the reason. */
static int judge_reason(struct bench *b, const int *v, const uint64_t *gpu, struct variant_result *r)
{
	CUresult e = cu.MemcpyDtoH(b->host_out, b->out, b->out_bytes);
	if (e)
		return fail_call(r, e, "reading the output back");
	if (!b->host_expected[b->set]) { /* gpu_checks: the reference stayed on the GPU */
		size_t bytes = expected_bytes(b->f, b->dt, &b->d);
		void *copy = xmalloc(bytes);
		/* Kept only once read whole: a copy cut short must not be
		 * taken for the reference at the next failure. */
		if ((e = cu.MemcpyDtoH(copy, b->bound_ref[b->set], bytes))) {
			free(copy);
			return fail_call(r, e, "reading the reference back");
		}
		b->host_expected[b->set] = copy;
	}
	char why[sizeof(r->reason)];
	const char *bad =
		b->f->judge(b->host_expected[b->set], b->host_out, v, b->dt, &b->d, b->set, why, sizeof(why));
	if (bad) {
		set_reason(r, VS_WRONG, "%s", bad);
	} else if (gpu) {
		size_t cols = b->d.cols > 0 ? (size_t)b->d.cols : 1;
		set_reason(r, VS_WRONG,
			   "%llu outputs outside the bound in the GPU's check (first at row %zu, column %zu; input "
			   "set %d)",
			   (unsigned long long)gpu[0], (size_t)gpu[1] / cols, (size_t)gpu[1] % cols, b->set);
	}
	return 0;
}

/* The guards around the output and, for bit-exact families and those
 * with an error bound (CHECK_BOUND, CHECK_REFERENCE's REF_BOUND and
 * gpu_checks), the output against the expected one, on the GPU; then,
 * for the others, the output copied back and judged by the family.
 * Fills r on a difference. */
static int check_output(struct bench *b, const int *v, struct variant_result *r)
{
	uint64_t init[4] = { 0, ~0ULL, 0, 0 }, res[4];
	CUresult e;
	unsigned long long units = b->out_bytes / 2;
	void *cmp[] = { &b->out, &b->expected, &units, &b->result };
	int ref = b->f->check == CHECK_REFERENCE ? reference_mode(b->f, b->dt) : -1;
	int exact = b->f->check == CHECK_EXACT || ref == REF_EXACT;
	int bound = b->f->check == CHECK_BOUND || ref == REF_BOUND;
	int pairs = gpu_checks(b->f);
	unsigned long long n_out = b->out_bytes / b->dt->size;
	/* The reference's bound is in its magnitudes: gamma 1. */
	double gamma = ref == REF_BOUND ? 1 : bound || pairs ? b->f->bound_gamma(v, b->dt, &b->d, b->set) : 0;
	int kind = b->dt->acc_eps == 0 ? 2 : b->dt->acc_size == 8 ? 1 : 0;
	CUdeviceptr bref = b->bound_ref[b->set], mag = bref + n_out * sizeof(double);
	void *bnd[] = { &b->out, &kind, &bref, &mag, &n_out, &gamma, &b->result };
	int out_kind = b->dt->size == 8; /* the output's elements: 0 float, 1 double */
	void *prs[] = { &b->out, &out_kind, &bref, &n_out, &gamma, &b->result };
	if ((e = cu.MemcpyHtoD(b->result, init, sizeof(init))) ||
	    (exact &&
	     (e = cu.LaunchKernel(b->compare, CHECK_BLOCKS, 1, 1, CHECK_THREADS, 1, 1, 0, b->stream, cmp, NULL))) ||
	    (bound &&
	     (e = cu.LaunchKernel(b->check_bound, CHECK_BLOCKS, 1, 1, CHECK_THREADS, 1, 1, 0, b->stream, bnd, NULL))) ||
	    (pairs &&
	     (e = cu.LaunchKernel(b->check_pairs, CHECK_BLOCKS, 1, 1, CHECK_THREADS, 1, 1, 0, b->stream, prs, NULL))) ||
	    (e = check_guards(b)) || (e = cu.StreamSynchronize(b->stream)) ||
	    (e = cu.MemcpyDtoH(res, b->result, sizeof(res))))
		return fail_call(r, e, "checking the output");
	if (res[0] && bound) {
		if (bound_reason(b, res, gamma, r) < 0)
			return -1;
	} else if (res[0] && pairs) {
		if (judge_reason(b, v, res, r) < 0)
			return -1;
	} else if (res[0]) {
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
	} else if (!exact && !bound && !pairs) {
		return judge_reason(b, v, NULL, r);
	}
	/* Restore the guards for the next variant, whatever the reason given. */
	if (res[2] && (e = restore_guards(b)))
		return fail_call(r, e, "restoring the guards");
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

/* The kernel name of module m, opted in to geo's dynamic shared memory
 * where that is over the 48 KiB a launch gets without opting in (a
 * family's reject allows it only up to the device's opt-in limit). */
static CUresult get_kernel(CUmodule m, const char *name, const struct launch_geometry *geo, CUfunction *fn)
{
	CUresult e = cu.ModuleGetFunction(fn, m, name);
	if (!e && geo->smem > SMEM_WITHOUT_OPTIN)
		e = cu.FuncSetAttribute(*fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)geo->smem);
	return e;
}

/* geo as launched: a resident kernel's grid at most the blocks the device
 * holds of fn at once (its SMs times fn's blocks per SM). */
static struct launch_geometry launched(const struct bench *b, CUfunction fn, const struct launch_geometry *geo)
{
	struct launch_geometry g = *geo;
	int per_sm = 0;
	unsigned threads = g.block[0] * g.block[1] * g.block[2];
	if (g.resident && cu.OccupancyMaxActiveBlocksPerMultiprocessor &&
	    !cu.OccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, (int)threads, g.smem) && per_sm > 0 &&
	    b->g.sm_count > 0 && g.grid[0] > (unsigned)per_sm * (unsigned)b->g.sm_count)
		g.grid[0] = (unsigned)per_sm * (unsigned)b->g.sm_count;
	return g;
}

int bench_reference(struct bench *b, const void *cubin, const char *kernel_name, const int *v,
		    const struct launch_geometry *geo, struct variant_result *r)
{
	memset(r, 0, sizeof(*r));
	CUmodule m = NULL;
	CUfunction fn;
	CUresult e;
	if ((e = cu.ModuleLoadData(&m, cubin)))
		return fail_call(r, e, "loading the reference's module");
	if ((e = get_kernel(m, kernel_name, geo, &fn))) {
		cu.ModuleUnload(m);
		return fail_call(r, e, "finding the reference's kernel");
	}
	const struct launch_geometry g = launched(b, fn, geo);
	struct launch l = { fn, &g, LAUNCH_FAMILY, 0 };
	uint64_t init[4] = { 0, ~0ULL, 0, 0 }, res[4];
	b->set = 0;
	int rc = 0;
	/* Poisoned as a variant's output is, so that what the reference leaves
	 * unwritten a variant must leave so too. */
	if ((e = zero_scratch(b, v)) || (e = cu.MemsetD8Async(b->out, POISON_BYTE, b->out_bytes, b->stream)) ||
	    (e = do_launch(b, &l, 0)) || (e = cu.StreamSynchronize(b->stream))) {
		rc = fail_call(r, e, "the reference's launch");
		goto out;
	}
	int mode = reference_mode(b->f, b->dt);
	/* REF_BOUND's host copy is the bound's (as gt_check_bound reads it):
	 * the output read back first, then made into it. */
	void *raw = mode == REF_BOUND ? xmalloc(b->out_bytes) : b->host_expected[0];
	if ((e = cu.MemcpyHtoD(b->result, init, sizeof(init))) || (e = check_guards(b)) ||
	    (mode == REF_EXACT && (e = cu.MemcpyDtoDAsync(b->expected, b->out, b->out_bytes, b->stream))) ||
	    (e = cu.StreamSynchronize(b->stream)) || (e = cu.MemcpyDtoH(res, b->result, sizeof(res))) ||
	    (e = cu.MemcpyDtoH(raw, b->out, b->out_bytes))) {
		rc = fail_call(r, e, "reading the reference's output");
	} else if (mode == REF_BOUND) {
		size_t n = b->out_bytes / b->dt->size;
		double *ref = b->host_expected[0];
		float *mag = (float *)(ref + n);
		for (size_t i = 0; i < n; i++) {
			ref[i] = b->dt->size == 8 ? ((const double *)raw)[i] : ((const float *)raw)[i];
			mag[i] = (float)(b->f->abs_tol + b->f->rel_tol * fabs(ref[i]));
		}
		if ((e = cu.MemcpyHtoD(b->bound_ref[0], ref, n * 12)))
			rc = fail_call(r, e, "keeping the reference's output");
	}
	if (raw != b->host_expected[0])
		free(raw);
	if (rc < 0 || r->status != VS_OK)
		goto out;
	if (res[2]) {
		set_reason(r, VS_WRONG, "the reference wrote outside the output (%llu guard bytes changed)",
			   (unsigned long long)res[2]);
		if ((e = restore_guards(b)))
			rc = fail_call(r, e, "restoring the guards");
	}
out:
	if (rc == 0)
		cu.ModuleUnload(m);
	return rc;
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
	if ((e = get_kernel(m, kernel_name, geo, &fn))) {
		cu.ModuleUnload(m);
		return fail_call(r, e, "finding the kernel");
	}
	int rc = 0;
	const struct launch_geometry g = launched(b, fn, geo);
	struct launch l = { fn, &g, LAUNCH_FAMILY, 0 };
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
