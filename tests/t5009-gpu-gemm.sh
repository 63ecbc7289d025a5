#!/bin/sh
# On a GPU: the matrix multiply tunes at sizes that are multiples of no
# tile (M, N, K odd, K smaller than a k-step, a single row) and at a
# power of two, and its stages filled by cp.async (async) at odd sizes
# too; every correct variant is 'ok', checked against the GPU's
# double-precision reference; a variant that leaves out one product per
# output is 'wrong' on the exact input and never wins; the figure is
# GFLOP/s against a measured FMA ceiling; tiles of 96 rows too; the
# family's default search
# measures its budget, and then each size's best at the others; validate
# measures the choice at held-out sizes; --probe-search searches extra
# sizes of its own; an exported header's kernel,
# built by nvcc, at a size nobody tuned, agrees exactly with a host
# reference (inputs whose every partial sum is exact).
. "$(dirname "$0")/setup"
skip_without_gpu
SQL="$top_builddir/tests/sqlexec"
q() { "$SQL" "$GPUTUNE_DB" "$1"; }

space="--strategy exhaustive --param bm=32,128 --param bn=64 --param bk=8,16 --param wm=32 --param wn=32,64
	--param tm=4,8 --param tn=4 --param vec=1,4 --param pad=0,4 --param dbuf=all --param group=1,8
	--param inject=none,wrong"
# The fault is in a test copy of the template (tests/faults/README).
fault_templates "$T/faults"
# shellcheck disable=SC2086
run_gt 0 gemm --templates "$T/faults" --sizes 1x1x1,97x65x3,333x222x111,512 --quiet --no-probe $space
cat "$T/out"
# checks_at M N K: every variant at M x N x K is right but the injected
# ones, which are wrong on the exact input, and the winner is right.
checks_at() {
	j="FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE m.rows = $1 AND m.cols = $2 AND m.depth = $3"
	check "$1x$2x$3: every variant without the injected fault is right" \
		test "$(q "SELECT count(*) $j AND v.params NOT LIKE '%inject%' AND m.status <> 'ok'")" = 0
	check "$1x$2x$3: the variant that leaves out a product is 'wrong' on the exact input" \
		test "$(q "SELECT count(*) $j AND v.params LIKE '%inject=wrong%' AND (m.status <> 'wrong' OR m.reason NOT LIKE '%exact%')")" = 0
	check "$1x$2x$3: injected variants were measured" test "$(q "SELECT count(*) $j AND v.params LIKE '%inject=wrong%'")" -gt 0
	check "$1x$2x$3: the winner is a correct variant" \
		test "$(q "SELECT count(*) FROM winner w JOIN measurement m ON m.id = w.measurement_id JOIN variant v ON v.id = m.variant_id WHERE w.rows = $1 AND w.cols = $2 AND w.depth = $3 AND v.params NOT LIKE '%inject%'")" = 1
}
for s in "1 1 1" "97 65 3" "333 222 111" "512 512 512"; do
	# shellcheck disable=SC2086
	checks_at $s
done
q "SELECT m.reason FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.params LIKE '%inject=wrong%' LIMIT 1" | sed 's/^/# reason: /'
check "the FMA ceiling is stored per size, in GFLOP/s" \
	test "$(q "SELECT count(*) FROM ceiling WHERE kind = 'fma' AND ceiling_gbps > 1000")" = 4
check "the 512-cube winner's GFLOP/s is 2 M N K over its median" \
	test "$(q "SELECT abs(m.gbps - 2.0 * 512 * 512 * 512 / (m.median_ms * 1e-3) / 1e9) < 1 FROM winner w JOIN measurement m ON m.id = w.measurement_id WHERE w.depth = 512")" = 1
grep_in "$T/out" "ceiling_gflops"
grep_in "$T/out" "vs_tiled16"
run_gt 0 query --kernel gemm --no-shipped --size 333x222x111
grep_in "$T/out" "333x222x111"

# Stages filled by cp.async (async=2 to 4), at sizes of every remainder:
# the tiles' edges are zeros the copies fill.
async="--strategy exhaustive --param bm=32,128 --param bn=64 --param bk=8,16 --param wm=32 --param wn=32
	--param tm=4 --param tn=4 --param vec=1,4 --param pad=0,4 --param dbuf=0 --param group=8 --param async=2,3,4
	--param inject=none,wrong"
# shellcheck disable=SC2086
run_gt 0 gemm --templates "$T/faults" --sizes 97x65x5,333x222x113,130x67x1001 --quiet --no-probe $async
for s in "97 65 5" "333 222 113" "130 67 1001"; do
	# shellcheck disable=SC2086
	checks_at $s
done
check "async variants were measured" \
	test "$(q "SELECT count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.params LIKE '%async=4%' AND m.status = 'ok'")" -gt 0

# The family's default: a genetic search of its budget per size.
run_gt 0 gemm --sizes 300x200x100 --quiet --no-probe --budget 24 --seed 3
check "the default search measured its budget at the size" \
	test "$(q "SELECT count(DISTINCT m.variant_id) FROM measurement m WHERE m.rows = 300 AND m.cols = 200 AND m.depth = 100")" -eq 24

# After a search of several sizes, each size's fastest variants are
# measured at the others (the exported choice's candidates).  Without the
# extra sizes' searches (checked below), which this check does not need.
run_gt 0 gemm --sizes 200x300x100,300x200x100 --quiet --budget 12 --seed 5 --probe-search 0
grep_in "$T/out" "measuring each size's 4 best at the others"
for pair in "200 300 300 200" "300 200 200 300"; do
	set -- $pair
	check "the 4 fastest at $1x$2x100 are measured at $3x$4x100" \
		test "$(q "SELECT count(*) FROM (SELECT m.variant_id FROM measurement m WHERE m.rows = $1 AND m.cols = $2 AND m.depth = 100 AND m.status = 'ok' ORDER BY m.gbps DESC LIMIT 4) t WHERE NOT EXISTS (SELECT 1 FROM measurement x WHERE x.variant_id = t.variant_id AND x.rows = $3 AND x.cols = $4 AND x.depth = 100)")" = 0
done

# The extra sizes: with --probe-search 0 they measure variants of the
# requested sizes only; with a search there (the default's 24, here 16:
# past the 3 classics and the family's 7 seeds, which a search measures
# first), the searched ones (few tiles, and small) search for more, whose
# fastest are then measured at every size.
# variants_beyond DB: variants measured at an extra size of the 256 and
# 512 cubes' run and at neither cube.
variants_beyond() {
	"$SQL" "$1" "SELECT count(DISTINCT m.variant_id) FROM measurement m WHERE m.status = 'ok' AND m.rows NOT IN (256, 512)
		AND m.variant_id NOT IN (SELECT variant_id FROM measurement WHERE rows IN (256, 512) AND rows = cols AND cols = depth)"
}
for ps in 0 16; do
	run_gt 0 gemm --db "$T/probe$ps.db" --sizes 256,512 --quiet --budget 16 --seed 7 --probe-search $ps
done
check "with --probe-search 0, the extra sizes measure only the requested sizes' variants" \
	test "$(variants_beyond "$T/probe0.db")" = 0
check "with --probe-search 16, the searched extra sizes measure variants of their own" \
	test "$(variants_beyond "$T/probe16.db")" -gt 0
at512() {
	"$SQL" "$1" "SELECT count(DISTINCT variant_id) FROM measurement WHERE rows = 512 AND cols = 512 AND depth = 512"
}
check "...and their fastest are measured at the requested sizes ($(at512 "$T/probe16.db") variants at 512^3, $(at512 "$T/probe0.db") without)" \
	test "$(at512 "$T/probe16.db")" -gt "$(at512 "$T/probe0.db")"

# validate: the header's choice at held-out sizes, each then tuned by the
# default search, with the choice always measured.
run_gt 0 validate gemm --sizes 300x500x200,129x257x65 --quiet
cat "$T/out"
grep_in "$T/out" "held-out f32 on"
check "validate stored both held-out points with the choice's figure" \
	test "$(q "SELECT count(*) FROM validation WHERE depth IN (200, 65) AND gbps > 0 AND best_gbps >= gbps")" = 2

# The exported header, built by nvcc, at a size nobody tuned.
if [ -n "$NVCC" ] && command -v "$NVCC" >/dev/null 2>&1; then
	run_gt 0 export --kernel gemm --format header --no-shipped --output "$T/gputune_gemm.h"
	cat >"$T/use.cu" <<'CU'
#include <cmath>
#include <cstdio>
#include <vector>
#include "gputune_gemm.h"
int main(void)
{
	const int m = 301, n = 203, k = 77;
	std::vector<float> a((size_t)m * k), b((size_t)k * n), c((size_t)m * n);
	for (size_t i = 0; i < a.size(); i++)
		a[i] = (float)((int)(i * 7 % 13) - 6) / 8;
	for (size_t i = 0; i < b.size(); i++)
		b[i] = (float)((int)(i * 5 % 11) - 5) / 4;
	cudaDeviceProp p;
	cudaGetDeviceProperties(&p, 0);
	int v = gputune_gemm_choose(p.name, p.major * 10 + p.minor, "f32", m, n, k);
	float *A, *B, *C;
	cudaMalloc(&A, a.size() * 4);
	cudaMalloc(&B, b.size() * 4);
	cudaMalloc(&C, c.size() * 4);
	cudaMemcpy(A, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
	cudaMemcpy(B, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
	if (gputune_gemm_launch(v, A, B, C, m, n, k, 0) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess)
		return 2;
	/* Then calibration at the same size, C cleared first: its launches
	 * must leave the product, and its pick be one of the ranked. */
	int cv = -1, ranked[GPUTUNE_CHOICE_MAX_RANK];
	long bad = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1 && (cudaMemset(C, 0, c.size() * 4) != cudaSuccess ||
				  gputune_gemm_calibrate("f32", A, B, C, m, n, k, 0, &cv) != cudaSuccess))
			return 2;
		cudaMemcpy(c.data(), C, c.size() * 4, cudaMemcpyDeviceToHost);
		/* The inputs are multiples of 1/32 below 1 in size: every product
		 * and partial sum is exact in single precision, so any order is. */
		long wrong = 0;
		for (int i = 0; i < m; i++)
			for (int j = 0; j < n; j++) {
				double s = 0;
				for (int x = 0; x < k; x++)
					s += (double)a[(size_t)i * k + x] * b[(size_t)x * n + j];
				wrong += c[(size_t)i * n + j] != s;
			}
		int u = pass ? cv : v;
		printf("%s variant %d (%s): %ld of %d outputs differ\n", pass ? "calibrated" : "chosen", u,
		       gputune_gemm_variants[u].params, wrong, m * n);
		bad += wrong;
	}
	int nr = gputune_gemm_candidates(p.name, p.major * 10 + p.minor, "f32", m, n, k, ranked,
					 GPUTUNE_GEMM_CALIBRATE), in_ranking = 0;
	for (int i = 0; i < nr; i++)
		in_ranking |= ranked[i] == cv;
	printf("the pick is %sone of the %d ranked\n", in_ranking ? "" : "not ", nr);
	return bad != 0 || !in_ranking;
}
CU
	nvcc_runs "$T/use.cu" "the header's kernel, and its calibration's pick, multiply right at an untuned size"
fi

# Split-K: a tile's blocks in one cluster, each multiplying a slice of K,
# summed in order over their shared memories.  At K longer than the slices
# (and shorter: 3 has one round, so all but one block sum zeros), with M
# and N off every tile, every variant is right on both inputs; its result
# is the same bits at every launch (the sum's order is fixed), which the
# exported header's kernels show below.
export GPUTUNE_DB="$T/split.db"
split="--strategy exhaustive --param bm=32,64 --param bn=64 --param bk=8,16 --param wm=32 --param wn=32
	--param tm=4 --param tn=4 --param vec=1,4 --param pad=4 --param dbuf=all --param group=1,8
	--param split=1,2,3,4,6,8"
# shellcheck disable=SC2086
run_gt 0 gemm --sizes 97x65x1000,130x70x3,64x64x4096 --quiet --no-probe $split
for s in "97 65 1000" "130 70 3" "64 64 4096"; do
	set -- $s
	j="FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE m.rows = $1 AND m.cols = $2 AND m.depth = $3"
	check "$1x$2x$3: every split-K variant is right" \
		test "$(q "SELECT count(*) $j AND v.params LIKE '%split=%' AND m.status = 'ok'")" -ge 40 -a \
		"$(q "SELECT count(*) $j AND m.status <> 'ok'")" = 0
done
q "SELECT v.params, round(m.gbps) FROM winner w JOIN measurement m ON m.id = w.measurement_id JOIN variant v ON v.id = m.variant_id WHERE w.depth = 4096" | sed 's/^/# 64x64x4096 winner: /'
# Tiles of 96 rows (warps of 48 rows: three sub-tiles down), unsplit and
# split over 2, 3 and 4 blocks, each way of loading (flat off, on, lanes),
# at sizes off every tile: right but for the injected fault, caught.
export GPUTUNE_DB="$T/rows96.db"
rows96="--strategy exhaustive --param bm=96 --param bn=64,128 --param bk=16 --param wm=48 --param wn=32,64
	--param tm=4 --param tn=4 --param vec=4 --param pad=4 --param dbuf=1 --param group=8 --param split=1,2,3,4
	--param flat=off,on,lanes --param inject=none,wrong"
# shellcheck disable=SC2086
run_gt 0 gemm --templates "$T/faults" --sizes 333x222x1001 --quiet --no-probe $rows96
checks_at 333 222 1001
check "tiles of 96 rows: the 36 valid variants without the fault measured" \
	test "$(q "SELECT count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.params LIKE 'bm=96,%' AND v.params NOT LIKE '%inject%' AND m.status = 'ok'")" = 36
# Past the 48 KiB of shared memory a launch gets without opting in (the
# partial tile of 128 x 128, 64 KiB): the tuner's launches opt in, the
# variants are right, the injected fault is caught, and the size's winner
# is among the header's kernels below, whose launch opts in too.
big="--strategy exhaustive --param bm=128 --param bn=128 --param bk=8 --param wm=64 --param wn=64 --param tm=8
	--param tn=4 --param vec=4 --param pad=4 --param dbuf=1 --param group=8 --param split=2,3,4 --param inject=none,wrong"
# shellcheck disable=SC2086
run_gt 0 gemm --templates "$T/faults" --sizes 200x300x2000 --quiet --no-probe $big
checks_at 200 300 2000
if [ -n "$NVCC" ] && command -v "$NVCC" >/dev/null 2>&1; then
	run_gt 0 export --kernel gemm --format header --no-shipped --output "$T/split.h"
	cat >"$T/split.cu" <<'CU'
#include <cstdio>
#include <cstring>
#include <vector>
#include "split.h"
/* Every variant of the header at an untuned size, twice: exact against
 * the host, and the same bits both times. */
int main(int argc, char **argv)
{
	const int m = 77, n = 131, k = 1333;
	const int split_only = argc > 1; /* the split-K variants alone */
	std::vector<float> a((size_t)m * k), b((size_t)k * n), c((size_t)m * n), d(c.size());
	for (size_t i = 0; i < a.size(); i++)
		a[i] = (float)((int)(i * 7 % 13) - 6) / 8;
	for (size_t i = 0; i < b.size(); i++)
		b[i] = (float)((int)(i * 5 % 11) - 5) / 4;
	float *A, *B, *C;
	cudaMalloc(&A, a.size() * 4);
	cudaMalloc(&B, b.size() * 4);
	cudaMalloc(&C, c.size() * 4);
	cudaMemcpy(A, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
	cudaMemcpy(B, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
	int bad = 0, splits = 0;
	for (int v = 0; v < GPUTUNE_GEMM_NUM_VARIANTS; v++) {
		if (split_only && gputune_gemm_variants[v].config.split == 1)
			continue;
		long wrong = 0;
		for (int pass = 0; pass < 2; pass++) {
			cudaMemset(C, 0, c.size() * 4);
			if (gputune_gemm_launch(v, A, B, C, m, n, k, 0) != cudaSuccess ||
			    cudaDeviceSynchronize() != cudaSuccess)
				return 2;
			cudaMemcpy(pass ? d.data() : c.data(), C, c.size() * 4, cudaMemcpyDeviceToHost);
		}
		for (int i = 0; i < m; i++)
			for (int j = 0; j < n; j++) {
				double s = 0;
				for (int x = 0; x < k; x++)
					s += (double)a[(size_t)i * k + x] * b[(size_t)x * n + j];
				wrong += c[(size_t)i * n + j] != s;
			}
		int same = !memcmp(c.data(), d.data(), c.size() * 4);
		splits += gputune_gemm_variants[v].config.split > 1;
		printf("variant %d (%s): %ld of %d outputs differ, %s\n", v, gputune_gemm_variants[v].params, wrong,
		       m * n, same ? "the same bits twice" : "NOT the same bits twice");
		bad += wrong != 0 || !same;
	}
	unsigned g[3], t[3], smem, big = 0;
	for (int v = 0; v < GPUTUNE_GEMM_NUM_VARIANTS; v++) {
		gputune_gemm_geometry(v, m, n, k, g, t, &smem);
		big += smem > 48 * 1024;
	}
	printf("%d of %d variants split K, %u take over 48 KiB of shared memory\n", splits, GPUTUNE_GEMM_NUM_VARIANTS, big);
	return bad != 0 || splits == 0 || big == 0;
}
CU
	nvcc_runs "$T/split.cu" "every kernel of the header, split-K ones and ones over 48 KiB of shared memory among them, multiplies right, the same bits at each launch"
	# Built as nvcc builds by default, for an older GPU whose PTX this one
	# compiles at load: no clusters, so each split-K tile is multiplied
	# whole by its first block.
	check "nvcc builds the split-K consumer as PTX for compute capability 8.0" \
		"$NVCC" -O2 -std=c++17 -gencode arch=compute_80,code=compute_80 -I"$T" -o "$T/split80" "$T/split.cu"
	check "from that PTX, the split-K kernels multiply right, the same bits at each launch" "$T/split80" split-only
fi
done_testing
