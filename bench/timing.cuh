/*
 * timing.cuh - what every benchmark program here shares: CHECK for the
 * runtime's calls, and the timing protocol gputune itself follows (three
 * warm-up launches, then 30 launches each after an L2 flush of twice its
 * size, between two events and waited for; the median), and the longer one
 * gputune confirms a winner with.
 */
#ifndef GPUTUNE_BENCH_TIMING_CUH
#define GPUTUNE_BENCH_TIMING_CUH

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CHECK(call)                                                                           \
	do {                                                                                  \
		cudaError_t e_ = (call);                                                      \
		if (e_ != cudaSuccess) {                                                      \
			std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e_)); \
			std::exit(2);                                                         \
		}                                                                             \
	} while (0)

struct flushed_timing {
	cudaDeviceProp prop;
	int *flush;
	size_t flush_bytes;
	cudaEvent_t a, b; /* around each timed launch, which is waited for */
};

/* Device 0's properties, the flush buffer and the events. */
static void timing_init(flushed_timing &T)
{
	CHECK(cudaGetDeviceProperties(&T.prop, 0));
	T.flush_bytes = (size_t)T.prop.l2CacheSize * 2;
	CHECK(cudaMalloc(&T.flush, T.flush_bytes));
	CHECK(cudaEventCreate(&T.a));
	CHECK(cudaEventCreate(&T.b));
}

/* The median milliseconds of n launches, each after an L2 flush, between
 * two events, and waited for before the next is queued (as gputune times:
 * with launches queued ahead, the events also hold some of the GPU's work
 * of taking each from the queue, which differs between the runtime's
 * launches and the driver's). */
static double time_n(flushed_timing &T, const std::function<void()> &launch, int n)
{
	std::vector<float> ms(n);
	for (int i = 0; i < n; i++) {
		CHECK(cudaMemsetAsync(T.flush, i, T.flush_bytes, 0));
		CHECK(cudaEventRecord(T.a, 0));
		launch();
		CHECK(cudaEventRecord(T.b, 0));
		CHECK(cudaEventSynchronize(T.b));
		CHECK(cudaEventElapsedTime(&ms[i], T.a, T.b));
	}
	CHECK(cudaGetLastError());
	std::sort(ms.begin(), ms.end());
	return n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
}

/* The median milliseconds of launch under the protocol: three warm-up
 * launches, then 30 timed. */
static double time_ms(flushed_timing &T, const std::function<void()> &launch)
{
	for (int i = 0; i < 3; i++)
		launch();
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
