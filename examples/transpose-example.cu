/*
 * transpose-example.cu - a program that uses a header exported by
 * `gputune export --kernel transpose` and nothing else of gputune: it picks
 * the tuned kernel for this GPU and each size (at a size nobody tuned, by
 * calibrating: the rule's best few timed on these buffers), transposes a
 * random matrix, checks every element against a host transpose, and times
 * the kernel the way gputune does (L2 flushed before each of 30 launches,
 * median).
 *
 * Build:  make -C examples   (examples/Makefile: exports the header with
 *         the gputune built beside it, then builds), or by hand
 *         nvcc -arch=sm_90 -O2 -I DIR_OF_HEADER transpose-example.cu -o transpose-example
 * Run:    ./transpose-example [ROWSxCOLS ...]   (default 4096x4096 8192x8192)
 * Exit status 0 when every size was right, 1 when one was wrong, 2 on bad
 * usage or where there is no GPU.
 */
#include "gputune_transpose.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                         \
	do {                                                                                \
		cudaError_t e_ = (call);                                                    \
		if (e_ != cudaSuccess) {                                                    \
			std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e_)); \
			std::exit(2);                                                       \
		}                                                                           \
	} while (0)

static int run(const cudaDeviceProp &prop, unsigned rows, unsigned cols)
{
	const size_t n = (size_t)rows * cols;
	std::vector<float> in(n), out(n);
	unsigned s = 12345u + rows;
	for (size_t i = 0; i < n; i++) {
		s = s * 1664525u + 1013904223u;
		in[i] = (float)(s >> 8) / 16777216.0f - 0.5f;
	}
	int cc = prop.major * 10 + prop.minor;
	int v = gputune_transpose_choose(prop.name, cc, "f32", rows, cols);
	if (v < 0) {
		std::fprintf(stderr, "no f32 transpose in the header\n");
		return 1;
	}
	const gputune_transpose_entry *tuned = gputune_transpose_lookup(prop.name, cc, "f32", rows, cols);
	float *d_in, *d_out;
	int *flush;
	size_t flush_bytes = (size_t)prop.l2CacheSize * 2;
	CHECK(cudaMalloc(&d_in, n * sizeof(float)));
	CHECK(cudaMalloc(&d_out, n * sizeof(float)));
	CHECK(cudaMalloc(&flush, flush_bytes));
	CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemset(d_out, 0xff, n * sizeof(float)));
	/* A tuned size runs its winner; another is calibrated once (its
	 * launches write the output too) and the pick kept for the size. */
	if (tuned)
		CHECK(gputune_transpose_launch(v, d_in, d_out, rows, cols, 0));
	else
		CHECK(gputune_transpose_calibrate("f32", d_in, d_out, rows, cols, 0, &v));
	CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
	size_t wrong = 0;
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++)
			wrong += out[c * rows + r] != in[r * cols + c];

	const int reps = 30;
	std::vector<float> ms(reps);
	cudaEvent_t a, b;
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	for (int i = 0; i < 3; i++)
		CHECK(gputune_transpose_launch(v, d_in, d_out, rows, cols, 0));
	for (int i = 0; i < reps; i++) {
		CHECK(cudaMemsetAsync(flush, i, flush_bytes, 0));
		CHECK(cudaEventRecord(a, 0));
		CHECK(gputune_transpose_launch(v, d_in, d_out, rows, cols, 0));
		CHECK(cudaEventRecord(b, 0));
		CHECK(cudaEventSynchronize(b));
		CHECK(cudaEventElapsedTime(&ms[i], a, b));
	}
	std::sort(ms.begin(), ms.end());
	double med = (ms[reps / 2 - 1] + ms[reps / 2]) / 2;
	double gbps = 2.0 * n * sizeof(float) / (med * 1e-3) / 1e9;
	std::printf("%ux%u %s %.1f GB/s (tuned: %s%.1f GB/s) %s\n", rows, cols,
		    gputune_transpose_variants[v].params, gbps, tuned ? "" : "none, calibrated, ",
		    tuned ? tuned->gbps : 0.0, wrong ? "WRONG" : "verified");
	if (wrong)
		std::fprintf(stderr, "%zu of %zu elements wrong\n", wrong, n);
	cudaFree(d_in);
	cudaFree(d_out);
	cudaFree(flush);
	cudaEventDestroy(a);
	cudaEventDestroy(b);
	return wrong != 0;
}

int main(int argc, char **argv)
{
	int count = 0;
	cudaError_t e = cudaGetDeviceCount(&count);
	if (e != cudaSuccess || count == 0) {
		std::fprintf(stderr, "no CUDA GPU here (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "none visible");
		return 2;
	}
	cudaDeviceProp prop;
	CHECK(cudaGetDeviceProperties(&prop, 0));
	std::printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
	int bad = 0;
	if (argc < 2) {
		bad |= run(prop, 4096, 4096);
		bad |= run(prop, 8192, 8192);
	}
	for (int i = 1; i < argc; i++) {
		unsigned r, c;
		if (std::sscanf(argv[i], "%ux%u", &r, &c) != 2 || !r || !c) {
			std::fprintf(stderr, "bad size '%s' (ROWSxCOLS)\n", argv[i]);
			return 2;
		}
		bad |= run(prop, r, c);
	}
	return bad;
}
