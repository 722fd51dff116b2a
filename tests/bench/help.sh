#!/bin/sh
# help.sh [--sources DIR] PROGRAM...: the help test. Each PROGRAM, with
# --help and with -h, prints a text that starts "usage:" to stdout, nothing to
# stderr, and exits 0 within 10 s (a benchmark that ran instead would take
# minutes); with --no-such-option it prints nothing to stdout, its usage to
# stderr, and exits 2.
# With --sources, every DIR/bench_*.c must be a PROGRAM (by name), so that a
# new benchmark cannot go untested; only the ones that tests/bench/meson.build
# builds on an optional dependency may be missing.
set -u

# Built only when OpenMP is found (tests/bench/meson.build).
optional="bench_barrier bench_reduce"

src=
if [ "${1:-}" = --sources ]; then
    src=$2
    shift 2
fi
[ $# -gt 0 ] || {
    echo "usage: help.sh [--sources DIR] PROGRAM..." >&2
    exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() {
    echo "FAIL $*" >&2
    fail=1
    bad=1
}

for prog in "$@"; do
    name=${prog##*/}
    bad=0
    for opt in --help -h; do
        timeout 10 "$prog" "$opt" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        if [ $rc = 124 ]; then
            err "$name $opt: still running after 10 s"
            continue
        fi
        [ $rc = 0 ] || err "$name $opt: exit $rc, expected 0"
        head -n 1 "$tmp/out" | grep -q '^usage: ' || err "$name $opt: stdout does not start with 'usage: '"
        [ -s "$tmp/err" ] && err "$name $opt: wrote to stderr: $(head -n 1 "$tmp/err")"
    done
    timeout 10 "$prog" --no-such-option >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] || err "$name --no-such-option: exit $rc, expected 2"
    grep -q '^usage: ' "$tmp/err" || err "$name --no-such-option: no usage on stderr"
    [ -s "$tmp/out" ] && err "$name --no-such-option: wrote to stdout: $(head -n 1 "$tmp/out")"
    [ $bad = 0 ] && echo "ok   $name"
done

if [ -n "$src" ]; then
    for f in "$src"/bench_*.c; do
        b=$(basename "$f" .c)
        found=0
        for prog in "$@"; do
            [ "${prog##*/}" = "$b" ] && found=1
        done
        [ $found = 1 ] && continue
        case " $optional " in
        *" $b "*) echo "skip $b: not built (needs OpenMP)" ;;
        *) err "$b: tests/bench/$b.c has no program among the arguments" ;;
        esac
    done
fi
exit $fail
