/*
 * build-compare.cu - one transpose variant built several ways, timed side
 * by side.  Each CUBIN named holds the kernel gputune_transpose as
 * `gputune source transpose` renders it (built by nvcc -cubin, or by NVRTC:
 * its PTX through ptxas); all are checked against a host transpose, then
 * timed in rounds, each round the benchmarks' copy kernel (the ceiling)
 * and every CUBIN in turn under timing.cuh's protocol, so that a
 * difference between the builds shows in every round, not between runs.
 * CUBIN@BYTES launches that one with BYTES of dynamic shared memory (to
 * hold an SM to fewer blocks); each line first says how many fit.
 *
 * Build and run on the GPU machine (docs/benchmarks.md, "Loads in
 * batches"):
 *   nvcc -arch=sm_90 -O2 bench/build-compare.cu -lcuda -o build-compare
 *   ./build-compare ROWS COLS ESIZE TILE WIDE UNROLL VEC BLOCK_ROWS ROUNDS CUBIN...
 * TILE to BLOCK_ROWS are the variant's parameters, which set its grid.
 */
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstring>
#include <string>

#include "timing.cuh"

static unsigned arg(const char *s, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v == 0 || v > 1u << 30) {
		std::fprintf(stderr, "build-compare: %s: not a positive number: '%s'\n", what, s);
		std::exit(2);
	}
	return (unsigned)v;
}

struct build {
	std::string path;
	CUfunction f;
	unsigned dyn; /* bytes of dynamic shared memory */
};

static build load(const char *spec, unsigned threads)
{
	build b;
	const char *at = std::strchr(spec, '@');
	b.path = at ? std::string(spec, at) : std::string(spec);
	b.dyn = at ? arg(at + 1, "dynamic shared memory") : 0;
	FILE *f = std::fopen(b.path.c_str(), "rb");
	if (!f) {
		std::fprintf(stderr, "build-compare: cannot read %s\n", b.path.c_str());
		std::exit(2);
	}
	std::vector<char> image;
	for (int c; (c = std::fgetc(f)) != EOF;)
		image.push_back((char)c);
	std::fclose(f);
	CUmodule m;
	int blocks = 0;
	if (cuModuleLoadData(&m, image.data()) || cuModuleGetFunction(&b.f, m, "gputune_transpose") ||
	    (b.dyn && cuFuncSetAttribute(b.f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)b.dyn)) ||
	    cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, b.f, (int)threads, b.dyn)) {
		std::fprintf(stderr, "build-compare: %s: no kernel gputune_transpose to launch\n", b.path.c_str());
		std::exit(2);
	}
	std::printf("%s: %d blocks an SM (%u bytes of dynamic shared memory)\n", b.path.c_str(), blocks, b.dyn);
	return b;
}

int main(int argc, char **argv)
{
	if (argc < 11) {
		std::fprintf(stderr, "usage: build-compare ROWS COLS ESIZE TILE WIDE UNROLL VEC BLOCK_ROWS ROUNDS "
				     "CUBIN[@BYTES]...\n");
		return 2;
	}
	unsigned rows = arg(argv[1], "rows"), cols = arg(argv[2], "cols"), esize = arg(argv[3], "element size");
	const unsigned tile = arg(argv[4], "tile"), wide = arg(argv[5], "wide"), unroll = arg(argv[6], "unroll");
	const unsigned vec = arg(argv[7], "vec"), block_rows = arg(argv[8], "block_rows");
	const unsigned rounds = arg(argv[9], "rounds");
	if (esize != 2 && esize != 4 && esize != 8) {
		std::fprintf(stderr, "build-compare: element size: 2, 4 or 8, not %u\n", esize);
		return 2;
	}
	flushed_timing T;
	timing_init(T);
	if (cuInit(0)) {
		std::fprintf(stderr, "build-compare: the CUDA driver would not start (cuInit)\n");
		return 2;
	}
	const unsigned threads = tile / vec * block_rows;
	std::vector<build> builds;
	for (int i = 10; i < argc; i++)
		builds.push_back(load(argv[i], threads));

	const size_t bytes = (size_t)rows * cols * esize;
	std::vector<unsigned char> host(bytes), want(bytes), got(bytes);
	for (size_t i = 0; i < bytes; i++)
		host[i] = (unsigned char)(i * 2654435761u >> 13);
	host_transpose(want, host, rows, cols, esize);
	void *in, *out;
	CHECK(cudaMalloc(&in, bytes));
	CHECK(cudaMalloc(&out, bytes));
	CHECK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));
	/* As the header's geometry: one block per (tile * unroll) x (tile * wide) piece. */
	const unsigned grid = (cols + tile * wide - 1) / (tile * wide) * ((rows + tile * unroll - 1) / (tile * unroll));
	void *args[] = {&in, &out, &rows, &cols};
	auto launch = [&](const build &b) {
		if (cuLaunchKernel(b.f, grid, 1, 1, tile / vec, block_rows, 1, b.dyn, 0, args, 0)) {
			std::fprintf(stderr, "build-compare: %s: the launch failed\n", b.path.c_str());
			std::exit(1);
		}
	};
	int wrong = 0;
	for (const build &b : builds) {
		CHECK(cudaMemset(out, 0, bytes));
		launch(b);
		CHECK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
		const bool right = std::memcmp(got.data(), want.data(), bytes) == 0;
		std::printf("%s: %s\n", b.path.c_str(), right ? "exact" : "WRONG");
		wrong += !right;
	}
	if (wrong)
		return 1;

	const auto gbps = [&](double ms) { return 2.0 * (double)bytes / ms / 1e6; };
	for (unsigned r = 0; r < rounds; r++) {
		const double copy = time_ms(T, [&] { launch_copy(in, out, bytes); });
		std::printf("round %u: copy %.0f GB/s", r, gbps(copy));
		for (size_t i = 0; i < builds.size(); i++)
			std::printf("  [%zu] %.0f", i, gbps(time_ms(T, [&] { launch(builds[i]); })));
		std::printf("\n");
	}
	return 0;
}
