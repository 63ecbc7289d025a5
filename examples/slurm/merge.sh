#!/bin/sh
# After every task of the array: the shards' databases merged into one
# (all.db), and a header exported from it.  submit.sh runs it once the
# array has finished well; by hand: sh merge.sh FAMILY
#SBATCH --job-name=gputune-merge
#SBATCH --output=gputune-merge-%j.out
set -eu
: "${GPUTUNE:=gputune}"
: "${SHARD_DIR:=.}"
family=${1:-transpose}
set -- "$SHARD_DIR"/shard-*.db
if [ ! -e "$1" ]; then
	echo "merge.sh: no shard databases in $SHARD_DIR (a dry run stores none): nothing to merge"
	exit 0
fi
"$GPUTUNE" db merge --db "$SHARD_DIR/all.db" "$@"
"$GPUTUNE" export --kernel "$family" --db "$SHARD_DIR/all.db" -o "$SHARD_DIR/gputune_$family.h"
