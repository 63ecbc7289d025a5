#!/bin/sh
# The choice at sizes nobody tuned, on a hand-made database: variant A
# (tile=64) wins at sizes whose rows are 32-byte aligned, B (tile=32) at odd
# row counts, and C (tile=16) is never first but never far behind.  The
# header must pick by row alignment, fall back to the best worst case for a
# row alignment it has no evidence of, serve an unseen device of the same
# compute capability from the same tables, and agree with `gputune query
# --size` at every size asked.
. "$(dirname "$0")/setup"
. "$top_srcdir/tests/results-doc"

uuid=GPU-choice
{
	doc_head "NVIDIA H200" $uuid 9 0
	printf ' "results": [\n'
	sep=''
	# size winner-gbps winner-tile; the others as share of the winner
	for e in 4096x4096:3600:64 8192x8192:4000:64 2048x8192:3000:64 4097x4097:3400:32 7777x1111:2800:32 1025x1025:1200:32; do
		size=${e%%:*} rest=${e#*:}
		printf '%s  ' "$sep"
		result_record $uuid f32 "${size%x*}" "${size#*x}" "${rest%%:*}" "${rest#*:}" run-1
		sep=',
'
	done
	printf '\n ],\n "measurements": [\n'
	sep=''
	for e in 4096x4096:32:2520 4096x4096:16:3240 8192x8192:32:2800 8192x8192:16:3600 2048x8192:32:2100 2048x8192:16:2700 \
		4097x4097:64:1700 4097x4097:16:3060 7777x1111:64:1400 7777x1111:16:2520 1025x1025:64:600 1025x1025:16:1080; do
		size=${e%%:*} rest=${e#*:}
		printf '%s  ' "$sep"
		result_record $uuid f32 "${size%x*}" "${size#*x}" "${rest#*:}" "${rest%%:*}" run-1
		sep=',
'
	done
	printf '\n]}\n'
} > "$T/choice.json"
run_gt 0 db merge "$T/choice.json"
run_gt 0 export --kernel transpose --no-shipped -o "$T/gputune_transpose.h"
grep_in "$T/gputune_transpose.h" "NVIDIA H200, sm_90, f32: 6 measured sizes, 3 candidates"
grep_in "$T/gputune_transpose.h" "gputune_choice_rule"

# Compact: 25 variants, each the winner of one size, take under 1,500
# lines; with the last of them taking the tensor copy engine (whose path,
# maps and encoder the header then carries) too.
compact_doc() {
	doc_head "NVIDIA H100" GPU-compact 9 0
	printf ' "results": [\n'
	sep='' i=0
	for tile in 16 32 64; do
		for pad in 0 1 2 3 4 8; do
			for unroll in 1 2; do
				[ $i -lt 25 ] || continue
				p="block_rows=8,pad=$pad,unroll=$unroll,mapping=cartesian,vec=1,shared=on"
				t=$tile
				[ $i -eq 24 ] && [ -n "$1" ] && p=$1 t=32
				printf '%s  ' "$sep"
				result_record GPU-compact f32 $((1000 + i)) 2000 3000 $t run-2 "$p"
				sep=',
'
				i=$((i + 1))
			done
		done
	done
	printf '\n]}\n'
}
main_db=$GPUTUNE_DB
for last in "" "block_rows=8,pad=1,unroll=4,mapping=colmajor,vec=1,shared=on,sector=on,wide=2,rowclass=on"; do
	compact_doc "$last" > "$T/compact.json"
	export GPUTUNE_DB="$T/compact${last:+-rowclass}.db"
	run_gt 0 db merge "$T/compact.json"
	run_gt 0 export --kernel transpose --no-shipped -o "$T/compact.h"
	check "no warning (every variant compiled for its register count)" test ! -s "$T/err"
	grep_in "$T/compact.h" "NVIDIA H100, sm_90, f32: 25 measured sizes"
	lines=$(wc -l < "$T/compact.h")
	check "the header is compact ($lines lines for 25 variants${last:+, one of them rowclass=on})" \
		test "$lines" -lt 1500
	check "it compiles with cc" cc -std=c11 -Wall -Werror -fsyntax-only -x c "$T/compact.h"
	# The rule ranks the best of another code path second: only the
	# rowclass variant takes one of the template's optional regions.
	taking=$(sed -n 's/^static const unsigned gputune_transpose_paths\[25\] = {\(.*\)};$/\1/p' "$T/compact.h" |
		tr ',' '\n' | tr -d ' ' | grep -c '^[1-9]')
	check "variants taking an optional path: $taking${last:+ (one rowclass=on)}" test "$taking" -eq "$([ -n "$last" ] && echo 1 || echo 0)"
done
grep_in "$T/compact.h" "gputune_tmaps_build("
export GPUTUNE_DB="$main_db"

cat > "$T/choice.c" <<'C'
#include "gputune_transpose.h"
#include <stdio.h>
#include <stdlib.h>

static int failures;

static void expect(const char *what, const char *dev, int cc, long r, long c, const char *params)
{
	int v = gputune_transpose_choose(dev, cc, "f32", r, c);
	const char *p = v >= 0 ? gputune_transpose_variants[v].params : "(none)";
	if (strncmp(p, params, strlen(params))) {
		printf("not ok - %s (%ldx%ld): got %s, expected %s\n", what, r, c, p, params);
		failures++;
	} else {
		printf("ok - %s (%ldx%ld)\n", what, r, c);
	}
}

/* gputune_transpose_candidates() gives the variants starting with want[0..2]
 * (NULL: no more), in order, and its first is what choose() gives. */
static void expect_ranked(const char *what, const char *dev, int cc, const char *dtype, long r, long c, int k,
			  const char *w0, const char *w1, const char *w2)
{
	const char *want[3] = { w0, w1, w2 };
	int out[GPUTUNE_CHOICE_MAX_RANK], nwant = 0;
	while (nwant < 3 && want[nwant])
		nwant++;
	int n = gputune_transpose_candidates(dev, cc, dtype, r, c, out, k), bad = n != nwant;
	for (int i = 0; !bad && i < n; i++)
		bad = strncmp(gputune_transpose_variants[out[i]].params, want[i], strlen(want[i])) != 0;
	if (!bad && n > 0)
		bad = out[0] != gputune_transpose_choose(dev, cc, dtype, r, c);
	printf("%s - ranked: %s (%ldx%ld: %d of %d)\n", bad ? "not ok" : "ok", what, r, c, n, nwant);
	failures += bad;
}

int main(int argc, char **argv)
{
	if (argc > 1) { /* print the choice at each size given, for comparison with query */
		for (int i = 1; i < argc; i++) {
			long r = strtol(argv[i], NULL, 10), c = strtol(strchr(argv[i], 'x') + 1, NULL, 10);
			printf("%ldx%ld %s\n", r, c, gputune_transpose_variants[gputune_transpose_choose("NVIDIA H200", 90, "f32", r, c)].params);
		}
		return 0;
	}
	expect("a tuned size: its winner", "NVIDIA H200", 90, 4097, 4097, "tile=32,");
	expect("a tuned size: its winner", "NVIDIA H200", 90, 8192, 8192, "tile=64,");
	expect("32-byte aligned rows: the aligned sizes' winner", "NVIDIA H200", 90, 6000, 3000, "tile=64,");
	expect("32-byte aligned rows, small", "NVIDIA H200", 90, 1000, 1000, "tile=64,");
	expect("odd rows: the odd sizes' winner", "NVIDIA H200", 90, 5001, 3000, "tile=32,");
	expect("odd rows, wide", "NVIDIA H200", 90, 1111, 7777, "tile=32,");
	expect("rows of an unmeasured alignment: best worst case", "NVIDIA H200", 90, 3002, 3000, "tile=16,");
	expect("unseen device of the same compute capability", "NVIDIA H100 80GB HBM3", 90, 5001, 3000, "tile=32,");
	expect("unseen compute capability: the classic kernel", "Other GPU", 100, 5001, 3000,
	       "tile=32,block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=1,shared=on,sector=off");
	/* The ranking a calibrating header tries: at odd rows B, then C
	 * (never first, never far), then A; at aligned rows A, C, B; one at a
	 * measured size or for an unseen device; none for a type without a
	 * kernel. */
	expect_ranked("odd rows: B, C, A", "NVIDIA H200", 90, "f32", 5001, 3000, 3, "tile=32,", "tile=16,", "tile=64,");
	expect_ranked("odd rows, two asked: B, C", "NVIDIA H200", 90, "f32", 5001, 3000, 2, "tile=32,", "tile=16,", NULL);
	expect_ranked("aligned rows: A, C, B", "NVIDIA H200", 90, "f32", 6000, 3000, 4, "tile=64,", "tile=16,", "tile=32,");
	expect_ranked("a measured size: its winner alone", "NVIDIA H200", 90, "f32", 4097, 4097, 4, "tile=32,", NULL, NULL);
	expect_ranked("an unseen device: the classic kernel alone", "Other GPU", 100, "f32", 5001, 3000, 4,
		      "tile=32,block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=1,shared=on,sector=off", NULL, NULL);
	expect_ranked("an element type without a kernel: none", "NVIDIA H200", 90, "f8", 5001, 3000, 4, NULL, NULL, NULL);
	expect_ranked("none asked: none", "NVIDIA H200", 90, "f32", 5001, 3000, 0, NULL, NULL, NULL);
	if (gputune_transpose_lookup("NVIDIA H200", 90, "f32", 5001, 3000) != NULL ||
	    gputune_transpose_lookup("NVIDIA H200", 90, "f32", 7777, 1111) == NULL) {
		printf("not ok - lookup returns measured sizes only\n");
		failures++;
	}
	return failures != 0;
}
C
if $CC -std=c11 -Wall -Wextra -Werror -I"$T" "$T/choice.c" -o "$T/choice" 2>"$T/cc.err"; then
	ok "the header compiles with $CC -std=c11 -Wall -Wextra -Werror"
	if "$T/choice" > "$T/choice.out"; then ok "the header chooses as documented"; else not_ok "the header's choice"; fi
	sed 's/^/#   /' "$T/choice.out"
	# query --size answers with the same rule: compare at sizes of every
	# alignment.  Stored names may omit parameters at their defaults:
	# compare the seven parameters both spell out.
	query_agrees transpose 7 "$T/choice" 6000x3000 5001x3000 3002x3000 3004x1500 1000x1000 8191x8191 1234x5678 \
		7000x2000 4096x4096 2500x999
else
	not_ok "the header compiles with $CC -std=c11 -Wall -Wextra -Werror"
	sed 's/^/#   /' "$T/cc.err" | head -20
fi

# What the header hands NVRTC compiles, for every variant.
check_header_programs transpose

# validate --replay, no GPU: each measured size left out in turn.  On the
# H200's tables every size has a sibling of its row class with the same
# winner, so each choice is that size's best.
run_gt 0 validate transpose --replay --no-shipped
grep_in "$T/out" "replayed f32 on NVIDIA H200: 6 measured sizes, each left out in turn; the choice at 100.0% of the size's best in the median, 100.0% at worst"
check "--replay chose by row class at all 6 sizes" test "$(grep -c ' class ' "$T/out")" -eq 6
# With --sizes, the sizes are left out together, as validate leaves them
# out, and only they are scored.  Two of the three odd-row sizes out: the
# third still speaks for B.  All three out (and one nobody measured): no
# evidence of odd rows is left, the best worst case over the aligned sizes
# is A, at half of each odd size's best.
run_gt 0 validate transpose --replay --no-shipped --sizes 4097x4097,7777x1111
grep_in "$T/out" "replayed f32 on NVIDIA H200: 2 of the 2 sizes asked were measured, left out together; the choice at 100.0% of the size's best in the median, 100.0% at worst"
check "--replay --sizes scores the sizes asked only" test "$(grep -c ' class ' "$T/out")" -eq 2
run_gt 0 validate transpose --replay --no-shipped --sizes 4097x4097,7777x1111,1025x1025,1234x5678 --format csv
grep_in "$T/err" "replayed f32 on NVIDIA H200: 3 of the 4 sizes asked were measured, left out together; the choice at 50.0% of the size's best in the median, 50.0% at worst ("
grep_in "$T/err" "), below 90% at 3"
check "with no odd-row size left, the best worst case at all three" test "$(grep -c ',worst-case,50.0,' "$T/out")" -eq 3
# Calibration would time A, C and B there, and keep B: each odd size's best.
grep_in "$T/err" "calibrated (the fastest of the rule's 4 best, as a header's calibration picks): 100.0% in the median, 100.0% at worst"
check "the calibrated pick at all three is B" test "$(grep -c ',worst-case,50.0,"[^"]*","tile=32,[^"]*",100.0$' "$T/out")" -eq 3
run_gt 1 validate transpose --replay --no-shipped --sizes 1234x5678
grep_in "$T/err" "none of the 1 sizes given to --replay was measured for transpose f32"
run_gt 2 validate transpose --replay --no-shipped --sizes 12x
grep_in "$T/err" "12x"
# A device with one size of each row class: left out, a size has no
# sibling, and the best worst case over the other size is chosen: B (tile
# 32) where A won (B's share 0.7), A where B won (A's 0.5).
{
	doc_head "NVIDIA H100" GPU-replay 9 0
	printf ' "results": [\n'
	result_record GPU-replay f32 4096 4096 3600 64 run-3
	printf ',\n'
	result_record GPU-replay f32 4097 4097 3400 32 run-3
	printf '\n ],\n "measurements": [\n'
	result_record GPU-replay f32 4096 4096 2520 32 run-3
	printf ',\n'
	result_record GPU-replay f32 4097 4097 1700 64 run-3
	printf '\n]}\n'
} > "$T/replay.json"
run_gt 0 db merge "$T/replay.json" --db "$T/replay.db"
run_gt 0 validate transpose --replay --no-shipped --db "$T/replay.db"
grep_in "$T/out" "replayed f32 on NVIDIA H100: 2 measured sizes, each left out in turn; the choice at 60.0% of the size's best in the median, 50.0% at worst (4097x4097), below 90% at 2"
check "--replay fell back to the best worst case at both sizes" test "$(grep -c ' worst-case ' "$T/out")" -eq 2
run_gt 1 validate transpose --replay --no-shipped --db "$T/replay.db" --dtype f16
grep_in "$T/err" "no transpose f16 results to replay"

# The model travels: JSON export and merge keep the candidates.
run_gt 0 export --format json --no-shipped -o "$T/round.json"
grep_in "$T/round.json" '"measurements": ['
run_gt 0 db merge "$T/round.json" --db "$T/round.db"
run_gt 0 export --kernel transpose --no-shipped --db "$T/round.db" -o "$T/round.h"
run_gt 0 export --kernel transpose --no-shipped -o "$T/direct.h"
grep -v Generated "$T/direct.h" > "$T/direct.nogen"
grep -v Generated "$T/round.h" > "$T/round.nogen"
check "a merged copy exports the same tables" cmp -s "$T/round.nogen" "$T/direct.nogen"
done_testing
