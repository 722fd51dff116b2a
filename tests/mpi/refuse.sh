#!/bin/sh
# refuse.sh RUN.SH IMPL LAUNCHER NP T PROG CASE STATUS PATTERN: the case
# must end the whole job (no hang: meson's timeout) with a non-zero status
# (STATUS, or any non-zero where it is -), and PATTERN in its output.
set -u
run=$1 impl=$2 launcher=$3 np=$4 t=$5 prog=$6 case=$7 want=$8 pattern=$9
out=$(sh "$run" "$impl" "$launcher" "$np" "$t" -- "$prog" "$((np * t))" "$case" 2>&1)
rc=$?
echo "$out"
if [ "$rc" -eq 0 ]; then
    echo "refuse.sh: $case: the job succeeded; expected it to end with an error" >&2
    exit 1
fi
if [ "$want" != - ] && [ "$rc" -ne "$want" ]; then
    echo "refuse.sh: $case: status $rc; expected $want" >&2
    exit 1
fi
if ! printf '%s\n' "$out" | grep -q -- "$pattern"; then
    echo "refuse.sh: $case: no line matching '$pattern'" >&2
    exit 1
fi
echo "refuse.sh: $case: ended with status $rc and the expected message"
