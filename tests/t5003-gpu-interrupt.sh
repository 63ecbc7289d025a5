#!/bin/sh
# On a GPU: Ctrl-C in the middle of a run keeps what was measured (exit
# 130, a consistent database), and the same command then finishes the job
# without measuring anything twice.
. "$(dirname "$0")/setup"
skip_without_gpu
SQL="$top_builddir/tests/sqlexec"
q() { "$SQL" "$GPUTUNE_DB" "$1"; }

"$GPUTUNE" transpose --sizes 2048,4096 --quiet --no-probe >"$T/out1" 2>"$T/err1" &
pid=$!
# Interrupt once measurements are flowing.
wait_for_measurements 50
kill -INT $pid
wait $pid
rc=$?
check "an interrupted run exits 130 ($rc)" test $rc -eq 130
grep_in "$T/err1" "interrupted"
check "the database is consistent" test "$(q "PRAGMA integrity_check")" = ok
check "the run is marked interrupted" test "$(q "SELECT status FROM run")" = interrupted
first=$(q "SELECT count(*) FROM measurement")
check "measurements were kept ($first)" test "$first" -ge 50

run_gt 0 transpose --sizes 2048,4096 --quiet --no-probe
variants=$(q "SELECT count(DISTINCT variant_id) FROM measurement")
total=$(q "SELECT count(*) FROM measurement")
check "the second run finished the job ($total = 2 x $variants)" test "$total" -eq $((2 * variants))
check "nothing was measured twice" test "$(q "SELECT count(*) FROM (SELECT variant_id, rows FROM measurement GROUP BY variant_id, rows HAVING count(*) > 1)")" = 0
check "both sizes have a winner" test "$(q "SELECT count(*) FROM winner")" = 2
run_gt 0 transpose --sizes 2048,4096 --quiet --no-probe
check "a third run measures nothing" test "$(q "SELECT count(*) FROM measurement")" = "$total"
done_testing
