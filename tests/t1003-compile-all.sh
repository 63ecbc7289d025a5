#!/bin/sh
# The variants of every family compile with NVRTC for sm_90 and sm_80 (no
# GPU needed), and a second run compiles nothing.  `make check` compiles a
# seeded sample of each family's default space per element type for sm_90,
# and a quarter of it for sm_80, whose paths differ only where a variant
# needs Hopper (a new seed each day, printed, so the whole space is covered
# over time and a failure can be repeated with GPUTUNE_SAMPLE_SEED); `make
# check-full` (GPUTUNE_CHECK_FULL=1) compiles every variant for both.  A
# line may narrow the space with --param, for values outside the default
# space.
. "$(dirname "$0")/setup"

echo "# sample seed $sample_seed"
# family dtype sample-size [--param ...]
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
		# The tuner's own two kernels (and the copy family's point that is
		# the ceiling's kernel) may be cached from the family before.
		check "$family $dtype ${extra:+$extra }$arch: ${want:-?} variants of ${valid:-?} compiled, with the tuner's 2" \
			test "${compiled:-0}" -ge $((want - 1)) -a $((compiled + cached)) -eq $((want + 2))
		# shellcheck disable=SC2086
		run_gt 0 $family --dry-run --arch $arch --dtype $dtype $sample $extra
		grep_in "$T/out" "compiled 0, cached $((want + 2)), failed 0"
	done
done <<'LIST'
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
done_testing
