#!/bin/sh
# The copy template, the kernel of the bandwidth ceiling, is right without
# a GPU: every variant of its default space for f32, f16 and f64 (a few
# dozen each), instantiated on the host by tests/copy-host.cc over
# tests/cuda-host.h, at sizes with a tail past the last whole vector and
# with buffers off their alignment (the element path); each output is
# compared with the input and the guard bytes around it checked.
. "$(dirname "$0")/setup"

host_cxx
# A sample larger than the space is all of it.
host_sample copy <<'LIST'
f32 1000
f16 1000
f64 1000
LIST
host_runner copy 80 0 ELEM_BYTES VEC THREADS ITEMS

# Sizes: one element, less than a vector, a tail after the whole vectors,
# more than one block, and buffers one and three elements off.
host_run 0 1x1 1x3 3x5 64x66 130x258+1 257x129+3 1000x1000
done_testing
