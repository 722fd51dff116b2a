#!/bin/sh
# clangs.sh TUPCC CLANG...: tupcc reads UPC through clang's front end, so
# another clang must not change what it makes. With each CLANG as the front
# end (TUPCC_CLANG), every program of the tupcc suite and of the samples
# must translate (tupcc -E) to the same C, with the same messages and
# status, as with the build's clang; the test then needs no build. A
# program whose output differs is built and run with that clang as its
# test does (run.sh, quick counts), so a harmless difference passes, is
# counted, and a wrong one fails. Two lanes run side by side.
set -eu
LC_ALL=C
export LC_ALL
tupcc=$1
shift
root=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ls "$root"/tools/tupcc/tests/*.upc "$root"/samples/*.upc "$root"/samples/spec/*.upc \
    "$root"/tests/bench/heat_forall.upc >"$tmp/files"
n=$(wc -l <"$tmp/files")

# translate LANE CLANG: lane LANE's half of the files, into $tmp/CLANG/K.*
# (CLANG "base": the build's clang).
translate() {
    lane=$1 clang=$2
    mkdir -p "$tmp/$clang"
    k=0
    while read -r f; do
        k=$((k + 1))
        [ $((k % 2)) = "$lane" ] || continue
        out=$tmp/$clang/$k
        rc=0
        if [ "$clang" = base ]; then
            "$tupcc" -E "$f" >"$out.c" 2>"$out.err" || rc=$?
        else
            TUPCC_CLANG=$clang "$tupcc" -E "$f" >"$out.c" 2>"$out.err" || rc=$?
        fi
        echo "$rc" >"$out.rc"
    done <"$tmp/files"
}

both() {
    translate 0 "$1" &
    translate 1 "$1"
    wait
}

both base
fail=0
for clang in "$@"; do
    command -v "$clang" >/dev/null 2>&1 || { echo "clangs.sh: no $clang"; exit 1; }
    both "$clang"
    same=0 differ=0 k=0
    while read -r f; do
        k=$((k + 1))
        a=$tmp/base/$k b=$tmp/$clang/$k
        if cmp -s "$a.rc" "$b.rc" && cmp -s "$a.c" "$b.c" && cmp -s "$a.err" "$b.err"; then
            same=$((same + 1))
            continue
        fi
        differ=$((differ + 1))
        if TUPCC_CLANG=$clang TUPC_TEST_QUICK=1 sh "$root/tools/tupcc/tests/run.sh" "$tupcc" \
            "$(dirname "$f")" "$(basename "$f" .upc)" >"$tmp/run.log" 2>&1 </dev/null; then
            echo "$clang: $f translates differently; built and run, it passes"
        else
            echo "$clang: $f translates differently and fails built and run:"
            diff "$a.err" "$b.err" | head -n 20 || true
            diff "$a.c" "$b.c" | head -n 40 || true
            cat "$tmp/run.log"
            fail=1
        fi
    done <"$tmp/files"
    echo "$clang ($("$clang" --version | head -n 1)): $same of $n programs translate to the same C" \
        "and messages as with the build's clang; $differ differ (each built and run above)"
done
exit $fail
