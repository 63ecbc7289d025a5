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
 * Each output is checked; L2 flushed before each of 22 timed launches; the
 * median; shares of the contiguous copy's bandwidth.
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(x)                                                                           \
	do {                                                                               \
		cudaError_t e_ = (x);                                                      \
		if (e_ != cudaSuccess) {                                                   \
			std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));      \
			std::exit(1);                                                      \
		}                                                                          \
	} while (0)

/* The reference: every byte once, 16 at a time, in address order. */
__global__ void contiguous(const uint4 *in, uint4 *out, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
		out[i] = in[i];
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
	const int chunk = blockIdx.x % nchunks, rb = blockIdx.x / nchunks;
	const int lane = threadIdx.x % LPR, ry = threadIdx.x / LPR;
	uint4 v[R / STEP][S];
#pragma unroll
	for (int i = 0; i < R / STEP; i++)
#pragma unroll
		for (int s = 0; s < S; s++) {
			const int r = rb * R + ry + i * STEP;
			const size_t c = (size_t)chunk * L + s * 16 * LPR + lane * 16;
			if (r < rows && c < (size_t)pitch)
				v[i][s] = *(const uint4 *)(in + (size_t)r * pitch + c);
		}
#pragma unroll
	for (int i = 0; i < R / STEP; i++)
#pragma unroll
		for (int s = 0; s < S; s++) {
			const int r = rb * R + ry + i * STEP;
			const size_t c = (size_t)chunk * L + s * 16 * LPR + lane * 16;
			if (r < rows && c < (size_t)pitch)
				*(uint4 *)(out + (size_t)r * pitch + c) = v[i][s];
		}
}

typedef void (*launcher)(const char *, char *, int, int);

template <int L, int R, int LPR> void launch_pieces(const char *in, char *out, int rows, int pitch)
{
	const int nchunks = (pitch + L - 1) / L, nrb = (rows + R - 1) / R;
	pieces<L, R, LPR><<<nchunks * nrb, 256>>>(in, out, rows, pitch, nchunks);
}

static void launch_contiguous(const char *in, char *out, int rows, int pitch)
{
	const size_t n = (size_t)rows * pitch / 16;
	contiguous<<<132 * 8, 512>>>((const uint4 *)in, (uint4 *)out, n);
}

static char *flush_buffer; /* larger than any L2 of the GPUs measured */
static const size_t FLUSH_BYTES = (size_t)256 << 20;

/* Median of 22 launches, each after an L2 flush; the output is then
 * checked (every byte of the input is 1, the output was cleared). */
static float median_ms(launcher f, const char *in, char *out, int rows, int pitch, bool *right)
{
	const size_t bytes = (size_t)rows * pitch;
	cudaEvent_t a, b;
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	CHECK(cudaMemset(out, 0, bytes));
	std::vector<float> t;
	for (int k = 0; k < 25; k++) {
		CHECK(cudaMemsetAsync(flush_buffer, k, FLUSH_BYTES));
		CHECK(cudaEventRecord(a));
		f(in, out, rows, pitch);
		CHECK(cudaEventRecord(b));
		CHECK(cudaEventSynchronize(b));
		float ms;
		CHECK(cudaEventElapsedTime(&ms, a, b));
		if (k >= 3)
			t.push_back(ms);
	}
	std::vector<char> h(bytes);
	CHECK(cudaMemcpy(h.data(), out, bytes, cudaMemcpyDeviceToHost));
	*right = *right && std::all_of(h.begin(), h.end(), [](char x) { return x == 1; });
	CHECK(cudaEventDestroy(a));
	CHECK(cudaEventDestroy(b));
	std::sort(t.begin(), t.end());
	return t[t.size() / 2];
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
	for (int i = 1; i < argc; i++) {
		int rows, pitch;
		if (std::sscanf(argv[i], "%dx%d", &rows, &pitch) != 2 || rows < 1 || pitch < 16 || pitch % 16) {
			std::fprintf(stderr, "bad argument '%s' (ROWSxPITCH, the pitch a multiple of 16 bytes)\n", argv[i]);
			return 2;
		}
	}
	CHECK(cudaMalloc(&flush_buffer, FLUSH_BYTES));
	std::printf("| rows x pitch (bytes) | pitch mod 128 | contiguous GB/s |");
	for (const auto &form : forms)
		std::printf(" %s |", form.name);
	std::printf(" right |\n|---|---|---|");
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		std::printf("---|");
	std::printf("---|\n");
	for (int i = 1; i < argc; i++) {
		int rows, pitch;
		std::sscanf(argv[i], "%dx%d", &rows, &pitch); /* checked above */
		const size_t bytes = (size_t)rows * pitch;
		char *in, *out;
		CHECK(cudaMalloc(&in, bytes));
		CHECK(cudaMalloc(&out, bytes));
		CHECK(cudaMemset(in, 1, bytes));
		bool right = true;
		const float ref = median_ms(launch_contiguous, in, out, rows, pitch, &right);
		std::printf("| %dx%d | %d | %.0f |", rows, pitch, pitch % 128, 2.0 * bytes / 1e6 / ref);
		for (const auto &form : forms)
			std::printf(" %.1f%% |", 100.0 * ref / median_ms(form.f, in, out, rows, pitch, &right));
		std::printf(" %s |\n", right ? "yes" : "NO");
		CHECK(cudaFree(in));
		CHECK(cudaFree(out));
	}
	return 0;
}
