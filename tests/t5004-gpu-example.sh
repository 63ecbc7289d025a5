#!/bin/sh
# On a GPU: tune, export a header, build the example consumer against it,
# and run it: every element of its output is checked.
. "$(dirname "$0")/setup"
skip_without_gpu
gpu_nvcc

run_gt 0 transpose --sizes 4096,8192x8192,1000x3001 --quiet
run_gt 0 export --kernel transpose --no-shipped -o "$T/gputune_transpose.h"
check "nvcc builds the example" "$NVCC" -arch=sm_90 -O2 -I"$T" "$top_srcdir/examples/transpose-example.cu" \
	-o "$T/transpose-example"
"$T/transpose-example" 4096x4096 8192x8192 1000x3001 777x333 >"$T/out" 2>"$T/err"
check "the example's results are right" test $? -eq 0
sed 's/^/# /' "$T/out" "$T/err"
check "every size verified" test "$(grep -c verified "$T/out")" -eq 4
done_testing
