#!/bin/sh
# In the ThreadSanitizer build: samples/missing_barrier races, and TSan's
# report names the sample's write and read as the racing accesses, none
# inside tupc's library, whose synchronization TSan sees.
#   tsan_sample.sh MISSING_BARRIER [SOURCE WRITE_LINE READ_LINE]
# SOURCE, the sample's file name, and the lines of its write and read:
# missing_barrier.c 17 20 unless told (missing_barrier.upc, built by tupcc,
# passes its own).
set -u
prog=$1
src=${2:-missing_barrier.c}
wline=${3:-17}
rline=${4:-20}
re=$(printf '%s' "$src" | sed 's/\./\\./g')
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# Several runs: a race shows when both threads run the two lines at once.
for i in 1 2 3 4 5; do
    TSAN_OPTIONS="halt_on_error=0 exitcode=66" "$prog" -n 4 >/dev/null 2>"$out"
    grep -q "WARNING: ThreadSanitizer: data race" "$out" && break
done
grep -q "WARNING: ThreadSanitizer: data race" "$out" || { cat "$out"; echo "no race reported"; exit 1; }
grep -q "$re:$wline" "$out" || { cat "$out"; echo "the report lacks the write, $src:$wline"; exit 1; }
grep -q "$re:$rline" "$out" || { cat "$out"; echo "the report lacks the read, $src:$rline"; exit 1; }
# Both racing accesses are the sample's own lines: the first frame under
# each "Write of size" / "Read of size" is in the sample's file, and so is
# the summary. (The stacks of how the threads were started, and TSan's
# note on sleeps "as if synchronized via sleep", pass through tupc.)
bad=$(awk '/^  (Previous )?(Write|Read|[Aa]tomic [Ww]rite|[Aa]tomic [Rr]ead) of size/ { getline; print }' "$out" |
    grep -v "$re:" || true)
if [ -n "$bad" ]; then
    cat "$out"
    echo "a racing access is not in the sample: $bad"
    exit 1
fi
grep -q "^SUMMARY: ThreadSanitizer: data race .*$re:" "$out" || {
    cat "$out"
    echo "the summary does not name the sample"
    exit 1
}
echo "TSan reports the sample's race at $src:$wline and :$rline; both accesses are the sample's"
