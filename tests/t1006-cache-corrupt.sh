#!/bin/sh
# Damaged compile-cache entries are never used: an image cut short, one
# scribbled on, and an empty file are each compiled again (and replaced),
# and what is intact stays cached.  Seven images: the sample's six and the
# support kernels (the reduction's read ceiling needs no kernel of a
# family).
. "$(dirname "$0")/setup"
C="$T/cache"
args="reduce --dry-run --arch sm_90 --sample 6:3 --cache-dir $C"
# shellcheck disable=SC2086
run_gt 0 $args
grep_in "$T/out" "compiled 7, cached 0, failed 0"
set -- "$C"/*.cubin
check "seven images in the cache" test $# -eq 7
# Cut one short, scribble in the middle of another, empty a third.
size=$(wc -c < "$1")
head -c $((size / 2)) "$1" > "$T/half" && cat "$T/half" > "$1"
printf 'XXXXXXXX' | dd of="$2" bs=1 seek=100 conv=notrunc 2>/dev/null
: > "$3"
# shellcheck disable=SC2086
run_gt 0 $args
grep_in "$T/out" "compiled 3, cached 4, failed 0"
# shellcheck disable=SC2086
run_gt 0 $args
grep_in "$T/out" "compiled 0, cached 7, failed 0"
done_testing
