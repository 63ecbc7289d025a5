/*
 * gemm-exact.h - for the tests' programs that run an exported
 * matrix-multiply header's kernels on a GPU (t5009, t5014): M x K and
 * K x N inputs on the device whose every product and partial sum is
 * exact in single precision, and the count of a product's outputs that
 * differ from the host's sum.  The inputs are multiples of 1/32 below 1
 * in size, so any order of the sum, a split one among them, gives the
 * same float.  Included after the header, whose CUDA runtime it uses.
 */
#ifndef GEMM_EXACT_H
#define GEMM_EXACT_H
#include <vector>

struct gemm_exact {
	int m, n, k;
	std::vector<float> a, b; /* row-major, as the device's A and B */
	float *A, *B, *C;	 /* C has m x n floats */
};

/* Fills g's inputs for m x n x k and puts them on the device; 0, or -1
 * where the device refused. */
static int gemm_exact_init(gemm_exact &g, int m, int n, int k)
{
	g.m = m, g.n = n, g.k = k;
	g.a.resize((size_t)m * k);
	g.b.resize((size_t)k * n);
	for (size_t i = 0; i < g.a.size(); i++)
		g.a[i] = (float)((int)(i * 7 % 13) - 6) / 8;
	for (size_t i = 0; i < g.b.size(); i++)
		g.b[i] = (float)((int)(i * 5 % 11) - 5) / 4;
	if (cudaMalloc(&g.A, g.a.size() * 4) != cudaSuccess || cudaMalloc(&g.B, g.b.size() * 4) != cudaSuccess ||
	    cudaMalloc(&g.C, (size_t)m * n * 4) != cudaSuccess)
		return -1;
	if (cudaMemcpy(g.A, g.a.data(), g.a.size() * 4, cudaMemcpyHostToDevice) != cudaSuccess ||
	    cudaMemcpy(g.B, g.b.data(), g.b.size() * 4, cudaMemcpyHostToDevice) != cudaSuccess)
		return -1;
	return 0;
}

/* How many of the m x n outputs in c (on the host) differ from the sum. */
static long gemm_exact_wrong(const gemm_exact &g, const float *c)
{
	long wrong = 0;
	for (int i = 0; i < g.m; i++)
		for (int j = 0; j < g.n; j++) {
			double s = 0;
			for (int x = 0; x < g.k; x++)
				s += (double)g.a[(size_t)i * g.k + x] * g.b[(size_t)x * g.n + j];
			wrong += c[(size_t)i * g.n + j] != s;
		}
	return wrong;
}

#endif
