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
# With --kernels, instead: the UPC kernels of tests/bench/kernels (heat,
# triad, matmul, spmv, is, walk; -k "NAMES" picks some), each three ways:
# idiomatic UPC (upc_forall over shared arrays; heat is heat_forall.upc),
# hand-written tupc C (heat is samples/heat.c) and plain serial C doing the
# whole run's work on one thread (the floor), at each THREADS (default
# 1 2 8), in turns, median of the timed part; UPC / C is the ratio of the
# medians of the same run. Each kernel's checksum must agree between its
# UPC and its C (heat checks itself).
#   tests/bench/compare_tupcc.sh [-b BUILD] [-r RUNS] [-c CELLS] [-s STEPS] [-t "1 2"] [--spec]
# --count (with --kernels, not heat): instead of times, the instructions of
# the timed part of each form under valgrind --tool=callgrind (-DKERN_COUNT;
# all threads; a barrier's spinning counts too), smaller sizes, one run: a
# measure the load of the machine does not move.
#   tests/bench/compare_tupcc.sh --kernels [-b BUILD] [-r RUNS] [-t "1 2 8"] [-k "heat triad"] [--count]
# BUILD holds the built tupcc and libraries (default build); CELLS are per
# thread (heat.c gets CELLS * THREADS in all); RUNS of each (default 7).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=build
RUNS=7
CELLS=1000000
STEPS=200
TLIST=
spec=
kernels=
count=
KLIST="heat triad matmul spmv is walk"
while [ $# -gt 0 ]; do
    case $1 in
    -b) BUILD=$2; shift 2 ;;
    -r) RUNS=$2; shift 2 ;;
    -c) CELLS=$2; shift 2 ;;
    -s) STEPS=$2; shift 2 ;;
    -t) TLIST=$2; shift 2 ;;
    --spec) spec=yes; shift ;;
    --kernels) kernels=yes; shift ;;
    -k) KLIST=$2; shift 2 ;;
    --count) count=yes; shift ;;
    *) echo "usage: $0 [-b BUILD] [-r RUNS] [-c CELLS] [-s STEPS] [-t \"1 2\"] [--spec]" >&2
       exit 2 ;;
    esac
done
if [ -z "$TLIST" ]; then
    TLIST="1 2"
    [ -n "$kernels" ] && TLIST="1 2 8"
fi
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
# instructions of the timed part of "$@" under callgrind (the dump at its end)
count_ir() {
    rm -f "$tmp/cg" "$tmp"/cg.*
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$@" >/dev/null 2>&1
    sed -n 's/^summary: //p' "$tmp/cg.1"
}
if [ -n "$kernels" ] && [ -n "$count" ]; then
    K=tests/bench/kernels
    [ "$KLIST" = "heat triad matmul spmv is walk" ] && KLIST="triad matmul spmv is walk"
    [ "$TLIST" = "1 2 8" ] && TLIST="1 2"
    echo "# kernels, -O2, instructions of the timed part (callgrind), per thread: triad 10^5 doubles x 4," \
        "matmul 16 rows x 256 x 256, spmv 5000 rows x 16 x 2, is 10^5 keys x 2, walk 2 x 10^5 ints x 2"
    kfmt='%-7s %3s %12s %12s %12s %9s\n'
    # shellcheck disable=SC2059
    printf "$kfmt" kernel T "serial Ir" "C Ir" "UPC Ir" "UPC / C"
    for k in $KLIST; do
        for T in $TLIST; do
            case $k in
            triad) sz=(-DNPT=100000 -DREPS=4); ser=(-DN="$((100000 * T))" -DREPS=4) ;;
            matmul) sz=(-DRPT=16 -DREPS=1); ser=(-DR="$((16 * T))" -DREPS=1) ;;
            spmv) sz=(-DRPT=5000 -DREPS=2); ser=(-DR="$((5000 * T))" -DREPS=2) ;;
            is) sz=(-DKPT=100000 -DREPS=2); ser=(-DNK="$((100000 * T))" -DREPS=2) ;;
            walk) sz=(-DBW=100000 -DREPS=2); ser=(-DBW="$((100000 * T))" -DREPS=2) ;;
            *) echo "no count for kernel $k" >&2; exit 2 ;;
            esac
            "$tupcc" -O2 -DKERN_COUNT -I"$K" "${sz[@]}" "$K/$k.upc" -lm -o "$tmp/$k.u"
            "$tupcc" -O2 -DKERN_COUNT -I"$K" "${sz[@]}" "$K/$k.c" -lm -o "$tmp/$k.c"
            "${CC:-cc}" -O2 -DKERN_COUNT -I"$K" "${ser[@]}" "$K/${k}_serial.c" -lm -o "$tmp/$k.s"
            ci=$(count_ir "$tmp/$k.c" -n "$T")
            ui=$(count_ir "$tmp/$k.u" -n "$T")
            si=$(count_ir "$tmp/$k.s")
            # shellcheck disable=SC2059
            printf "$kfmt" "$k" "$T" "$si" "$ci" "$ui" "$(awk -v u="$ui" -v c="$ci" 'BEGIN { printf "%.3f", u / c }')"
        done
    done
    exit 0
fi
if [ -n "$kernels" ]; then
    K=tests/bench/kernels
    [ "$CELLS" = 1000000 ] && CELLS=250000
    echo "# kernels, -O2, $RUNS runs of each form, interleaved; per thread: heat $CELLS cells x $STEPS" \
        "steps, triad 1M doubles x 40, matmul 64 rows x 256 x 256 x 16, spmv 50000 rows x 16 x 30," \
        "is 1M keys x 40, walk 2 x 1M ints x 40"
    probe before
    kfmt='%-7s %3s %10s %10s %10s %9s %9s\n'
    # shellcheck disable=SC2059
    printf "$kfmt" kernel T "serial s" "C med s" "UPC med s" "UPC / C" "C / ser"
    for k in $KLIST; do
        for T in $TLIST; do
            case $k in
            heat)
                upc=(tests/bench/heat_forall.upc -DCELLS="$CELLS" -DSTEPS="$STEPS")
                hand=(samples/heat.c -DHEAT_TIME -DN="$((CELLS * T))" -DSTEPS="$STEPS")
                ser=(-DN="$((CELLS * T))" -DSTEPS="$STEPS") ;;
            triad | walk) upc=("$K/$k.upc"); hand=("$K/$k.c")
                if [ $k = triad ]; then ser=(-DN="$((1000000 * T))"); else ser=(-DBW="$((1000000 * T))"); fi ;;
            matmul) upc=("$K/$k.upc"); hand=("$K/$k.c"); ser=(-DR="$((64 * T))") ;;
            spmv) upc=("$K/$k.upc"); hand=("$K/$k.c"); ser=(-DR="$((50000 * T))") ;;
            is) upc=("$K/$k.upc"); hand=("$K/$k.c"); ser=(-DNK="$((1000000 * T))") ;;
            *) echo "no kernel $k" >&2; exit 2 ;;
            esac
            "$tupcc" -O2 -I"$K" "${upc[@]}" -lm -o "$tmp/$k.u" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
            "$tupcc" -O2 -I"$K" "${hand[@]}" -lm -o "$tmp/$k.c$T"
            "${CC:-cc}" -O2 -I"$K" "${ser[@]}" "$K/${k}_serial.c" -lm -o "$tmp/$k.s$T"
            : >"$tmp/tc"; : >"$tmp/tu"; : >"$tmp/ts"
            for _ in $(seq "$RUNS"); do
                "$tmp/$k.c$T" -n "$T" >"$tmp/oc"
                "$tmp/$k.u" -n "$T" >"$tmp/ou"
                "$tmp/$k.s$T" >"$tmp/os"
                sed -n 's/.*took \([0-9.]*\) s$/\1/p' "$tmp/oc" >>"$tmp/tc"
                sed -n 's/.*took \([0-9.]*\) s$/\1/p' "$tmp/ou" >>"$tmp/tu"
                sed -n 's/.*took \([0-9.]*\) s$/\1/p' "$tmp/os" >>"$tmp/ts"
            done
            if [ "$(grep checksum "$tmp/oc")" != "$(grep checksum "$tmp/ou")" ]; then
                echo "$k at $T THREADS: the UPC and the C disagree:" >&2
                cat "$tmp/oc" "$tmp/ou" >&2
                exit 1
            fi
            read -r cm _ < <(stats <"$tmp/tc")
            read -r um _ < <(stats <"$tmp/tu")
            read -r sm _ < <(stats <"$tmp/ts")
            # shellcheck disable=SC2059
            printf "$kfmt" "$k" "$T" "$sm" "$cm" "$um" \
                "$(awk -v u="$um" -v c="$cm" 'BEGIN { printf "%.3f", u / c }')" \
                "$(awk -v s="$sm" -v c="$cm" 'BEGIN { printf "%.3f", c / s }')"
        done
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
