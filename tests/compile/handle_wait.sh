#!/bin/sh
# With <upc_collective_ext.h> included, upc_wait(handle) completes an
# asynchronous collective (Extended Collectives 0.3 5.4.1) and the barrier's
# upc_wait() and upc_wait(id) compile as before: the choice is by type, so
# a handle is never read as a barrier id (docs/extended.md). Checked in
# the assembly of each form: which function it calls.
#   handle_wait.sh SOURCE_ROOT BUILD_ROOT
set -eu
inc=$1/include
binc=$2/include # tupc_version.h, generated
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/handle.c" <<'C'
#include <upc.h>
#include <upc_collective_ext.h>
void f(upc_coll_handle_t h)
{
    upc_wait(h);
    upc_wait(UPC_HANDLE_COMPLETE);
}
C
cat >"$tmp/barrier.c" <<'C'
#include <upc.h>
#include <upc_collective_ext.h>
void f(int id)
{
    upc_notify(id);
    upc_wait(id);
    upc_notify(0);
    upc_wait(0);
    upc_notify();
    upc_wait();
    upc_barrier(3);
}
C
for f in handle barrier; do
    $CC -std=gnu11 -Wall -Wextra -Werror -O1 -S -o "$tmp/$f.s" -I"$inc" -I"$binc" "$tmp/$f.c"
done
grep -q tupc_wait_handle "$tmp/handle.s" || { echo "upc_wait(handle) does not call tupc_wait_handle"; exit 1; }
if grep -q tupc_impl_wait "$tmp/handle.s"; then
    echo "upc_wait(handle) calls the barrier's wait"
    exit 1
fi
if grep -q tupc_wait_handle "$tmp/barrier.s"; then
    echo "upc_wait(id) or upc_wait() calls tupc_wait_handle"
    exit 1
fi
[ "$(grep -c 'tupc_impl_wait' "$tmp/barrier.s")" -ge 3 ] || { echo "the barrier's upc_wait forms do not all call tupc_impl_wait"; cat "$tmp/barrier.s"; exit 1; }
echo "upc_wait: a handle's completion or the barrier's, by type"
