#!/bin/sh
# Bad database files: one clear line, a non-zero exit, and the file left
# exactly as it was (its bytes are compared before and after).
. "$(dirname "$0")/setup"
. "$top_srcdir/tests/results-doc"
SQL="$top_builddir/tests/sqlexec"
as_user= # a command that runs gputune as another user (below)

# expect_refused FILE MESSAGE ARGS...: gputune ARGS --db FILE fails, says
# MESSAGE, and FILE keeps its bytes.
expect_refused() {
	f=$1 msg=$2
	shift 2
	cp -p "$f" "$T/before" 2>/dev/null || true
	$as_user "${ro_gputune:-$GPUTUNE}" "$@" --db "$f" >"$T/out" 2>"$T/err"
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
check "the good database answers" sh -c "'$GPUTUNE' db info --db '$T/good.db' > /dev/null"
size=$(wc -c < "$T/good.db")
head -c $((size / 2)) "$T/good.db" > "$T/truncated.db"
expect_refused "$T/truncated.db" "is corrupt" db info
expect_refused "$T/truncated.db" "is corrupt" db merge "$T/a.json"
cp "$T/good.db" "$T/scribbled.db"
# Overwrite the middle of the second page onwards with garbage.
dd if=/dev/urandom of="$T/scribbled.db" bs=1024 seek=5 count=8 conv=notrunc 2>/dev/null
expect_refused "$T/scribbled.db" "is corrupt" db info

# SQLite's own words for a truncated file (a rollback once replaced them
# with "not an error").
head -c $((size * 3 / 4)) "$T/good.db" > "$T/short.db"
expect_refused "$T/short.db" "is corrupt (SQLite: database disk image is malformed)" db info
check "nothing is left beside the truncated file" test ! -e "$T/short.db-wal" -a ! -e "$T/short.db-shm"

# A negative schema version (which once indexed the migrations at -1).
cp "$T/good.db" "$T/negative.db"
"$SQL" "$T/negative.db" "PRAGMA user_version = -1"
for cmd in "db info" "query --no-shipped" "db merge $T/a.json" "export --kernel transpose --no-shipped"; do
	# shellcheck disable=SC2086
	expect_refused "$T/negative.db" "has a negative schema version" $cmd
	check "nothing is left beside it" test ! -e "$T/negative.db-wal" -a ! -e "$T/negative.db-shm"
done

# An empty file is no database yet: reading commands leave it empty.
: > "$T/empty.db"
expect_refused "$T/empty.db" "holds no tuning database yet" db info
check "the empty file stays empty" test ! -s "$T/empty.db"
run_gt 0 query --db "$T/empty.db"
check "query falls back to the shipped results and writes nothing" test ! -s "$T/empty.db"
# A merge refused for its input creates no database.
run_gt 1 db merge "$T/no-such.json" --db "$T/created.db"
check "a failed merge creates nothing" test ! -e "$T/created.db"
printf '{"format": "gputune-results", "version": 1, "results": [{}]}' > "$T/bad.json"
run_gt 1 db merge "$T/bad.json" --db "$T/created.db"
check "a refused file creates nothing" test ! -e "$T/created.db"

cp "$T/good.db" "$T/newer.db"
"$SQL" "$T/newer.db" "PRAGMA user_version = 99"
expect_refused "$T/newer.db" "has schema version 99, newer than this gputune understands" db info
expect_refused "$T/newer.db" "newer than this gputune understands" db merge "$T/a.json"

"$SQL" "$T/other.db" "CREATE TABLE t (x); INSERT INTO t VALUES (1)"
expect_refused "$T/other.db" "is a SQLite database but not a gputune database" db info

# Read-only files and directories.  As root every file is writable, so
# root runs these as the unprivileged user nobody (setpriv drops the
# privileges), where it can; otherwise they are skipped, saying so.
ro_gputune=$GPUTUNE
if [ "$(id -u)" -eq 0 ]; then
	chmod 0755 "$T"
	drop="setpriv --reuid=65534 --regid=65534 --clear-groups"
	# The build tree may lie where nobody cannot reach (root's home):
	# then a copy of the binary in $T runs instead.
	if command -v setpriv >/dev/null 2>&1 && ! $drop "$ro_gputune" --version >/dev/null 2>&1; then
		mkdir "$T/bin" && cp "$GPUTUNE" "$T/bin/gputune" && chmod 0755 "$T/bin" "$T/bin/gputune"
		ro_gputune=$T/bin/gputune
	fi
	if command -v setpriv >/dev/null 2>&1 && $drop "$ro_gputune" --version >/dev/null 2>&1; then
		as_user=$drop
	else
		as_user=none
	fi
fi
if [ "$as_user" != none ]; then
	mkdir "$T/ro"
	cp "$T/good.db" "$T/ro/ro.db"
	chmod 0444 "$T/ro/ro.db"
	chmod 0755 "$T/ro"
	expect_refused "$T/ro/ro.db" "ro.db is not writable: Permission denied" db merge "$T/a.json"
	for cmd in "db info" "query --no-shipped" "export --kernel transpose --no-shipped"; do
		# shellcheck disable=SC2086
		check "a read-only database can still be read: $cmd" \
			sh -c "$as_user '$ro_gputune' $cmd --db '$T/ro/ro.db' > /dev/null"
	done
	check "reading it left nothing beside it" test "$(ls "$T/ro")" = ro.db
	# A writable file in a directory that is not: SQLite cannot keep its
	# journal there, so it reads but is not written.
	mkdir "$T/rodir"
	cp "$T/good.db" "$T/rodir/w.db"
	chmod 0666 "$T/rodir/w.db"
	chmod 0555 "$T/rodir"
	check "a database in a read-only directory can still be read" \
		sh -c "$as_user '$ro_gputune' db info --db '$T/rodir/w.db' > /dev/null"
	expect_refused "$T/rodir/w.db" "its directory $T/rodir is not writable" db merge "$T/a.json"
	$as_user "$ro_gputune" db merge "$T/a.json" --db "$T/rodir/new.db" >"$T/out" 2>"$T/err"
	check "a new database in a read-only directory is refused" test $? -ne 0
	grep_in "$T/err" "rodir/new.db"
	as_user=
else
	echo "# running as root without setpriv: the read-only checks could not run"
	as_user=
fi

expect_refused "$T/missing.db" "no tuning database at" db info
check "a missing database is not created by a reading command" test ! -e "$T/missing.db"
done_testing
