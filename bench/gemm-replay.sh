#!/bin/sh
# gemm-replay.sh - the matrix multiply's choice at shapes nobody tuned,
# replayed without a GPU: for each shape of an every-variant table
# (`bench/gemm-run.sh OUT bench` with GEMM_EVERY set, or gemm-bench
# --every-variant: every kernel of a header timed beside cuBLAS at each
# shape), the variant `gputune query --size` chooses there from DB, and its
# figure over cuBLAS as the table has it.  So a change to the rule
# (src/export/choice-rule.h), built, can be judged on measurements already
# made, against the best of the same kernels, before a GPU confirms it.
# DB must be the database the header was exported from (its candidates are
# the table's kernels); a choice the table lacks prints "not in the table"
# and counts 0.
# Usage: bench/gemm-replay.sh DB EVERY.csv   (from the source tree, gputune
# built; $GPUTUNE for another gputune)
set -eu
db=${1:?usage: bench/gemm-replay.sh DB EVERY.csv}
table=${2:?usage: bench/gemm-replay.sh DB EVERY.csv}
GPUTUNE=${GPUTUNE:-./gputune}
[ -r "$db" ] || { echo "gemm-replay.sh: cannot read the database '$db'" >&2; exit 2; }
[ -r "$table" ] || { echo "gemm-replay.sh: cannot read the table '$table'" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The table's lines are shape,variant,"params",ms,tflops,of_cublas,right,chosen;
# a wrong result's figure counts 0.
awk -F'"' 'NR > 1 { split($1, a, ","); split($3, b, ","); print a[1] "\t" $2 "\t" (b[5] == 1 ? b[4] : 0) }' \
	"$table" >"$work/figures"
cut -f1 "$work/figures" | awk '!seen[$0]++' >"$work/shapes"
[ -s "$work/shapes" ] || { echo "gemm-replay.sh: no shapes in '$table'" >&2; exit 2; }
while read -r shape; do
	choice=$("$GPUTUNE" query --db "$db" --no-shipped --kernel gemm --size "$shape" --format csv |
		awk -F'"' 'NR == 2 { print $2 }')
	if [ -z "$choice" ]; then
		echo "gemm-replay.sh: '$db' chooses nothing at $shape (no matrix multiply results in it?)" >&2
		exit 2
	fi
	printf '%s\t%s\n' "$shape" "$choice"
done <"$work/shapes" >"$work/choices"

echo "| shape | the choice over cuBLAS | the best of the table's kernels | the choice |"
echo "|---|---|---|---|"
awk -F'\t' '
	FILENAME == ARGV[1] { fig[$1 "\t" $2] = $3; if ($3 > best[$1]) best[$1] = $3; next }
	{
		c = ($1 "\t" $2) in fig ? fig[$1 "\t" $2] : -1
		printf "| %s | %s | %.3f | `%s` |\n", $1, c < 0 ? "not in the table" : sprintf("%.3f", c), best[$1], $2
		n++
		ch[n] = c < 0 ? 0 : c
		rel[n] = best[$1] > 0 ? ch[n] / best[$1] : 0
	}
	# Sorts v[1..k] in place (insertion: a few dozen shapes) and returns its median.
	function sorted_median(v, k,    i, j, t) {
		for (i = 2; i <= k; i++)
			for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			}
		return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
	}
	END {
		above = 0
		for (i = 1; i <= n; i++)
			above += ch[i] >= 0.90
		mc = sorted_median(ch, n)
		mr = sorted_median(rel, n)
		printf "\nthe choice over cuBLAS at %d shapes: worst %.3f, median %.3f, %d at 0.90 or more; ", n, ch[1], mc, above
		printf "over the best of the table'"'"'s kernels: worst %.3f, median %.3f\n", rel[1], mr
	}' "$work/figures" "$work/choices"
