#!/bin/sh
# The reduction's check on the host (tests/unit-reduce-check.c): sums in
# the kernels' order pass on both inputs, a missing element or a sum past
# the error bound is refused with its reason.
. "$(dirname "$0")/setup"
unit_program unit-reduce-check "the reduction's check"
done_testing
