#!/bin/sh
# gemm-versions.sh - versions of the matrix-multiply template timed side by
# side, to measure a change to the template before it replaces the
# template: each VERSION (a git revision, whose templates/gemm.cu is taken,
# or the path of a changed copy) is renamed (gt_gemm to gvN_gemm, GT_GEMM_
# to GVN_GEMM_) so that one program holds them all, and
# bench/gemm-versions.cu is built by nvcc into OUTDIR/gemm-versions, which
# times each version at each of $GEMM_POINTS beside cuBLAS SGEMM, every
# result checked.  It builds without a GPU; run `OUTDIR/gemm-versions
# SHAPE...` on one.  A version must have the header kernels of 4b580bb on
# (MIN_BLOCKS, then the 14 parameters bm to async; flat and stream,
# later, are 0 unless given; a point that gives them needs versions that
# have them).
# GEMM_POINTS: points separated by spaces, each
#   bm,bn,bk,wm,wn,tm,tn,vec,pad,dbuf,group,split,realign,async[,flat[,stream]]
# (a stream-K point, stream 1, is launched as many blocks as the SMs hold
# at once)
# (default: three of the 128 x 256 and 128 x 128 tiles that win the
# squares).
# GEMM_MIN_BLOCKS: the blocks an SM every kernel's __launch_bounds__
# promises (default 0, none, as the tuner builds them): ptxas places the
# loads of a round by it (docs/studies/gemm-what-cublas-runs-at-the-worst-shapes.md).
# Usage: bench/gemm-versions.sh OUTDIR VERSION...   (from the source tree)
set -eu
usage="usage: bench/gemm-versions.sh OUTDIR VERSION..."
out=${1:?$usage}
shift
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
MIN_BLOCKS=${GEMM_MIN_BLOCKS:-0}
case $MIN_BLOCKS in
[0-9] | [0-9][0-9]) ;;
*) echo "gemm-versions.sh: bad GEMM_MIN_BLOCKS '$MIN_BLOCKS' (0 to 99)" >&2; exit 2 ;;
esac
POINTS=${GEMM_POINTS:-"128,256,8,64,64,4,2,4,4,1,8,1,0,0 128,256,8,64,64,8,2,4,4,1,8,1,0,0 128,128,8,64,32,4,2,4,4,1,8,1,0,0"}
for p in $POINTS; do
	echo "$p" | grep -Eq '^[0-9]+(,[0-9]+){13,15}$' ||
		{ echo "gemm-versions.sh: bad point '$p' (14 numbers, bm to async, 15 with flat, or 16 with stream)" >&2; exit 2; }
done
mkdir -p "$out"
h="$out/gemm-versions.h"
: >"$h"
i=0
for v in "$@"; do
	if [ ! -f "$v" ] && ! git cat-file -e "$v:templates/gemm.cu" 2>/dev/null; then
		echo "gemm-versions.sh: '$v' is neither a file nor a revision with templates/gemm.cu" >&2
		exit 2
	fi
	if [ -f "$v" ]; then cat "$v"; else git show "$v:templates/gemm.cu"; fi | sed "s/gt_gemm/gv${i}_gemm/g; s/GT_GEMM_/GV${i}_GEMM_/g; s/gt_smem/gv${i}_smem/g" >"$out/gemm-v$i.cu"
	printf '#define GT_HEADER_KERNEL gv%d\n#include "gemm-v%d.cu"\n#undef GT_HEADER_KERNEL\n' "$i" "$i" >>"$h"
	i=$((i + 1))
done
echo "static const version_point points[] = {" >>"$h"
i=0
for v in "$@"; do
	for p in $POINTS; do
		echo "	{ \"$v\", \"$p\", { $p }, (kernel_t)gv$i<$MIN_BLOCKS, $p> }," >>"$h"
	done
	i=$((i + 1))
done
echo "};" >>"$h"
"$NVCC" -O3 -std=c++17 -arch=sm_90 -I. -I"$out" bench/gemm-versions.cu -lcublas -o "$out/gemm-versions"
echo "built $out/gemm-versions: $# versions, $(echo $POINTS | wc -w) points each, $MIN_BLOCKS blocks an SM promised"
