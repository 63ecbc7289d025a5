#!/bin/sh
# --shard K/N without Slurm and without a GPU: the deal itself
# (tests/unit-shard), bad shares refused with the offending value, and the
# example array's script (examples/slurm/tune-array.sh) run once per task
# with only the variables Slurm would set, in its compile-only form: the
# tasks compile disjoint shares of the variants that together are exactly
# what one process compiles, into caches holding together exactly the
# single process's files.
. "$(dirname "$0")/setup"

if "$top_builddir/tests/unit-shard" >"$T/unit" 2>&1; then
	ok "the deal and the Slurm variables ($(tail -1 "$T/unit" | sed 's/^# //'))"
else
	not_ok "the deal and the Slurm variables"
	grep -v '^ok' "$T/unit" | sed 's/^/#   /'
fi

for bad in 4/4 -1/4 1/0 x 2/70000; do
	run_gt 2 copy --dry-run --arch sm_90 --shard "$bad"
	grep_in "$T/err" "'$bad'"
done
( unset SLURM_ARRAY_TASK_ID SLURM_PROCID; "$GPUTUNE" copy --dry-run --arch sm_90 --shard auto ) >"$T/out" 2>"$T/err"
check "--shard auto outside Slurm exits 2" test $? -eq 2
grep_in "$T/err" "not in a Slurm job"
( unset SLURM_ARRAY_TASK_ID; SLURM_PROCID=3 SLURM_NTASKS=3 "$GPUTUNE" copy --dry-run --arch sm_90 --shard auto ) \
	>"$T/out" 2>"$T/err"
check "--shard auto with SLURM_PROCID 3 of 3 tasks exits 2" test $? -eq 2
grep_in "$T/err" "SLURM_PROCID 3 is not below SLURM_NTASKS 3"

# One process, then the array's four tasks, each with a cache of its own.
args="transpose --dry-run --arch sm_90 --sample 30:5 --quiet"
GPUTUNE_CACHE_DIR="$T/one" "$GPUTUNE" $args >"$T/one.out" 2>&1
check "one process compiles the sample" grep -q '^compiled 3[0-9], cached 0, failed 0' "$T/one.out"
sum=0
for task in 1 2 3 4; do
	( unset SLURM_PROCID
	  SLURM_ARRAY_TASK_ID=$task SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=4 GPUTUNE_CACHE_DIR="$T/task$task" \
		GPUTUNE_ARGS="$args" SHARD_DIR="$T" sh "$top_srcdir/examples/slurm/tune-array.sh" ) >"$T/task$task.out" 2>&1
	check "task $task of the array ends well" test $? -eq 0
	share=$((task - 1))
	n=$(sed -n "s|^shard $share/4: \([0-9]*\) of the 30 variants\$|\1|p" "$T/task$task.out")
	check "task $task compiles share $share of 4: ${n:-none} of the 30 variants" test -n "$n"
	sum=$((sum + ${n:-0}))
done
check "the shares add up to the sample ($sum of 30)" test "$sum" -eq 30
ls "$T/one" | sort >"$T/one.files"
for task in 1 2 3 4; do ls "$T/task$task"; done | sort -u >"$T/tasks.files"
check "together the tasks compiled exactly the one process's files ($(wc -l <"$T/one.files"))" \
	cmp -s "$T/one.files" "$T/tasks.files"
# The tuner's own kernels are in every cache; each variant in one only.
own=$(sed -n 's/.*failed 0 (\([0-9]*\) jobs.*/\1/p' "$T/one.out")
all=$(for task in 1 2 3 4; do ls "$T/task$task"; done | wc -l)
check "each variant was compiled by one task only ($all files for $(wc -l <"$T/one.files"))" \
	test "$all" -eq $(($(wc -l <"$T/one.files") + 3 * (own - 30)))
SHARD_DIR="$T" GPUTUNE="$GPUTUNE" sh "$top_srcdir/examples/slurm/merge.sh" transpose >"$T/merge.out" 2>&1
check "merge.sh after a dry run says there is nothing to merge" grep -q 'nothing to merge' "$T/merge.out"
done_testing
