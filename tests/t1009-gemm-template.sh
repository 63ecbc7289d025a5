#!/bin/sh
# The matrix multiply template (templates/gemm.cu) compiles with NVRTC at
# the points its benchmark times, with scalar loads and odd padding too,
# split-K over clusters of 2, 4 and 8 blocks, the shifted loads of
# realign=on, and refuses points whose
# tiles do not divide (its static checks).
. "$(dirname "$0")/setup"
NVRTC_PROGRAM="$top_builddir/tests/nvrtc-program"

# point NAME BM BN BK WM WN TM TN VEC PAD DBUF GROUP [SPLIT [REALIGN]]: a
# program file.
point() {
	name=$1
	shift
	set -- BM "$1" BN "$2" BK "$3" WM "$4" WN "$5" TM "$6" TN "$7" VEC "$8" PAD "$9" DBUF "${10}" GROUP "${11}" \
		SPLIT "${12:-1}" REALIGN "${13:-0}"
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
point realign 128 128 8 32 64 8 8 4 4 0 1 1 1
point realign-wide-split 128 256 8 64 64 8 4 4 4 1 8 2 1
for f in simple reg2d wide deep small scalar-odd-pad split2 split4 split8 realign realign-wide-split; do
	check "the $f point compiles" "$NVRTC_PROGRAM" "$T/$f.cu"
done
point bad-warp 96 128 8 64 64 8 4 4 4 1 8
if "$NVRTC_PROGRAM" "$T/bad-warp.cu" > "$T/bad.out" 2>&1; then
	not_ok "a warp tile that does not divide the block tile is refused"
else
	ok "a warp tile that does not divide the block tile is refused"
fi
grep_in "$T/bad.out" "warp tiles must divide the block tile"
done_testing
