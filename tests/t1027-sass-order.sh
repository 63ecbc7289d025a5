#!/bin/sh
# bench/sass-order reads a kernel's rounds from the machine code of its
# CUBIN: for a matrix-multiply variant NVRTC built (a 64 x 128 tile, 16
# deep, 64 outputs a thread), each round of its main loop is 1024 FFMAs,
# with 24 global loads where rows are read a float at a time and 6 where
# they are read 16 bytes at a time; a file it cannot read, or one without
# the kernel, is said so.
. "$(dirname "$0")/setup"
SO="$top_builddir/bench/sass-order"
run_gt 0 gemm --dry-run --arch sm_90 --cache-dir "$T/cc" --sizes 512 --no-probe --strategy exhaustive \
	--param bm=64 --param bn=128 --param bk=16 --param wm=32 --param wn=64 --param tm=8 --param tn=2 \
	--param vec=4 --param pad=4 --param dbuf=1 --param group=8 --param split=1 --param flat=lanes
"$SO" "$T"/cc/*.cubin >"$T/order" 2>&1
sed 's/^/# /' "$T/order"
check "one CUBIN holds gputune_gemm, its registers read" \
	test "$(grep -c '^.*: gputune_gemm, [0-9]* instructions, [1-9][0-9]* registers$' "$T/order")" = 1
check "a round of float loads: 1024 FFMAs, 24 LDGs" grep -q ': 1024 FFMA, 24 LDG; FFMAs after each LDG:' "$T/order"
check "a round of 16-byte loads: 1024 FFMAs, 6 LDGs" grep -q ': 1024 FFMA, 6 LDG; FFMAs after each LDG:' "$T/order"
check "the tuner's other kernels are said to lack it" grep -q ': no .text.gputune_gemm$' "$T/order"
check "each LDG is followed by at most the round's FFMAs" \
	test "$(awk -F'LDG:' '/LDG:/ { n = split($2, a, " "); for (i = 1; i <= n; i++) if (a[i] > 1024) print }' "$T/order" | wc -l)" = 0
"$SO" "$T/nothing.cubin" >/dev/null 2>"$T/err"
check "an unreadable file exits 1, naming it" test $? = 1 -a -n "$(grep nothing.cubin "$T/err")"
"$SO" >/dev/null 2>&1
check "no file exits 2" test $? = 2
done_testing
