#!/bin/sh
# gemm-run.sh - the matrix multiply against cuBLAS, on a machine with a
# GPU, in stages that can run in one go or in calls sharing OUTDIR:
#   tune   from an empty database and compile cache, `gputune gemm --sizes
#          $GEMM_SIZES` (default 1024-8192; $GEMM_DEVICES, when set, is its
#          --devices), timed, its summary kept; then the header exported
#          from that database alone.
#   split  the split-K study: `gputune gemm` at shapes of few tiles and a
#          long K (default space), and each size's best of each split
#          value from the database.
#   bench  bench/gemm-bench.cu built by nvcc against the header, timing
#          the header's choice and cuBLAS SGEMM (pedantic FP32) at the ten
#          shapes of the held-out table and $GEMM_RANDOM (default 20
#          random shapes in [512, 8192]^3), every result checked.
# Usage: bench/gemm-run.sh OUTDIR [tune|split|bench|all]   (from the source
# tree, gputune built).
set -eu
out=${1:?usage: bench/gemm-run.sh OUTDIR [tune|split|bench|all]}
stage=${2:-all}
db=gemm.db
. "$(dirname "$0")/setup.sh"
SIZES=${GEMM_SIZES:-1024-8192}
TABLE="2048x2048x2048 4096x4096x4096 8192x8192x8192 3000x3000x3000 2500x2500x7000 5000x2000x1000
	1536x6144x2048 1000x1000x1000 6000x6000x512 777x1333x2049"
RANDOM_SHAPES=${GEMM_RANDOM:-random:20:512-8192:59}
echo "# gemm, $(date -u +%Y-%m-%d), commit $commit"

if [ "$stage" = tune ] || [ "$stage" = all ]; then
	rm -f "$GPUTUNE_DB"
	s=$(date +%s.%N)
	"$GPUTUNE" gemm --sizes "$SIZES" ${GEMM_DEVICES:+--devices "$GEMM_DEVICES"} >"$out/tune.txt" 2>"$out/tune.err"
	echo "## gputune gemm --sizes $SIZES${GEMM_DEVICES:+ --devices $GEMM_DEVICES}, cold: $(seconds "$s" "$(date +%s.%N)") s"
	cat "$out/tune.txt"
	grep -i "compiled\|waiting\|summary\|s timing" "$out/tune.err" | tail -5 || true
	"$GPUTUNE" export --kernel gemm --no-shipped -o "$out/gputune_gemm.h"
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
if [ "$stage" = bench ] || [ "$stage" = all ]; then
	"$NVCC" -O3 -std=c++17 -arch=native -I. -I"$out" -DGPUTUNE_GEMM_HEADER='"gputune_gemm.h"' \
		bench/gemm-bench.cu -lcublas -o "$work/gemm-bench"
	# shellcheck disable=SC2086
	"$work/gemm-bench" --header-only $TABLE "$RANDOM_SHAPES" | tee "$out/bench.txt"
fi
