#!/bin/sh
# Bad database files: one clear line, a non-zero exit, and the file left
# exactly as it was (its bytes are compared before and after).
. "$(dirname "$0")/setup"
. "$top_srcdir/tests/results-doc"
SQL="$top_builddir/tests/sqlexec"

# expect_refused FILE MESSAGE ARGS...: gputune ARGS --db FILE fails, says
# MESSAGE, and FILE keeps its bytes.
expect_refused() {
	f=$1 msg=$2
	shift 2
	cp -p "$f" "$T/before" 2>/dev/null || true
	"$GPUTUNE" "$@" --db "$f" >"$T/out" 2>"$T/err"
	rc=$?
	check "$* on $(basename "$f"): non-zero exit ($rc)" test "$rc" -ne 0
	grep_in "$T/err" "$msg"
	check "$* on $(basename "$f"): one line of error" test "$(wc -l < "$T/err")" -eq 1
	if [ -f "$f" ]; then
		check "$(basename "$f") is unchanged" cmp -s "$f" "$T/before"
	fi
}

results_doc "GPU A" GPU-aaaa 9 0 run-1 f32 1024x1024:3000:32 > "$T/a.json"

mkdir "$T/dir.db"
for cmd in "db info" "query --no-shipped" "db merge $T/a.json" "export --kernel transpose --no-shipped"; do
	# shellcheck disable=SC2086
	expect_refused "$T/dir.db" "is a directory" $cmd
done

printf 'this is not a database, just text\n%.0s' 1 2 3 4 5 6 7 8 9 > "$T/text.db"
for cmd in "db info" "query --no-shipped" "db merge $T/a.json"; do
	# shellcheck disable=SC2086
	expect_refused "$T/text.db" "is not a SQLite database" $cmd
done

# A real database, then damaged copies of it.
"$GPUTUNE" db merge "$T/a.json" --db "$T/good.db" >/dev/null
"$SQL" "$T/good.db" "PRAGMA journal_mode = DELETE" >/dev/null
check "the good database answers" "$GPUTUNE" db info --db "$T/good.db"
size=$(wc -c < "$T/good.db")
head -c $((size / 2)) "$T/good.db" > "$T/truncated.db"
expect_refused "$T/truncated.db" "is corrupt" db info
expect_refused "$T/truncated.db" "is corrupt" db merge "$T/a.json"
cp "$T/good.db" "$T/scribbled.db"
# Overwrite the middle of the second page onwards with garbage.
dd if=/dev/urandom of="$T/scribbled.db" bs=1024 seek=5 count=8 conv=notrunc 2>/dev/null
expect_refused "$T/scribbled.db" "is corrupt" db info

cp "$T/good.db" "$T/newer.db"
"$SQL" "$T/newer.db" "PRAGMA user_version = 99"
expect_refused "$T/newer.db" "has schema version 99, newer than this gputune understands" db info
expect_refused "$T/newer.db" "newer than this gputune understands" db merge "$T/a.json"

"$SQL" "$T/other.db" "CREATE TABLE t (x); INSERT INTO t VALUES (1)"
expect_refused "$T/other.db" "is a SQLite database but not a gputune database" db info

if [ "$(id -u)" -ne 0 ]; then
	cp "$T/good.db" "$T/ro.db"
	chmod 0444 "$T/ro.db"
	expect_refused "$T/ro.db" "is not writable" db merge "$T/a.json"
	check "a read-only database can still be read" "$GPUTUNE" db info --db "$T/ro.db"
	mkdir "$T/rodir"
	chmod 0555 "$T/rodir"
	"$GPUTUNE" db merge "$T/a.json" --db "$T/rodir/new.db" >"$T/out" 2>"$T/err"
	check "a database in a read-only directory is refused" test $? -ne 0
	grep_in "$T/err" "rodir/new.db"
else
	echo "# running as root: read-only files are writable, read-only checks skipped"
fi

expect_refused "$T/missing.db" "no tuning database at" db info
check "a missing database is not created by a reading command" test ! -e "$T/missing.db"
done_testing
