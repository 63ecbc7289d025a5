/*
 * transpose.cu - out-of-place transpose of a row-major rows x cols matrix,
 * out[c][r] = in[r][c], for any rows and cols.
 *
 * gputune renders this file with a #define for each parameter:
 *   GT_ELEM_BYTES  element size: 2, 4 or 8 (see common.cuh)
 *   GT_TILE        edge of the square tile a block moves
 *   GT_WIDE        tiles per block side by side along the input rows (longer
 *                  row segments: fewer split sectors where rows are misaligned)
 *   GT_BLOCK_ROWS  threads in y; each thread walks the tile in steps of it
 *   GT_PAD         padding of each shared-memory tile row, in elements
 *   GT_UNROLL      tiles per block, stacked down the input; all their loads
 *                  are issued before the first store
 *   GT_MAPPING     0 cartesian, 1 diagonal, 2 colmajor: block order
 *   GT_VEC         elements per global access on aligned interior tiles
 *   GT_SHARED      1 stages tiles in shared memory, 0 is the naive kernel
 *   GT_SECTOR      1 writes each output row in windows aligned to 32-byte
 *                  sectors (pays when rows is not a multiple of a sector:
 *                  a misaligned store costs the L2 a partial sector)
 *   GT_KERNEL_NAME the entry point (default gputune_transpose)
 *   GT_INJECT      test-only faults: 1 wrong result, 2 illegal address,
 *                  3 write past the end of the output
 * A block is (GT_TILE / GT_VEC) x GT_BLOCK_ROWS threads; the grid is one
 * dimension, one block per (GT_TILE * GT_UNROLL) x (GT_TILE * GT_WIDE)
 * piece of the input.
 */
#ifndef GT_KERNEL_NAME
#define GT_KERNEL_NAME gputune_transpose
#endif

/* gt_elem, gt_pack and GT_VEC_BYTES come from common.cuh. */
#define GT_THREADS_X (GT_TILE / GT_VEC)
#define GT_STRIPE (GT_TILE * GT_UNROLL) /* input rows per block */
#define GT_WIDTH (GT_TILE * GT_WIDE)    /* input columns per block */
#if GT_SECTOR
#define GT_HALO (32 / GT_ELEM_BYTES) /* elements in a 32-byte sector */
#else
#define GT_HALO 0
#endif

/* Block b's tile coordinates, bx along the columns and by down the rows,
 * of an nx x ny grid of tiles.  Every mapping is a bijection. */
__device__ __forceinline__ void gt_map(unsigned b, unsigned nx, unsigned ny,
				       unsigned &bx, unsigned &by)
{
#if GT_MAPPING == 0
	bx = b % nx;
	by = b / nx;
#elif GT_MAPPING == 1
	/* Diagonal: neighbouring blocks start in different rows and columns
	 * of tiles, spreading their traffic over the memory partitions. */
	unsigned q = b / ny, r = b % ny;
	by = r;
	bx = (q + r) % nx;
#else
	bx = b / ny;
	by = b % ny;
#endif
}

extern "C" __global__ void __launch_bounds__(GT_THREADS_X * GT_BLOCK_ROWS)
GT_KERNEL_NAME(const gt_elem *__restrict__ in, gt_elem *__restrict__ out,
		  unsigned rows, unsigned cols)
{
	const unsigned nx = (cols + GT_WIDTH - 1) / GT_WIDTH;
	const unsigned ny = (rows + GT_STRIPE - 1) / GT_STRIPE;
	unsigned bx, by;
	gt_map(blockIdx.x, nx, ny, bx, by);
	const size_t col0 = (size_t)bx * GT_WIDTH, row0 = (size_t)by * GT_STRIPE;
	const unsigned tx = threadIdx.x, ty = threadIdx.y;
	const bool whole = row0 + GT_STRIPE <= rows && col0 + GT_WIDTH <= cols;

#if GT_SHARED
	/* Tile row t holds input row row0 - GT_HALO + t.  The first GT_HALO
	 * rows are a halo, loaded only with GT_SECTOR: then each output row is
	 * written in a window aligned to 32-byte sectors, which can start up to
	 * GT_HALO - 1 input rows before the stripe. */
	__shared__ gt_elem tile[GT_HALO + GT_STRIPE][GT_WIDTH + GT_PAD];
	const bool vec_in = cols % GT_VEC == 0 && (size_t)in % GT_VEC_BYTES == 0;

	if (whole && vec_in) {
#pragma unroll
		for (int i = 0; i < GT_STRIPE; i += GT_BLOCK_ROWS)
#pragma unroll
			for (int w = 0; w < GT_WIDE; w++) {
				const size_t r = row0 + ty + i;
				const unsigned j = w * GT_TILE + tx * GT_VEC;
				gt_pack p = *(const gt_pack *)(in + r * cols + col0 + j);
#pragma unroll
				for (int k = 0; k < GT_VEC; k++)
					tile[GT_HALO + ty + i][j + k] = p.e[k];
			}
	} else {
		/* Element by element, neighbouring threads on neighbouring
		 * columns, so each load instruction of a warp stays coalesced. */
#pragma unroll
		for (int i = 0; i < GT_STRIPE; i += GT_BLOCK_ROWS)
#pragma unroll
			for (int k = 0; k < GT_VEC * GT_WIDE; k++) {
				const size_t r = row0 + ty + i;
				const unsigned j = tx + k * GT_THREADS_X;
				const size_t c = col0 + j;
				if (r < rows && c < cols)
					tile[GT_HALO + ty + i][j] = in[r * cols + c];
			}
	}
#if GT_SECTOR
	/* When rows is a whole number of sectors every window starts at the
	 * stripe (the stripe is too: a constraint), so no halo is needed. */
	if (row0 > 0 && rows % GT_HALO != 0) {
#pragma unroll
		for (int i = 0; i < GT_HALO; i += GT_BLOCK_ROWS)
#pragma unroll
			for (int k = 0; k < GT_VEC * GT_WIDE; k++) {
				const size_t r = row0 - GT_HALO + ty + i;
				const unsigned j = tx + k * GT_THREADS_X;
				const size_t c = col0 + j;
				if (ty + i < GT_HALO && c < cols)
					tile[ty + i][j] = in[r * cols + c];
			}
	}
#endif
	__syncthreads();
	/* Output row c holds input column c: thread tx writes GT_VEC
	 * consecutive input rows of it, read down a column of the tile. */
#if GT_SECTOR
	const bool vec_out = (size_t)out % GT_VEC_BYTES == 0;
#pragma unroll
	for (int i = 0; i < GT_WIDTH; i += GT_BLOCK_ROWS) {
		const size_t c = col0 + ty + i;
		if (c >= cols)
			continue;
		/* This block's window of output row c: from the sector boundary
		 * at or before the stripe to the one at or before the next
		 * stripe, clipped to the row.  The windows of the blocks of a
		 * column of tiles partition the row, so every element is written
		 * once, and whole sectors by one block. */
		const size_t base = c * rows;
		const size_t mask = ~(size_t)(GT_HALO - 1);
		const size_t lo = row0 == 0 ? 0 : ((base + row0) & mask) - base;
		const size_t hi = row0 + GT_STRIPE >= rows ? rows : ((base + row0 + GT_STRIPE) & mask) - base;
#pragma unroll
		for (int p = 0; p <= GT_UNROLL; p++) {
			const size_t e = lo + p * GT_TILE + tx * GT_VEC;
			if (e >= hi)
				continue;
			const int t = (int)((long long)e - (long long)row0) + GT_HALO;
			if (vec_out && e + GT_VEC <= hi && (base + e) % GT_VEC == 0) {
				gt_pack q;
#pragma unroll
				for (int k = 0; k < GT_VEC; k++)
					q.e[k] = tile[t + k][ty + i];
				*(gt_pack *)(out + base + e) = q;
			} else {
#pragma unroll
				for (int k = 0; k < GT_VEC; k++)
					if (e + k < hi)
						out[base + e + k] = tile[t + k][ty + i];
			}
		}
	}
#else
	if (whole && rows % GT_VEC == 0 && (size_t)out % GT_VEC_BYTES == 0) {
#pragma unroll
		for (int u = 0; u < GT_UNROLL; u++)
#pragma unroll
			for (int i = 0; i < GT_WIDTH; i += GT_BLOCK_ROWS) {
				gt_pack p;
#pragma unroll
				for (int k = 0; k < GT_VEC; k++)
					p.e[k] = tile[u * GT_TILE + tx * GT_VEC + k][ty + i];
				const size_t c = col0 + ty + i;
				*(gt_pack *)(out + c * rows + row0 + u * GT_TILE + tx * GT_VEC) = p;
			}
	} else {
#pragma unroll
		for (int u = 0; u < GT_UNROLL; u++)
#pragma unroll
			for (int i = 0; i < GT_WIDTH; i += GT_BLOCK_ROWS)
#pragma unroll
				for (int k = 0; k < GT_VEC; k++) {
					const size_t c = col0 + ty + i;
					const unsigned j = u * GT_TILE + tx + k * GT_THREADS_X;
					const size_t r = row0 + j;
					if (r < rows && c < cols)
						out[c * rows + r] = tile[j][ty + i];
				}
	}
#endif
#else
	/* The naive kernel: coalesced reads, strided writes. */
	(void)whole;
#pragma unroll
	for (int u = 0; u < GT_UNROLL; u++)
#pragma unroll
		for (int i = 0; i < GT_TILE; i += GT_BLOCK_ROWS)
#pragma unroll
			for (int w = 0; w < GT_WIDE; w++) {
				const size_t r = row0 + u * GT_TILE + ty + i;
				const size_t c = col0 + w * GT_TILE + tx;
				if (r < rows && c < cols)
					out[c * rows + r] = in[r * cols + c];
			}
#endif

#if GT_INJECT == 1
	/* The thread that wrote out[0] (block 0 maps to tile 0 in every
	 * mapping) flips a bit of it. */
	if (blockIdx.x == 0 && tx == 0 && ty == 0)
		out[0] ^= (gt_elem)1;
#elif GT_INJECT == 2
	if (blockIdx.x == 0 && tx == 0 && ty == 0)
		out[(size_t)1 << 40] = (gt_elem)0;
#elif GT_INJECT == 3
	if (blockIdx.x == 0 && tx == 0 && ty == 0)
		out[(size_t)rows * cols + 7] = (gt_elem)0;
#endif
}

/* Internal macros end here, so that several variants can share one
 * translation unit (exported headers). */
#undef GT_VEC_BYTES
#undef GT_THREADS_X
#undef GT_STRIPE
#undef GT_WIDTH
#undef GT_HALO
#undef GT_KERNEL_NAME
