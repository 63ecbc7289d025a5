#!/bin/sh
# gemm-run.sh - the matrix multiply against cuBLAS, on a machine with a
# GPU, in stages that can run in one go or in calls sharing OUTDIR:
#   tune   from an empty database and compile cache, `gputune gemm --sizes
#          $GEMM_SIZES` (default 1024-8192; $GEMM_DEVICES, when set, is its
#          --devices; $GEMM_OPTIONS, when set, more of its options), timed, its summary kept; then the header exported
#          from that database alone, and the database gzipped beside it
#          (OUTDIR/gemm.db.gz).
#   split  the split-K study: `gputune gemm` at shapes of few tiles and a
#          long K (default space), and each size's best of each split
#          value from the database.
#   grid   a study of one parameter: `gputune gemm --strategy exhaustive
#          --no-probe` at $GEMM_GRID_SIZES over the points $GEMM_GRID
#          (--param options) into a database of its own, each size's best
#          of each value of $GEMM_GRID_BY (default async), then the header
#          exported from that database against cuBLAS at those sizes
#          ($GEMM_GRID_TIMEOUT, when set, stops the tuning after that many
#          seconds; what it measured stays); with $GEMM_EVERY set, every
#          kernel of that header too, into OUTDIR/grid-every.csv.
#   profile  Nsight Compute (ncu) over one launch of cuBLAS's kernel and
#          one of the header's choice (OUTDIR/gputune_gemm.h, from tune or
#          grid) at each of $GEMM_PROFILE_SHAPES (default 4096x4096x4096):
#          the kernel's name, grid, registers, shared memory, instructions
#          and how busy it keeps the issue slots, the full reports in
#          OUTDIR/ncu-SHAPE.txt.
#   bench  bench/gemm-bench.cu built by nvcc against the header, timing
#          the header's choice and cuBLAS SGEMM (pedantic FP32) at the ten
#          shapes of the held-out table and $GEMM_RANDOM (default 20
#          random shapes in [512, 8192]^3), every result checked; with
#          $GEMM_EVERY set, every kernel of the header too, each shape's
#          best of them printed beside the choice and every figure in
#          OUTDIR/every.csv, which bench/gemm-replay.sh reads.
# Usage: bench/gemm-run.sh OUTDIR [tune|split|grid|profile|bench|all]   (from the source
# tree, gputune built).
set -eu
out=${1:?usage: bench/gemm-run.sh OUTDIR [tune|split|grid|profile|bench|all]}
stage=${2:-all}
db=gemm.db
. "$(dirname "$0")/setup.sh"
SIZES=${GEMM_SIZES:-1024-8192}
TABLE="2048x2048x2048 4096x4096x4096 8192x8192x8192 3000x3000x3000 2500x2500x7000 5000x2000x1000
	1536x6144x2048 1000x1000x1000 6000x6000x512 777x1333x2049"
RANDOM_SHAPES=${GEMM_RANDOM:-random:20:512-8192:59}
echo "# gemm, $(date -u +%Y-%m-%d), commit $commit"
# bench/gemm-bench.cu built by nvcc against OUTDIR's header, into $work.
build_bench() {
	"$NVCC" -O3 -std=c++17 -arch=native -I. -I"$out" -DGPUTUNE_GEMM_HEADER='"gputune_gemm.h"' \
		bench/gemm-bench.cu -lcublas -o "$work/gemm-bench"
}

if [ "$stage" = tune ] || [ "$stage" = all ]; then
	rm -f "$GPUTUNE_DB"
	s=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$GPUTUNE" gemm --sizes "$SIZES" ${GEMM_DEVICES:+--devices "$GEMM_DEVICES"} ${GEMM_OPTIONS:-} \
		>"$out/tune.txt" 2>"$out/tune.err"
	echo "## gputune gemm --sizes $SIZES${GEMM_DEVICES:+ --devices $GEMM_DEVICES}${GEMM_OPTIONS:+ $GEMM_OPTIONS}, cold: $(seconds "$s" "$(date +%s.%N)") s"
	cat "$out/tune.txt"
	# Each size's account (variants, seconds, the compiler's share), and
	# the sizes of long launches that started from a smaller one's fastest.
	grep "variants in\|launches of" "$out/tune.err" || true
	"$GPUTUNE" export --kernel gemm --no-shipped -o "$out/gputune_gemm.h"
	# A compressed copy beside it: a run's database (17 MB for 1024-8192,
	# 2.5 MB gzipped) is what db/shipped.json and bench/gemm-replay.sh
	# take, and may be too large to bring back from a GPU machine whole.
	gzip -9c "$GPUTUNE_DB" >"$GPUTUNE_DB.gz"
fi
if [ "$stage" = split ] || [ "$stage" = all ]; then
	sdb="$out/split.db"
	rm -f "$sdb"
	s=$(date +%s.%N)
	GPUTUNE_DB="$sdb" "$GPUTUNE" gemm --sizes "${GEMM_SPLIT_SIZES:-777x1333x2049,1000x1000x1000,512x512x8192}" \
		--no-probe --quiet >"$out/split.txt" 2>&1
	echo "## split-K study: $(seconds "$s" "$(date +%s.%N)") s; each size's best of each split value, TFLOP/s"
	"$(dirname "$0")/../tests/sqlexec" "$sdb" "SELECT m.rows || 'x' || m.cols || 'x' || m.depth, \
		CASE WHEN v.params LIKE '%split=%' THEN substr(v.params, instr(v.params, 'split=') + 6, 1) ELSE '1' END AS s, \
		round(max(m.gbps) / 1000, 2), count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id \
		WHERE m.status = 'ok' GROUP BY 1, 2 ORDER BY 1, 2"
fi
if [ "$stage" = grid ]; then
	gdb="$out/grid.db" by=${GEMM_GRID_BY:-async}
	gsizes=${GEMM_GRID_SIZES:?GEMM_GRID_SIZES: the sizes of the grid study}
	rm -f "$gdb"
	s=$(date +%s.%N)
	# shellcheck disable=SC2086
	GPUTUNE_DB="$gdb" ${GEMM_GRID_TIMEOUT:+timeout "$GEMM_GRID_TIMEOUT"} "$GPUTUNE" gemm --sizes "$gsizes" --no-probe --strategy exhaustive ${GEMM_GRID:-} \
		--quiet >"$out/grid.txt" 2>&1 || tail -5 "$out/grid.txt"
	echo "## grid study of $by at $gsizes (${GEMM_GRID:-the whole space}): $(seconds "$s" "$(date +%s.%N)") s"
	echo "## each size's best of each $by value (TFLOP/s), its variants timed, and the best variant"
	"$(dirname "$0")/../tests/sqlexec" "$gdb" "WITH p AS (SELECT m.rows || 'x' || m.cols || 'x' || m.depth AS size, \
		CASE WHEN instr(v.params, '$by=') THEN substr(v.params || ',', instr(v.params, '$by=') + length('$by=')) \
		ELSE 'default,' END AS rest, m.gbps AS g, v.params AS params, m.status AS st \
		FROM measurement m JOIN variant v ON v.id = m.variant_id), \
		q AS (SELECT size, substr(rest, 1, instr(rest, ',') - 1) AS val, g, params, st FROM p) \
		SELECT size, val, round(max(g) / 1000, 2), sum(st = 'ok'), sum(st <> 'ok'), params FROM q \
		GROUP BY size, val ORDER BY size, val"
	"$GPUTUNE" export --db "$gdb" --kernel gemm --no-shipped -o "$out/gputune_gemm.h"
	build_bench
	# shellcheck disable=SC2086
	"$work/gemm-bench" --header-only ${GEMM_EVERY:+--every-variant "$out/grid-every.csv"} $(echo "$gsizes" | tr ',' ' ') |
		tee "$out/grid-bench.txt"
fi
if [ "$stage" = profile ]; then
	ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
	build_bench
	echo "## Nsight Compute: one launch of cuBLAS's kernel, then one of the header's choice"
	for shape in ${GEMM_PROFILE_SHAPES:-4096x4096x4096}; do
		# The first launch of a kernel that is none of the bench's own,
		# then the first of gputune's (the choice's checked launch).  At
		# the clocks the GPU runs at: ncu's default would lock them to
		# base for the profile, a change to a shared card's settings.
		for k in 'regex:^(?!(gputune|fill|reference|judge|copy16|timing_idle))' 'regex:^gputune_gemm'; do
			"$ncu" --clock-control none -k "$k" --launch-count 1 --section LaunchStats --section Occupancy \
				--section InstructionStats --section SchedulerStats --section WarpStateStats \
				"$work/gemm-bench" --header-only "$shape" >>"$out/ncu-$shape.txt" 2>&1 || true
		done
		echo "### $shape"
		grep -E "^  [A-Za-z_].*\(|Registers Per Thread|Grid Size|Block Size|Dynamic Shared Memory Per Block|Executed Instructions  |Issue Slots Busy|Warp Cycles Per Issued Instruction|Achieved Occupancy" \
			"$out/ncu-$shape.txt" || echo "(no report: is ncu at $ncu?)"
	done
fi
if [ "$stage" = bench ] || [ "$stage" = all ]; then
	build_bench
	# shellcheck disable=SC2086
	"$work/gemm-bench" --header-only ${GEMM_EVERY:+--every-variant "$out/every.csv"} $TABLE "$RANDOM_SHAPES" |
		tee "$out/bench.txt"
fi
