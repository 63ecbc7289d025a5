/*
 * scale.cu - y = 2 x over n elements, the smallest kernel a user brings:
 * a template whose parameters are macros (scale.json declares them).
 *   GT_THREADS  threads per block
 *   GT_ITEMS    elements per thread
 *   GT_LAYOUT    0 (strided): a thread's items a block apart, so a warp's
 *               loads are contiguous; 1 (blocked): a thread's items side
 *               by side
 * GT_ELEM_TYPE is the element type (f32: float, f64: double).
 */
extern "C" __global__ void __launch_bounds__(GT_THREADS)
scale(const GT_ELEM_TYPE *__restrict__ x, GT_ELEM_TYPE *__restrict__ y, unsigned long long n)
{
	const unsigned long long base = (unsigned long long)blockIdx.x * GT_THREADS * GT_ITEMS;
#pragma unroll
	for (int k = 0; k < GT_ITEMS; k++) {
		const unsigned long long i = GT_LAYOUT == 0 ? base + (unsigned long long)k * GT_THREADS + threadIdx.x
							 : base + (unsigned long long)threadIdx.x * GT_ITEMS + k;
		if (i < n)
			y[i] = x[i] + x[i];
	}
}
