#!/bin/sh
# The parameter space: each constraint rejects what it should, with its
# reason; the classic kernels are points of the space; --param narrows.
. "$(dirname "$0")/setup"

# source --check exits 1 with the reason for a rejected point.
family=transpose
reject() {
	want=$1
	shift
	run_gt 1 source $family --check "$@"
	grep_in "$T/err" "$want"
}
accept() {
	run_gt 0 source $family --check "$@"
}

reject "tile is not a multiple of block_rows" --param tile=16 --param block_rows=32
reject "vec x element size exceeds the 16-byte access limit (32 bytes)" --param vec=8
reject "vec x element size exceeds the 16-byte access limit (32 bytes)" --param vec=4 --dtype f64
reject "threads per block exceed the device limit (2048 > 1024)" --param tile=64 --param block_rows=32
reject "block smaller than a warp (16 threads)" --param tile=16 --param vec=4 --param block_rows=4
reject "shared memory per block exceeds the device limit" --param tile=64 --param unroll=4 --param vec=4 --param block_rows=8
reject "pad needs the shared-memory tile" --param shared=off --param pad=1
reject "vec>1 needs the shared-memory tile" --param shared=off --param pad=0 --param vec=2
reject "sector needs the shared-memory tile" --param shared=off --param pad=0 --param sector=on
reject "sector=on needs tile x unroll to span whole 32-byte sectors (16 bytes)" --param tile=8 --param block_rows=4 --param vec=1 --param sector=on --dtype f16
reject "shared memory per block exceeds the device limit (69696 > 49152 bytes)" --param tile=64 --param unroll=4 --param pad=2 --param sector=on --param vec=2
accept --param sector=on
reject "more than 32 global accesses per thread and phase (64)" --param tile=32 --param block_rows=4 --param unroll=4 --param wide=2
accept --param tile=32 --param block_rows=8 --param unroll=4 --param wide=2
accept --param vec=8 --dtype f16
accept --param vec=2 --dtype f64
reject "realign needs vec>1" --param realign=on
reject "realign needs the shared-memory tile" --param realign=on --param shared=off --param pad=0
reject "realign needs a tile row's threads (tile / vec = 64) within a warp (32)" --param realign=on --param tile=128 --param vec=2 --param block_rows=16
reject "realign allows at most 8 row steps per thread and phase (16)" --param realign=on --param vec=4 --param unroll=4
reject "realign needs rows of at least 64 elements per block (tile x wide = 32)" --param realign=on --param vec=4
reject "realign needs accesses of at least 8 bytes (vec x element size is 4)" --param realign=on --param vec=2 --param tile=64 --param block_rows=16 --dtype f16
accept --param realign=on --param vec=4 --param wide=2
accept --param realign=on --param vec=4 --param tile=64 --param block_rows=16 --dtype f16
reject "pair needs elements of at most 4 bytes (the element is 8 bytes)" --param pair=on --param vec=2 --dtype f64
reject "pair needs an even vec (two elements a unit)" --param pair=on --dtype f16
reject "pair needs the shared-memory tile" --param pair=on --param shared=off --param pad=0 --dtype f16
reject "pair needs sector=off, wide=1 and realign=off" --param pair=on --param vec=2 --param sector=on --dtype f16
reject "pair needs sector=off, wide=1 and realign=off" --param pair=on --param vec=2 --param wide=2 --dtype f16
reject "pair needs pad=1 (one unit of padding)" --param pair=on --param vec=2 --param pad=2 --dtype f16
# pair=quad: units of four 2-byte elements over four rows.
reject "pair=quad needs 2-byte elements (the element is 4 bytes)" --param pair=quad --param vec=4
reject "pair=quad needs vec a multiple of 4 (four elements a unit)" --param pair=quad --param vec=2 --dtype f16
reject "pair needs block_rows to divide the unit tile's edge, tile / 4 (8)" --param pair=quad --param vec=4 --param block_rows=16 --dtype f16
accept --param pair=quad --param vec=4 --param block_rows=8 --dtype f16
accept --param pair=quad --param vec=8 --param tile=64 --param block_rows=16 --dtype f16
run_gt 0 source transpose --param pair=quad --param vec=8 --dtype f16
grep_in "$T/out" "#define GT_PAIR 2"
grep_in "$T/out" "vec=8,shared=on,sector=off,wide=1,pair=quad"
# rowclass=on: the interior through the tensor copy engine, by row classes.
reject "rowclass needs 2- or 4-byte elements (the element is 8 bytes)" --param rowclass=on --param sector=on --dtype f64
reject "rowclass needs shared=on and sector=on" --param rowclass=on --dtype f16
reject "rowclass needs vec=1, pad=1, async=off, realign=off and pair=off" --param rowclass=on --param sector=on \
	--param vec=2 --dtype f16
reject "rowclass needs vec=1, pad=1, async=off, realign=off and pair=off" --param rowclass=on --param sector=on \
	--param async=on
reject "rowclass needs tile x unroll a multiple of 64 and at most 256 (32)" --param rowclass=on --param sector=on \
	--dtype f16
reject "rowclass needs tile x wide a multiple of 16 and at most 248 (8)" --param rowclass=on --param sector=on \
	--param tile=8 --param block_rows=4 --param unroll=8 --dtype f16
accept --param rowclass=on --param sector=on --param unroll=2 --dtype f16
accept --param rowclass=on --param sector=on --dtype i32
accept --param rowclass=on --param sector=on --param tile=64 --param unroll=2 --param wide=2 --dtype f16
# The boxes (40 KiB) over the 128 x 128 block's tile.
reject "shared memory per block exceeds the device limit (72328 > 49152 bytes)" --param rowclass=on --param sector=on \
	--param tile=64 --param unroll=2 --param wide=2
run_gt 2 transpose --dry-run --arch sm_80 --dtype f16 --param rowclass=on
grep_in "$T/err" "rowclass needs compute capability 9.0, the tensor copy engine (the target is 8.0)"
reject "pair needs block_rows to divide the unit tile's edge, tile / 2 (16)" --param pair=on --param vec=4 --param block_rows=32
reject "pair needs block_rows to divide the unit tile's edge, tile / 2 (8)" --param pair=on --param tile=16 --param vec=2 --param block_rows=16 --dtype f16
accept --param pair=on --param vec=4 --param block_rows=16
# The unit tile (2 x 128 x 65 words) is larger than the element tile
# (256 x 129 halves) and counts.
reject "shared memory per block exceeds the device limit (66560 > 49152 bytes)" --param pair=on --param tile=128 --param unroll=2 --param vec=8 --param block_rows=16 --dtype f16
accept --param pair=on --param vec=2 --dtype f16
accept --param pair=on --param vec=4 --param tile=64 --param block_rows=16
accept --param pair=on --param vec=8 --param tile=64 --param unroll=2 --param block_rows=16 --dtype f16
run_gt 0 source transpose --param pair=on --param vec=4 --dtype f16
grep_in "$T/out" "vec=4,shared=on,sector=off,wide=1,pair=on"
grep_in "$T/out" "#define GT_PAIR 1"
# pair=vector: f16 pairs as 16-, 8- or 4-byte vectors on both sides.
reject "pair=vector needs 2-byte elements (the element is 4 bytes)" --param pair=vector --param vec=4
reject "pair=vector needs shared=on and vec=8, 4 or 2 (16, 8 or 4 bytes a lane)" --param pair=vector --param vec=1 --dtype f16
reject "pair=vector needs sector=off, async=off and pad=1" --param pair=vector --param vec=8 --param sector=on --dtype f16
reject "pair=vector needs tile x wide a multiple of 32 (32) and tile x unroll of 8 x vec, 64 (32)" --param pair=vector --param vec=8 --dtype f16
reject "pair=vector needs tile x wide a multiple of 32 (32) and tile x unroll of 8 x vec, 32 (16)" --param pair=vector --param vec=4 --param tile=16 --param wide=2 --param block_rows=8 --dtype f16
accept --param pair=vector --param vec=8 --param unroll=2 --dtype f16
accept --param pair=vector --param vec=4 --dtype f16
accept --param pair=vector --param vec=2 --param tile=64 --dtype f16
accept --param pair=vector --param vec=8 --param tile=128 --param block_rows=32 --dtype f16
# realign=on with pair=vector realigns the vectors' loads, not the element
# path's: the element path's realign limits (a tile row's threads within a
# warp, 8 row steps) do not apply.
accept --param pair=vector --param realign=on --param vec=2 --param tile=128 --param block_rows=16 --dtype f16
accept --param pair=vector --param realign=on --param vec=8 --param tile=64 --param unroll=4 --param block_rows=8 --dtype f16
# By default realign=on comes only with pair=vector.
run_gt 0 transpose --list --dtype f16
check "the default f16 space has realign=on with pair=vector" \
	test "$(grep -c 'realign=on,pair=vector' "$T/out")" -gt 100
check "and realign=on nowhere else" test "$(grep 'realign=on' "$T/out" | grep -vc 'pair=vector')" = 0
run_gt 0 transpose --list --dtype f32
check "the default f32 space has no realign=on" test "$(grep -c 'realign=on' "$T/out")" = 0
reject "shared memory per block exceeds the device limit (66048 > 49152 bytes)" --param pair=vector --param vec=8 --param tile=128 --param unroll=2 --param block_rows=16 --dtype f16
run_gt 0 source transpose --param pair=vector --param vec=8 --param tile=64 --dtype f16
grep_in "$T/out" "#define GT_PAIR 3"
grep_in "$T/out" "vec=8,shared=on,sector=off,wide=1,pair=vector"
# tile=128 and block_rows=32 are in the default space with pair=vector
# only, and with every path when asked for.
run_gt 0 transpose --list --arch sm_90 --dtype f16
check "the default space's tile=128 variants are all pair=vector" \
	test "$(grep -c 'tile=128' "$T/out")" -gt 0 -a "$(grep 'tile=128' "$T/out" | grep -vc 'pair=vector')" -eq 0
check "the default space's block_rows=32 variants are all pair=vector" \
	test "$(grep -c 'block_rows=32' "$T/out")" -gt 0 -a "$(grep 'block_rows=32' "$T/out" | grep -vc 'pair=vector')" -eq 0
run_gt 0 transpose --list --arch sm_90 --dtype f16 --param tile=128
check "--param tile=128 takes every path's tile=128 variants" \
	test "$(grep -vc 'pair=vector' "$T/out")" -gt 0
run_gt 0 transpose --list --arch sm_90 --dtype f32
check "f32's default space has no tile=128 variant" test "$(grep -c 'tile=128' "$T/out")" -eq 0
# async: element copies of at least 4 bytes, for vec=1 tiles.
reject "async needs elements of at least 4 bytes (the element is 2 bytes)" --param async=on --dtype f16
reject "async needs vec=1 (it copies element by element)" --param async=on --param vec=2
reject "async needs the shared-memory tile" --param async=on --param shared=off --param pad=0
accept --param async=on
accept --param async=on --dtype f64 --param sector=on
# async=words: 2-byte elements in words of two, vec>1, an even pad of 2 or more.
reject "async=words needs 2-byte elements (the element is 4 bytes)" --param async=words --param vec=2 --param pad=2
reject "async=words needs vec>1 (it loads the rows vectors cannot)" --param async=words --dtype f16 --param pad=2
reject "async=words needs an even pad of at least 2 (pad=1)" --param async=words --dtype f16 --param vec=2 --param pad=1
reject "async=words needs realign=off" --param async=words --dtype f16 --param vec=4 --param pad=2 --param realign=on --param tile=64
accept --param async=words --dtype f16 --param vec=2 --param pad=2
# async=rows: every row as words, with any vec; the same element and pad rules.
reject "async=rows needs 2-byte elements (the element is 4 bytes)" --param async=rows --param pad=2
reject "async=rows needs an even pad of at least 2 (pad=1)" --param async=rows --dtype f16 --param pad=1
reject "async=rows needs realign=off (it loads every row as words)" --param async=rows --dtype f16 --param vec=4 --param pad=2 --param realign=on --param tile=64
accept --param async=rows --dtype f16 --param pad=2
accept --param async=rows --dtype f16 --param pad=2 --param vec=4 --param sector=on
run_gt 0 source transpose --param async=on --param sector=on --param unroll=4
grep_in "$T/out" "#define GT_ASYNC 1"
grep_in "$T/out" "unroll=4,mapping=cartesian,vec=1,shared=on,sector=on,wide=1,async=on"
# A point with realign at its default keeps the name it had before the
# parameter existed; one with realign=on names it.
run_gt 0 source transpose --param vec=4
grep_in "$T/out" "tile=32,block_rows=8,pad=1,unroll=1,mapping=cartesian,vec=4,shared=on,sector=off,wide=1 */"
run_gt 0 source transpose --param vec=4 --param wide=2 --param realign=on
grep_in "$T/out" "vec=4,shared=on,sector=off,wide=2,realign=on"

# sector=on's windows need a stripe of whole sectors.
reject "sector=on needs tile x unroll to span whole 32-byte sectors (16 bytes)" --param sector=on --param tile=8 --param block_rows=8 --param vec=2 --dtype f16

# The classic kernels are reachable.
accept --param shared=off --param pad=0 --param tile=32 --param block_rows=8
accept --param tile=32 --param block_rows=8 --param pad=0
accept --param tile=32 --param block_rows=8 --param pad=1
accept --param tile=32 --param block_rows=8 --param pad=1 --param unroll=4
accept --param tile=32 --param block_rows=8 --param pad=1 --param mapping=diagonal

# The default space, enumerated for a target without a GPU: counts and reasons.
run_gt 0 transpose --dry-run --arch sm_90 --sizes 1024 --param tile=32 --param block_rows=8 \
	--param pad=0 --param unroll=1 --param mapping=cartesian --param vec=1,2,4,8 --param shared=on,off --param sector=off --param wide=1 --param realign=off --param pair=off --param async=off \
	--param rowclass=off
grep_in "$T/out" "8 points, 4 valid, 4 rejected"
grep_in "$T/out" "vec>1 needs the shared-memory tile (shared=off)"
grep_in "$T/out" "vec x element size exceeds the 16-byte access limit (32 bytes)"
run_gt 0 transpose --dry-run --arch sm_90 --param tile=all --param block_rows=8 --param pad=0 \
	--param unroll=1 --param mapping=cartesian --param vec=1 --param shared=on --param sector=off --param wide=1 --param realign=off --param pair=off --param async=off \
	--param rowclass=off --dtype f64
grep_in "$T/out" "5 points, 4 valid, 1 rejected"
grep_in "$T/out" "shared memory per block exceeds the device limit (131072 > 49152 bytes)"

# --list prints the valid points (those --dry-run counts), or --sample's,
# one name a line, without a GPU or a compile.
run_gt 0 transpose --list --param tile=32 --param block_rows=8 --param pad=0 --param unroll=1 \
	--param mapping=cartesian --param vec=1,2,4,8 --param shared=on,off --param sector=off --param wide=1 --param realign=off --param pair=off --param async=off
check "--list prints the 4 valid points" test "$(wc -l <"$T/out")" -eq 4
grep_in "$T/out" "tile=32,block_rows=8,pad=0,unroll=1,mapping=cartesian,vec=4,shared=on,sector=off,wide=1"
run_gt 0 transpose --list --dtype f16 --sample 7:3
check "--list --sample 7 prints 7 names" test "$(wc -l <"$T/out")" -eq 7
cp "$T/out" "$T/sample"
run_gt 0 transpose --list --dtype f16 --sample 7:3
check "the same seed lists the same sample" cmp -s "$T/out" "$T/sample"
run_gt 0 transpose --list --dtype f16
check "the sample is drawn from the listed space" sh -c "grep -vxFf '$T/out' '$T/sample' | grep -q . && exit 1 || exit 0"

# The reduction's constraints, and its classic ladder as points.
family=reduce
reject "vec x element size exceeds the 16-byte access limit (32 bytes)" --param vec=4 --dtype f64
reject "the shared-memory trees need at least 64 threads" --param threads=32 --param block=sequential
accept --param threads=32 --param block=shuffle
reject "more than 32 elements in flight per thread (64)" --param vec=4 --param unroll=16
accept --param vec=2 --param unroll=16
accept --dtype i32 --param vec=4
accept --dtype f64 --param vec=2 --param final=atomic
accept --param threads=128 --param vec=1 --param unroll=1 --param grid=0 --param block=interleaved_divergent
accept --param threads=128 --param vec=1 --param unroll=2 --param grid=1024 --param block=sequential_warp
run_gt 0 reduce --dry-run --arch sm_90 --sizes 2^20 --dtype f64 --param threads=32,64 --param vec=1,4 --param unroll=1 \
	--param grid=0 --param block=sequential,shuffle --param final=lastblock
grep_in "$T/out" "8 points, 3 valid, 5 rejected"
grep_in "$T/out" "rejected     4  vec x element size exceeds the 16-byte access limit (32 bytes)"
grep_in "$T/out" "rejected     1  the shared-memory trees need at least 64 threads"

# The matrix multiply's constraints (from its single point: 128 x 128 x 8,
# warp 32 x 64, thread 8 x 8, 16-byte loads), and its named points.
family=gemm
accept
reject "the warp tile does not divide the block tile" --param bm=32 --param wm=64
reject "the thread tile does not divide the warp tile" --param wm=16 --param tm=8
reject "threads per block exceed the device limit (1024)" --param bm=256 --param bn=256 --param wm=8 --param tm=2 --param wn=32 --param tn=4
reject "the threads cannot share the loads of a round's tiles evenly" --param bm=16 --param wm=4 --param tm=1 --param bn=64 --param wn=8 --param tn=1
reject "more than 128 outputs per thread" --param wm=128 --param wn=64 --param bm=128 --param bn=128
reject "shared memory exceeds the device limit (49152 bytes)" --param bm=256 --param bn=256 --param bk=32 --param wm=64 --param wn=64 --param tm=8 --param tn=4 --param dbuf=1
accept --param bm=16 --param bn=16 --param bk=16 --param wm=4 --param wn=8 --param tm=1 --param tn=1 --param vec=1 --param pad=0
accept --param bm=128 --param bn=256 --param wm=64 --param wn=64 --param tn=4 --param dbuf=1 --param group=8
accept --param inject=wrong
# Stream-K cuts tiles along K itself, over dbuf's rounds.
accept --param stream=on --param bm=128 --param bn=128 --param wm=64 --param wn=64 --param tm=8 --param tn=2 --param dbuf=1
reject "stream-K cuts tiles along K itself, over dbuf's rounds (it needs split=1 and async=0)" --param stream=on --param split=2 \
	--param bm=64 --param bn=64 --param wm=32 --param wn=32 --param tm=4 --param tn=4
reject "stream-K cuts tiles along K itself, over dbuf's rounds (it needs split=1 and async=0)" --param stream=on --param async=2 \
	--param dbuf=0
# Split-K: the partial tile must fit in the shared memory (it takes the
# stages' place).  Every block tile's rows share evenly over 8 blocks
# (bm >= 16, bn >= 16): the template asserts it.
accept --param split=2 --param bm=64 --param bn=64 --param wm=32 --param wn=32 --param tm=4 --param tn=4
accept --param split=8 --param bm=32 --param bn=64 --param wm=32 --param wn=32 --param tm=4 --param tn=4
reject "shared memory exceeds the device limit (49152 bytes)" --param split=2 --param bm=128 --param bn=128 --param wm=64 --param wn=64 --param tm=8 --param tn=4
# A block's registers bound a thread's: 512 threads of 64 x 64 warp tiles
# get 128 registers each for at least 160 (outputs, fragments and the next
# round's tiles), and spill.
reject "a thread needs at least 160 registers (outputs, fragments and tiles in flight), more than the 128 a thread of 512 gets: registers would spill" \
	--param bm=256 --param bn=256 --param wm=64 --param wn=64 --param tm=8 --param tn=2 --param dbuf=1
accept --param bm=128 --param bn=256 --param wm=64 --param wn=64 --param tm=8 --param tn=2 --param dbuf=1
# For a GPU, or a dry run's --arch, the limit is the shared memory a kernel
# may opt in to (the tuner's launches and the header's opt in): 227 KiB on
# 9.0, 99 KiB on 8.6 (`source` above knows no device: 48 KiB).  Three
# cp.async stages of 128 x 256 x 32 take 147 KiB; split-K's partial tile
# of 128 x 256 then takes their place.
big="--sizes 64 --param bm=128 --param bn=256 --param bk=32 --param wm=64 --param wn=64 --param tm=8 --param tn=4 --param async=3 --param dbuf=0"
# shellcheck disable=SC2086
run_gt 0 gemm --list --arch sm_90 $big --param split=1,2
check "sm_90 takes stages of 147 KiB (async=3, bk=32, 128 x 256), with split-K and without" \
	test "$(grep -c '^bm=128,bn=256,bk=32' "$T/out")" = 16 -a "$(grep -c 'split=2' "$T/out")" = 8
# shellcheck disable=SC2086
run_gt 2 gemm --list --arch sm_86 $big
grep_in "$T/err" "shared memory exceeds the device limit (101376 bytes)"
# Such points are in the default space only where a tile parameter is
# given: 128 x 256 with bk=16 and two stages takes 49 KiB.
warp="--sizes 64 --param wm=64 --param wn=64 --param tm=8 --param tn=2 --param vec=4 --param pad=4 --param dbuf=1 --param group=8"
# shellcheck disable=SC2086
run_gt 0 gemm --list --arch sm_90 $warp
check "the default space leaves out 128 x 256 x 16 of two stages (49 KiB)" \
	sh -c "grep -q '^bm=128,bn=256,bk=8,' '$T/out' && ! grep -q '^bm=128,bn=256,bk=16,' '$T/out'"
# shellcheck disable=SC2086
run_gt 0 gemm --list --arch sm_90 $warp --param bk=8,16
grep_in "$T/out" "bm=128,bn=256,bk=16,wm=64,wn=64,tm=8,tn=2,vec=4,pad=4,dbuf=1,group=8"
# The search's seeds (listed by help) are points of the default space for
# sm_90, where a run measures them first at each size, but for those split
# in eight, and those over 48 KiB of shared memory, which the default space
# leaves out and a run measures all the same (split left alone): points of
# the space with every split, and of the one with bk given.
run_gt 0 help gemm
family_seeds "$T/out" >"$T/seeds"
check "help lists the matrix multiply's seeds" test "$(wc -l < "$T/seeds")" -ge 4
run_gt 0 gemm --list --arch sm_90
grep -vxF -f "$T/out" "$T/seeds" > "$T/beyond" || :
check "one seed is beyond it" test "$(wc -l < "$T/beyond")" -ge 1
run_gt 0 gemm --list --arch sm_90 --param bk=8,16
grep -v ',split=8,' "$T/beyond" > "$T/beyond-unsplit8" || :
check "every other seed beyond the default space is in it with bk given (over 48 KiB)" \
	sh -c "! grep -vxF -f '$T/out' '$T/beyond-unsplit8'"
run_gt 0 gemm --list --arch sm_90 --param split=all
check "every seed is a point of the space of every split" sh -c "! grep -vxF -f '$T/out' '$T/seeds'"
run_gt 0 gemm --dry-run --arch sm_90 --param bm=64 --param bn=64 --param bk=8 --param wm=32,64 --param wn=32,64 \
	--param tm=4,8 --param tn=4 --param vec=4 --param pad=4 --param dbuf=1 --param group=8 --param split=1 --param flat=off
grep_in "$T/out" "8 points, 8 valid, 0 rejected"
# Clusters are of compute capability 9.0 on.
run_gt 0 gemm --dry-run --arch sm_80 --param bm=64 --param bn=64 --param bk=8 --param wm=32 --param wn=32 \
	--param tm=4 --param tn=4 --param vec=4 --param pad=4 --param dbuf=1 --param group=8 --param split=1,2,4 --param flat=off
grep_in "$T/out" "3 points, 1 valid, 2 rejected"
grep_in "$T/out" "rejected     2  split-K sums over a thread-block cluster, which needs compute capability 9.0"
run_gt 0 gemm --dry-run --arch sm_90 --param bm=16,128 --param bn=64 --param bk=8 --param wm=16,32 --param wn=64 \
	--param tm=8 --param tn=8 --param vec=4 --param pad=0 --param dbuf=0 --param group=1 --param split=1 --param flat=off
grep_in "$T/out" "4 points, 1 valid, 3 rejected"
grep_in "$T/out" "rejected     1  the warp tile does not divide the block tile"
grep_in "$T/out" "rejected     2  the thread tile does not divide the warp tile"

# The rejections of a large space, one line per reason: reasons that differ
# only in their numbers are one line, with each number that varies as its
# range.
run_gt 0 transpose --dry-run --arch sm_90 --dtype f16 --sample 1:1 --cache-dir "$T/cache"
grep '^  rejected' "$T/out" | sed 's/^  rejected *[0-9]*  //; s/[0-9][0-9]*/#/g' > "$T/shapes"
lines=$(wc -l < "$T/shapes")
check "rejections grouped by reason ($lines lines, $(sort -u "$T/shapes" | wc -l) reasons)" \
	test "$lines" -gt 5 -a "$lines" -eq "$(sort -u "$T/shapes" | wc -l)"
grep_in "$T/out" "shared memory per block exceeds the device limit (65792 to 272448 > 49152 bytes)"
done_testing
