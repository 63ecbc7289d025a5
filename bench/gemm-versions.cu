/*
 * gemm-versions.cu - versions of the matrix-multiply template timed side
 * by side: bench/gemm-versions.sh writes gemm-versions.h, which holds each
 * version's kernels under names of their own and the table of points.  At
 * each shape, cuBLAS SGEMM (pedantic FP32), then every version at every
 * point, each checked against the reference within the error bound
 * (bench/gemm-check.cuh) and timed under the tuner's protocol
 * (bench/timing.cuh).  Prints each kernel's registers, the blocks an SM
 * holds and, split, the clusters the device holds at once, then a line per
 * shape and kernel: shape, version, point, TFLOP/s, its share of cuBLAS,
 * error / bound (WRONG above 1).
 * Usage: gemm-versions SHAPE...   (SHAPE is MxNxK)
 */
#include <cublas_v2.h>
#include <algorithm>
#include <cstdio>

#include "bench/timing.cuh"
#include "bench/gemm-check.cuh"

typedef void (*kernel_t)(const float *, const float *, float *, int, int, int);
enum { BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, SPLIT, REALIGN, ASYNC, FLAT, STREAM, NPOINT };
struct version_point {
	const char *version, *params;
	int v[NPOINT]; /* flat and stream 0 where a point does not give them */
	kernel_t kernel;
};
#include "gemm-versions.h"

/* Threads, and bytes of dynamic shared memory as the tuner gives them
 * (src/families/family-gemm.c: threads_of, smem_of). */
static int threads_of(const int *v)
{
	return (v[BM] / v[WM]) * (v[BN] / v[WN]) * 32;
}
static int smem_of(const int *v)
{
	const int stages = v[ASYNC] ? v[ASYNC] : v[DBUF] ? 2 : 1;
	const int tiles = v[BK] * (v[BM] + v[PAD] + v[BN] + v[PAD]) * stages, part = v[SPLIT] > 1 ? v[BM] * v[BN] : 0;
	return (tiles > part ? tiles : part) * 4;
}

int main(int argc, char **argv)
{
	flushed_timing T;
	timing_init(T);
	cublasHandle_t h;
	CHECK_BLAS(cublasCreate(&h));
	CHECK_BLAS(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
	const size_t npoints = sizeof(points) / sizeof(points[0]);
	int sms = 0;
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	int held[sizeof(points) / sizeof(points[0])]; /* each kernel's blocks an SM */
	for (size_t i = 0; i < npoints; i++) {
		const version_point &p = points[i];
		const int split = p.v[SPLIT];
		cudaFuncAttributes fa;
		CHECK(cudaFuncGetAttributes(&fa, p.kernel));
		CHECK(cudaFuncSetAttribute(p.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_of(p.v)));
		/* The blocks an SM holds, and for split-K the clusters the device
		 * holds at once, against the SMs' blocks over the cluster's size:
		 * a cluster's blocks share a GPC, so the GPCs' sizes may leave
		 * fewer. */
		int per_sm = 0, clusters = 0;
		CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, p.kernel, threads_of(p.v), smem_of(p.v)));
		held[i] = per_sm > 0 ? per_sm : 1;
		std::printf("# %s %s: %d registers, %zu bytes of local memory, %d blocks an SM", p.version, p.params,
			    fa.numRegs, fa.localSizeBytes, per_sm);
		if (split > 1) {
			cudaLaunchConfig_t cfg = {};
			cfg.gridDim = dim3((unsigned)(split * sms * (per_sm > 0 ? per_sm : 1)));
			cfg.blockDim = dim3((unsigned)threads_of(p.v));
			cfg.dynamicSmemBytes = (size_t)smem_of(p.v);
			CHECK(cudaOccupancyMaxActiveClusters(&clusters, (const void *)p.kernel, &cfg));
			std::printf(", %d clusters of %d at once (%d SMs' blocks over %d)", clusters, split,
				    sms * per_sm / split, split);
		}
		std::printf("\n");
	}
	for (int a = 1; a < argc; a++) {
		int M, N, K;
		if (std::sscanf(argv[a], "%dx%dx%d", &M, &N, &K) != 3 || M < 1 || N < 1 || K < 1) {
			std::fprintf(stderr, "gemm-versions: bad shape '%s' (MxNxK)\n", argv[a]);
			return 2;
		}
		const gemm_problem P(M, N, K);
		const double flop = 2.0 * M * N * K;
		auto blas = [&] { P.cublas(h); };
		const double mb = time_ms(T, blas);
		std::printf("%s cuBLAS %.2f\n", argv[a], flop / mb / 1e9);
		for (size_t i = 0; i < npoints; i++) {
			const version_point &p = points[i];
			const long long tiles = (long long)((M + p.v[BM] - 1) / p.v[BM]) * ((N + p.v[BN] - 1) / p.v[BN]);
			const long long rounds = tiles * ((K + p.v[BK] - 1) / p.v[BK]);
			const unsigned blocks = p.v[STREAM] ? (unsigned)std::min((long long)sms * held[i], rounds)
							    : (unsigned)(tiles * p.v[SPLIT]);
			auto run = [&] { p.kernel<<<blocks, threads_of(p.v), smem_of(p.v)>>>(P.A, P.B, P.C, M, N, K); };
			CHECK(cudaMemset(P.C, 0, (size_t)M * N * sizeof(float)));
			run();
			CHECK(cudaGetLastError());
			const float w = P.error();
			const double ms = time_ms(T, run);
			std::printf("%s %s %s %.2f %.3f %.3f%s\n", argv[a], p.version, p.params, flop / ms / 1e9, mb / ms, w,
				    w <= 1 ? "" : " WRONG");
			std::fflush(stdout);
		}
	}
	CHECK_BLAS(cublasDestroy(h));
	return 0;
}
