#!/bin/sh
# An interrupt stops a run cleanly, also when it arrives twice at once (as
# `timeout` and a signal to a process group deliver it): the run says it
# was interrupted and exits 130, rather than ending abruptly on the second
# copy.  Checked on a compile-only run, which needs no GPU.
. "$(dirname "$0")/setup"

"$GPUTUNE" gemm --dry-run --arch sm_90 --sample 300:5 --cache-dir "$T/cache" >"$T/out1" 2>"$T/err1" &
pid=$!
# Interrupt once variants are being compiled.
i=0
while [ $i -lt 300 ] && [ -z "$(ls "$T/cache" 2>/dev/null)" ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -TERM $pid
kill -TERM $pid
start=$(date +%s)
wait $pid
rc=$?
check "a doubled interrupt exits 130 ($rc)" test $rc -eq 130
grep_in "$T/err1" "interrupted"
check "it stopped promptly" test $(($(date +%s) - start)) -le 20
check "it did not finish the compilation" sh -c "! grep -q '^compiled' '$T/out1'"

# SIGTERM to the whole process group (as `timeout` and `kill -- -PGID`
# send it) reaches the compile workers too.  They leave it to the run,
# which stops cleanly; a worker killed by it once made the variant in
# hand look like one that failed to compile.
if command -v setsid >/dev/null 2>&1; then
	setsid "$GPUTUNE" transpose --sizes 1024-8192 --dry-run --arch sm_90 --sample 80:3 \
		--cache-dir "$T/cache2" >"$T/out2" 2>"$T/err2" &
	pid=$!
	i=0
	while [ $i -lt 300 ] && [ -z "$(ls "$T/cache2" 2>/dev/null)" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -TERM -$pid
	wait $pid
	rc=$?
	check "SIGTERM to the process group exits 130 ($rc)" test $rc -eq 130
	grep_in "$T/err2" "interrupted"
	check "no variant is reported failed" sh -c "! grep -q 'failed to compile\|worker died' '$T/err2' '$T/out2'"
	grep 'failed' "$T/err2" | head -3 | sed 's/^/#   /'
else
	echo "# no setsid: the process-group case could not run"
fi
done_testing
