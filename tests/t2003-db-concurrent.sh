#!/bin/sh
# Two gputune processes writing one database at once both keep all their
# results (WAL, a busy timeout, and one transaction per write).
. "$(dirname "$0")/setup"
. "$top_srcdir/tests/results-doc"
SQL="$top_builddir/tests/sqlexec"

sizes=""
for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	sizes="$sizes ${n}00x${n}00:$((1000 + n)):32"
done
for w in a b; do
	for i in 1 2 3 4 5 6 7 8; do
		# shellcheck disable=SC2086
		results_doc "GPU $w" "GPU-$w" 9 0 "run-$w-$i" f32 $sizes > "$T/$w$i.json"
	done
done
"$GPUTUNE" db merge "$T/a1.json" >/dev/null
writer() {
	for i in 2 3 4 5 6 7 8; do
		"$GPUTUNE" db merge "$T/$1$i.json" >/dev/null 2>>"$T/$1.err" || echo "fail $i" >>"$T/$1.err"
	done
}
writer a &
pa=$!
"$GPUTUNE" db merge "$T/b1.json" >/dev/null 2>>"$T/b.err" || echo "fail 1" >>"$T/b.err"
writer b &
pb=$!
wait $pa
wait $pb
check "writer a reported no error" test ! -s "$T/a.err"
check "writer b reported no error" test ! -s "$T/b.err"
check "all 16 runs are there" test "$("$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM run")" = 16
check "all 320 measurements are there" test "$("$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM measurement")" = 320
check "both devices have their 20 winners" test "$("$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM winner")" = 40
check "the file is consistent" test "$("$SQL" "$GPUTUNE_DB" "PRAGMA integrity_check")" = ok
done_testing
