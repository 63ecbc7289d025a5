/*
 * scan-host.cc - runs prefix-sum variants on the host (cuda-host.h) at
 * the lengths given and checks every output element.
 *
 * The variants come from a file the test writes (VARIANTS, included), one
 * V(name, element type, accumulator type, then the template's parameters
 * in the order of the family's table) per variant.  The launch geometry is
 * the family's (src/families/family-scan.c): one block per tile of
 * THREADS x VEC x PER elements.
 *
 * The input is odd integers from -7 to 7, so every prefix sum is exact in
 * float and double at these lengths and a missing or doubled element
 * shows.  Each variant is launched three times on one scratch buffer,
 * zeroed once and sized for the longest: at the length, at a third of it
 * (fewer tiles, so states of the launch before lie past its last tile),
 * and at the length again.  Every launch must be right, put the ticket
 * counter back to zero and advance the launch count by one (the
 * template's promise that no launch needs the scratch cleared), and leave
 * the bytes around the output untouched.
 *
 * usage: scan-host N...   N is a length, or N+K with the input K elements
 * past an aligned address (host-runner.h prints the lines).
 */
#include "cuda-host.h"
#include "host-runner.h"

#include "../templates/common.cuh"
#include "../templates/scan.cu"

#include <cstdint>
#include <string>
#include <type_traits>

namespace {

typedef const char *(*runner)(const void *in, void *out, void *scratch, unsigned long long n);

template <int THREADS, int VEC, int PER> unsigned long long tiles(unsigned long long n)
{
	const unsigned long long tile = (unsigned long long)THREADS * VEC * PER, k = (n + tile - 1) / tile;
	return k ? k : 1;
}

template <typename T, typename A, int THREADS, int VEC, int PER, int BLOCK, int LOOKBACK, int PAD, int LAYOUT, int ORDER>
const char *run(const void *in, void *out, void *scratch, unsigned long long n)
{
	return cuda_host::launch((unsigned)tiles<THREADS, VEC, PER>(n), THREADS, 1, [&] {
		gt_scan<T, A, THREADS, VEC, PER, BLOCK, LOOKBACK, PAD, LAYOUT, ORDER>((const T *)in, (A *)out, scratch, n);
	});
}

template <typename T, int THREADS, int VEC, int PER, int BLOCK, int LOOKBACK, int PAD, int LAYOUT, int ORDER>
size_t scratch_bytes(unsigned long long n)
{
	return 256 + 24 * tiles<THREADS, VEC, PER>(n);
}

struct variant {
	const char *name;
	size_t elem;
	bool integer;
	runner fn;
	size_t (*scratch)(unsigned long long n);
};

#define V(name, T, A, ...) \
	{ name, sizeof(T), std::is_integral<T>::value, run<T, A, __VA_ARGS__>, scratch_bytes<T, __VA_ARGS__> },
const variant variants[] = {
#include VARIANTS
};
#undef V

std::string check(const variant &v, const host_length &len)
{
	const unsigned long long n = len.n;
	const size_t e = v.elem;
	host_buffer inb(n * e, len.shift * e);
	unsigned char *in = inb.p;
	std::vector<long long> exact(n);
	long long sum = 0;
	for (unsigned long long i = 0; i < n; i++) {
		const int x = (int)((i * 2654435761u >> 7) % 8) * 2 - 7; /* odd, -7 to 7 */
		exact[i] = sum += x;
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
	std::vector<unsigned long long> scratch((v.scratch(n) + 7) / 8, 0);
	const unsigned long long lengths[3] = { n, n / 3, n };
	char buf[200];
	for (int launch = 0; launch < 3; launch++) {
		const unsigned long long m = lengths[launch];
		host_buffer out(m * e, 0);
		if (const char *fault = v.fn(in, out.p, scratch.data(), m))
			return fault;
		for (unsigned long long i = 0; i < m; i++) {
			const long double want = v.integer ? (long double)(uint32_t)exact[i] : (long double)exact[i];
			const long double got = host_acc_value(v.integer, v.elem, out.p + i * e);
			if (got != want) {
				std::snprintf(buf, sizeof buf, "launch %d (n=%llu): element %llu is %.17Lg, not %.17Lg",
					      launch + 1, m, i, got, want);
				return buf;
			}
		}
		const std::string guard = out.guard_text("the output");
		if (!guard.empty())
			return "launch " + std::to_string(launch + 1) + " " + guard;
		uint32_t head[2];
		std::memcpy(head, scratch.data(), sizeof(head));
		if (head[0] != 0 || head[1] != (uint32_t)launch + 1) {
			std::snprintf(buf, sizeof buf, "launch %d left the ticket at %u and the launch count at %u (want 0, %d)",
				      launch + 1, head[0], head[1], launch + 1);
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
