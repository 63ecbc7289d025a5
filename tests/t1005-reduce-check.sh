#!/bin/sh
# The reduction's check on the host (tests/unit-reduce-check.c): sums in
# the kernels' order pass on both inputs, a missing element or a sum past
# the error bound is refused with its reason.
. "$(dirname "$0")/setup"
if "$top_builddir/tests/unit-reduce-check" > "$T/log"; then
	ok "every case of the reduction's check ($(grep -c '^ok' "$T/log") checks)"
else
	not_ok "a case of the reduction's check"
	grep '^not ok' "$T/log" | head -20
fi
done_testing
