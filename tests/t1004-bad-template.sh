#!/bin/sh
# A template that does not compile: a clear error naming the variant, its
# NVRTC log on request, exit 1.
. "$(dirname "$0")/setup"

mkdir "$T/tpl"
cp "$top_srcdir/templates/"*.cu "$top_srcdir/templates/"*.cuh "$T/tpl/"
# A call of a function nobody defines, on the shared-memory path only: its
# argument depends on the element type, so only variants that instantiate
# that path fail.
sed 's/__syncthreads();/__syncthreads(); gt_no_such_function(tile);/' "$top_srcdir/templates/transpose.cu" > "$T/tpl/transpose.cu"
run_gt 1 transpose --dry-run --arch sm_90 --templates "$T/tpl" --param tile=32 --param block_rows=8 \
	--param pad=1 --param unroll=1 --param mapping=cartesian --param vec=1 --param shared=on --param sector=off --param wide=1 --param async=off --show-log
grep_in "$T/err" "variant tile=32,block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=1,shared=on,sector=off,wide=1 failed to compile"
grep_in "$T/err" "error"
grep_in "$T/out" "failed 1"
# The naive kernel does not instantiate that path and still compiles.
run_gt 0 transpose --dry-run --arch sm_90 --templates "$T/tpl" --param shared=off --param pad=0 --param vec=1 --param sector=off
done_testing
