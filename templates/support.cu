/*
 * support.cu - the tuner's own kernels: checking a variant's output
 * against the expected output and checking the guard bytes around it.
 * Both count into result[] with atomics; the host zeroes result[0] and
 * result[2] and sets result[1] to all ones before each check:
 *   result[0]  differing 2-byte units between out and expected
 *   result[1]  byte offset of the first difference (atomicMin)
 *   result[2]  guard bytes that are not the guard value
 * and, last, the kernel the read ceiling times.
 */

extern "C" __global__ void gt_compare(const unsigned short *__restrict__ out,
				      const unsigned short *__restrict__ expected,
				      unsigned long long units, unsigned long long *result)
{
	unsigned long long bad = 0, first = ~0ULL;
	const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
	unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
	/* Eight 2-byte units at a time where the buffers allow it. */
	const unsigned long long chunks = units / 8;
	const uint4 *o4 = (const uint4 *)out, *e4 = (const uint4 *)expected;
	for (unsigned long long c = i; c < chunks; c += stride) {
		uint4 a = o4[c], b = e4[c];
		if (a.x != b.x || a.y != b.y || a.z != b.z || a.w != b.w) {
			for (int k = 0; k < 8; k++)
				if (out[c * 8 + k] != expected[c * 8 + k]) {
					bad++;
					if (first == ~0ULL)
						first = (c * 8 + k) * 2;
				}
		}
	}
	for (unsigned long long u = chunks * 8 + i; u < units; u += stride)
		if (out[u] != expected[u]) {
			bad++;
			if (first == ~0ULL)
				first = u * 2;
		}
	if (bad) {
		atomicAdd(&result[0], bad);
		atomicMin(&result[1], first);
	}
}

extern "C" __global__ void gt_check_fill(const unsigned char *__restrict__ p,
					 unsigned long long n, unsigned int value,
					 unsigned long long *result)
{
	unsigned long long bad = 0;
	const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
	for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += stride)
		bad += p[i] != (unsigned char)value;
	if (bad)
		atomicAdd(&result[2], bad);
}

/*
 * The read ceiling: every 16-byte word of the input read once, four loads
 * in flight per thread, over a grid-stride loop (and the bytes past the
 * last whole word one by one).  The words are folded
 * into one value that is stored only when it equals a key it practically
 * never equals, so the compiler must keep every load.
 */
extern "C" __global__ void gt_read(const uint4 *__restrict__ in, unsigned long long bytes,
				   unsigned long long *sink)
{
	const unsigned long long words = bytes / 16;
	const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
	unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
	unsigned x = 0;
	for (; i + 3 * stride < words; i += 4 * stride) {
		uint4 a = in[i], b = in[i + stride], c = in[i + 2 * stride], d = in[i + 3 * stride];
		x ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
	}
	for (; i < words; i += stride) {
		uint4 a = in[i];
		x ^= a.x ^ a.y ^ a.z ^ a.w;
	}
	/* The bytes past the last whole word. */
	if (blockIdx.x == 0 && threadIdx.x < bytes % 16)
		x ^= ((const unsigned char *)in)[words * 16 + threadIdx.x];
	if (x == 0x9e3779b9u)
		sink[3] = x;
}
