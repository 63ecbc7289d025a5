#!/bin/sh
# On a fresh machine with no GPU, the shipped results answer queries and
# export a header that compiles as C11 and with nvcc, and the example
# consumer builds against it; it runs in t5004 where there is a GPU.
. "$(dirname "$0")/setup"

run_gt 0 query --kernel transpose
check "the shipped results answer on a fresh machine" test "$(grep -c transpose "$T/out")" -gt 0
grep_in "$T/out" "shipped"
run_gt 0 export --kernel transpose -o "$T/gputune_transpose.h"
printf '#include "gputune_transpose.h"\nint main(void) { return gputune_transpose_choose("NVIDIA H200", 90, "f32", 8192, 8192) < 0; }\n' > "$T/c.c"
check "the shipped header compiles with $CC -std=c11 -Wall -Wextra -Werror" \
	$CC -std=c11 -Wall -Wextra -Werror -I"$T" "$T/c.c" -o "$T/c"
check "and picks a tuned kernel for the H200" "$T/c"
run_gt 0 export --format json -o "$T/shipped.json"
run_gt 0 db merge "$T/shipped.json" --db "$T/round.db"
if [ -z "$NVCC" ] || [ ! -x "$NVCC" ]; then
	echo "# no nvcc: the example was not built"
	done_testing
fi
check "nvcc builds the example" "$NVCC" -arch=sm_90 -O2 -I"$T" "$top_srcdir/examples/transpose-example.cu" \
	-o "$T/transpose-example"
done_testing
