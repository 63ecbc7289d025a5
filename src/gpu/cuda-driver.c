/*
 * cuda-driver.c - dlopen of libcuda.so.1 and the entry-point table.
 *
 * Names are resolved exactly as cuda.h maps them (the _v2 entry points
 * where the API was revised), so the table calls the same functions a
 * program linked against libcuda would.
 */
#define _GNU_SOURCE
#include "gpu/cuda-driver.h"
#include "util/util.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

struct cuda_driver cu;

static void *handle;
static int load_state; /* 0 not tried, 1 loaded, -1 failed */
static const char *load_why;
static char why_buf[256];
static char version_buf[32];

struct entry {
	const char *names[2]; /* preferred name, then an older fallback */
	void **slot;
	int optional; /* left NULL where the driver lacks it */
};

#define E1(field, n) { { n, NULL }, (void **)&cu.field, 0 }
#define E2(field, n, m) { { n, m }, (void **)&cu.field, 0 }
/* Only the paths that use it need it (the tensor copy engine's maps). */
#define OPTIONAL(field, n) { { n, NULL }, (void **)&cu.field, 1 }

static const struct entry entries[] = {
	E1(Init, "cuInit"),
	E1(DriverGetVersion, "cuDriverGetVersion"),
	E1(GetErrorName, "cuGetErrorName"),
	E1(GetErrorString, "cuGetErrorString"),
	E1(DeviceGetCount, "cuDeviceGetCount"),
	E1(DeviceGet, "cuDeviceGet"),
	E1(DeviceGetName, "cuDeviceGetName"),
	E1(DeviceGetAttribute, "cuDeviceGetAttribute"),
	E1(DeviceTotalMem, "cuDeviceTotalMem_v2"),
	E2(DeviceGetUuid, "cuDeviceGetUuid_v2", "cuDeviceGetUuid"),
	E1(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
	E1(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
	E1(DevicePrimaryCtxReset, "cuDevicePrimaryCtxReset_v2"),
	E1(CtxSetCurrent, "cuCtxSetCurrent"),
	E1(CtxSynchronize, "cuCtxSynchronize"),
	E1(MemGetInfo, "cuMemGetInfo_v2"),
	E1(MemAlloc, "cuMemAlloc_v2"),
	E1(MemFree, "cuMemFree_v2"),
	E1(MemcpyHtoD, "cuMemcpyHtoD_v2"),
	E1(MemcpyDtoH, "cuMemcpyDtoH_v2"),
	E1(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"),
	E1(MemsetD8Async, "cuMemsetD8Async"),
	E1(MemsetD32Async, "cuMemsetD32Async"),
	E1(ModuleLoadData, "cuModuleLoadData"),
	E1(ModuleUnload, "cuModuleUnload"),
	E1(ModuleGetFunction, "cuModuleGetFunction"),
	E1(FuncGetAttribute, "cuFuncGetAttribute"),
	E1(FuncSetAttribute, "cuFuncSetAttribute"),
	E1(LaunchKernel, "cuLaunchKernel"),
	E1(StreamCreate, "cuStreamCreate"),
	E1(StreamDestroy, "cuStreamDestroy_v2"),
	E1(StreamSynchronize, "cuStreamSynchronize"),
	E1(EventCreate, "cuEventCreate"),
	E1(EventDestroy, "cuEventDestroy_v2"),
	E1(EventRecord, "cuEventRecord"),
	E1(EventSynchronize, "cuEventSynchronize"),
	E2(EventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
	OPTIONAL(TensorMapEncodeTiled, "cuTensorMapEncodeTiled"),
	OPTIONAL(OccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor"),
};

static int load_failed(const char *why)
{
	load_state = -1;
	load_why = why;
	if (handle) {
		dlclose(handle);
		handle = NULL;
	}
	return -1;
}

int cuda_load(const char **why)
{
	if (load_state == 1)
		return 0;
	if (load_state == -1) {
		if (why)
			*why = load_why;
		return -1;
	}
	const char *lib = getenv("GPUTUNE_LIBCUDA");
	if (!lib || !*lib)
		lib = "libcuda.so.1";
	handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		snprintf(why_buf, sizeof(why_buf), "no CUDA driver (%s could not be loaded)", lib);
		load_failed(why_buf);
		if (why)
			*why = load_why;
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(entries); i++) {
		void *p = NULL;
		for (int k = 0; k < 2 && !p && entries[i].names[k]; k++)
			p = dlsym(handle, entries[i].names[k]);
		if (!p && !entries[i].optional) {
			snprintf(why_buf, sizeof(why_buf), "the CUDA driver %s lacks %s (driver too old)",
				 lib, entries[i].names[0]);
			load_failed(why_buf);
			if (why)
				*why = load_why;
			return -1;
		}
		*entries[i].slot = p;
	}
	CUresult r = cu.Init(0);
	if (r != CUDA_SUCCESS) {
		const char *name = NULL;
		if (cu.GetErrorName(r, &name) != CUDA_SUCCESS)
			name = "unknown error";
		if (r == CUDA_ERROR_NO_DEVICE)
			snprintf(why_buf, sizeof(why_buf), "no CUDA GPU is visible (cuInit: %s)", name);
		else
			snprintf(why_buf, sizeof(why_buf), "the CUDA driver did not initialise (cuInit: %s)", name);
		load_failed(why_buf);
		if (why)
			*why = load_why;
		return -1;
	}
	int v = 0;
	if (cu.DriverGetVersion(&v) == CUDA_SUCCESS)
		snprintf(version_buf, sizeof(version_buf), "%d.%d", v / 1000, (v % 1000) / 10);
	load_state = 1;
	return 0;
}

const char *cuda_driver_version(void)
{
	return load_state == 1 && version_buf[0] ? version_buf : NULL;
}

const char *cuda_error_name(CUresult r)
{
	const char *name = NULL;
	if (load_state != 1 || cu.GetErrorName(r, &name) != CUDA_SUCCESS || !name)
		return "unknown CUDA error";
	return name;
}

CUresult cuda_report(CUresult r, const char *call, int quiet)
{
	if (r == CUDA_SUCCESS || quiet)
		return r;
	const char *s = NULL;
	if (load_state != 1 || cu.GetErrorString(r, &s) != CUDA_SUCCESS || !s)
		s = "";
	error("%s failed: %s (%s)", call, cuda_error_name(r), s);
	return r;
}

int cuda_error_is_sticky(CUresult r)
{
	switch (r) {
	case CUDA_ERROR_ILLEGAL_ADDRESS:
	case CUDA_ERROR_HARDWARE_STACK_ERROR:
	case CUDA_ERROR_ILLEGAL_INSTRUCTION:
	case CUDA_ERROR_MISALIGNED_ADDRESS:
	case CUDA_ERROR_INVALID_ADDRESS_SPACE:
	case CUDA_ERROR_INVALID_PC:
	case CUDA_ERROR_LAUNCH_FAILED:
	case CUDA_ERROR_LAUNCH_TIMEOUT:
	case CUDA_ERROR_ECC_UNCORRECTABLE:
	case CUDA_ERROR_ASSERT:
	case CUDA_ERROR_CONTEXT_IS_DESTROYED:
		return 1;
	default:
		return 0;
	}
}
