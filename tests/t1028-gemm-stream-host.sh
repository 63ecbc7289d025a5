#!/bin/sh
# The matrix-multiply template's stream-K (STREAM 1) is right without a
# GPU: tests/gemm-stream-host.cc runs it on the host (tests/cuda-host.h)
# over grids of one block to more blocks than rounds, at shapes of one
# element to many tiles with remainders in M, N and K, and at a long K
# over few tiles; C must be exactly A B (integer inputs) after two
# launches, and the counters must be left for the next launch.
. "$(dirname "$0")/setup"

host_cxx
if "$CXX" -std=c++17 -O1 -o "$T/stream-host" "$top_srcdir/tests/gemm-stream-host.cc" 2>"$T/cxx.err"; then
	ok "the stream-K host runner builds with $CXX"
else
	not_ok "the stream-K host runner builds with $CXX"
	sed 's/^/#   /' "$T/cxx.err" | head -30
	done_testing
fi
"$T/stream-host" >"$T/out" 2>&1
rc=$?
cat "$T/out"
n=$(grep -c '^ok ' "$T/out")
bad=$(grep -c '^not ok ' "$T/out")
check "the runner exits 0 (it did $rc)" test "$rc" -eq 0
check "126 grids and shapes checked, none wrong ($n right, $bad wrong)" test "$n" -eq 126 -a "$bad" -eq 0
done_testing
