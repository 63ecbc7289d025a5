#!/bin/sh
# A database of the first schema version is migrated step by step and
# keeps its rows; a fresh file gets the whole schema.
. "$(dirname "$0")/setup"
SQL="$top_builddir/tests/sqlexec"

"$SQL" "$T/v1.db" "$(cat "$top_srcdir/db/001-initial.sql")
PRAGMA user_version = 1; PRAGMA application_id = 1196709198;
INSERT INTO device VALUES (1, 'GPU-old', 'Old GPU', 8, 0, 108, 1, 1, 5120, 1215000, 12000);
INSERT INTO family VALUES (1, 'transpose', 'tile');
INSERT INTO variant VALUES (1, 1, 'f32', 'tile=32,block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=1,shared=on', 'abc');
INSERT INTO run VALUES (1, 'run-old', 1, 1, '2026-01-01T00:00:00Z', NULL, '0.0.1', '12.0', 'flushed', 30, 'complete');
INSERT INTO measurement VALUES (1, 1, 1, 1024, 1024, 'ok', NULL, 0.01, 0.009, 0.02, 1000, 0.8);
INSERT INTO winner VALUES (1, 1, 'f32', 1024, 1024, 'flushed', 1);"
check "a version-1 file was made" test "$("$SQL" "$T/v1.db" "PRAGMA user_version")" = 1

run_gt 0 db info --db "$T/v1.db"
grep_in "$T/out" "schema_version  3"
check "migrated: user_version is 3" test "$("$SQL" "$T/v1.db" "PRAGMA user_version")" = 3
check "migrated: the new columns exist" "$SQL" "$T/v1.db" "SELECT p25_ms, p75_ms, launches FROM measurement"
check "migrated: the old family is 2-D in GB/s, its ceilings copies" \
	test "$("$SQL" "$T/v1.db" "SELECT shape || ' ' || metric FROM family")" = "2d GB/s"
check "migrated: ceilings say what they timed" "$SQL" "$T/v1.db" "SELECT kind FROM ceiling"
check "migrated: the old row is kept" test "$("$SQL" "$T/v1.db" "SELECT median_ms FROM measurement")" = 0.01
run_gt 0 query --db "$T/v1.db" --no-shipped
grep_in "$T/out" "Old GPU"

run_gt 1 db info --db "$T/fresh.db"
check "a reading command does not create a database" test ! -e "$T/fresh.db"
. "$top_srcdir/tests/results-doc"
results_doc "GPU A" GPU-aaaa 9 0 run-1 f32 1024x1024:3000:32 > "$T/a.json"
run_gt 0 db merge "$T/a.json" --db "$T/fresh/sub/dir.db"
check "a fresh file gets the current schema" test "$("$SQL" "$T/fresh/sub/dir.db" "PRAGMA user_version")" = 3
check "in WAL mode" test "$("$SQL" "$T/fresh/sub/dir.db" "PRAGMA journal_mode")" = wal
done_testing
