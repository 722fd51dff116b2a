#!/usr/bin/env bash
# Every figure of docs/benchmarks.md, on this machine, in one run: builds a
# release tree and runs the barrier, relocalization, reduction and sort
# benchmarks beside their peers (pthread, libgomp, Open MPI, MPICH, qsort,
# std::sort). Each benchmark prints its cache-line probe (fast or slow phase).
#   tests/bench/report.sh [-n P] [-o DIR] [--quick]
# Each step is one line on stderr ("report.sh: [3/7] ..."), the benchmarks
# show their size on a terminal, and the last lines say where the files are.
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
nsteps=7
k=0
step() {
    k=$((k + 1))
    echo "report.sh: [$k/$nsteps] $*" >&2
}

step "barrier: bench_barrier"
echo "== barrier (THREADS 1, 2, cores, 2x, 8x, 16x cores)"
"$B/bench_barrier" --csv "$OUT/barrier.csv" | tee "$OUT/barrier.txt"

echo
step "start-up: bench_startup at 64, 256 and 1024 THREADS"
echo "== start-up time and peak memory of a trivial program at 64, 256 and 1024 THREADS"
for n in 64 256 1024; do "$B/bench_startup" -n "$n" --reps 3; done | tee "$OUT/startup.txt"

echo
step "8-byte broadcast: bench_reloc --b2b --rounds 11"
echo "== 8-byte broadcast, back to back (pipelined calls), 11 rounds beside the barrier"
"$B/bench_reloc" -n "$P" --min 8 --max 8 --funcs broadcast --modes no,my,all --b2b --rounds 11 |
    tee "$OUT/broadcast8.txt" | sed -n '/^# medians/,$p'

echo
step "8-byte reduce: bench_reduce --max 8"
echo "== 8-byte reduce beside the barrier, interleaved"
"$B/bench_reduce" -n "$P" --max 8 | grep -E '^# (probe|8-byte|medians|ALL)' | tee "$OUT/reduce8.txt"

echo
step "relocalization beside Open MPI and MPICH: compare_reloc.sh"
echo "== relocalization beside Open MPI and MPICH (OSU method)"
tests/bench/compare_reloc.sh -n "$P" -b build-release -o "$OUT" --min 8 --max 16M "${quick[@]}" \
    --csv "$OUT/reloc_medians.csv" |
    tee "$OUT/reloc.txt"
echo
echo "== relocalization against the memcpy floor (>= 1 MiB), every round"
for f in "$OUT"/reloc_tupc.*.txt; do
    echo "# $f"
    grep -E '^# probe|^memcpy|^(broadcast|scatter|gather|gather_all|exchange|permute) ' "$f" |
        awk '$1 ~ /^#/ || $3 >= 1048576'
done | tee "$OUT/reloc_floor.txt"

echo
step "reductions beside Open MPI and MPICH: compare_reduce.sh"
echo "== reductions beside Open MPI and MPICH"
tests/bench/compare_reduce.sh -n "$P" -b build-release -o "$OUT" "${quick[@]}" --csv "$OUT/reduce_table.csv" |
    tee "$OUT/reduce.txt"
grep -E '^((reduce|prefix)[LD]|copyNT) ' "$OUT/tupc_reduce.txt" | awk '$3 == 67108864' |
    tee "$OUT/reduce64M.txt"

echo
step "sort: bench_sort"
echo "== sort"
"$B/bench_sort" -n "$P" "${quick[@]}" | tee "$OUT/sort.txt"

{
    echo
    echo "report.sh: done; the outputs are in $OUT/:"
    echo "report.sh:   the tables: $(cd "$OUT" && ls ./*.txt | sed 's|^\./||' | grep -Ev '^(reloc_tupc|reloc_mpi|tupc_|mpi_)' | tr '\n' ' ')"
    echo "report.sh:   every figure as CSV: $(cd "$OUT" && ls ./*.csv | sed 's|^\./||' | tr '\n' ' ')"
} >&2
