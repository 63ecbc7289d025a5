/*
 * unit-bench-timing.c - the timing protocol's counts (src/gpu/bench.c and
 * bench-timing.c) over a driver of the test's own, no GPU needed: the
 * warm-up is one kernel launched as the bench opens, which the first
 * ceiling waits for; a measurement times its reps (30) launches, or stops
 * once it has 10 and 200 ms of kernel; a confirmation (no budget) times
 * all of its own; a kernel of a millisecond or more gets one warm-up
 * launch, a shorter one three; a kernel slower than the hopeless time
 * (bench_set_hopeless) stops at three.
 *
 * The driver's memory is the host's (a device pointer is a calloc'd
 * block, so AddressSanitizer sees a leak or a double free); every kernel
 * takes `kernel_ms` by the events around it, and does nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include "gpu/bench.h"
#include "gpu/cuda-driver.h"
#include "families/family.h"
#include "unit-check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static float kernel_ms;     /* what every launch takes, by its events */
static const char *variant = "variant"; /* the measured kernel's handle */
static int variant_launches, warm_launches, warm_synced, launches_before_warm_sync;
static CUevent warm_event;  /* the one made with timing disabled */
static int live_blocks;     /* device allocations not freed */

static CUresult fake_ok_ctx(CUcontext *c, CUdevice d)
{
	(void)d;
	*c = (CUcontext)(uintptr_t)1;
	return CUDA_SUCCESS;
}
static CUresult fake_device(CUdevice *d, int i)
{
	*d = i;
	return CUDA_SUCCESS;
}
static CUresult fake_release(CUdevice d)
{
	(void)d;
	return CUDA_SUCCESS;
}
static CUresult fake_set_current(CUcontext c)
{
	(void)c;
	return CUDA_SUCCESS;
}
static CUresult fake_stream(CUstream *s, unsigned flags)
{
	(void)flags;
	*s = (CUstream)malloc(1);
	return CUDA_SUCCESS;
}
static CUresult fake_stream_destroy(CUstream s)
{
	free(s);
	return CUDA_SUCCESS;
}
static CUresult fake_stream_sync(CUstream s)
{
	(void)s;
	return CUDA_SUCCESS;
}
static CUresult fake_event(CUevent *e, unsigned flags)
{
	*e = (CUevent)malloc(1);
	if (flags == CU_EVENT_DISABLE_TIMING)
		warm_event = *e;
	return CUDA_SUCCESS;
}
static CUresult fake_event_destroy(CUevent e)
{
	free(e);
	return CUDA_SUCCESS;
}
static CUresult fake_record(CUevent e, CUstream s)
{
	(void)e;
	(void)s;
	return CUDA_SUCCESS;
}
static CUresult fake_event_sync(CUevent e)
{
	if (e == warm_event && !warm_synced) {
		warm_synced = 1;
		launches_before_warm_sync = variant_launches;
	}
	return CUDA_SUCCESS;
}
static CUresult fake_elapsed(float *ms, CUevent a, CUevent b)
{
	(void)a;
	(void)b;
	*ms = kernel_ms;
	return CUDA_SUCCESS;
}
static CUresult fake_alloc(CUdeviceptr *p, size_t n)
{
	*p = (CUdeviceptr)(uintptr_t)calloc(1, n ? n : 1);
	live_blocks++;
	return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
static CUresult fake_free(CUdeviceptr p)
{
	free((void *)(uintptr_t)p);
	live_blocks--;
	return CUDA_SUCCESS;
}
static CUresult fake_htod(CUdeviceptr d, const void *s, size_t n)
{
	memcpy((void *)(uintptr_t)d, s, n);
	return CUDA_SUCCESS;
}
static CUresult fake_dtoh(void *d, CUdeviceptr s, size_t n)
{
	memcpy(d, (const void *)(uintptr_t)s, n);
	return CUDA_SUCCESS;
}
static CUresult fake_dtod(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st)
{
	(void)st;
	memcpy((void *)(uintptr_t)d, (const void *)(uintptr_t)s, n);
	return CUDA_SUCCESS;
}
static CUresult fake_memset8(CUdeviceptr d, unsigned char v, size_t n, CUstream s)
{
	(void)s;
	memset((void *)(uintptr_t)d, v, n);
	return CUDA_SUCCESS;
}
static CUresult fake_memset32(CUdeviceptr d, unsigned v, size_t n, CUstream s)
{
	(void)s;
	for (size_t i = 0; i < n; i++)
		memcpy((char *)(uintptr_t)d + 4 * i, &v, 4);
	return CUDA_SUCCESS;
}
static CUresult fake_load(CUmodule *m, const void *image)
{
	(void)image;
	*m = (CUmodule)malloc(1);
	return CUDA_SUCCESS;
}
static CUresult fake_unload(CUmodule m)
{
	free(m);
	return CUDA_SUCCESS;
}
/* A function's handle is its name (the measured kernel's: `variant`). */
static CUresult fake_function(CUfunction *f, CUmodule m, const char *name)
{
	(void)m;
	*f = (CUfunction)(strcmp(name, "variant") ? strstr(name, "gt_") ? name : "other" : variant);
	return CUDA_SUCCESS;
}
static CUresult fake_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
			    unsigned bz, unsigned smem, CUstream s, void **args, void **extra)
{
	(void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)smem, (void)s, (void)args, (void)extra;
	if ((const char *)f == variant)
		variant_launches++;
	else if (!strcmp((const char *)f, "gt_warm"))
		warm_launches++;
	return CUDA_SUCCESS;
}
static CUresult fake_error_name(CUresult r, const char **s)
{
	(void)r;
	*s = "CUDA_ERROR_FAKE";
	return CUDA_SUCCESS;
}

static void fake_driver(void)
{
	cu.DeviceGet = fake_device;
	cu.DevicePrimaryCtxRetain = fake_ok_ctx;
	cu.DevicePrimaryCtxRelease = fake_release;
	cu.CtxSetCurrent = fake_set_current;
	cu.StreamCreate = fake_stream;
	cu.StreamDestroy = fake_stream_destroy;
	cu.StreamSynchronize = fake_stream_sync;
	cu.EventCreate = fake_event;
	cu.EventDestroy = fake_event_destroy;
	cu.EventRecord = fake_record;
	cu.EventSynchronize = fake_event_sync;
	cu.EventElapsedTime = fake_elapsed;
	cu.MemAlloc = fake_alloc;
	cu.MemFree = fake_free;
	cu.MemcpyHtoD = fake_htod;
	cu.MemcpyDtoH = fake_dtoh;
	cu.MemcpyDtoDAsync = fake_dtod;
	cu.MemsetD8Async = fake_memset8;
	cu.MemsetD32Async = fake_memset32;
	cu.ModuleLoadData = fake_load;
	cu.ModuleUnload = fake_unload;
	cu.ModuleGetFunction = fake_function;
	cu.LaunchKernel = fake_launch;
	cu.GetErrorName = fake_error_name;
}

/* Measures the copy variant at the prepared size with every launch taking
 * ms: its timed launches into *timed, all of its launches into *all. */
static void measure(struct bench *b, float ms, int *timed, int *all)
{
	static const int v[MAX_PARAMS] = { 0 };
	struct launch_geometry geo = { { 64, 1, 1 }, { 256, 1, 1 }, 0, 0 };
	struct variant_result r;
	kernel_ms = ms;
	variant_launches = 0;
	bench_variant(b, "image", "variant", v, &geo, &r);
	*timed = r.status == VS_OK ? r.t.launches : -1;
	*all = variant_launches;
}

/* Measures with every launch taking ms, and checks that want launches
 * were timed. */
static void check_timed(struct bench *b, float ms, int want, const char *what)
{
	char detail[64];
	int timed, all;
	measure(b, ms, &timed, &all);
	snprintf(detail, sizeof(detail), "%d timed", timed);
	check(timed == want, what, detail);
}

int main(void)
{
	char detail[160];
	fake_driver();
	struct gpu_info g;
	memset(&g, 0, sizeof(g));
	g.sm_count = 4;
	g.l2_bytes = 1 << 16;
	struct bench *b = bench_open(&g, "support", 30, 0);
	check(b != NULL, "the bench opens on the test's driver", NULL);
	if (!b)
		return unit_done();
	check(warm_launches == 1 && !warm_synced, "opening launches the warm-up once, without waiting for it", NULL);

	const struct family *f = family_find("copy");
	const struct dtype *dt = dtype_find("f32");
	struct dims d = { 256, 256, 1 };
	check(f && dt && bench_prepare(b, f, dt, &d) == 0, "a size is prepared", NULL);
	struct launch_geometry cgeo = { { 64, 1, 1 }, { 256, 1, 1 }, 0, 0 };
	double mc = 0, kern = 0;
	kernel_ms = 0.01f;
	check(bench_ceiling(b, "copy", "variant", &cgeo, &mc, &kern) == 0 && warm_synced,
	      "the first ceiling waits for the warm-up", NULL);
	check(launches_before_warm_sync == 0, "...before it launches anything", NULL);

	/* ms a launch, then the timed launches and all of them expected:
	 * one checked launch (the copy has one input set), the warm-up
	 * (three below a millisecond, else one), the timed ones. */
	static const struct {
		float ms;
		int timed, all;
	} cases[] = {
		{ 0.01f, 30, 1 + 3 + 30 }, { 0.9f, 30, 1 + 3 + 30 },  { 1.0f, 30, 1 + 1 + 30 },
		{ 6.0f, 30, 1 + 1 + 30 },  { 10.0f, 20, 1 + 1 + 20 }, { 25.0f, 10, 1 + 1 + 10 },
		{ 200.0f, 10, 1 + 1 + 10 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int timed, all;
		measure(b, cases[i].ms, &timed, &all);
		snprintf(detail, sizeof(detail), "%d timed of %d launches, expected %d of %d", timed, all,
			 cases[i].timed, cases[i].all);
		char what[96];
		snprintf(what, sizeof(what), "a kernel of %g ms: %d timed launches of %d", cases[i].ms, cases[i].timed,
			 cases[i].all);
		check(timed == cases[i].timed && all == cases[i].all, what, detail);
	}
	/* A confirmation takes all of its launches, however long the kernel. */
	bench_set_reps(b, 100, 0);
	check_timed(b, 25.0f, 100, "a confirmation of a 25 ms kernel times its 100 launches");
	bench_set_reps(b, 30, 1);
	check_timed(b, 25.0f, 10, "after it, measurements stop at the budget again");

	/* A variant past the hopeless time stops at 3 launches; one at it or
	 * under takes the budget's; a confirmation ignores it; 0 is off. */
	bench_set_hopeless(b, 2.0);
	check_timed(b, 2.5f, BENCH_HOPELESS_LAUNCHES, "a kernel slower than the hopeless time stops at 3 launches");
	check_timed(b, 2.0f, 30, "one at the hopeless time takes its 30");
	bench_set_reps(b, 100, 0);
	check_timed(b, 2.5f, 100, "a confirmation of a hopeless kernel takes its 100");
	bench_set_reps(b, 30, 1);
	bench_set_hopeless(b, 0);
	check_timed(b, 2.5f, 30, "with no hopeless time, the 30 again");

	bench_close(b);
	snprintf(detail, sizeof(detail), "%d allocations left", live_blocks);
	check(live_blocks == 0, "closing frees every allocation", detail);
	return unit_done();
}
