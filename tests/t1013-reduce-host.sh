#!/bin/sh
# The reduction template is right without a GPU: a seeded sample of its
# variants for f32, f64 and i32 (the default space, and every value of
# every parameter), instantiated on the host by tests/reduce-host.cc over
# tests/cuda-host.h, each launched twice on one scratch buffer zeroed once,
# at lengths from 0 to 40,000, one with the input off its alignment.  Sums
# of small odd integers are exact in every order, so each must be exactly
# right; the counter and slot must be zero again after each launch.
# Faults the runner injects around a variant (host_inject) must be caught.  The sample changes each
# day (seed printed; repeat with GPUTUNE_SAMPLE_SEED); make check-full
# takes five times as many.
. "$(dirname "$0")/setup"

host_cxx
host_sample reduce <<'LIST'
f32 10
f64 6
i32 6
f32 6 --param threads=all --param vec=all --param unroll=all --param grid=all --param block=all --param final=all
i32 4 --param threads=all --param vec=all --param unroll=all --param grid=all --param block=all --param final=all
LIST
# Faults the runner must catch: the last element left out, a write past
# the output.
cat >>"$T/names" <<'FAULTS'
f32 threads=256,vec=4,unroll=2,grid=1024,block=shuffle,final=lastblock,inject=wrong
i32 threads=128,vec=1,unroll=4,grid=0,block=sequential_warp,final=atomic,inject=wrong
f64 threads=512,vec=2,unroll=2,grid=2048,block=shuffle,final=atomic,inject=overrun
FAULTS
host_runner reduce 25 3 ELEM_TYPE ACC_TYPE THREADS VEC UNROLL GRID BLOCK FINAL

# Lengths: none, one, fewer than a vector, a warp and one, a block's worth
# and a tail, several blocks' (a grid-stride loop where grid is set), and a
# misaligned input (the element path).  At length 0 the two inject=wrong
# variants have no last element to leave out.
host_run 2 0 1 3 33 1000 4099+1 40000
done_testing
