#!/bin/sh
# Help exists for gputune and for every entry of the command table: the
# list is read from `gputune help`, so a new command is covered by itself.
. "$(dirname "$0")/setup"

run_gt 0 --help
grep_in "$T/out" "Commands:"
run_gt 0 help
commands=$(sed -n '/^Commands:/,/^$/p' "$T/out" | awk 'NF > 1 && $1 != "Commands:" { print $1 }')
check "the command list is not empty" test -n "$commands"
for c in $commands; do
	run_gt 0 help "$c"
	grep_in "$T/out" "usage: gputune $c"
	grep_in "$T/out" "-h, --help"
	run_gt 0 "$c" --help
	grep_in "$T/out" "usage: gputune $c"
	run_gt 0 "$c" -h
	# Every option has help text after its name.
	if awk '/^Options:/ { on = 1; next } on && /^  --/ && NF < 2 { bad = 1 } END { exit bad }' "$T/out"; then
		ok "$c: every option has help text"
	else
		not_ok "$c: an option has no help text"
	fi
	# What help says is there is there; no test-only parameter is offered.
	if grep -q 'listed below' "$T/out"; then
		check "$c: help lists the element types it says it lists" grep -q 'element types ' "$T/out"
	fi
	check "$c: help offers no test-only parameter" sh -c "! grep -q '^  inject ' '$T/out'"
done
# query and plot take 3-D sizes, and say so.
for c in query plot; do
	run_gt 0 help $c
	grep_in "$T/out" "--size N|RxC|MxNxK"
done
run_gt 2 help no-such-command
grep_in "$T/err" "unknown command 'no-such-command'"
run_gt 2
done_testing
