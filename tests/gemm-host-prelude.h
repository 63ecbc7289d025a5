/*
 * gemm-host-prelude.h - what the matrix-multiply template needs of CUDA
 * that cuda-host.h does not give, then the template itself, for the host
 * runners (gemm-host.cc, gemm-stream-host.cc).  Included after
 * cuda-host.h.
 */
#ifndef GPUTUNE_GEMM_HOST_PRELUDE_H
#define GPUTUNE_GEMM_HOST_PRELUDE_H

#include <cstddef>

/* gemm.cu declares the launch's dynamic shared memory inside its function
 * (extern __shared__ float gt_smem[]): with __shared__ empty, that names
 * this array. */
#undef __shared__
#define __shared__
#define __align__(n) __attribute__((aligned(n)))
constexpr size_t SMEM_FLOATS = 1 << 16;
alignas(16) float gt_smem[SMEM_FLOATS];

struct alignas(16) float4 {
	float x, y, z, w;
};
static inline float4 make_float4(float x, float y, float z, float w)
{
	return { x, y, z, w };
}
static inline int min(int a, int b)
{
	return a < b ? a : b;
}
static inline long long min(long long a, long long b)
{
	return a < b ? a : b;
}

#include "../templates/common.cuh"
#include "../templates/gemm.cu"

#endif
