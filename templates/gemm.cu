/*
 * gemm.cu - C = A B in single precision on the CUDA cores (no tensor
 * cores, no TF32): A is M x K, B is K x N, C is M x N, all row-major and
 * densely packed.
 *
 * One template, gt_gemm<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP>:
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
 *   GROUP     block order: 1 row by row of C's tiles; G > 1 walks G rows
 *             of tiles at a time, column by column, so the blocks running
 *             together share their A and B tiles in L2.
 * A is stored transposed in shared memory (As[k][m]) so that a thread's
 * TM values of A for one k are contiguous, like its TN values of B.
 * M, N and K need not be multiples of anything: loads outside A or B read
 * zeros and stores outside C are skipped.
 */
#ifndef GT_GEMM_TEMPLATE
#define GT_GEMM_TEMPLATE

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD, int DBUF, int GROUP>
struct gt_gemm_shape {
	static const int THREADS = (BM / WM) * (BN / WN) * 32;
	static const int SUBM = 4 * TM, SUBN = 8 * TN;        /* a warp sub-tile */
	static const int ITERM = WM / SUBM, ITERN = WN / SUBN; /* sub-tiles per warp */
	static const int LDA = BM + PAD, LDB = BN + PAD;       /* shared row lengths */
	/* Loads per thread and round: A's BM x BK and B's BK x BN, VEC at a time. */
	static const int LOADS_A = BM * BK / VEC / THREADS, LOADS_B = BK * BN / VEC / THREADS;
	static const int STAGE = BK * (LDA + LDB);             /* floats per stage */
};

/* VEC consecutive floats of row r (of rows x cols, leading dimension ld)
 * from column c, zeros outside; vector loads only when every row starts
 * 16-byte aligned (vec_ok). */
template <int VEC>
__device__ __forceinline__ void gt_gemm_fetch(const float *__restrict__ p, int rows, int cols, int ld, int r,
					      int c, bool vec_ok, float *v)
{
	if (VEC == 4 && vec_ok && r < rows && c + 3 < cols) {
		const float4 x = *reinterpret_cast<const float4 *>(p + (size_t)r * ld + c);
		v[0] = x.x;
		v[1] = x.y;
		v[2] = x.z;
		v[3] = x.w;
	} else {
#pragma unroll
		for (int i = 0; i < VEC; i++)
			v[i] = r < rows && c + i < cols ? p[(size_t)r * ld + c + i] : 0.0f;
	}
}

/* N consecutive floats of shared memory into registers: as 16-byte reads
 * when VEC4 (N a multiple of 4 and src 16-byte aligned). */
template <int N, bool VEC4>
__device__ __forceinline__ void gt_gemm_frag(const float *src, float *dst)
{
	if (VEC4) {
#pragma unroll
		for (int x = 0; x < N; x += 4) {
			const float4 q = *reinterpret_cast<const float4 *>(src + x);
			dst[x] = q.x;
			dst[x + 1] = q.y;
			dst[x + 2] = q.z;
			dst[x + 3] = q.w;
		}
	} else {
#pragma unroll
		for (int x = 0; x < N; x++)
			dst[x] = src[x];
	}
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD, int DBUF, int GROUP>
__device__ __forceinline__ void gt_gemm(const float *__restrict__ A, const float *__restrict__ B,
					float *__restrict__ C, int M, int N, int K)
{
	typedef gt_gemm_shape<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP> S;
	static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must divide the block tile");
	static_assert(WM % S::SUBM == 0 && WN % S::SUBN == 0, "thread tiles must divide the warp tile");
	static_assert((BM * BK / VEC) % S::THREADS == 0 && (BK * BN / VEC) % S::THREADS == 0,
		      "the threads must share the tile loads evenly");
	static_assert(BK % VEC == 0 && BN % VEC == 0, "vector loads must not straddle a tile row");
	/* 16-byte aligned, so that the fragment reads below can be vector ones. */
	extern __shared__ __align__(16) float gt_smem[];

	/* Which tile of C: grouped order walks GROUP tile rows column by column. */
	const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
	int tm, tn;
	if (GROUP > 1) {
		const int id = blockIdx.x, per_group = GROUP * tiles_n;
		const int g = id / per_group, first = g * GROUP;
		const int rows_here = min(GROUP, tiles_m - first);
		tm = first + (id % per_group) % rows_here;
		tn = (id % per_group) / rows_here;
	} else {
		tm = blockIdx.x / tiles_n;
		tn = blockIdx.x % tiles_n;
	}
	const int m0 = tm * BM, n0 = tn * BN;
	const int t = threadIdx.x, warp = t / 32, lane = t % 32;
	const int wm0 = (warp / (BN / WN)) * WM, wn0 = (warp % (BN / WN)) * WN;
	const int lm = (lane / 8) * TM, ln = (lane % 8) * TN;
	const bool a_vec = (K % 4) == 0 && ((size_t)A % 16) == 0;
	const bool b_vec = (N % 4) == 0 && ((size_t)B % 16) == 0;

	float acc[S::ITERM * TM][S::ITERN * TN];
#pragma unroll
	for (int i = 0; i < S::ITERM * TM; i++)
#pragma unroll
		for (int j = 0; j < S::ITERN * TN; j++)
			acc[i][j] = 0.0f;

	float ra[S::LOADS_A][VEC], rb[S::LOADS_B][VEC];
	/* This round's slice of A (BM x BK at k0) and B (BK x BN) into registers. */
	auto fetch = [&](int k0) {
#pragma unroll
		for (int l = 0; l < S::LOADS_A; l++) {
			const int e = (l * S::THREADS + t) * VEC, r = e / BK, c = e % BK;
			gt_gemm_fetch<VEC>(A, M, K, K, m0 + r, k0 + c, a_vec, ra[l]);
		}
#pragma unroll
		for (int l = 0; l < S::LOADS_B; l++) {
			const int e = (l * S::THREADS + t) * VEC, r = e / BN, c = e % BN;
			gt_gemm_fetch<VEC>(B, K, N, N, k0 + r, n0 + c, b_vec, rb[l]);
		}
	};
	/* ... and from registers into a shared stage, A transposed. */
	auto stash = [&](float *as) {
		float *bs = as + BK * S::LDA;
#pragma unroll
		for (int l = 0; l < S::LOADS_A; l++) {
			const int e = (l * S::THREADS + t) * VEC, r = e / BK, c = e % BK;
#pragma unroll
			for (int i = 0; i < VEC; i++)
				as[(c + i) * S::LDA + r] = ra[l][i];
		}
#pragma unroll
		for (int l = 0; l < S::LOADS_B; l++) {
			const int e = (l * S::THREADS + t) * VEC, r = e / BN, c = e % BN;
			if (VEC == 4 && S::LDB % 4 == 0) {
				*reinterpret_cast<float4 *>(bs + r * S::LDB + c) = make_float4(rb[l][0], rb[l][1], rb[l][2], rb[l][3]);
			} else {
#pragma unroll
				for (int i = 0; i < VEC; i++)
					bs[r * S::LDB + c + i] = rb[l][i];
			}
		}
	};
	/* One round: BK rank-1 updates of the thread's outputs. */
	auto compute = [&](const float *as) {
		const float *bs = as + BK * S::LDA;
#pragma unroll
		for (int k = 0; k < BK; k++) {
			float a[S::ITERM * TM], b[S::ITERN * TN];
			/* The fragments: 16-byte reads where the tiles keep them aligned. */
#pragma unroll
			for (int i = 0; i < S::ITERM; i++)
				gt_gemm_frag<TM, TM % 4 == 0 && S::LDA % 4 == 0>(
					as + k * S::LDA + wm0 + i * S::SUBM + lm, a + i * TM);
#pragma unroll
			for (int j = 0; j < S::ITERN; j++)
				gt_gemm_frag<TN, TN % 4 == 0 && S::LDB % 4 == 0>(
					bs + k * S::LDB + wn0 + j * S::SUBN + ln, b + j * TN);
#pragma unroll
			for (int i = 0; i < S::ITERM * TM; i++)
#pragma unroll
				for (int j = 0; j < S::ITERN * TN; j++)
					acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
		}
	};

	const int rounds = (K + BK - 1) / BK;
	if (DBUF) {
		fetch(0);
		stash(gt_smem);
		__syncthreads();
		for (int r = 0; r < rounds; r++) {
			float *cur = gt_smem + (r & 1) * S::STAGE, *next = gt_smem + ((r + 1) & 1) * S::STAGE;
			if (r + 1 < rounds)
				fetch((r + 1) * BK);
			compute(cur);
			if (r + 1 < rounds)
				stash(next);
			__syncthreads();
		}
	} else {
		for (int r = 0; r < rounds; r++) {
			fetch(r * BK);
			stash(gt_smem);
			__syncthreads();
			compute(gt_smem);
			__syncthreads();
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
}

#endif /* GT_GEMM_TEMPLATE */

/* An exported header's kernel, its first argument the blocks per SM it is
 * built for (src/export-header.c, variant_occupancy). */
#ifdef GT_HEADER_KERNEL
template <int MIN_BLOCKS, int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD, int DBUF,
	  int GROUP>
__global__ void
__launch_bounds__(gt_gemm_shape<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP>::THREADS, MIN_BLOCKS)
GT_HEADER_KERNEL(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N,
		 int K)
{
	gt_gemm<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP>(A, B, C, M, N, K);
}
#endif

#ifdef GT_BM
#ifndef GT_KERNEL_NAME
#define GT_KERNEL_NAME gputune_gemm
#endif
extern "C" __global__ void
__launch_bounds__(gt_gemm_shape<GT_BM, GT_BN, GT_BK, GT_WM, GT_WN, GT_TM, GT_TN, GT_VEC, GT_PAD, GT_DBUF, GT_GROUP>::THREADS)
GT_KERNEL_NAME(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
	gt_gemm<GT_BM, GT_BN, GT_BK, GT_WM, GT_WN, GT_TM, GT_TN, GT_VEC, GT_PAD, GT_DBUF, GT_GROUP>(A, B, C, M, N, K);
}
#undef GT_KERNEL_NAME
#endif
