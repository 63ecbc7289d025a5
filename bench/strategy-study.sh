#!/bin/sh
# bench/strategy-study.sh [RESULTS.json] - replays the search strategies
# against a space measured in full (by default the H200 transpose run under
# docs/plots) and prints the table docs/benchmarks.md keeps.  Needs no GPU:
# run it from a build directory after `make`.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
run=${1:-$top/docs/plots/h200-transpose-f32.json}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
./gputune db merge "$run" --db "$tmp/run.db" >/dev/null
./bench/strategy-study "$tmp/run.db" transpose f32
