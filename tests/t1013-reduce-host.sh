#!/bin/sh
# The reduction template is right without a GPU: a seeded sample of its
# variants for f32, f64 and i32 (the default space, and every value of
# every parameter), instantiated on the host by tests/reduce-host.cc over
# tests/cuda-host.h, each launched twice on one scratch buffer zeroed once,
# at lengths from 0 to 40,000, one with the input off its alignment.  Sums
# of small odd integers are exact in every order, so each must be exactly
# right; the counter and slot must be zero again after each launch.
# Variants with injected faults must be caught.  The sample changes each
# day (seed printed; repeat with GPUTUNE_SAMPLE_SEED); make check-full
# takes five times as many.
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

: >"$T/names"
while read -r dtype n params; do
	case $dtype in '#'*|'') continue ;; esac
	# shellcheck disable=SC2086
	"$GPUTUNE" reduce --list --dtype "$dtype" --sample $((n * scale)):"$seed" $params >"$T/list" 2>"$T/err" ||
		{ not_ok "reduce --list --dtype $dtype $params"; sed 's/^/#   /' "$T/err"; continue; }
	sed "s/^/$dtype /" "$T/list" >>"$T/names"
done <<'LIST'
f32 10
f64 6
i32 6
f32 6 --param threads=all --param vec=all --param unroll=all --param grid=all --param block=all --param final=all
i32 4 --param threads=all --param vec=all --param unroll=all --param grid=all --param block=all --param final=all
LIST
# Faults the runner must catch: the last element left out, a write past
# the output.
cat >>"$T/names" <<'FAULTS'
f32 threads=256,vec=4,unroll=2,grid=1024,block=shuffle,final=lastblock,inject=wrong
i32 threads=128,vec=1,unroll=4,grid=0,block=sequential_warp,final=atomic,inject=wrong
f64 threads=512,vec=2,unroll=2,grid=2048,block=shuffle,final=atomic,inject=overrun
FAULTS
sort -u "$T/names" >"$T/names.u"

: >"$T/variants.inc"
while read -r dtype name; do
	if host_variant reduce "$dtype" "$name" ELEM_TYPE ACC_TYPE THREADS VEC UNROLL GRID BLOCK FINAL INJECT \
		>>"$T/variants.inc"; then :; else
		not_ok "gputune source renders $dtype $name"
		sed 's/^/#   /' "$T/err"
	fi
done <"$T/names.u"
nvar=$(grep -c '^V(' "$T/variants.inc")
nfault=$(grep -c 'inject=' "$T/variants.inc")
check "$nvar variants listed and rendered, $nfault with faults" test "$nvar" -gt 25 -a "$nfault" -eq 3

if "$CXX" -std=c++17 -O1 -DVARIANTS="\"$T/variants.inc\"" -o "$T/reduce-host" \
	"$top_srcdir/tests/reduce-host.cc" 2>"$T/cxx.err"; then
	ok "the host runner builds with $CXX"
else
	not_ok "the host runner builds with $CXX"
	sed 's/^/#   /' "$T/cxx.err" | head -30
	done_testing
fi

# Lengths: none, one, fewer than a vector, a warp and one, a block's worth
# and a tail, several blocks' (a grid-stride loop where grid is set), and a
# misaligned input (the element path).
sizes="0 1 3 33 1000 4099+1 40000"
nsizes=$(echo "$sizes" | wc -w)
# shellcheck disable=SC2086
if timeout -s KILL 600 "$T/reduce-host" $sizes >"$T/run" 2>"$T/run.err"; then
	ok "the host runner ran every variant at $nsizes lengths"
else
	not_ok "the host runner ran every variant at $nsizes lengths (exit $?)"
	sed 's/^/#   /' "$T/run.err" | head -20
fi
right=$(grep -v 'inject=' "$T/run" | grep -c '^right ')
check "every variant is right at every length ($right of $(((nvar - nfault) * nsizes)))" \
	test "$right" -eq $(((nvar - nfault) * nsizes))
grep -v 'inject=' "$T/run" | grep '^wrong ' | head -20 | sed 's/^/#   /'
# At length 0 there is no last element to leave out.
caught=$(grep 'inject=' "$T/run" | grep -v 'inject=wrong 0$' | grep -c '^wrong ')
check "every injected fault is caught ($caught of $((nfault * nsizes - 2)))" test "$caught" -eq $((nfault * nsizes - 2))
grep 'inject=' "$T/run" | grep '^right ' | grep -v ' 0$' | head -5 | sed 's/^/#   /'
done_testing
