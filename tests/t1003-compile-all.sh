#!/bin/sh
# Every valid variant of the default transpose space compiles with NVRTC
# for sm_90 and sm_80 (no GPU needed), and a second run compiles nothing.
. "$(dirname "$0")/setup"

for arch in sm_90 sm_80; do
	run_gt 0 transpose --dry-run --arch $arch --sizes 1024-8192
	grep_in "$T/out" "failed 0"
	valid=$(sed -n 's/.* \([0-9]*\) valid.*/\1/p' "$T/out")
	check "$arch: hundreds of valid variants ($valid)" test "${valid:-0}" -ge 300
	compiled=$(sed -n 's/^compiled \([0-9]*\), cached.*/\1/p' "$T/out")
	check "$arch: every variant compiled ($compiled = $valid + 2)" test "$compiled" -eq $((valid + 2))
	run_gt 0 transpose --dry-run --arch $arch --sizes 1024-8192
	grep_in "$T/out" "compiled 0, cached $((valid + 2)), failed 0"
done
done_testing
