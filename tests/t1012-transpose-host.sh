#!/bin/sh
# The transpose template is right at edge sizes without a GPU: a seeded
# sample of variants of each element type (the default space, realign=on,
# pair=on, sector=edges, and every value of every parameter), instantiated on the host
# by tests/transpose-host.cc over tests/cuda-host.h, which runs a block's
# threads as coroutines between its barriers and shuffles.  Each output is
# compared with a host transpose and its guard bytes checked, also with
# buffers one and two elements off their alignment.  Variants with injected
# faults must be caught.  The sample changes each day (seed printed; repeat
# with GPUTUNE_SAMPLE_SEED); make check-full takes five times as many.
. "$(dirname "$0")/setup"

CXX=${CXX:-c++}
if ! command -v "$CXX" >/dev/null 2>&1; then
	echo "skipped: no C++ compiler ($CXX) to build the host runner"
	exit 77
fi
seed=${GPUTUNE_SAMPLE_SEED:-$(date -u +%Y%m%d)}
scale=1
[ "${GPUTUNE_CHECK_FULL:-0}" = 1 ] && scale=5
echo "# sample seed $seed"

# DTYPE COUNT PARAMS...: a sample of COUNT of that space.
: >"$T/names"
while read -r dtype n params; do
	case $dtype in '#'*|'') continue ;; esac
	# shellcheck disable=SC2086
	"$GPUTUNE" transpose --list --dtype "$dtype" --sample $((n * scale)):"$seed" $params >"$T/list" 2>"$T/err" ||
		{ not_ok "transpose --list --dtype $dtype $params"; sed 's/^/#   /' "$T/err"; continue; }
	sed "s/^/$dtype /" "$T/list" >>"$T/names"
done <<'LIST'
f32 16
f16 12
f64 8
f32 5 --param realign=on
f16 5 --param realign=on
f32 5 --param pair=on
f16 5 --param pair=on
f32 5 --param sector=edges --param realign=off,on
f16 5 --param sector=edges --param realign=off,on
f64 3 --param sector=edges
f32 8 --param tile=all --param block_rows=all --param pad=all --param unroll=all --param mapping=all --param vec=all --param sector=all --param wide=all --param realign=all
f16 4 --param tile=all --param block_rows=all --param pad=all --param unroll=all --param mapping=all --param vec=all --param sector=all --param wide=all --param realign=all
LIST
# Faults the runner must catch: a wrong element, a write past the end.
cat >>"$T/names" <<'FAULTS'
f32 tile=32,block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=1,shared=on,sector=off,wide=1,inject=wrong
f32 tile=32,block_rows=8,pad=1,unroll=2,mapping=colmajor,vec=2,shared=on,sector=on,wide=1,inject=overrun
f16 tile=64,block_rows=16,pad=1,unroll=1,mapping=colmajor,vec=4,shared=on,sector=off,wide=1,pair=on,inject=overrun
f16 tile=32,block_rows=8,pad=0,unroll=1,mapping=cartesian,vec=1,shared=off,sector=off,wide=1,inject=wrong
FAULTS
sort -u "$T/names" >"$T/names.u"

: >"$T/variants.inc"
while read -r dtype name; do
	if host_variant transpose "$dtype" "$name" ELEM_BYTES TILE BLOCK_ROWS PAD UNROLL MAPPING VEC SHARED SECTOR \
		WIDE REALIGN PAIR INJECT >>"$T/variants.inc"; then :; else
		not_ok "gputune source renders $dtype $name"
		sed 's/^/#   /' "$T/err"
	fi
done <"$T/names.u"
nvar=$(grep -c '^V(' "$T/variants.inc")
nfault=$(grep -c 'inject=' "$T/variants.inc")
check "$nvar variants listed and rendered, $nfault with faults" test "$nvar" -gt 60 -a "$nfault" -eq 4

if "$CXX" -std=c++17 -O1 -DVARIANTS="\"$T/variants.inc\"" -o "$T/transpose-host" \
	"$top_srcdir/tests/transpose-host.cc" 2>"$T/cxx.err"; then
	ok "the host runner builds with $CXX"
else
	not_ok "the host runner builds with $CXX"
	sed 's/^/#   /' "$T/cxx.err" | head -30
	done_testing
fi

# Sizes: single elements, a row, a column, tiles and halves of tiles with
# the odd and even remainders each path meets (pair needs rows and cols
# even; sector windows need rows off a sector; realign needs cols off a
# vector; whole tiles need several stripes), and misaligned buffers.
sizes="1x1 2x2 1x67 67x1 64x66 66x64+1 130x258 258x130 257x129 129x257 520x136 136x520+2 301x521 264x264+1"
nsizes=$(echo "$sizes" | wc -w)
# shellcheck disable=SC2086
if timeout -s KILL 600 "$T/transpose-host" $sizes >"$T/run" 2>"$T/run.err"; then
	ok "the host runner ran every variant at $nsizes sizes"
else
	not_ok "the host runner ran every variant at $nsizes sizes (exit $?)"
	sed 's/^/#   /' "$T/run.err" | head -20
fi
right=$(grep -v 'inject=' "$T/run" | grep -c '^right ')
caught=$(grep 'inject=' "$T/run" | grep -c '^wrong ')
check "every variant is right at every size ($right of $(((nvar - nfault) * nsizes)))" \
	test "$right" -eq $(((nvar - nfault) * nsizes))
grep -v 'inject=' "$T/run" | grep '^wrong ' | head -20 | sed 's/^/#   /'
check "every injected fault is caught at every size ($caught of $((nfault * nsizes)))" \
	test "$caught" -eq $((nfault * nsizes))
grep 'inject=' "$T/run" | grep '^right ' | head -5 | sed 's/^/#   /'
done_testing
