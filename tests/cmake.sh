#!/bin/sh
# The CMake package: installs this build into a scratch directory, then
# configures, builds and runs tests/cmake/ (a GoogleTest test of UPC code
# against tupc::tupc, a whole program against tupc::tupc-main) with CMake's
# find_package(tupc 0.1 CONFIG); and a request for tupc 1.0 is refused.
#   cmake.sh SOURCE_ROOT BUILD_ROOT
set -eu
src=$1
build=$2
command -v cmake >/dev/null 2>&1 || { echo "no cmake: skipped"; exit 77; }
[ -f /usr/include/gtest/gtest.h ] || { echo "no GoogleTest (libgtest-dev): skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --destdir "$tmp/root" --no-rebuild --quiet >/dev/null
config=$(find "$tmp/root" -name tupcConfig.cmake | head -n 1)
[ -n "$config" ] || { echo "no tupcConfig.cmake installed"; exit 1; }
[ -f "$(dirname "$config")/tupcConfigVersion.cmake" ] || { echo "no tupcConfigVersion.cmake"; exit 1; }
# The prefix is three or more levels up (LIBDIR/cmake/tupc); the staged one
# is found from the config file's place.
prefix=$(meson introspect "$build" --buildoptions | python3 -c \
    'import json, sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"][0])')
cmake -S "$src/tests/cmake" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$tmp/root$prefix" >"$tmp/log" 2>&1 ||
    { cat "$tmp/log"; exit 1; }
cmake --build "$tmp/b" >>"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
(cd "$tmp/b" && ctest --output-on-failure) || exit 1
# The version file refuses another major version.
mkdir "$tmp/v"
printf 'cmake_minimum_required(VERSION 3.16)\nproject(v C)\nfind_package(tupc 1.0 CONFIG REQUIRED)\n' \
    >"$tmp/v/CMakeLists.txt"
if cmake -S "$tmp/v" -B "$tmp/v/b" -DCMAKE_PREFIX_PATH="$tmp/root$prefix" >"$tmp/vlog" 2>&1; then
    echo "find_package(tupc 1.0) accepted this tupc"
    cat "$tmp/vlog"
    exit 1
fi
grep -q "version: 0\." "$tmp/vlog" || { cat "$tmp/vlog"; exit 1; }
echo "CMake package: ok"
