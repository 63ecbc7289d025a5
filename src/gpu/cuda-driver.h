/*
 * cuda-driver.h - the CUDA driver API, opened at run time.
 *
 * gputune never links libcuda: it dlopens libcuda.so.1 and resolves the
 * entry points it uses into the table `cu`, so the binary starts, answers
 * help, query and export, and compiles kernels on machines with no GPU.
 * The types come from the toolkit's cuda.h; the functions come only from
 * this table.  Every call is checked through CU(), which reports the call
 * text and the driver's error name.
 */
#ifndef GPUTUNE_CUDA_DRIVER_H
#define GPUTUNE_CUDA_DRIVER_H

#include <cuda.h>
#include <stddef.h>

struct cuda_driver {
	CUresult (*Init)(unsigned int flags);
	CUresult (*DriverGetVersion)(int *version);
	CUresult (*GetErrorName)(CUresult r, const char **s);
	CUresult (*GetErrorString)(CUresult r, const char **s);
	CUresult (*DeviceGetCount)(int *n);
	CUresult (*DeviceGet)(CUdevice *d, int ordinal);
	CUresult (*DeviceGetName)(char *name, int len, CUdevice d);
	CUresult (*DeviceGetAttribute)(int *v, CUdevice_attribute a, CUdevice d);
	CUresult (*DeviceTotalMem)(size_t *bytes, CUdevice d);
	CUresult (*DeviceGetUuid)(CUuuid *uuid, CUdevice d);
	CUresult (*DevicePrimaryCtxRetain)(CUcontext *c, CUdevice d);
	CUresult (*DevicePrimaryCtxRelease)(CUdevice d);
	CUresult (*DevicePrimaryCtxReset)(CUdevice d);
	CUresult (*CtxSetCurrent)(CUcontext c);
	CUresult (*CtxSynchronize)(void);
	CUresult (*MemGetInfo)(size_t *free_bytes, size_t *total);
	CUresult (*MemAlloc)(CUdeviceptr *p, size_t bytes);
	CUresult (*MemFree)(CUdeviceptr p);
	CUresult (*MemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
	CUresult (*MemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
	CUresult (*MemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s);
	CUresult (*MemsetD8Async)(CUdeviceptr dst, unsigned char v, size_t n, CUstream s);
	CUresult (*MemsetD32Async)(CUdeviceptr dst, unsigned int v, size_t n, CUstream s);
	CUresult (*ModuleLoadData)(CUmodule *m, const void *image);
	CUresult (*ModuleUnload)(CUmodule m);
	CUresult (*ModuleGetFunction)(CUfunction *f, CUmodule m, const char *name);
	CUresult (*FuncGetAttribute)(int *v, CUfunction_attribute a, CUfunction f);
	CUresult (*FuncSetAttribute)(CUfunction f, CUfunction_attribute a, int v);
	/* NULL where the driver has none (a launch is then not capped by it). */
	CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *n, CUfunction f, int threads, size_t smem);
	CUresult (*LaunchKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
				 unsigned bx, unsigned by, unsigned bz, unsigned smem,
				 CUstream s, void **params, void **extra);
	CUresult (*StreamCreate)(CUstream *s, unsigned int flags);
	CUresult (*StreamDestroy)(CUstream s);
	CUresult (*StreamSynchronize)(CUstream s);
	CUresult (*EventCreate)(CUevent *e, unsigned int flags);
	CUresult (*EventDestroy)(CUevent e);
	CUresult (*EventRecord)(CUevent e, CUstream s);
	CUresult (*EventSynchronize)(CUevent e);
	CUresult (*EventElapsedTime)(float *ms, CUevent start, CUevent end);
	/* Optional (drivers of CUDA 12.0 on): NULL where the driver lacks it. */
	CUresult (*TensorMapEncodeTiled)(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *base,
					 const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
					 const cuuint32_t *element_strides, CUtensorMapInterleave interleave,
					 CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
					 CUtensorMapFloatOOBfill oob);
};

extern struct cuda_driver cu;

/*
 * Opens the driver ($GPUTUNE_LIBCUDA, else libcuda.so.1), resolves every
 * entry point and calls cuInit(0).  Idempotent.  Returns 0, or -1 with a
 * one-line reason in *why (static storage) when there is no usable driver
 * or no GPU.
 */
int cuda_load(const char **why);

/* The driver's version as "13.0", or NULL when it is not loaded. */
const char *cuda_driver_version(void);

/* Reports a failed driver call as "gputune: CALL failed: NAME (string)"
 * unless quiet; returns r unchanged so callers can branch on it. */
CUresult cuda_report(CUresult r, const char *call, int quiet);
#define CU(call) cuda_report((call), #call, 0)
#define CU_QUIET(call) cuda_report((call), #call, 1)

/* "CUDA_ERROR_..." for r (works only once the driver is loaded). */
const char *cuda_error_name(CUresult r);

/* Whether r leaves the context unusable (illegal address, trap, ...),
 * so the context must be reset before anything else runs. */
int cuda_error_is_sticky(CUresult r);

#endif
