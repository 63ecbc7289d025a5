#!/bin/sh
# The built-in transpose said as a user family: its template (with the
# common header it is built with, one file) and tests/user/transpose.json,
# a spec of the same parameters, constraints (as SQL), default-only rules
# and classics.  The two list the same variants, in the same order, for
# every element type in the default space, for f16 in the whole one
# (every type under make check-full), and for sm_80 where the rowclass
# constraints decide; and render the same sources for a seeded sample of
# them (every line but the first, which names the family).  So the spec
# can say what a descriptor says.
. "$(dirname "$0")/setup"
mkdir -p "$T/u"
{ cat "$top_srcdir/templates/common.cuh"; echo; cat "$top_srcdir/templates/transpose.cu"; } >"$T/u/transpose.cu"
cp "$top_srcdir/tests/user/transpose.json" "$T/u/transpose.json"
ALL=""
for p in tile block_rows pad unroll mapping vec shared sector wide realign pair async rowclass; do
	ALL="$ALL --param $p=all"
done
# The whole space (15 million points for f16): SQLite evaluates the
# spec's 43 constraints at about a microsecond a point (several under the
# sanitizers), so `make check` walks it for f16 and `make check-full`
# for every type.
for dt in f32 f64 f16 i32; do
	spaces=default
	[ $dt = f16 ] || [ "${GPUTUNE_CHECK_FULL:-0}" = 1 ] && spaces="default all"
	for space in $spaces; do
		opts=""
		[ $space = all ] && opts=$ALL
		"$GPUTUNE" transpose --list --dtype $dt $opts >"$T/builtin" 2>&1
		"$GPUTUNE" tune "$T/u/transpose.cu" --list --dtype $dt $opts >"$T/user" 2>&1
		check "$dt, $space space: the same $(wc -l <"$T/builtin") variants in the same order" \
			sh -c "test \$(wc -l <'$T/builtin') -gt 100 && cmp -s '$T/builtin' '$T/user'"
	done
done
# For sm_80 (no tensor copy engine): the space where the rowclass
# constraints decide.
"$GPUTUNE" transpose --list --dtype f16 --arch sm_80 --param rowclass=all --param unroll=all --param tile=all >"$T/builtin" 2>&1
"$GPUTUNE" tune "$T/u/transpose.json" --list --dtype f16 --arch sm_80 --param rowclass=all --param unroll=all --param tile=all >"$T/user" 2>&1
check "f16 for sm_80: the same $(wc -l <"$T/builtin") variants" sh -c "test \$(wc -l <'$T/builtin') -gt 100 && cmp -s '$T/builtin' '$T/user'"

# Sources: a seeded sample of each type's whole space.
same=0 differ=0
for dt in f32 f64 f16 i32; do
	"$GPUTUNE" transpose --list --dtype $dt $ALL --sample 25:$sample_seed >"$T/names" 2>/dev/null
	while read -r name; do
		params=$(printf '%s' "$name" | tr ',' '\n' | sed 's/^/--param /' | tr '\n' ' ')
		"$GPUTUNE" source transpose --dtype $dt $params 2>&1 | sed 1d >"$T/a.cu"
		"$GPUTUNE" source "$T/u/transpose.json" --dtype $dt $params 2>&1 | sed 1d >"$T/b.cu"
		if [ -s "$T/a.cu" ] && cmp -s "$T/a.cu" "$T/b.cu"; then
			same=$((same + 1))
		else
			differ=$((differ + 1))
			echo "# differs: $dt $name"
		fi
	done <"$T/names"
done
check "the same rendered source for each of the $((same + differ)) sampled variants ($differ differ)" \
	test "$differ" -eq 0 -a "$same" -ge 100
done_testing
