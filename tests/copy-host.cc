/*
 * copy-host.cc - runs copy variants (the ceiling's kernel) on the host
 * (cuda-host.h) at the sizes given and checks each output and the guard
 * bytes around it.
 *
 * The variants come from a file the test writes (VARIANTS, included), one
 * V(name, element bytes, then the template's parameters in the order of
 * the family's table) per variant.  The launch geometry is the family's
 * (src/families/family-copy.c): one block per THREADS x ITEMS vectors, at least one.
 *
 * usage: copy-host SIZE...   SIZE is RxC, or RxC+K with both buffers K
 * elements past an aligned address (host-runner.h prints the lines).
 */
#include "cuda-host.h"
#include "host-runner.h"

#include "../templates/common.cuh"
#include "../templates/copy.cu"

namespace {

template <int BYTES, int VEC, int THREADS, int ITEMS>
const char *run(const void *in, void *out, unsigned rows, unsigned cols)
{
	typedef typename gt_uint<BYTES>::type T;
	const size_t nvec = (size_t)rows * cols / VEC, per_block = (size_t)THREADS * ITEMS;
	const size_t blocks = (nvec + per_block - 1) / per_block;
	return cuda_host::launch(blocks ? (unsigned)blocks : 1, THREADS, 1,
				 [&] { gt_copy<T, VEC, THREADS, ITEMS>((const T *)in, (T *)out, rows, cols); });
}

#define V(name, bytes, ...) { name, bytes, run<bytes, __VA_ARGS__> },
const host_matrix_variant variants[] = {
#include VARIANTS
};
#undef V

std::string check(const host_matrix_variant &v, const host_matrix &sz)
{
	const size_t bytes = (size_t)sz.rows * sz.cols * v.bytes;
	host_buffer in(bytes, sz.shift * v.bytes), out(bytes, sz.shift * v.bytes);
	host_fill(in.p, bytes, 0x2545f4914f6cdd1dull ^ bytes);
	if (const char *fault = v.fn(in.p, out.p, sz.rows, sz.cols))
		return fault;
	for (size_t i = 0; i < bytes; i++)
		if (out.p[i] != in.p[i]) {
			char buf[96];
			std::snprintf(buf, sizeof buf, "byte %zu of the output is not the input's", i);
			return buf;
		}
	return out.guard_text("the output");
}

} /* namespace */

int main(int argc, char **argv)
{
	return host_main(argc, argv, "RxC[+K]", host_parse_matrix, check, variants);
}
