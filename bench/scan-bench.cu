/*
 * scan-bench.cu - one process that times, at each length and under the
 * protocol of the other benchmarks here (L2 flushed before each launch, 30
 * timed launches after warm-up, median, rotated over placements of the
 * buffers at small lengths), the copy ceiling and the inclusive prefix
 * sums a user could pick:
 *   copy     the best of cudaMemcpyAsync and a 16-byte copy kernel over the
 *            input: the ceiling
 *   cub      cub::DeviceScan::InclusiveSum, its temporary storage allocated
 *            once
 *   ladder   the classic ladder (gputune's named points, instantiated from
 *            the header's kernel template): a second table
 *   gputune  the variant gputune_scan_choose() picks from a header gputune
 *            exported (built by nvcc with this program), with its figure
 *            over the one the database recorded for it at a tuned length
 * Every output is checked against the host's, element by element (exact
 * for i32; for floats within 1e-6 of the prefix sum of magnitudes, on an
 * input of small integers).  Prints one Markdown table row per length and
 * type; figures are GB/s of input read and output written.
 *
 * Usage: scan-bench TYPE:N...   (TYPE f32, f64 or i32)
 */
#include "gputune_scan.h"
#include "timing.cuh"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

static std::vector<std::string> ladder_rows;

typedef flushed_timing bench;

template <typename T, typename A> static void run(bench &B, const char *dtype, size_t n)
{
	const bool integer = sizeof(T) == 4 && (T)0.5 == 0;
	std::vector<T> h(n);
	std::vector<A> got(n);
	std::vector<double> ref(n), mag(n);
	double s = 0, m = 0;
	unsigned wrapped = 0;
	std::vector<unsigned> wref(n);
	for (size_t i = 0; i < n; i++) {
		const int x = (int)((i * 2654435761u >> 9) % 17) - 8;
		h[i] = integer ? (T)(int)(i * 2654435761u) : (T)x;
		s += (double)x;
		m += std::fabs((double)x);
		ref[i] = s;
		mag[i] = m;
		wrapped += (unsigned)(int)(i * 2654435761u);
		wref[i] = wrapped;
	}
	void *in, *out, *scratch, *tmp = NULL;
	size_t bytes = n * sizeof(T), tmp_bytes = 0;
	CHECK(cudaMalloc(&in, bytes));
	CHECK(cudaMalloc(&out, bytes));
	CHECK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
	cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, (const A *)in, (A *)out, (int)n);
	CHECK(cudaMalloc(&tmp, tmp_bytes));
	int cc = B.prop.major * 10 + B.prop.minor;
	int v = gputune_scan_choose(B.prop.name, cc, dtype, (long)n);
	size_t sb = v >= 0 ? gputune_scan_scratch_bytes(v, n) : 0;
	/* The ladder's variants need at most one state per 256 elements. */
	size_t ladder_sb = 256 + 24 * (n / 256 + 1);
	CHECK(cudaMalloc(&scratch, std::max(sb, ladder_sb)));
	CHECK(cudaMemset(scratch, 0, std::max(sb, ladder_sb)));
	const gputune_scan_entry *e = gputune_scan_lookup(B.prop.name, cc, dtype, (long)n);
	placements P;
	place_begin(B, P, &in, bytes, &out, bytes);

	auto good = [&](const char *who) {
		CHECK(cudaDeviceSynchronize());
		CHECK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
		for (size_t i = 0; i < n; i++) {
			bool ok = integer ? (unsigned)got[i] == wref[i]
					  : std::fabs((double)got[i] - ref[i]) <= 1e-6 * mag[i];
			if (!ok) {
				std::fprintf(stderr, "%s %s n=%zu: element %zu is %.17g, expected %.17g\n", who, dtype, n, i,
					     (double)got[i], integer ? (double)wref[i] : ref[i]);
				return false;
			}
		}
		return true;
	};
	double moved = 2.0 * (double)bytes;
	auto gbps = [&](double ms) { return moved / (ms * 1e-3) / 1e9; };
	double memcpy_gbps = gbps(time_ms(B, [&] { CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice)); }));
	double kernel_gbps = gbps(time_ms(B, [&] { launch_copy(in, out, bytes); }));
	double ceiling = std::max(memcpy_gbps, kernel_gbps);
	auto cub_scan = [&] { cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, (const A *)in, (A *)out, (int)n); };
	CHECK(cudaMemset(out, 0x5a, bytes));
	cub_scan();
	double cub = good("cub") ? gbps(time_ms(B, cub_scan)) : 0;
	auto ours = [&] { CHECK(gputune_scan_launch(v, in, out, scratch, n, 0)); };
	double mine = 0;
	if (v >= 0) {
		CHECK(cudaMemset(out, 0x5a, bytes));
		ours();
		if (good("gputune"))
			mine = gbps(time_ms(B, ours));
	}
	/* The classic ladder: gputune's named points "chained" ... "vectorised". */
	std::string row = std::string("| ") + dtype + " | " + std::to_string(n);
	auto step = [&](unsigned tile, const std::function<void(unsigned)> &launch) {
		unsigned blocks = (unsigned)std::max<size_t>(1, (n + tile - 1) / tile);
		auto once = [&] { launch(blocks); };
		CHECK(cudaMemset(out, 0x5a, bytes));
		once();
		char cell[32] = " wrong";
		if (good("ladder"))
			std::snprintf(cell, sizeof(cell), " %.0f", gbps(time_ms(B, once)));
		row += std::string(" |") + cell;
	};
#define GT_LADDER(VEC, PER, BL, LB, PAD)                                                                        \
	step(256 * VEC * PER, [&](unsigned blocks) {                                                           \
		gputune_scan_kernel<0, T, A, 256, VEC, PER, BL, LB, PAD, 0, 0><<<blocks, 256>>>((const T *)in, (A *)out, \
											 scratch, n);               \
	})
	GT_LADDER(1, 8, 0, 0, 0);
	GT_LADDER(1, 8, 0, 1, 0);
	GT_LADDER(1, 8, 1, 1, 0);
	GT_LADDER(1, 8, 1, 1, 1);
	if (sizeof(T) * 4 <= 16)
		GT_LADDER(4, 2, 1, 1, 1);
	else
		row += " | -";
#undef GT_LADDER
	char tail[64];
	std::snprintf(tail, sizeof(tail), " | %.0f | %.0f |", cub, mine);
	ladder_rows.push_back(row + tail);

	char over[32] = "";
	if (e && mine > 0)
		std::snprintf(over, sizeof(over), "%.3f", mine / e->gbps);
	std::printf("| %s | %zu | %s | %.0f | %.0f | %.0f | %.2fx | %.1f%% | %.1f%% | %s | `%s` |\n", dtype, n,
		    e ? "tuned" : "held out", ceiling, cub, mine, cub > 0 ? mine / cub : 0.0, 100 * mine / ceiling,
		    100 * cub / ceiling, over, v >= 0 ? gputune_scan_variants[v].params : "none");
	std::fflush(stdout);
	place_end(B, P);
	cudaFree(in);
	cudaFree(out);
	cudaFree(tmp);
	cudaFree(scratch);
}

int main(int argc, char **argv)
{
	bench B;
	timing_init(B);
	std::printf("| type | N | size | copy GB/s | CUB GB/s | gputune GB/s | over CUB | gputune of ceiling | CUB of "
		    "ceiling | over database | variant |\n");
	std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (int i = 1; i < argc; i++) {
		const char *colon = std::strchr(argv[i], ':');
		if (!colon) {
			std::fprintf(stderr, "usage: scan-bench TYPE:N...\n");
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
	std::printf("\nThe classic ladder in the same process (GB/s; 256 threads):\n\n");
	std::printf("| type | N | chained | decoupled look-back | warp shuffles | padded | vectorised | CUB | gputune |\n");
	std::printf("|---|---|---|---|---|---|---|---|---|\n");
	for (const std::string &r : ladder_rows)
		std::printf("%s\n", r.c_str());
	return 0;
}
