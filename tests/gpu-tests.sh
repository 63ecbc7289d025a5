#!/bin/sh
# gpu-tests.sh - the GPU tests (tests/t5*.sh) run from a built tree on a
# machine that has a GPU but cannot configure (a build made elsewhere):
# each test with a time limit, one summary line per test, every log in
# one file.
# Usage: tests/gpu-tests.sh LOG [SECONDS [TEST...]]   (from the source
# tree, gputune and the test programs built; default 300 s a test, every
# t5*.sh).  Exits 1 when a test failed or ran out of time.
set -u
log=${1:?usage: tests/gpu-tests.sh LOG [SECONDS [TEST...]]}
limit=${2:-300}
[ $# -ge 2 ] && shift 2 || shift $#
top=$(cd "$(dirname "$0")/.." && pwd)
export top_srcdir="$top" top_builddir="$top" GPUTUNE="$top/gputune"
export NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
[ $# -gt 0 ] || set -- "$top"/tests/t5*.sh
: >"$log"
status=0
for t in "$@"; do
	name=$(basename "$t" .sh)
	s=$(date +%s)
	timeout "$limit" sh "$t" >"$log.one" 2>&1
	rc=$?
	{ echo "### $name (exit $rc)"; cat "$log.one"; } >>"$log"
	good=$(grep -c '^ok' "$log.one")
	bad=$(grep -c '^not ok' "$log.one")
	case $rc in
	0) verdict=pass ;;
	77) verdict=skip ;;
	124) verdict="OUT OF TIME after $limit s"; status=1 ;;
	*) verdict=FAIL; status=1 ;;
	esac
	echo "$name: $verdict, $good ok, $bad not ok, $(($(date +%s) - s)) s"
	grep '^not ok' "$log.one" | sed 's/^/  /'
done
rm -f "$log.one"
exit $status
