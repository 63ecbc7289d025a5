#!/bin/sh
# scan-run.sh - the prefix sum's benchmark, on a machine with a GPU, in
# stages that can run in one go or in separate calls sharing OUTDIR:
#   tune     from an empty database, `gputune scan` (its default lengths
#            2^16 to 2^28, with the extra lengths) for f32 (timed).  Keeps
#            OUTDIR/scan.db.
#   types    the same for f64 and i32 (or the types in $BENCH_TYPES).
#   validate exports the header from that database alone and validates its
#            choice at 8 held-out random lengths (f32).
#   measure  times the header's kernels beside the copy ceiling, CUB and
#            the classic ladder at the tuned lengths (powers of four), the
#            held-out ones and a few odd ones, and writes the Markdown
#            report.
# Usage: bench/scan-run.sh OUTDIR [tune|types|validate|measure|all]   (from
# the source tree, gputune built).  The commit is read from $BENCH_COMMIT,
# else from git; the compile cache is $GPUTUNE_CACHE_DIR when set.
set -eu
out=${1:?usage: bench/scan-run.sh OUTDIR [tune|types|validate|measure|all]}
stage=${2:-all}
db=scan.db
. "$(dirname "$0")/setup.sh"
HELD="random:8:65536-268435456:4"
ODD="1000,99999,1234567,77777777"

if [ "$stage" = tune ] || [ "$stage" = all ]; then
	rm -f "$GPUTUNE_DB"
	s=$(date +%s.%N)
	"$GPUTUNE" scan > "$out/tune-f32.txt" 2> "$out/tune-f32.err"
	echo "$(seconds "$s" "$(date +%s.%N)")" > "$out/tune-seconds"
	cat "$out/tune-f32.txt"
fi
if [ "$stage" = types ] || [ "$stage" = all ]; then
	for t in ${BENCH_TYPES:-f64 i32}; do
		"$GPUTUNE" scan --dtype $t > "$out/tune-$t.txt" 2> "$out/tune-$t.err"
		cat "$out/tune-$t.txt"
	done
fi
[ "$stage" = tune ] || [ "$stage" = types ] && exit 0
if [ "$stage" = validate ] || [ "$stage" = all ]; then
	# The header of the tuning runs alone, before validation adds lengths.
	[ -f "$out/gputune_scan.h" ] ||
		"$GPUTUNE" export --kernel scan --no-shipped -o "$out/gputune_scan.h"
	s=$(date +%s.%N)
	"$GPUTUNE" validate scan --sizes "$HELD" --no-shipped --quiet > "$out/validate-f32.txt"
	echo "$(seconds "$s" "$(date +%s.%N)")" > "$out/validate.seconds"
	cat "$out/validate-f32.txt"
fi
[ "$stage" = validate ] && exit 0

[ -f "$out/gputune_scan.h" ] || "$GPUTUNE" export --kernel scan --no-shipped -o "$out/gputune_scan.h"
cp "$out/gputune_scan.h" "$work/"
"$NVCC" -arch=sm_90 -O2 -std=c++17 -I"$work" bench/scan-bench.cu -o "$work/scan-bench"
args=""
k=16
while [ $k -le 28 ]; do
	n=$((1 << k))
	for t in ${BENCH_MEASURE_TYPES:-f32 f64 i32}; do
		args="$args $t:$n"
	done
	k=$((k + 2))
done
for n in $(echo "$ODD" | tr , ' ') $(awk '$1 ~ /^[0-9]+$/ { print $1 }' "$out/validate-f32.txt" 2>/dev/null); do
	args="$args f32:$n"
done
# shellcheck disable=SC2086
"$work/scan-bench" $args > "$out/scan-table.md"
device=$("$GPUTUNE" devices --format csv | awk -F, 'NR == 2 { print $2 " (" $8 ")" }')
{
	echo "## Prefix sum: run of $(date -u +%Y-%m-%d) on $device, commit $commit"
	echo
	echo "GB/s of input read and output written; L2 flushed before each of 30 timed"
	echo "launches; median; where the buffers take 64 KiB to 64 MiB, the launches"
	echo "rotate over 8 placements of them, as gputune's do.  'of ceiling' is the share"
	echo "of the best of cudaMemcpyAsync and a copy kernel over the same bytes,"
	echo "measured in the same process at the same length.  The header is the one"
	echo "exported after \`gputune scan\` (2^16 to 2^28 and its extra lengths).  'over"
	echo "database' is the nvcc-built header kernel's GB/s over the figure the"
	echo "database holds for it (tuned lengths only)."
	echo
	cat "$out/scan-table.md"
	if [ -f "$out/validate-f32.txt" ]; then
		echo
		echo "### Held-out validation (\`gputune validate scan --sizes $HELD\`), $(cat "$out/validate.seconds") s"
		echo
		echo "    $(grep '^held-out' "$out/validate-f32.txt")"
	fi
	echo
	echo "### Tuning"
	echo
	echo "\`gputune scan\` (f32) took $(cat "$out/tune-seconds") s from an empty database.  The runs' own accounts:"
	echo
	grep -h '^scan on' "$out"/tune-*.txt | sed 's/^/    /'
	echo
	echo "The f32 run's table (speed-up over the chained scan and the decoupled look-back):"
	echo
	sed 's/^/    /' "$out/tune-f32.txt" | grep -v '^    scan on'
} > "$out/benchmarks-scan.md"
cat "$out/benchmarks-scan.md"
