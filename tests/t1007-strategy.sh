#!/bin/sh
# The search strategies (tests/unit-strategy.c): valid points only, none
# twice, the whole space when asked, repeatable by seed, resumable, and the
# guided ones near the peak of a smooth space with a tenth of it.
. "$(dirname "$0")/setup"
if "$top_builddir/tests/unit-strategy" > "$T/log"; then
	ok "every case of the search strategies ($(grep -c '^ok' "$T/log") checks)"
else
	not_ok "a case of the search strategies"
	grep '^not ok' "$T/log" | head -20
fi
sed 's/^/# /' "$T/log"
done_testing
