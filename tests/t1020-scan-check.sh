#!/bin/sh
# The prefix sum's check on the host (tests/unit-scan-check.c): the
# reference every output element is compared with on the GPU, its
# magnitudes, and the bound's factor.
. "$(dirname "$0")/setup"
unit_program unit-scan-check "the prefix sum's check"
done_testing
