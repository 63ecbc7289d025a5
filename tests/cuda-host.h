/*
 * cuda-host.h - runs a kernel template on the host, so that tests check a
 * template's indexing, bounds and synchronisation without a GPU.
 *
 * The threads of a block are coroutines (ucontext) on one host thread.
 * Each runs until it waits: at __syncthreads() for every thread of the
 * block, at a shuffle or __syncwarp() for the lanes of its warp that have
 * not returned.  When none can run, the waits that are complete are
 * released, and the threads run again.  A shuffle needs all 32 lanes of
 * the warp there (the templates' masks are full); waits that can never
 * complete (a barrier some threads skip) are reported instead of hanging.
 * Blocks run one after another (even ones their threads in order, odd ones
 * in reverse, so a missing barrier shows whichever side of it runs first),
 * so __shared__ can be a static: each block finds what the one before left
 * there, as stale as on a GPU.  Atomics are plain operations, being on one
 * host thread, and __threadfence() orders nothing that needs it.
 *
 * Asynchronous copies into shared memory (GT_HOST_ASYNC, which templates
 * call where a GPU runs cp.async) land only when their thread waits for
 * them, so a barrier without the wait before it shows the destination as
 * it was; a thread that returns with copies not waited for is reported.
 * Copies commit in groups as cp.async's do: waiting for all but the newest
 * n groups lands the older ones alone (a copy not yet committed is in no
 * group, and only a wait for all lands it).
 *
 * What it does not model: the timing of memory between threads outside the
 * waits (a race shows as one fixed order, not as a failure), blocks running
 * at the same time, and the device's limits on registers and shared memory.
 */
#ifndef GPUTUNE_CUDA_HOST_H
#define GPUTUNE_CUDA_HOST_H

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <ucontext.h>
#include <vector>

#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __shared__ static
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))

struct host_dim3 {
	unsigned x, y, z;
};
static host_dim3 threadIdx, blockIdx, blockDim, gridDim;

namespace cuda_host {

enum wait { RUNNABLE, BARRIER, SHUFFLE, WARP_SYNC, DONE };

/* An asynchronous copy not yet waited for: its bytes, read when it was
 * issued, and where they go. */
struct copy {
	void *dst;
	unsigned char bytes[16];
	size_t n;
	unsigned group; /* the thread's commits before it was issued */
};

struct thread {
	ucontext_t ctx;
	char *stack;
	wait at;
	std::vector<copy> copies;
	unsigned commits;
};

/* 128 KiB a thread: the kernels' frames are a few KiB at -O0. */
constexpr size_t STACK = 128 * 1024;

static std::vector<thread> threads;
static ucontext_t scheduler;
static int current;
/* A shuffle's values, by the parity of the warp's shuffles so far: a lane
 * reads its source's value after the release, while lanes resumed before
 * it may already be putting the next shuffle's values in the other half. */
static std::vector<unsigned long long> lanes[2];
static std::vector<unsigned> parity; /* per warp */
static const std::function<void()> *body;
static const char *fault;

static void entry()
{
	(*body)();
	if (!threads[current].copies.empty())
		fault = "a thread returned with asynchronous copies it did not wait for";
	threads[current].at = DONE; /* returns to uc_link, the scheduler */
}

static void wait_at(wait w)
{
	threads[current].at = w;
	swapcontext(&threads[current].ctx, &scheduler);
}

/* Releases the lanes of warp w when every one that has not returned waits
 * at the same shuffle or __syncwarp(); true when it did. */
static bool release_warp(unsigned w, unsigned n)
{
	const unsigned lo = 32 * w, hi = lo + 32 < n ? lo + 32 : n;
	unsigned live = 0, shuffle = 0, sync = 0;
	for (unsigned t = lo; t < hi; t++) {
		live += threads[t].at != DONE;
		shuffle += threads[t].at == SHUFFLE;
		sync += threads[t].at == WARP_SYNC;
	}
	if (live == 0 || (shuffle != live && sync != live))
		return false;
	if (shuffle && shuffle != 32)
		fault = "a shuffle without all 32 lanes of the warp";
	for (unsigned t = lo; t < hi; t++)
		if (threads[t].at != DONE)
			threads[t].at = RUNNABLE;
	if (shuffle)
		parity[w] ^= 1;
	return true;
}

/* Runs kernel, the body of one thread, over grid x (bx, by) threads.
 * Returns NULL, or what went wrong (waits that cannot complete, a shuffle
 * without a whole warp). */
static const char *launch(unsigned grid, unsigned bx, unsigned by, const std::function<void()> &kernel)
{
	const unsigned n = bx * by, warps = (n + 31) / 32;
	if (threads.size() < n) {
		size_t had = threads.size();
		threads.resize(n);
		for (size_t t = had; t < n; t++)
			threads[t].stack = static_cast<char *>(std::malloc(STACK));
	}
	for (int p = 0; p < 2; p++)
		lanes[p].assign(n, 0);
	parity.assign(warps, 0);
	body = &kernel;
	fault = nullptr;
	gridDim = { grid, 1, 1 };
	blockDim = { bx, by, 1 };
	for (unsigned b = 0; b < grid && !fault; b++) {
		blockIdx = { b, 0, 0 };
		for (unsigned t = 0; t < n; t++) {
			thread &th = threads[t];
			getcontext(&th.ctx);
			th.ctx.uc_stack.ss_sp = th.stack;
			th.ctx.uc_stack.ss_size = STACK;
			th.ctx.uc_link = &scheduler;
			makecontext(&th.ctx, entry, 0);
			th.at = RUNNABLE;
			th.copies.clear();
			th.commits = 0;
		}
		while (!fault) {
			for (unsigned u = 0; u < n; u++) {
				const unsigned t = b % 2 ? n - 1 - u : u;
				if (threads[t].at != RUNNABLE)
					continue;
				current = (int)t;
				threadIdx = { t % bx, t / bx, 0 };
				swapcontext(&scheduler, &threads[t].ctx);
			}
			bool released = false;
			for (unsigned w = 0; w < warps; w++)
				released |= release_warp(w, n);
			if (released)
				continue;
			unsigned done = 0, barrier = 0;
			for (unsigned t = 0; t < n; t++) {
				done += threads[t].at == DONE;
				barrier += threads[t].at == BARRIER;
			}
			if (done == n)
				break;
			/* A barrier some threads have returned past is left
			 * undefined by CUDA: reported, as one that others
			 * skip. */
			if (barrier != n) {
				fault = done ? "threads wait at a barrier that others have returned past"
					     : "threads wait at barriers, shuffles or __syncwarp() that cannot complete";
				break;
			}
			for (unsigned t = 0; t < n; t++)
				if (threads[t].at == BARRIER)
					threads[t].at = RUNNABLE;
		}
	}
	return fault;
}

/* v's bits at lane src (already within the caller's group) of its warp. */
template <typename V> static V shuffle(V v, int src)
{
	static_assert(sizeof(V) <= sizeof(unsigned long long), "a shuffle moves at most 8 bytes");
	const int me = current, w = me / 32;
	const unsigned p = parity[w];
	std::memcpy(&lanes[p][me], &v, sizeof(V));
	wait_at(SHUFFLE);
	V r;
	std::memcpy(&r, &lanes[p][w * 32 + src], sizeof(V));
	return r;
}

} /* namespace cuda_host */

/* What a template calls for cp.async and its wait (GT_HOST_ASYNC). */
#define GT_HOST_ASYNC 1
template <typename T> static inline void gt_host_async_copy(T *dst, const T *src)
{
	static_assert(sizeof(T) <= 16, "an asynchronous copy moves at most 16 bytes");
	cuda_host::thread &th = cuda_host::threads[cuda_host::current];
	cuda_host::copy c = { dst, {}, sizeof(T), th.commits };
	std::memcpy(c.bytes, src, sizeof(T));
	th.copies.push_back(c);
}
static inline void gt_host_async_wait()
{
	for (const cuda_host::copy &c : cuda_host::threads[cuda_host::current].copies)
		std::memcpy(c.dst, c.bytes, c.n);
	cuda_host::threads[cuda_host::current].copies.clear();
}
static inline void gt_host_async_commit()
{
	cuda_host::threads[cuda_host::current].commits++;
}
/* Lands the copies of every committed group but the newest pending ones,
 * in the order they were issued. */
static inline void gt_host_async_wait_group(unsigned pending)
{
	cuda_host::thread &th = cuda_host::threads[cuda_host::current];
	std::vector<cuda_host::copy> left;
	for (const cuda_host::copy &c : th.copies)
		if (c.group + pending < th.commits)
			std::memcpy(c.dst, c.bytes, c.n);
		else
			left.push_back(c);
	th.copies.swap(left);
}

static inline void __syncthreads()
{
	cuda_host::wait_at(cuda_host::BARRIER);
}

static inline void __syncwarp(unsigned mask = 0xffffffffu)
{
	if (mask != 0xffffffffu)
		cuda_host::fault = "__syncwarp() with a partial mask";
	cuda_host::wait_at(cuda_host::WARP_SYNC);
}

/* As on the GPU: srcLane modulo width, within the caller's group of width
 * lanes of its warp. */
template <typename V> static inline V __shfl_sync(unsigned mask, V v, int src, int width = 32)
{
	if (mask != 0xffffffffu)
		cuda_host::fault = "a shuffle with a partial mask";
	const int lane = cuda_host::current % 32, group = lane / width * width;
	return cuda_host::shuffle(v, group + ((src % width) + width) % width);
}

/* The value of the lane delta above, or the caller's own where that lane
 * is past its group of width. */
template <typename V> static inline V __shfl_down_sync(unsigned mask, V v, unsigned delta, int width = 32)
{
	if (mask != 0xffffffffu)
		cuda_host::fault = "a shuffle with a partial mask";
	const int lane = cuda_host::current % 32, group = lane / width * width;
	const int src = lane + (int)delta < group + width ? lane + (int)delta : lane;
	return cuda_host::shuffle(v, src);
}

/* The value of the lane delta below, or the caller's own where that lane
 * is before its group of width. */
template <typename V> static inline V __shfl_up_sync(unsigned mask, V v, unsigned delta, int width = 32)
{
	if (mask != 0xffffffffu)
		cuda_host::fault = "a shuffle with a partial mask";
	const int lane = cuda_host::current % 32, group = lane / width * width;
	const int src = lane - (int)delta >= group ? lane - (int)delta : lane;
	return cuda_host::shuffle(v, src);
}

/* The value of lane (lane XOR m), within the caller's group of width. */
template <typename V> static inline V __shfl_xor_sync(unsigned mask, V v, int m, int width = 32)
{
	if (mask != 0xffffffffu)
		cuda_host::fault = "a shuffle with a partial mask";
	const int lane = cuda_host::current % 32, group = lane / width * width;
	const int src = (lane ^ m) < group + width ? lane ^ m : lane;
	return cuda_host::shuffle(v, src);
}

/* Bit k set where lane k's predicate holds: one shuffle per lane, so it
 * waits for the whole warp as the GPU's does. */
static inline unsigned __ballot_sync(unsigned mask, int pred)
{
	if (mask != 0xffffffffu)
		cuda_host::fault = "a ballot with a partial mask";
	unsigned r = 0;
	for (int k = 0; k < 32; k++)
		r |= (unsigned)cuda_host::shuffle(pred ? 1 : 0, k) << k;
	return r;
}

/* The position of the least significant bit set, from 1; 0 for none. */
static inline int __ffs(unsigned x)
{
	return __builtin_ffs((int)x);
}

/* Byte n of the result is byte (s >> 4n) & 7 of y:x (x bytes 0-3). */
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
	const unsigned long long xy = (unsigned long long)y << 32 | x;
	unsigned r = 0;
	for (int n = 0; n < 4; n++)
		r |= (unsigned)(xy >> (8 * ((s >> (4 * n)) & 7)) & 0xff) << (8 * n);
	return r;
}

template <typename V> static inline V atomicAdd(V *p, V v)
{
	const V old = *p;
	*p = old + v;
	return old;
}

static inline void __threadfence()
{
}

#endif /* GPUTUNE_CUDA_HOST_H */
