#!/bin/sh
# Without a CUDA driver, commands that need a GPU say so in one line and
# exit 3; everything else works.  The binary does not link libcuda.
. "$(dirname "$0")/setup"
export GPUTUNE_LIBCUDA=/nonexistent/libcuda.so.1

if ldd "$GPUTUNE" 2>/dev/null | grep -q libcuda; then
	not_ok "gputune does not link libcuda"
else
	ok "gputune does not link libcuda"
fi
run_gt 3 devices
check "devices: exactly one line on stderr" test "$(wc -l < "$T/err")" -eq 1
grep_in "$T/err" "devices needs a GPU: no CUDA driver"
run_gt 3 transpose --sizes 1024
grep_in "$T/err" "transpose needs a GPU"
run_gt 3 transpose --dry-run --sizes 1024
grep_in "$T/err" "give --arch"
run_gt 3 validate transpose --sizes random:2:100-200
grep_in "$T/err" "validate needs a GPU"
run_gt 0 version
grep_in "$T/out" "CUDA driver: none"
run_gt 0 source transpose
run_gt 0 query --no-shipped
check "nothing was written to the database by those" test ! -e "$GPUTUNE_DB"
done_testing
