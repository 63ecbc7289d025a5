#!/bin/sh
# The tensor maps of a rowclass transpose (src/families/tensor-maps.h, as copied
# into exported headers), built through a recording encoder
# (tests/unit-tmaps.c): each row class's base, dimensions, pitch and box,
# and the cases that leave them invalid.
. "$(dirname "$0")/setup"
unit_program unit-tmaps "the tensor maps"
done_testing
