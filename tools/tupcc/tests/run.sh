#!/bin/sh
# One tupcc test: run.sh TUPCC DIR NAME
#   NAME.upc       translated and built (-Wall -Wextra -Werror) with dynamic
#                  THREADS and run at 1, 2, 3, 5 and 8 THREADS, then built with
#                  -n N (static THREADS) and run at N, for N = 1 and 3
#                  (with TUPC_TEST_QUICK: run at 1, 3 and 8, no static build;
#                  with TUPCC_STATIC_ONLY, the static builds only); the
#                  program checks itself and exits non-zero on a failure.
#   refuse_*.upc   must be refused: tupcc fails and prints the text after
#                  `expect:` in its first line, at the line marked `here`.
#   static_*.upc   the same with static THREADS only.
#   A line `also: FILES` in a program names more sources (.upc, .c) of it,
#   in this directory; they are compiled with -c on their own first.
#   A line `threads: N...` gives the THREADS counts it runs at instead (a
#   spec example that names thread 1, or is drawn for 3), and `dynamic: no`
#   builds it with static THREADS only (a block size that names THREADS).
#   cerror_*.upc   the same for a diagnostic of the C compiler on the
#                  generated C: #line puts it at the user's line.
#   warn_*.upc     must be translated and built, with tupcc's warning (the
#                  text after `expect:`) at the line marked `here` and none
#                  elsewhere, and run at 2 THREADS.
# With TUPCC_SILENT_BUILD set, the build must print nothing (no warning of
# tupcc's, which -Werror does not reach). Skips (77) without clang or python3. $TUPCC_CFLAGS goes to tupcc (a
# sanitizer build passes its -fsanitize).
set -eu
LC_ALL=C
export LC_ALL
tupcc=$1
dir=$2
name=$3
command -v clang >/dev/null 2>&1 || { echo "no clang: skipped"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "no python3: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$dir/$name.upc
flags="-Wall -Wextra -Werror ${TUPCC_CFLAGS:-}"
case $name in
refuse_* | cerror_*)
    expect=$(sed -n '1s/.*expect: *\(.*\) \*\/.*/\1/p' "$src")
    line=$(grep -nF '/* here */' "$src" | sed -n '1s/:.*//p')
    if "$tupcc" $flags "$src" -o "$tmp/prog" 2>"$tmp/err"; then
        echo "tupcc accepted $src"
        exit 1
    fi
    cat "$tmp/err"
    grep -qF "$expect" "$tmp/err" || { echo "expected: $expect"; exit 1; }
    grep -q "$name.upc:$line:" "$tmp/err" || { echo "expected the error at line $line"; exit 1; }
    echo "refused as expected"
    exit 0
    ;;
esac
case $name in
warn_*)
    expect=$(sed -n '1s/.*expect: *\(.*\) \*\/.*/\1/p' "$src")
    line=$(grep -nF '/* here */' "$src" | sed -n '1s/:.*//p')
    # shellcheck disable=SC2086
    "$tupcc" $flags "$src" -o "$tmp/prog" 2>"$tmp/err" || { cat "$tmp/err"; echo "tupcc refused $src"; exit 1; }
    cat "$tmp/err"
    grep -F "$expect" "$tmp/err" | grep -q "$name.upc:$line: warning:" ||
        { echo "expected at line $line the warning: $expect"; exit 1; }
    if grep "$name.upc:[0-9]*: warning:" "$tmp/err" | grep -v "$name.upc:$line: "; then
        echo "expected no warning but at line $line"
        exit 1
    fi
    "$tmp/prog" -n 2
    echo "warned as expected"
    exit 0
    ;;
esac
also=$(sed -n 's/.*also: *\([^*]*\) *\*\/.*/\1/p' "$src" | head -n 1)
# build OUT [-n N]: the program from its sources, each compiled on its own
build() {
    out=$1
    shift
    objs=
    for f in $also; do
        # shellcheck disable=SC2086
        "$tupcc" "$@" $flags -c "$dir/$f" -o "$tmp/${f%.*}.o"
        objs="$objs $tmp/${f%.*}.o"
    done
    # shellcheck disable=SC2086
    "$tupcc" "$@" $flags "$src" $objs -o "$out" 2>"$tmp/build_err" || {
        cat "$tmp/build_err" >&2
        exit 1
    }
    # TUPCC_SILENT_BUILD (the samples): a warning of tupcc's own fails too
    if [ -n "${TUPCC_SILENT_BUILD:-}" ] && [ -s "$tmp/build_err" ]; then
        cat "$tmp/build_err"
        echo "tupcc printed the above building $src; expected a silent build"
        exit 1
    fi
    cat "$tmp/build_err" >&2
}
case $name in
static_*) dynamic= ;;
*) dynamic=yes ;;
esac
if grep -q '/\* dynamic: no \*/' "$src"; then
    dynamic=
fi
# TUPCC_STATIC_ONLY (CI's full run, after the quick run built and ran the
# dynamic THREADS form): the static builds alone.
only_static=
if [ -n "$dynamic" ] && [ -n "${TUPCC_STATIC_ONLY:-}" ] && [ -z "${TUPC_TEST_QUICK:-}" ]; then
    only_static=yes
fi
if [ -n "$dynamic" ] && [ -z "$only_static" ]; then
    build "$tmp/dyn"
fi
# TUPC_TEST_QUICK (./dev.sh test, the sanitizer runs): fewer thread counts
threads=${TUPCC_THREADS:-1 2 3 5 8}
if [ -n "${TUPC_TEST_QUICK:-}" ] && [ -z "${TUPCC_THREADS:-}" ]; then
    threads="1 3 8"
fi
mine=$(sed -n 's/.*threads: *\([0-9 ]*\) *\*\/.*/\1/p' "$src" | head -n 1)
if [ -n "$mine" ] && [ -z "${TUPCC_THREADS:-}" ]; then
    threads=$mine
fi
# shellcheck disable=SC2086
threads=$(echo $threads) # one space between counts, none around
# A program built with dynamic THREADS is built with static THREADS at
# fewer counts (each build costs about a second; a run costs little): at
# 1 and 3 of the default counts (one, and a count that divides nothing),
# at the first and last of its own, at none under TUPC_TEST_QUICK (the
# full suite, in CI, builds them).
statics=$threads
if [ -n "$dynamic" ]; then
    if [ -n "${TUPC_TEST_QUICK:-}" ]; then
        statics= # the static builds are CI's (./dev.sh test-matrices)
    elif [ "$threads" = "1 2 3 5 8" ]; then
        statics="1 3"
    else
        statics="${threads%% *} ${threads##* }"
    fi
fi
for n in $threads; do
    if [ -n "$dynamic" ] && [ -z "$only_static" ]; then
        echo "dynamic THREADS, -n $n"
        "$tmp/dyn" -n "$n"
    fi
    case " $statics " in
    *" $n "*) ;;
    *) continue ;;
    esac
    build "$tmp/static$n" -n "$n"
    echo "static THREADS $n"
    "$tmp/static$n"
done
