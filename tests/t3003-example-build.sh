#!/bin/sh
# On a fresh machine with no GPU, the shipped results answer queries and
# export a header that compiles as C11 and with nvcc, and the example
# consumer builds against it with `make -C examples`; it runs in t5004
# where there is a GPU, and says there is none where there is not.
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
# The one documented command builds it (nvcc, against the header it
# exports), from a copy of examples/.
mkdir -p "$T/ex"
cp "$top_srcdir/examples/transpose-example.cu" "$top_srcdir/examples/Makefile" "$T/ex/"
check "make -C examples builds the example" make -s -C "$T/ex" GPUTUNE="$GPUTUNE" NVCC="$NVCC"
check "...against a header it exported" test -s "$T/ex/gputune_transpose.h" -a -x "$T/ex/transpose-example"
if ! has_gpu; then
	"$T/ex/transpose-example" > "$T/out" 2> "$T/err"
	check "without a GPU the example says so and exits 2" test $? -eq 2
	grep_in "$T/err" "no CUDA GPU here"
fi
done_testing
