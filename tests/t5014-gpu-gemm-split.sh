#!/bin/sh
# On a GPU: the matrix multiply's kernels that split K over a cluster's
# blocks, its tiles of 96 rows and its tiles past 48 KiB of shared memory,
# at sizes off every tile: every variant right (and a split one's result
# the same bits at every launch), a variant that leaves out one product
# per output 'wrong' on the exact input and never the winner; then every
# kernel of an exported header of them, built by nvcc for this GPU and as
# PTX for compute capability 8.0 (no clusters), agrees exactly with a host
# reference at a size nobody tuned.  (The rest of the family: t5009.)
. "$(dirname "$0")/setup"
skip_without_gpu
SQL="$top_builddir/tests/sqlexec"
q() { "$SQL" "$GPUTUNE_DB" "$1"; }
# The fault is in a test copy of the template (tests/faults/README).
fault_templates "$T/faults"

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
# Split-K after cp.async stages (async, with dbuf 0 and 2): the cluster's
# sum reuses the stages' memory once the last copies are in; right but
# for the injected fault, caught.
asplit="--strategy exhaustive --param bm=32,64 --param bn=64 --param bk=8,16 --param wm=32 --param wn=32
	--param tm=4 --param tn=4 --param vec=4 --param pad=4 --param dbuf=0,2 --param group=8 --param async=2,3,4
	--param split=2,3 --param inject=none,wrong"
# shellcheck disable=SC2086
run_gt 0 gemm --templates "$T/faults" --sizes 97x65x1000 --quiet --no-probe $asplit
gemm_fault_checks 97 65 1000
check "split-K variants of async with dbuf=2 measured" \
	test "$(q "SELECT count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.params LIKE '%dbuf=2%split=3%async=%' AND v.params NOT LIKE '%inject%' AND m.status = 'ok'")" -gt 0
# Tiles of 96 rows (warps of 48 rows: three sub-tiles down), unsplit and
# split over 2, 3 and 4 blocks, each way of loading (flat off, on, lanes,
# rows, floats), at sizes off every tile: right but for the injected fault, caught.
export GPUTUNE_DB="$T/rows96.db"
rows96="--strategy exhaustive --param bm=96 --param bn=64,128 --param bk=16 --param wm=48 --param wn=32,64
	--param tm=4 --param tn=4 --param vec=4 --param pad=4 --param dbuf=1 --param group=8 --param split=1,2,3,4
	--param flat=off,on,lanes,rows,floats --param inject=none,wrong"
# shellcheck disable=SC2086
run_gt 0 gemm --templates "$T/faults" --sizes 333x222x1001 --quiet --no-probe $rows96
gemm_fault_checks 333 222 1001
check "tiles of 96 rows: the 60 valid variants without the fault measured" \
	test "$(q "SELECT count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.params LIKE 'bm=96,%' AND v.params NOT LIKE '%inject%' AND m.status = 'ok'")" = 60
# Past the 48 KiB of shared memory a launch gets without opting in (the
# partial tile of 128 x 128, 64 KiB): the tuner's launches opt in, the
# variants are right, the injected fault is caught, and the size's winner
# is among the header's kernels below, whose launch opts in too.
big="--strategy exhaustive --param bm=128 --param bn=128 --param bk=8 --param wm=64 --param wn=64 --param tm=8
	--param tn=4 --param vec=4 --param pad=4 --param dbuf=1 --param group=8 --param split=2,3,4 --param inject=none,wrong"
# shellcheck disable=SC2086
run_gt 0 gemm --templates "$T/faults" --sizes 200x300x2000 --quiet --no-probe $big
gemm_fault_checks 200 300 2000
if [ -n "$NVCC" ] && command -v "$NVCC" >/dev/null 2>&1; then
	run_gt 0 export --kernel gemm --format header --no-shipped --output "$T/split.h"
	cp "$top_srcdir/tests/gemm-exact.h" "$T/"
	cat >"$T/split.cu" <<'CU'
#include <cstdio>
#include <cstring>
#include <vector>
#include "split.h"
#include "gemm-exact.h"
/* Every variant of the header at an untuned size, twice: exact against
 * the host, and the same bits both times. */
int main(int argc, char **argv)
{
	const int m = 77, n = 131, k = 1333;
	const int split_only = argc > 1; /* the split-K variants alone */
	gemm_exact e;
	std::vector<float> c((size_t)m * n), d(c.size());
	if (gemm_exact_init(e, m, n, k) != 0)
		return 2;
	int bad = 0, splits = 0;
	for (int v = 0; v < GPUTUNE_GEMM_NUM_VARIANTS; v++) {
		if (split_only && gputune_gemm_variants[v].config.split == 1)
			continue;
		for (int pass = 0; pass < 2; pass++) {
			cudaMemset(e.C, 0, c.size() * 4);
			if (gputune_gemm_launch(v, e.A, e.B, e.C, m, n, k, 0) != cudaSuccess ||
			    cudaDeviceSynchronize() != cudaSuccess)
				return 2;
			cudaMemcpy(pass ? d.data() : c.data(), e.C, c.size() * 4, cudaMemcpyDeviceToHost);
		}
		long wrong = gemm_exact_wrong(e, c.data());
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
