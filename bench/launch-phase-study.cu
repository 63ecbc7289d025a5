/*
 * launch-phase-study.cu - whether a header kernel's speed depends on the
 * launches that came before it on the stream.  At each size, the header's
 * choice (a `rowclass=on` kernel, which takes tensor maps, at the sizes
 * the study is for) and, beside it, the first variant of the same element
 * type that takes none, are timed in measurements of n launches, each
 * after an L2 flush and between two events, waited for, in these forms:
 *
 *   warm W, extra E, alt A: W warm-up launches before the measurement; E
 *   empty launches (timing.cuh's timing_idle) after each flush, one more
 *   on every other step if A.
 *
 * Each line gives the first launches' GB/s and the 10th, 50th and 90th
 * percentiles.  If the speed followed the count of launches before, the
 * medians of successive measurements would alternate where that count
 * changes parity from one measurement to the next (warm 3: 3 + 2n
 * launches a measurement), hold where it does not (warm 4), and hold
 * between the two speeds with the empty launch every other step.
 *
 * Build and run on the GPU machine against an exported header
 * (docs/benchmarks.md, "Two speeds of a kernel that takes tensor maps"):
 *   nvcc -arch=sm_90 -O2 -I DIR_OF_HEADER bench/launch-phase-study.cu -o launch-phase-study
 *   ./launch-phase-study f16 6654x1315 2897x2898 ...
 */
#include <cuda_runtime.h>

#include <cstring>
#include <utility>

#include "gputune_transpose.h"
#include "timing.cuh"

/* One measurement in the form above: the GB/s of each of n launches. */
template <typename F>
static std::vector<double> measure(flushed_timing &T, const F &launch, double bytes, int warm, int extra, bool alt,
				   int n)
{
	for (int i = 0; i < warm; i++)
		launch();
	std::vector<double> gbs(n);
	for (int i = 0; i < n; i++) {
		float ms = 0;
		CHECK(cudaMemsetAsync(T.flush, i, T.flush_bytes, 0));
		for (int e = 0; e < extra + (alt && i % 2); e++)
			timing_idle<<<1, 32>>>();
		CHECK(cudaEventRecord(T.a, 0));
		launch();
		CHECK(cudaEventRecord(T.b, 0));
		CHECK(cudaEventSynchronize(T.b));
		CHECK(cudaEventElapsedTime(&ms, T.a, T.b));
		gbs[i] = bytes / (ms * 1e6);
	}
	CHECK(cudaGetLastError());
	return gbs;
}

static void report(const char *form, std::vector<double> gbs)
{
	std::printf("%-30s first:", form);
	for (int i = 0; i < 8; i++)
		std::printf(" %5.0f", gbs[i]);
	std::sort(gbs.begin(), gbs.end());
	const size_t n = gbs.size();
	std::printf(" | p10 %5.0f median %5.0f p90 %5.0f\n", gbs[n / 10], gbs[n / 2], gbs[n * 9 / 10]);
	std::fflush(stdout);
}

static void study(flushed_timing &T, const char *dtype, int v, unsigned rows, unsigned cols, size_t esize)
{
	const size_t bytes = (size_t)rows * cols * esize;
	void *in, *out;
	CHECK(cudaMalloc(&in, bytes));
	CHECK(cudaMalloc(&out, bytes));
	CHECK(cudaMemset(in, 1, bytes));
	std::printf("# %s %ux%u variant %d: %s\n", dtype, rows, cols, v, gputune_transpose_variants[v].params);
	auto launch = [&] { CHECK(gputune_transpose_launch(v, in, out, rows, cols, 0)); };
	static const struct {
		int warm, extra, n, times;
		bool alt;
	} forms[] = { { 3, 0, 200, 4, false }, { 4, 0, 200, 4, false }, { 4, 1, 200, 2, false },
		      { 3, 0, 200, 4, true },  { 3, 0, 30, 6, false },  { 3, 0, 30, 6, true } };
	for (const auto &f : forms)
		for (int t = 0; t < f.times; t++) {
			char name[64];
			std::snprintf(name, sizeof(name), "warm %d, extra %d, alt %d, n %d", f.warm, f.extra, f.alt, f.n);
			report(name, measure(T, launch, 2.0 * bytes, f.warm, f.extra, f.alt, f.n));
		}
	CHECK(cudaFree(in));
	CHECK(cudaFree(out));
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		std::fprintf(stderr, "usage: %s f16|f32|f64 ROWSxCOLS...\n", argv[0]);
		return 2;
	}
	const char *dtype = argv[1];
	size_t esize = 0;
	if (!std::strcmp(dtype, "f16"))
		esize = 2;
	else if (!std::strcmp(dtype, "f32"))
		esize = 4;
	else if (!std::strcmp(dtype, "f64"))
		esize = 8;
	if (!esize) {
		std::fprintf(stderr, "%s: not an element type (f16, f32 or f64)\n", dtype);
		return 2;
	}
	std::vector<std::pair<unsigned, unsigned>> sizes;
	for (int a = 2; a < argc; a++) {
		unsigned rows, cols;
		if (std::sscanf(argv[a], "%ux%u", &rows, &cols) != 2 || !rows || !cols) {
			std::fprintf(stderr, "%s: not ROWSxCOLS\n", argv[a]);
			return 2;
		}
		sizes.push_back({ rows, cols });
	}
	flushed_timing T;
	timing_init(T);
	const int cc = 10 * T.prop.major + T.prop.minor;
	int plain = -1; /* the first variant of the type without tensor maps */
	for (int i = 0; i < GPUTUNE_TRANSPOSE_NUM_VARIANTS && plain < 0; i++)
		if (!std::strcmp(gputune_transpose_variants[i].dtype, dtype) && !gputune_transpose_variants[i].config.rowclass)
			plain = i;
	for (const auto &[rows, cols] : sizes) {
		const int v = gputune_transpose_choose(T.prop.name, cc, dtype, rows, cols);
		if (v < 0) {
			std::fprintf(stderr, "the header has no %s kernel\n", dtype);
			return 2;
		}
		study(T, dtype, v, rows, cols, esize);
		if (plain >= 0 && plain != v)
			study(T, dtype, plain, rows, cols, esize);
	}
	return 0;
}
