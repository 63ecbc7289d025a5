#!/bin/sh
# devices-run.sh - one GPU against every GPU of this host, in one call: the
# same tuning command with `--device 0` and with `--devices all`, each from
# an empty database and compile cache of its own (cold), then again with
# --force and its warm cache (warm).  Prints each run's wall time, the
# speed-ups, each GPU's share of the sizes and where the one-GPU run's time
# went; the runs' output is kept in OUTDIR.
# Usage: bench/devices-run.sh OUTDIR [FAMILY [SIZES]]   (from the source
# tree, gputune built; default transpose 1024-8192).  $DEVICES_WARM=0
# skips the warm runs.
set -eu
out=${1:?usage: bench/devices-run.sh OUTDIR [FAMILY [SIZES]]}
family=${2:-transpose}
sizes=${3:-1024-8192}
db=unused.db
. "$(dirname "$0")/setup.sh"
ngpu=$("$GPUTUNE" devices --format csv | awk 'NR > 1' | wc -l)
echo "# $family --sizes $sizes: 1 GPU against $ngpu, $(date -u +%Y-%m-%d), commit $commit"

# run NAME DEVICE-OPTION [--force]: one timed run into NAME's database and
# cache; its wall time in OUTDIR/NAME.seconds.
run() {
	name=$1
	shift
	s=$(date +%s.%N)
	GPUTUNE_DB="$out/$name.db" GPUTUNE_CACHE_DIR="$work/cache-$name" \
		"$GPUTUNE" "$family" --sizes "$sizes" "$@" >>"$out/$name.txt" 2>>"$out/$name.err"
	seconds "$s" "$(date +%s.%N)" >"$out/$name.seconds"
}
# row MODE: the speed-up row of one pair of runs, printed as soon as the
# pair is done (a call cut short still says what it measured).
row() {
	a=$(cat "$out/one.$1")
	b=$(cat "$out/all.$1")
	echo "| $1 | $a s | $b s | $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2fx", a / b }') |"
}
rm -f "$out"/one.* "$out"/all.*
echo "| run | 1 GPU | $ngpu GPUs | speed-up |"
echo "|---|---|---|---|"
run one --device 0
run all --devices all
mv "$out/one.seconds" "$out/one.cold"
mv "$out/all.seconds" "$out/all.cold"
row cold
if [ "${DEVICES_WARM:-1}" != 0 ]; then
	run one --device 0 --force
	run all --devices all --force
	mv "$out/one.seconds" "$out/one.warm"
	mv "$out/all.seconds" "$out/all.warm"
	row warm
fi
echo
echo "## where the one-GPU runs' time went"
grep -h " in [0-9.]* s:" "$out/one.txt" || true
echo
echo "## each GPU's sizes (last run)"
grep -h "^GPU [0-9]* (" "$out/all.txt" | tail -n "$ngpu" || true
grep -h "on [0-9]* GPUs in" "$out/all.txt" || true
echo
echo "## the sizes with a winner, one GPU against all (they must be the same)"
for f in one all; do
	GPUTUNE_DB="$out/$f.db" "$GPUTUNE" query --kernel "$family" --no-shipped --format csv 2>/dev/null |
		awk -F, 'NR > 1 { print $4 " " $5 }' | sort -u >"$work/$f.sizes"
done
if cmp -s "$work/one.sizes" "$work/all.sizes"; then
	echo "the same $(wc -l <"$work/one.sizes") sizes"
else
	echo "DIFFERENT:"
	diff "$work/one.sizes" "$work/all.sizes" || true
fi
