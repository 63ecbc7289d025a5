/*
 * carveout-study.cu - does a matrix-multiply kernel of an exported header
 * run at one speed whatever the split of each SM's memory between L1 and
 * shared memory?  Every kernel of the header (GPUTUNE_GEMM_HEADER) timed
 * at each shape under the runtime's cache preferences (none, the
 * default; shared; L1; equal), under gputune's timing protocol.  Prints
 * one line a shape, kernel and preference: TFLOP/s.
 * Usage: carveout-study SHAPE...   (SHAPE is MxNxK)
 */
#include <cuda_runtime.h>

#include "timing.cuh"
#include GPUTUNE_GEMM_HEADER

int main(int argc, char **argv)
{
	flushed_timing T;
	timing_init(T);
	const int cc = T.prop.major * 10 + T.prop.minor;
	static const struct {
		const char *name;
		cudaFuncCache pref;
	} prefs[] = { { "none", cudaFuncCachePreferNone },
		      { "shared", cudaFuncCachePreferShared },
		      { "L1", cudaFuncCachePreferL1 },
		      { "equal", cudaFuncCachePreferEqual } };
	for (int a = 1; a < argc; a++) {
		int M, N, K;
		if (std::sscanf(argv[a], "%dx%dx%d", &M, &N, &K) != 3 || M < 1 || N < 1 || K < 1) {
			std::fprintf(stderr, "carveout-study: bad shape '%s' (MxNxK)\n", argv[a]);
			return 2;
		}
		float *A, *B, *C;
		CHECK(cudaMalloc(&A, (size_t)M * K * sizeof(float)));
		CHECK(cudaMalloc(&B, (size_t)K * N * sizeof(float)));
		CHECK(cudaMalloc(&C, (size_t)M * N * sizeof(float)));
		fill_uniform<<<1024, 256>>>(A, (size_t)M * K, 1);
		fill_uniform<<<1024, 256>>>(B, (size_t)K * N, 2);
		const double flop = 2.0 * M * N * K;
		const int chosen = gputune_gemm_choose(T.prop.name, cc, "f32", M, N, K);
		for (int v = 0; v < GPUTUNE_GEMM_NUM_VARIANTS; v++) {
			std::printf("%s %d%s", argv[a], v, v == chosen ? "*" : "");
			for (const auto &p : prefs) {
				CHECK(cudaDeviceSetCacheConfig(p.pref));
				const double ms = time_ms(T, [&] { gputune_gemm_launch(v, A, B, C, M, N, K, 0); });
				std::printf(" %s %.2f", p.name, flop / ms / 1e9);
			}
			CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone));
			std::printf(" %s\n", gputune_gemm_variants[v].params);
			std::fflush(stdout);
		}
		CHECK(cudaFree(A));
		CHECK(cudaFree(B));
		CHECK(cudaFree(C));
	}
	return 0;
}
