#!/bin/sh
# gputune plot: each plot is well-formed standalone SVG whose points match
# the database, the CSV holds the same numbers, hostile strings from a
# merged file are escaped, and an empty selection is a clear error.
. "$(dirname "$0")/setup"
. "$top_srcdir/tests/results-doc"
SQL="$top_builddir/tests/sqlexec"

if command -v xmllint >/dev/null 2>&1; then
	well_formed() { xmllint --noout "$1"; }
else
	echo "skipped: xmllint (libxml2-utils) is not installed"
	exit 77
fi

# points FILE: the data points of an SVG plot (markers and cells carry "pt").
points() { grep -o 'class="[^"]*\bpt"' "$1" | wc -l; }
# rows FILE: the data rows of a CSV file.
rows() { echo $(($(wc -l < "$1") - 1)); }

# A run on a device with a hostile name: three sizes, a 3 x 2 grid of
# tile x block_rows at each, one variant wrong and one faulted at the
# largest, the naive classic, conditions, and two held-out points.
HOSTILE='<script>alert(\"x\")</script> & '"'"'GPU'"'"' ]]>'
rec() { # UUID ROWS COLS TILE BLOCK_ROWS GBPS STATUS [PARAMS]
	params=${8:-tile=$4,block_rows=$5,pad=1,unroll=1,mapping=cartesian,vec=1,shared=on,sector=off,wide=1}
	status=''
	[ "$7" = ok ] || status="\"status\": \"$7\", \"reason\": \"<b>bad</b> & worse\", "
	printf '{"device_uuid": "%s", "kernel": "transpose", "dtype": "f32", "rows": %s, "cols": %s,' "$1" "$2" "$3"
	printf ' "timing_mode": "flushed", "params": "%s", "source_hash": "%016x", %s' "$params" "$(($4 * 100 + $5))" "$status"
	printf '"median_ms": 0.1, "min_ms": 0.09, "max_ms": 0.2, "p25_ms": 0.095, "p75_ms": 0.11, "launches": 30,'
	printf ' "gbps": %s, "fraction": %s, "ceiling_gbps": 4000, "memcpy_gbps": 4000, "copy_kernel_gbps": 3900,' \
		"$6" "$(echo "$6" | awk '{ printf "%.4f", $1 / 4000 }')"
	printf ' "run": {"uuid": "run-p", "started_at": "2026-11-20T10:00:00Z", "gputune_version": "0.1.0",'
	printf ' "nvrtc_version": "13.0", "repetitions": 30, "conditions": "recorded"}}'
}
{
	doc_head "$HOSTILE" GPU-plot 9 0
	printf ' "results": [\n'
	rec GPU-plot 1024 1024 64 8 1300 ok; printf ',\n'
	rec GPU-plot 4096 4096 64 8 3600 ok; printf ',\n'
	rec GPU-plot 8192 8192 64 8 3900 ok
	printf '],\n "measurements": [\n'
	sep=''
	for size in 1024 4096 8192; do
		for tile in 16 32 64; do
			for br in 4 8; do
				status=ok
				[ $size = 8192 ] && [ $tile = 16 ] && [ $br = 4 ] && status=wrong
				[ $size = 8192 ] && [ $tile = 16 ] && [ $br = 8 ] && status=fault
				printf '%s' "$sep"
				rec GPU-plot $size $size $tile $br $((1000 + tile * 10 + br * 5 + size / 100)) $status
				sep=',
'
			done
		done
		printf ',\n'
		rec GPU-plot $size $size 32 8 $((500 + size / 50)) ok \
			tile=32,block_rows=8,pad=0,unroll=1,mapping=cartesian,vec=1,shared=off,sector=off,wide=1
	done
	printf '],\n "conditions": [{"run_uuid": "run-p", "dtype": "f32", "rows": 8192, "cols": 8192,'
	printf ' "sm_mhz_start": 1980, "sm_mhz_end": 1965, "sm_mhz_min": 1950, "sm_mhz_max": 1980, "mem_mhz_start": 3201,'
	printf ' "mem_mhz_end": 3201, "temp_c_start": 41, "temp_c_end": 55, "temp_c_max": 56, "power_w_start": 120.5,'
	printf ' "power_w_end": 610.25, "power_w_max": 655, "throttle_reasons": 4, "samples": 40}],\n'
	printf ' "validation": [{"run_uuid": "run-p", "dtype": "f32", "rows": 3000, "cols": 5000, "params": "tile=64",'
	printf ' "how": "class", "gbps": 3000, "fraction": 0.8, "best_gbps": 3300},'
	printf ' {"run_uuid": "run-p", "dtype": "f32", "rows": 2000, "cols": 7000, "params": "tile=32", "how": "class",'
	printf ' "gbps": 2900, "fraction": 0.78, "best_gbps": 3000}]}\n'
} > "$T/run.json"
run_gt 0 db merge "$T/run.json"
check "the conditions were merged" test "$("$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM run_condition")" = 1
check "the wrong and faulted variants were merged as such" \
	test "$("$SQL" "$GPUTUNE_DB" "SELECT group_concat(status) FROM (SELECT status FROM measurement WHERE status != 'ok' ORDER BY status)")" = "fault,wrong"

# sizes: winner, ceiling and naive at each of 3 sizes, 2 held-out points.
run_gt 0 plot sizes -o "$T/sizes.svg"
check "sizes: well-formed XML" well_formed "$T/sizes.svg"
run_gt 0 plot sizes --format csv -o "$T/sizes.csv"
check "sizes: 14 points (3 each of winner, ceiling, naive, tile32x8-pad1; 2 held-out)" test "$(points "$T/sizes.svg")" -eq 14
check "sizes: the CSV has as many rows as the SVG has points" test "$(rows "$T/sizes.csv")" -eq "$(points "$T/sizes.svg")"
check "sizes: one winner row per winner in the database" \
	test "$(grep -c '^winner,' "$T/sizes.csv")" -eq "$("$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM winner")"
grep_in "$T/sizes.csv" "naive,1024x1024,1024,1024,1048576,520.000"
grep_in "$T/sizes.csv" "held-out: header's choice,3000x5000,3000,5000"
grep_in "$T/sizes.csv" "winner,8192x8192,8192,8192,67108864,3900.000,GB/s,97.50"

# space: every variant at the largest size, the two failures included.
run_gt 0 plot space -o "$T/space.svg"
check "space: well-formed XML" well_formed "$T/space.svg"
run_gt 0 plot space --format csv -o "$T/space.csv"
n=$("$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM measurement WHERE rows = 8192")
check "space: one point per variant measured at 8192x8192 ($n)" test "$(points "$T/space.svg")" -eq "$n"
check "space: the CSV agrees" test "$(rows "$T/space.csv")" -eq "$n"
grep_in "$T/space.svg" "2 wrong or failed (at 0)"
grep_in "$T/space.csv" ",wrong,,GB/s,,,"
run_gt 0 plot space --size 1024 --format csv
check "space --size picks that size" test "$(grep -c ',ok,' "$T/out")" -eq 7

# map: tile x block_rows at 8192, the cell where both failed marked.
run_gt 0 plot map --x tile --y block_rows -o "$T/map.svg"
check "map: well-formed XML" well_formed "$T/map.svg"
run_gt 0 plot map --x tile --y block_rows --format csv -o "$T/map.csv"
check "map: six cells (3 tiles x 2 block_rows)" test "$(points "$T/map.svg")" -eq 6
check "map: the CSV agrees" test "$(rows "$T/map.csv")" -eq 6
grep_in "$T/map.csv" "16,4,,,GB/s,1,1,"
grep_in "$T/map.csv" "64,8,97.50,3900.000,GB/s,1,0,"

# Hostile strings: never markup, always well-formed.
for f in sizes space map; do
	if grep -q '<script' "$T/$f.svg" || grep -q '<b>' "$T/$f.svg"; then
		not_ok "$f: a name from the database became markup"
	else
		ok "$f: names from the database are escaped"
	fi
done
grep_in "$T/sizes.svg" "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;GPU&apos; ]]&gt;"
grep_in "$T/space.svg" "&lt;b&gt;bad&lt;/b&gt; &amp; worse"

# query --all shows the conditions the size was timed under.
run_gt 0 query --all --format csv
grep_in "$T/out" "1980-1965,3201,41-55,121-610,sw_power_cap"

# Empty selections and bad options.
run_gt 1 plot sizes --kernel reduce
grep_in "$T/err" "plot: no results for reduce f32 (flushed timing) in your database (--shipped plots the results shipped with gputune)"
run_gt 1 plot space --size 2048
grep_in "$T/err" "no transpose f32 variant was measured at 2048x2048"
run_gt 1 plot sizes --device A100
grep_in "$T/err" "on a device matching A100"
# No database at all: the shipped results, as query and export take them,
# and it says so.
run_gt 0 plot sizes --db "$T/none.db" -o "$T/none.svg"
grep_in "$T/err" "no tuning database at $T/none.db: plotting the results shipped with gputune"
run_gt 0 plot sizes --shipped -o "$T/shipped.svg"
check "...the same plot as --shipped" cmp -s "$T/none.svg" "$T/shipped.svg"
run_gt 2 plot pie
grep_in "$T/err" "unknown plot 'pie' (sizes, space or map)"
run_gt 2 plot map --x colour
grep_in "$T/err" "transpose has no parameter 'colour' (tile, block_rows"
run_gt 2 plot map --x tile --y tile
run_gt 2 plot sizes --format png
run_gt 2 plot space --size 0x5

# The documentation's plots: exactly what `make plots` draws from the run
# committed beside them, and the winners they show are the run's answers
# to `gputune query`.
D="$top_srcdir/docs/plots"
"$GPUTUNE" db merge "$D/h200-transpose-f32.json" --db "$T/docs.db" >/dev/null
for f in sizes space map; do
	xy=''
	[ $f = map ] && xy='--x mapping --y pad'
	for fmt in svg csv; do
		run_gt 0 plot $f $xy --db "$T/docs.db" --format $fmt -o "$T/docs-$f.$fmt"
		check "docs/plots/$f.$fmt is what make plots draws" cmp -s "$T/docs-$f.$fmt" "$D/$f.$fmt"
	done
done
run_gt 0 query --db "$T/docs.db" --no-shipped --format csv
sed 's/"[^"]*"//' "$T/out" | awk -F, 'NR > 1 { print "q", $5, $9, $10 }' > "$T/q"
sed 's/"[^"]*"//' "$D/sizes.csv" | awk -F, '$1 == "winner" { print "p", $2, $6, $8 }' >> "$T/q"
# The query rounds to 1 GB/s and 0.1 %, the plot's CSV to 0.001 and 0.01.
check "the sizes plot's winners are the query's, figure for figure ($(grep -c '^q' "$T/q") sizes)" \
	awk '$1 == "q" { g[$2] = $3; f[$2] = $4; nq++ }
	     $1 == "p" { np++; d = $3 - g[$2]; e = $4 - f[$2]
			 if (!($2 in g) || d > 0.51 || d < -0.51 || e > 0.051 || e < -0.051) bad = 1 }
	     END { exit bad || nq != np || nq == 0 }' "$T/q"

# The shipped results: each plot well-formed, its points those of the
# shipped file merged into a database of its own.
"$GPUTUNE" db merge "$top_srcdir/db/shipped.json" --db "$T/shipped.db" >/dev/null
for f in sizes space map; do
	run_gt 0 plot $f --shipped -o "$T/s-$f.svg"
	check "shipped $f: well-formed XML" well_formed "$T/s-$f.svg"
	run_gt 0 plot $f --db "$T/shipped.db" -o "$T/d-$f.svg"
	check "shipped $f: the same plot from the shipped file merged" cmp -s "$T/s-$f.svg" "$T/d-$f.svg"
	run_gt 0 plot $f --shipped --format csv -o "$T/s-$f.csv"
	check "shipped $f: as many CSV rows as points" test "$(rows "$T/s-$f.csv")" -eq "$(points "$T/s-$f.svg")"
done
done_testing
