/*
 * gemm-stream-host.cc - the matrix-multiply template's stream-K (STREAM 1)
 * run on the host (cuda-host.h) at several grids and shapes, each C
 * checked exactly.
 *
 * Its blocks run one after another in the order of their places, so a
 * block that waits for the one before finds its flag set: what this
 * checks is that the parts of every tile cover its rounds once each and
 * are summed in C, whatever the grid (one block; fewer blocks than tiles;
 * whole tiles then a shared rest; more blocks than rounds), and that each
 * launch leaves the counters for the next.  A and B hold nonzero integers
 * from -4 to 4, so every sum is exact in float in any order: C must be
 * exactly A B, and a part left out or added twice shows.  C starts as
 * NaN, so that an element no part stores shows too.
 *
 * Prints a TAP line per check ("ok N - ..." or "not ok N - ...").
 */
#include "cuda-host.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "gemm-host-prelude.h"

namespace {

int checks, failures;

/* A nonzero integer from -4 to 4 of hash h. */
float value(size_t h)
{
	const int x = (int)(h % 8) - 4;
	return (float)(x >= 0 ? x + 1 : x);
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD, int DBUF, int GROUP, int FLAT>
void check(const char *name, int M, int N, int K, unsigned grid)
{
	typedef gt_gemm_shape<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, 1> S;
	std::vector<float> A((size_t)M * K), B((size_t)K * N), C((size_t)M * N, NAN);
	for (size_t i = 0; i < A.size(); i++)
		A[i] = value(i * 2654435761u >> 9);
	for (size_t i = 0; i < B.size(); i++)
		B[i] = value((i * 40503u + 17) >> 5);
	const unsigned launches = gt_gemm_stream_launch;
	const char *fault = nullptr;
	/* Twice: the second launch finds the counters as the first left them. */
	for (int rep = 0; rep < 2 && !fault; rep++)
		fault = cuda_host::launch(grid, S::THREADS, 1, [&] {
			gt_gemm<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, 1, 0, 0, FLAT, 1>(A.data(), B.data(),
											      C.data(), M, N, K);
		});
	long wrong = 0;
	double first_got = 0, first_want = 0;
	for (int i = 0; i < M && !fault; i++)
		for (int j = 0; j < N; j++) {
			double want = 0;
			for (int k = 0; k < K; k++)
				want += (double)A[(size_t)i * K + k] * B[(size_t)k * N + j];
			const float got = C[(size_t)i * N + j];
			if (!(got == want) && wrong++ == 0) {
				first_got = got;
				first_want = want;
			}
		}
	const bool reset = gt_gemm_stream_next == 0 && gt_gemm_stream_done == 0 &&
			   gt_gemm_stream_launch == launches + 2;
	checks++;
	if (!fault && wrong == 0 && reset) {
		std::printf("ok %d - %s %dx%dx%d over %u blocks\n", checks, name, M, N, K, grid);
		return;
	}
	failures++;
	std::printf("not ok %d - %s %dx%dx%d over %u blocks: ", checks, name, M, N, K, grid);
	if (fault)
		std::printf("%s\n", fault);
	else if (wrong)
		std::printf("%ld elements wrong, the first %g where A B is %g\n", wrong, first_got, first_want);
	else
		std::printf("the counters left at %u, %u and %u launches (%u before)\n", gt_gemm_stream_next,
			    gt_gemm_stream_done, gt_gemm_stream_launch, launches);
}

} // namespace

int main()
{
	/* One element; less than a tile; a tile; remainders everywhere; many
	 * tiles of a short K; few tiles of a long K. */
	const int shapes[][3] = { { 1, 1, 1 }, { 37, 41, 53 }, { 64, 64, 64 }, { 130, 66, 200 },
				  { 200, 260, 20 }, { 65, 33, 517 } };
	const unsigned grids[] = { 1, 2, 3, 7, 13, 40, 1000 };
	for (const auto &s : shapes)
		for (unsigned g : grids) {
			check<32, 32, 16, 16, 16, 2, 2, 4, 4, 1, 1, 2>("32x32 tiles, flat=lanes", s[0], s[1], s[2], g);
			check<64, 32, 16, 32, 16, 4, 2, 4, 0, 1, 8, 0>("64x32 tiles, group 8", s[0], s[1], s[2], g);
			check<32, 64, 16, 16, 32, 2, 4, 4, 4, 1, 1, 4>("32x64 tiles, flat=floats", s[0], s[1], s[2], g);
		}
	std::printf("# %d checks, %d failed\n", checks, failures);
	return failures != 0;
}
