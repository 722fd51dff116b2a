#!/bin/sh
# Keeps the README's "Building your own program against tupc" true: in a
# copy of the source tree, runs the commands of its custom-prefix block
# exactly as written, with HOME a scratch directory, on the README's
# example program, and checks what the program prints. With --system (CI
# only: it installs into /usr/local for good, so it wants root), the same
# steps as the README says for the default prefix: without --prefix,
# --libdir and PKG_CONFIG_PATH.
#   install.sh SOURCE_ROOT [--system]
set -eu
src=$1
system=${2:-}
if [ "$system" = --system ] && [ "$(id -u)" -ne 0 ]; then
    echo "install.sh --system installs into /usr/local: run it as root (CI does)"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src" "$tmp/home"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    # The tracked files and the work in progress, not the build directories.
    git -C "$src" ls-files -co --exclude-standard -z | (cd "$src" && xargs -0 cp --parents -t "$tmp/src")
else
    cp -r "$src/." "$tmp/src"
fi
awk '/^<!-- install.sh: custom prefix -->/ { on = 1; next } on && /^```sh/ { grab = 1; next }
     grab && /^```/ { exit } grab { print }' "$src/README.md" >"$tmp/steps.sh"
awk '/^## A program/ { on = 1; next } on && /^```c/ { grab = 1; next }
     grab && /^```/ { exit } grab { print }' "$src/README.md" >"$tmp/src/prog.c"
[ -s "$tmp/steps.sh" ] || { echo "no custom-prefix block in README.md"; exit 1; }
if [ "$system" = --system ]; then
    sed -i 's| --prefix="$HOME/.local" --libdir=lib||; /PKG_CONFIG_PATH/d' "$tmp/steps.sh"
    grep -q -e '--prefix' -e PKG_CONFIG_PATH "$tmp/steps.sh" && { echo "cannot derive the default-prefix steps"; exit 1; }
fi
[ -s "$tmp/src/prog.c" ] || { echo "no example program in README.md"; exit 1; }
echo "README steps:"
sed 's/^/    /' "$tmp/steps.sh"
# A clean environment but for PATH: the steps must not lean on ours.
(cd "$tmp/src" && env -i PATH="$PATH" HOME="$tmp/home" sh -eu "$tmp/steps.sh") >"$tmp/log" 2>&1 || {
    cat "$tmp/log"
    echo "the README's steps failed"
    exit 1
}
grep '^thread ' "$tmp/log" | sort >"$tmp/out"
cat "$tmp/out"
[ "$(wc -l <"$tmp/out")" -eq 4 ] || { echo "expected 4 lines, one per thread"; exit 1; }
for t in 0 1 2 3; do
    grep -qx "thread $t of 4: B\[$((t * 4))\] = 10" "$tmp/out" || { echo "thread $t wrong"; exit 1; }
done
# The headers went to include/tupc/, and nothing defines __UPC__.
prefix=$tmp/home/.local
[ "$system" = --system ] && prefix=/usr/local
[ -f "$prefix/include/tupc/upc.h" ] || { echo "no include/tupc/upc.h"; exit 1; }
[ ! -e "$prefix/include/upc.h" ] || { echo "upc.h at the top of include/"; exit 1; }
printf '#include <upc.h>\n#include <upc_collective_ext.h>\n#include <upc_tick.h>\n#ifdef __UPC__\n#error __UPC__ defined\n#endif\n#ifndef __TUPC__\n#error no __TUPC__\n#endif\nint x;\n' >"$tmp/macros.c"
if [ "$system" != --system ]; then
    PKG_CONFIG_PATH="$tmp/home/.local/lib/pkgconfig"
    export PKG_CONFIG_PATH
fi
# shellcheck disable=SC2046
cc -c $(pkg-config --cflags tupc) "$tmp/macros.c" -o "$tmp/macros.o"
# The installed tupcc finds the installed headers and libraries: the
# README's "Run a UPC program" line, on a program of its own.
if command -v clang >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
    cat >"$tmp/hello.upc" <<'UPC'
#include <upc.h>
#include <stdio.h>
shared [2] int a[2 * THREADS];
int main(void)
{
    a[2 * MYTHREAD + 1] = MYTHREAD;
    upc_barrier;
    printf("thread %d of %d: %d\n", MYTHREAD, THREADS, a[2 * ((MYTHREAD + 1) % THREADS) + 1]);
    return 0;
}
UPC
    (cd "$tmp" && env -i PATH="$PATH" HOME="$tmp/home" "$prefix/bin/tupcc" hello.upc -o hello &&
        ./hello -n 4) | sort >"$tmp/hello.out"
    for t in 0 1 2 3; do
        grep -qx "thread $t of 4: $(((t + 1) % 4))" "$tmp/hello.out" || { echo "installed tupcc: thread $t wrong"; exit 1; }
    done
    echo "installed tupcc: ok"
fi
echo "install${system:+ $system}: ok"
