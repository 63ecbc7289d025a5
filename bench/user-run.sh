#!/bin/sh
# user-run.sh - the kernels users bring (examples/user/), on a machine with
# a GPU: each of the stencil and the softmax tuned from its two files alone
# at 4096 x 4096 and two odd sizes (the tuning run's report gives each
# winner's share of the copy ceiling measured beside it and its speed-up
# over the naive classic), its header exported, and the consumer built
# with nvcc against that header: at the tuned sizes and at sizes nobody
# tuned it checks the header's choice against the classic and times both
# (median of 30 launches, L2 flushed before each).
# Usage: bench/user-run.sh OUTDIR   (from the source tree, gputune built).
set -eu
out=${1:?usage: bench/user-run.sh OUTDIR}
db=user.db
. "$(dirname "$0")/setup.sh"
ex=examples/user
rm -f "$GPUTUNE_DB"
echo "# kernels users bring, $(date -u +%Y-%m-%d), commit $commit"
for k in stencil softmax; do
	bound=0
	[ $k = softmax ] && bound=1e-4
	s=$(date +%s.%N)
	"$GPUTUNE" tune "$ex/$k.cu" --sizes 4096,1000x3001,3001x999 --no-probe >"$out/$k-tune.txt" 2>"$out/$k-tune.err"
	echo "## $k: tuned in $(seconds "$s" "$(date +%s.%N)") s"
	cat "$out/$k-tune.txt"
	"$GPUTUNE" export --kernel "$ex/$k.cu" --no-shipped -o "$work/gputune_$k.h"
	"$NVCC" -O2 -arch=native -I"$work" -DGT_KERNEL=$k -DGT_HEADER="\"gputune_$k.h\"" "$ex/consumer.cu" -o "$work/consumer_$k"
	for size in "4096 4096" "1000 3001" "8192 8192" "2500 1777" "6000 700" "333 9999"; do
		"$work/consumer_$k" $size $bound time
	done
done
