/*
 * rowpiece-study.cu - what rows that start off a 128-byte line cost a
 * kernel that moves them in pieces, with no transposing at all: a matrix of
 * ROWS rows of PITCH bytes (a multiple of 16) is copied in blocks of R rows
 * by L bytes of a row, each lane moving 16 bytes, against a contiguous copy
 * of the same bytes.  A tile transpose's loads and stores meet rows so: its
 * warps read input rows and write output rows in pieces of a tile's width.
 * The pieces differ in how much of one row a warp's instruction covers (L /
 * 16 lanes a row: 128 bytes of each of 4 rows, 256 of 2, 512 of 1), and, in
 * the second form, at a block's width of 512 bytes, in the lanes a row (8
 * or 4), so that the block's bytes stay the same and only the instruction's
 * shape changes.
 *
 * Build and run on the GPU machine (docs/benchmarks.md, "Rows off 128-byte
 * lines"):
 *   nvcc -arch=sm_90 -O2 bench/rowpiece-study.cu -o rowpiece-study
 *   ./rowpiece-study 2904x5808 2904x5888 ...      (ROWSxPITCH, bytes)
 * Timed as every benchmark here is (timing.cuh), each output checked;
 * shares of the bandwidth of the benchmarks' copy kernel over the same bytes.
 */
#include <cuda_runtime.h>

#include <utility>

#include "timing.cuh"

/* Where lane `lane` of row `ry` of a block moves its vector (i, s): the
 * byte offset in the matrix, or -1 past its rows or its pitch. */
template <int L, int R, int LPR>
__device__ __forceinline__ long long piece_at(int i, int s, int rows, int pitch, int nchunks)
{
	constexpr int STEP = 256 / LPR;
	const int chunk = blockIdx.x % nchunks, rb = blockIdx.x / nchunks;
	const int lane = threadIdx.x % LPR, ry = threadIdx.x / LPR;
	const int r = rb * R + ry + i * STEP;
	const long long c = (long long)chunk * L + s * 16 * LPR + lane * 16;
	return r < rows && c < pitch ? (long long)r * pitch + c : -1;
}

/* A block of 256 threads moves R rows by L bytes; LPR lanes a row, each
 * moving L / (16 LPR) vectors 16 LPR bytes apart: a warp's instruction
 * covers 32 / LPR rows of 16 LPR bytes.  All loads before the stores, as a
 * tile's. */
template <int L, int R, int LPR>
__global__ void pieces(const char *in, char *out, int rows, int pitch, int nchunks)
{
	constexpr int STEP = 256 / LPR, S = L / (16 * LPR);
	static_assert(R % STEP == 0 && S >= 1, "whole passes of the block's rows");
	uint4 v[R / STEP][S];
#pragma unroll
	for (int pass = 0; pass < 2; pass++)
#pragma unroll
		for (int i = 0; i < R / STEP; i++)
#pragma unroll
			for (int s = 0; s < S; s++) {
				const long long at = piece_at<L, R, LPR>(i, s, rows, pitch, nchunks);
				if (at >= 0 && pass == 0)
					v[i][s] = *(const uint4 *)(in + at);
				else if (at >= 0)
					*(uint4 *)(out + at) = v[i][s];
			}
}

typedef void (*launcher)(const char *, char *, int, int);

template <int L, int R, int LPR> void launch_pieces(const char *in, char *out, int rows, int pitch)
{
	const int nchunks = (pitch + L - 1) / L, nrb = (rows + R - 1) / R;
	pieces<L, R, LPR><<<nchunks * nrb, 256>>>(in, out, rows, pitch, nchunks);
}

/* The reference: the benchmarks' copy kernel over the same bytes. */
static void launch_contiguous(const char *in, char *out, int rows, int pitch)
{
	launch_copy(in, out, (size_t)rows * pitch);
}

/* The protocol's median (timing.cuh); then the output is checked (every
 * byte of the input is 1, the output was cleared). */
static double median_ms(flushed_timing &T, launcher f, const char *in, char *out, int rows, int pitch, bool *right)
{
	const size_t bytes = (size_t)rows * pitch;
	CHECK(cudaMemset(out, 0, bytes));
	const double ms = time_ms(T, [&] { f(in, out, rows, pitch); });
	std::vector<char> h(bytes);
	CHECK(cudaMemcpy(h.data(), out, bytes, cudaMemcpyDeviceToHost));
	*right = *right && std::all_of(h.begin(), h.end(), [](char x) { return x == 1; });
	return ms;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		launcher f;
	} forms[] = {
		{ "128 B x 4 rows", launch_pieces<128, 64, 8> },
		{ "256 B x 2 rows", launch_pieces<256, 64, 16> },
		{ "512 B x 1 row", launch_pieces<512, 64, 32> },
		{ "block 512 B, 128 B x 4 rows", launch_pieces<512, 64, 8> },
		{ "block 512 B, 64 B x 8 rows", launch_pieces<512, 64, 4> },
	};
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s ROWSxPITCH ...   (PITCH in bytes, a multiple of 16)\n", argv[0]);
		return 2;
	}
	/* Every argument checked before any GPU work. */
	std::vector<std::pair<int, int>> sizes;
	for (int i = 1; i < argc; i++) {
		int rows, pitch, used = 0;
		if (std::sscanf(argv[i], "%dx%d%n", &rows, &pitch, &used) != 2 || argv[i][used] || rows < 1 || pitch < 16 ||
		    pitch % 16) {
			std::fprintf(stderr, "bad argument '%s' (ROWSxPITCH, the pitch a multiple of 16 bytes)\n", argv[i]);
			return 2;
		}
		sizes.emplace_back(rows, pitch);
	}
	flushed_timing T;
	timing_init(T);
	std::printf("| rows x pitch (bytes) | pitch mod 128 | contiguous GB/s |");
	for (const auto &form : forms)
		std::printf(" %s |", form.name);
	std::printf(" right |\n|---|---|---|");
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		std::printf("---|");
	std::printf("---|\n");
	for (const auto &[rows, pitch] : sizes) {
		const size_t bytes = (size_t)rows * pitch;
		char *in, *out;
		CHECK(cudaMalloc(&in, bytes));
		CHECK(cudaMalloc(&out, bytes));
		CHECK(cudaMemset(in, 1, bytes));
		bool right = true;
		const double ref = median_ms(T, launch_contiguous, in, out, rows, pitch, &right);
		std::printf("| %dx%d | %d | %.0f |", rows, pitch, pitch % 128, 2.0 * bytes / 1e6 / ref);
		for (const auto &form : forms)
			std::printf(" %.1f%% |", 100.0 * ref / median_ms(T, form.f, in, out, rows, pitch, &right));
		std::printf(" %s |\n", right ? "yes" : "NO");
		CHECK(cudaFree(in));
		CHECK(cudaFree(out));
	}
	return 0;
}
