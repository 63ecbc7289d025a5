/*
 * cuda-host.h - runs a kernel template on the host, so that tests check a
 * template's indexing, bounds and synchronisation without a GPU.
 *
 * The threads of a block are coroutines (ucontext) on one host thread.
 * They run in turn, each until its next __syncthreads() or __shfl_sync(),
 * or its end: a round.  Every thread must end a round at the same kind of
 * point, as on a GPU, where a barrier or a full-warp shuffle that some
 * threads skip is undefined; the launch reports it instead of hanging.
 * Blocks run one after another (even ones their threads in order, odd ones
 * in reverse), so __shared__ can be a static: each block finds what the
 * one before left there, as stale as on a GPU.
 *
 * What it does not model: the timing of memory between threads outside the
 * barriers (a race shows as one fixed order, not as a failure), and the
 * device's limits on registers and shared memory.
 */
#ifndef GPUTUNE_CUDA_HOST_H
#define GPUTUNE_CUDA_HOST_H

#include <cstddef>
#include <cstdio>
#include <cstdlib>
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

struct host_dim3 {
	unsigned x, y, z;
};
static host_dim3 threadIdx, blockIdx;

namespace cuda_host {

enum stop { RUNNING, BARRIER, SHUFFLE, DONE };

struct thread {
	ucontext_t ctx;
	char *stack;
	stop at;
};

/* 128 KiB a thread: the kernels' frames are a few KiB at -O0. */
constexpr size_t STACK = 128 * 1024;

static std::vector<thread> threads;
static ucontext_t scheduler;
static int current;
/* A shuffle's values, by the parity of the round that made them: a thread
 * reads its source's value after the round, while threads resumed before
 * it may already be putting the next shuffle's values in the other half. */
static std::vector<unsigned> lanes[2];
static unsigned parity;
static const std::function<void()> *body;
static const char *fault;

static void entry()
{
	(*body)();
	threads[current].at = DONE; /* returns to uc_link, the scheduler */
}

static void stop_at(stop s)
{
	threads[current].at = s;
	swapcontext(&threads[current].ctx, &scheduler);
}

/* Runs kernel, the body of one thread, over grid x (bx, by) threads.
 * Returns NULL, or what went wrong (threads stopping at different kinds of
 * point, a shuffle outside a full warp). */
static const char *launch(unsigned grid, unsigned bx, unsigned by, const std::function<void()> &kernel)
{
	const unsigned n = bx * by;
	if (threads.size() < n) {
		size_t had = threads.size();
		threads.resize(n);
		for (size_t t = had; t < n; t++)
			threads[t].stack = static_cast<char *>(std::malloc(STACK));
	}
	for (int p = 0; p < 2; p++)
		lanes[p].assign(n, 0);
	body = &kernel;
	fault = nullptr;
	for (unsigned b = 0; b < grid && !fault; b++) {
		blockIdx = { b, 0, 0 };
		for (unsigned t = 0; t < n; t++) {
			thread &th = threads[t];
			getcontext(&th.ctx);
			th.ctx.uc_stack.ss_sp = th.stack;
			th.ctx.uc_stack.ss_size = STACK;
			th.ctx.uc_link = &scheduler;
			makecontext(&th.ctx, entry, 0);
			th.at = RUNNING;
		}
		parity = 0;
		for (;;) {
			unsigned count[DONE + 1] = { 0 };
			for (unsigned u = 0; u < n; u++) {
				/* Odd blocks run their threads in reverse order:
				 * a missing barrier shows in one order or the
				 * other, whichever side of it runs first. */
				const unsigned t = b % 2 ? n - 1 - u : u;
				if (threads[t].at == DONE)
					continue;
				current = (int)t;
				threadIdx = { t % bx, t / bx, 0 };
				threads[t].at = RUNNING;
				swapcontext(&scheduler, &threads[t].ctx);
			}
			for (unsigned t = 0; t < n; t++)
				count[threads[t].at]++;
			if (fault)
				break;
			if (count[DONE] == n)
				break;
			if (count[BARRIER] != n && count[SHUFFLE] != n) {
				fault = "threads of a block stopped at different barriers or shuffles (or some ended)";
				break;
			}
			if (count[SHUFFLE] == n && n % 32)
				fault = "a shuffle in a block that is not whole warps";
			parity ^= 1;
		}
	}
	return fault;
}

} /* namespace cuda_host */

static inline void __syncthreads()
{
	cuda_host::stop_at(cuda_host::BARRIER);
}

/* As on the GPU: srcLane modulo width, within the caller's group of width
 * lanes of its warp. */
static inline unsigned __shfl_sync(unsigned mask, unsigned v, int src, int width = 32)
{
	using namespace cuda_host;
	if (mask != 0xffffffffu)
		fault = "a shuffle with a partial mask";
	const int me = current;
	const unsigned p = parity;
	lanes[p][me] = v;
	stop_at(SHUFFLE);
	const int lane = me % 32;
	const int group = me - lane + lane / width * width;
	return lanes[p][group + ((src % width) + width) % width];
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

#endif /* GPUTUNE_CUDA_HOST_H */
