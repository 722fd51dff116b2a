#!/usr/bin/env bash
# tupcc's translated UPC against hand-written tupc C of the same algorithm:
# the heat stencil of samples/heat.upc (translated by tupcc) and of
# samples/heat.c, both built by tupcc's C compiler at -O2, on the same cells
# and THREADS. The runs alternate, C then UPC, so both see the same phase of
# the machine; each prints the time of its steps (thread 0, barrier to
# barrier). Prints per THREADS the median and best of each and the ratio of
# the medians, UPC / C (1.00: as fast); and the same for heat_forall.upc,
# the stencil as upc_forall loops of shared accesses, which leave the
# locality to the translator.
# With --spec, instead: each example of samples/spec as UPC (tupcc -O2)
# against its C translation (the build's samples/spec/NAME), the whole run
# of each at 3 THREADS, in turns, median wall time.
#   tests/bench/compare_tupcc.sh [-b BUILD] [-r RUNS] [-c CELLS] [-s STEPS] [-t "1 2"] [--spec]
# BUILD holds the built tupcc and libraries (default build); CELLS are per
# thread (heat.c gets CELLS * THREADS in all); RUNS of each (default 7).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=build
RUNS=7
CELLS=1000000
STEPS=200
TLIST="1 2"
spec=
while [ $# -gt 0 ]; do
    case $1 in
    -b) BUILD=$2; shift 2 ;;
    -r) RUNS=$2; shift 2 ;;
    -c) CELLS=$2; shift 2 ;;
    -s) STEPS=$2; shift 2 ;;
    -t) TLIST=$2; shift 2 ;;
    --spec) spec=yes; shift ;;
    *) echo "usage: $0 [-b BUILD] [-r RUNS] [-c CELLS] [-s STEPS] [-t \"1 2\"] [--spec]" >&2
       exit 2 ;;
    esac
done
tupcc=$BUILD/tools/tupcc/tupcc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
probe() {
    if [ -x "$BUILD/tests/bench/bench_probe" ]; then
        "$BUILD/tests/bench/bench_probe" --label "$1"
    fi
}
# the steps' time of one run, in seconds
steps_time() {
    "$@" | sed -n 's/^heat: steps took \([0-9.]*\) s$/\1/p'
}
# median and best of the numbers on stdin
stats() {
    sort -g | awk '{ v[NR] = $1 } END { printf "%.4f %.4f\n", v[int((NR + 1) / 2)], v[1] }'
}

# the wall time of one run in seconds (its output is checked by the suite)
wall() {
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null
    t1=$(date +%s%N)
    awk -v d="$((t1 - t0))" 'BEGIN { printf "%.6f\n", d / 1e9 }'
}

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo ?)," \
    "load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs, CC=${CC:-cc}"
if [ -n "$spec" ]; then
    echo "# the spec examples at 3 THREADS, whole runs, $RUNS of each, interleaved"
    probe before
    printf '%-20s %10s %10s %8s\n' example "C med s" "UPC med s" "UPC / C"
    for f in samples/spec/*.upc; do
        name=$(basename "$f" .upc)
        n=
        grep -q '/\* dynamic: no \*/' "$f" && n="-n 3"
        # shellcheck disable=SC2086
        "$tupcc" -O2 $n "$f" -lm -o "$tmp/$name" 2>/dev/null
        : >"$tmp/$name.c"
        : >"$tmp/$name.u"
        for _ in $(seq "$RUNS"); do
            wall "$BUILD/samples/spec/$name" -n 3 >>"$tmp/$name.c"
            wall "$tmp/$name" -n 3 >>"$tmp/$name.u"
        done
        read -r cm _ < <(stats <"$tmp/$name.c")
        read -r um _ < <(stats <"$tmp/$name.u")
        printf '%-20s %10s %10s %8s\n' "$name" "$cm" "$um" \
            "$(awk -v u="$um" -v c="$cm" 'BEGIN { printf "%.3f", u / c }')"
    done
    probe after
    echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi
echo "# heat: $CELLS cells per thread, $STEPS steps, -O2, $RUNS runs of each, interleaved"
"$tupcc" -O2 -DHEAT_TIME -DCELLS="$CELLS" -DSTEPS="$STEPS" samples/heat.upc -lm -o "$tmp/heat_upc"
"$tupcc" -O2 -DCELLS="$CELLS" -DSTEPS="$STEPS" tests/bench/heat_forall.upc -lm -o "$tmp/heat_forall"
probe before
fmt='%-8s %9s %9s %11s %11s %8s %14s %10s\n'
# shellcheck disable=SC2059
printf "$fmt" THREADS "C med s" "C best s" "UPC med s" "UPC best s" "UPC / C" "forall med s" \
    "forall / C"
for T in $TLIST; do
    "$tupcc" -O2 -DHEAT_TIME -DN="$((CELLS * T))" -DSTEPS="$STEPS" samples/heat.c -lm \
        -o "$tmp/heat_c$T"
    : >"$tmp/c$T"
    : >"$tmp/u$T"
    : >"$tmp/f$T"
    for _ in $(seq "$RUNS"); do
        steps_time "$tmp/heat_c$T" -n "$T" >>"$tmp/c$T"
        steps_time "$tmp/heat_upc" -n "$T" >>"$tmp/u$T"
        steps_time "$tmp/heat_forall" -n "$T" >>"$tmp/f$T"
    done
    read -r cm cb < <(stats <"$tmp/c$T")
    read -r um ub < <(stats <"$tmp/u$T")
    read -r fm _ < <(stats <"$tmp/f$T")
    # shellcheck disable=SC2059
    printf "$fmt" "$T" "$cm" "$cb" "$um" "$ub" \
        "$(awk -v u="$um" -v c="$cm" 'BEGIN { printf "%.3f", u / c }')" "$fm" \
        "$(awk -v u="$fm" -v c="$cm" 'BEGIN { printf "%.2f", u / c }')"
done
probe after
echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
