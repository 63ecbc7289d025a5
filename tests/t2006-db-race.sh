#!/bin/sh
# Sixteen `gputune db merge` processes started at once on a database that
# does not exist yet: one creates the schema, the others wait for it, none
# fails, every row arrives, and each reports the measurements it added
# itself, not rows the others wrote meanwhile.  Twenty rounds; then ten
# rounds of the same on a database of schema version 1, which the writers
# race to migrate (and to switch to WAL) while keeping its row.
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
# race ROUNDS TEMPLATE EXPECTED: ROUNDS rounds of the sixteen writers on a
# copy of TEMPLATE (or no file when it is empty), which must end with
# EXPECTED measurements; sets rounds_ok.
race() {
rounds_ok=0
for round in $(seq 1 "$1"); do
	db="$T/race$round.db"
	rm -f "$db" "$db-wal" "$db-shm"
	[ -n "$2" ] && cp "$2" "$db"
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
	[ "$n" = "$3" ] || { bad=1; echo "# round $round: $n of $3 measurements"; }
	v=$("$SQL" "$db" "PRAGMA user_version")
	[ "$v" = "$want_version" ] || { bad=1; echo "# round $round: schema version $v"; }
	[ "$bad" = 0 ] && rounds_ok=$((rounds_ok + 1))
done
}
# The current schema version: one step per file under db/.
want_version=$(ls "$top_srcdir"/db/0*.sql | wc -l | tr -d ' ')
race 20 "" 224
check "20 of 20 rounds: no writer failed, each counted its own 14, all 224 rows arrived ($rounds_ok)" \
	test "$rounds_ok" = 20

schema1_db "$T/v1.db"
check "a schema-1 file to race on" test "$("$SQL" "$T/v1.db" "PRAGMA user_version")" = 1
race 10 "$T/v1.db" 225
check "10 of 10 rounds from schema 1: migrated once, no writer failed, the old row and all 224 new arrived ($rounds_ok)" \
	test "$rounds_ok" = 10
done_testing
