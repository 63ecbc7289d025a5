#!/bin/sh
# Rendering: deterministic, every parameter a #define, the element size
# follows --dtype, and a template directory overrides the built-in copy.
. "$(dirname "$0")/setup"

"$GPUTUNE" source transpose --param tile=64 --param vec=4 > "$T/a.cu"
"$GPUTUNE" source transpose --param vec=4 --param tile=64 > "$T/b.cu"
check "rendering is deterministic (same point, same bytes)" cmp -s "$T/a.cu" "$T/b.cu"
for d in "GT_TILE 64" "GT_VEC 4" "GT_BLOCK_ROWS 8" "GT_PAD 1" "GT_UNROLL 1" "GT_MAPPING 0" "GT_SHARED 1" "GT_ELEM_BYTES 4"; do
	grep_in "$T/a.cu" "#define $d"
done
"$GPUTUNE" source transpose --dtype f16 > "$T/h.cu"
grep_in "$T/h.cu" "#define GT_ELEM_BYTES 2"
"$GPUTUNE" source transpose --param mapping=diagonal > "$T/d.cu"
grep_in "$T/d.cu" "#define GT_MAPPING 1"
check "different points render differently" sh -c "! cmp -s '$T/a.cu' '$T/d.cu'"
mkdir "$T/tpl"
cp "$top_srcdir/templates/common.cuh" "$T/tpl/"
sed 's/out\[c \* rows + r\] = in\[r \* cols + c\];/out[c * rows + r] = in[r * cols + c]; \/\/ overridden/' \
	"$top_srcdir/templates/transpose.cu" > "$T/tpl/transpose.cu"
"$GPUTUNE" source transpose --templates "$T/tpl" > "$T/o.cu"
grep_in "$T/o.cu" "// overridden"
run_gt 1 source transpose --templates "$T/nowhere"
grep_in "$T/err" "cannot read template"
done_testing
