/*
 * copy.cu - out[i] = in[i] over the rows * cols elements of a matrix: the
 * memory-bandwidth ceiling other families are measured against.
 *
 * Macros: GT_ELEM_BYTES (2, 4 or 8), GT_VEC (elements per access),
 * GT_THREADS (threads per block), GT_ITEMS (vectors per thread, all loaded
 * before the first store so that many bytes are in flight).  Block b moves
 * vectors [b * GT_THREADS * GT_ITEMS, (b + 1) * GT_THREADS * GT_ITEMS);
 * block 0 also moves the elements past the last whole vector.
 */
#ifndef GT_KERNEL_NAME
#define GT_KERNEL_NAME gputune_copy
#endif

/* gt_elem and gt_pack come from common.cuh. */

extern "C" __global__ void __launch_bounds__(GT_THREADS)
GT_KERNEL_NAME(const gt_elem *__restrict__ in, gt_elem *__restrict__ out,
	     unsigned rows, unsigned cols)
{
	const size_t n = (size_t)rows * cols;
	const size_t nvec = n / GT_VEC;
	const size_t base = (size_t)blockIdx.x * GT_THREADS * GT_ITEMS + threadIdx.x;
	const bool aligned = (size_t)in % GT_VEC_BYTES == 0 && (size_t)out % GT_VEC_BYTES == 0;

	if (aligned) {
		gt_pack p[GT_ITEMS];
#pragma unroll
		for (int j = 0; j < GT_ITEMS; j++) {
			const size_t i = base + (size_t)j * GT_THREADS;
			if (i < nvec)
				p[j] = ((const gt_pack *)in)[i];
		}
#pragma unroll
		for (int j = 0; j < GT_ITEMS; j++) {
			const size_t i = base + (size_t)j * GT_THREADS;
			if (i < nvec)
				((gt_pack *)out)[i] = p[j];
		}
		if (blockIdx.x == 0)
			for (size_t i = nvec * GT_VEC + threadIdx.x; i < n; i += GT_THREADS)
				out[i] = in[i];
	} else {
#pragma unroll
		for (int j = 0; j < GT_ITEMS; j++)
#pragma unroll
			for (int k = 0; k < GT_VEC; k++) {
				const size_t i = (base + (size_t)j * GT_THREADS) * GT_VEC + k;
				if (i < nvec * GT_VEC)
					out[i] = in[i];
			}
		if (blockIdx.x == 0)
			for (size_t i = nvec * GT_VEC + threadIdx.x; i < n; i += GT_THREADS)
				out[i] = in[i];
	}
}

/* Internal macros end here, so that several variants can share one
 * translation unit (exported headers). */
#undef GT_VEC_BYTES
#undef GT_KERNEL_NAME
