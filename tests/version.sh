#!/bin/sh
# One version everywhere: meson's project version is what <upc.h>'s
# TUPC_VERSION_* say, what the .pc files say, and what tupcrun --version
# prints.
#   version.sh VERSION BUILD_ROOT TUPCRUN
set -eu
version=$1
build=$2
tupcrun=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/v.c" <<'C'
#include <stdio.h>
#include <upc.h>
int main(void)
{
    printf("%s %d.%d.%d %d\n", TUPC_VERSION_STRING, TUPC_VERSION_MAJOR, TUPC_VERSION_MINOR,
           TUPC_VERSION_PATCH, TUPC_VERSION_NUMBER);
    return 0;
}
C
src=$(cd "$(dirname "$0")/.." && pwd)
${CC:-cc} -std=c11 -Wall -Wextra -Werror -I"$src/include" -I"$build/include" "$tmp/v.c" -o "$tmp/v"
got=$("$tmp/v")
echo "headers: $got"
major=${version%%.*}
rest=${version#*.}
minor=${rest%%.*}
patch=${rest#*.}
[ "$got" = "$version $version $((major * 10000 + minor * 100 + patch))" ]
for pc in tupc tupc-main; do
    v=$(PKG_CONFIG_PATH="$build/meson-private" pkg-config --modversion "$pc")
    echo "$pc.pc: $v"
    [ "$v" = "$version" ]
done
got=$("$tupcrun" --version)
echo "tupcrun --version: $got"
[ "$got" = "tupcrun (tupc) $version" ]
echo "version $version everywhere: ok"
