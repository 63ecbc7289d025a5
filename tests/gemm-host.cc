/*
 * gemm-host.cc - runs matrix-multiply variants on the host (cuda-host.h)
 * at the shapes given and checks each C.
 *
 * The variants come from a file the test writes (VARIANTS, included), one
 * V(name, then the template's parameters in the order of the family's
 * table) per variant.  The launch geometry is the family's
 * (src/families/family-gemm.c): one block per BM x BN tile of C, (BM / WM) (BN / WN)
 * warps.
 *
 * A and B hold nonzero integers from -4 to 4, so every product and every
 * order of their sums is exact in float at these shapes (K at most 4096):
 * C must be exactly A B, and a term left out shows.  The
 * bytes around C and the shared memory past the variant's stages must be
 * untouched.
 *
 * usage: gemm-host SHAPE...   SHAPE is MxNxK, MxNxK+S with A, B and C each
 * S floats past an aligned address, or MxNxK+SA/SB/SC (host-runner.h
 * prints the lines).
 */
#include "cuda-host.h"
#include "host-runner.h"

#include <cmath>
#include <cstdint>
#include <string>

#include "gemm-host-prelude.h"

namespace {

typedef const char *(*runner)(const float *A, const float *B, float *C, int M, int N, int K);

/* Split-K (split > 1) sums over a thread-block cluster, which the host
 * runner does not model: as in a GPU's code built without clusters, its
 * SPLIT blocks a tile run, and the first multiplies the tile whole. */
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD, int DBUF, int GROUP, int SPLIT,
	  int REALIGN, int ASYNC, int FLAT>
const char *run(const float *A, const float *B, float *C, int M, int N, int K)
{
	typedef gt_gemm_shape<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, SPLIT> S;
	const unsigned tiles = (unsigned)(((M + BM - 1) / BM) * ((N + BN - 1) / BN));
	return cuda_host::launch(tiles * SPLIT, S::THREADS, 1, [&] {
		gt_gemm<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, SPLIT, REALIGN, ASYNC, FLAT>(A, B, C, M, N, K);
	});
}

/* The floats of shared memory the family gives a launch of the variant
 * (src/families/family-gemm.c: its stages, dbuf's or async's, or under split-K the partial
 * tile where that is more). */
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int VEC, int PAD, int DBUF, int GROUP, int SPLIT,
	  int REALIGN, int ASYNC, int FLAT>
size_t smem_floats()
{
	const size_t stages = (ASYNC ? ASYNC : DBUF ? 2 : 1) * (size_t)gt_gemm_shape<BM, BN, BK, WM, WN, TM, TN, VEC, PAD, DBUF, GROUP, SPLIT>::STAGE;
	return SPLIT > 1 && (size_t)BM * BN > stages ? (size_t)BM * BN : stages;
}

struct variant {
	const char *name;
	runner fn;
	size_t (*smem)();
};

#define V(name, ...) { name, run<__VA_ARGS__>, smem_floats<__VA_ARGS__> },
const variant variants[] = {
#include VARIANTS
};
#undef V

/* Written past the variant's stages of shared memory: a NaN no product
 * makes. */
constexpr uint32_t GUARD_BITS = 0x7fc0dead;

struct shape {
	int m, n, k;
	unsigned shift[3]; /* of A, B and C */
};

bool parse(const char *arg, shape *s)
{
	char extra;
	unsigned *sh = s->shift;
	sh[0] = sh[1] = sh[2] = 0;
	int got = std::sscanf(arg, "%dx%dx%d+%u/%u/%u%c", &s->m, &s->n, &s->k, &sh[0], &sh[1], &sh[2], &extra);
	if (got == 4)
		sh[1] = sh[2] = sh[0];
	else if (got != 3 && got != 6)
		return false;
	return s->m > 0 && s->n > 0 && s->k > 0 && (long)s->m * s->k <= (1L << 22) &&
	       (long)s->k * s->n <= (1L << 22) && (long)s->m * s->n <= (1L << 22) && s->k <= 4096;
}

std::string check(const variant &v, const shape &s)
{
	const int M = s.m, N = s.n, K = s.k;
	host_buffer ab((size_t)M * K * 4, s.shift[0] * 4), bb((size_t)K * N * 4, s.shift[1] * 4),
		cb((size_t)M * N * 4, s.shift[2] * 4);
	float *a = (float *)ab.p, *b = (float *)bb.p, *c = (float *)cb.p;
	/* Nonzero, so that every term counts: a missing one shows. */
	auto value = [](size_t h) {
		const int x = (int)(h % 8) - 4;
		return (float)(x >= 0 ? x + 1 : x);
	};
	for (size_t i = 0; i < (size_t)M * K; i++)
		a[i] = value(i * 2654435761u >> 9);
	for (size_t i = 0; i < (size_t)K * N; i++)
		b[i] = value((i * 40503u + 17) >> 5);
	const size_t used = v.smem();
	if (used > SMEM_FLOATS)
		return "needs more shared memory than the runner has";
	for (size_t i = used; i < SMEM_FLOATS; i++)
		std::memcpy(&gt_smem[i], &GUARD_BITS, 4);

	/* The injected fault: the variant gets A without its last column. */
	host_buffer ab_wrong((size_t)M * K * 4, s.shift[0] * 4);
	float *a_in = a;
	if (host_inject(v.name) == 1) {
		a_in = (float *)ab_wrong.p;
		for (size_t i = 0; i < (size_t)M * K; i++)
			a_in[i] = i % K == (size_t)K - 1 ? 0.0f : a[i];
	}
	if (const char *fault = v.fn(a_in, b, c, M, N, K))
		return fault;
	char buf[160];
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			long want = 0;
			for (int k = 0; k < K; k++)
				want += (long)a[(size_t)i * K + k] * (long)b[(size_t)k * N + j];
			const float got = c[(size_t)i * N + j];
			if (got != (float)want) {
				std::snprintf(buf, sizeof buf, "C[%d][%d] is %g, not %ld", i, j, got, want);
				return buf;
			}
		}
	const std::string guard = cb.guard_text("C");
	if (!guard.empty())
		return guard;
	for (size_t i = used; i < SMEM_FLOATS; i++)
		if (std::memcmp(&gt_smem[i], &GUARD_BITS, 4)) {
			std::snprintf(buf, sizeof buf, "wrote shared float %zu, past its %zu", i, used);
			return buf;
		}
	return "";
}

} /* namespace */

int main(int argc, char **argv)
{
	return host_main(argc, argv, "MxNxK[+S or +SA/SB/SC]", parse, check, variants);
}
