#!/bin/sh
# The example consumer builds with nvcc from a header exported from the
# shipped results (no GPU needed); it runs in t5004 where there is a GPU.
. "$(dirname "$0")/setup"

if [ -z "$NVCC" ] || [ ! -x "$NVCC" ]; then
	echo "skipped: no nvcc"
	exit 77
fi
run_gt 0 query --kernel transpose
check "the shipped results answer on a fresh machine" test "$(grep -c transpose "$T/out")" -gt 0
run_gt 0 export --kernel transpose -o "$T/gputune_transpose.h"
check "nvcc builds the example" "$NVCC" -arch=sm_90 -O2 -I"$T" "$top_srcdir/examples/transpose-example.cu" \
	-o "$T/transpose-example"
done_testing
