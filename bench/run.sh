#!/bin/sh
# run.sh - the benchmark, on a machine with a GPU, in one go:
#   1. tunes from an empty database and an empty compile cache (timed),
#      then again with --force and the warm cache (timed, and a second set
#      of winners for the repeatability figures);
#   2. exports the winners as a header and builds transpose-bench with it;
#   3. times the copy ceiling, cuBLAS, the classic kernel and the winner
#      side by side at every size, and writes the Markdown report.
# Usage: bench/run.sh OUTDIR   (run from the source tree, gputune built)
# The commit is read from $BENCH_COMMIT, else from git.
set -eu
out=${1:?usage: bench/run.sh OUTDIR}
mkdir -p "$out"
GPUTUNE=${GPUTUNE:-./gputune}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GPUTUNE_DB="$work/bench.db" GPUTUNE_CACHE_DIR="$work/cache"
commit=${BENCH_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}

POW2="1024-8192"
OTHER="1000,5000,8191,8192x1024,1024x8192,3001x7000"
# seconds START END: the difference, to a tenth.
seconds() {
	awk -v s="$1" -v e="$2" 'BEGIN { printf "%.1f", e - s }'
}
s=$(date +%s.%N)
"$GPUTUNE" transpose --sizes "$POW2" > "$work/cold.txt"
e=$(date +%s.%N)
t_cold=$(seconds "$s" "$e")
"$GPUTUNE" transpose --sizes "$POW2" --force > "$work/warm.txt"
t_warm=$(seconds "$e" "$(date +%s.%N)")
"$GPUTUNE" transpose --sizes "$OTHER" > "$work/other.txt"
for t in f64 f16; do
	"$GPUTUNE" transpose --sizes 4096,8192 --dtype $t > "$work/$t.txt"
done
cat "$work/cold.txt" "$work/warm.txt" "$work/other.txt" "$work/f64.txt" "$work/f16.txt" > "$out/tuning.txt"
"$GPUTUNE" export --kernel transpose --no-shipped -o "$work/gputune_transpose.h"
"$GPUTUNE" export --format json --no-shipped -o "$out/results.json"
cp "$GPUTUNE_DB" "$out/bench.db"
"$NVCC" -arch=sm_90 -O2 -I"$work" bench/transpose-bench.cu -lcublas -lnvrtc -lcuda -o "$work/transpose-bench"
args=""
for s in 1024x1024 2048x2048 4096x4096 8192x8192 1000x1000 5000x5000 8191x8191 8192x1024 1024x8192 3001x7000; do
	args="$args f32:$s"
done
args="$args f64:4096x4096 f64:8192x8192 f16:4096x4096 f16:8192x8192"
# shellcheck disable=SC2086
"$work/transpose-bench" $args > "$work/table.md"

device=$("$GPUTUNE" devices --format csv | awk -F, 'NR == 2 { print $2 " (" $8 ")" }')
{
	echo "## Run of $(date -u +%Y-%m-%d) on $device, commit $commit"
	echo
	echo "GB/s counting bytes read and written; L2 flushed before each of 30 timed"
	echo "launches; median.  Percentages are of the ceiling measured in the same"
	echo "process at the same size (the faster of memcpy and the copy kernel)."
	echo
	cat "$work/table.md"
	echo
	echo "Tuning \`gputune transpose --sizes $POW2\` (f32): $t_cold s from an empty database and"
	echo "compile cache; $t_warm s again with \`--force\` and a warm cache.  The runs' own accounts:"
	echo
	grep '^transpose on' "$work/cold.txt" "$work/warm.txt" | sed 's/^[^:]*:/    /'

	echo
	echo "Repeatability (winner bandwidth in the first and the second of those runs):"
	echo
	echo "| size | run 1 GB/s | run 2 GB/s | difference |"
	echo "|---|---|---|---|"
	awk '$1 !~ /^[0-9]+x[0-9]+$/ { next } NR == FNR { a[$1] = $5; next }
	     { d = ($5 - a[$1]) / a[$1] * 100; if (d < 0) d = -d; printf "| %s | %s | %s | %.1f%% |\n", $1, a[$1], $5, d }' \
		"$work/cold.txt" "$work/warm.txt"
} > "$out/benchmarks-run.md"
cat "$out/benchmarks-run.md"
