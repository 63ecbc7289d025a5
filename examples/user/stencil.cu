/*
 * stencil.cu - one Jacobi step of the five-point stencil on a rows x cols
 * grid: out = (up + down + left + right) / 4 inside, out = in on the
 * border.  A thread computes GT_VX neighbouring columns of GT_RY rows,
 * walking down them with the rows above and below held in registers, so
 * each input row is loaded once per thread and the left and right
 * neighbours are the only loads another thread also makes.
 *   GT_TX, GT_TY  threads of a block across columns and down rows
 *   GT_RY         rows a thread walks down
 *   GT_VX         neighbouring columns a thread computes, loaded and
 *                 stored as one access of GT_VX elements where cols is a
 *                 multiple of GT_VX (else element by element)
 * GT_ELEM_TYPE is the element type.  Every point adds in the same order,
 * so every variant's output equals the reference's bit for bit.
 */
typedef GT_ELEM_TYPE T;

/* GT_VX elements from in[at] on (at a multiple of GT_VX where vec). */
__device__ __forceinline__ void load_row(const T *__restrict__ in, unsigned cols, size_t at, unsigned c0, bool vec,
					 T *v)
{
#if GT_VX > 1
	if (vec) {
		if (sizeof(T) * GT_VX == 16) {
			uint4 q = *reinterpret_cast<const uint4 *>(in + at);
			memcpy(v, &q, 16);
		} else {
			uint2 q = *reinterpret_cast<const uint2 *>(in + at);
			memcpy(v, &q, 8);
		}
		return;
	}
#endif
#pragma unroll
	for (int j = 0; j < GT_VX; j++)
		v[j] = c0 + j < cols ? in[at + j] : T(0);
}

__device__ __forceinline__ void store_row(T *__restrict__ out, unsigned cols, size_t at, unsigned c0, bool vec,
					  const T *v)
{
#if GT_VX > 1
	if (vec) {
		if (sizeof(T) * GT_VX == 16) {
			uint4 q;
			memcpy(&q, v, 16);
			*reinterpret_cast<uint4 *>(out + at) = q;
		} else {
			uint2 q;
			memcpy(&q, v, 8);
			*reinterpret_cast<uint2 *>(out + at) = q;
		}
		return;
	}
#endif
#pragma unroll
	for (int j = 0; j < GT_VX; j++)
		if (c0 + j < cols)
			out[at + j] = v[j];
}

extern "C" __global__ void __launch_bounds__(GT_TX * GT_TY)
stencil(const T *__restrict__ in, T *__restrict__ out, unsigned rows, unsigned cols)
{
	const unsigned c0 = (blockIdx.x * GT_TX + threadIdx.x) * GT_VX;
	const unsigned r0 = (blockIdx.y * GT_TY + threadIdx.y) * GT_RY;
	if (c0 >= cols || r0 >= rows)
		return;
	const bool vec = GT_VX > 1 && cols % GT_VX == 0;
	T up[GT_VX], mid[GT_VX], dn[GT_VX], res[GT_VX];
#pragma unroll
	for (int j = 0; j < GT_VX; j++)
		up[j] = dn[j] = T(0);
	if (r0 > 0)
		load_row(in, cols, (size_t)(r0 - 1) * cols + c0, c0, vec, up);
	load_row(in, cols, (size_t)r0 * cols + c0, c0, vec, mid);
#pragma unroll
	for (int i = 0; i < GT_RY; i++) {
		const unsigned r = r0 + i;
		if (r >= rows)
			break;
		const size_t at = (size_t)r * cols + c0;
		if (r + 1 < rows)
			load_row(in, cols, at + cols, c0, vec, dn);
		const T left = c0 > 0 ? in[at - 1] : T(0);
		const T right = c0 + GT_VX < cols ? in[at + GT_VX] : T(0);
#pragma unroll
		for (int j = 0; j < GT_VX; j++) {
			const unsigned c = c0 + j;
			const T l = j > 0 ? mid[j - 1] : left;
			const T rt = j + 1 < GT_VX ? mid[j + 1] : right;
			const bool border = r == 0 || r + 1 == rows || c == 0 || c + 1 >= cols;
			res[j] = border ? mid[j] : (((up[j] + dn[j]) + l) + rt) * T(0.25);
		}
		store_row(out, cols, at, c0, vec, res);
#pragma unroll
		for (int j = 0; j < GT_VX; j++) {
			up[j] = mid[j];
			mid[j] = dn[j];
		}
	}
}
