/*
 * copy.cu - out[i] = in[i] over the rows * cols elements of a matrix: the
 * memory-bandwidth ceiling other families are measured against.
 *
 * One template, gt_copy<T, VEC, THREADS, ITEMS>: VEC elements per access,
 * THREADS threads per block, ITEMS vectors per thread, all loaded before
 * the first store so that many bytes are in flight.  Block b moves vectors
 * [b * THREADS * ITEMS, (b + 1) * THREADS * ITEMS); block 0 also moves the
 * elements past the last whole vector.  A rendered variant defines
 * GT_ELEM_BYTES, GT_VEC, GT_THREADS and GT_ITEMS (and may name its entry
 * point with GT_KERNEL_NAME); an exported header defines GT_HEADER_KERNEL
 * and instantiates the template per variant.
 */
#ifndef GT_COPY_TEMPLATE
#define GT_COPY_TEMPLATE
template <typename T, int VEC, int THREADS, int ITEMS>
__device__ __forceinline__ void gt_copy(const T *__restrict__ in, T *__restrict__ out, unsigned rows,
					unsigned cols)
{
	typedef gt_vec<T, VEC> pack;
	const size_t n = (size_t)rows * cols;
	const size_t nvec = n / VEC;
	const size_t base = (size_t)blockIdx.x * THREADS * ITEMS + threadIdx.x;
	const bool aligned = (size_t)in % sizeof(pack) == 0 && (size_t)out % sizeof(pack) == 0;

	if (aligned) {
		pack p[ITEMS];
#pragma unroll
		for (int j = 0; j < ITEMS; j++) {
			const size_t i = base + (size_t)j * THREADS;
			if (i < nvec)
				p[j] = ((const pack *)in)[i];
		}
#pragma unroll
		for (int j = 0; j < ITEMS; j++) {
			const size_t i = base + (size_t)j * THREADS;
			if (i < nvec)
				((pack *)out)[i] = p[j];
		}
	} else {
#pragma unroll
		for (int j = 0; j < ITEMS; j++)
#pragma unroll
			for (int k = 0; k < VEC; k++) {
				const size_t i = (base + (size_t)j * THREADS) * VEC + k;
				if (i < nvec * VEC)
					out[i] = in[i];
			}
	}
	if (blockIdx.x == 0)
		for (size_t i = nvec * VEC + threadIdx.x; i < n; i += THREADS)
			out[i] = in[i];
}
#endif /* GT_COPY_TEMPLATE */

/* An exported header's kernel, its first argument the blocks per SM it is
 * built for (src/export-header.c, variant_occupancy). */
#ifdef GT_HEADER_KERNEL
template <int MIN_BLOCKS, typename T, int VEC, int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
GT_HEADER_KERNEL(const T *__restrict__ in, T *__restrict__ out, unsigned rows, unsigned cols)
{
	gt_copy<T, VEC, THREADS, ITEMS>(in, out, rows, cols);
}
#endif

#ifdef GT_ELEM_BYTES
#ifndef GT_KERNEL_NAME
#define GT_KERNEL_NAME gputune_copy
#endif
extern "C" __global__ void __launch_bounds__(GT_THREADS)
GT_KERNEL_NAME(const gt_elem *__restrict__ in, gt_elem *__restrict__ out, unsigned rows, unsigned cols)
{
	gt_copy<gt_elem, GT_VEC, GT_THREADS, GT_ITEMS>(in, out, rows, cols);
}
#undef GT_VEC_BYTES
#undef GT_KERNEL_NAME
#endif
