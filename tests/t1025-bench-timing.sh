#!/bin/sh
# The timing protocol's counts without a GPU (tests/unit-bench-timing, over
# a driver of its own): the warm-up launched as the bench opens and waited
# for by the first ceiling; 30 timed launches, or 10 and 200 ms of kernel
# for a long one; all of a confirmation's; one warm-up launch for a kernel
# of a millisecond or more, three for a shorter one; nothing left
# allocated at the close.
. "$(dirname "$0")/setup"

if "$top_builddir/tests/unit-bench-timing" >"$T/unit" 2>&1; then
	ok "the timing protocol's counts ($(tail -1 "$T/unit" | sed 's/^# //'))"
else
	not_ok "the timing protocol's counts"
	grep -v '^ok' "$T/unit" | sed 's/^/#   /'
fi
done_testing
