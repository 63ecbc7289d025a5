/*
 * bigtile-study.cu - whether an f16 transpose whose warp instructions cover
 * 512 bytes of one row on both sides holds the copy ceiling where rows start
 * off 128-byte lines.  A copy in row pieces gets most of what such rows cost
 * back when an instruction covers 512 bytes of one row (rowpiece-study.cu);
 * a transpose's tile must then be 256 elements wide on both sides, 128 KiB
 * of shared memory, one block an SM.  This program measures that and the
 * shapes between it and the template's 64 x 64 tile, with one kernel:
 *
 *  - a block moves TH input rows by TW columns; each lane loads 16 bytes
 *    (8 elements) of two adjacent input rows, so that an instruction covers
 *    TW x 2 bytes of one row (up to 512);
 *  - a lane packs its two rows' elements into words of two (row r low, row
 *    r + 1 high), which are 4-byte pieces of output rows, and stores them in
 *    shared memory as words of a (TH / 2) x TW matrix, in 16-byte chunks
 *    swizzled by the row pair (chunk ^ (pair / 4) % 8) so that both phases
 *    meet distinct banks;
 *  - a lane then reads four chunks (four row pairs, four columns), and
 *    stores four 16-byte vectors, one each to four output rows, so that an
 *    instruction covers TH x 2 bytes of one output row (up to 512).
 *
 * Rows and cols must be multiples of 8 (every row on 16 bytes, on both
 * sides); partial tiles at the edges move whole 16-byte chunks.
 *
 * Build and run on the GPU machine (docs/benchmarks.md, "Tiles of 256"):
 *   nvcc -arch=sm_90 -O2 bench/bigtile-study.cu -o bigtile-study
 *   ./bigtile-study 2904x2904 3072x3072 ...      (ROWSxCOLS, multiples of 8)
 * Timed as every benchmark here is (timing.cuh, with its placements), each
 * output checked bit for bit against a host transpose; shares of the copy
 * ceiling (the faster of cudaMemcpyAsync and the copy kernel) over the
 * same bytes.
 */
#include <cuda_runtime.h>

#include <cstdint>
#include <random>
#include <utility>

#include "timing.cuh"

/* Chunk `chunk` of row pair `pair`, swizzled: pairs four apart start their
 * chunks at different 16-byte bank groups. */
__device__ __forceinline__ int swizzled(int pair, int chunk)
{
	return chunk ^ ((pair >> 2) & 7);
}

template <int TH, int TW, int NT>
__global__ void __launch_bounds__(NT) bigtile(const uint16_t *in, uint16_t *out, int rows, int cols, int along_rows)
{
	constexpr int CPR = TW / 8; /* 16-byte input chunks a tile row */
	constexpr int NQ = TH / 2 * CPR, LQ = NQ / NT; /* load items: a chunk of two rows */
	constexpr int GPR = TH / 8; /* 16-byte output chunks a tile's output row */
	constexpr int NO = TW / 4 * GPR, LO = NO / NT; /* store items: four output rows' chunks */
	constexpr int PITCH = TW / 4; /* 16-byte chunks a row pair in shared memory */
	static_assert(NQ % NT == 0 && NO % NT == 0 && TW % 32 == 0 && TH % 64 == 0, "whole passes");
	extern __shared__ uint4 smem[];

	const int nbc = (cols + TW - 1) / TW, nbr = (rows + TH - 1) / TH;
	const int bc = along_rows ? blockIdx.x % nbc : blockIdx.x / nbr;
	const int br = along_rows ? blockIdx.x / nbc : blockIdx.x % nbr;
	const int r0 = br * TH, c0 = bc * TW;

	uint4 a[LQ], b[LQ];
#pragma unroll
	for (int k = 0; k < LQ; k++) {
		const int q = threadIdx.x + k * NT, j = q % CPR, p = q / CPR;
		const int r = r0 + 2 * p, c = c0 + 8 * j;
		if (r < rows && c < cols) {
			a[k] = __ldg((const uint4 *)(in + (size_t)r * cols + c));
			b[k] = __ldg((const uint4 *)(in + (size_t)(r + 1) * cols + c));
		}
	}
#pragma unroll
	for (int k = 0; k < LQ; k++) {
		const int q = threadIdx.x + k * NT, j = q % CPR, p = q / CPR;
		/* Words of columns 8j .. 8j + 7: (row 2p, row 2p + 1). */
		uint4 lo, hi;
		lo.x = __byte_perm(a[k].x, b[k].x, 0x5410), lo.y = __byte_perm(a[k].x, b[k].x, 0x7632);
		lo.z = __byte_perm(a[k].y, b[k].y, 0x5410), lo.w = __byte_perm(a[k].y, b[k].y, 0x7632);
		hi.x = __byte_perm(a[k].z, b[k].z, 0x5410), hi.y = __byte_perm(a[k].z, b[k].z, 0x7632);
		hi.z = __byte_perm(a[k].w, b[k].w, 0x5410), hi.w = __byte_perm(a[k].w, b[k].w, 0x7632);
		/* Lanes 4 .. 7 of each eight store their second chunk first, so
		 * that the eight lanes of a phase meet eight bank groups. */
		const bool swap = (j >> 2) & 1;
		uint4 *row = smem + p * PITCH;
		row[swizzled(p, 2 * j + swap)] = swap ? hi : lo;
		row[swizzled(p, 2 * j + !swap)] = swap ? lo : hi;
	}
	__syncthreads();
#pragma unroll
	for (int k = 0; k < LO; k++) {
		const int q = threadIdx.x + k * NT, m = q % GPR, g = q / GPR;
		uint4 v[4];
#pragma unroll
		for (int i = 0; i < 4; i++)
			v[i] = smem[(4 * m + i) * PITCH + swizzled(4 * m + i, g)];
		const int r = r0 + 8 * m;
		if (r >= rows)
			continue;
		const uint32_t *w0 = &v[0].x, *w1 = &v[1].x, *w2 = &v[2].x, *w3 = &v[3].x;
#pragma unroll
		for (int e = 0; e < 4; e++) {
			const int c = c0 + 4 * g + e;
			if (c < cols)
				*(uint4 *)(out + (size_t)c * rows + r) = make_uint4(w0[e], w1[e], w2[e], w3[e]);
		}
	}
}

struct shape {
	const char *name;
	int th, tw, nt;
	void (*launch)(const uint16_t *, uint16_t *, int, int, int);
};

template <int TH, int TW, int NT> void launch_bigtile(const uint16_t *in, uint16_t *out, int rows, int cols, int along)
{
	constexpr int SMEM = TH * TW * 2;
	static bool set;
	if (!set) {
		CHECK(cudaFuncSetAttribute(bigtile<TH, TW, NT>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
		set = true;
	}
	const int blocks = ((rows + TH - 1) / TH) * ((cols + TW - 1) / TW);
	bigtile<TH, TW, NT><<<blocks, NT, SMEM>>>(in, out, rows, cols, along);
}

static const shape shapes[] = {
	{ "64x64/128", 64, 64, 128, launch_bigtile<64, 64, 128> },
	{ "64x128/256", 64, 128, 256, launch_bigtile<64, 128, 256> },
	{ "128x128/256", 128, 128, 256, launch_bigtile<128, 128, 256> },
	{ "128x128/512", 128, 128, 512, launch_bigtile<128, 128, 512> },
	{ "64x256/512", 64, 256, 512, launch_bigtile<64, 256, 512> },
	{ "128x256/512", 128, 256, 512, launch_bigtile<128, 256, 512> },
	{ "256x128/512", 256, 128, 512, launch_bigtile<256, 128, 512> },
	{ "256x256/512", 256, 256, 512, launch_bigtile<256, 256, 512> },
	{ "256x256/1024", 256, 256, 1024, launch_bigtile<256, 256, 1024> },
};

int main(int argc, char **argv)
{
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s ROWSxCOLS ...   (multiples of 8)\n", argv[0]);
		return 2;
	}
	std::vector<std::pair<int, int>> sizes;
	for (int i = 1; i < argc; i++) {
		int rows, cols, used = 0;
		if (std::sscanf(argv[i], "%dx%d%n", &rows, &cols, &used) != 2 || argv[i][used] || rows < 8 || cols < 8 ||
		    rows % 8 || cols % 8) {
			std::fprintf(stderr, "bad argument '%s' (ROWSxCOLS, both multiples of 8)\n", argv[i]);
			return 2;
		}
		sizes.emplace_back(rows, cols);
	}
	flushed_timing T;
	timing_init(T);
	std::printf("(TH x TW / threads; shares of the ceiling, blocks along the input's rows / down its columns)\n\n");
	std::printf("| size | in rows mod 128 B | out rows mod 128 B | ceiling GB/s |");
	for (const auto &s : shapes)
		std::printf(" %s |", s.name);
	std::printf(" right |\n|---|---|---|---|");
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		std::printf("---|");
	std::printf("---|\n");
	std::mt19937 rng(7);
	for (const auto &size : sizes) {
		const int rows = size.first, cols = size.second;
		const size_t n = (size_t)rows * cols, bytes = n * 2;
		std::vector<unsigned char> h(bytes), want, got(bytes);
		for (auto &x : h)
			x = (unsigned char)rng();
		host_transpose(want, h, rows, cols, 2);
		void *in, *out;
		CHECK(cudaMalloc(&in, bytes));
		CHECK(cudaMalloc(&out, bytes));
		CHECK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
		placements P;
		place_begin(T, P, &in, bytes, &out, bytes);
		const double memcpy_ms =
			time_ms(T, [&] { CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, 0)); });
		const double copy_ms = time_ms(T, [&] { launch_copy(in, out, bytes); });
		const double ceil_ms = std::min(memcpy_ms, copy_ms);
		std::printf("| %dx%d | %d | %d | %.0f |", rows, cols, cols * 2 % 128, rows * 2 % 128,
			    2.0 * bytes / 1e6 / ceil_ms);
		bool right = true;
		for (const auto &s : shapes) {
			double share[2];
			for (int along = 1; along >= 0; along--) {
				CHECK(cudaMemset(out, 0xff, bytes));
				s.launch((const uint16_t *)in, (uint16_t *)out, rows, cols, along);
				CHECK(cudaDeviceSynchronize());
				CHECK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
				right = right && got == want;
				share[along] = 100.0 * ceil_ms / time_ms(T, [&] {
					s.launch((const uint16_t *)in, (uint16_t *)out, rows, cols, along);
				});
			}
			std::printf(" %.1f / %.1f |", share[1], share[0]);
		}
		std::printf(" %s |\n", right ? "yes" : "NO");
		std::fflush(stdout);
		place_end(T, P);
		CHECK(cudaFree(in));
		CHECK(cudaFree(out));
	}
	return 0;
}
