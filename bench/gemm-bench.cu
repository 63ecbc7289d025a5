/*
 * gemm-bench.cu - the matrix multiply template (templates/gemm.cu) at a
 * few fixed points against cuBLAS SGEMM in pedantic FP32 (no TF32, no
 * tensor cores), side by side in one process, under the tuner's timing
 * protocol (bench/timing.cuh).  Every result is checked against a
 * reference computed on the GPU in double precision, within
 * gamma(K) * sum_k |a_ik b_kj| per element (u = 2^-24, gamma(K) = K u /
 * (1 - K u)), on inputs of both signs.
 *
 * Build: nvcc -O3 -std=c++17 -arch=sm_90 -I. bench/gemm-bench.cu -lcublas
 * With -DGPUTUNE_GEMM_HEADER='"gputune_gemm.h"' (a header `gputune export
 * --kernel gemm` wrote) it times, beside cuBLAS, the seed's two kernels
 * and the variant the header chooses at each shape, and the header's
 * figure for that shape when it was tuned there (nvcc-built kernel over
 * the database's figure).
 * Usage: gemm-bench [--header-only] [--every-variant FILE] [SHAPE ...]   SHAPE is MxNxK, or
 *        random:COUNT:LO-HI:SEED for COUNT shapes of M, N and K each drawn
 *        log-uniformly from [LO, HI] (the same shapes for the same text);
 *        default: the squares 1024 to 8192 and two shapes that are
 *        multiples of no tile.  --header-only times cuBLAS and the header's
 *        choice alone (no seed kernels).  With a header, the last line
 *        gives the choice's share of cuBLAS: the worst, the median and how
 *        many shapes are below 0.90.
 *        --every-variant FILE (with a header) times every variant the
 *        header holds at each shape, checked, each a line of FILE (CSV:
 *        shape, variant, its parameters, ms, TFLOP/s, of cuBLAS, whether
 *        right, whether the header's choice), and prints each shape's best
 *        of them beside the choice: what the candidates allow at shapes
 *        nobody tuned, apart from the rule that picks among them.
 */
#include <cublas_v2.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "bench/timing.cuh"
#include "bench/gemm-check.cuh"
#define GT_HEADER_KERNEL gemm_kernel
#include "templates/gemm.cu"
#undef GT_HEADER_KERNEL
#ifdef GPUTUNE_GEMM_HEADER
#include GPUTUNE_GEMM_HEADER
#endif

struct point {
	const char *name;
	void (*launch)(const float *, const float *, float *, int, int, int);
};

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD, int DBUF, int GROUP>
static void launch(const float *A, const float *B, float *C, int M, int N, int K)
{
	typedef gt_gemm_shape<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, 1> S;
	const size_t smem = (size_t)S::STAGE * (DBUF ? 2 : 1) * sizeof(float);
	auto k = gemm_kernel<0, BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, 1, 0, 0>; /* no split, realign or async */
	static bool ready = false;
	if (!ready) {
		CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
		ready = true;
	}
	const unsigned blocks = (unsigned)(((M + BM - 1) / BM) * ((N + BN - 1) / BN));
	k<<<blocks, S::THREADS, smem>>>(A, B, C, M, N, K);
}

/* BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP */
static const point points[] = {
	{ "simple 16x16 (one output a thread)", launch<16, 16, 16, 4, 8, 1, 1, 1, 0, 0, 1> },
	{ "reg2d 128x128x8, 8x8 a thread", launch<128, 128, 8, 32, 64, 8, 8, 4, 4, 0, 1> },
	{ "128x128x8 w64x64 t8x8 dbuf g8", launch<128, 128, 8, 64, 64, 8, 8, 4, 4, 1, 8> },
	{ "128x128x16 w64x64 t8x4 dbuf g8", launch<128, 128, 16, 64, 64, 8, 4, 4, 4, 1, 8> },
	{ "128x128x8 w64x64 t8x4 dbuf g8", launch<128, 128, 8, 64, 64, 8, 4, 4, 4, 1, 8> },
	{ "128x256x8 w64x64 t8x4 dbuf g8", launch<128, 256, 8, 64, 64, 8, 4, 4, 4, 1, 8> },
	{ "256x128x8 w64x64 t8x4 dbuf g8", launch<256, 128, 8, 64, 64, 8, 4, 4, 4, 1, 8> },
	{ "128x256x8 w64x64 t8x8 dbuf g8", launch<128, 256, 8, 64, 64, 8, 8, 4, 4, 1, 8> },
	{ "64x128x8 w32x64 t8x8 dbuf g8", launch<64, 128, 8, 32, 64, 8, 8, 4, 4, 1, 8> },
	{ "128x256x16 w64x64 t8x4 dbuf g8", launch<128, 256, 16, 64, 64, 8, 4, 4, 4, 1, 8> },
	{ "256x128x16 w64x64 t8x4 dbuf g8", launch<256, 128, 16, 64, 64, 8, 4, 4, 4, 1, 8> },
	{ "128x256x8 w64x64 t8x4 pad0 dbuf g8", launch<128, 256, 8, 64, 64, 8, 4, 4, 0, 1, 8> },
	{ "128x256x8 w64x64 t8x4 pad8 dbuf g8", launch<128, 256, 8, 64, 64, 8, 4, 4, 8, 1, 8> },
	{ "128x256x8 w64x64 t8x4 dbuf g4", launch<128, 256, 8, 64, 64, 8, 4, 4, 4, 1, 4> },
	{ "128x256x8 w64x64 t8x4 dbuf g16", launch<128, 256, 8, 64, 64, 8, 4, 4, 4, 1, 16> },
	{ "128x256x8 w32x128 t4x8 dbuf g8", launch<128, 256, 8, 32, 128, 4, 8, 4, 4, 1, 8> },
	{ "128x256x8 w64x64 t4x8 dbuf g8", launch<128, 256, 8, 64, 64, 4, 8, 4, 4, 1, 8> },
	{ "256x128x8 w128x32 t8x4 dbuf g8", launch<256, 128, 8, 128, 32, 8, 4, 4, 4, 1, 8> },
	{ "128x128x8 w32x64 t8x8 dbuf g8", launch<128, 128, 8, 32, 64, 8, 8, 4, 4, 1, 8> },
	{ "64x64x16 w32x64 t4x8 dbuf g8", launch<64, 64, 16, 32, 64, 4, 8, 4, 4, 1, 8> },
};

/* random:COUNT:LO-HI:SEED into shapes: each dimension log-uniform in
 * [LO, HI] from a counter-based generator.  false when the text is not
 * one.  The counter of SEED starts at SEED + 1 and takes three steps a
 * shape, so two seeds closer than three times COUNT share draws: seed 101
 * repeats the last 6 of seed 59's 20 shapes, and seed 7's 40 hold seed
 * 59's 60 dimensions one place along (59's 1399x7019x6816 is 7's
 * 5488x1399x7019).  Kept so, as every run of record is of seed 59; for
 * shapes apart from them take a seed at least three times COUNT away. */
static bool random_shapes(const char *text, std::vector<std::string> &shapes)
{
	unsigned count, seed;
	long lo, hi;
	char extra;
	if (std::sscanf(text, "random:%u:%ld-%ld:%u%c", &count, &lo, &hi, &seed, &extra) != 4 || lo < 1 || hi < lo ||
	    count < 1)
		return false;
	unsigned long long x = 0x9e3779b97f4a7c15ULL * (seed + 1);
	for (unsigned i = 0; i < count; i++) {
		long d[3];
		for (int j = 0; j < 3; j++) {
			x += 0x9e3779b97f4a7c15ULL;
			unsigned long long z = x;
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
			z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
			z ^= z >> 31;
			const double u = (double)(z >> 11) / 9007199254740992.0;
			d[j] = std::lround(std::exp(std::log((double)lo) + u * (std::log((double)hi) - std::log((double)lo))));
		}
		shapes.push_back(std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]));
	}
	return true;
}

int main(int argc, char **argv)
{
	std::vector<std::string> shapes;
	bool header_only = false;
	FILE *every = NULL; /* --every-variant's table */
	for (int i = 1; i < argc; i++) {
		if (!std::strcmp(argv[i], "--header-only"))
			header_only = true;
		else if (!std::strcmp(argv[i], "--every-variant")) {
			if (i + 1 == argc) {
				std::fprintf(stderr, "gemm-bench: --every-variant needs a FILE\n");
				return 2;
			}
#ifndef GPUTUNE_GEMM_HEADER
			std::fprintf(stderr, "gemm-bench: --every-variant needs a header (GPUTUNE_GEMM_HEADER)\n");
			return 2;
#endif
			if (!(every = std::fopen(argv[++i], "w"))) {
				std::fprintf(stderr, "gemm-bench: cannot write '%s'\n", argv[i]);
				return 2;
			}
			std::fprintf(every, "shape,variant,params,ms,tflops,of_cublas,right,chosen\n");
		}
		else if (std::strncmp(argv[i], "random:", 7))
			shapes.push_back(argv[i]);
		else if (!random_shapes(argv[i], shapes)) {
			std::fprintf(stderr, "gemm-bench: bad shapes '%s' (random:COUNT:LO-HI:SEED)\n", argv[i]);
			return 2;
		}
	}
	if (shapes.empty())
		shapes = { "1024x1024x1024", "2048x2048x2048", "4096x4096x4096", "8192x8192x8192", "4000x3000x5000",
			   "8191x1024x4097" };
	flushed_timing T;
	timing_init(T);
	cublasHandle_t h;
	CHECK_BLAS(cublasCreate(&h));
	CHECK_BLAS(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
	std::printf("%s, %d SMs; cuBLAS SGEMM in pedantic FP32; L2 flushed, median of 30\n\n", T.prop.name,
		    T.prop.multiProcessorCount);
	std::printf("| shape (MxNxK) | kernel | ms | TFLOP/s | of cuBLAS | error / bound |\n|---|---|---|---|---|---|\n");
	std::vector<double> shares; /* the header's choice over cuBLAS, a shape each */
	std::vector<double> bests;  /* with --every-variant, the best of its variants over cuBLAS */
	for (const std::string &sh : shapes) {
		int M, N, K;
		if (std::sscanf(sh.c_str(), "%dx%dx%d", &M, &N, &K) != 3 || M < 1 || N < 1 || K < 1) {
			std::fprintf(stderr, "gemm-bench: bad shape '%s' (MxNxK)\n", sh.c_str());
			return 2;
		}
		const gemm_problem P(M, N, K);
		const float *A = P.A, *B = P.B;
		float *C = P.C;
		const double flop = 2.0 * M * N * K;
		auto check = [&](void) { return P.error(); };
		auto blas = [&] { P.cublas(h); };
		CHECK(cudaMemset(C, 0, (size_t)M * N * sizeof(float)));
		blas();
		const float wb = check();
		const double mb = time_ms(T, blas);
		std::printf("| %s | cuBLAS SGEMM | %.3f | %.1f | 100%% | %.3f |\n", sh.c_str(), mb, flop / mb / 1e9, wb);
#ifdef GPUTUNE_GEMM_HEADER
		/* The tuned choice, then the seed's two kernels only. */
		const int cc = T.prop.major * 10 + T.prop.minor;
		const int v = gputune_gemm_choose(T.prop.name, cc, "f32", M, N, K);
		const gputune_gemm_entry *e = gputune_gemm_lookup(T.prop.name, cc, "f32", M, N, K);
		CHECK(cudaMemset(C, 0, (size_t)M * N * sizeof(float)));
		CHECK(gputune_gemm_launch(v, A, B, C, M, N, K, 0));
		const float wt = check();
		const double mt = time_ms(T, [&] { gputune_gemm_launch(v, A, B, C, M, N, K, 0); });
		char db[64] = "untuned here";
		if (e)
			std::snprintf(db, sizeof(db), "%.1f%% of the database's %.1f", 100 * flop / mt / 1e6 / e->gflops,
				      e->gflops / 1e3);
		std::printf("| %s | gputune: %s (%s) | %.3f | %.1f | %.1f%% | %.3f%s |\n", sh.c_str(),
			    gputune_gemm_variants[v].params, db, mt, flop / mt / 1e9, 100 * mb / mt, wt,
			    wt <= 1 ? "" : " WRONG");
		shares.push_back(wt <= 1 ? mb / mt : 0);
		if (every) {
			int best = -1;
			double best_ms = 0;
			for (int u = 0; u < GPUTUNE_GEMM_NUM_VARIANTS; u++) {
				CHECK(cudaMemset(C, 0, (size_t)M * N * sizeof(float)));
				CHECK(gputune_gemm_launch(u, A, B, C, M, N, K, 0));
				const float w = check();
				const double ms = time_ms(T, [&] { gputune_gemm_launch(u, A, B, C, M, N, K, 0); });
				std::fprintf(every, "%s,%d,\"%s\",%.4f,%.2f,%.4f,%d,%d\n", sh.c_str(), u,
					     gputune_gemm_variants[u].params, ms, flop / ms / 1e9, mb / ms, w <= 1, u == v);
				if (w <= 1 && (best < 0 || ms < best_ms)) {
					best = u;
					best_ms = ms;
				}
			}
			std::fflush(every);
			bests.push_back(best >= 0 ? mb / best_ms : 0);
			if (best >= 0)
				std::printf("| %s | the best of the header's %d: %s | %.3f | %.1f | %.1f%% | |\n", sh.c_str(),
					    GPUTUNE_GEMM_NUM_VARIANTS, gputune_gemm_variants[best].params, best_ms,
					    flop / best_ms / 1e9, 100 * mb / best_ms);
		}
		const size_t npoints = header_only ? 0 : 2;
#else
		const size_t npoints = header_only ? 0 : sizeof(points) / sizeof(points[0]);
#endif
		for (size_t i = 0; i < npoints; i++) {
			const point &p = points[i];
			CHECK(cudaMemset(C, 0, (size_t)M * N * sizeof(float)));
			p.launch(A, B, C, M, N, K);
			CHECK(cudaGetLastError());
			const float w = check();
			const double ms = time_ms(T, [&] { p.launch(A, B, C, M, N, K); });
			std::printf("| %s | %s | %.3f | %.1f | %.1f%% | %.3f%s |\n", sh.c_str(), p.name, ms, flop / ms / 1e9,
				    100 * mb / ms, w, w <= 1 ? "" : " WRONG");
		}
		std::fflush(stdout);
	}
	CHECK_BLAS(cublasDestroy(h));
	if (every)
		std::fclose(every);
	/* The worst, the median and how many below 0.90 of a list of shares. */
	auto summary = [](const char *what, std::vector<double> v) {
		if (v.empty())
			return;
		std::sort(v.begin(), v.end());
		const size_t n = v.size();
		const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		const long below = std::count_if(v.begin(), v.end(), [](double x) { return x < 0.90; });
		std::printf("\n%s over cuBLAS at %zu shapes: worst %.3f, median %.3f, %ld below 0.90 "
			    "(a wrong result counts 0)\n", what, n, v[0], median, below);
	};
	summary("the header's choice", shares);
	summary("the best of the header's variants", bests);
	return 0;
}
