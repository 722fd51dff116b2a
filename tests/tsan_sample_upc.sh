#!/bin/sh
# In the ThreadSanitizer build: samples/missing_barrier.upc, built by tupcc
# with -fsanitize=thread, races like missing_barrier.c, and TSan's report
# names the lines marked `the write` and `the read` of the .upc (tupcc's
# #line directives), none inside tupc (tsan_sample.sh checks it).
#   tsan_sample_upc.sh TUPCC MISSING_BARRIER.upc TSAN_SAMPLE.sh
# Skips (77) without python3. $CC is the compiler tupcc runs.
set -eu
tupcc=$1
src=$2
check=$3
command -v python3 >/dev/null 2>&1 || { echo "no python3: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wline=$(grep -n '/\* the write \*/' "$src" | sed -n '1s/:.*//p')
rline=$(grep -n '/\* the read \*/' "$src" | sed -n '1s/:.*//p')
"$tupcc" -g -fsanitize=thread -Wall -Wextra -Werror "$src" -o "$tmp/missing_barrier"
sh "$check" "$tmp/missing_barrier" "$(basename "$src")" "$wline" "$rline"
