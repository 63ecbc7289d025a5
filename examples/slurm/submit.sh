#!/bin/sh
# Submits the tuning as an array of N tasks (default 4), one share each,
# and the merge and export to run when all of them have succeeded.
#   sh submit.sh [N] [FAMILY]
# with GPUTUNE_ARGS (the tuning command, FAMILY first) passed through.
set -eu
n=${1:-4}
family=${2:-transpose}
here=$(cd "$(dirname "$0")" && pwd)
: "${GPUTUNE_ARGS:=$family --sizes 1024-8192}"
export GPUTUNE_ARGS
# A GPU per task, but for the compile-only form (--dry-run), which needs none.
case " $GPUTUNE_ARGS " in
*" --dry-run "*) gres= ;;
*) gres=--gres=gpu:1 ;;
esac
job=$(sbatch --parsable --export=ALL --array=0-$((n - 1)) $gres "$here/tune-array.sh")
merge=$(sbatch --parsable --export=ALL --dependency=afterok:"${job%%;*}" "$here/merge.sh" "$family")
echo "submitted the array of $n tasks as job ${job%%;*} and the merge after it as job ${merge%%;*}"
