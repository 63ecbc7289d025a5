#!/bin/sh
# On a machine with a GPU: gputune devices, its figures and formats, and
# the checks made before any tuning work (memory, device index).
. "$(dirname "$0")/setup"
skip_without_gpu
SQL="$top_builddir/tests/sqlexec"

run_gt 0 devices
grep_in "$T/out" "GPU-"
cat "$T/out"
cc=$(awk 'NR == 2 { print $0 }' "$T/out" | grep -o ' [0-9]\.[0-9] ' | head -1 | tr -d ' ')
check "a compute capability is listed ($cc)" test -n "$cc"
run_gt 0 devices --format json
check "--format json is valid JSON" test "$("$SQL" :memory: "SELECT json_valid('$(tr -d "'" < "$T/out")')")" = 1
run_gt 0 devices --format csv
grep_in "$T/out" "index,name,cc,sms,memory_mib,l2_kib,peak_gbps,uuid"
# A size that cannot fit is refused before any work.
run_gt 1 transpose --sizes 1024,1048576x16384 --dtype f64
grep_in "$T/err" "size 1048576x16384 f64 needs"
check "nothing was written" test ! -e "$GPUTUNE_DB"
run_gt 3 transpose --sizes 1024 --device 7
grep_in "$T/err" "there is no GPU 7"
CUDA_VISIBLE_DEVICES= "$GPUTUNE" devices >"$T/out" 2>"$T/err"
check "CUDA_VISIBLE_DEVICES='' hides every GPU (exit 3)" test $? -eq 3
done_testing
