/*
 * reduce.cu - the sum of n elements into one: *out = in[0] + ... + in[n-1],
 * in an accumulator type A (float for f32, double for f64, unsigned for
 * i32 so that an integer sum wraps modulo 2^32 as defined).
 *
 * One template, gt_reduce<T, A, THREADS, VEC, UNROLL, GRID, BLOCK, FINAL>,
 * whose points include the steps of the classic ladder:
 *   THREADS  threads per block.
 *   VEC      elements per load (one aligned access of VEC * sizeof(T)).
 *   UNROLL   loads in flight per thread and step, all issued before the
 *            adds ("first add during load" is UNROLL = 2).
 *   GRID     0: as many blocks as make one step per thread (each thread
 *            adds VEC * UNROLL elements); otherwise at most GRID blocks,
 *            each walking the input in a grid-stride loop (several
 *            elements per thread).
 *   BLOCK    how a block sums its threads' values: 0 interleaved
 *            addressing with divergent branches, 1 interleaved addressing
 *            (strided index, bank conflicts), 2 sequential addressing,
 *            3 sequential addressing with the last warp unrolled (with
 *            __syncwarp, as independent thread scheduling needs), 4 warp
 *            shuffles then one warp over the warps' sums.  The tree's loop
 *            bounds are template constants, so it is completely unrolled.
 *   FINAL    how the blocks' sums meet: 0 each block writes its sum to
 *            scratch and the last block to finish (a counter) sums them,
 *            which is the second kernel of the classic scheme without a
 *            second launch; 1 each block adds its sum atomically into a
 *            scratch slot, and the last block to finish copies it out.
 * Scratch memory: a counter at byte 0, the atomic slot at byte 16, the
 * blocks' sums from byte 256; zero before the first launch.  Each launch
 * leaves the counter and the slot zero and writes every block's sum before
 * the last block reads it, so launches need no memset (the sums stay).
 */
#ifndef GT_REDUCE_TEMPLATE
#define GT_REDUCE_TEMPLATE

/* The block's sum of v, valid in thread 0. */
template <typename A, int THREADS, int BLOCK>
__device__ __forceinline__ A gt_block_sum(A v, A *sm)
{
	const unsigned t = threadIdx.x;
	if (BLOCK == 4) {
#pragma unroll
		for (int d = 16; d > 0; d >>= 1)
			v += __shfl_down_sync(0xffffffffu, v, d);
		if (THREADS == 32)
			return v;
		if ((t & 31) == 0)
			sm[t >> 5] = v;
		__syncthreads();
		if (t < 32) {
			v = t < THREADS / 32 ? sm[t] : A(0);
#pragma unroll
			for (int d = 16; d > 0; d >>= 1)
				v += __shfl_down_sync(0xffffffffu, v, d);
		}
		return v;
	}
	sm[t] = v;
	__syncthreads();
	if (BLOCK == 0) {
#pragma unroll
		for (unsigned s = 1; s < THREADS; s *= 2) {
			if (t % (2 * s) == 0)
				sm[t] += sm[t + s];
			__syncthreads();
		}
	} else if (BLOCK == 1) {
#pragma unroll
		for (unsigned s = 1; s < THREADS; s *= 2) {
			const unsigned i = 2 * s * t;
			if (i < THREADS)
				sm[i] += sm[i + s];
			__syncthreads();
		}
	} else if (BLOCK == 2) {
#pragma unroll
		for (unsigned s = THREADS / 2; s > 0; s >>= 1) {
			if (t < s)
				sm[t] += sm[t + s];
			__syncthreads();
		}
	} else {
#pragma unroll
		for (unsigned s = THREADS / 2; s > 32; s >>= 1) {
			if (t < s)
				sm[t] += sm[t + s];
			__syncthreads();
		}
		if (t < 32) {
			A x = sm[t] + sm[t + 32];
#pragma unroll
			for (int d = 16; d > 0; d >>= 1) {
				sm[t] = x;
				__syncwarp();
				x += sm[t + d];
				__syncwarp();
			}
			return x;
		}
		/* The other warps must not read sm[0] while warp 0 writes it. */
		return A(0);
	}
	return sm[0];
}

template <typename T, typename A, int THREADS, int VEC, int UNROLL, int GRID, int BLOCK, int FINAL>
__device__ __forceinline__ void gt_reduce(const T *__restrict__ in, A *__restrict__ out, void *scratch,
					  unsigned long long n)
{
	typedef gt_vec<T, VEC> pack;
	__shared__ A sm[THREADS];
	__shared__ bool last;
	const unsigned t = threadIdx.x;
	const unsigned long long nvec = n / VEC;
	const unsigned long long chunk = (unsigned long long)THREADS * UNROLL; /* vectors per block and step */
	const unsigned long long stride = (unsigned long long)gridDim.x * chunk;
	A acc = A(0);
	if ((size_t)in % sizeof(pack) == 0) {
		for (unsigned long long i = blockIdx.x * chunk + t; i < nvec; i += stride) {
			pack p[UNROLL];
#pragma unroll
			for (int u = 0; u < UNROLL; u++) {
				const unsigned long long j = i + (unsigned long long)u * THREADS;
				if (j < nvec)
					p[u] = ((const pack *)in)[j];
				else
#pragma unroll
					for (int k = 0; k < VEC; k++)
						p[u].e[k] = T(0);
			}
#pragma unroll
			for (int u = 0; u < UNROLL; u++)
#pragma unroll
				for (int k = 0; k < VEC; k++)
					acc += (A)p[u].e[k];
		}
		/* The elements past the last whole vector (fewer than VEC). */
		if (blockIdx.x == 0 && t < n - nvec * VEC)
			acc += (A)in[nvec * VEC + t];
	} else {
		for (unsigned long long i = blockIdx.x * chunk * VEC + t; i < n; i += stride * VEC) {
			T p[UNROLL * VEC];
#pragma unroll
			for (int u = 0; u < UNROLL * VEC; u++) {
				const unsigned long long j = i + (unsigned long long)u * THREADS;
				p[u] = j < n ? in[j] : T(0);
			}
#pragma unroll
			for (int u = 0; u < UNROLL * VEC; u++)
				acc += (A)p[u];
		}
	}
	A sum = gt_block_sum<A, THREADS, BLOCK>(acc, sm);
	if (gridDim.x == 1) {
		if (t == 0)
			*out = sum;
		return;
	}
	unsigned *count = (unsigned *)scratch;
	A *slot = (A *)((char *)scratch + 16);
	A *partial = (A *)((char *)scratch + 256);
	if (t == 0) {
		if (FINAL == 1)
			atomicAdd(slot, sum);
		else
			partial[blockIdx.x] = sum;
		/* The sum is visible to every block before the count says so. */
		__threadfence();
		last = atomicAdd(count, 1u) == gridDim.x - 1;
	}
	__syncthreads();
	if (!last)
		return;
	__threadfence();
	if (FINAL == 1) {
		if (t == 0) {
			*out = *(volatile A *)slot;
			*slot = A(0);
			*count = 0;
		}
		return;
	}
	A s = A(0);
	for (unsigned i = t; i < gridDim.x; i += THREADS)
		s += ((volatile A *)partial)[i];
	s = gt_block_sum<A, THREADS, BLOCK>(s, sm);
	if (t == 0) {
		*out = s;
		*count = 0;
	}
}
#endif /* GT_REDUCE_TEMPLATE */

/* An exported header's kernel, its first argument the blocks per SM it is
 * built for (src/export-header.c, variant_occupancy). */
#ifdef GT_HEADER_KERNEL
template <int MIN_BLOCKS, typename T, typename A, int THREADS, int VEC, int UNROLL, int GRID, int BLOCK, int FINAL>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
GT_HEADER_KERNEL(const T *__restrict__ in, A *__restrict__ out, void *scratch, unsigned long long n)
{
	gt_reduce<T, A, THREADS, VEC, UNROLL, GRID, BLOCK, FINAL>(in, out, scratch, n);
}
#endif

#ifdef GT_ELEM_BYTES
#ifndef GT_KERNEL_NAME
#define GT_KERNEL_NAME gputune_reduce
#endif
extern "C" __global__ void __launch_bounds__(GT_THREADS)
GT_KERNEL_NAME(const GT_ELEM_TYPE *__restrict__ in, GT_ACC_TYPE *__restrict__ out, void *scratch,
	       unsigned long long n)
{
	gt_reduce<GT_ELEM_TYPE, GT_ACC_TYPE, GT_THREADS, GT_VEC, GT_UNROLL, GT_GRID, GT_BLOCK, GT_FINAL>(
		in, out, scratch, n);
}
#undef GT_VEC_BYTES
#undef GT_KERNEL_NAME
#endif
