#!/bin/sh
# The transpose template is right at edge sizes without a GPU: a seeded
# sample of variants of each element type (the default space, realign=on,
# pair=on, quad and vector (with realign=on, out and both too), async=on, words and rows, rowclass=on's element path,
# and every value of every parameter),
# instantiated on the host by tests/transpose-host.cc over
# tests/cuda-host.h, which runs a block's threads as coroutines between its
# barriers and shuffles.  Each
# output is compared with a host transpose and its guard bytes checked,
# also with buffers one and two elements off their alignment.  Faults
# the runner injects around a variant (host_inject) must be caught.  The sample changes each day (seed
# printed; repeat with GPUTUNE_SAMPLE_SEED); make check-full takes five
# times as many.
. "$(dirname "$0")/setup"

host_cxx
host_sample transpose <<'LIST'
f32 16
f16 12
f64 8
f32 5 --param realign=on
f16 5 --param realign=on
f32 5 --param pair=on
f16 5 --param pair=on
f16 5 --param pair=quad
f16 4 --param pair=vector --param vec=8
f16 3 --param pair=vector --param vec=4
f16 3 --param pair=vector --param vec=2
f16 4 --param pair=vector --param realign=on
f16 4 --param pair=vector --param realign=out
f16 3 --param pair=vector --param realign=both
f16 3 --param pair=vector --param tile=all --param block_rows=all --param unroll=all --param mapping=all --param wide=all
f32 5 --param sector=on --param realign=on
f16 5 --param sector=on --param realign=on
f32 5 --param async=on
f64 3 --param async=on
f16 8 --param async=words
f16 3 --param async=words --param sector=on --param tile=all --param block_rows=all --param pad=all --param unroll=all --param wide=all --param vec=all
f16 8 --param async=rows
f16 4 --param async=rows --param sector=on --param tile=all --param block_rows=all --param pad=all --param unroll=all --param wide=all --param vec=all
f32 8 --param tile=all --param block_rows=all --param pad=all --param unroll=all --param mapping=all --param vec=all --param sector=all --param wide=all --param realign=all
f16 4 --param tile=all --param block_rows=all --param pad=all --param unroll=all --param mapping=all --param vec=all --param sector=all --param wide=all --param realign=all
f16 3 --param pair=all --param tile=all --param block_rows=all --param unroll=all --param mapping=all --param vec=all
f16 3 --param rowclass=on --param sector=on
f32 3 --param rowclass=on --param sector=on
LIST
# Faults the runner must catch: a wrong element, a write past the end.
cat >>"$T/names" <<'FAULTS'
f32 tile=32,block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=1,shared=on,sector=off,wide=1,inject=wrong
f32 tile=32,block_rows=8,pad=1,unroll=2,mapping=colmajor,vec=2,shared=on,sector=on,wide=1,inject=overrun
f16 tile=64,block_rows=16,pad=1,unroll=1,mapping=colmajor,vec=4,shared=on,sector=off,wide=1,pair=on,inject=overrun
f16 tile=32,block_rows=8,pad=0,unroll=1,mapping=cartesian,vec=1,shared=off,sector=off,wide=1,inject=wrong
FAULTS
host_runner transpose 60 4 ELEM_BYTES TILE BLOCK_ROWS PAD UNROLL MAPPING VEC SHARED SECTOR WIDE REALIGN PAIR ASYNC ROWCLASS

# Sizes: single elements, a row, a column, tiles and halves of tiles with
# the odd and even remainders each path meets (pair needs rows and cols
# even, quad multiples of 4, vector multiples of vec: 130x258 takes vec=2, 132x260 vec=2 and 4,
# 520x136 and 200x328 every vec; sector windows need rows off a sector;
# realign needs cols off a vector, and with pair=vector rows a multiple of
# vec: 264x131, 520x263, 130x97 and 132x99, and 520x263+4 with the input
# on 8 bytes, not 16; realign=out and both take rows off 8 (131x264,
# 263x520, 1031x72 and the odd sizes); whole tiles need several stripes),
# and misaligned buffers.
host_run 0 1x1 2x2 1x67 67x1 64x66 66x64+1 130x258 258x130 257x129 129x257 520x136 136x520+2 301x521 264x264+1 \
	132x260 68x64+2 200x328 328x72 264x131 520x263 130x97 132x99 520x263+4 131x264 263x520 1031x72
done_testing
