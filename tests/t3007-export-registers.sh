#!/bin/sh
# Register counts travel with the results: a measurement's "registers"
# (stored by the tuner as NVRTC built the kernel) is imported, exported
# to JSON again and merged, and export bounds the header's kernel by it
# without compiling (it needs no compile cache); a document without them
# makes export compile, and a count out of range is refused.  An export
# is dated by the newest run it holds, so exporting again gives the same
# bytes.
. "$(dirname "$0")/setup"
. "$top_srcdir/tests/results-doc"
SQL="$top_builddir/tests/sqlexec"

results_doc "NVIDIA H100" GPU-regs 9 0 run-regs f32 2048x2048:3000:32 > "$T/plain.json"
sed 's/"launches": 30,/"launches": 30, "registers": 40,/' "$T/plain.json" > "$T/regs.json"
check "the document names a register count" grep -q '"registers": 40' "$T/regs.json"
run_gt 0 db merge "$T/regs.json" --db "$T/regs.db"
check "the count is stored with the measurement" test "$("$SQL" "$T/regs.db" "SELECT registers FROM measurement")" = 40

# A compile cache that cannot be made: a file where its directory would be.
: > "$T/file"
run_gt 0 export --kernel transpose --no-shipped --db "$T/regs.db" --cache-dir "$T/file/cache" -o "$T/regs.h"
check "export compiled nothing (no word of the compile cache)" sh -c "! grep -q 'compile cache' '$T/err'"
# 40 registers of 256 threads: 6 blocks per SM (64 Ki registers).
grep_in "$T/regs.h" "gputune_transpose_kernel<6, "

run_gt 0 db merge "$T/plain.json" --db "$T/plain.db"
run_gt 0 export --kernel transpose --no-shipped --db "$T/plain.db" --cache-dir "$T/file/cache" -o "$T/plain.h"
grep_in "$T/err" "cannot create the compile cache directory"

# Through JSON and a merge, the same header.
run_gt 0 export --format json --no-shipped --db "$T/regs.db" -o "$T/round.json"
grep_in "$T/round.json" '"registers": 40'
run_gt 0 db merge "$T/round.json" --db "$T/round.db"
run_gt 0 export --kernel transpose --no-shipped --db "$T/round.db" --cache-dir "$T/file/cache" -o "$T/round.h"
grep -v Generated "$T/regs.h" > "$T/a"
grep -v Generated "$T/round.h" > "$T/b"
check "the merged copy exports the same header" cmp -s "$T/a" "$T/b"

sleep 1
run_gt 0 export --kernel transpose --no-shipped --db "$T/regs.db" --cache-dir "$T/file/cache" -o "$T/again.h"
check "a second export, a second later, is the same bytes" cmp -s "$T/regs.h" "$T/again.h"
grep_in "$T/regs.h" "from runs up to 2026-11-22T00:00:00Z; timing mode: flushed"
run_gt 0 export --format json --no-shipped --db "$T/regs.db" -o "$T/again.json"
check "so is a second JSON export" cmp -s "$T/round.json" "$T/again.json"

for bad in 0 256; do
	sed "s/\"launches\": 30,/\"launches\": 30, \"registers\": $bad,/" "$T/plain.json" > "$T/bad.json"
	run_gt 1 db merge "$T/bad.json" --db "$T/bad.db"
	grep_in "$T/err" "registers: must be an integer from 1 to 255 (got $bad)"
done
done_testing
