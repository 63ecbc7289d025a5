/*
 * transpose.cu - out-of-place transpose of a row-major rows x cols matrix,
 * out[c][r] = in[r][c], for any rows and cols: one C++ template,
 * gt_transpose<T, TILE, ...>, instantiated by a rendered variant's entry
 * point (its #defines, GT_<PARAM>, before this file) and by an exported
 * header per variant for nvcc.  The parameters are `gputune help
 * transpose`'s; a block is (TILE / VEC) x BLOCK_ROWS threads and moves a
 * (TILE * UNROLL) x (TILE * WIDE) piece of the input.  Lines between
 * comments {PARAM (or {PARAM:VALUES) and PARAM} are a path only those
 * values take, which headers carry where a variant takes it.
 */
#ifndef GT_TRANSPOSE_TEMPLATE
#define GT_TRANSPOSE_TEMPLATE

/* The tile by 32-bit shared addresses in every build: nvcc keeps shared pointers
 * in 32 bits and NVRTC in 64, and ptxas scheduled the two codes apart (an nvcc
 * build ran 5.7% below NVRTC's).  With the buffer declared in PTX (gt_transpose)
 * both emit the same code; on the host (tests/cuda-host.h) an address is a pointer. */
/* {pair:vector */
typedef gt_vec<unsigned, 4> gt_u4;
/* pair} */
#ifdef __CUDA_ARCH__
typedef unsigned gt_sptr;
__device__ __forceinline__ void gt_sts(gt_sptr a, unsigned short v) { asm volatile("st.shared.b16 [%0], %1;" ::"r"(a), "h"(v) : "memory"); }
__device__ __forceinline__ void gt_sts(gt_sptr a, unsigned v) { asm volatile("st.shared.b32 [%0], %1;" ::"r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ void gt_sts(gt_sptr a, unsigned long long v) { asm volatile("st.shared.b64 [%0], %1;" ::"r"(a), "l"(v) : "memory"); }
__device__ __forceinline__ void gt_lds(gt_sptr a, unsigned short &v) { asm volatile("ld.shared.b16 %0, [%1];" : "=h"(v) : "r"(a) : "memory"); }
__device__ __forceinline__ void gt_lds(gt_sptr a, unsigned &v) { asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); }
__device__ __forceinline__ void gt_lds(gt_sptr a, unsigned long long &v) { asm volatile("ld.shared.b64 %0, [%1];" : "=l"(v) : "r"(a) : "memory"); }
/* {pair:vector */
__device__ __forceinline__ void gt_sts(gt_sptr a, gt_u4 v) { asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v.e[0]), "r"(v.e[1]), "r"(v.e[2]), "r"(v.e[3]) : "memory"); }
__device__ __forceinline__ void gt_lds(gt_sptr a, gt_u4 &v) { asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];" : "=r"(v.e[0]), "=r"(v.e[1]), "=r"(v.e[2]), "=r"(v.e[3]) : "r"(a) : "memory"); }
/* pair} */
/* A vector in one store: stored as C++, its elements (asm outputs) go out one by one. */
template <typename T, int V> __device__ __forceinline__ void gt_stg(void *p, const gt_vec<T, V> &v)
{
	union { gt_vec<T, V> t; unsigned w[4]; } u = { v };
	const size_t g = __cvta_generic_to_global(p), n = V > 1 ? sizeof(v) : 0;
	if constexpr (n == 16) asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(g), "r"(u.w[0]), "r"(u.w[1]), "r"(u.w[2]), "r"(u.w[3]) : "memory");
	else if constexpr (n == 8) asm volatile("st.global.v2.b32 [%0], {%1, %2};" ::"l"(g), "r"(u.w[0]), "r"(u.w[1]) : "memory");
	else if constexpr (n == 4) asm volatile("st.global.b32 [%0], %1;" ::"l"(g), "r"(u.w[0]) : "memory");
	else *(gt_vec<T, V> *)p = v;
}
/* The input by the read-only path (ld.global.nc), which the asm hides from the compilers. */
template <typename T> __device__ __forceinline__ T gt_ldg(const T *p)
{
	union { T t; uint4 q; uint2 d; unsigned w; unsigned short h; } u;
	if constexpr (sizeof(T) == 16) u.q = __ldg((const uint4 *)p);
	else if constexpr (sizeof(T) == 8) u.d = __ldg((const uint2 *)p);
	else if constexpr (sizeof(T) == 4) u.w = __ldg((const unsigned *)p);
	else u.h = __ldg((const unsigned short *)p);
	return u.t;
}
#else
typedef unsigned char *gt_sptr;
template <typename T> void gt_sts(gt_sptr a, T v) { *(T *)a = v; }
template <typename T> void gt_lds(gt_sptr a, T &v) { v = *(T *)a; }
template <typename T> T gt_ldg(const T *p) { return *p; }
template <typename P> void gt_stg(void *p, const P &v) { *(P *)p = v; }
#endif

/* Block b's tile coordinates, bx along the columns and by down the rows,
 * of an nx x ny grid of tiles.  Every mapping is a bijection. */
template <int MAPPING>
__device__ __forceinline__ void gt_map(unsigned b, unsigned nx, unsigned ny, unsigned &bx, unsigned &by)
{
	if constexpr (MAPPING == 0) {
		bx = b % nx;
		by = b / nx;
	} else if constexpr (MAPPING == 1) {
		/* Diagonal: neighbouring blocks start in different rows and columns
		 * of tiles, spreading their traffic over the memory partitions. */
		unsigned q = b / ny, r = b % ny;
		by = r;
		bx = (q + r) % nx;
	} else {
		bx = b / ny;
		by = b % ny;
	}
}

/* One element from global memory into the tile; with ASYNC (4- and 8-byte elements,
 * cc 8.0 on) by cp.async, no register in flight (the f32 odd sizes' best 3 to 4.5
 * points higher on an H200).  gt_tile_wait() waits for this thread's copies. */
template <int ASYNC, typename T> __device__ __forceinline__ void gt_tile_load(gt_sptr dst, const T *src)
{
/* {async */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	if constexpr (ASYNC && sizeof(T) >= 4)
		asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst),
			     "l"(__cvta_generic_to_global(src)), "n"(sizeof(T))
			     : "memory");
	else
#elif defined(GT_HOST_ASYNC)
	if constexpr (ASYNC && sizeof(T) >= 4)
		gt_host_async_copy((T *)dst, src); /* tests/cuda-host.h */
	else
#endif
/* async} */
		gt_sts(dst, gt_ldg(src));
}
template <int ASYNC> __device__ __forceinline__ void gt_tile_wait()
{
/* {async */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	if constexpr (ASYNC)
		asm volatile("cp.async.wait_all;\n" ::: "memory");
#elif defined(GT_HOST_ASYNC)
	if constexpr (ASYNC)
		gt_host_async_wait();
#endif
/* async} */
}

/* {async:words,rows */
/* Words: the n 2-byte elements of the input from in[g0] on into a tile
 * row, moved as aligned 4-byte words of two, word w of the row holding
 * elements 2 w and 2 w + 1 of the aligned stretch that starts at in[g0 -
 * s], s = g0 % 2: element j of the piece lands at row[j + s].  Half as
 * many copies as elements, each twice as wide, and none split by a row
 * that starts off a word (odd cols): on an H200 the f16 best at 1314 x
 * 6653 went from 69.8-70.8% of the copy ceiling to 72.8-74.8% (vec=2,
 * two GPUs).  Loading every row so with vec=1, and f32's 8-byte words,
 * lost to elements.  The row needs WIDTH + 2 elements; in must be aligned
 * to a word.  gt_tile_load_word copies the word at in[g] (g even) to dst;
 * the last word of the matrix may hold its last element alone, which is
 * then copied by itself. */
template <int ASYNC, typename T>
__device__ __forceinline__ void gt_tile_load_word(gt_sptr dst, const T *in, size_t g, size_t total)
{
	typedef typename gt_uint<2 * sizeof(T)>::type W;
	if (g + 1 < total)
		gt_tile_load<ASYNC>(dst, (const W *)(in + g));
	else
		gt_sts(dst, gt_ldg(in + g));
}

/* One row's words (above), over a row of THREADS threads (thread tx). */
template <int ASYNC, int WIDTH, int THREADS, typename T>
__device__ __forceinline__ void gt_tile_load_words(gt_sptr row, const T *in, size_t g0, unsigned n, size_t total,
						   unsigned tx)
{
	constexpr int NW = WIDTH / 2 + 1;
	const unsigned s = (unsigned)(g0 & 1);
#pragma unroll
	for (int k = 0; k < (NW + THREADS - 1) / THREADS; k++) {
		const unsigned w = tx + k * THREADS;
		if (w < NW && 2 * w < n + s)
			gt_tile_load_word<ASYNC>(row + 2 * w * (unsigned)sizeof(T), in, g0 - s + 2 * w, total);
	}
}

/* Rows: the pieces of n 2-byte elements from column col0 on of NROWS
 * input rows, from row r0 on (those before rlimit), into tile rows
 * base[0], base[PITCH], ..., moved as words as gt_tile_load_words moves
 * one row, the NROWS x (WIDTH / 2 + 1) words spread over the block's
 * NTHREADS threads (thread tid) rather than a row's, so no thread waits
 * on a row's one odd word.  For f16 at odd sizes, where an element load
 * holds a register until it lands (the best element variant at 8191 x
 * 8191 ran at 71% occupancy, limited by registers, and 52% of the DRAM's
 * throughput). */
template <int ASYNC, int WIDTH, int NROWS, int NTHREADS, int PITCH, typename T>
__device__ __forceinline__ void gt_tile_load_rows(gt_sptr base, const T *in, size_t r0, size_t rlimit, size_t cols,
						  size_t col0, unsigned n, size_t total, unsigned tid)
{
	constexpr int NW = WIDTH / 2 + 1, ALL = NROWS * NW;
#pragma unroll
	for (int k = 0; k < (ALL + NTHREADS - 1) / NTHREADS; k++) {
		const unsigned q = tid + k * NTHREADS, t = q / NW, w = q % NW;
		const size_t r = r0 + t, g0 = r * cols + col0;
		const unsigned s = (unsigned)(g0 & 1);
		if ((ALL % NTHREADS == 0 || q < ALL) && r < rlimit && 2 * w < n + s)
			gt_tile_load_word<ASYNC>(base + (t * PITCH + 2 * w) * (unsigned)sizeof(T), in, g0 - s + 2 * w, total);
	}
}
/* async} */

/* {realign */
/* Pack v (whole 32-bit words) of lane `lane` in each group of `width`. */
template <typename P> __device__ __forceinline__ P gt_shfl(P v, int lane, int width)
{
	union {
		P p;
		unsigned u[sizeof(P) / 4];
	} x = { v };
#pragma unroll
	for (int i = 0; i < (int)(sizeof(P) / 4); i++)
		x.u[i] = __shfl_sync(0xffffffffu, x.u[i], lane, width);
	return x.p;
}
/* realign} */

/* {pair */
/* Of units a and b of two elements T each, the unit of their low elements
 * (a's first) and that of their high ones.  For 2-byte elements one byte
 * permute each (made with shifts and masks, the f16 winners read 2 to 3
 * points of the ceiling lower in a tuning run on an H200); for 4-byte ones
 * the halves of 64-bit registers. */
template <typename T, typename U> __device__ __forceinline__ U gt_pair_low(U a, U b)
{
	if constexpr (sizeof(T) == 2)
		return __byte_perm(a, b, 0x5410);
	else
		return (a & 0xffffffffu) | (b << 32);
}
template <typename T, typename U> __device__ __forceinline__ U gt_pair_high(U a, U b)
{
	if constexpr (sizeof(T) == 2)
		return __byte_perm(a, b, 0x7632);
	else
		return (a >> 32) | (b & 0xffffffff00000000ull);
}
/* pair} */

/* {pair:on,quad */

/* The K units a[0..K-1], each K elements of one of K neighbouring input
 * rows, as the K units of the output rows: o[p] holds element p of each
 * a[r], a[0]'s first.  For four 2-byte elements, each 32-bit half pairs
 * rows 0 and 1, and rows 2 and 3, with byte permutes (as pairs do). */
template <typename T, int K, typename U> __device__ __forceinline__ void gt_unit_transpose(const U *a, U *o)
{
	if constexpr (K == 2) {
		o[0] = gt_pair_low<T>(a[0], a[1]);
		o[1] = gt_pair_high<T>(a[0], a[1]);
	} else {
		static_assert(K == 4 && sizeof(T) == 2, "units of four are of 2-byte elements");
#pragma unroll
		for (int h = 0; h < 2; h++) {
			const unsigned r0 = (unsigned)(a[0] >> 32 * h), r1 = (unsigned)(a[1] >> 32 * h);
			const unsigned r2 = (unsigned)(a[2] >> 32 * h), r3 = (unsigned)(a[3] >> 32 * h);
			o[2 * h] = __byte_perm(r0, r1, 0x5410) | (U)__byte_perm(r2, r3, 0x5410) << 32;
			o[2 * h + 1] = __byte_perm(r0, r1, 0x7632) | (U)__byte_perm(r2, r3, 0x7632) << 32;
		}
	}
}

/* The tile as a transpose of units of K elements (K = 2, or 4 for 2-byte
 * elements).  Row group R (input rows K R to K R + K - 1) at unit C holds
 * K loaded units; output row K C + p starts at unit R with the unit of
 * their elements p (gt_unit_transpose), which the tile's plane p holds at
 * [R][C].  The block's piece starts at input row row0 and column col0,
 * multiples of K (the tile is).  The tile and its accesses are then those
 * of a transpose of units K times the element's size, TILE / K square:
 * 1 / K of the shared-memory accesses, each K times as wide.  Needs rows
 * and cols multiples of K, the buffers aligned to a unit, and smem at
 * least K * TILE / K * UNROLL * (TILE / K + PAD) units. */
template <typename T, int K, int TILE, int BLOCK_ROWS, int PAD, int UNROLL, int VEC>
__device__ __forceinline__ void gt_transpose_units(const T *__restrict__ in_elems, T *__restrict__ out_elems,
						   unsigned rows, unsigned cols, size_t row0, size_t col0, gt_sptr ts)
{
	typedef typename gt_uint<K * sizeof(T)>::type U;
	constexpr int WT = TILE / K;	 /* units along a tile row */
	constexpr int WV = VEC / K;	 /* units a load */
	constexpr int TX = WT / WV;	 /* threads in x: TILE / VEC */
	constexpr int SR = WT * UNROLL;	 /* row groups per block */
	constexpr int NQ = SR / TX;	 /* stores per thread and output row */
	typedef gt_vec<U, WV> upack;
	const U *in = (const U *)in_elems;
	U *out = (U *)out_elems;
	constexpr unsigned ROW = (WT + PAD) * sizeof(U); /* a row's bytes; plane p, row r, unit c: */
	auto tile = [=](unsigned p, unsigned r, unsigned c) { return ts + (p * SR + r) * ROW + c * (unsigned)sizeof(U); };
	const unsigned wc = cols / K, wr = rows / K; /* units of an input row, an output row */
	const unsigned C0 = (unsigned)(col0 / K), R0 = (unsigned)(row0 / K);
	const unsigned tx = threadIdx.x, ty = threadIdx.y;
	const bool whole = R0 + SR <= wr && C0 + WT <= wc;

	if (whole && wc % WV == 0 && (size_t)in % sizeof(upack) == 0) {
		/* Loads in batches of 64 bytes a thread, each before its stores:
		 * left to choose, nvcc issued 4 of a variant's 8 loads before its
		 * first store, NVRTC 7, and its build ran 5% slower. */
		constexpr int STEPS = SR / BLOCK_ROWS, STEP = K * sizeof(upack), AHEAD = STEPS < 64 / STEP ? STEPS : 64 / STEP;
#pragma unroll
		for (int b = 0; b < STEPS; b += AHEAD) {
			upack a[AHEAD][K];
#pragma unroll
			for (int s = 0; s < AHEAD; s++)
#pragma unroll
				for (int r = 0; r < K; r++) {
					const size_t R = R0 + ty + (b + s) * BLOCK_ROWS;
					a[s][r] = gt_ldg((const upack *)(in + (K * R + r) * wc + C0 + tx * WV));
				}
#pragma unroll
			for (int s = 0; s < AHEAD; s++)
#pragma unroll
				for (int k = 0; k < WV; k++) {
					U x[K], o[K];
#pragma unroll
					for (int r = 0; r < K; r++)
						x[r] = a[s][r].e[k];
					gt_unit_transpose<T, K>(x, o);
#pragma unroll
					for (int p = 0; p < K; p++)
						gt_sts(tile(p, ty + (b + s) * BLOCK_ROWS, tx * WV + k), o[p]);
				}
		}
	} else {
		/* Unit by unit, neighbouring threads on neighbouring units. */
#pragma unroll
		for (int i = 0; i < SR; i += BLOCK_ROWS)
#pragma unroll
			for (int k = 0; k < WV; k++) {
				const size_t R = R0 + ty + i;
				const unsigned j = tx + k * TX;
				if (R < wr && C0 + j < wc) {
					U x[K], o[K];
#pragma unroll
					for (int r = 0; r < K; r++)
						x[r] = gt_ldg(in + (K * R + r) * wc + C0 + j);
					gt_unit_transpose<T, K>(x, o);
#pragma unroll
					for (int p = 0; p < K; p++)
						gt_sts(tile(p, ty + i, j), o[p]);
				}
			}
	}
	__syncthreads();
	/* Output rows K C to K C + K - 1, one unit a thread: a column of each
	 * plane, read without bank conflicts (PAD odd). */
#pragma unroll
	for (int i = 0; i < WT; i += BLOCK_ROWS)
#pragma unroll
		for (int p = 0; p < K; p++)
#pragma unroll
			for (int q = 0; q < NQ; q++) {
				const size_t C = C0 + ty + i;
				const unsigned rw = q * TX + tx;
				if (whole || (C < wc && R0 + rw < wr))
					gt_lds(tile(p, rw, ty + i), out[(K * C + p) * wr + R0 + rw]);
			}
}
/* pair} */

/* {pair:vector */
/* The pairs' words of V columns of two neighbouring rows, a (row r) and b
 * (row r + 1), V / 2 words each: word e of w (w[e / 4].e[e % 4]) holds
 * column e of a, low, and of b, high. */
template <typename T, int V, typename A>
__device__ __forceinline__ void gt_pair_words(const A &a, const A &b, gt_u4 *w)
{
#pragma unroll
	for (int e = 0; e < V; e++)
		w[e / 4].e[e % 4] = e % 2 ? gt_pair_high<T>(a.e[e / 2], b.e[e / 2]) : gt_pair_low<T>(a.e[e / 2], b.e[e / 2]);
}

/* {realign */
/* Halves h to h + 7 (h < 4) of the 12 in words w[0..5] (2-byte elements):
 * whole words by a round of selects (h / 2), then half a word by a byte
 * permute (h % 2); gt_shift_halves takes them as three 8-byte pieces. */
__device__ __forceinline__ gt_u4 gt_shift_words(const unsigned *w, unsigned h)
{
	unsigned t[5];
#pragma unroll
	for (int i = 0; i < 5; i++)
		t[i] = h & 2 ? w[i + 1] : w[i];
	const unsigned sel = h & 1 ? 0x5432 : 0x3210;
	gt_u4 r;
#pragma unroll
	for (int k = 0; k < 4; k++)
		r.e[k] = __byte_perm(t[k], t[k + 1], sel);
	return r;
}
__device__ __forceinline__ gt_u4 gt_shift_halves(const unsigned long long *p, unsigned h)
{
	const unsigned w[6] = { (unsigned)p[0], (unsigned)(p[0] >> 32), (unsigned)p[1],
				(unsigned)(p[1] >> 32), (unsigned)p[2], (unsigned)(p[2] >> 32) };
	return gt_shift_words(w, h);
}

/* The 8 bytes at in[g] (g a multiple of 4 elements): none where they start
 * past the row end `end` (no lane keeps them), and where the matrix's end
 * (total elements) cuts them, its elements one by one. */
template <typename T>
__device__ __forceinline__ unsigned long long gt_piece_load(const T *__restrict__ in, size_t g, size_t end,
							    size_t total)
{
	unsigned long long v = 0;
	if (g < end && g + 4 <= total)
		v = gt_ldg((const unsigned long long *)(in + g));
	else if (g < end)
#pragma unroll
		for (int k = 0; k < 4; k++)
			if (g + k < total)
				v |= (unsigned long long)gt_ldg(in + g + k) << 16 * k;
	return v;
}

/* pair=vector's loads with realign=on, for any cols (the input on 8
 * bytes): a lane moves 8 columns of two neighbouring input rows (row pair
 * p, columns col0 + 8 j on), TW / 8 lanes a pair.  Row r's piece starts h
 * elements past an 8-byte boundary: the lane loads the three 8-byte
 * pieces from the boundary before its place and keeps the halves from h
 * on, then makes the words of two and hands them to store(p, j, w0, w1).
 * Three pieces a row hold 12 registers a row pair where 16-byte loads
 * shifted by up to 7 elements held 16 (their own and the next lane's, by
 * shuffles, the piece's last lane loading its own): on an H200 the
 * best of these variants read 1 to 2 points more of the copy ceiling
 * (docs/benchmarks.md, "Realigned loads in 8-byte pieces").  Where rows
 * and cols are multiples of 8 the plain vectors are the same rows without
 * the shifts; where cols is odd there are no others. */
template <int TH, int TW, int NT, typename T, typename S>
__device__ __forceinline__ void gt_vectors_load_realigned(const T *__restrict__ in, unsigned rows, unsigned cols,
							 size_t row0, size_t col0, unsigned t, S store)
{
	constexpr int CPR = TW / 8, NQ = TH / 2 * CPR, LQ = (NQ + NT - 1) / NT;
	const size_t total = (size_t)rows * cols;
	unsigned long long a[LQ][3], b[LQ][3];
#pragma unroll
	for (int k = 0; k < LQ; k++) {
		const unsigned q = t + k * NT, j = q % CPR, p = q / CPR;
		const size_t r = row0 + 2 * p, ga = r * cols + col0, gb = ga + cols;
		const size_t ca = ga - ga % 4 + 8 * j, cb = gb - gb % 4 + 8 * j;
		if ((NQ % NT == 0 || q < NQ) && r < rows)
#pragma unroll
			for (int i = 0; i < 3; i++) {
				a[k][i] = gt_piece_load(in, ca + 4 * i, gb - col0, total);
				b[k][i] = gt_piece_load(in, cb + 4 * i, gb - col0 + cols, total);
			}
	}
#pragma unroll
	for (int k = 0; k < LQ; k++) {
		const unsigned q = t + k * NT, j = q % CPR, p = q / CPR;
		const size_t r = row0 + 2 * p, ga = r * cols + col0, gb = ga + cols;
		if ((NQ % NT && q >= NQ) || r >= rows || col0 + 8 * j >= cols)
			continue;
		const gt_u4 ra = gt_shift_halves(a[k], (unsigned)(ga % 4));
		const gt_u4 rb = gt_shift_halves(b[k], (unsigned)(gb % 4));
		gt_u4 w[2];
		gt_pair_words<T, 8>(ra, rb, w);
		store(p, j, w[0], w[1]);
	}
}
/* realign} */

/* pair=vector's plain loads: a lane loads V columns of two neighbouring
 * input rows (row pair p, columns col0 + V j on), TW / V lanes a pair, and
 * hands their pairs' words to store(p, j, w).  With ODD_ROWS the last
 * pair may lack its second row (rows odd), whose words then hold zeros. */
template <int TH, int TW, int NT, int V, bool ODD_ROWS, typename T, typename S>
__device__ __forceinline__ void gt_vectors_load(const T *__restrict__ in, unsigned rows, unsigned cols, size_t row0,
						size_t col0, unsigned t, S store)
{
	typedef gt_vec<unsigned, V / 2> lane_vec; /* V elements, or V / 2 words */
	constexpr int CPR = TW / V, NQ = TH / 2 * CPR, LQ = (NQ + NT - 1) / NT;
	lane_vec a[LQ], b[LQ];
#pragma unroll
	for (int k = 0; k < LQ; k++) {
		const unsigned q = t + k * NT, j = q % CPR, p = q / CPR;
		const size_t r = row0 + 2 * p, c = col0 + V * j;
		if constexpr (ODD_ROWS)
			a[k] = b[k] = lane_vec{};
		if ((NQ % NT == 0 || q < NQ) && r < rows && c < cols) {
			a[k] = gt_ldg((const lane_vec *)(in + r * cols + c));
			if (!ODD_ROWS || r + 1 < rows)
				b[k] = gt_ldg((const lane_vec *)(in + (r + 1) * cols + c));
		}
	}
#pragma unroll
	for (int k = 0; k < LQ; k++) {
		const unsigned q = t + k * NT, j = q % CPR, p = q / CPR;
		if (NQ % NT && q >= NQ)
			break;
		gt_u4 w[V > 2 ? V / 4 : 1];
		gt_pair_words<T, V>(a[k], b[k], w);
		store(p, j, w);
	}
}

/* The tile of 2-byte elements moved as vectors of V = 8 (16 bytes), 4 or
 * 2 on both sides, for rows and cols multiples of V and buffers on 2V
 * bytes: a lane loads V elements of each of two neighbouring input rows,
 * so that a warp's instruction covers up to 64V bytes of one row, and
 * makes the words of two (row r low) of its V columns; a lane then reads
 * V / 2 row pairs' words of four columns and stores 2V bytes to each of
 * four output rows, an instruction covering up to 64V bytes of one output
 * row.  Rows that start off 128-byte lines cost an instruction that covers
 * 128 bytes of each of four rows twice the lines, one that covers 512
 * bytes of one row a quarter more (docs/benchmarks.md, "Rows off 128-byte
 * lines"; on an H100 f16 1328 x 6648 went from 85.9% of the copy ceiling
 * to 92.9% with 128 x 128 blocks).  Shared memory holds TH / 2 row pairs of
 * TW words, in 16-byte chunks swizzled by the row pair (chunk ^ (pair /
 * (V / 2)) % 8), so that neither phase meets a bank twice in a quarter
 * warp (TW a multiple of 32, TH of 8V).  Blocks at the edges move the
 * whole chunks inside the matrix. */
template <int TH, int TW, int NT, int V, int RE, typename T>
__device__ __forceinline__ void gt_transpose_vectors(const T *__restrict__ in, T *__restrict__ out, unsigned rows,
						     unsigned cols, size_t row0, size_t col0, unsigned t, gt_sptr ts)
{
	typedef gt_vec<unsigned, V / 2> lane_vec; /* V elements, or V / 2 words */
	constexpr int GPR = TH / V, NO = TW / 4 * GPR, LO = (NO + NT - 1) / NT; /* stores: four rows' chunks */
	constexpr unsigned SHIFT = V == 8 ? 2 : V == 4 ? 1 : 0;
	static_assert(sizeof(T) == 2 && (V == 2 || V == 4 || V == 8) && TW % 32 == 0 && TH % (8 * V) == 0,
		      "2-byte elements, V 2, 4 or 8, TW % 32, TH % 8V");
	auto chunk = [=](unsigned p, unsigned c) { return ts + p * (TW * 4u) + (c ^ (p >> SHIFT & 7)) * 16u; };
	/* Two 16-byte chunks of words (row pair p, chunk 2j on): lanes 4 to 7
	 * of each eight store their second chunk first, so the eight meet
	 * eight bank groups. */
	auto store_pair = [=](unsigned p, unsigned j, const gt_u4 &w0, const gt_u4 &w1) {
		const bool swap = j >> 2 & 1; /* selects: w indexed by it would live in local memory */
		gt_sts(chunk(p, 2 * j + swap), swap ? w1 : w0);
		gt_sts(chunk(p, 2 * j + !swap), swap ? w0 : w1);
	};
/* {realign */
	if constexpr (RE) {
		gt_vectors_load_realigned<TH, TW, NT>(in, rows, cols, row0, col0, t, store_pair);
	} else
/* realign} */
	{
		gt_vectors_load<TH, TW, NT, V, false>(in, rows, cols, row0, col0, t, [=](unsigned p, unsigned j, const gt_u4 *w) {
			if constexpr (V == 8)
				store_pair(p, j, w[0], w[1]);
			else if constexpr (V == 4)
				gt_sts(chunk(p, j), w[0]);
			else /* two words, half a chunk */
				gt_sts(chunk(p, j / 2) + j % 2 * 8u, w[0].e[0] | (unsigned long long)w[0].e[1] << 32);
		});
	}
	__syncthreads();
#pragma unroll
	for (int k = 0; k < LO; k++) {
		const unsigned q = t + k * NT, m = q % GPR, g = q / GPR;
		const size_t r = row0 + V * m;
		if ((NO % NT && q >= NO) || r >= rows)
			continue;
		gt_u4 v[V / 2];
#pragma unroll
		for (int i = 0; i < V / 2; i++)
			gt_lds(chunk(V / 2 * m + i, g), v[i]);
#pragma unroll
		for (int e = 0; e < 4; e++) {
			const size_t c = col0 + 4 * g + e;
			lane_vec o;
#pragma unroll
			for (int i = 0; i < V / 2; i++)
				o.e[i] = v[i].e[e];
			if (c < cols)
				gt_stg(out + c * rows + r, o);
		}
	}
}

/* {realign:out,both */
/* pair=vector with output rows of any length (realign=out: the plain
 * 16-byte loads, cols a multiple of 8; both: the loads in 8-byte pieces,
 * any cols), the output on 16 bytes.  Shared memory holds the tile by
 * columns, each column's TH / 2 words of two rows on 16 bytes (with four
 * words more a column, and the columns moved on by up to 28 words below:
 * gt_transpose's PAIR_TILE and the family's constraints).  Output
 * row col0 + c's piece (rows - row0 elements, at most TH) starts hl
 * elements before a 16-byte boundary: a lane stores each whole 16 bytes
 * after it from five words of the column (two chunks read, selects, and
 * a byte permute where the window starts on a row of odd index); the hl
 * elements before and the few after the last whole 16 bytes go one by
 * one, eight lanes a column, and share their 16 bytes with the
 * neighbouring blocks' pieces.  On an H200 (docs/benchmarks.md, "Output
 * rows of any length") it read 83.4% of the copy ceiling at f16 1315 x
 * 6648, where the rest of the space reads 79.5; at 1328 x 6648, rows on
 * 16 bytes and no ends, 93.6% where the plain vectors read 97.9: the
 * columns' layout costs about 4 points there, the ends about 10 more. */
template <int TH, int TW, int NT, int RI, typename T>
__device__ __forceinline__ void gt_transpose_vectors_out(const T *__restrict__ in, T *__restrict__ out,
							 unsigned rows, unsigned cols, size_t row0, size_t col0,
							 unsigned t, gt_sptr ts)
{
	constexpr unsigned PW = TH / 2 + 4; /* a column's words */
	constexpr int CPR = TW / 8; /* lanes a row pair of the loads */
	constexpr int SLOTS = TH / 8, NS = TW * SLOTS, LS = (NS + NT - 1) / NT;
	constexpr int NE = TW * 8, LE = (NE + NT - 1) / NT;
	constexpr unsigned P = 32 / (CPR < 32 ? CPR : 32); /* row pairs a warp's loads cover */
	static_assert(sizeof(T) == 2 && TW % 32 == 0 && TW <= 256 && TH % 64 == 0,
		      "2-byte elements, TW % 32 and at most 256 (columns moved on by at most 28 words), TH % 64");
	/* Column c from word c PW + 4 x on, x = j P / 4 (j = c / 8): a warp's
	 * loads write column 8 j + e of P row pairs for each j, in bank (4 (e
	 * + x) + p) % 32, 32 banks where P is 4 or more (TW of 64 or less);
	 * a quarter warp's stores read eight neighbouring chunks of a column. */
	auto word = [=](unsigned c, unsigned p) { return ts + (c * PW + ((c >> 3) * P >> 2) * 4 + p) * 4u; };
	auto store_cols = [=](unsigned p, unsigned j, const gt_u4 &w0, const gt_u4 &w1) {
#pragma unroll
		for (int e = 0; e < 8; e++)
			gt_sts(word(8 * j + e, p), e < 4 ? w0.e[e] : w1.e[e - 4]);
	};
	if constexpr (RI) {
		gt_vectors_load_realigned<TH, TW, NT>(in, rows, cols, row0, col0, t, store_cols);
	} else {
		gt_vectors_load<TH, TW, NT, 8, true>(in, rows, cols, row0, col0, t,
						     [=](unsigned p, unsigned j, const gt_u4 *w) { store_cols(p, j, w[0], w[1]); });
	}
	__syncthreads();
	const unsigned len = rows - row0 < TH ? (unsigned)(rows - row0) : TH;
	const unsigned rm = rows & 7, r0m = (unsigned)row0 & 7, c0 = (unsigned)col0;
	/* Output row col0 + c: the elements before its piece's first 16-byte
	 * boundary (hl), in 32 bits. */
	auto head = [=](unsigned c) {
		const unsigned h = (0u - ((c0 + c) * rm + r0m)) & 7;
		return h < len ? h : len;
	};
#pragma unroll
	for (int k = 0; k < LS; k++) {
		const unsigned q = t + k * NT, c = q / SLOTS, s = q % SLOTS;
		if ((NS % NT && q >= NS) || c0 + c >= cols)
			continue;
		const unsigned hl = head(c), a = hl + 8 * s;
		if (a + 8 > len)
			continue;
		/* Words a / 2 to a / 2 + 4, of the chunk that holds the first and
		 * the next. */
		const unsigned u = a / 2 & ~3u, f = a / 2 & 3;
		gt_u4 x[2];
		gt_lds(word(c, u), x[0]);
		gt_lds(word(c, u + 4), x[1]);
		unsigned y[6];
#pragma unroll
		for (int i = 0; i < 6; i++)
			y[i] = f & 2 ? x[(i + 2) / 4].e[(i + 2) % 4] : x[i / 4].e[i % 4];
		const gt_u4 o = gt_shift_words(y, (f & 1) * 2 + (a & 1));
		gt_stg(out + (col0 + c) * rows + row0 + a, o);
	}
#pragma unroll
	for (int k = 0; k < LE; k++) {
		const unsigned q = t + k * NT, c = q / 8, e = q % 8;
		if ((NE % NT && q >= NE) || c0 + c >= cols)
			continue;
		const unsigned hl = head(c), rt = hl + (len - hl) / 8 * 8 + e;
		T *o = out + (col0 + c) * rows + row0;
		if (e < hl)
			gt_lds(word(c, 0) + e * 2u, o[e]);
		if (rt < len)
			gt_lds(word(c, 0) + rt * 2u, o[rt]);
	}
}
/* realign} */
/* pair} */

struct gt_maps; /* defined on the rowclass path below */
/* {rowclass */
/* Row classes (cc 9.0): the tensor copy engine's maps (src/transpose-maps.h,
 * one per row class of 16 bytes of the input and of 32 of the output), a
 * kernel argument; valid 0 where the host could build none. */
struct __align__(128) gt_tmap {
	unsigned long long opaque[16];
};
struct gt_maps {
	gt_tmap in[8], out[16];
	int valid;
};

/* The engine path's shared memory: NI input boxes of (STRIPE + NO) / NI
 * class rows of WIDTH + NI elements (each on 128 bytes), and over them, once
 * every thread holds its elements, NO output boxes of WIDTH / NO rows of
 * STRIPE elements, so 128 x 128 blocks fit 48 KiB (90% of the copy ceiling
 * at f16 8191 x 8191 on an H200, 64 x 128 blocks 88%).  The family's
 * constraints (src/family-transpose.c) repeat this size. */
template <typename T, int STRIPE, int WIDTH> struct gt_rowclass_geometry {
	static constexpr int ES = sizeof(T), NI = 16 / ES, NO = 32 / ES;
	static constexpr int IN_ROWS = (STRIPE + NO) / NI, IN_ROW = (WIDTH + NI) * ES;
	static constexpr int IN_BOX = (IN_ROWS * IN_ROW + 127) / 128 * 128;
	static constexpr int OUT_ROW = STRIPE * ES, OUT_BOX = WIDTH / NO * OUT_ROW;
	static constexpr int BYTES = NI * IN_BOX > NO * OUT_BOX ? NI * IN_BOX : NO * OUT_BOX;
	static constexpr int LOADED = NI * IN_ROWS * IN_ROW; /* bytes the loads bring */
};

/* Moves the block's stripe (input rows row0.., columns col0..) through the
 * engine and returns true; false, with nothing done, before cc 9.0, without
 * maps, and for the block of the last rows and columns (the engine could
 * load past the input).  Output class k' holds output row c (c = k' mod NO)
 * from element row0 - off'_k' on: each output row's sector window.  The
 * first stripe's blocks fill the classes' heads (the previous row's tail). */
template <typename T, int STRIPE, int WIDTH, int THREADS>
__device__ __forceinline__ bool gt_rowclass_move(const gt_maps *maps, const T *__restrict__ in, gt_sptr boxes,
						 unsigned rows, unsigned cols, size_t row0, size_t col0)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	typedef gt_rowclass_geometry<T, STRIPE, WIDTH> G;
	constexpr int NI = G::NI, NO = G::NO, ES = G::ES, W = THREADS / 32;
	static_assert(THREADS % 32 == 0 && STRIPE % (ES == 2 ? 64 : 32) == 0 && WIDTH % NO == 0,
		      "rowclass: whole warps, a stripe of whole warps' words and whole output classes");
	if (!maps || !maps->valid || (row0 + STRIPE >= rows && col0 + WIDTH + NI > cols))
		return false;
	const unsigned tid = threadIdx.y * blockDim.x + threadIdx.x, lane = tid & 31, warp = tid >> 5;
	const unsigned b = boxes + G::BYTES; /* the engine's barrier, after the boxes (the input's, then the output's) */
	if (tid == 0) {
		asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(b));
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	__syncthreads();
	if (tid == 0) {
		asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(b), "r"(G::LOADED) : "memory");
#pragma unroll
		for (int k = 0; k < NI; k++)
			asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
				     " [%0], [%1, {%2, %3}], [%4];" ::"r"(boxes + k * G::IN_BOX),
				     "l"(&maps->in[k]), "r"((int)col0), "r"(((int)row0 - NO) / NI), "r"(b)
				     : "memory");
	}
	for (unsigned done = 0; !done;)
		asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared.b64 p, [%1], 0;\n\t"
			     "selp.u32 %0, 1, 0, p;\n}" : "=r"(done) : "r"(b) : "memory");
	/* Warp task t: output class kq (lanes m % 4 = 1, 2, 3 with cols even: NO / 8 classes on from the
	 * last, so that the four input classes a warp reads meet 32 banks), its rows' group jg of JN rows;
	 * lane m of a row's words (f16) or elements (f32), HN of them.  Each reads, then after a barrier writes. */
	constexpr int JG = W > NO ? W / NO : 1, JN = WIDTH / NO / JG, HN = ES == 2 ? STRIPE / 64 : STRIPE / 32;
	static_assert(WIDTH / NO % JG == 0 && (NO * JG) % W == 0, "rowclass: the output rows split evenly over the warps");
	constexpr int TASKS = NO * JG / W; /* a warp's: at least 1, as NO * JG is a multiple of W */
	unsigned keep[TASKS][HN][JN];
#pragma unroll
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1)
			__syncthreads();
#pragma unroll
		for (int t = 0; t < TASKS; t++) {
			const int task = (int)warp + t * W, jg = task / NO;
			const int kq = (task + (cols & 1 ? 0 : (lane & 3) * NO / 8)) % NO;
			const int offq = (int)((unsigned long long)kq * rows % NO), c = kq + NO * jg * JN; /* c: output row - col0 */
#pragma unroll
			for (int h = 0; h < HN; h++) {
				const int m = (int)lane + 32 * h;
				if (pass == 1) {
					const unsigned bo = boxes + kq * G::OUT_BOX + jg * JN * G::OUT_ROW + m * 4;
#pragma unroll
					for (int j = 0; j < JN; j++)
						gt_sts(bo + j * G::OUT_ROW, keep[t][h][j]);
					continue;
				}
				const int ra = (ES == 2 ? 2 * m : m) - offq + NO; /* input row - row0 + NO */
				const int ka = ra % NI, kb = (ra + 1) % NI;
				const unsigned offa = (unsigned)((unsigned long long)ka * cols % NI);
				const unsigned offb = (unsigned)((unsigned long long)kb * cols % NI);
				const unsigned ba = boxes + ka * G::IN_BOX + ra / NI * G::IN_ROW + (c + offa) * ES;
				const unsigned bb = boxes + kb * G::IN_BOX + (ra + 1) / NI * G::IN_ROW + (c + offb) * ES;
#pragma unroll
				for (int j = 0; j < JN; j++) {
					if constexpr (ES == 2) {
						unsigned short x, y;
						gt_lds(ba + NO * 2 * j, x);
						gt_lds(bb + NO * 2 * j, y);
						keep[t][h][j] = (unsigned)x | ((unsigned)y << 16);
					} else {
						gt_lds(ba + NO * 4 * j, keep[t][h][j]);
					}
				}
			}
		}
	}
	if (row0 == 0) {
		/* The heads: input rows rows - off' on of column c - 1. */
		__syncthreads();
		for (unsigned t = tid; t < WIDTH * NO; t += THREADS) {
			const unsigned cl = t / NO, y = t % NO, kq = cl % NO;
			const unsigned offq = (unsigned)((unsigned long long)kq * rows % NO);
			const size_t c = col0 + cl;
			if (y < offq && c >= 1 && c < cols)
				gt_sts(boxes + kq * G::OUT_BOX + cl / NO * G::OUT_ROW + y * ES,
				       in[(rows - offq + y) * (size_t)cols + c - 1]);
		}
	}
	asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
	__syncthreads();
	if (tid == 0) {
#pragma unroll
		for (int k = 0; k < NO; k++)
			asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(
					     &maps->out[k]),
				     "r"((int)row0), "r"((int)(col0 / NO)), "r"(boxes + k * G::OUT_BOX)
				     : "memory");
		asm volatile("cp.async.bulk.commit_group;" ::: "memory");
		/* The block may end once the boxes are read. */
		asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
	}
	return true;
#else
	return false;
#endif
}
/* rowclass} */

template <typename T, int TILE, int BLOCK_ROWS, int PAD, int UNROLL, int MAPPING, int VEC, int SHARED,
	  int SECTOR, int WIDE, int REALIGN, int PAIR, int ASYNC, int ROWCLASS>
__device__ __forceinline__ void gt_transpose(const T *__restrict__ in, T *__restrict__ out, unsigned rows,
					     unsigned cols, const gt_maps *maps)
{
	typedef gt_vec<T, VEC> pack;
	constexpr int THREADS_X = TILE / VEC;
	constexpr int STRIPE = TILE * UNROLL; /* input rows per block */
	constexpr int WIDTH = TILE * WIDE;    /* input columns per block */
	constexpr int HALO = SECTOR ? 32 / (int)sizeof(T) : 0; /* elements in a 32-byte sector */
	constexpr size_t VEC_BYTES = sizeof(pack);
	constexpr unsigned ROW_BYTES = (WIDTH + PAD) * sizeof(T); /* a tile row's */
	/* The family keeps REALIGN to whole words, a row's threads in a warp; pair=vector's is its own. */
	constexpr bool REALIGNS = REALIGN && PAIR != 3 && VEC > 1 && VEC_BYTES % 4 == 0 && THREADS_X <= 32;

	const unsigned nx = (cols + WIDTH - 1) / WIDTH;
	const unsigned ny = (rows + STRIPE - 1) / STRIPE;
	unsigned bx, by;
	gt_map<MAPPING>(blockIdx.x, nx, ny, bx, by);
	const size_t col0 = (size_t)bx * WIDTH, row0 = (size_t)by * STRIPE;
	const unsigned tx = threadIdx.x, ty = threadIdx.y;
	const bool whole = row0 + STRIPE <= rows && col0 + WIDTH <= cols;
	/* One buffer serves the tile of elements and, with PAIR, that of units
	 * (1: of two elements, 2: of four, 3: pair=vector's words): a block
	 * takes one path, and the occupancy is that of the larger. */
	constexpr int UNIT_ELEMS = PAIR == 2 ? 4 : 2;
	constexpr size_t ELEM_TILE = SHARED ? (size_t)(HALO + STRIPE) * (WIDTH + PAD) * sizeof(T) : 16;
	constexpr size_t PAIR_TILE = PAIR == 3 ? (REALIGN & 2 ? (size_t)WIDTH * (STRIPE / 2 + 4) * 4 + 28 * 4 : (size_t)STRIPE * WIDTH * sizeof(T))
		: PAIR ? (size_t)UNIT_ELEMS * (TILE / UNIT_ELEMS * UNROLL) * (TILE / UNIT_ELEMS + PAD) * UNIT_ELEMS * sizeof(T) : 0;
	constexpr size_t ROWCLASS_BOXES =
/* {rowclass */
		ROWCLASS ? gt_rowclass_geometry<T, STRIPE, WIDTH>::BYTES + 8 :
/* rowclass} */
		0;
	constexpr size_t SMEM0 = ELEM_TILE > PAIR_TILE ? ELEM_TILE : PAIR_TILE;
	constexpr size_t SMEM = SMEM0 > ROWCLASS_BOXES ? SMEM0 : ROWCLASS_BOXES;
#ifdef __CUDA_ARCH__ /* the block's buffer, declared where its address is taken: the same PTX from both compilers */
	gt_sptr ts;
	asm("{\n\t.shared .align %1 .b8 gt_smem[%2];\n\tmov.u32 %0, gt_smem;\n\t}" : "=r"(ts) : "n"(ROWCLASS ? 128 : 16), "n"((SMEM + 15) / 16 * 16));
#else
	__shared__ gt_vec<unsigned, 4> smem[(SMEM + 15) / 16];
	const gt_sptr ts = (gt_sptr)smem;
#endif
	bool paired = false, engine = false;
/* {rowclass */
	if constexpr (ROWCLASS && SHARED && SECTOR && sizeof(T) <= 4)
		engine = gt_rowclass_move<T, STRIPE, WIDTH, THREADS_X * BLOCK_ROWS>(
			maps, in, ts, rows, cols, row0, col0);
/* rowclass} */
/* {pair:on,quad */
	if constexpr ((PAIR == 1 || PAIR == 2) && UNIT_ELEMS * sizeof(T) <= 8 && SHARED && VEC % UNIT_ELEMS == 0) {
		static_assert(WIDE == 1, "the unit tile is one tile across (pair needs wide=1)");
		constexpr size_t UNIT = UNIT_ELEMS * sizeof(T);
		paired = rows % UNIT_ELEMS == 0 && cols % UNIT_ELEMS == 0 && (size_t)in % UNIT == 0 &&
			 (size_t)out % UNIT == 0;
		if (paired)
			gt_transpose_units<T, UNIT_ELEMS, TILE, BLOCK_ROWS, PAD, UNROLL, VEC>(in, out, rows, cols, row0,
											     col0, ts);
	}
/* pair} */
/* {pair:vector */
	if constexpr (PAIR == 3 && sizeof(T) == 2 && SHARED && VEC > 1) {
		/* REALIGN's bits: 1 (on, both) loads any cols (gt_vectors_load_realigned),
		 * 2 (out, both) stores any rows (gt_transpose_vectors_out). */
		constexpr bool RI = REALIGN & 1, RO = REALIGN & 2;
		paired = (RO || rows % VEC == 0) &&
			 (RI ? (size_t)in % 8 == 0 : cols % VEC == 0 && (size_t)in % (2 * VEC) == 0) &&
			 (size_t)out % (2 * VEC) == 0;
/* {realign:out,both */
		if constexpr (RO) {
			static_assert(VEC == 8, "realign=out and both store 16 bytes a lane (vec=8)");
			if (paired)
				gt_transpose_vectors_out<STRIPE, WIDTH, THREADS_X * BLOCK_ROWS, RI>(
					in, out, rows, cols, row0, col0, ty * THREADS_X + tx, ts);
		} else
/* realign} */
		if (paired)
			gt_transpose_vectors<STRIPE, WIDTH, THREADS_X * BLOCK_ROWS, VEC, RI>(
				in, out, rows, cols, row0, col0, ty * THREADS_X + tx, ts);
	}
/* pair} */

	if (paired || engine) {
		/* Done above. */
	} else if constexpr (!SHARED) {
		/* The naive kernel: coalesced reads, strided writes. */
#pragma unroll
		for (int u = 0; u < UNROLL; u++)
#pragma unroll
			for (int i = 0; i < TILE; i += BLOCK_ROWS)
#pragma unroll
				for (int w = 0; w < WIDE; w++) {
					const size_t r = row0 + u * TILE + ty + i;
					const size_t c = col0 + w * TILE + tx;
					if (r < rows && c < cols)
						out[c * rows + r] = in[r * cols + c];
				}
	} else {
		/* Tile row t holds input row row0 - HALO + t.  The first HALO rows are a
		 * halo, loaded only with SECTOR: then each output row is written in a window
		 * aligned to 32-byte sectors, which can start HALO - 1 rows before the stripe. */
		auto tile = [=](unsigned t, unsigned j) { return ts + t * ROW_BYTES + j * (unsigned)sizeof(T); };
		const bool vec_in = cols % VEC == 0 && (size_t)in % VEC_BYTES == 0;
		/* With words, tile row t's elements start shift(t) places in
		 * (the parity of its first element's index: col0 is even). */
		constexpr bool WORDS = (ASYNC == 2 || ASYNC == 3) && sizeof(T) == 2;
		constexpr bool ROWS = WORDS && ASYNC == 3; /* every row as words, over the block */
		static_assert(!WORDS || (PAD >= 2 && PAD % 2 == 0), "async=words needs an even pad of at least 2");
		const bool vectors = whole && vec_in && !ROWS;
		const bool shifted = WORDS && !vectors && (size_t)in % (2 * sizeof(T)) == 0;
		const unsigned first = (unsigned)(row0 - HALO) & 1, odd = shifted ? cols & 1 : 0;
		auto shift = [=](int t) -> unsigned { return (first + (unsigned)t) & odd; };

		if (vectors) {
			/* Step n: tile row (n / WIDE) * BLOCK_ROWS of tile n % WIDE.  In
			 * batches of 64 bytes a thread, loaded then stored: no compiler
			 * is left to store early (see gt_transpose_units). */
			constexpr int STEPS = STRIPE / BLOCK_ROWS * WIDE, AHEAD = STEPS < 64 / VEC_BYTES ? STEPS : 64 / VEC_BYTES;
#pragma unroll
			for (int b = 0; b < STEPS; b += AHEAD) {
				pack p[AHEAD];
#pragma unroll
				for (int s = 0; s < 2 * AHEAD; s++) {
					const unsigned i = (b + s % AHEAD) / WIDE * BLOCK_ROWS, j = (b + s % AHEAD) % WIDE * TILE + tx * VEC;
					const T *src = in + (row0 + ty + i) * cols + col0 + j;
					if (VEC == 1 && s < AHEAD)
						gt_tile_load<ASYNC>(tile(HALO + ty + i, j), src);
					else if (VEC > 1 && s < AHEAD)
						p[s] = gt_ldg((const pack *)src);
					else if (VEC > 1)
#pragma unroll
						for (int k = 0; k < VEC; k++)
							gt_sts(tile(HALO + ty + i, j + k), p[s - AHEAD].e[k]);
				}
			}
		} else if (shifted) {
			/* shifted implies WORDS: instantiated only then. */
/* {async:words,rows */
			if constexpr (ROWS) {
				gt_tile_load_rows<ASYNC, WIDTH, STRIPE, THREADS_X * BLOCK_ROWS, WIDTH + PAD>(
					tile(HALO, 0), in, row0, rows, cols, col0,
					(unsigned)(cols - col0 < WIDTH ? cols - col0 : WIDTH), (size_t)rows * cols,
					ty * THREADS_X + tx);
			} else if constexpr (WORDS) {
				const size_t total = (size_t)rows * cols;
				const unsigned n = (unsigned)(cols - col0 < WIDTH ? cols - col0 : WIDTH);
#pragma unroll
				for (int i = 0; i < STRIPE; i += BLOCK_ROWS) {
					const size_t r = row0 + ty + i;
					if (r < rows)
						gt_tile_load_words<ASYNC, WIDTH, THREADS_X>(
							tile(HALO + ty + i, 0), in, r * cols + col0, n, total, tx);
				}
			}
/* async} */
		} else if (REALIGNS && whole && (size_t)in % VEC_BYTES == 0) {
			/* Row r's piece starts m elements past a vector boundary:
			 * each thread loads the aligned vector at its place, takes
			 * its neighbour's (a shuffle; the row's last thread loads
			 * the one past the piece itself) and keeps VEC elements
			 * from m on.  Instantiated only where REALIGNS holds. */
			if constexpr (REALIGNS) {
/* {realign */
				const size_t total = (size_t)rows * cols;
#pragma unroll
				for (int i = 0; i < STRIPE; i += BLOCK_ROWS) {
					const size_t g0 = (row0 + ty + i) * cols + col0;
					const int m = (int)(g0 % VEC);
					const size_t past = g0 - m + WIDTH;
					pack v[WIDE + 1];
#pragma unroll
					for (int w = 0; w < WIDE; w++)
						v[w] = gt_ldg((const pack *)(in + g0 - m + (w * THREADS_X + tx) * VEC));
					v[WIDE] = v[0];
					if (tx == THREADS_X - 1 && m > 0)
#pragma unroll
						for (int k = 0; k < VEC; k++)
							v[WIDE].e[k] = past + k < total ? gt_ldg(in + past + k) : T(0);
#pragma unroll
					for (int w = 0; w < WIDE; w++) {
						pack next = gt_shfl(v[w], (int)tx + 1, THREADS_X);
						const pack first = gt_shfl(v[w + 1 < WIDE ? w + 1 : w], 0, THREADS_X);
						if (tx == THREADS_X - 1)
							next = w + 1 < WIDE ? first : v[WIDE];
						pack p = v[w];
#pragma unroll
						for (int s = 1; s < VEC; s++)
#pragma unroll
							for (int k = 0; k < VEC; k++)
								if (s == m)
									p.e[k] = k + s < VEC ? v[w].e[(k + s) % VEC] : next.e[(k + s) % VEC];
#pragma unroll
						for (int k = 0; k < VEC; k++)
							gt_sts(tile(HALO + ty + i, w * TILE + tx * VEC + k), p.e[k]);
					}
				}
/* realign} */
			}
		} else {
			/* Element by element, neighbouring threads on neighbouring
			 * columns, so each load instruction of a warp stays coalesced. */
#pragma unroll
			for (int i = 0; i < STRIPE; i += BLOCK_ROWS)
#pragma unroll
				for (int k = 0; k < VEC * WIDE; k++) {
					const size_t r = row0 + ty + i;
					const unsigned j = tx + k * THREADS_X;
					const size_t c = col0 + j;
					if (r < rows && c < cols)
						gt_tile_load<ASYNC>(tile(HALO + ty + i, j), in + r * cols + c);
				}
		}
		if constexpr (SECTOR) {
			/* When rows is a whole number of sectors every window
			 * starts at the stripe (the stripe is too: a constraint),
			 * so no halo is needed.  The halo's loads come after the
			 * stripe's: its rows are the previous stripe's, which the
			 * block that moves it has then mostly brought into L2
			 * (loading them first measured slower, and the registers
			 * holding them cost occupancy). */
			if (row0 > 0 && rows % HALO != 0 && shifted) {
/* {async:words,rows */
				if constexpr (ROWS) {
					gt_tile_load_rows<ASYNC, WIDTH, HALO, THREADS_X * BLOCK_ROWS, WIDTH + PAD>(
						tile(0, 0), in, row0 - HALO, rows, cols, col0,
						(unsigned)(cols - col0 < WIDTH ? cols - col0 : WIDTH), (size_t)rows * cols,
						ty * THREADS_X + tx);
				} else if constexpr (WORDS) {
					const unsigned n = (unsigned)(cols - col0 < WIDTH ? cols - col0 : WIDTH);
#pragma unroll
					for (int i = 0; i < HALO; i += BLOCK_ROWS)
						if (ty + i < HALO)
							gt_tile_load_words<ASYNC, WIDTH, THREADS_X>(
								tile(ty + i, 0), in, (row0 - HALO + ty + i) * cols + col0,
								n, (size_t)rows * cols, tx);
				}
/* async} */
			} else if (row0 > 0 && rows % HALO != 0) {
#pragma unroll
				for (int i = 0; i < HALO; i += BLOCK_ROWS)
#pragma unroll
					for (int k = 0; k < VEC * WIDE; k++) {
						const size_t r = row0 - HALO + ty + i;
						const unsigned j = tx + k * THREADS_X;
						const size_t c = col0 + j;
						if (ty + i < HALO && c < cols)
							gt_tile_load<ASYNC>(tile(ty + i, j), in + r * cols + c);
					}
			}
		}
		gt_tile_wait<ASYNC>();
		__syncthreads();
		/* Output row c holds input column c: thread tx writes VEC
		 * consecutive input rows of it, read down a column of the tile. */
		if constexpr (SECTOR) {
			const bool vec_out = (size_t)out % VEC_BYTES == 0;
#pragma unroll
			for (int i = 0; i < WIDTH; i += BLOCK_ROWS) {
				const size_t c = col0 + ty + i;
				if (c >= cols)
					continue;
				/* This block's window of output row c: from the sector boundary
				 * at or before the stripe to the one at or before the next
				 * stripe, clipped to the row.  The windows of the blocks of a
				 * column of tiles partition the row, so every element is
				 * written once, and whole sectors by one block. */
				/* Offsets from element (c, row0), in 32 bits (NVRTC keeps
				 * them 64-bit otherwise); at most STRIPE + HALO - 1 long. */
				const size_t base = c * rows + row0;
				const int lo = row0 == 0 ? 0 : -(int)((unsigned)base & (HALO - 1));
				const int hi = row0 + STRIPE >= rows ? (int)(rows - row0) : STRIPE - (int)(((unsigned)base + STRIPE) & (HALO - 1));
				constexpr int NP = (STRIPE + HALO - 1 + TILE - 1) / TILE;
#pragma unroll
				for (int p = 0; p < NP; p++) {
					const int e = lo + p * TILE + (int)tx * VEC;
					if (e >= hi)
						continue;
					const int t = e + HALO;
					if (vec_out && e + VEC <= hi && ((unsigned)base + e) % VEC == 0) {
						pack q;
#pragma unroll
						for (int k = 0; k < VEC; k++)
							gt_lds(tile(t + k, ty + i + shift(t + k)), q.e[k]);
						gt_stg(out + base + e, q);
					} else {
#pragma unroll
						for (int k = 0; k < VEC; k++)
							if (e + k < hi)
								gt_lds(tile(t + k, ty + i + shift(t + k)), (out + base)[e + k]);
					}
				}
			}
		} else if (whole && rows % VEC == 0 && (size_t)out % VEC_BYTES == 0) {
#pragma unroll
			for (int u = 0; u < UNROLL; u++)
#pragma unroll
				for (int i = 0; i < WIDTH; i += BLOCK_ROWS) {
					pack p;
#pragma unroll
					for (int k = 0; k < VEC; k++)
						gt_lds(tile(u * TILE + tx * VEC + k, ty + i + shift(u * TILE + tx * VEC + k)), p.e[k]);
					const size_t c = col0 + ty + i;
					gt_stg(out + c * rows + row0 + u * TILE + tx * VEC, p);
				}
		} else {
#pragma unroll
			for (int u = 0; u < UNROLL; u++)
#pragma unroll
				for (int i = 0; i < WIDTH; i += BLOCK_ROWS) {
					const size_t c = col0 + ty + i;
					T *const o = out + c * rows + row0;
#pragma unroll
					for (int k = 0; k < VEC; k++) {
						const unsigned j = u * TILE + tx + k * THREADS_X;
						if (row0 + j < rows && c < cols)
							gt_lds(tile(j, ty + i + shift(j)), o[j]);
					}
				}
		}
	}
}
#endif /* GT_TRANSPOSE_TEMPLATE */

/* An exported header's kernel: the template instantiated per variant, its
 * arguments the blocks per SM it is built for (src/export-header.c,
 * variant_occupancy), the element type and the parameters as above. */
#ifdef GT_HEADER_KERNEL
template <int MIN_BLOCKS, typename T, int TILE, int BLOCK_ROWS, int PAD, int UNROLL, int MAPPING, int VEC, int SHARED,
	  int SECTOR, int WIDE, int REALIGN, int PAIR, int ASYNC, int ROWCLASS>
__global__ void __launch_bounds__(TILE / VEC * BLOCK_ROWS, MIN_BLOCKS)
GT_HEADER_KERNEL(const T *__restrict__ in, T *__restrict__ out, unsigned rows, unsigned cols)
{
	gt_transpose<T, TILE, BLOCK_ROWS, PAD, UNROLL, MAPPING, VEC, SHARED, SECTOR, WIDE, REALIGN, PAIR, ASYNC,
		     ROWCLASS>(in, out, rows, cols, nullptr);
}
/* {rowclass */
/* The same with the row classes' maps (rowclass=on). */
template <int MIN_BLOCKS, typename T, int TILE, int BLOCK_ROWS, int PAD, int UNROLL, int MAPPING, int VEC, int SHARED,
	  int SECTOR, int WIDE, int REALIGN, int PAIR, int ASYNC, int ROWCLASS>
__global__ void __launch_bounds__(TILE / VEC * BLOCK_ROWS, MIN_BLOCKS)
GT_HEADER_KERNEL_MAPS(const T *__restrict__ in, T *__restrict__ out, unsigned rows, unsigned cols,
		      const __grid_constant__ gt_maps maps)
{
	gt_transpose<T, TILE, BLOCK_ROWS, PAD, UNROLL, MAPPING, VEC, SHARED, SECTOR, WIDE, REALIGN, PAIR, ASYNC,
		     ROWCLASS>(in, out, rows, cols, &maps);
}
/* rowclass} */
#endif

/* A rendered variant: its entry point. */
#ifdef GT_ELEM_BYTES
#ifndef GT_KERNEL_NAME
#define GT_KERNEL_NAME gputune_transpose
#endif
#ifndef GT_REALIGN
#define GT_REALIGN 0
#endif
#ifndef GT_PAIR
#define GT_PAIR 0
#endif
#ifndef GT_ASYNC
#define GT_ASYNC 0
#endif
#ifndef GT_ROWCLASS
#define GT_ROWCLASS 0
#endif
/* {rowclass */
#if GT_ROWCLASS
#define GT_MAPS , const __grid_constant__ gt_maps maps
#define GT_MAPS_OF &maps
#endif
/* rowclass} */
#ifndef GT_MAPS
#define GT_MAPS /* no tensor maps */
#define GT_MAPS_OF nullptr
#endif
extern "C" __global__ void __launch_bounds__(GT_TILE / GT_VEC * GT_BLOCK_ROWS)
GT_KERNEL_NAME(const gt_elem *__restrict__ in, gt_elem *__restrict__ out, unsigned rows, unsigned cols GT_MAPS)
{
	gt_transpose<gt_elem, GT_TILE, GT_BLOCK_ROWS, GT_PAD, GT_UNROLL, GT_MAPPING, GT_VEC, GT_SHARED, GT_SECTOR,
		     GT_WIDE, GT_REALIGN, GT_PAIR, GT_ASYNC, GT_ROWCLASS>(in, out, rows, cols, GT_MAPS_OF);
}
#undef GT_MAPS
#undef GT_MAPS_OF
#undef GT_VEC_BYTES
#undef GT_KERNEL_NAME
#endif
