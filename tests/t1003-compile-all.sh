#!/bin/sh
# The variants of every family compile with NVRTC for sm_90 and sm_80 (no
# GPU needed), and a second run compiles nothing.  `make check` compiles a
# seeded sample of each family's default space per element type for sm_90,
# and a quarter of it for sm_80, whose paths differ only where a variant
# needs Hopper (a new seed each day, printed, so the whole space is covered
# over time and a failure can be repeated with GPUTUNE_SAMPLE_SEED); `make
# check-full` (GPUTUNE_CHECK_FULL=1) compiles every variant for both.  The
# families and their element types are the binary's own (its command list
# and each command's help), 24 variants each unless the list below says
# otherwise; a line there may also narrow the space with --param, for
# values outside the default space.
. "$(dirname "$0")/setup"

echo "# sample seed $sample_seed"
# The families: the commands whose help lists parameters, each with the
# element types its help names.
for c in $("$GPUTUNE" --help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { on = 0 } on { print $1 }'); do
	"$GPUTUNE" help "$c" > "$T/help" 2>&1 || continue
	grep -q "^Parameters of $c " "$T/help" || continue
	for dt in $(sed -n "s/^$c: .*element types \([a-z0-9,]*\)\.\$/\1/p" "$T/help" | tr , ' '); do
		echo "$c $dt"
	done
done > "$T/families"
check "the binary names families and their element types" test -s "$T/families"

# family dtype sample-size [--param ...]: these lines, then every family
# and type they do not name, at 24.
cat > "$T/list" <<'LIST'
transpose f32 120
transpose f16 40
transpose f64 40
transpose f16 12 --param async=rows
transpose f16 8 --param pair=vector --param vec=8 --param realign=out,both
copy f32 48
reduce f32 60
reduce f64 30
reduce i32 30
gemm f32 24
LIST
{
	cat "$T/list"
	while read -r family dtype; do
		grep -q "^$family $dtype " "$T/list" || echo "$family $dtype 24"
	done < "$T/families"
} > "$T/plan"
while read -r family dtype n extra; do
	case $family in '#'*|'') continue ;; esac
	for arch in sm_90 sm_80; do
		k=$n
		[ $arch = sm_80 ] && k=$(((n + 3) / 4))
		sample="--sample $k:$sample_seed"
		[ "${GPUTUNE_CHECK_FULL:-0}" = 1 ] && sample=
		# shellcheck disable=SC2086
		run_gt 0 $family --dry-run --arch $arch --dtype $dtype $sample $extra
		grep_in "$T/out" "failed 0"
		valid=$(sed -n 's/.* points, \([0-9]*\) valid.*/\1/p' "$T/out")
		sampled=$(sed -n 's/^a sample of \([0-9]*\) of.*/\1/p' "$T/out")
		want=${sampled:-$valid}
		compiled=$(sed -n 's/^compiled \([0-9]*\), cached.*/\1/p' "$T/out")
		cached=$(sed -n 's/^compiled [0-9]*, cached \([0-9]*\),.*/\1/p' "$T/out")
		# The tuner's own kernels: the support kernels, and the copy
		# family's point that is the ceiling's kernel for the families
		# measured against a copy (their help says so); either may be
		# cached from the family before.
		own=1
		"$GPUTUNE" help "$family" | grep -q '^Its ceiling, .*: a copy of the input' && own=2
		check "$family $dtype ${extra:+$extra }$arch: ${want:-?} variants of ${valid:-?} compiled, with the tuner's $own" \
			test "${compiled:-0}" -ge $((want - 1)) -a $((compiled + cached)) -eq $((want + own))
		# shellcheck disable=SC2086
		run_gt 0 $family --dry-run --arch $arch --dtype $dtype $sample $extra
		grep_in "$T/out" "compiled 0, cached $((want + own)), failed 0"
	done
done < "$T/plan"
done_testing
