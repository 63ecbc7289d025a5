/*
 * bench-timing.c - launching and timing on the GPU: one launch of a
 * variant or of a ceiling's kernel at a placement, the timed series (L2
 * flushed before each launch unless hot; the median and quartiles), and
 * the ceilings measured beside the variants (copy, read or FMA rate).
 */
#include "gpu/bench-state.h"
#include "gpu/bench.h"
#include "gpu/placement.h"
#include "util/util.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* One launch at placement `place` (0: the buffers themselves, whose
 * output is checked; the others are timed only, from input set 0). */
CUresult do_launch(struct bench *b, const struct launch *l, int place)
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
	/* The copy kernel flattens rows x cols, so any family's input is
	 * n x 1 to it. */
	unsigned copy_rows = b->f->args == ARGS_MATRIX ? a.rows : (unsigned)(b->copy_bytes / b->dt->size), copy_cols =
		b->f->args == ARGS_MATRIX ? a.cols : 1;
	void *copy[] = { &a.in, &a.out, &copy_rows, &copy_cols };
	switch (l->kind) {
	case LAUNCH_MEMCPY:
		return cu.MemcpyDtoDAsync(out, in, b->copy_bytes, b->stream);
	case LAUNCH_READ:
		params = read;
		break;
	case LAUNCH_FMA:
		params = fma;
		break;
	case LAUNCH_COPY:
		params = copy;
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

/* One launch at placement place between the two events, waited for; its
 * milliseconds into *ms. */
static CUresult launch_timed(struct bench *b, const struct launch *l, int place, float *ms)
{
	CUresult r;
	if ((r = cu.EventRecord(b->start, b->stream)) || (r = do_launch(b, l, place)) ||
	    (r = cu.EventRecord(b->stop, b->stream)) || (r = cu.EventSynchronize(b->stop)))
		return r;
	return cu.EventElapsedTime(ms, b->start, b->stop);
}

/* Whether a measurement of n launches that took spent ms of kernel is
 * over its budget (bench.h). */
static int budget_spent(const struct bench *b, int n, double spent)
{
	return b->budget_ms > 0 && n >= BENCH_BUDGET_LAUNCHES && spent >= b->budget_ms;
}

/* The variant cannot matter (bench.h, bench_set_hopeless): n launches
 * timed, the fastest in fastest. */
static int hopeless(const struct bench *b, int n, double fastest)
{
	return b->budget_ms > 0 && b->hopeless_ms > 0 && n >= BENCH_HOPELESS_LAUNCHES && fastest > b->hopeless_ms;
}

/* Warm-up, then reps launches each between two events (after an L2 flush
 * unless hot, and an empty launch before every other one), each waited
 * for before the next is queued; a long kernel's fewer (the budget,
 * bench.h).
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
 *
 * The first warm-up launch is timed too: one of a millisecond or more is
 * warm-up enough (the checked launches before it loaded the module and
 * touched the buffers), and two more would cost a large matrix multiply
 * a tenth of a second each.
 * Returns the CUresult of the first failure. */
CUresult time_launches(struct bench *b, const struct launch *l, struct timing *t)
{
	CUresult r;
	float f = 0;
	if ((r = launch_timed(b, l, 0, &f)))
		return r;
	for (int i = 1; f < 1.0f && i < 3; i++)
		if ((r = do_launch(b, l, i % places(b))) != CUDA_SUCCESS)
			return r;
	double *ms = xcalloc((size_t)b->reps, sizeof(double)), spent = 0, fastest = 0;
	int n = 0;
	for (; n < b->reps && !budget_spent(b, n, spent) && !hopeless(b, n, fastest); n++) {
		if ((!b->hot && (r = cu.MemsetD32Async(b->flush, (unsigned)n, b->flush_bytes / 4, b->stream))) ||
		    (n % 2 && (r = idle_launch(b))) || (r = launch_timed(b, l, n % places(b), &f))) {
			free(ms);
			return r;
		}
		ms[n] = f;
		spent += f;
		fastest = n == 0 || f < fastest ? f : fastest;
	}
	qsort(ms, (size_t)n, sizeof(double), cmp_double);
	t->launches = n;
	t->min_ms = ms[0];
	t->max_ms = ms[n - 1];
	t->median_ms = quantile(ms, n, 0.5);
	t->p25_ms = quantile(ms, n, 0.25);
	t->p75_ms = quantile(ms, n, 0.75);
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
		struct launch_geometry geo = { { shapes[i][1] * (unsigned)b->g.sm_count, 1, 1 }, { shapes[i][0], 1, 1 }, 0, 0 };
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

/* A second of stores over the flush buffer before the run's first
 * ceiling, so that the first size is measured on a GPU as warm as the
 * later ones: on an H200 that had idled, the copy ceiling at f16 1024 x
 * 1024 read 819 GB/s where the same copy read 832-835 after a second of
 * work, which made that size's shares of the ceiling look 2% better than
 * they were.  One kernel (gt_warm) on a stream of its own, started as the
 * context is made: the host makes the run's records and the first size's
 * inputs meanwhile, where it used to wait a second for the warm-up after
 * them.  The first ceiling waits for it (bench_ceiling). */
#define WARM_NS 1000000000ULL
int warm_up_start(struct bench *b)
{
	unsigned long long words = b->flush_bytes / 16, ns = WARM_NS;
	void *args[] = { &b->flush, &words, &ns };
	if (CU(cu.StreamCreate(&b->warm_stream, CU_STREAM_NON_BLOCKING)) ||
	    CU(cu.EventCreate(&b->warm_done, CU_EVENT_DISABLE_TIMING)) ||
	    CU(cu.LaunchKernel(b->warm_fn, 2 * (unsigned)b->g.sm_count, 1, 1, 512, 1, 1, 0, b->warm_stream, args,
			       NULL)) ||
	    CU(cu.EventRecord(b->warm_done, b->warm_stream)))
		return -1;
	return 0;
}

int bench_ceiling(struct bench *b, const void *copy_cubin, const char *copy_name, const struct launch_geometry *copy_geo,
		  double *memcpy_gbps, double *kernel_gbps)
{
	if (!b->warm) {
		if (CU(cu.EventSynchronize(b->warm_done)))
			return -1;
		b->warm = 1;
	}
	if (b->f->ceiling == CEILING_READ) {
		*memcpy_gbps = 0;
		return read_ceiling(b, kernel_gbps);
	}
	if (b->f->ceiling == CEILING_FMA) {
		*memcpy_gbps = 0;
		return fma_ceiling(b, kernel_gbps);
	}
	/* The ceiling copies the input's bytes (or the output's, where that
	 * is less): what one launch of a family that reads each input
	 * element once and writes one output element for it moves. */
	double bytes = 2.0 * (double)b->copy_bytes;
	struct timing t;
	struct launch mc = { NULL, NULL, LAUNCH_MEMCPY, 0 };
	if (CU(time_launches(b, &mc, &t)))
		return -1;
	*memcpy_gbps = bench_gbps(bytes, t.median_ms);
	CUmodule m;
	CUfunction fn;
	if (CU(cu.ModuleLoadData(&m, copy_cubin)))
		return -1;
	if (CU(cu.ModuleGetFunction(&fn, m, copy_name))) {
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
