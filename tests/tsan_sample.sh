#!/bin/sh
# In the ThreadSanitizer build: samples/missing_barrier races, and TSan's
# report names the sample's write and read and no frame inside tupc's
# library (lib/), whose synchronization TSan sees.
#   tsan_sample.sh MISSING_BARRIER
set -u
prog=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# Several runs: a race shows when both threads run the two lines at once.
for i in 1 2 3 4 5; do
    TSAN_OPTIONS="halt_on_error=0 exitcode=66" "$prog" -n 4 >/dev/null 2>"$out"
    grep -q "WARNING: ThreadSanitizer: data race" "$out" && break
done
grep -q "WARNING: ThreadSanitizer: data race" "$out" || { cat "$out"; echo "no race reported"; exit 1; }
grep -q "missing_barrier.c:17" "$out" || { cat "$out"; echo "the report lacks the write, missing_barrier.c:17"; exit 1; }
grep -q "missing_barrier.c:20" "$out" || { cat "$out"; echo "the report lacks the read, missing_barrier.c:20"; exit 1; }
# The report's stack frames (lines "#N ... file:line"), none in tupc's sources.
if grep -E '^ +#[0-9]+ .*/lib/(coll|sync|heap|check|runtime)/' "$out"; then
    echo "a frame of the report is inside tupc"
    exit 1
fi
echo "TSan reports the sample's race at missing_barrier.c:17 and :20, no frame in lib/"
