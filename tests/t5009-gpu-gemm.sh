#!/bin/sh
# On a GPU: the matrix multiply tunes at sizes that are multiples of no
# tile (M, N, K odd, K smaller than a k-step, a single row) and at a
# power of two, and its stages filled by cp.async (async, with and
# without dbuf=2's fragments a step ahead) at odd sizes too; every
# correct variant is 'ok', checked against the GPU's double-precision
# reference; a variant that leaves out one product per
# output is 'wrong' on the exact input and never wins; the figure is
# GFLOP/s against a measured FMA ceiling; the family's default search
# measures its budget, and then each size's best at the others; validate
# measures the choice at held-out sizes; --probe-search searches extra
# sizes of its own; an exported header's kernel, built by nvcc, at a size
# nobody tuned, agrees exactly with a host reference (inputs whose every
# partial sum is exact).  Split K, tiles of 96 rows and tiles past 48 KiB
# of shared memory: t5014.
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
for s in "1 1 1" "97 65 3" "333 222 111" "512 512 512"; do
	# shellcheck disable=SC2086
	gemm_fault_checks $s
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

# async_checks WHAT LIKE PARAM...: the variants of the space PARAM... (with
# the fault) at sizes of every remainder, each right but for the fault,
# which is caught; and some whose name is LIKE measured 'ok'.
async_checks() {
	_what=$1 _like=$2
	shift 2
	run_gt 0 gemm --templates "$T/faults" --sizes 97x65x5,333x222x113,130x67x1001 --quiet --no-probe \
		--strategy exhaustive "$@" --param inject=none,wrong
	for s in "97 65 5" "333 222 113" "130 67 1001"; do
		# shellcheck disable=SC2086
		gemm_fault_checks $s
	done
	check "$_what were measured" \
		test "$(q "SELECT count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.params LIKE '$_like' AND m.status = 'ok'")" -gt 0
}
# Stages filled by cp.async (async=2 to 4), at sizes of every remainder:
# the tiles' edges are zeros the copies fill.
async_checks "async variants" "%async=4%" --param bm=32,128 --param bn=64 --param bk=8,16 --param wm=32 --param wn=32 \
	--param tm=4 --param tn=4 --param vec=1,4 --param pad=0,4 --param dbuf=0 --param group=8 --param async=2,3,4
# The same stages with each step's fragments read a step ahead (dbuf=2),
# whose wait and barrier for the next round come before a round's last
# step.
async_checks "async variants with dbuf=2" "%dbuf=2%async=3%" --param bm=32,128 --param bn=64 --param bk=8,16 \
	--param wm=32 --param wn=32 --param tm=4 --param tn=4 --param vec=4 --param pad=4 --param dbuf=2 --param group=8 \
	--param async=2,3,4

# The family's default: a genetic search of its budget per size.
run_gt 0 gemm --sizes 300x200x100 --quiet --no-probe --budget 24 --seed 3
check "the default search measured its budget at the size" \
	test "$(q "SELECT count(DISTINCT m.variant_id) FROM measurement m WHERE m.rows = 300 AND m.cols = 200 AND m.depth = 100")" -eq 24

# After a search of several sizes, each size's fastest variants are
# measured at the others (the exported choice's candidates).  Without the
# extra sizes' searches (checked below), which this check does not need;
# unsplit, whose space holds two seeds (in the whole space the seeds fill
# the budget and are the 4 fastest at both sizes, measured at both
# already); into a database of its own, whose every variant is a point of
# the run's space.
run_gt 0 gemm --db "$T/cross.db" --sizes 200x300x100,300x200x100 --quiet --budget 12 --seed 5 --probe-search 0 \
	--param split=1
grep_in "$T/out" "measuring each size's 4 best at the others"
for pair in "200 300 300 200" "300 200 200 300"; do
	set -- $pair
	check "the 4 fastest at $1x$2x100 are measured at $3x$4x100" \
		test "$("$SQL" "$T/cross.db" "SELECT count(*) FROM (SELECT m.variant_id FROM measurement m WHERE m.rows = $1 AND m.cols = $2 AND m.depth = 100 AND m.status = 'ok' ORDER BY m.gbps DESC LIMIT 4) t WHERE NOT EXISTS (SELECT 1 FROM measurement x WHERE x.variant_id = t.variant_id AND x.rows = $3 AND x.cols = $4 AND x.depth = 100)")" = 0
done

# The extra sizes: with --probe-search 0 they measure variants of the
# requested sizes only; with a search there (the default's 24, here 20:
# past the 3 classics and the family's 12 seeds, which a search measures
# first), the searched ones (few tiles, and small) search for more, whose
# fastest are then measured at every size.
# variants_beyond DB: variants measured at an extra size of the 256 and
# 512 cubes' run and at neither cube.
variants_beyond() {
	"$SQL" "$1" "SELECT count(DISTINCT m.variant_id) FROM measurement m WHERE m.status = 'ok' AND m.rows NOT IN (256, 512)
		AND m.variant_id NOT IN (SELECT variant_id FROM measurement WHERE rows IN (256, 512) AND rows = cols AND cols = depth)"
}
for ps in 0 20; do
	run_gt 0 gemm --db "$T/probe$ps.db" --sizes 256,512 --quiet --budget 20 --seed 7 --probe-search $ps
done
check "with --probe-search 0, the extra sizes measure only the requested sizes' variants" \
	test "$(variants_beyond "$T/probe0.db")" = 0
# The family's seeds are candidates at every extra size, whatever their
# rank at the requested sizes (which the 8 fastest of each decide for the
# other variants).
run_gt 0 help gemm
family_seeds "$T/out" >"$T/seeds"
nsizes=$("$SQL" "$T/probe0.db" "SELECT count(DISTINCT rows || 'x' || cols || 'x' || depth) FROM measurement")
unmeasured=0
while read -r seed; do
	at=$("$SQL" "$T/probe0.db" "SELECT count(DISTINCT m.rows || 'x' || m.cols || 'x' || m.depth) FROM measurement m
		JOIN variant v ON v.id = m.variant_id WHERE v.params = '$seed'")
	[ "$at" = "$nsizes" ] || { echo "# $seed: measured at $at of $nsizes sizes"; unmeasured=$((unmeasured + 1)); }
done <"$T/seeds"
check "each of the $(wc -l <"$T/seeds") seeds is measured at every one of the run's $nsizes sizes" \
	test "$unmeasured" = 0 -a "$nsizes" -gt 2
check "with --probe-search 20, the searched extra sizes measure variants of their own" \
	test "$(variants_beyond "$T/probe20.db")" -gt 0
at512() {
	"$SQL" "$1" "SELECT count(DISTINCT variant_id) FROM measurement WHERE rows = 512 AND cols = 512 AND depth = 512"
}
check "...and their fastest are measured at the requested sizes ($(at512 "$T/probe20.db") variants at 512^3, $(at512 "$T/probe0.db") without)" \
	test "$(at512 "$T/probe20.db")" -gt "$(at512 "$T/probe0.db")"

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
	cp "$top_srcdir/tests/gemm-exact.h" "$T/"
	cat >"$T/use.cu" <<'CU'
#include <cstdio>
#include <vector>
#include "gputune_gemm.h"
#include "gemm-exact.h"
int main(void)
{
	const int m = 301, n = 203, k = 77;
	gemm_exact g;
	std::vector<float> c((size_t)m * n);
	if (gemm_exact_init(g, m, n, k) != 0)
		return 2;
	cudaDeviceProp p;
	cudaGetDeviceProperties(&p, 0);
	int v = gputune_gemm_choose(p.name, p.major * 10 + p.minor, "f32", m, n, k);
	if (gputune_gemm_launch(v, g.A, g.B, g.C, m, n, k, 0) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess)
		return 2;
	/* Then calibration at the same size, C cleared first: its launches
	 * must leave the product, and its pick be one of the ranked. */
	int cv = -1, ranked[GPUTUNE_CHOICE_MAX_RANK];
	long bad = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1 && (cudaMemset(g.C, 0, c.size() * 4) != cudaSuccess ||
				  gputune_gemm_calibrate("f32", g.A, g.B, g.C, m, n, k, 0, &cv) != cudaSuccess))
			return 2;
		cudaMemcpy(c.data(), g.C, c.size() * 4, cudaMemcpyDeviceToHost);
		long wrong = gemm_exact_wrong(g, c.data());
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
done_testing
