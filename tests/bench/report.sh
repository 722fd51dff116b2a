#!/usr/bin/env bash
# Every figure of docs/benchmarks.md, on this machine, in one run: builds a
# release tree and runs the barrier, relocalization, reduction and sort
# benchmarks beside their peers (pthread, libgomp, Open MPI, MPICH, qsort,
# std::sort). Each benchmark prints its cache-line probe (fast or slow phase).
#   tests/bench/report.sh [-n P] [-o DIR] [--quick]
set -euo pipefail
cd "$(dirname "$0")/../.."
P=2
OUT=build-release/report
quick=()
while [ $# -gt 0 ]; do
    case $1 in
    -n) P=$2; shift 2 ;;
    -o) OUT=$2; shift 2 ;;
    --quick) quick=(--quick); shift ;;
    *) echo "usage: $0 [-n P] [-o DIR] [--quick]" >&2; exit 2 ;;
    esac
done
[ -f build-release/build.ninja ] || meson setup build-release --buildtype=release >/dev/null
ninja -C build-release >/dev/null
mkdir -p "$OUT"
B=build-release/tests/bench

echo "== barrier (THREADS 1, 2, cores, 2x, 8x, 16x cores)"
"$B/bench_barrier" --csv "$OUT/barrier.csv" | tee "$OUT/barrier.txt"

echo
echo "== start-up time and peak memory of a trivial program at 64, 256 and 1024 THREADS"
for n in 64 256 1024; do "$B/bench_startup" -n "$n" --reps 3; done | tee "$OUT/startup.txt"

echo
echo "== 8-byte broadcast, back to back (pipelined calls), 11 rounds beside the barrier"
"$B/bench_reloc" -n "$P" --min 8 --max 8 --funcs broadcast --modes no,my,all --b2b --rounds 11 |
    tee "$OUT/broadcast8.txt" | sed -n '/^# medians/,$p'

echo
echo "== 8-byte reduce beside the barrier, interleaved"
"$B/bench_reduce" -n "$P" --max 8 | grep -E '^# (probe|8-byte|medians|ALL)' | tee "$OUT/reduce8.txt"

echo
echo "== relocalization beside Open MPI and MPICH (OSU method)"
tests/bench/compare_reloc.sh -n "$P" -b build-release -o "$OUT" --min 8 --max 16M "${quick[@]}" |
    tee "$OUT/reloc.txt"
echo
echo "== relocalization against the memcpy floor (>= 1 MiB), every round"
for f in "$OUT"/reloc_tupc.*.txt; do
    echo "# $f"
    grep -E '^# probe|^memcpy|^(broadcast|scatter|gather|gather_all|exchange|permute) ' "$f" |
        awk '$1 ~ /^#/ || $3 >= 1048576'
done | tee "$OUT/reloc_floor.txt"

echo
echo "== reductions beside Open MPI and MPICH"
tests/bench/compare_reduce.sh -n "$P" -b build-release -o "$OUT" "${quick[@]}" |
    tee "$OUT/reduce.txt"
grep -E '^((reduce|prefix)[LD]|copyNT) ' "$OUT/tupc_reduce.txt" | awk '$3 == 67108864' |
    tee "$OUT/reduce64M.txt"

echo
echo "== sort"
"$B/bench_sort" -n "$P" "${quick[@]}" | tee "$OUT/sort.txt"
