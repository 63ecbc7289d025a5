#!/bin/sh
# Merging: results from another database or from JSON come in once;
# merging the same thing again adds nothing; JSON export round-trips.
. "$(dirname "$0")/setup"
. "$top_srcdir/tests/results-doc"
SQL="$top_builddir/tests/sqlexec"

results_doc "GPU A" GPU-aaaa 9 0 run-a f32 1024x1024:3000:32 2048x2048:3500:64 > "$T/a.json"
results_doc "GPU B" GPU-bbbb 8 0 run-b f64 4096x4096:1800:16 > "$T/b.json"
run_gt 0 db merge "$T/a.json" --db "$T/one.db"
grep_in "$T/out" "2 new measurements"
run_gt 0 db merge "$T/a.json" --db "$T/one.db"
grep_in "$T/out" "0 new measurements"
run_gt 0 db merge "$T/b.json" --db "$T/two.db"
run_gt 0 db merge "$T/two.db" --db "$T/one.db"
grep_in "$T/out" "1 new measurements"
run_gt 0 db merge "$T/two.db" --db "$T/one.db"
grep_in "$T/out" "0 new measurements"
check "both devices are known" test "$("$SQL" "$T/one.db" "SELECT count(*) FROM device")" = 2
check "three winners" test "$("$SQL" "$T/one.db" "SELECT count(*) FROM winner")" = 3

# JSON out, into a fresh database, JSON out again: the same results.
run_gt 0 export --format json --no-shipped --db "$T/one.db" -o "$T/round1.json"
check "the export is valid JSON" test "$("$SQL" :memory: "SELECT json_valid(readfile('$T/round1.json'))" 2>/dev/null || \
	"$SQL" :memory: "SELECT json_valid('$(tr -d "'" < "$T/round1.json")')")" = 1
run_gt 0 db merge "$T/round1.json" --db "$T/three.db"
grep_in "$T/out" "3 new measurements"
run_gt 0 export --format json --no-shipped --db "$T/three.db" -o "$T/round2.json"
grep -v generated_at "$T/round1.json" > "$T/r1"
grep -v generated_at "$T/round2.json" > "$T/r2"
check "the JSON round-trips unchanged" cmp -s "$T/r1" "$T/r2"

# Equal figures (a few-microsecond kernel times in steps of the timer's):
# the winner is the one timed with the most launches, the confirmed one,
# though the other came in first.
{
	doc_head "GPU C" GPU-cccc 9 0
	printf ' "results": [\n'
	result_record GPU-cccc f32 1024 1024 1380 32 run-c
	printf ',\n'
	result_record GPU-cccc f32 1024 1024 1380 64 run-c | sed 's/"launches": 30/"launches": 1657/'
	printf '\n]}\n'
} > "$T/tie.json"
run_gt 0 db merge "$T/tie.json" --db "$T/tie.db"
grep_in "$T/out" "2 new measurements"
tie_winner() {
	"$SQL" "$T/tie.db" "SELECT v.params || ' ' || m.launches FROM winner w JOIN measurement m ON m.id = w.measurement_id
		JOIN variant v ON v.id = m.variant_id"
}
check "of equal figures the confirmed one wins ($(tie_winner))" test "$(tie_winner)" = \
	"tile=64,block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=1,shared=on 1657"

# A size measured in part (an interrupted run records no winner there)
# keeps its measurements but gets no winner from an import or a merge: it
# would otherwise narrow the candidates the rule reads at every other size.
results_doc "GPU D" GPU-dddd 9 0 run-d f32 1024x1024:3000:32 -- 1024x1024:2500:64 3000x3000:2000:64 > "$T/part.json"
winners_at() {
	"$SQL" "$1" "SELECT count(*) FROM winner WHERE rows = $2"
}
run_gt 0 db merge "$T/part.json" --db "$T/part.db"
grep_in "$T/out" "3 new measurements"
check "the import keeps the part-measured size's measurement" \
	test "$("$SQL" "$T/part.db" "SELECT count(*) FROM measurement WHERE rows = 3000")" = 1
check "the import makes no winner at the part-measured size" test "$(winners_at "$T/part.db" 3000)" = 0
check "the import keeps the measured size's winner" test "$(winners_at "$T/part.db" 1024)" = 1
run_gt 0 db merge "$T/part.db" --db "$T/part2.db"
grep_in "$T/out" "3 new measurements"
check "a merge makes no winner at the part-measured size" test "$(winners_at "$T/part2.db" 3000)" = 0
check "a merge keeps the measured size's winner" test "$(winners_at "$T/part2.db" 1024)" = 1
# Once the size is measured whole elsewhere, it has its winner, which the
# better figure of the two databases decides.
results_doc "GPU D" GPU-dddd 9 0 run-e f32 3000x3000:1900:32 > "$T/whole.json"
run_gt 0 db merge "$T/whole.json" --db "$T/part2.db"
check "a size with a winner in what comes in gets its winner" test "$(winners_at "$T/part2.db" 3000)" = 1
check "the winner there is the better figure ($("$SQL" "$T/part2.db" "SELECT m.gbps FROM winner w JOIN measurement m ON m.id = w.measurement_id WHERE w.rows = 3000"))" \
	test "$("$SQL" "$T/part2.db" "SELECT m.gbps FROM winner w JOIN measurement m ON m.id = w.measurement_id WHERE w.rows = 3000")" = 2000.0

# Bad JSON is refused and changes nothing.
"$SQL" "$T/three.db" "PRAGMA journal_mode = DELETE" >/dev/null
cp "$T/three.db" "$T/before.db"
printf '{"format": "gputune-results", "results": [' > "$T/broken.json"
run_gt 1 db merge "$T/broken.json" --db "$T/three.db"
grep_in "$T/err" "is not valid JSON"
printf '{"hello": "world"}' > "$T/other.json"
run_gt 1 db merge "$T/other.json" --db "$T/three.db"
grep_in "$T/err" "not gputune results"
sed -e 's/"device_uuid": "GPU-aaaa"/"device_uuid": "GPU-nowhere"/' -e 's/run-a/run-z/' "$T/a.json" > "$T/orphan.json"
run_gt 1 db merge "$T/orphan.json" --db "$T/three.db"
grep_in "$T/err" "name an unknown device"
printf 'neither\n' > "$T/neither.txt"
run_gt 1 db merge "$T/neither.txt" --db "$T/three.db"
grep_in "$T/err" "neither a gputune database nor gputune JSON"
run_gt 1 db merge "$T/none.json" --db "$T/three.db"
grep_in "$T/err" "cannot read"
check "refused merges left the database as it was" cmp -s "$T/three.db" "$T/before.db"
done_testing
