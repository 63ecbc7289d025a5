#!/bin/sh
# On a GPU: tune, export a header, build the example consumer against it,
# and run it: every element of its output is checked, at an untuned size
# the output of the header's calibration.
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
# 777x333 was not tuned: the example calibrated there, and the output the
# calibration's launches left is what was verified.
check "the untuned size was calibrated" grep -q "^777x333 .*calibrated.*verified" "$T/out"
check "the tuned sizes were not" test "$(grep -c calibrated "$T/out")" -eq 1
done_testing
