/*
 * gemm.cu - C = A B in single precision on the CUDA cores (no tensor
 * cores, no TF32): A is M x K, B is K x N, C is M x N, all row-major and
 * densely packed.
 *
 * One template, gt_gemm<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, SPLIT,
 * REALIGN, ASYNC, FLAT, STREAM>:
 *   BM x BN   the block's tile of C; BK the step along K staged in shared
 *             memory per round.
 *   WM x WN   a warp's tile of the block tile; (BM / WM) * (BN / WN) warps.
 *   TM x TN   a thread's tile within one of the warp's sub-tiles: the 32
 *             lanes form 4 rows by 8 columns of threads, so a warp
 *             sub-tile is (4 TM) x (8 TN), repeated WM / (4 TM) times down
 *             and WN / (8 TN) times across.  Each thread keeps all its
 *             outputs in registers and does TM + TN shared loads for TM TN
 *             FMAs per k.
 *   VEC       elements per global load of A and B (4: one 16-byte access,
 *             taken when the rows allow it; 1: scalar loads).
 *   PAD       floats added to each shared row (bank conflicts of the
 *             transposed stores of A).
 *   DBUF      1: two shared stages; the next round's tiles are loaded into
 *             registers while this round is computed, so global latency
 *             hides behind the FMAs and one barrier per round suffices.
 *             2: as 1, and each k-step's fragments are read from shared
 *             memory one step ahead, into a second set of registers; the
 *             round's barrier comes before its last step, so the first
 *             fragments of the next round are read while the last FMAs of
 *             this one run and no warp starts a round waiting on shared
 *             memory.
 *   GROUP     block order: 1 row by row of C's tiles; G > 1 walks G rows
 *             of tiles at a time, column by column, so the blocks running
 *             together share their A and B tiles in L2.
 *   SPLIT     blocks per tile of C (split-K, compute capability 9.0 on):
 *             S > 1 launches S blocks a tile as one thread-block cluster,
 *             each multiplying a slice of K's rounds; each leaves its
 *             partial tile in its shared memory, and block s sums rows
 *             s BM / S to (s + 1) BM / S of the tile over the cluster's
 *             shared memories, block 0's first, then 1's and so on, so
 *             the sum is in one order at every run (deterministic) and
 *             needs neither scratch memory nor a second kernel.  A shape
 *             of few tiles and a long K fills the GPU this way; S need
 *             not be a power of two (3 fits some grids into the SMs'
 *             waves where 2 and 4 do not: docs/studies/gemm-split-3.md).
 *             Code built without clusters (for GPUs before 9.0, which a
 *             newer one may run from its PTX) multiplies each tile whole
 *             in its first block.
 *   REALIGN   1 (with VEC 4): rows of A or B that start off 16 bytes (K
 *             or N not a multiple of 4) are loaded as aligned 16-byte
 *             vectors shifted into place (gt_gemm_fetch_shifted) rather
 *             than element by element.
 *   ASYNC     0: the tiles pass through registers (DBUF above); S (2 to
 *             4): S shared stages filled by cp.async (compute capability
 *             8.0 on), S - 1 rounds ahead of the one computed, no
 *             register holding a tile in flight; with DBUF 2 (not 1), its
 *             fragments read a step ahead as DBUF 2's, the next round's
 *             first ones before this round's last FMAs.  A moves a float at a
 *             time, the warp's 32 copies covering whole rows of its BK
 *             (any K, any alignment), into its transposed place; B 16
 *             bytes at a time where its rows are aligned, else a float at
 *             a time along the row.  Outside A or B the copy fills zeros.
 *             Code for GPUs before 8.0 copies synchronously, in the same
 *             order, which the same barriers keep right.
 *   FLAT      1 (with VEC 4 and DBUF 1): DBUF 1's rounds with no branch
 *             in them, so that the compiler may spread the next round's
 *             loads and their addresses among the FMAs: each load is
 *             predicated (zeros outside A or B), one 16-byte vector where
 *             every row of A and B allows it (K and N multiples of 4, A
 *             and B aligned), else a float at a time; the round after the
 *             block's last is loaded too (predicated as the others, so
 *             inside A and B or nothing) into a stage nobody reads.
 *             Faster for mid tiles, slower for the largest
 *             (docs/studies/gemm-flat-rounds.md).  2: as 1, but where
 *             rows are off 16 bytes a warp's float loads read consecutive
 *             floats (a float a lane) rather than every fourth (4
 *             consecutive a thread): faster for most tiles where N or K
 *             is odd (docs/studies/gemm-flat-lanes.md).  3: as 2, but a
 *             row of 32 floats or more is read by one warp, each lane
 *             its floats 32 apart, the warps taking rows in turn: fewer
 *             instructions to address the floats
 *             (docs/studies/gemm-bounds-stages-and-odd-rows.md).  4: as
 *             3, but every round reads a float at a time, whatever the
 *             rows' alignment: one copy of the rounds instead of two.
 *             Beside the vector copy, ptxas leaves the float copy's loads
 *             at the top of its round but issues the vector copy's late;
 *             alone, the float copy beat both copies with the 96 x 64
 *             tile at small shapes, aligned or not, and lost 0.01 to 0.05
 *             of cuBLAS to them at large aligned ones
 *             (docs/studies/gemm-flat-rows-in-the-default-space.md).
 *   STREAM    1 (with SPLIT 1, ASYNC 0): stream-K.  The grid's G blocks
 *             (launched as many as the SMs hold at once) share the rounds
 *             of all tiles, tile by tile, G equal runs of them, so that
 *             every SM has the same work whatever the tile count.  A tile
 *             cut between blocks is summed in C in their order: the block
 *             of its first rounds stores its part, each next one adds
 *             its own to what C holds once the block before has flagged
 *             it, so the sum is in one order at every run (deterministic)
 *             for a G.  Blocks take their places in turn from a counter
 *             (each waits only on one that began before it: no deadlock
 *             whatever G) and walk their runs from the last tile back, so
 *             the part another block waits for is the first they do.  The
 *             counters are the module's: one launch of a kernel at a time.
 * A is stored transposed in shared memory (As[k][m]) so that a thread's
 * TM values of A for one k are contiguous, like its TN values of B.
 * M, N and K need not be multiples of anything: loads outside A or B read
 * zeros and stores outside C are skipped.
 */
#ifndef GT_GEMM_TEMPLATE
#define GT_GEMM_TEMPLATE

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD, int DBUF, int GROUP, int SPLIT>
struct gt_gemm_shape {
	static const int THREADS = (BM / WM) * (BN / WN) * 32;
	static const int SUBM = 4 * TM, SUBN = 8 * TN;        /* a warp sub-tile */
	static const int ITERM = WM / SUBM, ITERN = WN / SUBN; /* sub-tiles per warp */
	static const int LDA = BM + PAD, LDB = BN + PAD;       /* shared row lengths */
	/* Loads per thread and round: A's BM x BK and B's BK x BN, VEC at a time. */
	static const int LOADS_A = BM * BK / VEC / THREADS, LOADS_B = BK * BN / VEC / THREADS;
	static const int STAGE = BK * (LDA + LDB);             /* floats per stage */
};

/* Shared memory by 32-bit addresses in every build: nvcc keeps shared
 * pointers in 32 bits and NVRTC in 64, and from C++ pointers the two built
 * one variant into different code (128 x 128 tiles at odd N and K: the
 * nvcc build ran at 0.81 of NVRTC's, and others above it), so an exported
 * header's kernel was not the one measured.  gt_gemm_sptr is a float's
 * address in shared memory, stepped in floats like a pointer; the loads
 * and stores are ld.shared and st.shared on it.  On the host
 * (tests/cuda-host.h) it holds a pointer.
 * The loads declare no memory clobber: being volatile, they keep their
 * order against the stores and the barriers (volatile too), and the
 * compiler may move the next round's global loads among them (with the
 * clobber, 128 x 256 tiles ran about 3% slower on an H200, measured
 * together with the FMA order and the interior rounds below). */
#ifdef __CUDA_ARCH__
struct gt_gemm_sptr {
	unsigned a; /* bytes */
	__device__ __forceinline__ gt_gemm_sptr operator+(int n) const { return { a + 4u * (unsigned)n }; }
};
__device__ __forceinline__ float gt_gemm_lds(gt_gemm_sptr p)
{
	float v;
	asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(p.a));
	return v;
}
__device__ __forceinline__ float4 gt_gemm_lds4(gt_gemm_sptr p)
{
	float4 v;
	asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(p.a));
	return v;
}
__device__ __forceinline__ void gt_gemm_sts(gt_gemm_sptr p, float v)
{
	asm volatile("st.shared.f32 [%0], %1;" ::"r"(p.a), "f"(v) : "memory");
}
__device__ __forceinline__ void gt_gemm_sts4(gt_gemm_sptr p, float4 v)
{
	asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(p.a), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory");
}
#else
struct gt_gemm_sptr {
	float *a;
	gt_gemm_sptr operator+(int n) const { return { a + n }; }
};
inline float gt_gemm_lds(gt_gemm_sptr p) { return *p.a; }
inline float4 gt_gemm_lds4(gt_gemm_sptr p) { return *reinterpret_cast<const float4 *>(p.a); }
inline void gt_gemm_sts(gt_gemm_sptr p, float v) { *p.a = v; }
inline void gt_gemm_sts4(gt_gemm_sptr p, float4 v) { *reinterpret_cast<float4 *>(p.a) = v; }
#endif

/* Thread-block clusters are of compute capability 9.0 on.  A compiler
 * pass without them (nvcc's for older GPUs, whose PTX a newer GPU may run:
 * nvcc's default build; the test's host runner, tests/cuda-host.h) gets
 * split-K kernels whose tiles are multiplied whole by their first block
 * (gt_gemm), and these stubs, which no path then reaches. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define GT_GEMM_CLUSTERS 1
/* The cluster's blocks wait for each other; their shared memory is
 * written before and read after (PTX barrier.cluster, release/acquire). */
__device__ __forceinline__ void gt_gemm_cluster_sync()
{
	asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

/* Four floats at p in the shared memory of the cluster's block rank. */
__device__ __forceinline__ float4 gt_gemm_cluster_load4(gt_gemm_sptr p, unsigned rank)
{
	unsigned remote;
	float4 v;
	asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(p.a), "r"(rank));
	asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
		     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
		     : "r"(remote)
		     : "memory");
	return v;
}
#else
#define GT_GEMM_CLUSTERS 0
#ifdef __CUDACC__
#define GT_GEMM_TRAP() __trap()
#else
#define GT_GEMM_TRAP() __builtin_trap()
#endif
__device__ __forceinline__ void gt_gemm_cluster_sync()
{
	GT_GEMM_TRAP();
}

__device__ __forceinline__ float4 gt_gemm_cluster_load4(gt_gemm_sptr, unsigned)
{
	GT_GEMM_TRAP();
	return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}
#undef GT_GEMM_TRAP
#endif
/* A kernel's cluster of S blocks (where a compiler pass has clusters). */
#if defined(__CUDACC__) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900)
#define GT_GEMM_CLUSTER_DIMS(S) __cluster_dims__(S, 1, 1)
#else
#define GT_GEMM_CLUSTER_DIMS(S)
#endif

/* Stream-K's counters (STREAM): the next block's place, the blocks done,
 * the launches done, and each place's flag (its part of a cut tile is in
 * C when it holds the launch's number).  The last block of a launch resets
 * the first two and counts the launch, so flags need no clearing. */
#define GT_GEMM_STREAM_MAX 8192 /* blocks a stream-K launch may have */
static __device__ unsigned gt_gemm_stream_next, gt_gemm_stream_done, gt_gemm_stream_launch;
static __device__ unsigned gt_gemm_stream_flag[GT_GEMM_STREAM_MAX];

/* A 16-byte vector into four floats. */
__device__ __forceinline__ void gt_gemm_unpack4(float4 x, float *v)
{
	v[0] = x.x;
	v[1] = x.y;
	v[2] = x.z;
	v[3] = x.w;
}

/* VEC consecutive floats of row r (of rows x cols, leading dimension ld)
 * from column c, zeros outside; vector loads only when every row starts
 * 16-byte aligned (vec_ok). */
template <int VEC>
__device__ __forceinline__ void gt_gemm_fetch(const float *__restrict__ p, int rows, int cols, int ld, int r,
					      int c, bool vec_ok, float *v)
{
	if (VEC == 4 && vec_ok && r < rows && c + 3 < cols) {
		gt_gemm_unpack4(*reinterpret_cast<const float4 *>(p + (size_t)r * ld + c), v);
	} else {
#pragma unroll
		for (int i = 0; i < VEC; i++)
			v[i] = r < rows && c + i < cols ? p[(size_t)r * ld + c + i] : 0.0f;
	}
}

/* FLAT: VEC consecutive floats of row r (of rows x cols, leading
 * dimension ld) from column c, zeros outside, every load predicated
 * rather than branched around: as one 16-byte vector where v4 (VEC 4,
 * every row 16-byte aligned and c a multiple of 4, so that a vector is
 * wholly inside the row or outside), else a float at a time (as
 * gt_gemm_fetch's).  v4 is a constant at every call (a copy of the rounds
 * each), not a branch. */
template <int VEC>
__device__ __forceinline__ void gt_gemm_fetch_flat(const float *__restrict__ p, int rows, int cols, int ld, int r,
						   int c, bool v4, float *v)
{
	if (VEC == 4 && v4) {
		float4 x = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
		if (r < rows && c + 3 < cols)
			x = *reinterpret_cast<const float4 *>(p + (size_t)r * ld + c);
		gt_gemm_unpack4(x, v);
	} else {
		gt_gemm_fetch<VEC>(p, rows, cols, ld, r, c, false, v);
	}
}

/* FLAT 2: where in a tile of C columns thread t of T keeps its floats:
 * float j is the tile's element j T + t, so that a warp's load reads 32
 * consecutive floats of a row, or whole rows of a shorter one.  T and C
 * are powers of two: a load spans SPAN rows, a row takes PER loads, STEP
 * floats apart.  FLAT 3 (ROWS) deals rows of 32 floats or more out by
 * warps instead: a warp reads one row, each lane PER floats 32 apart,
 * and the warps take rows in turn, so that a thread's floats of a row
 * are one pointer's offsets and its pointer steps once a row rather than
 * once a float (docs/studies/gemm-bounds-stages-and-odd-rows.md). */
template <int C, int T, bool ROWS = false> struct gt_gemm_lanes {
	static constexpr bool WARP_ROWS = ROWS && C >= 32 && T >= 32;
	static constexpr int SPAN = WARP_ROWS ? T / 32 : T >= C ? T / C : 1;
	static constexpr int PER = WARP_ROWS ? C / 32 : C > T ? C / T : 1;
	static constexpr int STEP = WARP_ROWS ? 32 : T;
	int tr, tc; /* float 0's row and column */
	__device__ __forceinline__ gt_gemm_lanes(int t)
		: tr(WARP_ROWS ? t / 32 : T >= C ? t / C : 0), tc(WARP_ROWS ? t % 32 : T >= C ? t % C : t)
	{
	}
	/* float j's row and column, from a tile's origin at r0, c0 */
	__device__ __forceinline__ int row(int j, int r0 = 0) const { return r0 + tr + (j / PER) * SPAN; }
	__device__ __forceinline__ int col(int j, int c0 = 0) const { return c0 + tc + (j % PER) * STEP; }
};

/* ... a thread's NL floats of the tile of C columns at (r0, c0) of a rows
 * x cols matrix (leading dimension ld), zeros outside, rows walked by one
 * pointer, so that the loads' addresses are not each held in registers ... */
template <int C, int T, int NL, bool ROWS>
__device__ __forceinline__ void gt_gemm_fetch_lanes(const float *__restrict__ p, int rows, int cols, int ld, int r0,
						    int c0, int t, float *v)
{
	typedef gt_gemm_lanes<C, T, ROWS> L;
	const L at(t);
	const float *q = p + (size_t)(r0 + at.tr) * ld + c0 + at.tc;
#pragma unroll
	for (int j = 0; j < NL; j++) {
		v[j] = at.row(j, r0) < rows && at.col(j, c0) < cols ? q[(j % L::PER) * L::STEP] : 0.0f;
		if (j % L::PER == L::PER - 1)
			q += (size_t)L::SPAN * ld;
	}
}

/* ... and into the shared tile at s (row length ld), transposed (s[c][r],
 * A's) or not (s[r][c], B's). */
template <int C, int T, int NL, bool TRANSPOSED, bool ROWS>
__device__ __forceinline__ void gt_gemm_stash_lanes(gt_gemm_sptr s, int ld, int t, const float *v)
{
	const gt_gemm_lanes<C, T, ROWS> at(t);
#pragma unroll
	for (int j = 0; j < NL; j++) {
		const int r = at.row(j), c = at.col(j);
		gt_gemm_sts(TRANSPOSED ? s + (c * ld + r) : s + (r * ld + c), v[j]);
	}
}

/* REALIGN: the 4 floats of row r (of rows x cols, leading dimension ld,
 * rows starting off 16 bytes) from column c (a multiple of 4), zeros
 * outside, as two aligned 16-byte loads shifted into place: the one at or
 * before them, and the next.  The next is the neighbouring lane's own
 * first (lane + 1 loads the 4 columns after c of the same row), so a row
 * takes one load more than its aligned vectors, not four scalar loads a
 * vector; the last lane of a row's SEG lanes, and of the warp, loads it
 * itself.  Every lane of the warp calls it at once (shuffles).  Near the
 * end of the matrix, where a 16-byte load would reach past it, element by
 * element. */
template <int SEG>
__device__ __forceinline__ void gt_gemm_fetch_shifted(const float *__restrict__ p, int rows, int cols, int ld,
						      int r, int c, float *v)
{
	const size_t at = (size_t)r * ld + c, end = (size_t)rows * ld;
	const int off = (int)(at & 3);
	const float *base = p + (at - off);
	const bool whole = r < rows && at - off + 8 <= end;
	float4 x = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
	if (whole)
		x = *reinterpret_cast<const float4 *>(base);
	float4 y;
	y.x = __shfl_down_sync(0xffffffffu, x.x, 1);
	y.y = __shfl_down_sync(0xffffffffu, x.y, 1);
	y.z = __shfl_down_sync(0xffffffffu, x.z, 1);
	y.w = __shfl_down_sync(0xffffffffu, x.w, 1);
	/* The neighbour's is this row's next vector only within the row's
	 * lanes and the warp, and only where it too loaded a whole one. */
	const bool own = (c / 4) % SEG == SEG - 1 || (threadIdx.x & 31) == 31 || at - off + 12 > end;
	if (whole && own)
		y = *reinterpret_cast<const float4 *>(base + 4);
#pragma unroll
	for (int i = 0; i < 4; i++) {
		/* Element off + i of the eight, by selects (an array indexed at
		 * run time would live in local memory). */
		const int k = off + i;
		const float sx = k == 0 ? x.x : k == 1 ? x.y : k == 2 ? x.z : x.w;
		const float sy = k == 4 ? y.x : k == 5 ? y.y : k == 6 ? y.z : y.w;
		if (!whole)
			v[i] = r < rows && c + i < cols ? p[at + i] : 0.0f;
		else
			v[i] = c + i < cols ? (k < 4 ? sx : sy) : 0.0f;
	}
}

/* N consecutive floats of shared memory into registers: as 16-byte reads
 * when VEC4 (N a multiple of 4 and src 16-byte aligned). */
template <int N, bool VEC4>
__device__ __forceinline__ void gt_gemm_frag(gt_gemm_sptr src, float *dst)
{
	if (VEC4) {
#pragma unroll
		for (int x = 0; x < N; x += 4)
			gt_gemm_unpack4(gt_gemm_lds4(src + x), dst + x);
	} else {
#pragma unroll
		for (int x = 0; x < N; x++)
			dst[x] = gt_gemm_lds(src + x);
	}
}

/* ASYNC: BYTES (4 or 16) from src to dst in shared memory by cp.async,
 * or zeros where !in: a source size of 0 reads nothing, so src may then
 * point past A or B (choosing another address cost instructions a round). */
template <int BYTES>
__device__ __forceinline__ void gt_gemm_async(gt_gemm_sptr dst, const float *src, bool in)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	const unsigned d = dst.a;
	if (BYTES == 16)
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d),
			     "l"(__cvta_generic_to_global(src)), "r"(in ? 16 : 0)
			     : "memory");
	else
		asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d),
			     "l"(__cvta_generic_to_global(src)), "r"(in ? 4 : 0)
			     : "memory");
#elif defined(GT_HOST_ASYNC)
	static const float4 zeros = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
	if (BYTES == 16)
		gt_host_async_copy((float4 *)dst.a, in ? (const float4 *)src : &zeros); /* tests/cuda-host.h */
	else
		gt_host_async_copy(dst.a, in ? src : &zeros.x);
#else
	if (BYTES == 16)
		gt_gemm_sts4(dst, in ? *reinterpret_cast<const float4 *>(src) : make_float4(0.0f, 0.0f, 0.0f, 0.0f));
	else
		gt_gemm_sts(dst, in ? *src : 0.0f);
#endif
}

/* The copies issued since the last commit form one group ... */
__device__ __forceinline__ void gt_gemm_async_commit()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	asm volatile("cp.async.commit_group;\n" ::: "memory");
#elif defined(GT_HOST_ASYNC)
	gt_host_async_commit();
#endif
}

/* ... and this thread waits until at most PENDING groups, its newest, are
 * still in flight. */
template <int PENDING> __device__ __forceinline__ void gt_gemm_async_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING) : "memory");
#elif defined(GT_HOST_ASYNC)
	gt_host_async_wait_group(PENDING);
#endif
}

/* A stream-K block's walk (STREAM): its place and the launch's number;
 * whole tiles dp_tile, dp_tile + G, ... below dp_tiles, then its run of
 * the rest's rounds [run0, run1) from its end, seg_end where the next part
 * ends; and the part it is at: tile, rounds [first, last), more 0 when
 * the walk is done.  In shared memory, written by thread 0 between
 * barriers, so that none of it holds a register through the rounds. */
struct gt_gemm_stream_walk {
	long long run0, seg_end, dp_tile, dp_tiles;
	unsigned place, launch, tile;
	int first, last, more;
};
/* A template, so that only stream-K kernels instantiate it and declare
 * its shared memory. */
template <int UNUSED>
__device__ __forceinline__ gt_gemm_stream_walk &gt_gemm_walk()
{
	static __shared__ gt_gemm_stream_walk w;
	return w;
}

/* The walk's next part (thread 0). */
__device__ __forceinline__ void gt_gemm_walk_on(gt_gemm_stream_walk &w, int all_rounds)
{
	w.more = 1;
	if (w.dp_tile < w.dp_tiles) {
		w.tile = (unsigned)w.dp_tile;
		w.first = 0;
		w.last = all_rounds;
		w.dp_tile += gridDim.x;
		return;
	}
	if (w.seg_end <= w.run0) {
		w.more = 0;
		return;
	}
	w.tile = (unsigned)((w.seg_end - 1) / all_rounds);
	const long long start = (long long)w.tile * all_rounds;
	w.first = (int)(w.run0 > start ? w.run0 - start : 0);
	w.last = (int)(w.seg_end - start);
	w.seg_end = start + w.first;
}

/* Tile of C number tile, as row tm and column tn of tiles: grouped order
 * walks GROUP tile rows column by column. */
template <int GROUP>
__device__ __forceinline__ void gt_gemm_place(unsigned tile, int tiles_m, int tiles_n, int &tm, int &tn)
{
	if (GROUP > 1) {
		const int id = tile, per_group = GROUP * tiles_n;
		const int g = id / per_group, first = g * GROUP;
		const int rows_here = min(GROUP, tiles_m - first);
		tm = first + (id % per_group) % rows_here;
		tn = (id % per_group) / rows_here;
	} else {
		tm = tile / tiles_n;
		tn = tile % tiles_n;
	}
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD, int DBUF, int GROUP, int SPLIT,
	  int REALIGN, int ASYNC, int FLAT, int STREAM = 0>
__device__ __forceinline__ void gt_gemm(const float *__restrict__ A, const float *__restrict__ B,
					float *__restrict__ C, int M, int N, int K)
{
	typedef gt_gemm_shape<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, SPLIT> S;
	static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must divide the block tile");
	static_assert(WM % S::SUBM == 0 && WN % S::SUBN == 0, "thread tiles must divide the warp tile");
	static_assert((BM * BK / VEC) % S::THREADS == 0 && (BK * BN / VEC) % S::THREADS == 0,
		      "the threads must share the tile loads evenly");
	static_assert(BK % VEC == 0 && BN % VEC == 0, "vector loads must not straddle a tile row");
	static_assert(SPLIT == 1 || (SPLIT <= 8 && BM >= SPLIT && BN % 4 == 0),
		      "the cluster's blocks must each sum whole rows of the tile, 4 floats at a time");
	static_assert(ASYNC == 0 || (ASYNC >= 2 && ASYNC <= 4 && DBUF != 1),
		      "ASYNC is 0 or 2 to 4 stages, without DBUF 1's registers in flight");
	static_assert(DBUF >= 0 && DBUF <= 2 && (DBUF < 2 || BK % 2 == 0), "DBUF is 0, 1 or 2 (2 with BK even)");
	static_assert(!FLAT || (VEC == 4 && DBUF == 1 && !ASYNC && !REALIGN), "FLAT is of VEC 4 and DBUF 1 alone");
	static_assert(FLAT < 2 || ((BN & (BN - 1)) == 0 && (BK & (BK - 1)) == 0 && (S::THREADS & (S::THREADS - 1)) == 0),
		      "FLAT 2 to 4 deal a round's floats out by powers of two: bn, bk and the threads");
	static_assert(FLAT >= 0 && FLAT <= 4, "FLAT is 0 to 4");
	static_assert(STREAM == 0 || (STREAM == 1 && SPLIT == 1 && ASYNC == 0), "STREAM is 0, or 1 with SPLIT 1 and ASYNC 0");
	/* 16-byte aligned, so that the fragment reads below can be vector ones. */
	extern __shared__ __align__(16) float gt_smem[];
#ifdef __CUDA_ARCH__
	/* Its address as PTX names it, in 32 bits from both compilers (the
	 * operand only keeps the declaration, which nothing else uses). */
	gt_gemm_sptr smem;
	asm("mov.u32 %0, gt_smem;" : "=r"(smem.a) : "l"(gt_smem));
#else
	const gt_gemm_sptr smem = { gt_smem };
#endif

	/* Which tile of C: grouped order walks GROUP tile rows column by
	 * column.  Under split-K a tile's SPLIT blocks are one cluster, of
	 * consecutive indices, slice the block's rank in it. */
	const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
	unsigned tile = SPLIT > 1 ? blockIdx.x / SPLIT : blockIdx.x;
	const int slice = SPLIT > 1 ? blockIdx.x % SPLIT : 0;
	/* Split-K's share of K where the pass has clusters; without them a
	 * tile's first block multiplies all of K and the others leave (the
	 * whole block at once, before any barrier). */
	constexpr int SK = GT_GEMM_CLUSTERS ? SPLIT : 1;
	if (SPLIT > 1 && !GT_GEMM_CLUSTERS && slice > 0)
		return;
	/* Stream-K: this block's place (in turn); whole tiles first, tile
	 * place, place + G and so on (blocks running together on neighbouring
	 * tiles, which share their rows of A and columns of B in L2), then its
	 * run of the rest's rounds.  The rest is the last G tiles and those of
	 * a last wave of fewer than G, so that each block has a tile or two of
	 * it. */
	const int all_rounds = (K + BK - 1) / BK;
	/* The part's rounds, read here and kept until first and rounds below
	 * take them: those stay declared after the loads' lambdas, in the
	 * order that gives the other kernels their code. */
	int tile_first = 0, tile_last = all_rounds;
	bool more = true;
	if constexpr (STREAM) {
		gt_gemm_stream_walk &w = gt_gemm_walk<0>();
		if (threadIdx.x == 0) {
			w.place = atomicAdd(&gt_gemm_stream_next, 1u);
			w.launch = *(volatile unsigned *)&gt_gemm_stream_launch + 1;
			const long long tiles = (long long)tiles_m * tiles_n, g = gridDim.x;
			w.dp_tiles = tiles % g == 0 ? tiles : tiles / g > 1 ? (tiles / g - 1) * g : 0;
			w.dp_tile = w.place;
			/* At most one place a round, so that every place has a part. */
			const long long total = (tiles - w.dp_tiles) * all_rounds, places = min(g, total);
			w.run0 = w.seg_end = 0;
			if ((long long)w.place < places) {
				w.run0 = w.dp_tiles * all_rounds + total * w.place / places;
				w.seg_end = w.dp_tiles * all_rounds + total * (w.place + 1) / places;
			}
			gt_gemm_walk_on(w, all_rounds);
		}
		__syncthreads();
		tile = w.tile;
		tile_first = w.first;
		tile_last = w.last;
		more = w.more;
	}
	int tm, tn;
	gt_gemm_place<GROUP>(tile, tiles_m, tiles_n, tm, tn);
	int m0 = tm * BM, n0 = tn * BN;
	const int t = threadIdx.x, warp = t / 32, lane = t % 32;
	const int wm0 = (warp / (BN / WN)) * WM, wn0 = (warp % (BN / WN)) * WN;
	const int lm = (lane / 8) * TM, ln = (lane % 8) * TN;
	const bool a_vec = (K % 4) == 0 && ((size_t)A % 16) == 0;
	const bool b_vec = (N % 4) == 0 && ((size_t)B % 16) == 0;
	/* REALIGN: every row through the shifted loads, off 16 bytes or not
	 * (one path, not two: both would hold registers at once). */
	const bool a_shift = REALIGN && VEC == 4 && ((size_t)A % 16) == 0;
	const bool b_shift = REALIGN && VEC == 4 && ((size_t)B % 16) == 0;

	float acc[S::ITERM * TM][S::ITERN * TN];
#pragma unroll
	for (int i = 0; i < S::ITERM * TM; i++)
#pragma unroll
		for (int j = 0; j < S::ITERN * TN; j++)
			acc[i][j] = 0.0f;

	float ra[S::LOADS_A][VEC], rb[S::LOADS_B][VEC];
	/* This round's slice of A (BM x BK at k0) and B (BK x BN) into registers.
	 * A round wholly inside A and B, of rows that allow 16-byte loads (all
	 * but the edge tiles' and the last), loads without a test per vector:
	 * one branch for the block instead of one a load, and fewer
	 * instructions between the barrier and the first FMAs. */
	auto fetch = [&](int k0) {
		if (VEC == 4 && a_vec && b_vec && m0 + BM <= M && n0 + BN <= N && k0 + BK <= K) {
#pragma unroll
			for (int l = 0; l < S::LOADS_A; l++) {
				const int e = (l * S::THREADS + t) * VEC, r = e / BK, c = e % BK;
				gt_gemm_unpack4(*reinterpret_cast<const float4 *>(A + (size_t)(m0 + r) * K + k0 + c), ra[l]);
			}
#pragma unroll
			for (int l = 0; l < S::LOADS_B; l++) {
				const int e = (l * S::THREADS + t) * VEC, r = e / BN, c = e % BN;
				gt_gemm_unpack4(*reinterpret_cast<const float4 *>(B + (size_t)(k0 + r) * N + n0 + c), rb[l]);
			}
			return;
		}
#pragma unroll
		for (int l = 0; l < S::LOADS_A; l++) {
			const int e = (l * S::THREADS + t) * VEC, r = e / BK, c = e % BK;
			if (REALIGN && a_shift)
				gt_gemm_fetch_shifted<BK / 4>(A, M, K, K, m0 + r, k0 + c, ra[l]);
			else
				gt_gemm_fetch<VEC>(A, M, K, K, m0 + r, k0 + c, a_vec, ra[l]);
		}
#pragma unroll
		for (int l = 0; l < S::LOADS_B; l++) {
			const int e = (l * S::THREADS + t) * VEC, r = e / BN, c = e % BN;
			if (REALIGN && b_shift)
				gt_gemm_fetch_shifted<BN / 4>(B, K, N, N, k0 + r, n0 + c, rb[l]);
			else
				gt_gemm_fetch<VEC>(B, K, N, N, k0 + r, n0 + c, b_vec, rb[l]);
		}
	};
	/* ... and from registers into a shared stage, A transposed. */
	auto stash = [&](gt_gemm_sptr as) {
		const gt_gemm_sptr bs = as + BK * S::LDA;
#pragma unroll
		for (int l = 0; l < S::LOADS_A; l++) {
			const int e = (l * S::THREADS + t) * VEC, r = e / BK, c = e % BK;
#pragma unroll
			for (int i = 0; i < VEC; i++)
				gt_gemm_sts(as + ((c + i) * S::LDA + r), ra[l][i]);
		}
#pragma unroll
		for (int l = 0; l < S::LOADS_B; l++) {
			const int e = (l * S::THREADS + t) * VEC, r = e / BN, c = e % BN;
			if (VEC == 4 && S::LDB % 4 == 0) {
				gt_gemm_sts4(bs + (r * S::LDB + c), make_float4(rb[l][0], rb[l][1], rb[l][2], rb[l][3]));
			} else {
#pragma unroll
				for (int i = 0; i < VEC; i++)
					gt_gemm_sts(bs + (r * S::LDB + c + i), rb[l][i]);
			}
		}
	};
	/* Step k's fragments from the stage at as (16-byte reads where the tiles
	 * keep them aligned), and its FMAs. */
	auto frags = [&](gt_gemm_sptr as, int k, float *a, float *b) {
		const gt_gemm_sptr bs = as + BK * S::LDA;
#pragma unroll
		for (int i = 0; i < S::ITERM; i++)
			gt_gemm_frag<TM, TM % 4 == 0 && S::LDA % 4 == 0>(as + (k * S::LDA + wm0 + i * S::SUBM + lm),
									a + i * TM);
#pragma unroll
		for (int j = 0; j < S::ITERN; j++)
			gt_gemm_frag<TN, TN % 4 == 0 && S::LDB % 4 == 0>(bs + (k * S::LDB + wn0 + j * S::SUBN + ln),
									b + j * TN);
	};
	/* Row by row, every other row right to left, so that each FMA shares
	 * an operand with the one before it, also where a row turns (with the
	 * loads' clobber gone and the interior rounds, 3% faster at 128 x 256
	 * tiles on an H200).  Each output's sum keeps its order along K. */
	auto fmas = [&](const float *a, const float *b) {
		constexpr int NJ = S::ITERN * TN;
#pragma unroll
		for (int i = 0; i < S::ITERM * TM; i++)
#pragma unroll
			for (int jj = 0; jj < NJ; jj++) {
				const int j = i % 2 ? NJ - 1 - jj : jj;
				acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
			}
	};

	/* One round: BK rank-1 updates of the thread's outputs. */
	auto compute = [&](gt_gemm_sptr as) {
#pragma unroll
		for (int k = 0; k < BK; k++) {
			float a[S::ITERM * TM], b[S::ITERN * TN];
			frags(as, k, a, b);
			fmas(a, b);
		}
	};

	/* ASYNC: this round's tiles (A's BM x BK at k0, B's BK x BN) copied
	 * into the shared stage as, A transposed. */
	constexpr bool B16 = VEC == 4 && S::LDB % 4 == 0;
	auto issue = [&](int k0, gt_gemm_sptr as) {
		const gt_gemm_sptr bs = as + BK * S::LDA;
#pragma unroll
		for (int l = 0; l < BM * BK / S::THREADS; l++) {
			const int e = l * S::THREADS + t, r = e / BK, c = e % BK;
			const bool in = m0 + r < M && k0 + c < K;
			gt_gemm_async<4>(as + (c * S::LDA + r), A + (size_t)(m0 + r) * K + k0 + c, in);
		}
		if (B16 && b_vec) {
			/* N is a multiple of 4: a vector is wholly in B or out. */
#pragma unroll
			for (int l = 0; l < BK * BN / 4 / S::THREADS; l++) {
				const int e = (l * S::THREADS + t) * 4, r = e / BN, c = e % BN;
				const bool in = k0 + r < K && n0 + c < N;
				gt_gemm_async<16>(bs + (r * S::LDB + c), B + (size_t)(k0 + r) * N + n0 + c, in);
			}
		} else {
#pragma unroll
			for (int l = 0; l < BK * BN / S::THREADS; l++) {
				const int e = l * S::THREADS + t, r = e / BN, c = e % BN;
				const bool in = k0 + r < K && n0 + c < N;
				gt_gemm_async<4>(bs + (r * S::LDB + c), B + (size_t)(k0 + r) * N + n0 + c, in);
			}
		}
	};

	/* The rounds along K this block multiplies, from K offset k0: all,
	 * its slice's, or (STREAM) its part's of the tile. */
	int first = SK > 1 ? (int)((long long)all_rounds * slice / SK) : 0;
	int rounds = SK > 1 ? (int)((long long)all_rounds * (slice + 1) / SK) - first : all_rounds;
	if constexpr (STREAM) {
		first = tile_first;
		rounds = tile_last - tile_first;
	}
	int k0 = first * BK;
	/* One part at a time; all but stream-K's blocks have one. */
	while (more) {
	if constexpr (ASYNC > 0 && DBUF == 2) {
		/* ASYNC's stages with DBUF 2's fragments a step ahead (two sets
		 * of registers, step k's in set k % 2; BK is even).  The wait
		 * and the barrier for the next round's stage come before this
		 * round's last step, whose fragments are in registers by then,
		 * so the next round's first fragments are read while its FMAs
		 * run and no warp starts a round waiting on shared memory.
		 * Every read of a round's stage is before that round's barrier,
		 * so the round after may refill it: round r copies round
		 * r + ASYNC - 1 into the stage of round r - 1.  A group is
		 * committed every round (empty past the last), so before round
		 * r's last step ASYNC + r groups are committed and round r + 1's
		 * is done when at most ASYNC - 2 are pending. */
		float fa[2][S::ITERM * TM], fb[2][S::ITERN * TN];
		for (int s = 0; s < ASYNC - 1; s++) {
			if (s < rounds)
				issue(k0 + s * BK, smem + s * S::STAGE);
			gt_gemm_async_commit();
		}
		gt_gemm_async_wait<ASYNC - 2>();
		__syncthreads();
		if (rounds > 0)
			frags(smem, 0, fa[0], fb[0]);
		int cur = 0, ahead = ASYNC - 1;
		for (int r = 0; r < rounds; r++) {
			const int next = cur + 1 == ASYNC ? 0 : cur + 1;
			if (r + ASYNC - 1 < rounds)
				issue(k0 + (r + ASYNC - 1) * BK, smem + ahead * S::STAGE);
			gt_gemm_async_commit();
#pragma unroll
			for (int k = 0; k < BK; k++) {
				if (k == BK - 1) {
					gt_gemm_async_wait<ASYNC - 2>();
					__syncthreads();
				}
				if (k + 1 < BK)
					frags(smem + cur * S::STAGE, k + 1, fa[(k + 1) & 1], fb[(k + 1) & 1]);
				else if (r + 1 < rounds)
					frags(smem + next * S::STAGE, 0, fa[0], fb[0]);
				fmas(fa[k & 1], fb[k & 1]);
			}
			cur = next;
			ahead = ahead + 1 == ASYNC ? 0 : ahead + 1;
		}
		/* Only empty groups are left; none leaves in flight. */
		gt_gemm_async_wait<0>();
	} else if (ASYNC) {
		/* ASYNC - 1 rounds in flight ahead of the one computed.  Each
		 * round's wait is for its own group (a group is committed every
		 * round, empty past the last, so the count holds), and its
		 * barrier both publishes every thread's copies and tells that
		 * the stage about to be refilled, the last round's, is read. */
		for (int s = 0; s < ASYNC - 1; s++) {
			if (s < rounds)
				issue(k0 + s * BK, smem + s * S::STAGE);
			gt_gemm_async_commit();
		}
		int cur = 0, ahead = ASYNC - 1;
		for (int r = 0; r < rounds; r++) {
			gt_gemm_async_wait<(ASYNC > 1 ? ASYNC - 2 : 0)>();
			__syncthreads();
			if (r + ASYNC - 1 < rounds)
				issue(k0 + (r + ASYNC - 1) * BK, smem + ahead * S::STAGE);
			gt_gemm_async_commit();
			compute(smem + cur * S::STAGE);
			cur = cur + 1 == ASYNC ? 0 : cur + 1;
			ahead = ahead + 1 == ASYNC ? 0 : ahead + 1;
		}
		/* Only empty groups are left; none leaves in flight. */
		gt_gemm_async_wait<0>();
	} else if (DBUF == 2) {
		/* Fragments of step k in set k % 2 (BK is even, so a round's
		 * first step is in set 0).  The next round's tiles go into the
		 * other stage before the barrier of the last step: that stage was
		 * last read in the round before, which every thread has left
		 * (its barrier); this round's is not read past the barrier, the
		 * last step's fragments being in registers by then. */
		float fa[2][S::ITERM * TM], fb[2][S::ITERN * TN];
		if (SK == 1 || rounds > 0) {
			fetch(k0);
			stash(smem);
		}
		__syncthreads();
		if (rounds > 0)
			frags(smem, 0, fa[0], fb[0]);
		for (int r = 0; r < rounds; r++) {
			const gt_gemm_sptr cur = smem + (r & 1) * S::STAGE, next = smem + ((r + 1) & 1) * S::STAGE;
			if (r + 1 < rounds)
				fetch(k0 + (r + 1) * BK);
#pragma unroll
			for (int k = 0; k < BK; k++) {
				if (k == BK - 1) {
					if (r + 1 < rounds)
						stash(next);
					__syncthreads();
				}
				if (k + 1 < BK)
					frags(cur, k + 1, fa[(k + 1) & 1], fb[(k + 1) & 1]);
				else if (r + 1 < rounds)
					frags(next, 0, fa[0], fb[0]);
				fmas(fa[k & 1], fb[k & 1]);
			}
		}
	} else if constexpr (FLAT) {
		/* The same rounds as DBUF 1's below, in one of two copies: of
		 * vector loads where every row allows them, else of floats.
		 * Discarded (constexpr) where FLAT is 0, so that those kernels
		 * are the code they were before it: as a plain branch, dead,
		 * it still moved ptxas's registers in split-K kernels. */
		auto fetch_flat = [&](int k0, bool v4) {
#pragma unroll
			for (int l = 0; l < S::LOADS_A; l++) {
				const int e = (l * S::THREADS + t) * VEC, r = e / BK, c = e % BK;
				gt_gemm_fetch_flat<VEC>(A, M, K, K, m0 + r, k0 + c, v4, ra[l]);
			}
#pragma unroll
			for (int l = 0; l < S::LOADS_B; l++) {
				const int e = (l * S::THREADS + t) * VEC, r = e / BN, c = e % BN;
				gt_gemm_fetch_flat<VEC>(B, K, N, N, k0 + r, n0 + c, v4, rb[l]);
			}
		};
		/* FLAT 2's copy of floats: a warp's load reads consecutive floats
		 * of a row, where FLAT 1's reads every fourth float of 128 four
		 * times over (gt_gemm_fetch_lanes); each float stashed alone.
		 * FLAT 3's and 4's deal them out by warps (gt_gemm_lanes). */
		constexpr bool ROWS = FLAT >= 3;
		auto fetch_lanes = [&](int k0) {
			gt_gemm_fetch_lanes<BK, S::THREADS, S::LOADS_A * VEC, ROWS>(A, M, K, K, m0, k0, t, &ra[0][0]);
			gt_gemm_fetch_lanes<BN, S::THREADS, S::LOADS_B * VEC, ROWS>(B, K, N, N, k0, n0, t, &rb[0][0]);
		};
		auto stash_lanes = [&](gt_gemm_sptr as) {
			gt_gemm_stash_lanes<BK, S::THREADS, S::LOADS_A * VEC, true, ROWS>(as, S::LDA, t, &ra[0][0]);
			gt_gemm_stash_lanes<BN, S::THREADS, S::LOADS_B * VEC, false, ROWS>(as + BK * S::LDA, S::LDB, t,
											    &rb[0][0]);
		};
		auto flat_rounds = [&](bool v4) {
			const bool lanes = FLAT >= 2 && !v4;
			auto get = [&](int k) {
				if (lanes)
					fetch_lanes(k);
				else
					fetch_flat(k, v4);
			};
			auto put = [&](gt_gemm_sptr as) {
				if (lanes)
					stash_lanes(as);
				else
					stash(as);
			};
			if (SK == 1 || rounds > 0) {
				get(k0);
				put(smem);
			}
			__syncthreads();
			for (int r = 0; r < rounds; r++) {
				const gt_gemm_sptr cur = smem + (r & 1) * S::STAGE, next = smem + ((r + 1) & 1) * S::STAGE;
				get(k0 + (r + 1) * BK);
				compute(cur);
				put(next);
				__syncthreads();
			}
		};
		/* FLAT 4: the float copy alone (the vector copy discarded). */
		if constexpr (FLAT == 4)
			flat_rounds(false);
		else if (a_vec && b_vec)
			flat_rounds(true);
		else
			flat_rounds(false);
	} else if (DBUF) {
		if (SK == 1 || rounds > 0) {
			fetch(k0);
			stash(smem);
		}
		__syncthreads();
		for (int r = 0; r < rounds; r++) {
			const gt_gemm_sptr cur = smem + (r & 1) * S::STAGE, next = smem + ((r + 1) & 1) * S::STAGE;
			if (r + 1 < rounds)
				fetch(k0 + (r + 1) * BK);
			compute(cur);
			if (r + 1 < rounds)
				stash(next);
			__syncthreads();
		}
	} else {
		for (int r = 0; r < rounds; r++) {
			fetch(k0 + r * BK);
			stash(smem);
			__syncthreads();
			compute(smem);
			__syncthreads();
		}
	}

	if (SK > 1) {
		/* The partial tile into this block's shared memory (the stages are
		 * done with: every round ended at a barrier), then the cluster's
		 * sum of this block's share of the rows into C. */
		__syncthreads();
		const gt_gemm_sptr part = smem;
#pragma unroll
		for (int i = 0; i < S::ITERM; i++)
#pragma unroll
			for (int x = 0; x < TM; x++)
#pragma unroll
				for (int j = 0; j < S::ITERN; j++)
#pragma unroll
					for (int y = 0; y < TN; y++)
						gt_gemm_sts(part + ((wm0 + i * S::SUBM + lm + x) * BN + wn0 + j * S::SUBN + ln + y),
							    acc[i * TM + x][j * TN + y]);
		gt_gemm_cluster_sync();
		/* Block s sums rows s BM / S to (s + 1) BM / S, whole rows.  Where
		 * S divides BM, in the form the splits had before 3 and 6: the
		 * second form alone is the same sum, but other machine code for
		 * those kernels (8 of 12 points compared), which were measured. */
		constexpr bool EVEN = BM % SPLIT == 0;
		const int row0 = EVEN ? slice * (BM / SPLIT) : slice * BM / SPLIT;
		const int share = EVEN ? BM / SPLIT * BN : ((slice + 1) * BM / SPLIT - row0) * BN;
		const bool c_vec = (N % 4) == 0 && ((size_t)C % 16) == 0;
		for (int e = t * 4; e < share; e += S::THREADS * 4) {
			const int r = row0 + e / BN, c = e % BN;
			float4 sum = gt_gemm_cluster_load4(part + (r * BN + c), 0);
#pragma unroll
			for (int s = 1; s < SPLIT; s++) {
				const float4 q = gt_gemm_cluster_load4(part + (r * BN + c), s);
				sum.x += q.x;
				sum.y += q.y;
				sum.z += q.z;
				sum.w += q.w;
			}
			const int row = m0 + r, col = n0 + c;
			if (row >= M)
				continue;
			float *out = C + (size_t)row * N + col;
			if (c_vec && col + 3 < N) {
				*reinterpret_cast<float4 *>(out) = sum;
			} else {
				const float v[4] = { sum.x, sum.y, sum.z, sum.w };
#pragma unroll
				for (int y = 0; y < 4; y++)
					if (col + y < N)
						out[y] = v[y];
			}
		}
		/* No block leaves while another may still read its memory. */
		gt_gemm_cluster_sync();
	} else {
		/* Stream-K, a part after a tile's first: C holds the parts before
		 * it once the block of the place before has flagged them; add. */
		if constexpr (STREAM) {
			if (tile_first > 0) {
				if (t == 0)
					while (*(volatile unsigned *)&gt_gemm_stream_flag[gt_gemm_walk<0>().place - 1] !=
					       gt_gemm_walk<0>().launch)
						;
				__syncthreads();
				__threadfence();
#pragma unroll
				for (int i = 0; i < S::ITERM; i++)
#pragma unroll
					for (int x = 0; x < TM; x++) {
						const int row = m0 + wm0 + i * S::SUBM + lm + x;
						if (row >= M)
							continue;
#pragma unroll
						for (int j = 0; j < S::ITERN; j++) {
							const int col = n0 + wn0 + j * S::SUBN + ln;
							const volatile float *c = C + (size_t)row * N + col;
#pragma unroll
							for (int y = 0; y < TN; y++)
								if (col + y < N)
									acc[i * TM + x][j * TN + y] = c[y] + acc[i * TM + x][j * TN + y];
						}
					}
			}
		}
		/* The outputs, each row's TN values at once where the row allows. */
#pragma unroll
		for (int i = 0; i < S::ITERM; i++)
#pragma unroll
			for (int x = 0; x < TM; x++) {
				const int row = m0 + wm0 + i * S::SUBM + lm + x;
				if (row >= M)
					continue;
#pragma unroll
				for (int j = 0; j < S::ITERN; j++) {
					const int col = n0 + wn0 + j * S::SUBN + ln;
					float *c = C + (size_t)row * N + col;
					if (TN % 4 == 0 && b_vec && ((size_t)C % 16) == 0 && col + TN <= N) {
#pragma unroll
						for (int y = 0; y < TN; y += 4)
							*reinterpret_cast<float4 *>(c + y) =
								make_float4(acc[i * TM + x][j * TN + y], acc[i * TM + x][j * TN + y + 1],
									    acc[i * TM + x][j * TN + y + 2], acc[i * TM + x][j * TN + y + 3]);
					} else {
#pragma unroll
						for (int y = 0; y < TN; y++)
							if (col + y < N)
								c[y] = acc[i * TM + x][j * TN + y];
					}
				}
			}
		/* Stream-K, a part before a tile's last: flag it for the block of
		 * the next place. */
		if constexpr (STREAM) {
			if (tile_last < all_rounds) {
				__threadfence();
				__syncthreads();
				if (t == 0)
					*(volatile unsigned *)&gt_gemm_stream_flag[gt_gemm_walk<0>().place] = gt_gemm_walk<0>().launch;
			}
		}
	}
	more = false;
	if constexpr (STREAM) {
		/* The run's next part back, into stages every thread is done
		 * with (each round ended at a barrier). */
		gt_gemm_stream_walk &w = gt_gemm_walk<0>();
		if (t == 0)
			gt_gemm_walk_on(w, all_rounds);
		__syncthreads();
		if (w.more) {
			more = true;
			tile = w.tile;
			tile_first = w.first;
			tile_last = w.last;
			gt_gemm_place<GROUP>(tile, tiles_m, tiles_n, tm, tn);
			m0 = tm * BM;
			n0 = tn * BN;
			first = tile_first;
			rounds = tile_last - tile_first;
			k0 = first * BK;
#pragma unroll
			for (int i = 0; i < S::ITERM * TM; i++)
#pragma unroll
				for (int j = 0; j < S::ITERN * TN; j++)
					acc[i][j] = 0.0f;
		}
	}
	}
	/* Stream-K: the launch's last block resets the counters for the next. */
	if constexpr (STREAM) {
		__syncthreads();
		if (t == 0) {
			__threadfence();
			if (atomicAdd(&gt_gemm_stream_done, 1u) == gridDim.x - 1) {
				gt_gemm_stream_next = 0;
				gt_gemm_stream_done = 0;
				__threadfence();
				atomicAdd(&gt_gemm_stream_launch, 1u);
			}
		}
	}
}

#endif /* GT_GEMM_TEMPLATE */

/* An exported header's kernel, its first argument the blocks per SM it is
 * built for (src/export-header.c, variant_occupancy): the plain kernel, or
 * under split-K one whose blocks are launched in clusters of SPLIT, the
 * cluster's size fixed at compile time so that a plain launch of SPLIT
 * blocks a tile runs it.  GT_HEADER_KERNEL names whichever the variant
 * is, and instantiates that one alone. */
#ifdef GT_HEADER_KERNEL
/* Named after GT_HEADER_KERNEL, so that a program can hold the template's
 * header kernels under two names (a header, and the template itself). */
#define GT_GEMM_PASTE2(a, b) a##b
#define GT_GEMM_PASTE(a, b) GT_GEMM_PASTE2(a, b)
#define GT_GEMM_PLAIN GT_GEMM_PASTE(GT_HEADER_KERNEL, _plain)
#define GT_GEMM_CLUSTERED GT_GEMM_PASTE(GT_HEADER_KERNEL, _cluster)
#define GT_GEMM_ENTRY GT_GEMM_PASTE(GT_HEADER_KERNEL, _entry)
template <int MIN_BLOCKS, int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD, int DBUF,
	  int GROUP, int SPLIT, int REALIGN, int ASYNC, int FLAT, int STREAM>
__global__ void
__launch_bounds__(gt_gemm_shape<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, SPLIT>::THREADS, MIN_BLOCKS)
GT_GEMM_PLAIN(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
	gt_gemm<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, SPLIT, REALIGN, ASYNC, FLAT, STREAM>(A, B, C, M, N, K);
}

template <int MIN_BLOCKS, int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD, int DBUF,
	  int GROUP, int SPLIT, int REALIGN, int ASYNC, int FLAT>
__global__ void GT_GEMM_CLUSTER_DIMS(SPLIT)
__launch_bounds__(gt_gemm_shape<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, SPLIT>::THREADS, MIN_BLOCKS)
GT_GEMM_CLUSTERED(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N,
		  int K)
{
	gt_gemm<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, SPLIT, REALIGN, ASYNC, FLAT>(A, B, C, M, N, K);
}

typedef void (*gt_gemm_kernel_t)(const float *__restrict__, const float *__restrict__, float *__restrict__, int,
				 int, int);
template <bool CLUSTER, int MIN_BLOCKS, int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD,
	  int DBUF, int GROUP, int SPLIT, int REALIGN, int ASYNC, int FLAT, int STREAM>
struct GT_GEMM_ENTRY {
	static constexpr gt_gemm_kernel_t kernel =
		GT_GEMM_PLAIN<MIN_BLOCKS, BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, SPLIT, REALIGN, ASYNC, FLAT,
			      STREAM>;
};
template <int MIN_BLOCKS, int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD, int DBUF,
	  int GROUP, int SPLIT, int REALIGN, int ASYNC, int FLAT, int STREAM>
struct GT_GEMM_ENTRY<true, MIN_BLOCKS, BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, SPLIT, REALIGN, ASYNC,
		     FLAT, STREAM> {
	static constexpr gt_gemm_kernel_t kernel =
		GT_GEMM_CLUSTERED<MIN_BLOCKS, BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, SPLIT, REALIGN, ASYNC,
				  FLAT>;
};
/* FLAT and STREAM last and 0 unless given, so that programs naming the
 * kernels of templates before them (bench/gemm-versions.sh) name these
 * alike. */
template <int MIN_BLOCKS, int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD, int DBUF,
	  int GROUP, int SPLIT, int REALIGN, int ASYNC, int FLAT = 0, int STREAM = 0>
constexpr gt_gemm_kernel_t GT_HEADER_KERNEL = GT_GEMM_ENTRY<(SPLIT > 1), MIN_BLOCKS, BM, BN, BK, WM, WN, TM, TN, VEC,
							     PAD, DBUF, GROUP, SPLIT, REALIGN, ASYNC, FLAT, STREAM>::kernel;
#undef GT_GEMM_PLAIN
#undef GT_GEMM_CLUSTERED
#undef GT_GEMM_ENTRY
#undef GT_GEMM_PASTE
#undef GT_GEMM_PASTE2
#endif

#ifdef GT_BM
#ifndef GT_KERNEL_NAME
#define GT_KERNEL_NAME gputune_gemm
#endif
#ifndef GT_STREAM
#define GT_STREAM 0
#endif
/* A cluster's size is the kernel's attribute, so split-K's launch is a
 * plain one of SPLIT blocks a tile. */
#if GT_SPLIT > 1
#define GT_GEMM_CLUSTER GT_GEMM_CLUSTER_DIMS(GT_SPLIT)
#else
#define GT_GEMM_CLUSTER
#endif
extern "C" __global__ void GT_GEMM_CLUSTER
__launch_bounds__(gt_gemm_shape<GT_BM, GT_BN, GT_BK, GT_WM, GT_WN, GT_TM, GT_TN, GT_VEC, GT_PAD, GT_DBUF, GT_GROUP, GT_SPLIT>::THREADS)
GT_KERNEL_NAME(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
	gt_gemm<GT_BM, GT_BN, GT_BK, GT_WM, GT_WN, GT_TM, GT_TN, GT_VEC, GT_PAD, GT_DBUF, GT_GROUP, GT_SPLIT, GT_REALIGN, GT_ASYNC, GT_FLAT, GT_STREAM>(A, B, C, M, N, K);
}
#undef GT_GEMM_CLUSTER
#undef GT_KERNEL_NAME
#endif
