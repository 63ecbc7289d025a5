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
job=$(sbatch --parsable --export=ALL --array=0-$((n - 1)) "$here/tune-array.sh")
sbatch --parsable --export=ALL --dependency=afterok:"${job%%;*}" "$here/merge.sh" "$family"
