#!/bin/sh
# gputune tune KERNEL.cu: a family a user brings (a template and a JSON
# spec beside it) is enumerated, its constraints evaluated by SQLite, and
# every variant compiled, without a GPU.  Every class of spec error is
# refused with exit 2, naming the file and the field: a missing field, a
# bad expression, an unknown name in a constraint, what an expression may
# not do (read a table, attach a file, call an extension), an expression
# nested too deep, a spec over 1 MiB, hostile strings.  A template that
# does not compile shows one variant's NVRTC log and counts the rest.
. "$(dirname "$0")/setup"
ex="$top_srcdir/examples/user"

run_gt 0 tune "$ex/scale.cu" --list
check "the example's f32 space: 35 valid variants" test "$(wc -l <"$T/out")" -eq 35
grep_in "$T/out" "threads=256,items=4,layout=blocked"
check "a rejected point is not listed" sh -c "! grep -q 'items=1,layout=blocked' '$T/out'"
# f64, 16 items of 1024 threads: 128 KiB a block, rejected by its reason.
run_gt 2 tune "$ex/scale.json" --list --dtype f64 --param items=16 --param threads=1024
grep_in "$T/err" "rejected     2  a block's elements over 64 KiB"
run_gt 0 tune "$ex/scale.cu" --dry-run --arch sm_90 --dtype f64
grep_in "$T/out" "scale f64 for sm_90: 40 points, 35 valid, 5 rejected"
grep_in "$T/out" "the blocked layout needs more than one element a thread"
grep_in "$T/out" "failed 0"
run_gt 2 tune "$ex/scale.cu" --sizes 2^20
grep_in "$T/err" "the spec declares no buffers, launch, metric, check, which a run on the GPU needs"
# The examples that declare them: their buffers, geometry, metric, input
# and check evaluated here (tests/unit-user-launch.c).
unit_program unit-user-launch "the examples' launch, evaluated without a GPU" "$ex"
run_gt 0 tune "$ex/stencil.cu" --dry-run --arch sm_90 --sample 12
grep_in "$T/out" "failed 0"
run_gt 0 tune "$ex/softmax.json" --dry-run --arch sm_90 --sample 12
grep_in "$T/out" "failed 0"
# A size whose buffers cannot be made is refused before anything runs,
# GPU or not.
mkdir -p "$T/huge"
sed 's/"length": "rows \* cols"/"length": "rows * cols * 4611686018427387904"/' "$ex/stencil.json" >"$T/huge/stencil.json"
cp "$ex/stencil.cu" "$T/huge/"
run_gt 2 tune "$T/huge/stencil.cu" --sizes 4096
grep_in "$T/err" "size 4096x4096: buffers[0].length: 'rows * cols * 4611686018427387904' is not a whole number"
run_gt 2 tune "$ex/scale.cu" --dtype f16 --list
grep_in "$T/err" "unknown --dtype 'f16' for scale (f32,f64)"

# spec_error WHAT JSON: a spec whose only fault is WHAT (a part of the
# message) is refused with exit 2, naming its file.
n=0
spec_error() {
	n=$((n + 1))
	mkdir -p "$T/s$n"
	printf '%s\n' "$2" >"$T/s$n/k.json"
	cp "$ex/scale.cu" "$T/s$n/k.cu"
	"$GPUTUNE" tune "$T/s$n/k.cu" --list >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qF "$T/s$n/k.json: " "$T/err" && grep -qF -- "$1" "$T/err"; then
		ok "refused ($1)"
	else
		not_ok "refused ($1): exit $rc"
		sed 's/^/#   /' "$T/err" | head -5
	fi
}
# spec BODY...: the example's spec with its fields replaced by BODY's.
head='"name": "k", "kernel": "scale", "shape": "1d", "sizes": "2^20", "dtypes": ["f32"]'
params='"params": [{"name": "threads", "values": [64, 128]}, {"name": "items", "values": [1, 2]}]'
spec_error "kernel: must be" '{"name": "k", "shape": "1d", "sizes": "2^20", '"$params"'}'
spec_error "name: must be a name" '{"kernel": "scale", "shape": "1d", "sizes": "2^20", '"$params"'}'
spec_error "shape: must be" '{"name": "k", "kernel": "scale", "sizes": "2^20", '"$params"'}'
spec_error "sizes:" '{"name": "k", "kernel": "scale", "shape": "1d", "sizes": "0", '"$params"'}'
spec_error "params: must be an array of 1 to 16" "{$head}"
spec_error "params[1].values: must be" "{$head, \"params\": [{\"name\": \"a\", \"values\": [1]}, {\"name\": \"b\", \"values\": [1, \"x\"]}]}"
spec_error "params[0].default: must be an array of some" "{$head, \"params\": [{\"name\": \"a\", \"values\": [1, 2], \"default\": [3]}]}"
spec_error "params[1].name: 'a' is given twice" "{$head, \"params\": [{\"name\": \"a\", \"values\": [1]}, {\"name\": \"a\", \"values\": [2]}]}"
spec_error "'order' is an SQL keyword" "{$head, \"params\": [{\"name\": \"order\", \"values\": [1]}]}"
spec_error "'cc' is a device limit's name" "{$head, \"params\": [{\"name\": \"cc\", \"values\": [1]}]}"
spec_error "'transpose' is a built-in family's" '{"name": "transpose", "kernel": "scale", "shape": "1d", "sizes": "2^20", '"$params"'}'
spec_error "dtypes: must be" '{"name": "k", "kernel": "scale", "shape": "1d", "sizes": "2^20", "dtypes": ["f32", "f128"], '"$params"'}'
c() { printf '{%s, %s, "constraints": [{"require": "%s", "reason": "r"}]}' "$head" "$params" "$1"; }
spec_error "constraints[0].require: 'threads **' is not an expression SQLite reads" "$(c 'threads **')"
spec_error "names 'threadz', which is no parameter" "$(c 'threadz < 5')"
spec_error "does what an expression may not" "$(c '(SELECT count(*) FROM sqlite_schema) = 0')"
spec_error "does what an expression may not" "$(c "load_extension('x') IS NULL")"
spec_error "is not one expression" "$(c "1) FROM (SELECT 1); ATTACH 'x' AS y; SELECT (1")"
spec_error "is not an expression SQLite reads" "$(c 'threads IN (WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT i FROM r)')"
deep=$(awk 'BEGIN { for (i = 0; i < 200; i++) printf "("; printf "1"; for (i = 0; i < 200; i++) printf ")" }')
spec_error "is not an expression SQLite reads" "$(c "$deep")"
# The functions the docs allow are allowed (SQLite names a function to
# the authorizer in its fourth argument).
mkdir -p "$T/fn"
c 'min(threads, 100) >= 64 AND abs(items) = iif(items > 1, 2, 1) AND coalesce(NULL, 1)' >"$T/fn/k.json"
cp "$ex/scale.cu" "$T/fn/k.cu"
run_gt 0 tune "$T/fn/k.json" --list
check "a constraint with min, abs, iif and coalesce selects (4 points)" test "$(wc -l <"$T/out")" -eq 4
spec_error "constraints[0].reason: must be" "{$head, $params, \"constraints\": [{\"require\": \"1\"}]}"
# Hostile strings: control bytes, quotes.
spec_error "reason: must be" "{$head, $params, \"constraints\": [{\"require\": \"1\", \"reason\": \"a\\u001b[2Jb\"}]}"
spec_error "summary: must be one line" "{$head, $params, \"summary\": \"a\\nb\"}"
spec_error "name: must be a name" '{"name": "k\"; DROP TABLE x; --", "kernel": "scale", "shape": "1d", "sizes": "2^20", '"$params"'}'
spec_error "kernel: must be" '{"name": "k", "kernel": "scale(); }", "shape": "1d", "sizes": "2^20", '"$params"'}'
spec_error "is not a JSON object" '[1, 2]'
spec_error "is not valid JSON: an unknown word at byte 0" 'not json at all'
spec_error "is not valid JSON: an object key that is not a string" "{$head, {\"a\": 1}: 2, $params}"
# Export: a header for each example (only its default variant, nothing
# being tuned here) that cc and nvcc build, and a consumer of it.
for k in stencil softmax; do
	run_gt 0 export --kernel "$ex/$k.json" --allow-untuned --no-shipped -o "$T/gputune_$k.h"
	grep_in "$T/gputune_$k.h" "gputune_${k}_buffer_elems"
	printf '#include "gputune_%s.h"\nint main(void)\n{\n\tunsigned g[3], b[3], smem;\n\tint v = gputune_%s_choose("X", 90, "f32", 1000, 3001);\n\tgputune_%s_geometry(v, 1000, 3001, g, b, &smem);\n\treturn v != 0 || gputune_%s_buffer_elems(1, 1000, 3001) != 3001000 || g[0] == 0;\n}\n' \
		$k $k $k $k >"$T/use_$k.c"
	if $CC -std=c11 -Wall -Wextra -Werror -I"$T" "$T/use_$k.c" -o "$T/use_$k" 2>"$T/cc.err"; then
		ok "the $k header compiles with $CC -std=c11 -Wall -Wextra -Werror"
		check "its choice, geometry and buffer lengths answer" "$T/use_$k"
	else
		not_ok "the $k header compiles with $CC -std=c11 -Wall -Wextra -Werror"
		sed 's/^/#   /' "$T/cc.err" | head -20
	fi
	printf '#include "gputune_%s.h"\ncudaError_t use(const float *in, float *out)\n{\n\treturn gputune_%s_launch(0, in, out, 100, 100, 0);\n}\n' \
		$k $k >"$T/use_$k.cu"
	nvcc_compiles "$T/use_$k.cu"
done
# A launch expression that is SQL but not C cannot go into a header.
mkdir -p "$T/sqlonly"
sed 's|"block": \["tx", "ty"\]|"block": ["iif(tx > 0, tx, 1)", "ty"]|' "$ex/stencil.json" >"$T/sqlonly/stencil.json"
cp "$ex/stencil.cu" "$T/sqlonly/"
run_gt 0 tune "$T/sqlonly/stencil.json" --list
run_gt 1 export --kernel "$T/sqlonly/stencil.json" --allow-untuned --no-shipped -o "$T/never.h"
grep_in "$T/err" "launch.block[0]: 'iif(tx > 0, tx, 1)': it names what is not a number of C"
check "and no header is written" test ! -e "$T/never.h"

# A user family's results (stored as NAME@HASH) go through JSON and
# db merge like any others.
. "$top_srcdir/tests/results-doc"
results_doc "GPU U" GPU-uuuu 9 0 run-u f32 1024x1024:3000:32 2048x2048:3100:64 |
	sed 's/"transpose"/"stencil@0123456789ab"/g' >"$T/user-doc.json"
run_gt 0 db merge --db "$T/merged.db" "$T/user-doc.json"
run_gt 0 query --db "$T/merged.db" --no-shipped --format csv
check "query lists the merged user family's two winners" test "$(grep -c ',stencil@0123456789ab,' "$T/out")" -eq 2
run_gt 0 export --format json --db "$T/merged.db" --no-shipped -o "$T/again.json"
grep_in "$T/again.json" '"stencil@0123456789ab"'

# What a run on the GPU reads: buffers, launch, metric, classics, check.
in='{"name": "x", "role": "input", "length": "n"}'
out='{"name": "y", "role": "output", "length": "n"}'
run_spec() { printf '{%s, %s, %s}' "$head" "$params" "$1"; }
launch='"launch": {"grid": ["(n + threads - 1) / threads"], "block": ["threads"]}'
rest="$launch, \"metric\": {\"bytes\": \"2 * n * elem_bytes\"}, \"classics\": [\"plain:threads=64,items=1\"], \"check\": {\"reference\": \"plain\"}"
spec_error "buffers: must hold one output and at least one input (it has 0 and 1)" "$(run_spec "\"buffers\": [$in], $rest")"
spec_error "buffers: must be an array of 1 to 8" "$(run_spec "\"buffers\": [], $rest")"
spec_error "buffers[1].role: must be" "$(run_spec "\"buffers\": [$in, {\"name\": \"y\", \"role\": \"out\", \"length\": \"n\"}], $rest")"
spec_error "buffers[1].name: 'x' is given twice" "$(run_spec "\"buffers\": [$in, {\"name\": \"x\", \"role\": \"output\", \"length\": \"n\"}], $rest")"
spec_error "buffers[1].length: 'threads * n' names 'threads', which is no parameter (nor a size's name: n)" \
	"$(run_spec "\"buffers\": [$in, {\"name\": \"y\", \"role\": \"output\", \"length\": \"threads * n\"}], $rest")"
spec_error "buffers[0].range: an input's range is [lo, hi]" \
	"$(run_spec "\"buffers\": [{\"name\": \"x\", \"role\": \"input\", \"length\": \"n\", \"range\": [2, 1]}, $out], $rest")"
spec_error "launch.block[0]: is needed" "$(run_spec "\"buffers\": [$in, $out], \"launch\": {\"grid\": [1]}")"
spec_error "launch.grid: has more than 3 entries" "$(run_spec "\"buffers\": [$in, $out], \"launch\": {\"grid\": [1, 1, 1, 1], \"block\": [1]}")"
spec_error "launch.smem: 'rows * 4' names 'rows'" "$(run_spec "\"buffers\": [$in, $out], \"launch\": {\"grid\": [1], \"block\": [1], \"smem\": \"rows * 4\"}")"
spec_error "metric: must be {\"bytes\": EXPR}" "$(run_spec "\"buffers\": [$in, $out], $launch, \"metric\": {\"bytes\": \"n\", \"flops\": \"n\"}")"
spec_error "metric.ceiling: must be" "$(run_spec "\"buffers\": [$in, $out], $launch, \"metric\": {\"flops\": \"n\", \"ceiling\": \"read\"}")"
spec_error "classics: must be an array" "$(run_spec "\"buffers\": [$in, $out], $launch, \"classics\": [\"plain:threads=65\"]")"
spec_error "check.reference: must name one of the classics" "$(run_spec "\"buffers\": [$in, $out], $launch, \"classics\": [\"plain:threads=64\"], \"check\": {\"reference\": \"naive\"}")"
spec_error "check.rel: must be 0 or more" "$(run_spec "\"buffers\": [$in, $out], $launch, \"classics\": [\"plain:threads=64\"], \"check\": {\"reference\": \"plain\", \"rel\": -1}")"
# A whole one is accepted, and a partial one lists what it lacks.
mkdir -p "$T/whole"
run_spec "\"buffers\": [$in, $out], $rest" >"$T/whole/k.json"
cp "$ex/scale.cu" "$T/whole/k.cu"
run_gt 0 tune "$T/whole/k.json" --list
run_spec "\"buffers\": [$in, $out], $launch" >"$T/whole/k.json"
run_gt 2 tune "$T/whole/k.json" --sizes 2^20
grep_in "$T/err" "the spec declares no metric, check, which a run on the GPU needs"

# A spec over 1 MiB.
mkdir -p "$T/big"
{ printf '{%s, %s, "summary": "' "$head" "$params"; head -c 1100000 /dev/zero | tr '\0' a; printf '"}\n'; } >"$T/big/k.json"
cp "$ex/scale.cu" "$T/big/k.cu"
run_gt 2 tune "$T/big/k.cu" --list
grep_in "$T/err" "a spec is at most 1 MiB"
# A missing template names its path.
mkdir -p "$T/nocu"
c 'threads > 0' >"$T/nocu/k.json"
run_gt 2 tune "$T/nocu/k.json" --list
grep_in "$T/err" "$T/nocu/k.cu: the template cannot be read"

# A template that does not compile: one variant's log, the rest counted.
mkdir -p "$T/bad"
cp "$ex/scale.json" "$T/bad/scale.json"
sed 's/y\[i\] = x\[i\] + x\[i\];/y[i] = no_such_function(x[i]);/' "$ex/scale.cu" >"$T/bad/scale.cu"
run_gt 1 tune "$T/bad/scale.cu" --dry-run --arch sm_90
check "the first failing variant's NVRTC log is shown once" test "$(grep -c 'no_such_function' "$T/err")" -ge 1
grep_in "$T/err" "and 30 more variants failed to compile"
grep_in "$T/out" "failed 35"
done_testing
