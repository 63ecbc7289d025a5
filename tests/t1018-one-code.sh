#!/bin/sh
# nvcc builds an exported header's transpose kernels to the very code
# gputune measured (no GPU needed): a header is exported from a hand-made
# database of variants that take each of the template's paths and of
# each type's default, the element path (export
# compiles them with NVRTC into the compile cache, as the tuner does), and
# built by nvcc; every kernel it instantiates as the tuner's (the unbounded
# build) must be, byte for byte, the code of one of those CUBINs.  nvcc
# addresses shared memory with 32-bit pointers and NVRTC with 64-bit ones,
# and the template is written so that this does not show in the code.
# Skipped without nvcc or readelf.
. "$(dirname "$0")/setup"
. "$top_srcdir/tests/results-doc"
. "$top_srcdir/tests/one-code"

one_code_tools

uuid=GPU-onecode
{
	doc_head "NVIDIA H100 80GB HBM3" $uuid 9 0
	printf ' "results": [\n'
	sep='' i=0
	while read -r dtype tile rest; do
		printf '%s  ' "$sep"
		result_record $uuid "$dtype" $((1000 + i)) 2000 3000 "$tile" run-1 "$rest"
		sep=',
'
		i=$((i + 1))
	done <<'LIST'
f16 64 block_rows=4,pad=2,unroll=1,mapping=colmajor,vec=4,shared=on,sector=off,wide=1
f16 32 block_rows=8,pad=1,unroll=4,mapping=cartesian,vec=1,shared=on,sector=on,wide=2,rowclass=on
f32 32 block_rows=16,pad=1,unroll=4,mapping=cartesian,vec=1,shared=on,sector=on,wide=1,async=on
f16 64 block_rows=16,pad=2,unroll=2,mapping=cartesian,vec=4,shared=on,sector=off,wide=1,async=words
f16 32 block_rows=8,pad=2,unroll=2,mapping=cartesian,vec=1,shared=on,sector=on,wide=1,async=rows
f16 64 block_rows=16,pad=1,unroll=2,mapping=cartesian,vec=2,shared=on,sector=off,wide=1,pair=on
f32 64 block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=4,shared=on,sector=off,wide=1,realign=on
f64 32 block_rows=16,pad=1,unroll=1,mapping=cartesian,vec=1,shared=on,sector=off,wide=1
f32 32 block_rows=8,pad=0,unroll=1,mapping=cartesian,vec=1,shared=off,sector=off,wide=1
f16 32 block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=1,shared=on,sector=off,wide=1
f32 32 block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=1,shared=on,sector=off,wide=1
f64 32 block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=1,shared=on,sector=off,wide=1
f16 128 block_rows=16,pad=1,unroll=1,mapping=colmajor,vec=8,shared=on,sector=off,wide=1,pair=vector
f16 64 block_rows=16,pad=1,unroll=2,mapping=cartesian,vec=8,shared=on,sector=off,wide=2,pair=vector
f16 64 block_rows=16,pad=1,unroll=2,mapping=cartesian,vec=4,shared=on,sector=off,wide=1,pair=vector
f16 64 block_rows=8,pad=1,unroll=1,mapping=colmajor,vec=2,shared=on,sector=off,wide=2,pair=vector
f16 64 block_rows=32,pad=1,unroll=1,mapping=cartesian,vec=8,shared=on,sector=off,wide=1,realign=on,pair=vector
f16 64 block_rows=16,pad=1,unroll=1,mapping=cartesian,vec=4,shared=on,sector=off,wide=1,realign=on,pair=vector
f16 32 block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=2,shared=on,sector=off,wide=1,realign=on,pair=vector
f16 64 block_rows=32,pad=1,unroll=2,mapping=cartesian,vec=8,shared=on,sector=off,wide=1,realign=out,pair=vector
f16 64 block_rows=16,pad=1,unroll=1,mapping=colmajor,vec=8,shared=on,sector=off,wide=2,realign=both,pair=vector
f16 64 block_rows=8,pad=1,unroll=2,mapping=colmajor,vec=8,shared=on,sector=on,wide=1
LIST
	printf '\n]}\n'
} > "$T/onecode.json"
# NVRTC's transpose kernels against the header's unbounded ones.
check_one_code transpose 15 -ge
done_testing
