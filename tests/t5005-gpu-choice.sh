#!/bin/sh
# On a GPU: a tuning run measures extra sizes of every row alignment after
# the requested ones (and not with --no-probe), the exported header then
# answers at those, and `validate` times the header's choice at held-out
# sizes (confirmed like a winner) against each size's own best.  A
# narrowed space keeps it quick.
. "$(dirname "$0")/setup"
skip_without_gpu
SPACE="--param tile=32,64 --param block_rows=8 --param pad=1 --param unroll=1,2 --param mapping=colmajor --param vec=1,2 --param sector=off,on --param wide=1"

run_gt 0 transpose --sizes 512,2048 $SPACE --no-probe --quiet --db "$T/plain.db"
run_gt 0 query --no-shipped --db "$T/plain.db" --format csv
check "--no-probe measures the requested sizes only" test "$(grep -c transpose "$T/out")" -eq 2

run_gt 0 transpose --sizes 512,2048 $SPACE
grep_in "$T/err" "extra sizes for the choice at untuned sizes"
grep_in "$T/out" "extra sizes ("
run_gt 0 query --no-shipped --format csv
n=$(grep -c transpose "$T/out")
check "the extra sizes are stored with winners ($n sizes)" test "$n" -gt 10
check "odd row counts among them" sh -c "grep -Eq ',[0-9]*[13579]x[0-9]+,' '$T/out'"
run_gt 0 export --kernel transpose --no-shipped -o "$T/gputune_transpose.h"
grep_in "$T/gputune_transpose.h" "candidates"

run_gt 0 validate transpose --sizes random:4:300-3000:5 --no-shipped $SPACE --format csv
check "one row per held-out size" test "$(grep -c '^[0-9]*x[0-9]*,f32,' "$T/out")" -eq 4
# The variants' names are quoted fields with commas: each becomes P, so
# that the columns can be counted (size, dtype, choice, how, gbps,
# pct_ceiling, best_gbps, pct_of_best, best, calibrated,
# calibrated_pct_of_best).
sed 's/"[^"]*"/P/g' "$T/out" > "$T/rows"
check "eleven columns in every row" sh -c "awk -F, 'NF != 11 { bad = 1 } END { exit bad }' '$T/rows'"
check "every size has the choice's, the best and the calibrated figure" \
	sh -c "awk -F, 'NR > 1 && (\$5 == \"\" || \$7 == \"\" || \$11 == \"\") { bad = 1 } END { exit bad }' '$T/rows'"
check "no choice beats its size's best" \
	sh -c "awk -F, 'NR > 1 && \$8 + 0 > 100.05 { bad = 1 } END { exit bad }' '$T/rows'"
check "the calibrated pick is at least the choice and at most the best" \
	sh -c "awk -F, 'NR > 1 && (\$11 + 0 < \$8 + 0 || \$11 + 0 > 100.05) { bad = 1 } END { exit bad }' '$T/rows'"
grep_in "$T/err" "held-out f32"
grep_in "$T/err" "calibrated (the fastest of the rule's 4 best"
# The choice is confirmed as each size's winner is (at least 100 launches,
# the default being 30), so the share compares two equally sure figures.
SQL="$top_builddir/tests/sqlexec"
CONFIRMED="SELECT count(*) FROM validation h JOIN variant v ON v.params = h.params AND v.dtype = h.dtype
 JOIN measurement m ON m.run_id = h.run_id AND m.variant_id = v.id AND m.rows = h.rows AND m.cols = h.cols
 WHERE m.launches >= 100"
check "each held-out choice was confirmed with the winner's launches" \
	test "$("$SQL" "$GPUTUNE_DB" "$CONFIRMED")" -eq 4
# So were the rule's other three best at each size, which calibration
# picks from: at least 4 variants with 100 launches or more per size.
RANKED="SELECT count(*) FROM (SELECT m.rows, m.cols FROM measurement m JOIN validation h ON h.run_id = m.run_id
 AND h.rows = m.rows AND h.cols = m.cols WHERE m.launches >= 100 GROUP BY m.rows, m.cols HAVING count(*) >= 4)"
check "the ranked candidates were confirmed too" test "$("$SQL" "$GPUTUNE_DB" "$RANKED")" -eq 4
sed 's/^/# /' "$T/out" "$T/err"
done_testing
