#!/usr/bin/env bash
# A/B of two release builds of tupc on the figures that a change to the engine
# can move: 8-byte broadcast and reduce from one program built against both
# (bench_small.c), then, from each build's own benchmarks, 8-byte broadcast (NO|NO, MY|MY, ALL|ALL, back to back) and 8-byte
# reduce (NO|NO, ALL|ALL, in barriers), the barrier from 2 to 64 THREADS beside
# the central yield+usleep barrier, and 1 and 16 MiB broadcast and exchange
# against the memcpy floor. The two builds alternate, R rounds, so that both
# see the same phases of the VM; each benchmark prints its probe.
#   tests/bench/ab.sh A_BUILD B_BUILD [-r R] [-n P]
# Example, the tree at some commit against this one:
#   git worktree add /tmp/base COMMIT && (cd /tmp/base && meson setup build-release
#     --buildtype=release && ninja -C build-release)
#   tests/bench/ab.sh /tmp/base/build-release build-release -r 3
# AB_PREBUILT=DIR takes bench_small's two programs from DIR/small_A and
# DIR/small_B instead of compiling them. Each step is one line on stderr.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 A_BUILD B_BUILD [-r R] [-n P]" >&2; exit 2; }
A=$1 B=$2
shift 2
R=3 P=2
while [ $# -gt 0 ]; do
    case $1 in
    -r) R=$2; shift 2 ;;
    -n) P=$2; shift 2 ;;
    *) echo "usage: $0 A_BUILD B_BUILD [-r R] [-n P]" >&2; exit 2 ;;
    esac
done
# First bench_small.c, compiled against both static libraries (the same
# program), 15 turns per figure: the median of the pairwise ratios B/A.
src=$(cd "$(dirname "$0")" && pwd)/bench_small.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for side in A B; do
    dir=$A
    [ "$side" = B ] && dir=$B
    # AB_PREBUILT: a folder with small_A and small_B built elsewhere (a
    # machine without a compiler or libnuma's headers).
    if [ -n "${AB_PREBUILT:-}" ]; then
        cp "$AB_PREBUILT/small_$side" "$tmp/small_$side"
        continue
    fi
    cc -O2 -I"$dir/../include" -I"$dir/include" -I"${src%/*}/common" "$src" "$dir/lib/libtupc.a" -lnuma -lpthread \
        -o "$tmp/small_$side"
done
nf=0
for fig in "broadcast 0x09" "broadcast 0x12" "broadcast 0x24" "reduce 0x09" "reduce 0x24"; do
    nf=$((nf + 1))
    echo "ab.sh: bench_small $fig, A and B in 15 turns (figure $nf of 5)" >&2
    for i in $(seq 1 15); do
        echo "$("$tmp/small_A" $fig) $("$tmp/small_B" $fig)"
    done | awk '{ print $2 / $1, $1, $2 }' | sort -n |
        awk -v fig="$fig" '{ r[NR] = $1; a[NR] = $2; b[NR] = $3 }
        END { m = int((NR + 1) / 2)
              printf "%-16s B/A median %.3f (quartiles %.3f-%.3f), that turn: A %s ns, B %s ns\n",
                     fig, r[m], r[int(NR / 4)], r[int(3 * NR / 4)], a[m], b[m] }'
done
for r in $(seq 1 "$R"); do
    for side in A B; do
        dir=$A
        [ "$side" = B ] && dir=$B
        bench=$dir/tests/bench
        echo "=== $side ($dir) round $r"
        echo "ab.sh: round $r of $R, $side: bench_reloc, bench_reduce, bench_barrier" >&2
        "$bench/bench_reloc" -n "$P" --min 8 --max 8 --funcs broadcast --modes no,my,all --b2b \
            --rounds 11 | sed -n '/^# probe before/p;/^# medians/,$p' | grep -v 'probe after'
        "$bench/bench_reduce" -n "$P" --max 8 | grep -E '^# (probe before|medians|ALL)'
        "$bench/bench_barrier" --threads 2,4,16,32,64 --reps 7 |
            grep -E '^# probe before|^ +[0-9]+  (upc_barrier|central)'
        "$bench/bench_reloc" -n "$P" --min 1M --max 16M --funcs broadcast,exchange --modes all |
            grep -E '^# probe before|^(memcpy|broadcast|exchange) ' | awk '$1 ~ /^#/ || $3 == 1048576 || $3 == 16777216'
    done
done
