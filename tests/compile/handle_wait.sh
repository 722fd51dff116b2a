#!/bin/sh
# With <upc_collective_ext.h> included, the barrier's upc_wait() and
# upc_wait(id) compile as before, and upc_wait(handle) does not: a handle
# read as a barrier id would be a silent wrong barrier (docs/extended.md).
#   handle_wait.sh SOURCE_ROOT
set -eu
inc=$1/include
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/ok.c" <<'C'
#include <upc.h>
#include <upc_collective_ext.h>
void f(int id)
{
    upc_notify(id);
    upc_wait(id);
    upc_notify();
    upc_wait();
    upc_barrier(3);
}
C
cat >"$tmp/bad.c" <<'C'
#include <upc.h>
#include <upc_collective_ext.h>
void f(upc_coll_handle_t h)
{
    upc_notify();
    upc_wait(h);
}
C
$CC -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I"$inc" "$tmp/ok.c"
if $CC -std=gnu11 -fsyntax-only -I"$inc" "$tmp/bad.c" 2>"$tmp/err"; then
    echo "upc_wait(handle) compiled; expected an error"
    exit 1
fi
grep -q tupc_handle_given_to_barrier_upc_wait "$tmp/err" || {
    echo "the error does not name tupc_handle_given_to_barrier_upc_wait:"
    cat "$tmp/err"
    exit 1
}
echo "upc_wait(handle): refused at compile time"
