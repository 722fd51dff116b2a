#!/bin/sh
# libtupc.so exports the public ABI and nothing else: every exported symbol
# is versioned TUPC_0.1 and named in a public header (include/*.h, where
# tupc_impl.h holds what the macros call), and the functions of the headers
# that programs link against are there.
#   symbols.sh SOURCE_ROOT LIBTUPC_SO BUILD_ROOT
set -eu
inc=$(cd "$1/include" && pwd)
binc=$3/include # tupc_version.h, generated
so=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$so" | awk '{ print $3 }' | sort -u >"$tmp/exported"
[ -s "$tmp/exported" ] || { echo "nm found no symbols in $so"; exit 1; }
# The headers as written and as preprocessed (some declarations are made by
# macros, upc_all_reduceT's for instance).
for h in "$inc"/*.h; do
    case $h in */tupc_impl.h) ;; *) echo "#include \"$h\"" ;; esac
done >"$tmp/all.c"
${CC:-cc} -E -I"$inc" -I"$binc" "$tmp/all.c" >"$tmp/headers"
cat "$inc"/*.h >>"$tmp/headers"
fail=0
n=0
while read -r sym; do
    name=${sym%%@*}
    [ "$name" = TUPC_0.1 ] && continue
    n=$((n + 1))
    case $sym in
    *@@TUPC_0.1) ;;
    *) echo "$sym: not in the version node TUPC_0.1"; fail=1 ;;
    esac
    grep -qw -- "$name" "$tmp/headers" || {
        echo "$name is exported but no public header names it (an internal symbol leaks)"
        fail=1
    }
done <"$tmp/exported"
for want in upc_all_broadcast upc_all_reduceLD upc_all_sort upc_all_permute_x tupc_run \
    tupc_run_opts tupc_impl_run_opts tupc_impl_mythread tupc_team_split upc_ticks_now; do
    grep -q "^$want@@TUPC_0.1\$" "$tmp/exported" || { echo "$want is not exported"; fail=1; }
done
[ $fail -eq 0 ] || exit 1
echo "symbols: $n exported, each versioned and named in a public header"
