#!/bin/sh
# The reduction exports like the transpose, from the shipped results (no
# GPU needed): the header compiles with cc and nvcc; its choice at tuned
# and untuned lengths agrees with `query --size`; it says how much scratch
# memory a variant needs; and every program it hands NVRTC compiles.
. "$(dirname "$0")/setup"

run_gt 0 export --kernel reduce -o "$T/gputune_reduce.h"
grep_in "$T/gputune_reduce.h" "gputune_reduce_scratch_bytes(int variant, unsigned long long n)"
grep_in "$T/gputune_reduce.h" 'gputune_reduce_choose(const char *device, int cc, const char *dtype,'
grep_in "$T/gputune_reduce.h" '"i32"'

cat > "$T/use.c" <<'C'
#include "gputune_reduce.h"
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	(void)argc;
	/* Each length: the variant's parameters, or "none"; and its scratch. */
	for (int i = 1; argv[i]; i++) {
		long n = atol(argv[i]);
		int v = gputune_reduce_choose("NVIDIA H200", 90, "f32", n);
		if (v < 0) {
			printf("%ld none\n", n);
			continue;
		}
		size_t s = gputune_reduce_scratch_bytes(v, (unsigned long long)n);
		unsigned grid[3], block[3];
		gputune_reduce_geometry(v, (unsigned long long)n, grid, block);
		if (s < 256 + 8 * (size_t)grid[0] || block[0] != (unsigned)gputune_reduce_variants[v].config.threads)
			return 3;
		printf("%ld %s\n", n, gputune_reduce_variants[v].params);
	}
	return gputune_reduce_choose("Unknown GPU", 75, "f16", 1000) == -1 ? 0 : 4;
}
C
sizes="65536 1000 99999 1048576 3000001 268435456 77777777"
if $CC -std=c11 -Wall -Wextra -Werror -Wno-unused-const-variable -Wno-unused-function -I"$T" "$T/use.c" -o "$T/use" \
	2>"$T/cc.err"; then
	ok "the header compiles with $CC"
	# shellcheck disable=SC2086
	check "the header's helpers agree with each other" sh -c "'$T/use' $sizes > '$T/header.txt'"
	for n in $sizes; do
		"$GPUTUNE" query --kernel reduce --dtype f32 --size "$n" --device H200 --format csv |
			sed -n "s/^[^\"]*,flushed,\"\([^\"]*\)\".*/$n \1/p" | head -1
	done > "$T/query.txt"
	if cmp -s "$T/header.txt" "$T/query.txt"; then
		ok "query --size and the header agree at $sizes"
	else
		not_ok "query --size and the header disagree"
		diff "$T/header.txt" "$T/query.txt" | sed 's/^/#   /'
	fi
else
	not_ok "the header compiles with $CC"
	sed 's/^/#   /' "$T/cc.err" | head -20
fi
grep_in "$T/header.txt" "65536 threads="

if [ -n "$NVCC" ] && command -v "$NVCC" >/dev/null 2>&1; then
	printf '#include "gputune_reduce.h"\nint main(void) { return gputune_reduce_launch(-1, 0, 0, 0, 0, 0) == cudaErrorInvalidValue ? 0 : 1; }\n' \
		> "$T/use.cu"
	check "the header compiles with nvcc (every variant instantiated)" \
		"$NVCC" -std=c++17 -arch=sm_90 -I"$T" -c "$T/use.cu" -o "$T/use.o"
fi

check_header_programs reduce
done_testing
