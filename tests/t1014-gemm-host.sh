#!/bin/sh
# The matrix-multiply template is right without a GPU: a seeded sample of
# its variants (the default space, and every value of every parameter),
# instantiated on the host by tests/gemm-host.cc over tests/cuda-host.h,
# at shapes from 1x1x1 to 200x260x20 with remainders in every dimension,
# and with A, B or C off their alignment.  Products and sums of small
# nonzero integers are exact in every order, so C must be exactly A B;
# the floats around C and the shared memory past the variant's stages must
# be untouched.  Faults the runner
# injects around a variant (host_inject) must be caught.  The sample
# changes each day (seed printed; repeat with GPUTUNE_SAMPLE_SEED); make
# check-full takes five times as many; realign=on's, async's (with dbuf=0
# and with dbuf=2) and dbuf=2's variants are sampled apart, as the default space has none, and flat=on's,
# flat=lanes's, flat=rows's and flat=floats's, and tiles of 96 and 192 rows, so that every sample
# holds some.  Split-K
# (split > 1) sums over a thread-block cluster, which the host runner
# does not model: there its
# variants run as code built without clusters does (each tile's first
# block multiplies it whole, the others leave); their clusters are checked
# on GPUs (t5014).
. "$(dirname "$0")/setup"

host_cxx
host_sample gemm <<'LIST'
f32 14
f32 6 --param bm=all --param bn=all --param bk=all --param wm=all --param wn=all --param tm=all --param tn=all --param vec=all --param pad=all --param group=all --param split=all
f32 6 --param realign=on --param vec=4
f32 8 --param async=2,3,4 --param dbuf=0 --param vec=all --param pad=all --param split=all
f32 6 --param dbuf=2 --param vec=all --param pad=all --param split=all
f32 6 --param async=2,3,4 --param dbuf=2 --param vec=all --param pad=all --param split=all
f32 6 --param flat=on --param vec=4 --param dbuf=1 --param pad=all --param split=all
f32 6 --param flat=lanes --param vec=4 --param dbuf=1 --param pad=all --param split=all --param bn=all --param bm=all
f32 6 --param flat=rows --param vec=4 --param dbuf=1 --param pad=all --param split=all --param bn=all --param bm=all
f32 6 --param flat=floats --param vec=4 --param dbuf=1 --param pad=all --param split=all --param bn=all --param bm=all
f32 4 --param bm=96,192 --param wm=48,96 --param flat=all --param pad=all --param split=all
LIST
# A fault the runner must catch: A's last column left out.
cat >>"$T/names" <<'FAULTS'
f32 bm=64,bn=64,bk=16,wm=32,wn=32,tm=4,tn=4,vec=4,pad=4,dbuf=1,group=8,inject=wrong
f32 bm=32,bn=32,bk=8,wm=16,wn=16,tm=2,tn=2,vec=1,pad=0,dbuf=0,group=1,inject=wrong
FAULTS
host_runner gemm 30 2 BM BN BK WM WN TM TN VEC PAD DBUF GROUP SPLIT REALIGN ASYNC FLAT

# Shapes: one element, less than a tile and a thread's tile, whole tiles,
# remainders in M, N and K with every buffer off its alignment, several
# tiles down and across (the grouped orders), vector loads of B with A and
# C misaligned (the checks of each pointer), K past several rounds, and
# (realign=on's shifted loads) rows of A and B off 16 bytes with the
# buffers aligned: K and N of every remainder by 4.
host_run 0 1x1x1 7x5x3 64x64x64 130x67x33+1 200x260x20 64x64x64+1/0/1 64x64x64+0/2/0 33x70x100 \
	97x131x45 66x130x70 40x259x37
done_testing
