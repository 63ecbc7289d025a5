/*
 * scan.cu - the inclusive prefix sum of n elements,
 * out[i] = in[0] + ... + in[i], in an accumulator type A (float for f32,
 * double for f64, unsigned for i32 so that integer sums wrap modulo 2^32
 * as defined), in one pass over the input.
 *
 * Each block takes the next tile of THREADS * VEC * PER elements in the
 * order blocks start (a ticket, so that every tile it waits for belongs to
 * a block already running), scans it, and adds the sum of all the tiles
 * before it, which it learns from what those tiles publish.
 *
 * One template, gt_scan<T, A, THREADS, VEC, PER, BLOCK, LOOKBACK, PAD,
 * LAYOUT, ORDER>:
 *   THREADS  threads per block.
 *   VEC      elements per load and store (one aligned access).
 *   PER      loads per thread; each thread scans VEC * PER consecutive
 *            elements in registers.
 *   BLOCK    how a block scans its threads' totals: 0 Hillis and Steele's
 *            scan in shared memory (log2 THREADS steps over two buffers),
 *            1 warp shuffles, then one warp over the warps' totals.
 *   LOOKBACK how a tile learns the sum before it: 0 chained, waiting until
 *            the tile before it publishes its inclusive prefix (the
 *            prefixes pass from tile to tile one at a time); 1 decoupled
 *            look-back (Merrill and Garland): each tile publishes its own
 *            total at once, and one warp reads 32 predecessors at a time,
 *            adding totals until it meets an inclusive prefix.
 *   PAD      0: the tile lies in shared memory as it is; 1: one word of
 *            padding after every 32 elements, so that threads reading
 *            consecutive runs of VEC * PER elements meet distinct banks.
 *   LAYOUT   0: the tile passes through shared memory, so that each load
 *            and store instruction of a warp covers consecutive vectors;
 *            1: each thread loads and stores its own run directly (a warp's
 *            instruction covers every PER-th vector; the caches merge the
 *            rest), with no shared-memory tile and two fewer barriers.
 *   ORDER    0: tiles by ticket, so that a block only ever waits for tiles
 *            of blocks already running, in whatever order the GPU starts
 *            blocks; 1: block i takes tile i, which saves each tile an
 *            atomic before its loads but relies on the GPU starting blocks
 *            in the order of their index (as CUB's scan does; CUDA does not
 *            promise it).
 *
 * Scratch memory: the ticket counter at byte 0, the launch count at byte
 * 4, each tile's state from byte 256 (one 8-byte word per tile holding a
 * tag and a 4-byte value; for 8-byte values a tag word per tile, then two
 * arrays of values, 8-byte aligned; 24 bytes per tile at most); zero
 * before the first launch.  A state is valid
 * only with the tag of the current launch (its count), so no launch needs
 * the states cleared.  The block with the last ticket puts the counter
 * back to zero (every ticket is taken by then), and when its own prefix
 * is known (so every other block has read the count) advances the count.
 * Launches sharing a scratch buffer must run one after another.
 */
#ifndef GT_SCAN_TEMPLATE
#define GT_SCAN_TEMPLATE

/* A tile's state: a tag, (launch count << 2) | kind, kind 1 for the
 * tile's own total and 2 for its inclusive prefix (0: nothing yet). */
template <typename A, int BYTES = sizeof(A)> struct gt_scan_state;

/* 4-byte values travel with their tag in one 8-byte word. */
template <typename A> struct gt_scan_state<A, 4> {
	static __device__ __forceinline__ void publish(void *states, unsigned long long tile, unsigned long long ntiles,
						       unsigned tag, A v)
	{
		(void)ntiles;
		unsigned bits;
		memcpy(&bits, &v, 4);
		((volatile unsigned long long *)states)[tile] = (unsigned long long)tag << 32 | bits;
	}
	static __device__ __forceinline__ unsigned read(const void *states, unsigned long long tile,
							unsigned long long ntiles, A *v)
	{
		(void)ntiles;
		unsigned long long w = ((const volatile unsigned long long *)states)[tile];
		unsigned bits = (unsigned)w;
		memcpy(v, &bits, 4);
		return (unsigned)(w >> 32);
	}
};

/* 8-byte values: a tag word per tile, then per kind an array of values
 * (a tile's total and its inclusive prefix in places of their own, so
 * that a reader who saw the first tag never reads the second value).  The
 * value, a fence, then the tag; the reader the reverse. */
template <typename A> struct gt_scan_state<A, 8> {
	static __device__ __forceinline__ A *values(const void *states, unsigned long long ntiles, unsigned kind)
	{
		return (A *)((char *)states + (ntiles * 4 + 7) / 8 * 8) + (kind - 1) * ntiles;
	}
	static __device__ __forceinline__ void publish(void *states, unsigned long long tile, unsigned long long ntiles,
						       unsigned tag, A v)
	{
		((volatile A *)values(states, ntiles, tag & 3u))[tile] = v;
		__threadfence();
		((volatile unsigned *)states)[tile] = tag;
	}
	static __device__ __forceinline__ unsigned read(const void *states, unsigned long long tile,
							unsigned long long ntiles, A *v)
	{
		unsigned tag = ((const volatile unsigned *)states)[tile];
		if (tag & 3u) {
			__threadfence();
			*v = ((const volatile A *)values(states, ntiles, tag & 3u))[tile];
		}
		return tag;
	}
};

/* Position of element e of the tile in shared memory. */
template <int PAD> __device__ __forceinline__ unsigned gt_scan_at(unsigned e)
{
	return PAD ? e + e / 32 : e;
}

/* The exclusive scan of the threads' totals v across the block, and the
 * block's total in *total (every thread). */
template <typename A, int THREADS, int BLOCK>
__device__ __forceinline__ A gt_scan_block(A v, A *sm, A *total)
{
	const unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
	if (BLOCK == 0) {
		A *buf = sm;
		buf[t] = v;
		__syncthreads();
		int cur = 0;
#pragma unroll
		for (unsigned d = 1; d < THREADS; d *= 2) {
			A x = buf[cur * THREADS + t];
			if (t >= d)
				x += buf[cur * THREADS + t - d];
			cur ^= 1;
			buf[cur * THREADS + t] = x;
			__syncthreads();
		}
		*total = buf[cur * THREADS + THREADS - 1];
		return t ? buf[cur * THREADS + t - 1] : A(0);
	}
	A x = v;
#pragma unroll
	for (int d = 1; d < 32; d *= 2) {
		A y = __shfl_up_sync(0xffffffffu, x, d);
		if (lane >= (unsigned)d)
			x += y;
	}
	A before = __shfl_up_sync(0xffffffffu, x, 1);
	if (lane == 0)
		before = A(0);
	if (THREADS == 32) {
		*total = __shfl_sync(0xffffffffu, x, 31);
		return before;
	}
	if (lane == 31)
		sm[warp] = x;
	__syncthreads();
	if (warp == 0) {
		A w = lane < THREADS / 32 ? sm[lane] : A(0);
#pragma unroll
		for (int d = 1; d < 32; d *= 2) {
			A y = __shfl_up_sync(0xffffffffu, w, d);
			if (lane >= (unsigned)d)
				w += y;
		}
		sm[32 + lane] = w;
	}
	__syncthreads();
	*total = sm[32 + THREADS / 32 - 1];
	return warp ? before + sm[32 + warp - 1] : before;
}

/* Thread 0 (LOOKBACK 0) or warp 0 (1): the sum of the tiles before
 * `tile`, from their states. */
template <typename A, int LOOKBACK>
__device__ __forceinline__ A gt_scan_lookback(const void *states, unsigned long long tile,
					      unsigned long long ntiles, unsigned tag)
{
	typedef gt_scan_state<A> state;
	A v;
	if (LOOKBACK == 0) {
		while (state::read(states, tile - 1, ntiles, &v) != (tag | 2u))
			;
		return v;
	}
	const unsigned lane = threadIdx.x & 31;
	A prefix = A(0);
	for (long long top = (long long)tile - 1;; top -= 32) {
		const long long p = top - (long long)lane;
		unsigned kind = 2;
		v = A(0);
		if (p >= 0) {
			unsigned got;
			while (((got = state::read(states, (unsigned long long)p, ntiles, &v)) & ~3u) != tag ||
			       !(got & 3u))
				;
			kind = got & 3u;
		}
		const unsigned inclusive = __ballot_sync(0xffffffffu, kind == 2);
		/* Lanes up to the nearest inclusive prefix count; the rest lie
		 * before it. */
		const unsigned first = inclusive ? __ffs(inclusive) - 1 : 32;
		A x = lane <= first ? v : A(0);
#pragma unroll
		for (int d = 16; d > 0; d >>= 1)
			x += __shfl_xor_sync(0xffffffffu, x, d);
		prefix += x;
		if (inclusive)
			return prefix;
	}
}

template <typename T, typename A, int THREADS, int VEC, int PER, int BLOCK, int LOOKBACK, int PAD, int LAYOUT,
	  int ORDER>
__device__ __forceinline__ void gt_scan(const T *__restrict__ in, A *__restrict__ out, void *scratch,
					unsigned long long n)
{
	enum { ITEMS = VEC * PER, TILE = THREADS * ITEMS };
	typedef gt_vec<T, VEC> pack;
	typedef gt_vec<A, VEC> apack;
	typedef gt_scan_state<A> state;
	__shared__ A tile_sm[LAYOUT == 0 ? TILE + (PAD ? TILE / 32 : 0) : 1];
	__shared__ A scan_sm[BLOCK == 0 ? 2 * THREADS : 64];
	__shared__ unsigned long long tile_sh;
	__shared__ unsigned tag_sh;
	__shared__ A prefix_sh;
	const unsigned t = threadIdx.x;
	unsigned *ticket = (unsigned *)scratch, *launches = (unsigned *)scratch + 1;
	void *states = (char *)scratch + 256;
	const unsigned long long ntiles = gridDim.x;

	if (t == 0) {
		unsigned k = blockIdx.x;
		if (ORDER == 0) {
			k = atomicAdd(ticket, 1u);
			if (k == gridDim.x - 1)
				*ticket = 0;
		}
		tile_sh = k;
		tag_sh = (*(volatile unsigned *)launches & 0x3fffffffu) << 2;
	}
	__syncthreads();
	const unsigned long long tile = tile_sh, base = tile * TILE;
	const unsigned tag = tag_sh;
	const bool whole = base + TILE <= n && (size_t)in % sizeof(pack) == 0 && (size_t)out % sizeof(apack) == 0;

	A x[ITEMS];
	if (LAYOUT == 1) {
		if (whole) {
			const pack *src = (const pack *)(in + base) + t * PER;
#pragma unroll
			for (int u = 0; u < PER; u++) {
				const pack p = src[u];
#pragma unroll
				for (int k = 0; k < VEC; k++)
					x[u * VEC + k] = (A)p.e[k];
			}
		} else {
#pragma unroll
			for (int i = 0; i < ITEMS; i++) {
				const unsigned long long e = base + (unsigned long long)t * ITEMS + i;
				x[i] = e < n ? (A)in[e] : A(0);
			}
		}
	}
	/* The tile into shared memory, coalesced. */
	if (LAYOUT == 1) {
	} else if (whole) {
		const pack *src = (const pack *)(in + base);
		pack p[PER];
#pragma unroll
		for (int u = 0; u < PER; u++)
			p[u] = src[u * THREADS + t];
#pragma unroll
		for (int u = 0; u < PER; u++)
#pragma unroll
			for (int k = 0; k < VEC; k++)
				tile_sm[gt_scan_at<PAD>((u * THREADS + t) * VEC + k)] = (A)p[u].e[k];
	} else {
#pragma unroll
		for (int j = 0; j < ITEMS; j++) {
			const unsigned e = j * THREADS + t;
			tile_sm[gt_scan_at<PAD>(e)] = base + e < n ? (A)in[base + e] : A(0);
		}
	}
	/* Each thread's run, scanned in registers. */
	if (LAYOUT == 0) {
		__syncthreads();
#pragma unroll
		for (int i = 0; i < ITEMS; i++)
			x[i] = tile_sm[gt_scan_at<PAD>(t * ITEMS + i)];
	}
#pragma unroll
	for (int i = 1; i < ITEMS; i++)
		x[i] += x[i - 1];
	A total;
	A before = gt_scan_block<A, THREADS, BLOCK>(x[ITEMS - 1], scan_sm, &total);

	/* The tiles before this one. */
	if (tile == 0) {
		if (t == 0) {
			state::publish(states, tile, ntiles, tag | 2u, total);
			prefix_sh = A(0);
		}
	} else if (LOOKBACK == 0) {
		if (t == 0) {
			const A p = gt_scan_lookback<A, 0>(states, tile, ntiles, tag);
			state::publish(states, tile, ntiles, tag | 2u, p + total);
			prefix_sh = p;
		}
	} else if (t < 32) {
		if (t == 0)
			state::publish(states, tile, ntiles, tag | 1u, total);
		const A p = gt_scan_lookback<A, 1>(states, tile, ntiles, tag);
		if (t == 0) {
			state::publish(states, tile, ntiles, tag | 2u, p + total);
			prefix_sh = p;
		}
	}
	if (t == 0 && tile == ntiles - 1)
		atomicAdd(launches, 1u);
	__syncthreads();
	const A add = prefix_sh + before;
	if (LAYOUT == 1) {
		if (whole) {
			apack *dst = (apack *)(out + base) + t * PER;
#pragma unroll
			for (int u = 0; u < PER; u++) {
				apack p;
#pragma unroll
				for (int k = 0; k < VEC; k++)
					p.e[k] = x[u * VEC + k] + add;
				dst[u] = p;
			}
		} else {
#pragma unroll
			for (int i = 0; i < ITEMS; i++) {
				const unsigned long long e = base + (unsigned long long)t * ITEMS + i;
				if (e < n)
					out[e] = x[i] + add;
			}
		}
		return;
	}
#pragma unroll
	for (int i = 0; i < ITEMS; i++)
		tile_sm[gt_scan_at<PAD>(t * ITEMS + i)] = x[i] + add;
	__syncthreads();

	/* Out of shared memory, coalesced. */
	if (whole) {
		apack *dst = (apack *)(out + base);
#pragma unroll
		for (int u = 0; u < PER; u++) {
			apack p;
#pragma unroll
			for (int k = 0; k < VEC; k++)
				p.e[k] = tile_sm[gt_scan_at<PAD>((u * THREADS + t) * VEC + k)];
			dst[u * THREADS + t] = p;
		}
	} else {
#pragma unroll
		for (int j = 0; j < ITEMS; j++) {
			const unsigned e = j * THREADS + t;
			if (base + e < n)
				out[base + e] = tile_sm[gt_scan_at<PAD>(e)];
		}
	}
}
#endif /* GT_SCAN_TEMPLATE */

/* An exported header's kernel, its first argument the blocks per SM it is
 * built for. */
#ifdef GT_HEADER_KERNEL
template <int MIN_BLOCKS, typename T, typename A, int THREADS, int VEC, int PER, int BLOCK, int LOOKBACK, int PAD,
	  int LAYOUT, int ORDER>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
GT_HEADER_KERNEL(const T *__restrict__ in, A *__restrict__ out, void *scratch, unsigned long long n)
{
	gt_scan<T, A, THREADS, VEC, PER, BLOCK, LOOKBACK, PAD, LAYOUT, ORDER>(in, out, scratch, n);
}
#endif

#ifdef GT_ELEM_BYTES
#ifndef GT_KERNEL_NAME
#define GT_KERNEL_NAME gputune_scan
#endif
extern "C" __global__ void __launch_bounds__(GT_THREADS)
GT_KERNEL_NAME(const GT_ELEM_TYPE *__restrict__ in, GT_ACC_TYPE *__restrict__ out, void *scratch,
	       unsigned long long n)
{
	gt_scan<GT_ELEM_TYPE, GT_ACC_TYPE, GT_THREADS, GT_VEC, GT_PER, GT_BLOCK, GT_LOOKBACK, GT_PAD, GT_LAYOUT, GT_ORDER>(
		in, out, scratch, n);
}
#undef GT_VEC_BYTES
#undef GT_KERNEL_NAME
#endif
