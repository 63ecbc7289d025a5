#!/bin/sh
# The timing protocol's counts without a GPU (tests/unit-bench-timing, over
# a driver of its own): the warm-up launched as the bench opens and waited
# for by the first ceiling; 30 timed launches, or 10 and 200 ms of kernel
# for a long one; all of a confirmation's; one warm-up launch for a kernel
# of a millisecond or more, three for a shorter one; nothing left
# allocated at the close.
. "$(dirname "$0")/setup"

unit_program unit-bench-timing "the timing protocol's counts"
done_testing
