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
done_testing
