/*
 * reduce-bench.cu - one process that times, at each length and under the
 * same protocol as transpose-bench (L2 flushed before each launch, 30
 * timed launches after warm-up, median, rotated over placements of the
 * buffers at small lengths), the read ceiling and the sums a user could
 * pick:
 *   read     a streaming read of the input (the tuner's gt_read from
 *            templates/support.cu), the best of three block shapes: the
 *            ceiling
 *   cub      cub::DeviceReduce::Sum, its temporary storage allocated once
 *   ladder   the six steps of the classic ladder (gputune's named points,
 *            instantiated from the header's kernel template): a second
 *            table, one row per length and type
 *   gputune  the variant gputune_reduce_choose() picks from a header
 *            gputune exported (built by nvcc with this program), with its
 *            figure over the one the database recorded for it at a tuned
 *            length
 * Every sum is checked against the host's first (exact for i32; within
 * 1e-5 relative to the sum of magnitudes for floats).  Prints one Markdown
 * table row per length and type; figures are GB/s of input read.
 *
 * Usage: reduce-bench TYPE:N...   (TYPE f32, f64 or i32)
 */
#include "gputune_reduce.h"
#include "timing.cuh"
/* The tuner's own read ceiling, gt_read, so both measure the same read. */
#include "../templates/support.cu"

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

/* The ladder's rows, printed after the main table. */
static std::vector<std::string> ladder_rows;

typedef flushed_timing bench;

template <typename T, typename A> static void run(bench &B, const char *dtype, size_t n)
{
	std::vector<T> h(n);
	double ref = 0, mag = 0;
	unsigned wrapped = 0;
	unsigned long long s = 0x9e3779b97f4a7c15ULL ^ n;
	for (size_t i = 0; i < n; i++) {
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		unsigned long long r = s * 0x2545F4914F6CDD1DULL;
		if (sizeof(T) == 4 && (T)0.5 == 0) /* i32 */
			h[i] = (T)(int)(r >> 32);
		else
			h[i] = (T)((double)(long long)(r >> 11) / 9007199254740992.0 * 2 - 1 + ((r & 7) == 0 ? 100 : 0));
		ref += (double)h[i];
		mag += std::fabs((double)h[i]);
		wrapped += (unsigned)(long long)h[i];
	}
	void *in, *out, *scratch, *tmp = NULL;
	unsigned long long *sink; /* gt_read may write sink[3] */
	size_t tmp_bytes = 0;
	CHECK(cudaMalloc(&in, n * sizeof(T)));
	CHECK(cudaMalloc(&out, 16));
	CHECK(cudaMalloc(&sink, 4 * sizeof(unsigned long long)));
	CHECK(cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
	cub::DeviceReduce::Sum(tmp, tmp_bytes, (const T *)in, (T *)out, (int)n);
	CHECK(cudaMalloc(&tmp, tmp_bytes));
	int cc = B.prop.major * 10 + B.prop.minor;
	int v = gputune_reduce_choose(B.prop.name, cc, dtype, (long)n);
	size_t sb = v >= 0 ? gputune_reduce_scratch_bytes(v, n) : 0;
	CHECK(cudaMalloc(&scratch, sb ? sb : 16));
	CHECK(cudaMemset(scratch, 0, sb ? sb : 16));
	const gputune_reduce_entry *e = gputune_reduce_lookup(B.prop.name, cc, dtype, (long)n);
	placements P;
	place_begin(B, P, &in, n * sizeof(T), &out, 16);

	auto good = [&](const char *who) {
		A got;
		CHECK(cudaMemcpy(&got, out, sizeof(A), cudaMemcpyDeviceToHost));
		bool ok = sizeof(T) == 4 && (T)0.5 == 0 ? (unsigned)got == wrapped
							: std::fabs((double)got - ref) <= 1e-5 * mag;
		if (!ok)
			std::fprintf(stderr, "%s %s n=%zu: wrong sum %.17g, expected %.17g\n", who, dtype, n, (double)got,
				     ref);
		return ok;
	};
	double bytes = (double)n * sizeof(T);
	auto gbps = [&](double ms) { return bytes / (ms * 1e-3) / 1e9; };
	double best_read = 0;
	const int shapes[3][2] = { { 256, 8 }, { 512, 4 }, { 1024, 2 } };
	for (auto &sh : shapes) {
		double ms = time_ms(B, [&] {
			gt_read<<<sh[1] * B.prop.multiProcessorCount, sh[0]>>>((const uint4 *)in, n * sizeof(T),
									   sink);
		});
		best_read = std::max(best_read, gbps(ms));
	}
	auto cub_sum = [&] { cub::DeviceReduce::Sum(tmp, tmp_bytes, (const T *)in, (T *)out, (int)n); };
	CHECK(cudaMemset(out, 0x5a, 16));
	cub_sum();
	bool cub_ok = good("cub");
	double cub = cub_ok ? gbps(time_ms(B, cub_sum)) : 0;
	auto ours = [&] { CHECK(gputune_reduce_launch(v, in, out, scratch, n, 0)); };
	double mine = 0;
	if (v >= 0) {
		CHECK(cudaMemset(out, 0x5a, 16));
		ours();
		if (good("gputune"))
			mine = gbps(time_ms(B, ours));
	}
	/* The classic ladder: 128 threads, one element per load, the tree of
	 * the step, the last block summing the blocks' sums (gputune's named
	 * points "interleaved-divergent" ... "per-thread"). */
	std::string row = std::string("| ") + dtype + " | " + std::to_string(n);
	void *ls_shared = nullptr;
	size_t ls_bytes = 256 + 8 * ((n + 127) / 128 + 1);
	CHECK(cudaMalloc(&ls_shared, ls_bytes));
	auto step = [&](int unroll, int grid, const std::function<void(unsigned)> &launch) {
		unsigned long long need = (n + 128ULL * unroll - 1) / (128ULL * unroll);
		unsigned blocks = (unsigned)(grid && (unsigned long long)grid < need ? grid : (need ? need : 1));
		auto once = [&] { launch(blocks); };
		CHECK(cudaMemset(ls_shared, 0, ls_bytes));
		CHECK(cudaMemset(out, 0x5a, 16));
		once();
		CHECK(cudaDeviceSynchronize());
		char cell[32] = " wrong";
		if (good("ladder"))
			std::snprintf(cell, sizeof(cell), " %.0f", gbps(time_ms(B, once)));
		row += std::string(" |") + cell;
	};
#define GT_LADDER(U, G, BL)                                                                                    \
	step(U, G, [&](unsigned blocks) {                                                                     \
		gputune_reduce_kernel<0, T, A, 128, 1, U, G, BL, 0, 0><<<blocks, 128>>>((const T *)in, (A *)out, \
										     ls_shared, n);              \
	})
	GT_LADDER(1, 0, 0);
	GT_LADDER(1, 0, 1);
	GT_LADDER(1, 0, 2);
	GT_LADDER(2, 0, 2);
	GT_LADDER(2, 0, 3);
	GT_LADDER(2, 1024, 3);
#undef GT_LADDER
	cudaFree(ls_shared);
	char tail[64];
	std::snprintf(tail, sizeof(tail), " | %.0f | %.0f |", cub, mine);
	ladder_rows.push_back(row + tail);

	char over[32] = "";
	if (e && mine > 0)
		std::snprintf(over, sizeof(over), "%.3f", mine / e->gbps);
	std::printf("| %s | %zu | %s | %.0f | %.0f | %.0f | %.2fx | %.1f%% | %s | `%s` |\n", dtype, n,
		    e ? "tuned" : "held out", best_read, cub, mine, cub > 0 ? mine / cub : 0.0,
		    100 * mine / best_read, over, v >= 0 ? gputune_reduce_variants[v].params : "none");
	std::fflush(stdout);
	place_end(B, P);
	cudaFree(in);
	cudaFree(out);
	cudaFree(sink);
	cudaFree(tmp);
	cudaFree(scratch);
}

int main(int argc, char **argv)
{
	bench B;
	timing_init(B);
	std::printf("| type | N | size | read GB/s | CUB GB/s | gputune GB/s | over CUB | of ceiling | over database | variant |\n");
	std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
	for (int i = 1; i < argc; i++) {
		const char *colon = std::strchr(argv[i], ':');
		if (!colon) {
			std::fprintf(stderr, "usage: reduce-bench TYPE:N...\n");
			return 2;
		}
		size_t n = std::strtoull(colon + 1, NULL, 10);
		if (!std::strncmp(argv[i], "f32", 3))
			run<float, float>(B, "f32", n);
		else if (!std::strncmp(argv[i], "f64", 3))
			run<double, double>(B, "f64", n);
		else if (!std::strncmp(argv[i], "i32", 3))
			run<int, unsigned>(B, "i32", n);
	}
	std::printf("\nThe classic ladder in the same process (GB/s; 128 threads, one element per load):\n\n");
	std::printf("| type | N | interleaved, divergent | interleaved | sequential | first add during load | "
		    "unrolled last warp | several per thread | CUB | gputune |\n");
	std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
	for (const std::string &r : ladder_rows)
		std::printf("%s\n", r.c_str());
	return 0;
}
