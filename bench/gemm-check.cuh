/*
 * gemm-check.cuh - what the matrix-multiply programs here check a result
 * with: a reference C = A B in double precision computed on the GPU, with
 * beside each element the sum of |a b| over its products, and the worst
 * |C - reference| over the bound gamma(K) sum |a b| (u = 2^-24, gamma(K) =
 * K u / (1 - K u)), which any order of K single-precision FMAs keeps
 * within: at most 1 passes; a shape's operands and reference
 * (gemm_problem); and cuBLAS SGEMM on them, with CHECK_BLAS for its calls.
 */
#ifndef GPUTUNE_BENCH_GEMM_CHECK_CUH
#define GPUTUNE_BENCH_GEMM_CHECK_CUH

#include <cublas_v2.h>
#include <cstdio>
#include <cstdlib>

#include "timing.cuh"

#define CHECK_BLAS(call)                                                             \
	do {                                                                         \
		cublasStatus_t s_ = (call);                                          \
		if (s_ != CUBLAS_STATUS_SUCCESS) {                                   \
			std::fprintf(stderr, "%s failed: status %d\n", #call, (int)s_); \
			std::exit(2);                                                \
		}                                                                    \
	} while (0)

/* C = A B and |A| |B| in double, one element per thread over 16 x 16 tiles
 * of A and B staged in shared memory: plain and trusted, and fast enough
 * at 8192^3 (one element a thread without the tiles takes minutes). */
__global__ void reference(const float *A, const float *B, double *C, double *absC, int M, int N, int K)
{
	__shared__ double a[16][16], b[16][17];
	const int ty = threadIdx.y, tx = threadIdx.x;
	const int i = blockIdx.y * 16 + ty, j = blockIdx.x * 16 + tx;
	double s = 0, t = 0;
	for (int k0 = 0; k0 < K; k0 += 16) {
		a[ty][tx] = i < M && k0 + tx < K ? (double)A[(size_t)i * K + k0 + tx] : 0.0;
		b[ty][tx] = k0 + ty < K && j < N ? (double)B[(size_t)(k0 + ty) * N + j] : 0.0;
		__syncthreads();
#pragma unroll
		for (int k = 0; k < 16; k++) {
			const double p = a[ty][k] * b[k][tx];
			s += p;
			t += fabs(p);
		}
		__syncthreads();
	}
	if (i < M && j < N) {
		C[(size_t)i * N + j] = s;
		absC[(size_t)i * N + j] = t;
	}
}

/* The worst |C - ref| / bound over the matrix (<= 1 passes). */
__global__ void judge(const float *C, const double *ref, const double *absC, size_t n, int K, float *worst)
{
	const double u = 1.0 / 16777216.0, gamma = K * u / (1 - K * u);
	float w = 0;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
		const double bound = gamma * absC[i] + 1e-30;
		w = fmaxf(w, (float)(fabs((double)C[i] - ref[i]) / bound));
	}
	atomicMax(reinterpret_cast<int *>(worst), __float_as_int(w)); /* w >= 0: int order is float order */
}

/* The worst |C - ref| / bound over C's n elements, worst being a float of
 * device memory to gather it in. */
static float worst_error(const float *C, const double *ref, const double *absC, size_t n, int K, float *worst)
{
	CHECK(cudaMemset(worst, 0, sizeof(float)));
	judge<<<1024, 256>>>(C, ref, absC, n, K, worst);
	float w;
	CHECK(cudaMemcpy(&w, worst, sizeof(float), cudaMemcpyDeviceToHost));
	return w;
}

/* A shape's operands in device memory, filled (fill_uniform, both signs),
 * C, and its reference, freed when it goes. */
struct gemm_problem {
	int M, N, K;
	float *A, *B, *C, *worst;
	double *ref, *absC;
	gemm_problem(int m, int n, int k) : M(m), N(n), K(k)
	{
		CHECK(cudaMalloc(&A, (size_t)M * K * sizeof(float)));
		CHECK(cudaMalloc(&B, (size_t)K * N * sizeof(float)));
		CHECK(cudaMalloc(&C, (size_t)M * N * sizeof(float)));
		CHECK(cudaMalloc(&ref, (size_t)M * N * sizeof(double)));
		CHECK(cudaMalloc(&absC, (size_t)M * N * sizeof(double)));
		CHECK(cudaMalloc(&worst, sizeof(float)));
		fill_uniform<<<1024, 256>>>(A, (size_t)M * K, 1);
		fill_uniform<<<1024, 256>>>(B, (size_t)K * N, 2);
		reference<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(A, B, ref, absC, M, N, K);
		CHECK(cudaDeviceSynchronize());
	}
	gemm_problem(const gemm_problem &) = delete;
	gemm_problem &operator=(const gemm_problem &) = delete;
	~gemm_problem()
	{
		CHECK(cudaFree(A));
		CHECK(cudaFree(B));
		CHECK(cudaFree(C));
		CHECK(cudaFree(ref));
		CHECK(cudaFree(absC));
		CHECK(cudaFree(worst));
	}
	/* C's worst error over its bound. */
	float error() const { return worst_error(C, ref, absC, (size_t)M * N, K, worst); }
	/* C = A B by cuBLAS SGEMM: row-major C = A B is column-major
	 * C^T = B^T A^T. */
	void cublas(cublasHandle_t h) const
	{
		const float one = 1, zero = 0;
		CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N));
	}
};

#endif
