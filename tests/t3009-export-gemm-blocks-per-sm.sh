#!/bin/sh
# The matrix multiply's choice reads the blocks an SM holds of each
# candidate, from the registers the tuner stored.  P and Q have the same
# 64 x 64 tiles (128 threads, four warps, a block); P is the faster at
# 2048^3 and 4096^3, where both fill the SMs.  With 167 registers a
# thread an SM holds three of P's blocks, with 120 four of Q's, so at
# 1024x2048x4096 (512 blocks, four an SM) Q's grid is one whole turn and
# P's a turn and a last one of a single block, four warps, too few to keep
# an SM busy: Q is the choice there, and the header says so too.  Without
# stored registers both count one block an SM, and P is the choice.
. "$(dirname "$0")/setup"

uuid=GPU-fill
P=bm=64,bn=64,bk=16,wm=32,wn=32,tm=4,tn=2,vec=4,pad=4,dbuf=1,group=1
Q=bm=64,bn=64,bk=16,wm=32,wn=32,tm=4,tn=4,vec=4,pad=4,dbuf=1,group=1
# record M N K GFLOPS PARAMS HASH REGISTERS (0: none stored)
record() {
	printf '{"device_uuid": "%s", "kernel": "gemm", "dtype": "f32", "rows": %s, "cols": %s, "depth": %s,' $uuid "$1" "$2" "$3"
	printf ' "timing_mode": "flushed", "params": "%s", "source_hash": "%s",' "$5" "$6"
	[ "$7" -gt 0 ] && printf ' "registers": %s,' "$7"
	printf ' "median_ms": 1, "min_ms": 0.9, "max_ms": 1.2, "p25_ms": 0.95, "p75_ms": 1.1, "launches": 30,'
	printf ' "gbps": %s, "fraction": 0.7, "ceiling_gbps": 64000, "memcpy_gbps": 0, "copy_kernel_gbps": 64000,' "$4"
	printf ' "ceiling_kind": "fma", "run": {"uuid": "run-f", "started_at": "2026-11-30T00:00:00Z",'
	printf ' "gputune_version": "0.1.0", "nvrtc_version": "13.0", "repetitions": 30}}'
}
# results REGS_P REGS_Q
results() {
	printf '{"format": "gputune-results", "version": 1,\n'
	printf ' "kernels": [{"name": "gemm", "params": "bm,bn,bk,wm,wn,tm,tn,vec,pad,dbuf,group,inject"}],\n'
	printf ' "devices": [{"uuid": "%s", "name": "NVIDIA H200", "cc_major": 9, "cc_minor": 0, "sm_count": 132,' $uuid
	printf ' "mem_bytes": 150000000000, "l2_bytes": 52428800, "bus_width_bits": 6144, "mem_clock_khz": 3201000,'
	printf ' "driver_version": 13000}],\n "results": [\n'
	record 2048 2048 2048 40000 $P hp "$1"; printf ',\n'
	record 4096 4096 4096 42000 $P hp "$1"
	printf '\n ],\n "measurements": [\n'
	record 2048 2048 2048 38800 $Q hq "$2"; printf ',\n'
	record 4096 4096 4096 40740 $Q hq "$2"
	printf '\n]}\n'
}
results 167 120 > "$T/regs.json"
results 0 0 > "$T/none.json"

# chosen_from NAME CHOSEN PER_SM: NAME.json merged into NAME.db (kept as
# GPUTUNE_DB), query's choice at 1024x2048x4096 is CHOSEN, and the header
# exported into NAME.h carries the blocks an SM holds of its variants: P
# and Q, then the default kernel, which the group does not refer to (0).
chosen_from() {
	export GPUTUNE_DB="$T/$1.db"
	run_gt 0 db merge "$T/$1.json"
	run_gt 0 query --no-shipped --kernel gemm --size 1024x2048x4096 --format csv
	grep_in "$T/out" "$2"
	run_gt 0 export --kernel gemm --no-shipped -o "$T/$1.h"
	grep_in "$T/$1.h" "gputune_gemm_g0_per_sm[3] = { $3 }"
}

chosen_from regs "$Q" "3, 4, 0"
cp "$T/regs.h" "$T/gputune_gemm.h"
cat > "$T/choice.c" <<'C'
#include "gputune_gemm.h"
#include <stdio.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		long m, n, k;
		if (sscanf(argv[i], "%ldx%ldx%ld", &m, &n, &k) != 3)
			return 2;
		printf("%s %s\n", argv[i], gputune_gemm_variants[gputune_gemm_choose("NVIDIA H200", 90, "f32", m, n, k)].params);
	}
	return 0;
}
C
if $CC -std=c11 -Wall -Wextra -Werror -I"$T" "$T/choice.c" -o "$T/choice" 2>"$T/cc.err"; then
	ok "the header compiles with $CC -std=c11 -Wall -Wextra -Werror"
	"$T/choice" 1024x2048x4096 > "$T/choice.out"
	grep_in "$T/choice.out" "1024x2048x4096 $Q"
	query_agrees gemm 99 "$T/choice" 1024x2048x4096 1000x1000x4096 3000x3000x4096 640x6400x4096
else
	not_ok "the header compiles with $CC -std=c11 -Wall -Wextra -Werror"
	sed 's/^/#   /' "$T/cc.err" | head -20
fi

chosen_from none "$P" "1, 1, 0"

done_testing
