#!/bin/sh
# run.sh - the benchmark, on a machine with a GPU, in two stages that can
# run in one go or in two calls sharing OUTDIR:
#   tune     from an empty database and compile cache, `gputune transpose
#            --sizes 1024-8192` (timed, with its extra sizes), again with
#            --force and the warm cache (timed; the repeatability figures).
#            Keeps OUTDIR/bench.db.
#   types    the same range for f16 and f64, into that database.
#   validate exports the header from that database alone and validates its
#            choice at held-out random sizes (40 f32, 10 f16, 10 f64; the
#            types to validate in $BENCH_TYPES, default all three).
#   measure  times
#            the header's kernels (built by nvcc, and by NVRTC from the
#            header's programs) beside the copy ceiling, cuBLAS and the
#            classic kernel at the tuned sizes and the held-out ones, then
#            tunes some odd sizes (f32 and f16), and writes the Markdown
#            report.
# Usage: bench/run.sh OUTDIR [tune|types|validate|measure|all]   (from the
# source tree, gputune built).  The commit is read from $BENCH_COMMIT, else
# from git; the compile cache is $GPUTUNE_CACHE_DIR when set (stages run in
# separate calls can share it), else a fresh one.
set -eu
out=${1:?usage: bench/run.sh OUTDIR [tune|types|validate|measure|all]}
stage=${2:-all}
db=bench.db
. "$(dirname "$0")/setup.sh"
POW2="1024-8192"
OTHER="1000,5000,8191,8192x1024,1024x8192,3001x7000,2047x4093,7777x1111"
OTHER_F16="3000x5000,6291x6401,8191"
HELD_F32="random:40:1000-8192:4"
HELD_OTHER="random:10:1000-8192:5"

if [ "$stage" = tune ] || [ "$stage" = all ]; then
	rm -f "$GPUTUNE_DB"
	s=$(date +%s.%N)
	"$GPUTUNE" transpose --sizes "$POW2" > "$out/cold.txt" 2> "$out/cold.err"
	e=$(date +%s.%N)
	"$GPUTUNE" transpose --sizes "$POW2" --force > "$out/warm.txt" 2> "$out/warm.err"
	f=$(date +%s.%N)
	echo "$(seconds "$s" "$e") $(seconds "$e" "$f")" > "$out/tune-seconds"
	cat "$out/cold.txt" "$out/warm.txt"
fi
if [ "$stage" = types ] || [ "$stage" = all ]; then
	for t in f16 f64; do
		"$GPUTUNE" transpose --sizes "$POW2" --dtype $t > "$out/$t.txt" 2> "$out/$t.err"
	done
	cat "$out/f16.txt" "$out/f64.txt"
fi
[ "$stage" = tune ] || [ "$stage" = types ] && exit 0

if [ "$stage" = validate ] || [ "$stage" = all ]; then
	# The header of the tuning runs alone, before validation adds sizes.
	[ -f "$out/gputune_transpose.h" ] ||
		"$GPUTUNE" export --kernel transpose --no-shipped -o "$out/gputune_transpose.h"
	for t in ${BENCH_TYPES:-f32 f16 f64}; do
		held=$HELD_OTHER
		[ $t = f32 ] && held=$HELD_F32
		s=$(date +%s.%N)
		"$GPUTUNE" validate transpose --dtype $t --sizes "$held" --no-shipped --quiet > "$out/validate-$t.txt"
		echo "$(seconds "$s" "$(date +%s.%N)")" > "$out/validate-$t.seconds"
		cat "$out/validate-$t.txt"
	done
fi
[ "$stage" = validate ] && exit 0

cp "$out/gputune_transpose.h" "$work/gputune_transpose.h"
lines=$(wc -l < "$work/gputune_transpose.h")
variants=$(sed -n 's/^#define GPUTUNE_TRANSPOSE_NUM_VARIANTS //p' "$work/gputune_transpose.h")
t_validate=$(cat "$out/validate-f32.seconds")
# $TRANSPOSE_BENCH: transpose-bench built beforehand from this header (the
# same command, on a machine with nvcc but no GPU).
bench_bin=${TRANSPOSE_BENCH:-$work/transpose-bench}
[ -n "${TRANSPOSE_BENCH:-}" ] ||
	"$NVCC" -arch=sm_90 -O2 -I"$work" bench/transpose-bench.cu -lcublas -lcublasLt -lnvrtc -lcuda -o "$bench_bin"
# Every size the header holds a measurement of (the requested ones and the
# extra shapes the runs measured), then the held-out ones.
args=$(sed -n '/_entries\[[0-9]*\] = {/,/^};/s/^\t{ "[^"]*", [0-9]*, "\([a-z0-9]*\)", \([0-9]*\), \([0-9]*\), .*/\1:\2x\3/p' \
	"$work/gputune_transpose.h" | tr '\n' ' ')
for t in f32 f16 f64; do
	for s in $(awk '$1 ~ /^[0-9]+x[0-9]+$/ { print $1 }' "$out/validate-$t.txt"); do
		args="$args $t:$s"
	done
done
# shellcheck disable=SC2086
"$bench_bin" $args > "$work/table.md"
"$GPUTUNE" transpose --sizes "$OTHER" --no-probe > "$out/other.txt" 2> "$out/other.err"
"$GPUTUNE" transpose --sizes "$OTHER_F16" --dtype f16 --no-probe > "$out/other-f16.txt" 2> "$out/other-f16.err"
"$GPUTUNE" export --format json --no-shipped -o "$out/results.json"

device=$("$GPUTUNE" devices --format csv | awk -F, 'NR == 2 { print $2 " (" $8 ")" }')
read -r t_cold t_warm < "$out/tune-seconds"
{
	echo "## Run of $(date -u +%Y-%m-%d) on $device, commit $commit"
	echo
	echo "GB/s counting bytes read and written; L2 flushed before each of 30 timed"
	echo "launches (every other one also after an empty launch, as gputune times),"
	echo "each waited for before the next is queued; median (gputune's"
	echo "kernels as it confirms a winner: at least 100"
	echo "launches and 10 ms of kernel time); where input and output take at most"
	echo "64 MiB (the input at least 64 KiB), the launches rotate over 8 placements"
	echo "of them, as gputune's do."
	echo "Percentages are of the ceiling measured in the same"
	echo "process at the same size (the faster of memcpy and the copy kernel).  The"
	echo "header is the one exported after \`gputune transpose --sizes $POW2\` for f32,"
	echo "f16 and f64 alone ($lines lines, $variants variants); every size it holds a"
	echo "measurement of is timed, then the held-out ones; 'size' says which.  'over database' is the"
	echo "nvcc-built header kernel's GB/s over the figure the database holds for it;"
	echo "the NVRTC column builds the same variant from the header's NVRTC program;"
	echo "'calibrated' is, at a held-out size, the variant the header's"
	echo "gputune_transpose_calibrate() picked there among the rule's best."
	echo
	cat "$work/table.md"
	echo
	echo "### Held-out validation (\`gputune validate\`)"
	echo
	for t in f32 f16 f64; do
		grep '^held-out\|^calibrated' "$out/validate-$t.txt" | sed 's/^/    /'
	done
	echo
	echo "The f32 validation of 40 sizes took $t_validate s (a full tuning run per size)."
	echo
	echo "### Tuning"
	echo
	echo "\`gputune transpose --sizes $POW2\` (f32): $t_cold s from an empty database and"
	echo "compile cache; $t_warm s again with \`--force\` and a warm cache.  The runs' own accounts:"
	echo
	grep '^transpose on' "$out/cold.txt" "$out/warm.txt" "$out/f16.txt" "$out/f64.txt" | sed 's/^[^:]*:/    /'
	echo
	echo "Repeatability (winner bandwidth in the first and the second of those runs):"
	echo
	echo "| size | run 1 GB/s | run 2 GB/s | difference |"
	echo "|---|---|---|---|"
	awk '$1 !~ /^[0-9]+x[0-9]+$/ { next } NR == FNR { a[$1] = $5; next }
	     { d = ($5 - a[$1]) / a[$1] * 100; if (d < 0) d = -d; printf "| %s | %s | %s | %.1f%% |\n", $1, a[$1], $5, d }' \
		"$out/cold.txt" "$out/warm.txt"
	echo
	echo "Odd sizes tuned (\`--sizes $OTHER --no-probe\`, and \`--sizes $OTHER_F16 --dtype f16"
	echo "--no-probe\`), share of the ceiling:"
	echo
	echo "| type | size | winner GB/s | share of ceiling |"
	echo "|---|---|---|---|"
	awk '$1 ~ /^[0-9]+x[0-9]+$/ { printf "| %s | %s | %s | %s%% |\n", $2, $1, $5, $6 }' "$out/other.txt" "$out/other-f16.txt"
} > "$out/benchmarks-run.md"
cat "$out/benchmarks-run.md"
