#!/bin/sh
# A database merged into itself, under any name, is skipped with a message
# (its two connections would otherwise wait for each other's lock for
# ever); a merge that waits for a lock another process holds gives up at
# the stated limit, and a SIGTERM ends it within a second or two, rolled
# back.  The measurements never change.
. "$(dirname "$0")/setup"
. "$top_srcdir/tests/results-doc"
SQL="$top_builddir/tests/sqlexec"

results_doc "GPU A" GPU-aaaa 9 0 run-a f32 1024x1024:3000:32 2048x2048:3500:64 > "$T/a.json"
results_doc "GPU B" GPU-bbbb 9 0 run-b f32 512x512:2000:32 > "$T/b.json"
mkdir "$T/d"
run_gt 0 db merge "$T/a.json" --db "$T/d/a.db"
run_gt 0 db merge "$T/b.json" --db "$T/d/b.db"
count() { "$SQL" "$T/d/a.db" "SELECT count(*) FROM measurement"; }
before=$(count)

# merge_within SECONDS ARGS...: gputune ARGS ends within SECONDS, exit 0.
merge_within() {
	_limit=$1
	shift
	_start=$(date +%s)
	timeout -s KILL 30 "$GPUTUNE" "$@" >"$T/out" 2>"$T/err"
	_rc=$?
	_took=$(($(date +%s) - _start))
	check "gputune $* exits 0 ($_rc) within $_limit s ($_took s)" test "$_rc" -eq 0 -a "$_took" -lt "$_limit"
}

merge_within 5 db merge --db "$T/d/a.db" "$T/d/a.db"
grep_in "$T/err" "skipping $T/d/a.db: it is the database being merged into"
check "merged into itself: the measurements are unchanged" test "$(count)" = "$before"

ln -s a.db "$T/d/link.db"
merge_within 5 db merge --db "$T/d/a.db" "$T/d/link.db"
grep_in "$T/err" "skipping $T/d/link.db: it is the database being merged into"
check "through a symlink: the measurements are unchanged" test "$(count)" = "$before"

(cd "$T/d" && merge_within 5 db merge --db ./a.db ./*.db)
grep_in "$T/err" "skipping ./a.db: it is the database being merged into"
grep_in "$T/out" "merged ./b.db: 1 new measurements"
check "through a glob: only the other file came in" test "$(count)" = $((before + 1))
before=$(count)

# A lock held by another process: the merge gives up at the limit.
"$SQL" --hold 20 "$T/d/a.db" > "$T/hold.out" &
holder=$!
i=0
while [ $i -lt 100 ] && [ ! -s "$T/hold.out" ]; do sleep 0.1; i=$((i + 1)); done
cp "$T/d/a.db" "$T/a.before"
start=$(date +%s)
GPUTUNE_LOCK_TIMEOUT=2 "$GPUTUNE" db merge --db "$T/d/a.db" "$T/a.json" >"$T/out" 2>"$T/err"
rc=$?
took=$(($(date +%s) - start))
check "a merge waiting for a lock gives up ($rc) at the limit (2 s: $took s)" test "$rc" -eq 1 -a "$took" -le 4
grep_in "$T/err" "a.db is locked by another process: gave up after 2 s"

# ... and a SIGTERM ends its wait within two seconds, rolled back.
"$GPUTUNE" db merge --db "$T/d/a.db" "$T/b.json" "$T/a.json" >"$T/out" 2>"$T/err" &
pid=$!
sleep 1
kill -TERM $pid
start=$(date +%s)
wait $pid
rc=$?
took=$(($(date +%s) - start))
check "SIGTERM during a lock wait: exit 130 ($rc) within 2 s ($took s)" test "$rc" -eq 130 -a "$took" -le 2
grep_in "$T/err" "interrupted while waiting for"
kill $holder 2>/dev/null
wait $holder 2>/dev/null
check "the database is as it was" test "$(count)" = "$before"
check "its file is unchanged" cmp -s "$T/d/a.db" "$T/a.before"
done_testing
