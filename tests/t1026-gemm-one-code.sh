#!/bin/sh
# nvcc builds an exported header's matrix-multiply kernels to the very
# code gputune measured (no GPU needed), as t1018 checks of the
# transpose: a header is exported from a hand-made database of variants
# that take each of the template's paths (register-staged rounds with one
# and two stages and fragments read ahead, scalar and 16-byte loads,
# realigned loads, cp.async stages, split-K over a cluster, flat's
# rounds without a branch (on, lanes, rows and floats), under split-K too, several thread tiles; the family's own kernel, which every header carries, among them)
# and built by nvcc; every kernel it instantiates as the tuner's (the
# unbounded build) must be, byte for byte, the code of one of the CUBINs
# NVRTC built of those variants.  Before the template addressed shared
# memory in 32 bits in both compilers, the two builds differed (the 128 x
# 128 tile's of tm=8, tn=2 at 1,145 of 1,200 instruction positions).
# Skipped without nvcc or readelf.
. "$(dirname "$0")/setup"
. "$top_srcdir/tests/one-code"

one_code_tools

uuid=GPU-gemmcode
n=0
{
	printf '{"format": "gputune-results", "version": 1,\n'
	printf ' "kernels": [{"name": "gemm", "params": "bm,bn,bk,wm,wn,tm,tn,vec,pad,dbuf,group,split,realign,async,flat,inject"}],\n'
	printf ' "devices": [{"uuid": "%s", "name": "NVIDIA H200", "cc_major": 9, "cc_minor": 0, "sm_count": 132,' $uuid
	printf ' "mem_bytes": 150000000000, "l2_bytes": 52428800, "bus_width_bits": 6144, "mem_clock_khz": 3201000,'
	printf ' "driver_version": 13000}],\n "results": [\n'
	sep=''
	while read -r params; do
		printf '%s  {"device_uuid": "%s", "kernel": "gemm", "dtype": "f32", "rows": %s, "cols": 2000, "depth": 3000,' \
			"$sep" $uuid $((1000 + n))
		printf ' "timing_mode": "flushed", "params": "%s", "source_hash": "00000000000000%02d",' "$params" $n
		printf ' "median_ms": 1, "min_ms": 0.9, "max_ms": 1.2, "p25_ms": 0.95, "p75_ms": 1.1, "launches": 30,'
		printf ' "gbps": 40000, "fraction": 0.7, "ceiling_gbps": 64000, "memcpy_gbps": 0, "copy_kernel_gbps": 64000,'
		printf ' "ceiling_kind": "fma", "run": {"uuid": "run-1", "started_at": "2026-11-22T00:00:00Z",'
		printf ' "gputune_version": "0.1.0", "nvrtc_version": "13.0", "repetitions": 30}}'
		sep=',
'
		n=$((n + 1))
	done <<'LIST'
bm=128,bn=256,bk=8,wm=64,wn=64,tm=8,tn=2,vec=4,pad=4,dbuf=1,group=8
bm=128,bn=256,bk=8,wm=64,wn=64,tm=8,tn=4,vec=4,pad=4,dbuf=1,group=8
bm=128,bn=128,bk=8,wm=32,wn=64,tm=8,tn=2,vec=4,pad=4,dbuf=1,group=8
bm=128,bn=128,bk=16,wm=32,wn=64,tm=4,tn=4,vec=4,pad=4,dbuf=2,group=8
bm=64,bn=128,bk=16,wm=32,wn=64,tm=4,tn=2,vec=4,pad=0,dbuf=0,group=1
bm=32,bn=64,bk=8,wm=16,wn=32,tm=2,tn=4,vec=1,pad=1,dbuf=1,group=1
bm=64,bn=128,bk=16,wm=32,wn=32,tm=4,tn=2,vec=4,pad=4,dbuf=1,group=1,realign=on
bm=128,bn=128,bk=8,wm=32,wn=64,tm=8,tn=8,vec=4,pad=0,dbuf=0,group=8,async=3
bm=64,bn=64,bk=16,wm=32,wn=32,tm=4,tn=4,vec=4,pad=4,dbuf=1,group=8,split=4
bm=128,bn=64,bk=16,wm=32,wn=32,tm=8,tn=4,vec=4,pad=4,dbuf=1,group=8,split=2
bm=64,bn=128,bk=8,wm=32,wn=64,tm=4,tn=2,vec=4,pad=4,dbuf=1,group=8,flat=on
bm=64,bn=128,bk=8,wm=32,wn=64,tm=4,tn=4,vec=4,pad=0,dbuf=1,group=1,split=2,flat=on
bm=64,bn=128,bk=16,wm=32,wn=64,tm=8,tn=2,vec=4,pad=4,dbuf=1,group=8,split=2,flat=lanes
bm=128,bn=64,bk=16,wm=32,wn=64,tm=4,tn=2,vec=4,pad=4,dbuf=1,group=1,split=4,flat=rows
bm=96,bn=64,bk=16,wm=48,wn=32,tm=4,tn=4,vec=4,pad=4,dbuf=1,group=8,split=2,flat=floats
LIST
	printf '\n]}\n'
} > "$T/onecode.json"
# NVRTC's kernels against the header's unbounded ones, one for each variant.
check_one_code gemm "$n" -eq
done_testing
