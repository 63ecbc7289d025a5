#!/bin/sh
# The prefix-sum template is right without a GPU: a seeded sample of its
# variants for f32, f64 and i32 (the default space, and every value of
# every parameter), instantiated on the host by tests/scan-host.cc over
# tests/cuda-host.h, each launched three times on one scratch buffer
# zeroed once, at lengths from 0 to 40,000, one with the input off its
# alignment.  Prefix sums of small odd integers are exact in every order,
# so every element must be exactly right; the ticket counter must be zero
# and the launch count one more after each launch.  Blocks run one after
# another here, so each tile finds the inclusive prefix of the one before
# it: the look-back past it, over tiles that have published only their
# totals, is tested on a GPU (t5011).  The sample changes
# each day (seed printed; repeat with GPUTUNE_SAMPLE_SEED); make
# check-full takes five times as many.
. "$(dirname "$0")/setup"

host_cxx
host_sample scan <<'LIST'
f32 10
f64 6
i32 6
f32 6 --param threads=all --param vec=all --param per=all --param block=all --param lookback=all --param pad=all --param layout=all --param order=all
i32 4 --param threads=all --param vec=all --param per=all --param block=all --param lookback=all --param pad=all --param layout=all --param order=all
LIST
host_runner scan 25 0 ELEM_TYPE ACC_TYPE THREADS VEC PER BLOCK LOOKBACK PAD LAYOUT ORDER

# Lengths: none, one, fewer than a vector, a warp and one, a tile's worth
# and a tail, many tiles (look-back windows past 32 tiles where tiles are
# small), and a misaligned input (the element path).
host_run 0 0 1 3 33 1000 4099+1 40000
done_testing
