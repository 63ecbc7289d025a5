/*
 * timing.cuh - what every benchmark program here shares: CHECK for the
 * runtime's calls, and the timing protocol gputune itself follows (three
 * warm-up launches, then 30 launches each after an L2 flush of twice its
 * size, every other one also after an empty launch, between two events and
 * waited for; the median; at small sizes
 * rotated over placements of the buffers), and the longer one gputune
 * confirms a winner with; the inputs of the matrix-multiply programs
 * (fill_uniform); and the host transpose that the transpose programs
 * check against.
 */
#ifndef GPUTUNE_BENCH_TIMING_CUH
#define GPUTUNE_BENCH_TIMING_CUH

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "../src/gpu/placement.h"

#define CHECK(call)                                                                           \
	do {                                                                                  \
		cudaError_t e_ = (call);                                                      \
		if (e_ != cudaSuccess) {                                                      \
			std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e_)); \
			std::exit(2);                                                         \
		}                                                                             \
	} while (0)

/* Placements of a size's input and output, the ones gputune rotates its
 * timed launches over (src/gpu/placement.h says where and why).  Launch i
 * points the program's buffer variables (which its launches read when they
 * run) at placement i % count, and timing puts them back after. */
struct placements {
	void **in_var = nullptr, **out_var = nullptr;
	void *in0 = nullptr, *out0 = nullptr;
	char *in = nullptr, *out = nullptr; /* the others */
	int count = 1;
	void point(int i)
	{
		const int k = i % count;
		*in_var = k ? in + place_offset(k) : in0;
		*out_var = k ? out + place_offset(k) : out0;
	}
};

struct flushed_timing {
	cudaDeviceProp prop;
	int *flush;
	size_t flush_bytes;
	cudaEvent_t a, b; /* around each timed launch, which is waited for */
	placements *place = nullptr; /* the size's, while one is set */
};

/* Sets up the placements of *in_var (in_bytes, already holding the input)
 * and *out_var (out_bytes) for the launches timed until place_end(). */
static void place_begin(flushed_timing &T, placements &P, void **in_var, size_t in_bytes, void **out_var,
			size_t out_bytes)
{
	P = placements();
	P.in_var = in_var, P.out_var = out_var, P.in0 = *in_var, P.out0 = *out_var;
	if (placed(in_bytes, out_bytes)) {
		const size_t span = in_bytes + PLACE_SPAN;
		CHECK(cudaMalloc(&P.in, span));
		CHECK(cudaMalloc(&P.out, out_bytes + PLACE_SPAN));
		for (size_t at = 0; at < span; at += in_bytes)
			CHECK(cudaMemcpy(P.in + at, P.in0, std::min(in_bytes, span - at), cudaMemcpyDeviceToDevice));
		P.count = PLACES;
	}
	T.place = &P;
}

/* Points the buffer variables at placement i % count, if a size set any. */
static void place_point(flushed_timing &T, int i)
{
	if (T.place)
		T.place->point(i);
}

static void place_end(flushed_timing &T, placements &P)
{
	if (P.in)
		CHECK(cudaFree(P.in));
	if (P.out)
		CHECK(cudaFree(P.out));
	P = placements();
	T.place = nullptr;
}

/* want = the transpose of the rows x cols matrix in, esize-byte elements. */
static void host_transpose(std::vector<unsigned char> &want, const std::vector<unsigned char> &in, size_t rows,
			   size_t cols, size_t esize)
{
	want.resize(rows * cols * esize);
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++)
			std::memcpy(&want[(c * rows + r) * esize], &in[(r * cols + c) * esize], esize);
}

/* The copy side of the ceiling: n16 16-byte vectors, four a thread, and the
 * tail bytes past them (by the first block). */
__global__ void copy16(const uint4 *in, uint4 *out, size_t n16, const unsigned char *tin, unsigned char *tout,
		       size_t tail)
{
	size_t i = (size_t)blockIdx.x * blockDim.x * 4 + threadIdx.x;
	uint4 v[4];
#pragma unroll
	for (int k = 0; k < 4; k++)
		if (i + k * blockDim.x < n16)
			v[k] = in[i + k * blockDim.x];
#pragma unroll
	for (int k = 0; k < 4; k++)
		if (i + k * blockDim.x < n16)
			out[i + k * blockDim.x] = v[k];
	if (blockIdx.x == 0)
		for (size_t t = threadIdx.x; t < tail; t += blockDim.x)
			tout[t] = tin[t];
}

/* The copy kernel over `bytes` bytes from in to out, 4 vectors a thread. */
static void launch_copy(const void *in, void *out, size_t bytes)
{
	const size_t n16 = bytes / 16;
	copy16<<<(unsigned)std::max<size_t>(1, (n16 + 1023) / 1024), 256>>>((const uint4 *)in, (uint4 *)out, n16,
									    (const unsigned char *)in + n16 * 16,
									    (unsigned char *)out + n16 * 16, bytes - n16 * 16);
}

/* Device 0's properties, the flush buffer and the events; then a second
 * of back-to-back work, so that the first sizes are timed on a GPU as warm
 * as the one gputune measured on (it confirms a winner after timing every
 * variant): on an H200 that had idled, an f16 1024 x 1024 transpose read
 * 785-790 GB/s, and 809 after a minute of work. */
static void timing_init(flushed_timing &T)
{
	CHECK(cudaGetDeviceProperties(&T.prop, 0));
	T.flush_bytes = (size_t)T.prop.l2CacheSize * 2;
	CHECK(cudaMalloc(&T.flush, T.flush_bytes));
	CHECK(cudaEventCreate(&T.a));
	CHECK(cudaEventCreate(&T.b));
	float ms = 0;
	for (float busy = 0; busy < 1000; busy += ms) {
		CHECK(cudaEventRecord(T.a, 0));
		for (int i = 0; i < 100; i++)
			CHECK(cudaMemsetAsync(T.flush, i, T.flush_bytes, 0));
		CHECK(cudaEventRecord(T.b, 0));
		CHECK(cudaEventSynchronize(T.b));
		CHECK(cudaEventElapsedTime(&ms, T.a, T.b));
	}
}

/* Floats uniform in [-1, 1) into p[0..n), counter-based so any size fills
 * the same way (seed apart for each operand). */
__global__ void fill_uniform(float *p, size_t n, unsigned seed)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
		unsigned long long x = (i + 1) * 0x9e3779b97f4a7c15ULL ^ seed;
		x ^= x >> 31;
		x *= 0xbf58476d1ce4e5b9ULL;
		x ^= x >> 29;
		p[i] = (float)((double)(x >> 11) / 4503599627370496.0 - 1.0);
	}
}

/* An empty launch: before every other timed launch, as gputune times
 * (src/gpu/bench.c, time_launches: a kernel that takes tensor maps runs at one
 * of two speeds by how many launches came before it on the stream). */
__global__ void timing_idle() {}

/* The median milliseconds of n launches, each after an L2 flush (and every
 * other one after an empty launch), between two events, and waited for
 * before the next is queued (as gputune times: with launches queued ahead,
 * the events also hold some of the GPU's work of taking each from the
 * queue, which differs between the runtime's launches and the driver's). */
static double time_n(flushed_timing &T, const std::function<void()> &launch, int n)
{
	std::vector<float> ms(n);
	for (int i = 0; i < n; i++) {
		place_point(T, i);
		CHECK(cudaMemsetAsync(T.flush, i, T.flush_bytes, 0));
		if (i % 2)
			timing_idle<<<1, 32>>>();
		CHECK(cudaEventRecord(T.a, 0));
		launch();
		CHECK(cudaEventRecord(T.b, 0));
		CHECK(cudaEventSynchronize(T.b));
		CHECK(cudaEventElapsedTime(&ms[i], T.a, T.b));
	}
	place_point(T, 0);
	CHECK(cudaGetLastError());
	std::sort(ms.begin(), ms.end());
	return n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
}

/* The median milliseconds of launch under the protocol: three warm-up
 * launches, then 30 timed. */
static double time_ms(flushed_timing &T, const std::function<void()> &launch)
{
	for (int i = 0; i < 3; i++) {
		place_point(T, i);
		launch();
	}
	return time_n(T, launch, 30);
}

/* The median milliseconds of launch timed as gputune confirms a winner
 * (the figure its database holds): after the protocol's launches, at least
 * 100 more and 10 ms of kernel time (at most 2000 launches). */
static double time_ms_confirmed(flushed_timing &T, const std::function<void()> &launch)
{
	const double first = time_ms(T, launch);
	int n = 100;
	if (first > 0 && 10.0 / first > n)
		n = 10.0 / first < 2000 ? (int)(10.0 / first) : 2000;
	return time_n(T, launch, n);
}

#endif
