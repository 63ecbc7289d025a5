#!/bin/sh
# A database of the first schema version is migrated step by step and
# keeps its rows; a fresh file gets the whole schema.
. "$(dirname "$0")/setup"
SQL="$top_builddir/tests/sqlexec"

schema1_db "$T/v1.db"
check "a version-1 file was made" test "$("$SQL" "$T/v1.db" "PRAGMA user_version")" = 1

run_gt 0 db info --db "$T/v1.db"
grep_in "$T/out" "schema_version  6"
check "migrated: user_version is 6" test "$("$SQL" "$T/v1.db" "PRAGMA user_version")" = 6
check "migrated: the new columns exist" "$SQL" "$T/v1.db" "SELECT p25_ms, p75_ms, launches FROM measurement"
check "migrated: the old family is 2-D in GB/s, its ceilings copies" \
	test "$("$SQL" "$T/v1.db" "SELECT shape || ' ' || metric FROM family")" = "2d GB/s"
check "migrated: ceilings say what they timed" "$SQL" "$T/v1.db" "SELECT kind FROM ceiling"
check "migrated: the run-conditions and validation tables exist" \
	"$SQL" "$T/v1.db" "SELECT count(*) FROM run_condition JOIN validation USING (run_id)"
check "migrated: a run made before says nothing about its conditions" \
	test "$("$SQL" "$T/v1.db" "SELECT count(*) FROM run WHERE conditions IS NULL")" = 1
check "migrated: the old row is kept" test "$("$SQL" "$T/v1.db" "SELECT median_ms FROM measurement")" = 0.01
check "migrated: the measurement and the winner have depth 1" \
	test "$("$SQL" "$T/v1.db" "SELECT (SELECT group_concat(depth) FROM measurement) || ' ' ||
		(SELECT group_concat(depth) FROM winner)")" = "1 1"
check "migrated: the winner still names its measurement" \
	test "$("$SQL" "$T/v1.db" "SELECT count(*) FROM winner w JOIN measurement m ON m.id = w.measurement_id")" = 1
check "migrated: the depth is part of the measurement's key" \
	"$SQL" "$T/v1.db" "INSERT INTO measurement (run_id, variant_id, rows, cols, depth, status)
		SELECT run_id, variant_id, rows, cols, 7, 'ok' FROM measurement"
check "migrated: ceilings may be FMA rates" \
	"$SQL" "$T/v1.db" "INSERT INTO ceiling (run_id, dtype, rows, cols, depth, memcpy_gbps, copy_kernel_gbps,
		ceiling_gbps, kind) SELECT run_id, dtype, rows, cols, 7, 0, 1, 1, 'fma' FROM ceiling"
run_gt 0 query --db "$T/v1.db" --no-shipped
grep_in "$T/out" "Old GPU"

run_gt 1 db info --db "$T/fresh.db"
check "a reading command does not create a database" test ! -e "$T/fresh.db"
. "$top_srcdir/tests/results-doc"
results_doc "GPU A" GPU-aaaa 9 0 run-1 f32 1024x1024:3000:32 > "$T/a.json"
run_gt 0 db merge "$T/a.json" --db "$T/fresh/sub/dir.db"
check "a fresh file gets the current schema" test "$("$SQL" "$T/fresh/sub/dir.db" "PRAGMA user_version")" = 6
check "in WAL mode" test "$("$SQL" "$T/fresh/sub/dir.db" "PRAGMA journal_mode")" = wal

# A schema-5 file whose matrix product was stored as 2-D (as gputune wrote
# it then): the migration puts the family's row right, from its descriptor,
# and adds the register counts' column.
steps=""
for v in 1 2 3 4 5; do
	steps="$steps$(cat "$top_srcdir"/db/00$v-*.sql)
"
done
"$SQL" "$T/v5.db" "$steps PRAGMA user_version = 5; PRAGMA application_id = 1196709198;
INSERT INTO family (name, params, shape, metric) VALUES ('gemm', 'bm,bn,bk', '2d', 'GFLOP/s');" > /dev/null
check "a schema-5 file with a 2-D matrix product" test "$("$SQL" "$T/v5.db" "SELECT shape FROM family")" = 2d
run_gt 0 db merge "$T/a.json" --db "$T/v5.db"
check "migrated to schema 6" test "$("$SQL" "$T/v5.db" "PRAGMA user_version")" = 6
check "the matrix product is 3-D" test "$("$SQL" "$T/v5.db" "SELECT shape FROM family WHERE name = 'gemm'")" = 3d
check "measurements have a register count column" \
	test "$("$SQL" "$T/v5.db" "SELECT count(*) FROM measurement WHERE registers IS NULL")" -ge 1
done_testing
