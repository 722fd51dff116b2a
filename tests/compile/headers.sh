#!/bin/sh
# The public headers in strict modes: each alone, and a use of every macro
# that has a C and a C++ form, as C11 with -pedantic-errors and as C++17 and
# C++20, with every C and C++ compiler found; and the same layout of the
# public types in C and in C++ (the ABI a C++ caller links against).
#   headers.sh SOURCE_ROOT BUILD_ROOT
set -eu
inc=$1/include
binc=$2/include # tupc_version.h, generated
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
warn="-Wall -Wextra -Werror -pedantic-errors"
headers="upc.h upc_types.h upc_collective.h upc_collective_ext.h upc_tick.h tupc_version.h"
ccs=""
for c in gcc clang; do command -v $c >/dev/null && ccs="$ccs $c"; done
cxxs=""
for c in g++ clang++; do command -v $c >/dev/null && cxxs="$cxxs $c"; done
[ -n "$ccs" ] || { echo "no C compiler"; exit 1; }

cat >"$tmp/use.h" <<'C'
#include <string.h>
#include <upc.h>
#include <upc_collective.h>
#include <upc_collective_ext.h>
#include <upc_tick.h>
#ifdef __UPC__
#error "__UPC__ is a UPC compiler's macro"
#endif
static int use_entry(void *arg)
{
    tupc_sptr_t a = upc_all_alloc(THREADS, 4 * sizeof(int)), n = TUPC_NULL;
    unsigned long u = 3;
    (void)arg;
    upc_forall(int i = 0, i < 8, i++, i) tupc_ref(a, i, 4, int) = MYTHREAD;
    upc_forall(int i = 0, i < 8, i++, u + (unsigned long)i) (void)i;
    upc_forall(int i = 0, i < 8, i++, tupc_index(a, i, 4, int)) (void)i;
    upc_barrier();
    upc_barrier(3);
    upc_notify(1 + 2);
    upc_wait(3);
    upc_notify();
    upc_wait();
    upc_all_exchange(a, UPC_IN_PLACE, sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    upc_all_exchange(a, a, sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    upc_all_prefix_reduceI(a, UPC_IN_PLACE, UPC_ADD, 8, 4, 0, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    upc_all_prefix_reduceI(a, a, UPC_ADD, 8, 4, 0, UPC_EXCLUSIVE_PREFIX_REDUCE | UPC_IN_PLACE);
    upc_all_reduce_allCX(a, a, UPC_ADD, 1, 4, 0, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    upc_all_reduce_allB(a, a, UPC_LOGAND, 1, 4, 0, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
    (void)tupc_isnull(n);
    (void)upc_ticks_now();
    upc_all_free(a);
    return 0;
}
static int use_run(void)
{
    tupc_options o; /* as documented: zero, then set what is needed */
    memset(&o, 0, sizeof o);
    o.return_on_error = 1;
    o.quiet = 1;
    return tupc_run_opts(&o, use_entry, 0) + tupc_run(2, use_entry, 0);
}
C
printf '#include "use.h"\nint use(void);\nint use(void) { return use_run(); }\n' >"$tmp/use.c"
cp "$tmp/use.c" "$tmp/use.cpp"

cat >"$tmp/layout.h" <<'C'
#include <upc.h>
#include <upc_collective_ext.h>
#include <upc_tick.h>
#include <stddef.h>
#include <stdio.h>
#define L(T) printf(#T " %zu %zu\n", sizeof(T), _Alignof(T))
#define F(T, f) printf(#T "." #f " %zu\n", offsetof(T, f))
int main(void)
{
    L(tupc_sptr_t); F(tupc_sptr_t, addr); F(tupc_sptr_t, thread); F(tupc_sptr_t, phase);
    L(tupc_options); F(tupc_options, threads); F(tupc_options, heap_size);
    F(tupc_options, return_on_error); F(tupc_options, quiet); F(tupc_options, hang_timeout);
    L(upc_flag_t); L(upc_op_t); L(upc_team_t); L(upc_coll_handle_t); L(upc_tick_t);
    return 0;
}
C
printf '#include "layout.h"\n' >"$tmp/layout.c"
printf '#define _Alignof alignof\n#include "layout.h"\n' >"$tmp/layout.cpp"

fail=0
try() {
    if ! "$@" 2>"$tmp/err"; then
        echo "FAILED: $*"
        cat "$tmp/err"
        fail=1
    fi
}
for cc in $ccs; do
    for h in $headers; do
        printf '#include <%s>\nint x;\n' "$h" >"$tmp/alone.c"
        try $cc -std=c11 $warn -fsyntax-only -I"$inc" -I"$binc" "$tmp/alone.c"
    done
    try $cc -std=c11 $warn -fsyntax-only -I"$inc" -I"$binc" -I"$tmp" "$tmp/use.c"
    try $cc -std=c11 -o "$tmp/layout-$cc" -I"$inc" -I"$binc" -I"$tmp" "$tmp/layout.c"
    "$tmp/layout-$cc" >"$tmp/layout-$cc.txt"
done
# TUPC_TEST_QUICK (./dev.sh test): C++17 only; CI's full run has C++20 too.
stds="c++17 c++20"
[ -n "${TUPC_TEST_QUICK:-}" ] && stds=c++17
for cxx in $cxxs; do
    for std in $stds; do
        for h in $headers; do
            printf '#include <%s>\nint x;\n' "$h" >"$tmp/alone.cpp"
            try $cxx -std=$std $warn -fsyntax-only -I"$inc" -I"$binc" "$tmp/alone.cpp"
        done
        try $cxx -std=$std $warn -fsyntax-only -I"$inc" -I"$binc" -I"$tmp" "$tmp/use.cpp"
    done
    try $cxx -std=c++17 -o "$tmp/layout-$cxx" -I"$inc" -I"$binc" -I"$tmp" "$tmp/layout.cpp"
    "$tmp/layout-$cxx" >"$tmp/layout-$cxx.txt"
    # In C++ too, upc_wait(handle) completes the handle and upc_wait(0),
    # upc_wait(id) and upc_wait() are the barrier's (overloads).
    printf '#include <upc.h>\n#include <upc_collective_ext.h>\nvoid h(upc_coll_handle_t x) { upc_wait(x); }\nvoid b(int id) { upc_notify(0); upc_wait(0); upc_notify(id); upc_wait(id); upc_notify(); upc_wait(); }\n' >"$tmp/wait.cpp"
    if ! $cxx -std=c++17 -O1 -S -o "$tmp/wait.s" -I"$inc" -I"$binc" "$tmp/wait.cpp" 2>"$tmp/err"; then
        echo "FAILED: $cxx did not compile the forms of upc_wait"
        cat "$tmp/err"
        fail=1
    elif ! grep -q 'tupc_wait_handle' "$tmp/wait.s" || [ "$(grep -c 'call.*tupc_impl_wait\b' "$tmp/wait.s")" -lt 1 ]; then
        echo "FAILED: $cxx's upc_wait does not call tupc_wait_handle for a handle and tupc_impl_wait for an id"
        fail=1
    fi
done
first=$(ls "$tmp"/layout-*.txt | head -n 1)
for f in "$tmp"/layout-*.txt; do
    if ! cmp -s "$first" "$f"; then
        echo "FAILED: the public types' layout differs between $(basename "$first") and $(basename "$f"):"
        diff "$first" "$f" || true
        fail=1
    fi
done
[ $fail -eq 0 ] || exit 1
echo "headers: C11 -pedantic-errors with$ccs; C++17 and C++20 with$cxxs; one layout:"
cat "$first"
