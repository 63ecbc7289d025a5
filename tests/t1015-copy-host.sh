#!/bin/sh
# The copy template, the kernel of the bandwidth ceiling, is right without
# a GPU: every variant of its default space for f32, f16 and f64 (a few
# dozen each), instantiated on the host by tests/copy-host.cc over
# tests/cuda-host.h, at sizes with a tail past the last whole vector and
# with buffers off their alignment (the element path); each output is
# compared with the input and the guard bytes around it checked.
. "$(dirname "$0")/setup"

host_cxx
for dtype in f32 f16 f64; do
	if "$GPUTUNE" copy --list --dtype $dtype >"$T/list" 2>"$T/err"; then
		sed "s/^/$dtype /" "$T/list" >>"$T/names"
	else
		not_ok "copy --list --dtype $dtype"
		sed 's/^/#   /' "$T/err"
	fi
done
host_runner copy 80 0 ELEM_BYTES VEC THREADS ITEMS

# Sizes: one element, less than a vector, a tail after the whole vectors,
# more than one block, and buffers one and three elements off.
host_run 0 1x1 1x3 3x5 64x66 130x258+1 257x129+3 1000x1000
done_testing
