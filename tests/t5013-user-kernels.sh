#!/bin/sh
# On a GPU: kernels users bring, each from its template and spec alone,
# tuned end to end: the five-point stencil (checked bit for bit against
# its naive classic) and the row-wise softmax (within the spec's relative
# bound), at a square size and at odd ones; their results stored under
# NAME@HASH and queried.  A variant that computes wrong is stored as wrong
# and never wins; a reference that faults stops the run before anything
# is timed at that size, and says so.
. "$(dirname "$0")/setup"
skip_without_gpu
ex="$top_srcdir/examples/user"
SQL="$top_builddir/tests/sqlexec"
# status_count FAMILY STATUS: measurements of FAMILY (its name before '@') with STATUS.
status_count() {
	"$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM measurement m JOIN variant v ON v.id = m.variant_id
		JOIN family f ON f.id = v.family_id WHERE f.name LIKE '$1@%' AND m.status = '$2'"
}

run_gt 0 tune "$ex/stencil.cu" --sizes 4096,1000x3001,3001x999 --no-probe
sed 's/^/# /' "$T/out"
n_ok=$(status_count stencil ok)
check "every stencil f32 variant is right at every size (180 x 3 ok, $n_ok)" test "$n_ok" -eq 540
check "none is wrong" test "$(status_count stencil wrong)" -eq 0
run_gt 0 tune "$ex/stencil.json" --sizes 2048,777x1025 --no-probe --dtype f64
check "every stencil f64 variant is right (120 x 2 ok)" test "$(status_count stencil ok)" -eq 780

run_gt 0 tune "$ex/softmax.cu" --sizes 4096,1000x3001,333x20000 --no-probe
sed 's/^/# /' "$T/out"
check "every softmax variant is within the bound at every size (252 x 3 ok)" test "$(status_count softmax ok)" -eq 756

run_gt 0 query --no-shipped --format csv
sed 's/^/# /' "$T/out"
check "query gives the stencil's winners, stored under its name and hash (5 sizes)" \
	test "$(grep -c ',stencil@' "$T/out")" -eq 5
check "and the softmax's (3 sizes)" test "$(grep -c ',softmax@' "$T/out")" -eq 3

# Exported headers, built into a consumer that runs the header's choice
# and checks it against the classic the variants were checked against, at
# the tuned sizes and at sizes nobody tuned.
gpu_nvcc
for k in stencil softmax; do
	run_gt 0 export --kernel "$ex/$k.cu" --no-shipped -o "$T/gputune_$k.h"
	bound=0
	[ $k = softmax ] && bound=1e-4
	if "$NVCC" -O2 -I"$T" -DGT_KERNEL=$k -DGT_HEADER="\"gputune_$k.h\"" "$ex/consumer.cu" -o "$T/consumer_$k" 2>"$T/nvcc.err"; then
		ok "the $k consumer builds with nvcc"
		for size in "4096 4096" "1000 3001" "2500 1777" "333 9999"; do
			check "$k $size: the header's choice agrees with the classic" "$T/consumer_$k" $size $bound
		done
		"$T/consumer_$k" 2500 1777 $bound | sed 's/^/# /'
	else
		not_ok "the $k consumer builds with nvcc"
		sed 's/^/#   /' "$T/nvcc.err" | head -20
	fi
done

# validate, plot and db merge take the template as the family too.
run_gt 0 validate "$ex/stencil.cu" --sizes random:3:500-3000:7 --no-shipped --format csv
check "validate: one row per held-out size" test "$(grep -c '^[0-9]*x[0-9]*,f32,' "$T/out")" -eq 3
check "no choice beats its size's best" \
	sh -c "sed 's/\"[^\"]*\"/P/g' '$T/out' | awk -F, 'NR > 1 && \$8 + 0 > 100.05 { bad = 1 } END { exit bad }'"
run_gt 0 plot sizes --kernel "$ex/stencil.cu" --format csv -o "$T/sizes.csv"
check "plot sizes: a row for each tuned size and more" test "$(wc -l <"$T/sizes.csv")" -ge 4
run_gt 0 plot space --kernel "$ex/softmax.cu" --size 4096 -o "$T/space.svg"
grep_in "$T/space.svg" "<svg"
run_gt 0 export --format json --kernel "$ex/softmax.cu" --no-shipped -o "$T/softmax.json"
run_gt 0 db merge --db "$T/other.db" "$T/softmax.json"
run_gt 0 query --kernel "$ex/softmax.cu" --db "$T/other.db" --no-shipped --format csv
check "merged into another database, the softmax's three winners" test "$(grep -c ',softmax@' "$T/out")" -eq 3

# A template whose ry=4 points compute one element wrong: stored as
# wrong, with the reason, and never the winner.
mkdir -p "$T/bad"
cp "$ex/stencil.json" "$T/bad/stencil.json"
sed 's/res\[j\] = border ? mid\[j\] :/res[j] = GT_RY == 4 \&\& r == rows \/ 2 \&\& c == cols \/ 2 ? T(7) : border ? mid[j] :/' \
	"$ex/stencil.cu" >"$T/bad/stencil.cu"
check "the faulty template differs" sh -c "! cmp -s '$ex/stencil.cu' '$T/bad/stencil.cu'"
run_gt 0 tune "$T/bad/stencil.cu" --sizes 1024 --no-probe --param tx=32,64 --param ty=4,8 --param vx=1
check "its ry=4 points are wrong (4)" test "$("$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM measurement m
	JOIN variant v ON v.id = m.variant_id JOIN family f ON f.id = v.family_id
	WHERE f.name LIKE 'stencil@%' AND m.status = 'wrong' AND v.params LIKE '%ry=4%'
	AND m.reason LIKE '%differs from the reference%'")" -eq 4
check "a changed template is a family of its own (two stencil hashes)" \
	test "$("$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM family WHERE name LIKE 'stencil@%'")" -eq 2
check "no wrong variant won" test "$("$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM winner w
	JOIN measurement m ON m.id = w.measurement_id WHERE m.status <> 'ok'")" -eq 0

# A reference that faults: nothing is timed at that size.
mkdir -p "$T/trap"
cp "$ex/softmax.json" "$T/trap/softmax.json"
sed 's/const float inv = 1.0f \/ s;/if (GT_TPR == 32 \&\& GT_RPB == 1 \&\& GT_VEC == 1 \&\& r == rows - 1) __trap();\n\tconst float inv = 1.0f \/ s;/' \
	"$ex/softmax.cu" >"$T/trap/softmax.cu"
before=$("$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM measurement")
run_gt 1 tune "$T/trap/softmax.cu" --sizes 1024 --no-probe --param tpr=32,64 --param rpb=1 --param vec=1
grep_in "$T/err" "the reference cannot check the variants at 1024x1024 f32"
check "nothing was measured" test "$("$SQL" "$GPUTUNE_DB" "SELECT count(*) FROM measurement")" -eq "$before"
done_testing
