#!/bin/sh
# The matrix multiply's check on the host (tests/unit-gemm-check.c): sums
# of the K products in the kernels' orders pass on both inputs; a missing
# product, an element past the bound or a NaN is refused with its place;
# a large output judged by several threads gives the same verdict.
. "$(dirname "$0")/setup"
unit_program unit-gemm-check "the matrix multiply's check"
done_testing
