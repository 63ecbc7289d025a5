#!/bin/sh
# One share of a tuning per task of a Slurm array, each into a database of
# its own (shard-K.db, K the share).  Submit with submit.sh, or:
#   sbatch --array=0-3 tune-array.sh
# GPUTUNE (default: gputune on PATH) and GPUTUNE_ARGS (default below: the
# transpose from 1024 to 8192) choose what is tuned; each task's share
# comes from --shard auto, that is from SLURM_ARRAY_TASK_ID and
# SLURM_ARRAY_TASK_COUNT.
#SBATCH --job-name=gputune-tune
#SBATCH --output=gputune-tune-%A_%a.out
set -eu
: "${GPUTUNE:=gputune}"
: "${GPUTUNE_ARGS:=transpose --sizes 1024-8192}"
: "${SHARD_DIR:=.}"
share=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0}))
# shellcheck disable=SC2086
exec "$GPUTUNE" $GPUTUNE_ARGS --shard auto --db "$SHARD_DIR/shard-$share.db"
