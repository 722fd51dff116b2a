#!/bin/sh
# pragma_modes.sh TUPCC DIR: in the generated C of pragma_modes.upc every
# store of 1xx is strict and every store of 2xx relaxed, after the casts
# that tupcc writes into the text have moved the pragmas' places.
set -eu
tupcc=$1
dir=$2
command -v clang >/dev/null 2>&1 || { echo "no clang: skipped"; exit 77; }
out=$("$tupcc" -E "$dir/pragma_modes.upc" 2>/dev/null)
fail=0
for v in 101 102 103 104; do
    printf '%s\n' "$out" | grep -q "tupcc_wr_strict(int, .*, $v)" || { echo "store of $v: not strict"; fail=1; }
done
for v in 201 202 203; do
    printf '%s\n' "$out" | grep -q "tupcc_wr(int, .*, $v)" || { echo "store of $v: not relaxed"; fail=1; }
done
[ $fail = 0 ] && echo "each access has the mode of its pragma"
exit $fail
