#!/bin/sh
# Device names from a database are data, never code: names with quotes,
# backslashes, comment ends, newlines and trigraphs neither break the
# header nor inject into it, and come out of it byte for byte.
. "$(dirname "$0")/setup"
. "$top_srcdir/tests/results-doc"

# As JSON string bodies; the C side below holds the same bytes.
results_doc 'Evil \"GPU\" */ #error injected\n#define X \\ ??= end' GPU-evil1 9 0 run-1 f32 1024x1024:1000:32 > "$T/a.json"
results_doc '*/ int injected = 1; /*' GPU-evil2 9 0 run-2 f32 2048x2048:2000:64 > "$T/b.json"
for j in a b; do "$GPUTUNE" db merge "$T/$j.json" >/dev/null; done
run_gt 0 export --kernel transpose --no-shipped -o "$T/h.h"
cat > "$T/t.c" <<'C'
#include "h.h"
#include <stdio.h>
int main(void)
{
	const char *a = "Evil \"GPU\" */ #error injected\n#define X \\ ?\?= end";
	const char *b = "*/ int injected = 1; /*";
	int found = 0;
	for (size_t i = 0; i < GPUTUNE_TRANSPOSE_NUM_ENTRIES; i++)
		found += !strcmp(gputune_transpose_entries[i].device, a) + 2 * !strcmp(gputune_transpose_entries[i].device, b);
	if (gputune_transpose_choose(a, 0, "f32", 1024, 1024) < 0)
		return 2;
	return found == 3 ? 0 : 1;
}
C
if $CC -std=c11 -Wall -Wextra -Werror -I"$T" "$T/t.c" -o "$T/t" 2>"$T/cc.err"; then
	ok "a header from hostile names compiles"
	check "the names come out of it byte for byte" "$T/t"
else
	not_ok "a header from hostile names compiles"
	sed 's/^/#   /' "$T/cc.err" | head
fi
check "no line of the header starts with injected code" sh -c "! grep -q '^#error injected\|^int injected\|^#define X' '$T/h.h'"
if [ -n "$NVCC" ] && [ -x "$NVCC" ]; then
	cp "$T/t.c" "$T/t.cu"
	check "nvcc compiles it too" "$NVCC" -arch=sm_90 -I"$T" -c "$T/t.cu" -o "$T/t.o"
fi
run_gt 0 export --format json --no-shipped -o "$T/out.json"
run_gt 0 db merge "$T/out.json" --db "$T/round.db"
run_gt 0 query --no-shipped --db "$T/round.db" --device GPU-evil2 --format csv
grep_in "$T/out" '*/ int injected = 1; /*'
done_testing
