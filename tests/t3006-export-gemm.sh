#!/bin/sh
# The matrix multiply's exported header on a hand-made database of three
# tuned sizes M x N x K: variant X wins at 1024^3 and 4000x3000x5000, Z at
# 2048^3, and Y never wins but is never below 90%.  The header compiles
# with cc -std=c11 and nvcc; it answers tuned sizes with their winners, a
# K of an alignment nobody tuned with the best worst case (Y), an unseen
# device of the same compute capability from the same tables, another
# with the default variant; it agrees with `gputune query --size`; its
# NVRTC programs compile; bench/gemm-replay.sh joins the choice to an
# every-variant table; and the sizes' depth survives JSON export and
# merge.
. "$(dirname "$0")/setup"

uuid=GPU-gemm
X=bm=128,bn=256,bk=8,wm=64,wn=64,tm=8,tn=2,vec=4,pad=4,dbuf=1,group=8
# Y with the shifted loads, so that nvcc and NVRTC build them from the header.
Y=bm=64,bn=128,bk=16,wm=32,wn=32,tm=4,tn=2,vec=4,pad=4,dbuf=1,group=1,realign=on
# Z with stages filled by cp.async, likewise.
Z=bm=128,bn=128,bk=8,wm=32,wn=64,tm=8,tn=8,vec=4,pad=4,dbuf=0,group=1,async=3
# record M N K GFLOPS PARAMS HASH
record() {
	printf '{"device_uuid": "%s", "kernel": "gemm", "dtype": "f32", "rows": %s, "cols": %s, "depth": %s,' $uuid "$1" "$2" "$3"
	printf ' "timing_mode": "flushed", "params": "%s", "source_hash": "%s",' "$5" "$6"
	printf ' "median_ms": 1, "min_ms": 0.9, "max_ms": 1.2, "p25_ms": 0.95, "p75_ms": 1.1, "launches": 30,'
	printf ' "gbps": %s, "fraction": 0.7, "ceiling_gbps": 64000, "memcpy_gbps": 0, "copy_kernel_gbps": 64000,' "$4"
	printf ' "ceiling_kind": "fma", "run": {"uuid": "run-g", "started_at": "2026-11-22T00:00:00Z",'
	printf ' "gputune_version": "0.1.0", "nvrtc_version": "13.0", "repetitions": 30}}'
}
{
	printf '{"format": "gputune-results", "version": 1,\n'
	printf ' "kernels": [{"name": "gemm", "params": "bm,bn,bk,wm,wn,tm,tn,vec,pad,dbuf,group,inject"}],\n'
	printf ' "devices": [{"uuid": "%s", "name": "NVIDIA H200", "cc_major": 9, "cc_minor": 0, "sm_count": 132,' $uuid
	printf ' "mem_bytes": 150000000000, "l2_bytes": 52428800, "bus_width_bits": 6144, "mem_clock_khz": 3201000,'
	printf ' "driver_version": 13000}],\n "results": [\n'
	record 1024 1024 1024 30000 $X hx; printf ',\n'
	record 2048 2048 2048 45000 $Z hz; printf ',\n'
	record 4000 3000 5000 44000 $X hx
	printf '\n ],\n "measurements": [\n'
	record 1024 1024 1024 27000 $Y hy; printf ',\n'
	record 1024 1024 1024 15000 $Z hz; printf ',\n'
	record 2048 2048 2048 22500 $X hx; printf ',\n'
	record 2048 2048 2048 40500 $Y hy; printf ',\n'
	record 4000 3000 5000 39600 $Y hy; printf ',\n'
	record 4000 3000 5000 26400 $Z hz
	printf '\n]}\n'
} > "$T/gemm.json"
run_gt 0 db merge "$T/gemm.json"
run_gt 0 query --no-shipped --kernel gemm
grep_in "$T/out" "4000x3000x5000"
run_gt 0 export --kernel gemm --no-shipped -o "$T/gputune_gemm.h"
grep_in "$T/gputune_gemm.h" "NVIDIA H200, sm_90, f32: 3 measured sizes, 3 candidates"
grep_in "$T/gputune_gemm.h" "gputune_gemm_g0_depths[] = { 1024, 2048, 5000 }"
check "the header does not name the test-only parameter" sh -c "! grep -qi 'inject' '$T/gputune_gemm.h'"
check "the header's entries name GFLOP/s gflops, not gbps" \
	sh -c "grep -q '^	double gflops;     /\* measured, GFLOP/s \*/' '$T/gputune_gemm.h' && ! grep -q gbps '$T/gputune_gemm.h'"

cat > "$T/choice.c" <<'C'
#include "gputune_gemm.h"
#include <stdio.h>
#include <stdlib.h>

static int failures;

static void expect(const char *what, const char *dev, int cc, long m, long n, long k, const char *params)
{
	int v = gputune_gemm_choose(dev, cc, "f32", m, n, k);
	const char *p = v >= 0 ? gputune_gemm_variants[v].params : "(none)";
	if (strcmp(p, params)) {
		printf("not ok - %s (%ldx%ldx%ld): got %s, expected %s\n", what, m, n, k, p, params);
		failures++;
	} else {
		printf("ok - %s (%ldx%ldx%ld)\n", what, m, n, k);
	}
}

int main(int argc, char **argv)
{
	if (argc > 1) { /* the choice at each size given, for comparison with query */
		for (int i = 1; i < argc; i++) {
			long m, n, k;
			if (sscanf(argv[i], "%ldx%ldx%ld", &m, &n, &k) != 3)
				return 2;
			printf("%s %s\n", argv[i],
			       gputune_gemm_variants[gputune_gemm_choose("NVIDIA H200", 90, "f32", m, n, k)].params);
		}
		return 0;
	}
	expect("a tuned size: its winner", "NVIDIA H200", 90, 2048, 2048, 2048, Z);
	expect("a tuned size: its winner", "NVIDIA H200", 90, 4000, 3000, 5000, X);
	expect("the same M and N at another K is not that size", "NVIDIA H200", 90, 2048, 2048, 2047, Y);
	expect("a K of an alignment nobody tuned: the best worst case", "NVIDIA H200", 90, 777, 777, 777, Y);
	expect("unseen device of the same compute capability", "NVIDIA H100", 90, 777, 777, 777, Y);
	expect("unseen compute capability: the default variant", "Other GPU", 100, 777, 777, 777,
	       "bm=128,bn=256,bk=8,wm=64,wn=64,tm=8,tn=4,vec=4,pad=4,dbuf=1,group=8");
	const gputune_gemm_entry *e = gputune_gemm_lookup("NVIDIA H200", 90, "f32", 4000, 3000, 5000);
	if (!e || e->depth != 5000 || gputune_gemm_lookup("NVIDIA H200", 90, "f32", 4000, 3000, 4999)) {
		printf("not ok - lookup matches all three dimensions\n");
		failures++;
	}
	unsigned grid[3], block[3], smem = 0;
	gputune_gemm_geometry(gputune_gemm_choose("NVIDIA H200", 90, "f32", 1000, 1000, 1000), 1000, 1000, 1000, grid,
			      block, &smem);
	printf("# geometry at 1000^3: %u blocks of %u threads, %u bytes of shared memory\n", grid[0], block[0], smem);
	return failures != 0;
}
C
# The expectations name the variants X, Y and Z by their full names.
if $CC -std=c11 -Wall -Wextra -Werror -DX="\"$X\"" -DY="\"$Y\"" -DZ="\"$Z\"" -I"$T" "$T/choice.c" -o "$T/choice" 2>"$T/cc.err"; then
	ok "the header compiles with $CC -std=c11 -Wall -Wextra -Werror"
	if "$T/choice" > "$T/choice.out"; then ok "the header chooses as documented"; else not_ok "the header's choice"; fi
	sed 's/^/#   /' "$T/choice.out"
	query_agrees gemm 99 "$T/choice" 1024x1024x1024 2048x2048x2047 777x777x777 3000x3000x3000 8192x1024x4096 \
		100x7000x64 4000x3000x5000
else
	not_ok "the header compiles with $CC -std=c11 -Wall -Wextra -Werror"
	sed 's/^/#   /' "$T/cc.err" | head -20
fi

# bench/gemm-replay.sh: the choice replayed over an every-variant table.
# Y is chosen at 777^3 and at 2048x2048x2047 (above); at 777x777x778 the
# table lacks Y, which counts 0; a wrong result (Z at 2048x2048x2047) is
# no one's best.
{
	echo "shape,variant,params,ms,tflops,of_cublas,right,chosen"
	echo "777x777x777,0,\"$X\",1,1,0.5000,1,0"
	echo "777x777x777,1,\"$Y\",1,1,0.8000,1,1"
	echo "777x777x777,2,\"$Z\",1,1,0.9500,1,0"
	echo "2048x2048x2047,0,\"$X\",1,1,0.9000,1,0"
	echo "2048x2048x2047,1,\"$Y\",1,1,0.8500,1,1"
	echo "2048x2048x2047,2,\"$Z\",1,1,0.9900,0,0"
	echo "777x777x778,0,\"$X\",1,1,0.7000,1,0"
} >"$T/every.csv"
if "$top_srcdir/bench/gemm-replay.sh" "$GPUTUNE_DB" "$T/every.csv" >"$T/replay" 2>"$T/replay.err"; then
	ok "gemm-replay.sh runs"
else
	not_ok "gemm-replay.sh runs"
	sed 's/^/#   stderr: /' "$T/replay.err" | head -5
fi
sed 's/^/#   /' "$T/replay"
grep_in "$T/replay" "| 777x777x777 | 0.800 | 0.950 | \`$Y\` |"
grep_in "$T/replay" "| 2048x2048x2047 | 0.850 | 0.900 | \`$Y\` |"
grep_in "$T/replay" "| 777x777x778 | not in the table | 0.700 | \`$Y\` |"
grep_in "$T/replay" "the choice over cuBLAS at 3 shapes: worst 0.000, median 0.800, 0 at 0.90 or more; over the best of the table's kernels: worst 0.000, median 0.842"
run_gt 0 query --no-shipped --kernel gemm --size 777x777x778
grep_in "$T/out" "$Y"
check "gemm-replay.sh refuses a table it cannot read" \
	sh -c "! '$top_srcdir/bench/gemm-replay.sh' '$GPUTUNE_DB' '$T/none.csv' 2>/dev/null"
cp "$GPUTUNE_DB" "$T/no-winners.db"
"$top_builddir/tests/sqlexec" "$T/no-winners.db" "DELETE FROM winner"
check "gemm-replay.sh refuses a database that chooses nothing" \
	sh -c "! '$top_srcdir/bench/gemm-replay.sh' '$T/no-winners.db' '$T/every.csv' >/dev/null 2>'$T/replay.err'"
grep_in "$T/replay.err" "chooses nothing at 777x777x777"

# nvcc: the launch helper and the kernels it instantiates.
printf '#include "gputune_gemm.h"\nint use(const float *a, const float *b, float *c)\n{\n\treturn (int)gputune_gemm_launch(0, a, b, c, 100, 100, 100, 0);\n}\n' > "$T/use.cu"
nvcc_compiles "$T/use.cu"

check_header_programs gemm

# JSON export and merge keep the third dimension.
run_gt 0 export --format json --kernel gemm --no-shipped -o "$T/round.json"
grep_in "$T/round.json" '"depth": 5000'
# The records name GFLOP/s gflops (the document read above said gbps:
# import takes either).
grep_in "$T/round.json" '"gflops": 39600, "fraction": 0.7, "ceiling_gflops": 64000,'
check "no record of the JSON calls GFLOP/s gbps" sh -c "! grep -q '\"gbps\"\|\"ceiling_gbps\"' '$T/round.json'"
grep_in "$T/round.json" '"name": "gemm", "params": "bm,bn,bk,wm,wn,tm,tn,vec,pad,dbuf,group,split,realign,async,flat,inject,stream", "shape": "3d"'
run_gt 0 db merge "$T/round.json" --db "$T/round.db"
check "the merged copy stores the family's shape as 3d" \
	test "$("$top_builddir/tests/sqlexec" "$T/round.db" "SELECT shape FROM family WHERE name = 'gemm'")" = 3d
run_gt 0 export --kernel gemm --no-shipped --db "$T/round.db" -o "$T/round.h"
check "a merged copy exports the same tables" \
	sh -c "grep -v Generated '$T/round.h' > '$T/a' && grep -v Generated '$T/gputune_gemm.h' > '$T/b' && cmp -s '$T/a' '$T/b'"
check "no variant of the header above takes over 48 KiB of shared memory: none is opted in" \
	sh -c "! grep -q 'gputune_gemm_optin' '$T/gputune_gemm.h'"

# A variant of more than 48 KiB of shared memory (split-K's partial tile of
# 128 x 256, 128 KiB): its launch opts its kernels in to it first.
W=bm=128,bn=256,bk=8,wm=64,wn=64,tm=8,tn=2,vec=4,pad=4,dbuf=1,group=8,split=2
sed -e "s/$X/$W/g" -e 's/hx/hw/g' "$T/gemm.json" > "$T/big.json"
run_gt 0 db merge "$T/big.json" --db "$T/big.db"
# A header that cannot be written is a failure, not a success with a message.
run_gt 1 export --kernel gemm --no-shipped --db "$T/big.db" -o "$T/big/gputune_gemm.h"
grep_in "$T/err" "cannot write $T/big/gputune_gemm.h"
mkdir "$T/big"
run_gt 0 export --kernel gemm --no-shipped --db "$T/big.db" -o "$T/big/gputune_gemm.h"
check "the header opts the 128 KiB variant's kernels in before their launch" \
	grep -q "gputune_gemm_optin(gputune_gemm_kernel<[0-9]*, 128, 256, 8, 64, 64, 8, 2, 4, 4, 1, 8, 2, 0, 0, 0>, smem)" \
	"$T/big/gputune_gemm.h"
check "and only that variant's" test "$(grep -c 'gputune_gemm_optin(gputune_gemm_kernel' "$T/big/gputune_gemm.h")" -le 2
cat > "$T/big/g.c" <<'C'
#include "gputune_gemm.h"
#include <stdio.h>
#include <string.h>
int main(void)
{
	unsigned grid[3], block[3], smem = 0;
	for (int v = 0; v < GPUTUNE_GEMM_NUM_VARIANTS; v++)
		if (strstr(gputune_gemm_variants[v].params, "split=2")) {
			gputune_gemm_geometry(v, 1000, 1000, 1000, grid, block, &smem);
			return !(smem == 128 * 1024 && grid[0] == 8 * 4 * 2);
		}
	return 1;
}
C
check "the 128 KiB variant's geometry says so" \
	sh -c "$CC -std=c11 -Wall -Wextra -Werror -I'$T/big' '$T/big/g.c' -o '$T/big/g' && '$T/big/g'"
sed 's|"gputune_gemm.h"|"big/gputune_gemm.h"|' "$T/use.cu" > "$T/big-use.cu"
nvcc_compiles "$T/big-use.cu"

# A stream-K variant (stream=on) in X's place: its launch takes at most
# the blocks the device holds of it at once, its geometry a block a round
# up to the template's 8192 flags.
S=bm=128,bn=128,bk=8,wm=64,wn=64,tm=8,tn=2,vec=4,pad=0,dbuf=1,group=1,flat=lanes,stream=on
sed -e "s/$X/$S/g" -e 's/hx/hs/g' "$T/gemm.json" > "$T/stream.json"
run_gt 0 db merge "$T/stream.json" --db "$T/stream.db"
mkdir "$T/stream"
run_gt 0 export --kernel gemm --no-shipped --db "$T/stream.db" -o "$T/stream/gputune_gemm.h"
check "the header launches the stream-K variant as many blocks as the device holds" \
	grep -q "grid.x = gputune_gemm_resident([0-9]*, kernel, grid.x, block, smem);" "$T/stream/gputune_gemm.h"
check "and only that variant" test "$(grep -c 'gputune_gemm_resident([0-9]*, kernel,' "$T/stream/gputune_gemm.h")" -eq 1
check "its kernel is the template's stream-K, the others' as before" sh -c \
	"grep -q 'gputune_gemm_kernel<[0-9]*, 128, 128, 8, 64, 64, 8, 2, 4, 0, 1, 1, 1, 0, 0, 2, 1>' '$T/stream/gputune_gemm.h' &&
	 grep -q 'gputune_gemm_kernel<[0-9]*, 64, 128, 16, 32, 32, 4, 2, 4, 4, 1, 1, 1, 1, 0, 0>' '$T/stream/gputune_gemm.h'"
cat > "$T/stream/g.c" <<'C'
#include "gputune_gemm.h"
#include <string.h>
int main(void)
{
	unsigned grid[3], block[3], smem = 0, g2[3];
	for (int v = 0; v < GPUTUNE_GEMM_NUM_VARIANTS; v++)
		if (strstr(gputune_gemm_variants[v].params, "stream=on")) {
			gputune_gemm_geometry(v, 1000, 1000, 1000, grid, block, &smem);
			gputune_gemm_geometry(v, 2000, 2000, 2000, g2, block, &smem);
			return !(grid[0] == 8 * 8 * 125 && g2[0] == 8192 && block[0] == 128);
		}
	return 1;
}
C
check "the stream-K variant's geometry: a block a round, 8192 at most" \
	sh -c "$CC -std=c11 -Wall -Wextra -Werror -I'$T/stream' '$T/stream/g.c' -o '$T/stream/g' && '$T/stream/g'"
sed 's|"gputune_gemm.h"|"stream/gputune_gemm.h"|' "$T/use.cu" > "$T/stream-use.cu"
nvcc_compiles "$T/stream-use.cu"
done_testing
