#!/bin/sh
# The --sizes language, case by case from tests/sizes.data.
. "$(dirname "$0")/setup"

if "$top_builddir/tests/unit-sizes" "$top_srcdir/tests/sizes.data"; then
	ok "every case of sizes.data"
else
	not_ok "a case of sizes.data"
fi
done_testing
