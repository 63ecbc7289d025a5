#!/bin/sh
# Sixteen `gputune db merge` processes started at once on a database that
# does not exist yet: one creates the schema, the others wait for it, none
# fails, every row arrives, and each reports the measurements it added
# itself, not rows the others wrote meanwhile.  Twenty rounds.
. "$(dirname "$0")/setup"
. "$top_srcdir/tests/results-doc"
SQL="$top_builddir/tests/sqlexec"

sizes=""
for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
	sizes="$sizes ${n}00x${n}00:$((1000 + n)):32"
done
for w in $(seq 1 16); do
	# shellcheck disable=SC2086
	results_doc "GPU $w" "GPU-$w" 9 0 "run-$w" f32 $sizes > "$T/d$w.json"
done
rounds_ok=0
for round in $(seq 1 20); do
	db="$T/race$round.db"
	for w in $(seq 1 16); do
		"$GPUTUNE" db merge --db "$db" "$T/d$w.json" >"$T/out$w" 2>"$T/err$w" &
	done
	wait
	bad=0
	for w in $(seq 1 16); do
		if [ -s "$T/err$w" ] || ! grep -qx "merged $T/d$w.json: 14 new measurements" "$T/out$w"; then
			bad=1
			echo "# round $round writer $w: $(cat "$T/out$w" "$T/err$w" | head -2)"
		fi
	done
	n=$("$SQL" "$db" "SELECT count(*) FROM measurement")
	[ "$n" = 224 ] || { bad=1; echo "# round $round: $n of 224 measurements"; }
	[ "$bad" = 0 ] && rounds_ok=$((rounds_ok + 1))
done
check "20 of 20 rounds: no writer failed, each counted its own 14, all 224 rows arrived ($rounds_ok)" \
	test "$rounds_ok" = 20
done_testing
