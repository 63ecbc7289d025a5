#!/bin/sh
# gputune --version names gputune, NVRTC, SQLite and the driver (or its absence).
. "$(dirname "$0")/setup"

run_gt 0 --version
grep_in "$T/out" "gputune "
grep_in "$T/out" "NVRTC 13"
grep_in "$T/out" "SQLite 3."
grep_in "$T/out" "CUDA driver"
run_gt 0 version
done_testing
