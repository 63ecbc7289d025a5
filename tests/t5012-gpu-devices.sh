#!/bin/sh
# On a GPU (every GPU of the host): --devices all runs one worker per GPU
# fed from one queue.  Every size is measured, each wholly by one GPU and
# stored under it, with a winner; the summary names each GPU's sizes.  A
# worker whose GPU faults (a variant of a test copy of the template)
# starts again and finishes its sizes.  Ctrl-C stops every worker (exit
# 130) and the same command resumes without measuring anything twice.
# With two GPUs or more, a worker killed outright, or one whose GPU stops
# answering (GPUTUNE_WORKER_TIMEOUT), is dropped and its sizes go to the
# others.  validate --devices spreads the held-out sizes over the GPUs.
. "$(dirname "$0")/setup"
skip_without_gpu
SQL="$top_builddir/tests/sqlexec"
q() { "$SQL" "$GPUTUNE_DB" "$1"; }
ngpu=$("$GPUTUNE" devices --format csv | tail -n +2 | wc -l)
echo "# $ngpu GPUs"

sizes=1024,1500x700,2048,3000,4096,700x1500,333,5000x1000
each_once() { # DESCRIPTION: every size of $sizes measured, each by one GPU
	check "$1: each size measured by one GPU only" \
		test "$(q "SELECT count(*) FROM (SELECT m.rows, m.cols FROM measurement m JOIN run r ON r.id = m.run_id GROUP BY m.rows, m.cols HAVING count(DISTINCT r.device_id) > 1)")" = 0
	check "$1: all 8 sizes measured" test "$(q "SELECT count(DISTINCT rows || 'x' || cols) FROM measurement")" = 8
}
run_gt 0 copy --devices all --sizes $sizes --no-probe
cat "$T/out"
each_once "copy"
check "copy: a winner at each size" test "$(q "SELECT count(*) FROM winner")" = 8
check "copy: the summary names each GPU" test "$(grep -c '^GPU [0-9]* (' "$T/out")" -eq "$ngpu"
used=$(q "SELECT count(DISTINCT r.device_id) FROM measurement m JOIN run r ON r.id = m.run_id")
if [ "$ngpu" -ge 2 ]; then
	check "copy: more than one GPU measured ($used)" test "$used" -ge 2
fi
before=$(q "SELECT count(*) FROM measurement")
run_gt 0 copy --devices all --sizes $sizes --no-probe
check "copy again: nothing measured twice" test "$(q "SELECT count(*) FROM measurement")" = "$before"

# A fault restarts a worker, which takes up its size again.
fault_templates "$T/faults"
export GPUTUNE_DB="$T/fault.db"
run_gt 0 transpose --devices all --templates "$T/faults" --sizes 256,1000x300,2048 --quiet --no-probe --param tile=32 \
	--param block_rows=8 --param pad=1 --param unroll=1 --param mapping=cartesian --param vec=1,2 --param shared=on \
	--param sector=off --param wide=1 --param realign=off --param pair=off --param async=off --param rowclass=off \
	--param inject=none,fault
check "faults: every faulting variant recorded as a fault" \
	test "$(q "SELECT count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.params LIKE '%inject=fault%' AND m.status = 'fault'")" = 6
check "faults: every other variant right" \
	test "$(q "SELECT count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id WHERE v.params NOT LIKE '%inject%' AND m.status <> 'ok'")" = 0
check "faults: a winner at each size" test "$(q "SELECT count(*) FROM winner")" = 3

# Ctrl-C: the parent passes it to every worker; the same command resumes.
export GPUTUNE_DB="$T/int.db"
"$GPUTUNE" transpose --devices all --sizes 2048,4096,3000 --quiet --no-probe >"$T/out1" 2>"$T/err1" &
pid=$!
wait_for_measurements 50
kill -INT $pid
wait $pid
rc=$?
check "an interrupted run over the GPUs exits 130 ($rc)" test $rc -eq 130
check "no worker is left" sh -c "! pgrep -f '[g]putune transpose --devices' >/dev/null"
check "the database is consistent" test "$(q "PRAGMA integrity_check")" = ok
first=$(q "SELECT count(*) FROM measurement")
check "measurements were kept ($first)" test "$first" -ge 50
run_gt 0 transpose --devices all --sizes 2048,4096,3000 --quiet --no-probe
check "the second run finished: a winner at each size" test "$(q "SELECT count(*) FROM winner")" = 3
check "nothing was measured twice" \
	test "$(q "SELECT count(*) FROM (SELECT variant_id, rows, cols FROM measurement GROUP BY variant_id, rows, cols HAVING count(*) > 1)")" = 0

# lose_worker WHAT SIGNAL [VAR=VALUE]: a copy run over every GPU whose
# first worker gets SIGNAL once measurements flow; the worker is dropped
# and its sizes go to the others (with one GPU, the run fails).  Its
# stderr is left in $T/err.
lose_worker() {
	_what=$1 _sig=$2
	shift 2
	export GPUTUNE_DB="$T/$_what.db"
	env "$@" "$GPUTUNE" copy --devices all --sizes $sizes --no-probe --quiet >"$T/out" 2>"$T/err" &
	pid=$!
	wait_for_measurements 5
	kill -"$_sig" "$(pgrep -P $pid | head -1)"
	wait $pid
	rc=$?
	sed 's/^/# stderr: /' "$T/err"
	grep_in "$T/err" "is dropped"
	if [ "$ngpu" -ge 2 ]; then
		check "the others finished the $_what worker's sizes (exit $rc)" test $rc -eq 0
		# What the lost worker measured stays, under its GPU; the size
		# is measured again wholly on another, whose winner it gets.
		check "after the $_what worker: a winner at each size" \
			test "$(q "SELECT count(DISTINCT rows || 'x' || cols) FROM winner")" = 8
	else
		check "with its only GPU dropped the run fails (exit $rc)" test $rc -eq 1
	fi
}

# A worker killed outright.
lose_worker killed KILL
# A GPU that stops answering (its worker stopped with SIGSTOP): after
# GPUTUNE_WORKER_TIMEOUT seconds without a result the worker is killed.
lose_worker stopped STOP GPUTUNE_WORKER_TIMEOUT=5
grep_in "$T/err" "no result for 5 s"
check "no worker is left after the stopped one" sh -c "! pgrep -f '[g]putune copy --devices' >/dev/null"

# validate --devices: the held-out sizes spread over the GPUs, each one's
# share of its best read on the GPU that measured it, and stored.
export GPUTUNE_DB="$T/validate.db"
SPACE="--param tile=32,64 --param block_rows=8 --param pad=1 --param unroll=1,2 --param mapping=colmajor --param vec=1,2 --param sector=off,on --param wide=1"
run_gt 0 transpose --sizes 512,2048 $SPACE --quiet
run_gt 0 validate transpose --devices all --sizes random:6:300-3000:3 --no-shipped $SPACE --format csv
sed 's/^/# /' "$T/out"
check "validate --devices: one row per held-out size" test "$(grep -c '^[0-9]*x[0-9]*,f32,' "$T/out")" -eq 6
check "every size has the choice's and the best figure" \
	sh -c "sed 's/\"[^\"]*\"/P/g' '$T/out' | awk -F, 'NR > 1 && (\$5 == \"\" || \$7 == \"\" || \$8 + 0 > 100.05) { bad = 1 } END { exit bad }'"
check "the six held-out points are stored" test "$(q "SELECT count(*) FROM validation")" = 6
if [ "$ngpu" -ge 2 ]; then
	check "the held-out sizes were measured on more than one GPU" \
		test "$(q "SELECT count(DISTINCT r.device_id) FROM measurement m JOIN run r ON r.id = m.run_id JOIN validation h ON h.rows = m.rows AND h.cols = m.cols")" -ge 2
fi
done_testing
