#!/bin/sh
# Hostile and inconsistent results refused whole, before anything is
# written: every field is checked for its type and range, every record
# against the family it names, and every run for the device it belongs
# to.  The message names the array, the record's index and the field.
# Cases come from t2008-db-hostile-import.data: a sed expression applied
# to one record of a good document, then " => " and what stderr says.
. "$(dirname "$0")/setup"
. "$top_srcdir/tests/results-doc"
SQL="$top_builddir/tests/sqlexec"

results_doc "GPU A" GPU-aaaa 9 0 run-a f32 1024x1024:3000:32 2048x2048:3500:64 > "$T/good.json"
run_gt 0 db merge "$T/good.json" --db "$T/base.db"
grep_in "$T/out" "2 new measurements"
cp "$T/base.db" "$T/base.copy"

while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	expr=${line%% => *}
	want=${line#* => }
	sed "$expr" "$T/good.json" > "$T/bad.json"
	if cmp -s "$T/good.json" "$T/bad.json"; then
		not_ok "the case '$expr' changes the document"
		continue
	fi
	"$GPUTUNE" db merge "$T/bad.json" --db "$T/base.db" >"$T/out" 2>"$T/err"
	rc=$?
	check "'$expr' is refused ($rc)" test "$rc" -eq 1
	grep_in "$T/err" "$want"
	check "'$expr': the database is unchanged" cmp -s "$T/base.db" "$T/base.copy"
	# A new database is not even created for a refused file.
	"$GPUTUNE" db merge "$T/bad.json" --db "$T/new.db" >/dev/null 2>&1
	check "'$expr': no new database is created" test ! -e "$T/new.db"
done < "$top_srcdir/tests/t2008-db-hostile-import.data"

# A device whose UUID and name changed but whose run UUIDs were kept: its
# records would be filed under the other device's run and dropped as
# already there.  Refused, saying so.
sed 's/GPU-aaaa/GPU-zzzz/g; s/"GPU A"/"GPU Z"/' "$T/good.json" > "$T/renamed.json"
run_gt 1 db merge "$T/renamed.json" --db "$T/base.db"
grep_in "$T/err" 'results[0].run.uuid: "run-a" is a run of "GPU-aaaa" with transpose in this database, where the record names "GPU-zzzz"'
check "nothing of the renamed device came in" test "$("$SQL" "$T/base.db" "SELECT count(*) FROM device")" = 1
# The same between two database files.
run_gt 0 db merge "$T/renamed.json" --db "$T/renamed.db"
run_gt 1 db merge "$T/renamed.db" --db "$T/base.db"
grep_in "$T/err" 'run "run-a": is in this database too, made on "GPU-aaaa" with transpose, where that file says "GPU-zzzz"'
check "the database is unchanged" cmp -s "$T/base.db" "$T/base.copy"

# One document naming one run with two devices.
{
	doc_head "GPU A" GPU-aaaa 9 0 | sed '/driver_version/s/}],$/}, {"uuid": "GPU-bbbb", "name": "B", "cc_major": 9, "cc_minor": 0, "sm_count": 1, "mem_bytes": 1, "l2_bytes": 1, "bus_width_bits": 1, "mem_clock_khz": 1, "driver_version": 1}],/'
	printf ' "results": [\n'
	result_record GPU-aaaa f32 512 512 100 32 run-x
	printf ',\n'
	result_record GPU-bbbb f32 512 512 100 32 run-x
	printf '\n]}\n'
} > "$T/two-devices.json"
run_gt 1 db merge "$T/two-devices.json" --db "$T/base.db"
grep_in "$T/err" 'run "run-x": its records name more than one device or kernel'

# A database file with a hostile row is refused as JSON is.
cp "$T/base.db" "$T/hostile.db"
"$SQL" "$T/hostile.db" "UPDATE measurement SET median_ms = -1 WHERE id = 1; UPDATE device SET cc_minor = 99999999999"
run_gt 1 db merge "$T/hostile.db" --db "$T/other.db"
grep_in "$T/err" "device row 1: cc_minor: must be an integer from 0 to 99 (got 99999999999)"
check "a refused database file creates nothing" test ! -e "$T/other.db"
"$SQL" "$T/hostile.db" "UPDATE device SET cc_minor = 0; UPDATE variant SET dtype = 'f32\"; int evil; \"'"
run_gt 1 db merge "$T/hostile.db" --db "$T/base.db"
grep_in "$T/err" "variant row 1: dtype: must be a name"
check "the database is unchanged" cmp -s "$T/base.db" "$T/base.copy"

# What is refused never reaches a header: the database still exports.
run_gt 0 export --kernel transpose --no-shipped --db "$T/base.db" -o "$T/h.h"

# The shipped results pass every check (they are loaded unchecked).
run_gt 0 db merge "$top_srcdir/db/shipped.json" --db "$T/shipped.db"

# Documents SQLite 3.40 misreads: an object as a key (json_valid calls it
# valid, and json_extract crashed on it), and bytes that are not UTF-8.
# Each is refused before SQLite reads it, and no database is made.
printf '{"format": "gputune-results", "version": 1, "results": [], {"a": 1}: 2}\n' >"$T/objkey.json"
run_gt 1 db merge "$T/objkey.json" --db "$T/objkey.db"
grep_in "$T/err" "objkey.json is not valid JSON: an object key that is not a string at byte 59"
check "no database was made of it" test ! -e "$T/objkey.db"
printf '{"format": "gputune-results", "version": 1, "results": [], "x": "\215\232"}\n' >"$T/utf8.json"
run_gt 1 db merge "$T/utf8.json" --db "$T/utf8.db"
grep_in "$T/err" "utf8.json is not valid JSON: a byte that is not UTF-8 at byte 65"
run_gt 1 db merge "$T/objkey.json" --db "$T/base.db"
check "a database merged into is unchanged" cmp -s "$T/base.db" "$T/base.copy"
done_testing
