#!/bin/sh
# The matrix multiply template (templates/gemm.cu) compiles with NVRTC at
# the points its benchmark times, with scalar loads and odd padding too,
# split-K over clusters of 2, 3, 4, 6 and 8 blocks (3 and 6 with rows
# shared unevenly), the shifted loads of
# realign=on, stages filled by cp.async (async=2 to 4, also under split-K
# and with scalar loads), flat's rounds without a branch (on, lanes, rows and
# floats, also under split-K), tiles of 96 and 192 rows (warps of 48 and 96), and
# refuses points whose tiles do not divide and
# async stages beside dbuf's (its static checks).
. "$(dirname "$0")/setup"
NVRTC_PROGRAM="$top_builddir/tests/nvrtc-program"

# point NAME BM BN BK WM WN TM TN VEC PAD DBUF GROUP [SPLIT [REALIGN [ASYNC [FLAT]]]]:
# a program file.
point() {
	name=$1
	shift
	set -- BM "$1" BN "$2" BK "$3" WM "$4" WN "$5" TM "$6" TN "$7" VEC "$8" PAD "$9" DBUF "${10}" GROUP "${11}" \
		SPLIT "${12:-1}" REALIGN "${13:-0}" ASYNC "${14:-0}" FLAT "${15:-0}"
	{
		while [ $# -gt 0 ]; do
			echo "#define GT_$1 $2"
			shift 2
		done
		cat "$top_srcdir/templates/gemm.cu"
	} > "$T/$name.cu"
}
point simple 16 16 16 4 8 1 1 1 0 0 1
point reg2d 128 128 8 32 64 8 8 4 4 0 1
point wide 128 256 8 64 64 8 4 4 4 1 8
point deep 128 128 16 64 64 8 4 4 4 1 8
point small 64 64 16 32 64 4 8 4 4 1 8
point scalar-odd-pad 64 128 8 32 64 8 8 1 1 1 1
point split2 64 128 8 32 64 8 8 4 4 1 8 2
point split4 64 64 16 32 32 4 4 4 4 1 1 4
point split8 32 64 8 32 32 4 4 1 0 0 1 8
point split3 64 128 16 32 64 8 2 4 4 1 8 3 0 0 2
point split6 128 64 16 32 64 4 2 4 4 1 1 6
point realign 128 128 8 32 64 8 8 4 4 0 1 1 1
point realign-wide-split 128 256 8 64 64 8 4 4 4 1 8 2 1
point async2 128 128 16 64 32 8 4 4 4 0 8 1 0 2
point async3-wide 128 256 8 64 64 8 2 4 0 0 8 1 0 3
point async4-scalar-odd-pad 128 128 8 64 32 8 4 1 1 0 1 1 0 4
point async3-split2 64 128 16 32 32 8 4 4 4 0 8 2 0 3
point flat-wide 128 256 8 64 64 4 2 4 4 1 8 1 0 0 1
point flat-split2 64 128 8 32 64 4 2 4 0 1 1 2 0 0 1
point flat-lanes 64 128 16 32 64 8 2 4 4 1 8 2 0 0 2
point flat-lanes-wide 128 256 8 64 64 4 2 4 4 1 8 1 0 0 2
point flat-rows 64 128 16 32 64 8 2 4 4 1 8 2 0 0 3
point flat-rows-wide 128 256 8 64 64 4 2 4 4 1 8 1 0 0 3
point flat-floats 64 128 16 32 64 8 2 4 4 1 8 2 0 0 4
point flat-floats-wide 128 256 8 64 64 4 2 4 4 1 8 1 0 0 4
point rows96-lanes-split2 96 64 16 48 32 4 4 4 4 1 8 2 0 0 2
point rows96-split3 96 128 16 48 64 4 2 4 4 1 1 3 0 0 1
point rows96-floats-split2 96 64 16 48 32 4 4 4 4 1 8 2 0 0 4
point rows192 192 64 16 96 32 8 4 4 4 1 1 1
for f in simple reg2d wide deep small scalar-odd-pad split2 split4 split8 split3 split6 realign realign-wide-split async2 async3-wide \
	async4-scalar-odd-pad async3-split2 flat-wide flat-split2 flat-lanes flat-lanes-wide flat-rows flat-rows-wide \
	flat-floats flat-floats-wide rows96-lanes-split2 rows96-split3 rows96-floats-split2 rows192; do
	check "the $f point compiles" "$NVRTC_PROGRAM" "$T/$f.cu"
done
point bad-warp 96 128 8 64 64 8 4 4 4 1 8
if "$NVRTC_PROGRAM" "$T/bad-warp.cu" > "$T/bad.out" 2>&1; then
	not_ok "a warp tile that does not divide the block tile is refused"
else
	ok "a warp tile that does not divide the block tile is refused"
fi
grep_in "$T/bad.out" "warp tiles must divide the block tile"
point bad-async 128 128 8 32 64 8 8 4 4 1 1 1 0 3
if "$NVRTC_PROGRAM" "$T/bad-async.cu" > "$T/bad.out" 2>&1; then
	not_ok "async stages beside dbuf's are refused"
else
	ok "async stages beside dbuf's are refused"
fi
grep_in "$T/bad.out" "ASYNC is 0 or 2 to 4 stages, without DBUF"
point bad-flat 128 128 8 32 64 8 8 4 4 2 1 1 0 0 1
if "$NVRTC_PROGRAM" "$T/bad-flat.cu" > "$T/bad.out" 2>&1; then
	not_ok "flat beside dbuf=2 is refused"
else
	ok "flat beside dbuf=2 is refused"
fi
grep_in "$T/bad.out" "FLAT is of VEC 4 and DBUF 1 alone"
done_testing
