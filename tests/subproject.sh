#!/bin/sh
# tupc as a meson subproject: a tiny parent project gets `tupc-main` through
# dependency() with tupc as its fallback; tupc then builds the library alone
# (no cmocka lookup, no tests of its own in the parent's `meson test`).
#   subproject.sh SOURCE_ROOT
set -eu
src=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/parent/subprojects/tupc"
# The tree as git sees it (tracked and untracked, not ignored): no build dirs.
(cd "$src" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) |
    tar -xf - -C "$tmp/parent/subprojects/tupc"
cat >"$tmp/parent/meson.build" <<'M'
project('parent', 'c', default_options : ['c_std=gnu11'])
tupc_main = dependency('tupc-main', fallback : ['tupc', 'tupc_main_dep'])
hello = executable('hello', 'hello.c', dependencies : tupc_main)
test('hello', hello, args : ['-n', '3'])
M
cat >"$tmp/parent/hello.c" <<'C'
#include <upc.h>
#include <stdio.h>
int tupc_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    upc_barrier();
    if (MYTHREAD == 0)
        printf("%d threads\n", THREADS);
    return THREADS == 3 ? 0 : 1;
}
C
cd "$tmp/parent"
meson setup b >"$tmp/setup.log" 2>&1 || { cat "$tmp/setup.log"; exit 1; }
if grep -qi cmocka "$tmp/setup.log"; then
    echo "tupc looked for cmocka as a subproject:"
    grep -i cmocka "$tmp/setup.log"
    exit 1
fi
ninja -C b >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
./b/hello -n 3 | grep -qx "3 threads" || { echo "hello did not run on 3 threads"; exit 1; }
n=$(meson test -C b --list 2>/dev/null | grep -vc "^ninja")
[ "$n" = 1 ] || { echo "the parent's meson test lists $n tests; expected its own 1:"; meson test -C b --list; exit 1; }
echo "subproject: ok"
