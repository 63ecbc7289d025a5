/*
 * reduce-host.cc - runs reduction variants on the host (cuda-host.h) at
 * the lengths given and checks each sum.
 *
 * The variants come from a file the test writes (VARIANTS, included), one
 * V(name, element type, accumulator type, then the template's parameters
 * in the order of the family's table) per variant.  The launch geometry is
 * the family's (src/families/family-reduce.c): blocks enough for one step per
 * thread, at most GRID where GRID is set.
 *
 * The input is odd integers from -7 to 7, so every order of addition is
 * exact in float and double at these lengths (every partial sum is below
 * 2^24) and a missing element changes the sum.  Each variant is launched
 * twice on one scratch buffer, zeroed once: both sums must be right, the
 * counter and the atomic slot (the scratch's first 256 bytes) zero again
 * after each (the template's promise: no memset between launches; the
 * blocks' sums after them stay, each written before it is read), and the
 * bytes after the output untouched.
 *
 * usage: reduce-host N...   N is a length, or N+K with the input K
 * elements past an aligned address (host-runner.h prints the lines).
 */
#include "cuda-host.h"
#include "host-runner.h"

#include "../templates/common.cuh"
#include "../templates/reduce.cu"

#include <cstdint>
#include <string>
#include <type_traits>

namespace {

typedef const char *(*runner)(const void *in, void *out, void *scratch, unsigned long long n);

template <int THREADS, int VEC, int UNROLL, int GRID> unsigned long long blocks(unsigned long long n)
{
	const unsigned long long nvec = n / VEC, chunk = (unsigned long long)THREADS * UNROLL;
	unsigned long long need = (nvec + chunk - 1) / chunk;
	if (need == 0)
		need = 1;
	return GRID && (unsigned long long)GRID < need ? GRID : need;
}

template <typename T, typename A, int THREADS, int VEC, int UNROLL, int GRID, int BLOCK, int FINAL>
const char *run(const void *in, void *out, void *scratch, unsigned long long n)
{
	return cuda_host::launch((unsigned)blocks<THREADS, VEC, UNROLL, GRID>(n), THREADS, 1, [&] {
		gt_reduce<T, A, THREADS, VEC, UNROLL, GRID, BLOCK, FINAL>((const T *)in, (A *)out, scratch, n);
	});
}

template <typename T, int THREADS, int VEC, int UNROLL, int GRID, int BLOCK, int FINAL>
size_t scratch_bytes(unsigned long long n)
{
	return 256 + 8 * blocks<THREADS, VEC, UNROLL, GRID>(n);
}

struct variant {
	const char *name;
	size_t elem, acc;
	bool integer;
	runner fn;
	size_t (*scratch)(unsigned long long n);
};

#define V(name, T, A, ...) \
	{ name, sizeof(T), sizeof(A), std::is_integral<T>::value, run<T, A, __VA_ARGS__>, scratch_bytes<T, __VA_ARGS__> },
const variant variants[] = {
#include VARIANTS
};
#undef V

std::string check(const variant &v, const host_length &len)
{
	const unsigned long long n = len.n;
	const unsigned shift = len.shift;
	const size_t e = v.elem;
	host_buffer inb(n * e, shift * e);
	unsigned char *in = inb.p;
	long long exact = 0;
	for (unsigned long long i = 0; i < n; i++) {
		const int x = (int)((i * 2654435761u >> 7) % 8) * 2 - 7; /* odd, -7 to 7 */
		exact += x;
		if (v.integer) {
			const int32_t y = x;
			std::memcpy(in + i * e, &y, 4);
		} else if (e == 4) {
			const float y = (float)x;
			std::memcpy(in + i * e, &y, 4);
		} else {
			const double y = x;
			std::memcpy(in + i * e, &y, 8);
		}
	}
	const long double want = v.integer ? (long double)(uint32_t)exact : (long double)exact;
	const size_t sbytes = v.scratch(n);
	std::vector<unsigned long long> scratch((sbytes + 7) / 8, 0);
	char buf[160];
	for (int launch = 1; launch <= 2; launch++) {
		host_buffer out(v.acc, 0);
		/* Injected faults: the sum without the last element; the byte
		 * after the output changed. */
		const int inject = host_inject(v.name);
		if (const char *fault = v.fn(in, out.p, scratch.data(), inject == 1 && n > 0 ? n - 1 : n))
			return fault;
		if (inject == 3)
			out.p[v.acc] ^= 1;
		const long double got = host_acc_value(v.integer, v.acc, out.p);
		if (got != want) {
			std::snprintf(buf, sizeof buf, "launch %d summed %.17Lg, not %.17Lg", launch, got, want);
			return buf;
		}
		const std::string guard = out.guard_text("the output");
		if (!guard.empty())
			return "launch " + std::to_string(launch) + " " + guard;
		for (size_t i = 0; i < 256 / 8; i++)
			if (scratch[i]) {
				std::snprintf(buf, sizeof buf, "launch %d left scratch byte %zu to %zu nonzero", launch,
					      8 * i, 8 * i + 7);
				return buf;
			}
	}
	return "";
}

} /* namespace */

int main(int argc, char **argv)
{
	return host_main(argc, argv, "N[+K], N at most 2^20", host_parse_length, check, variants);
}
