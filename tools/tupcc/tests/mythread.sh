#!/bin/sh
# mythread.sh TUPCC DIR: the generated C of mythread.upc addresses
# a[MYTHREAD] of a block-size-1 array with tupcc_at_mythread (a plain load
# or store after inlining), and nothing else with it.
set -eu
tupcc=$1
dir=$2
command -v clang >/dev/null 2>&1 || { echo "no clang: skipped"; exit 77; }
out=$("$tupcc" -E "$dir/mythread.upc")
for n in 'fa) 5' 'fd) 3' 'fs) 1'; do
    name=${n% *}
    want=${n#* }
    got=$(printf '%s\n' "$out" | grep -o "tupcc_at_mythread($name" | wc -l)
    echo "tupcc_at_mythread($name: $got, expected $want"
    [ "$got" -eq "$want" ]
done
if printf '%s\n' "$out" | grep -E 'tupcc_at_mythread\((sa|ta|p)\b'; then
    echo "tupcc_at_mythread on a layout it does not fit"
    exit 1
fi
echo "a[MYTHREAD] is a plain access where the layout allows"
