#!/bin/sh
# The help, the man page, the README and the reference in docs/ agree:
# every command of the help's list is in the man page and the README; every
# option any of them names exists in some command's help (or is
# configure's); and where the README's
# command table gives a family's element types, they are the ones its help
# gives.
. "$(dirname "$0")/setup"
MAN="$top_srcdir/gputune.1"
README="$top_srcdir/README.md"

run_gt 0 help
commands=$(sed -n '/^Commands:/,/^$/p' "$T/out" | awk 'NF > 1 && $1 != "Commands:" { print $1 }')
check "the command list is not empty" test -n "$commands"
: > "$T/options"
for c in $commands; do
	"$GPUTUNE" help "$c" > "$T/help-$c" 2>&1
	sed -n 's/^  \(-[a-z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' "$T/help-$c" >> "$T/options"
	check "the man page has the command $c" grep -Eq "^\\.BR? .*\\b$c\\b" "$MAN"
	check "the README has the command $c" grep -q "gputune $c\\b" "$README"
done
echo "--help" >> "$T/options"
echo "--version" >> "$T/options"
"$top_srcdir/configure" --help 2>/dev/null | sed -n 's/^  \(--[a-z][a-z0-9-]*\).*/\1/p' >> "$T/options"
sort -u "$T/options" -o "$T/options"
check "the commands' help names options" test "$(wc -l < "$T/options")" -gt 20

for doc in "$MAN" "$README" "$top_srcdir/docs/usage.md" "$top_srcdir/docs/database.md"; do
	sed 's/\\-/-/g' "$doc" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u > "$T/named"
	unknown=$(comm -23 "$T/named" "$T/options" | tr '\n' ' ')
	check "every option $(basename "$doc") names exists (${unknown:-all do})" test -z "$unknown"
done

# The README's command table: `gputune FAMILY [... --dtype A\|B ...]`.
for c in $commands; do
	types=$(sed -n "s/^$c: .*element types \\([a-z0-9,]*\\)\\.\$/\\1/p" "$T/help-$c" | tr ',' '\n' | sort | tr '\n' ' ')
	[ -n "$types" ] || continue
	row=$(grep "^| \`gputune $c " "$README" | head -1)
	listed=$(echo "$row" | sed -n 's/.*--dtype \([a-z0-9\\|]*\).*/\1/p' | sed 's/\\|/ /g' | tr ' ' '\n' | sort | tr '\n' ' ')
	[ -n "$listed" ] || continue
	check "$c: the README's element types ($listed) are its help's ($types)" test "$listed" = "$types"
done
done_testing
