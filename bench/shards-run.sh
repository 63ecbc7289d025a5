#!/bin/sh
# shards-run.sh - a tuning dealt to N shards, one process and one GPU each,
# against the same tuning in one process, in two stages that can run on
# two machines sharing OUTDIR:
#   tune      on a host of N GPUs (N = every visible GPU, or $SHARDS): the
#             command as N processes `--shard K/N --device K`, at once, each
#             into OUTDIR/shard-K.db, merged with `gputune db merge` into
#             OUTDIR/all.db; then the same command as one process on GPU 0
#             into OUTDIR/one.db.  Prints the wall times and whether the two
#             give winners at exactly the same sizes.
#   validate  on a GPU that took no part (another host): `gputune validate`
#             of the same family at held-out sizes, from all.db and from
#             one.db in turn (each copied, so that the databases stay as
#             tuned), and both summaries.
# Usage: bench/shards-run.sh OUTDIR [tune|validate] [FAMILY [SIZES [HELD]]]
# (from the source tree, gputune built; default transpose, 1024-8192, and
# the family's held-out sizes).
set -eu
out=${1:?usage: bench/shards-run.sh OUTDIR [tune|validate] [FAMILY [SIZES [HELD]]]}
stage=${2:-tune}
family=${3:-transpose}
sizes=${4:-1024-8192}
held=${5:-}
db=unused.db
. "$(dirname "$0")/setup.sh"
echo "# $family --sizes $sizes, shards against one process ($stage), $(date -u +%Y-%m-%d), commit $commit"

# winners DB: the sizes with a winner in DB, one per line.
winners() {
	GPUTUNE_DB="$1" "$GPUTUNE" query --kernel "$family" --no-shipped --format csv 2>/dev/null |
		awk -F, 'NR > 1 { print $4 " " $5 }' | sort -u
}

if [ "$stage" = tune ]; then
	n=${SHARDS:-$("$GPUTUNE" devices --format csv | awk 'NR > 1' | wc -l)}
	rm -f "$out"/shard-*.db "$out/all.db" "$out/one.db"
	s=$(date +%s.%N)
	k=0
	while [ "$k" -lt "$n" ]; do
		GPUTUNE_CACHE_DIR="$work/cache-shards" "$GPUTUNE" "$family" --sizes "$sizes" --shard "$k/$n" \
			--device "$k" --db "$out/shard-$k.db" >"$out/shard-$k.txt" 2>"$out/shard-$k.err" &
		k=$((k + 1))
	done
	wait
	e=$(date +%s.%N)
	"$GPUTUNE" db merge --db "$out/all.db" "$out"/shard-*.db
	GPUTUNE_CACHE_DIR="$work/cache-one" "$GPUTUNE" "$family" --sizes "$sizes" --device 0 --db "$out/one.db" \
		>"$out/one.txt" 2>"$out/one.err"
	f=$(date +%s.%N)
	echo "$n shards at once: $(seconds "$s" "$e") s; one process on GPU 0: $(seconds "$e" "$f") s"
	winners "$out/all.db" >"$work/all.sizes"
	winners "$out/one.db" >"$work/one.sizes"
	if cmp -s "$work/all.sizes" "$work/one.sizes"; then
		echo "the merged shards and the one process have winners at the same $(wc -l <"$work/one.sizes") sizes"
	else
		echo "DIFFERENT sizes with a winner (merged shards <, one process >):"
		diff "$work/all.sizes" "$work/one.sizes" || true
	fi
fi
if [ "$stage" = validate ]; then
	"$GPUTUNE" devices
	for from in all one; do
		cp "$out/$from.db" "$work/$from.db"
		echo "## the choice from $from.db"
		GPUTUNE_DB="$work/$from.db" "$GPUTUNE" validate "$family" --no-shipped ${held:+--sizes "$held"} \
			>"$out/validate-$from.txt" 2>"$out/validate-$from.err"
		grep -i "median\|worst" "$out/validate-$from.txt" | tail -3
	done
fi
