#!/bin/sh
# Bad command lines: exit 2, a message naming the problem on stderr, and
# the usage.  Cases come from t0003-usage-errors.data: arguments, then
# " => " and a fixed string stderr must contain.
. "$(dirname "$0")/setup"

while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	cmdline=${line%% => *}
	want=${line#* => }
	# shellcheck disable=SC2086
	eval "set -- $cmdline"
	run_gt 2 "$@"
	grep_in "$T/err" "$want"
	if [ -s "$T/out" ]; then not_ok "$cmdline: nothing on stdout"; else ok "$cmdline: nothing on stdout"; fi
done < "$top_srcdir/tests/t0003-usage-errors.data"
done_testing
