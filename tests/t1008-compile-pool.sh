#!/bin/sh
# The lazy compile pool (tests/unit-compile-pool.c): only what is asked for
# is compiled, and it stops at once, also when SIGTERM is caught.
. "$(dirname "$0")/setup"
if timeout -s KILL 120 "$top_builddir/tests/unit-compile-pool" "$T/cache" > "$T/log" 2>&1; then
	ok "every case of the lazy compile pool ($(grep -c '^ok' "$T/log") checks)"
else
	not_ok "a case of the lazy compile pool (or it hung)"
	grep -v '^ok' "$T/log" | head -20
fi
sed 's/^/# /' "$T/log"
done_testing
