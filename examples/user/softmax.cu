/*
 * softmax.cu - the softmax of each row of a rows x cols matrix:
 * out[r][c] = exp(in[r][c] - max_r) / sum_c' exp(in[r][c'] - max_r).
 * GT_TPR threads share a row.  A row that fits the registers the point
 * gives it is read once: its maximum, then its sum of exponentials,
 * reduced over the row, and written from the registers.  A longer row
 * takes two passes: the first keeps per thread the largest value met and
 * the sum of exponentials scaled to it (the online softmax), the second
 * reads the row again (from the cache, a row being tens of KiB at most)
 * and writes it.
 *   GT_TPR    threads per row, a multiple of 32
 *   GT_RPB    rows per block
 *   GT_VEC    elements per access where cols is a multiple of it (else
 *             element by element)
 *   GT_ITEMS  accesses a thread keeps in registers: rows of at most
 *             GT_TPR x GT_VEC x GT_ITEMS elements are read once (0: none)
 * The sums' order differs from point to point, so the check allows a
 * relative error (softmax.json).
 */
typedef GT_ELEM_TYPE T;
#define WARPS (GT_TPR / 32)
#define NEG_INF __int_as_float(0xff800000) /* NVRTC has no math.h */

/* GT_VEC elements from p (aligned where vec) into v, or to p from v. */
__device__ __forceinline__ void load(const T *__restrict__ p, T *v)
{
#if GT_VEC == 4
	*reinterpret_cast<float4 *>(v) = *reinterpret_cast<const float4 *>(p);
#elif GT_VEC == 2
	*reinterpret_cast<float2 *>(v) = *reinterpret_cast<const float2 *>(p);
#else
	v[0] = p[0];
#endif
}

__device__ __forceinline__ void store(T *__restrict__ p, const T *v)
{
#if GT_VEC == 4
	*reinterpret_cast<float4 *>(p) = *reinterpret_cast<const float4 *>(v);
#elif GT_VEC == 2
	*reinterpret_cast<float2 *>(p) = *reinterpret_cast<const float2 *>(v);
#else
	p[0] = v[0];
#endif
}

/* (m, s) and (m2, s2) as one: the larger maximum, each sum scaled to it. */
__device__ __forceinline__ void combine(float &m, float &s, float m2, float s2)
{
	const float mm = fmaxf(m, m2);
	s = (m == NEG_INF ? 0.0f : s * expf(m - mm)) + (m2 == NEG_INF ? 0.0f : s2 * expf(m2 - mm));
	m = mm;
}

__device__ __forceinline__ void add(float &m, float &s, float v)
{
	if (v > m) {
		s = s * expf(m - v) + 1.0f;
		m = v;
	} else {
		s += expf(v - m);
	}
}

/* The row's maximum, its sum, and the online pass's pair, over its GT_TPR
 * threads (shuffles, then shared memory across warps): every thread of
 * the row gets the same. */
__device__ __forceinline__ float row_max(float m, unsigned row, unsigned lane)
{
#pragma unroll
	for (int o = 16; o > 0; o >>= 1)
		m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
#if WARPS > 1
	__shared__ float w[GT_RPB][WARPS];
	if (lane % 32 == 0)
		w[row][lane / 32] = m;
	__syncthreads();
	m = w[row][0];
#pragma unroll
	for (int k = 1; k < WARPS; k++)
		m = fmaxf(m, w[row][k]);
#endif
	return m;
}

__device__ __forceinline__ float row_sum(float s, unsigned row, unsigned lane)
{
#pragma unroll
	for (int o = 16; o > 0; o >>= 1)
		s += __shfl_xor_sync(0xffffffffu, s, o);
#if WARPS > 1
	__shared__ float w[GT_RPB][WARPS];
	if (lane % 32 == 0)
		w[row][lane / 32] = s;
	__syncthreads();
	s = w[row][0];
#pragma unroll
	for (int k = 1; k < WARPS; k++)
		s += w[row][k];
#endif
	return s;
}

__device__ __forceinline__ void row_pair(float &m, float &s, unsigned row, unsigned lane)
{
#pragma unroll
	for (int o = 16; o > 0; o >>= 1) {
		const float m2 = __shfl_xor_sync(0xffffffffu, m, o), s2 = __shfl_xor_sync(0xffffffffu, s, o);
		combine(m, s, m2, s2);
	}
#if WARPS > 1
	__shared__ float wm[GT_RPB][WARPS], ws[GT_RPB][WARPS];
	if (lane % 32 == 0) {
		wm[row][lane / 32] = m;
		ws[row][lane / 32] = s;
	}
	__syncthreads();
	m = wm[row][0];
	s = ws[row][0];
#pragma unroll
	for (int k = 1; k < WARPS; k++)
		combine(m, s, wm[row][k], ws[row][k]);
#endif
}

extern "C" __global__ void __launch_bounds__(GT_TPR * GT_RPB)
softmax(const T *__restrict__ in, T *__restrict__ out, unsigned rows, unsigned cols)
{
	const unsigned lane = threadIdx.x, r = blockIdx.x * GT_RPB + threadIdx.y;
	const bool live = r < rows, vec = GT_VEC > 1 && cols % GT_VEC == 0;
	const T *x = in + (size_t)r * cols;
	T *y = out + (size_t)r * cols;
	float m = NEG_INF, s = 0.0f;
#if GT_ITEMS > 0
	if (cols <= GT_TPR * GT_VEC * GT_ITEMS) {
		/* Thread lane's accesses are at (it * GT_TPR + lane) * GT_VEC. */
		float v[GT_ITEMS][GT_VEC];
#pragma unroll
		for (int it = 0; it < GT_ITEMS; it++) {
			const unsigned c = (it * GT_TPR + lane) * GT_VEC;
			if (live && vec && c < cols) {
				load(x + c, v[it]);
			} else {
#pragma unroll
				for (int k = 0; k < GT_VEC; k++)
					v[it][k] = live && c + k < cols ? x[c + k] : NEG_INF;
			}
#pragma unroll
			for (int k = 0; k < GT_VEC; k++)
				m = fmaxf(m, v[it][k]);
		}
		m = row_max(m, threadIdx.y, lane);
#pragma unroll
		for (int it = 0; it < GT_ITEMS; it++)
#pragma unroll
			for (int k = 0; k < GT_VEC; k++) {
				v[it][k] = expf(v[it][k] - m); /* 0 where no element */
				s += v[it][k];
			}
		s = row_sum(s, threadIdx.y, lane);
		const float inv = 1.0f / s;
#pragma unroll
		for (int it = 0; it < GT_ITEMS; it++) {
			const unsigned c = (it * GT_TPR + lane) * GT_VEC;
#pragma unroll
			for (int k = 0; k < GT_VEC; k++)
				v[it][k] *= inv;
			if (live && vec && c < cols) {
				store(y + c, v[it]);
			} else {
#pragma unroll
				for (int k = 0; k < GT_VEC; k++)
					if (live && c + k < cols)
						y[c + k] = v[it][k];
			}
		}
		return;
	}
#endif
	if (live && vec) {
		for (unsigned c = lane * GT_VEC; c < cols; c += GT_TPR * GT_VEC) {
			T v[GT_VEC];
			load(x + c, v);
#pragma unroll
			for (int k = 0; k < GT_VEC; k++)
				add(m, s, v[k]);
		}
	} else if (live) {
		for (unsigned c = lane; c < cols; c += GT_TPR)
			add(m, s, x[c]);
	}
	row_pair(m, s, threadIdx.y, lane);
	const float inv = 1.0f / s;
	if (live && vec) {
		for (unsigned c = lane * GT_VEC; c < cols; c += GT_TPR * GT_VEC) {
			T v[GT_VEC];
			load(x + c, v);
#pragma unroll
			for (int k = 0; k < GT_VEC; k++)
				v[k] = expf(v[k] - m) * inv;
			store(y + c, v);
		}
	} else if (live) {
		for (unsigned c = lane; c < cols; c += GT_TPR)
			y[c] = expf(x[c] - m) * inv;
	}
}
