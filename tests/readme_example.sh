#!/bin/sh
# Keeps the README true: installs tupc into a scratch prefix, builds the
# README's example program with `pkg-config tupc-main` as the README says,
# runs it on 3 THREADS and checks its output.
#   readme_example.sh SOURCE_ROOT BUILD_ROOT
set -eu
src=$1
build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --destdir "$tmp/root" --no-rebuild --quiet >/dev/null
pc=$(dirname "$(find "$tmp/root" -name tupc-main.pc | head -n 1)")
# The C block under "## A program".
awk '/^## A program/ { on = 1; next } on && /^```c/ { grab = 1; next }
     grab && /^```/ { exit } grab { print }' "$src/README.md" >"$tmp/prog.c"
[ -s "$tmp/prog.c" ] || { echo "no example found in README.md"; exit 1; }
export PKG_CONFIG_PATH="$pc" PKG_CONFIG_SYSROOT_DIR="$tmp/root"
# shellcheck disable=SC2046
cc -std=gnu11 -Wall -Wextra -Werror "$tmp/prog.c" $(pkg-config --cflags --libs tupc-main) \
    -o "$tmp/prog"
libdir=$(dirname "$(find "$tmp/root" -name 'libtupc.so*' | head -n 1)")
LD_LIBRARY_PATH="$libdir" "$tmp/prog" -n 3 | sort >"$tmp/out"
cat "$tmp/out"
# Thread 1's first element (10) reaches every thread's block of B.
for t in 0 1 2; do
    grep -qx "thread $t of 3: B\[$((t * 4))\] = 10" "$tmp/out" || { echo "thread $t wrong"; exit 1; }
done
echo "README example: ok"
