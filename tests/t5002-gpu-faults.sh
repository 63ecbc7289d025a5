#!/bin/sh
# On a GPU: a variant that computes a wrong result, one that writes past
# the end of its output and one that faults are each recorded with their
# reason, the run carries on, and a correct variant wins.
. "$(dirname "$0")/setup"
skip_without_gpu
SQL="$top_builddir/tests/sqlexec"

# The faults are in a test copy of the template (tests/faults/README).
fault_templates "$T/faults"

run_gt 0 transpose --templates "$T/faults" --sizes 256,1000x300 --quiet --no-probe --param tile=32 --param block_rows=8 --param pad=1 \
	--param unroll=1 --param mapping=cartesian --param vec=1,2 --param shared=on --param sector=off,on --param wide=1 --param realign=off --param pair=off --param async=off \
	--param rowclass=off --param inject=none,wrong,fault,overrun
cat "$T/out"
sed 's/^/# stderr: /' "$T/err"
q() { "$SQL" "$GPUTUNE_DB" "$1"; }
for size in "256 256" "1000 300"; do
	set -- $size
	at="m.rows = $1 AND m.cols = $2"
	j="FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE $at"
	check "$1x$2: the wrong variants are 'wrong'" test "$(q "SELECT count(*) $j AND v.params LIKE '%inject=wrong%' AND m.status = 'wrong'")" = 4
	check "$1x$2: the overruns are 'wrong', caught by the guards" \
		test "$(q "SELECT count(*) $j AND v.params LIKE '%inject=overrun%' AND m.status = 'wrong' AND m.reason LIKE '%outside the output%'")" = 4
	check "$1x$2: the faulting variants are 'fault'" \
		test "$(q "SELECT count(*) $j AND v.params LIKE '%inject=fault%' AND m.status = 'fault' AND m.reason LIKE '%ILLEGAL_ADDRESS%'")" = 4
	check "$1x$2: the correct ones are 'ok'" test "$(q "SELECT count(*) $j AND v.params NOT LIKE '%inject%' AND m.status = 'ok'")" -ge 2
	check "$1x$2: the winner is a correct variant" \
		test "$(q "SELECT v.params FROM winner w JOIN measurement m ON m.id = w.measurement_id JOIN variant v ON v.id = m.variant_id WHERE w.rows = $1 AND w.cols = $2" | grep -c inject)" = 0
done
check "the run ended complete" test "$(q "SELECT group_concat(DISTINCT status) FROM run")" = complete
check "the database is consistent" test "$(q "PRAGMA integrity_check")" = ok
grep_in "$T/out" "1000x300"
done_testing
