/*
 * transpose-host.cc - runs transpose variants on the host (cuda-host.h)
 * at the sizes given and checks each output against a host transpose, and
 * the guard bytes on both sides of it.
 *
 * The variants come from a file the test writes (VARIANTS, included), one
 * V(name, element bytes, then the template's parameters in the order of
 * the family's table) per variant.  The launch geometry is the family's
 * (src/family-transpose.c): one block per (tile x unroll) x (tile x wide)
 * piece of the input, (tile / vec) x block_rows threads.
 *
 * usage: transpose-host SIZE...   SIZE is RxC, or RxC+K with both buffers
 * K elements past an aligned address (host-runner.h prints the lines).
 */
#include "cuda-host.h"
#include "host-runner.h"

#include "../templates/common.cuh"
#include "../templates/transpose.cu"

#include <cstdint>
#include <cstring>
#include <string>

namespace {

typedef const char *(*runner)(const void *in, void *out, unsigned rows, unsigned cols);

template <int BYTES, int TILE, int BR, int PAD, int UNROLL, int MAPPING, int VEC, int SHARED, int SECTOR,
	  int WIDE, int REALIGN, int PAIR, int INJECT>
const char *run(const void *in, void *out, unsigned rows, unsigned cols)
{
	typedef typename gt_uint<BYTES>::type T;
	const unsigned nx = (cols + TILE * WIDE - 1) / (TILE * WIDE);
	const unsigned ny = (rows + TILE * UNROLL - 1) / (TILE * UNROLL);
	return cuda_host::launch(nx * ny, TILE / VEC, BR, [&] {
		gt_transpose<T, TILE, BR, PAD, UNROLL, MAPPING, VEC, SHARED, SECTOR, WIDE, REALIGN, PAIR, INJECT>(
			(const T *)in, (T *)out, rows, cols);
	});
}

struct variant {
	const char *name;
	size_t bytes;
	runner fn;
};

#define V(name, bytes, ...) { name, bytes, run<bytes, __VA_ARGS__> },
const variant variants[] = {
#include VARIANTS
};
#undef V

/* Guard bytes on each side of the output, and the alignment the buffers
 * start from (cudaMalloc's). */
constexpr size_t GUARD = 256;
constexpr unsigned char GUARD_BYTE = 0xa5;

uint64_t next(uint64_t &s)
{
	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return s;
}

struct size {
	unsigned rows, cols, shift;
};

bool parse(const char *arg, size *s)
{
	char extra;
	s->shift = 0;
	const int got = std::sscanf(arg, "%ux%u+%u%c", &s->rows, &s->cols, &s->shift, &extra);
	return got >= 2 && got <= 3 && s->rows > 0 && s->cols > 0;
}

/* One variant at one size; an empty string when right. */
std::string check(const variant &v, const size &sz)
{
	const unsigned rows = sz.rows, cols = sz.cols, shift = sz.shift;
	const size_t n = (size_t)rows * cols, e = v.bytes, bytes = n * e;
	const size_t off = shift * e;
	std::vector<unsigned char> in_buf(GUARD + off + bytes + GUARD), out_buf(GUARD + off + bytes + GUARD);
	/* The vectors' storage is only 16-byte aligned: start both at a
	 * 256-byte boundary inside them. */
	auto aligned = [](std::vector<unsigned char> &b) {
		uintptr_t p = (uintptr_t)b.data();
		return (unsigned char *)((p + GUARD - 1) / GUARD * GUARD);
	};
	in_buf.resize(in_buf.size() + GUARD);
	out_buf.resize(out_buf.size() + GUARD);
	unsigned char *in = aligned(in_buf) + GUARD + off, *out = aligned(out_buf) + GUARD + off;
	uint64_t s = 0x9e3779b97f4a7c15ull ^ ((uint64_t)rows << 32 | cols);
	for (size_t i = 0; i < bytes; i++)
		in[i] = (unsigned char)next(s);
	std::memset(out_buf.data(), GUARD_BYTE, out_buf.size());

	const char *fault = v.fn(in, out, rows, cols);
	if (fault)
		return fault;
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++)
			if (std::memcmp(out + (c * rows + r) * e, in + (r * cols + c) * e, e)) {
				char buf[128];
				std::snprintf(buf, sizeof buf, "out[%zu][%zu] is not in[%zu][%zu]", c, r, r, c);
				return buf;
			}
	for (unsigned char *p = aligned(out_buf); p < out + bytes + GUARD; p++) {
		if (p == out)
			p += bytes;
		if (*p != GUARD_BYTE) {
			char buf[128];
			std::snprintf(buf, sizeof buf, "wrote the byte %td %s the output", p < out ? out - p : p - (out + bytes) + 1,
				      p < out ? "before" : "past");
			return buf;
		}
	}
	return "";
}

} /* namespace */

int main(int argc, char **argv)
{
	return host_main(argc, argv, "RxC[+K]", parse, check, variants);
}
