/*
 * transpose-host.cc - runs transpose variants on the host (cuda-host.h)
 * at the sizes given and checks each output against a host transpose, and
 * the guard bytes on both sides of it.
 *
 * The variants come from a file the test writes (VARIANTS, included), one
 * V(name, element bytes, then the template's parameters in the order of
 * the family's table) per variant.  The launch geometry is the family's
 * (src/families/family-transpose.c): one block per (tile x unroll) x (tile x wide)
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

template <int BYTES, int TILE, int BR, int PAD, int UNROLL, int MAPPING, int VEC, int SHARED, int SECTOR,
	  int WIDE, int REALIGN, int PAIR, int ASYNC, int ROWCLASS>
const char *run(const void *in, void *out, unsigned rows, unsigned cols)
{
	typedef typename gt_uint<BYTES>::type T;
	const unsigned nx = (cols + TILE * WIDE - 1) / (TILE * WIDE);
	const unsigned ny = (rows + TILE * UNROLL - 1) / (TILE * UNROLL);
	return cuda_host::launch(nx * ny, TILE / VEC, BR, [&] {
		gt_transpose<T, TILE, BR, PAD, UNROLL, MAPPING, VEC, SHARED, SECTOR, WIDE, REALIGN, PAIR, ASYNC, ROWCLASS>(
			(const T *)in, (T *)out, rows, cols, nullptr);
	});
}

#define V(name, bytes, ...) { name, bytes, run<bytes, __VA_ARGS__> },
const host_matrix_variant variants[] = {
#include VARIANTS
};
#undef V

/* One variant at one size; an empty string when right. */
std::string check(const host_matrix_variant &v, const host_matrix &sz)
{
	const size_t rows = sz.rows, cols = sz.cols, e = v.bytes, bytes = rows * cols * e;
	host_buffer in(bytes, sz.shift * e), out(bytes, sz.shift * e);
	host_fill(in.p, bytes, 0x9e3779b97f4a7c15ull ^ (rows << 32 | cols));
	if (const char *fault = v.fn(in.p, out.p, sz.rows, sz.cols))
		return fault;
	/* Injected faults: a bit of out[0] flipped, a byte 7 elements past the
	 * output changed. */
	if (host_inject(v.name) == 1)
		out.p[0] ^= 1;
	else if (host_inject(v.name) == 3)
		out.p[(rows * cols + 7) * e] ^= 1;
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++)
			if (std::memcmp(out.p + (c * rows + r) * e, in.p + (r * cols + c) * e, e)) {
				char buf[128];
				std::snprintf(buf, sizeof buf, "out[%zu][%zu] is not in[%zu][%zu]", c, r, r, c);
				return buf;
			}
	return out.guard_text("the output");
}

} /* namespace */

int main(int argc, char **argv)
{
	return host_main(argc, argv, "RxC[+K]", host_parse_matrix, check, variants);
}
