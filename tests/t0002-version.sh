#!/bin/sh
# gputune --version is one line, its name and version; gputune version
# names gputune, NVRTC, SQLite and the driver (or its absence).
. "$(dirname "$0")/setup"

run_gt 0 --version
check "--version is one line" test "$(wc -l < "$T/out")" -eq 1
check "...naming gputune and its version" grep -Eq '^gputune [0-9]+\.[0-9]+' "$T/out"
run_gt 0 version
grep_in "$T/out" "gputune "
grep_in "$T/out" "NVRTC 13"
grep_in "$T/out" "SQLite 3."
grep_in "$T/out" "CUDA driver"
done_testing
