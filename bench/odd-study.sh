#!/bin/sh
# odd-study.sh OUTDIR - where the bandwidth goes at the transposes that stay
# below 90% of the copy ceiling: rows and cols both odd (every input and
# output row starts off a vector and a sector), and f16.  On a GPU machine,
# from a built tree:
#   1. tunes the study's sizes with the default space and realign=on and
#      (f16) pair=quad beside it (--no-probe), and prints, per size, the
#      ceiling's share of the best variant of each kind of path (quad, pair,
#      realign, sector=on, the rest);
#   2. where ncu can read the counters, profiles the best variant at one
#      both-odd f32 size and the best at its aligned neighbour: DRAM bytes
#      read and written over the bytes the transpose must move, and the L2
#      sectors the kernel asked for (a misaligned row costs sectors, a
#      partial sector written costs the DRAM a read).
# The sizes: rows and cols both odd, and one odd with the other even or a
# multiple of 8 (the worst of each class in the last tuning run), beside an
# aligned one (f16: also 2904x2904, the aligned size furthest below).  Writes OUTDIR/study.db, OUTDIR/shares.txt and OUTDIR/ncu.txt.  Stages,
# which can run in separate calls sharing OUTDIR (each tuning stage
# compiles and measures about 1,000 to 1,500 variants at five sizes):
# f32, f16, then shares and profile; all (the default) runs the four.
set -eu
out=${1:?usage: bench/odd-study.sh OUTDIR [f32|f16|shares|profile|all]}
stage=${2:-all}
mkdir -p "$out"
GPUTUNE=${GPUTUNE:-./gputune}
export GPUTUNE_DB="$out/study.db"
F32="2047x4093,7777x1111,6654x1315,6653x1320,2048x4096"
F16="8191x8191,2897x2897,1315x6640,1314x6653,2904x2904,8192x8192"

if [ "$stage" = f32 ] || [ "$stage" = all ]; then
	"$GPUTUNE" transpose --sizes "$F32" --param realign=off,on --no-probe --quiet > "$out/tune-f32.txt"
fi
if [ "$stage" = f16 ] || [ "$stage" = all ]; then
	"$GPUTUNE" transpose --sizes "$F16" --dtype f16 --param realign=off,on --param pair=off,on,quad --no-probe --quiet > "$out/tune-f16.txt"
fi

if [ "$stage" = shares ] || [ "$stage" = all ]; then
	"$GPUTUNE" query --all --no-shipped --format json > "$out/all.json"
	python3 - "$out/all.json" > "$out/shares.txt" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))
rows = rows.get("rows", rows) if isinstance(rows, dict) else rows
best = {}
for r in rows:
    if r.get("kernel") != "transpose" or r.get("status") != "ok" or r.get("pct_ceiling") is None:
        continue
    p = r["params"]
    kind = ("quad" if "pair=quad" in p else "pair" if "pair=on" in p else "realign" if "realign=on" in p
            else "sector" if "sector=on" in p else "rest")
    key = (r["dtype"], r["size"])
    if kind not in best.setdefault(key, {}) or r["pct_ceiling"] > best[key][kind][0]:
        best[key][kind] = (r["pct_ceiling"], p)
kinds = ["quad", "pair", "realign", "sector", "rest"]
print("dtype size " + " ".join(kinds) + "  (best share of the copy ceiling, %)")
for key in sorted(best):
    print(key[0], key[1], " ".join("%.1f" % best[key][k][0] if k in best[key] else "-" for k in kinds))
    top = max(best[key].values())
    print("   best:", top[1])
EOF
	cat "$out/shares.txt"
fi
[ "$stage" = profile ] || [ "$stage" = all ] || exit 0

# The profile: the exported header's choice (the winner at a tuned size)
# launched twice by a small consumer, the second launch profiled.
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if command -v ncu > /dev/null 2>&1; then
	"$GPUTUNE" export --kernel transpose --no-shipped -o "$out/gputune_transpose.h"
	cat > "$out/one.cu" <<'EOF2'
#include "gputune_transpose.h"
#include <cstdio>
#include <cstdlib>
int main(int argc, char **argv)
{
	unsigned rows = (unsigned)atoi(argv[1]), cols = (unsigned)atoi(argv[2]);
	cudaDeviceProp prop;
	cudaGetDeviceProperties(&prop, 0);
	int v = gputune_transpose_choose(prop.name, prop.major * 10 + prop.minor, argv[3], rows, cols);
	size_t bytes = (size_t)rows * cols * (argv[3][1] == '1' ? 2 : 4);
	void *in, *out;
	if (v < 0 || cudaMalloc(&in, bytes) || cudaMalloc(&out, bytes))
		return 1;
	for (int i = 0; i < 2; i++)
		gputune_transpose_launch(v, in, out, rows, cols, 0);
	printf("%s %ux%u: %s, %zu bytes each way\n", argv[3], rows, cols, gputune_transpose_variants[v].params, bytes);
	return cudaDeviceSynchronize() != cudaSuccess;
}
EOF2
	"$NVCC" -O2 -std=c++17 -arch=native -I"$out" -o "$out/one" "$out/one.cu"
	M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpu__time_duration.sum
	: > "$out/ncu.txt"
	for case in "2047 4093 f32" "2048 4096 f32" "8191 8191 f16" "8192 8192 f16"; do
		# shellcheck disable=SC2086
		ncu --clock-control none --metrics "$M" --kernel-name regex:transpose --launch-skip 1 \
			--launch-count 1 "$out/one" $case >> "$out/ncu.txt" 2>&1 || echo "ncu failed: $case" >> "$out/ncu.txt"
	done
	grep -E "bytes each way|dram__|lts__|gpu__time|failed" "$out/ncu.txt" || true
else
	echo "no ncu: the profile is skipped" | tee "$out/ncu.txt"
fi
