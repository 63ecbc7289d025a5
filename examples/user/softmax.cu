/*
 * softmax.cu - the softmax of each row of a rows x cols matrix:
 * out[r][c] = exp(in[r][c] - max_r) / sum_c' exp(in[r][c'] - max_r).
 * GT_TPR threads share a row: one pass reads it, each thread keeping the
 * largest value it met and the sum of exponentials scaled to it (the
 * online softmax, so the row is read twice, not three times); the threads
 * combine theirs through shuffles and, across warps, shared memory; a
 * second pass reads the row again (from the cache, a row being at most a
 * few tens of KiB) and writes it.
 *   GT_TPR   threads per row, a multiple of 32
 *   GT_RPB   rows per block
 *   GT_VEC   elements per access where cols is a multiple of it (else
 *            element by element)
 * The sums' order differs from point to point, so the check allows a
 * relative error (softmax.json).
 */
typedef GT_ELEM_TYPE T;
#define WARPS (GT_TPR / 32)
#define NEG_INF __int_as_float(0xff800000) /* NVRTC has no math.h */

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

extern "C" __global__ void __launch_bounds__(GT_TPR * GT_RPB)
softmax(const T *__restrict__ in, T *__restrict__ out, unsigned rows, unsigned cols)
{
	__shared__ float wm[GT_RPB][WARPS], ws[GT_RPB][WARPS];
	const unsigned lane = threadIdx.x, r = blockIdx.x * GT_RPB + threadIdx.y;
	const bool live = r < rows, vec = GT_VEC > 1 && cols % GT_VEC == 0;
	const T *x = in + (size_t)r * cols;
	T *y = out + (size_t)r * cols;
	float m = NEG_INF, s = 0.0f;
	if (live && vec) {
		for (unsigned c = lane * GT_VEC; c < cols; c += GT_TPR * GT_VEC) {
			T v[GT_VEC];
#if GT_VEC == 4
			*reinterpret_cast<float4 *>(v) = *reinterpret_cast<const float4 *>(x + c);
#elif GT_VEC == 2
			*reinterpret_cast<float2 *>(v) = *reinterpret_cast<const float2 *>(x + c);
#else
			v[0] = x[c];
#endif
#pragma unroll
			for (int k = 0; k < GT_VEC; k++)
				add(m, s, v[k]);
		}
	} else if (live) {
		for (unsigned c = lane; c < cols; c += GT_TPR)
			add(m, s, x[c]);
	}
#pragma unroll
	for (int o = 16; o > 0; o >>= 1) {
		const float m2 = __shfl_xor_sync(0xffffffffu, m, o), s2 = __shfl_xor_sync(0xffffffffu, s, o);
		combine(m, s, m2, s2);
	}
#if WARPS > 1
	if (lane % 32 == 0) {
		wm[threadIdx.y][lane / 32] = m;
		ws[threadIdx.y][lane / 32] = s;
	}
	__syncthreads();
	m = wm[threadIdx.y][0];
	s = ws[threadIdx.y][0];
#pragma unroll
	for (int w = 1; w < WARPS; w++)
		combine(m, s, wm[threadIdx.y][w], ws[threadIdx.y][w]);
#endif
	const float inv = 1.0f / s;
	if (live && vec) {
		for (unsigned c = lane * GT_VEC; c < cols; c += GT_TPR * GT_VEC) {
			T v[GT_VEC];
#if GT_VEC == 4
			*reinterpret_cast<float4 *>(v) = *reinterpret_cast<const float4 *>(x + c);
#elif GT_VEC == 2
			*reinterpret_cast<float2 *>(v) = *reinterpret_cast<const float2 *>(x + c);
#else
			v[0] = x[c];
#endif
#pragma unroll
			for (int k = 0; k < GT_VEC; k++)
				v[k] = expf(v[k] - m) * inv;
#if GT_VEC == 4
			*reinterpret_cast<float4 *>(y + c) = *reinterpret_cast<float4 *>(v);
#elif GT_VEC == 2
			*reinterpret_cast<float2 *>(y + c) = *reinterpret_cast<float2 *>(v);
#else
			y[c] = v[0];
#endif
		}
	} else if (live) {
		for (unsigned c = lane; c < cols; c += GT_TPR)
			y[c] = expf(x[c] - m) * inv;
	}
}
